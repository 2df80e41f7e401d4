"""House players: a seat the bot plays itself, from what that seat may see.

:func:`decide` answers one pending decision. It reads only the seat's
:class:`~engine.views.PrivateView` (its own cards), the table's
:class:`~engine.views.PublicView`, the game's :class:`~engine.rules.GameRules` (which everyone
at the table knows) and the table's :class:`~engine.habits.Habits` (how often each player has
bet in the hands played there), so a house player never knows more than a person in its seat
would. The levels differ in judgement, not in information:

* ``easy`` draws by a rule of thumb and plays straightforwardly: it opens good hands, bets
  after the draw only with a big one, calls from a fixed chance whatever the pot and never
  raises light nor bluffs;
* ``normal`` draws by the exact odds (:func:`engine.odds.best_draws`), for the best chance to
  beat what a casual player finishes with where that is measured, judges its hand against the
  measured range of a casual player's hand (or its better part, when the bet it faces comes
  from a player who seldom bets) and weighs pot odds;
* ``hard`` counts its chance to beat each opponent over every card it may draw, against a
  range read from how many cards that opponent drew, draws for that chance rather than for
  raw strength, bets whenever it is ahead, calls down lighter but raises a bet only with
  what beats the better half of the bettor's range, and sometimes bluffs or slowplays.

>>> import random
>>> from engine import Table, TableConfig
>>> table = Table(TableConfig("five-card-draw"))
>>> _ = table.sit("ann", 100), table.sit("house", 100)
>>> _ = table.start_hand(random.Random(3))
>>> decision = table.pending[0]
>>> view = table.private_view(decision.seat)
>>> action = decide(view, table.public_view(), decision, Level.NORMAL, random.Random(1),
...                 rules=table.current_rules)
>>> type(action).__name__ in {"Check", "Bet", "Fold", "Call", "Raise"}
True
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb, prod
from types import MappingProxyType
from typing import Any

from engine.actions import (
    Action,
    Arrange,
    Bet,
    Call,
    Check,
    ChooseGame,
    Declare,
    Discard,
    Fold,
    Keep,
    Muck,
    PassCards,
    Raise,
    Timeout,
)
from engine.cards import Card, parse_cards
from engine.decisions import (
    ArrangeOptions,
    BetOptions,
    ChooseOptions,
    Decision,
    DeclareOptions,
    DrawOptions,
    KeepOptions,
    PassOptions,
    ShowOptions,
)
from engine.errors import Refusal
from engine.events import Drew, Event, Reshuffled
from engine.habits import Habits
from engine.hands import MOST_CARDS, Category, HandValue, Ranking, evaluate, low_qualifies
from engine.odds import (
    EXACT_LIMIT,
    SAMPLES,
    DrawOdds,
    best_draws,
    discard_strengths,
    draw_odds,
    draw_strength,
    strength_of,
)
from engine.rules import (
    DRAW_FOUR_WITH_ACE,
    DealBoard,
    Direction,
    Draw,
    DrawSeries,
    GameRules,
    Split,
)
from engine.steps.drawing import discard_counts
from engine.views import PrivateView, PublicView
from engine.wording import Phrase

__all__ = [
    "LEVELS",
    "Level",
    "NoOdds",
    "decide",
    "draw_advice",
    "hand_strength",
    "own_discards",
    "study_odds",
]


class Level(StrEnum):
    """How well a house player plays."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


LEVELS: tuple[Level, ...] = (Level.EASY, Level.NORMAL, Level.HARD)


@dataclass(frozen=True, slots=True)
class _Style:
    exact_draws: bool  # the odds engine rather than a rule of thumb
    ranges: bool  # measured opponent ranges rather than a guessed power of the strength
    open_at: float  # win chance from which it bets before the draw
    value_at: float  # win chance from which it bets after the draw
    raise_at: float  # win chance from which it raises a bet
    call_slack: float  # added to its win chance when deciding to call after the draw
    call_at: float  # a fixed win chance from which it calls, whatever the pot (0: pot odds)
    bluff: float  # how often it bets a weak hand nobody has bet into
    slowplay: float  # how often it only calls with a very strong hand
    reads: bool  # counts opponents' draws and its own position
    noise: float  # how much its judgement wavers from one decision to the next
    counts: bool = False  # counts win chances from its draw's outcomes and measured ranges


_STYLES = {
    # plain: draws by the rule of thumb, opens good pairs, bets after the draw only with a
    # big hand, calls from a fixed chance whatever the pot and never raises light
    Level.EASY: _Style(
        exact_draws=False,
        ranges=False,
        open_at=0.75,
        value_at=0.98,
        raise_at=0.98,
        call_slack=0.0,
        call_at=0.4,
        bluff=0.0,
        slowplay=0.0,
        reads=False,
        noise=0.0,
    ),
    # sound: the odds engine's draw (for its chance against any hand's measured range), the
    # measured range of any hand, pot odds; bets for value only when well ahead
    Level.NORMAL: _Style(
        exact_draws=True,
        ranges=True,
        open_at=0.6,
        value_at=0.8,
        raise_at=0.7,
        call_slack=0.05,
        call_at=0.0,
        bluff=0.0,
        slowplay=0.0,
        reads=False,
        noise=0.04,
    ),
    # sharp: counts its chance to beat each opponent's measured range (read by the cards it
    # drew) over every card it may draw, draws for that chance, bets whenever ahead, raises
    # and calls down lighter, and now and then bluffs or slowplays
    Level.HARD: _Style(
        exact_draws=True,
        ranges=True,
        open_at=0.5,
        value_at=0.5,
        raise_at=0.5,
        call_slack=0.2,
        call_at=0.0,
        bluff=0.03,
        slowplay=0.03,
        reads=True,
        noise=0.02,
        counts=True,
    ),
}


# Hard in a game without a measured range: its chance there is a guess that may be far off,
# so it keeps wide margins where a measured chance lets it bet and call close to even.
_GUESSING = replace(_STYLES[Level.HARD], open_at=0.6, value_at=0.7, raise_at=0.78, call_slack=0.0)


def decide(
    private: PrivateView,
    public: PublicView,
    decision: Decision,
    level: Level | str,
    rng: random.Random,
    *,
    rules: GameRules,
    habits: Habits | None = None,
) -> Action:
    """The action a house player of ``level`` takes for ``decision``, always a legal one.

    ``private`` is the view of the deciding seat, ``public`` the table's view and ``rules``
    the rules of the hand in play; ``habits``, what the table has seen of its players' bets
    in earlier hands (none by default). ``rng`` supplies the only randomness, so the same
    inputs and the same generator state give the same action.
    """
    style = _STYLES[Level(level)]
    legal = decision.legal
    seen = _Seen(private, public, rules, habits=habits)
    if isinstance(legal, BetOptions):
        return _bet(seen, legal, style, rng)
    if isinstance(legal, DrawOptions):
        return Discard(_discard(seen, legal, style))
    if isinstance(legal, KeepOptions):
        return _keep(seen, legal)
    if isinstance(legal, PassOptions):
        return PassCards(_passed(seen, legal.cards, legal.count))
    if isinstance(legal, ArrangeOptions):
        return Arrange(_arrange(seen, legal))
    if isinstance(legal, DeclareOptions):
        return Declare(_declare(seen, legal, style, rng))
    if isinstance(legal, ChooseOptions):
        return _choose(legal, rng)
    if isinstance(legal, ShowOptions):
        # The engine asks only when the hand can win nothing: showing it gives information away.
        return Muck()
    return Timeout()


# ---------------------------------------------------------------------------------------------
# What the seat knows


_NO_HABITS = Habits()
_NOBODY: Mapping[int, float] = MappingProxyType({})


class _Seen:
    """The facts a decision uses, all from the seat's views and the game's rules (and what
    the table has seen of its players' habits)."""

    __slots__ = (
        "board",
        "cards",
        "dead",
        "deck",
        "drawn",
        "habits",
        "plays",
        "private",
        "public",
        "rules",
        "wild",
    )

    def __init__(
        self,
        private: PrivateView,
        public: PublicView,
        rules: GameRules,
        dead: tuple[Card, ...] = (),
        habits: Habits | None = None,
    ) -> None:
        self.private = private
        self.habits = habits or _NO_HABITS
        self.public = public
        self.rules = rules
        self.cards = private.cards
        self.board = public.board
        self.plays = rules.board_plays
        self.wild = frozenset(parse_cards(public.wild)) if public.wild else frozenset()
        self.deck = rules.deck
        # a board card that does not play is still a card nobody can draw
        board = () if self.plays else tuple(public.board)
        self.dead: tuple[Card, ...] = (*board, *(c for c in dead if c not in board))
        me = next((s for s in public.seats if s.seat == private.seat), None)
        self.drawn = len(me.draws) if me is not None else 0  # drawing rounds the seat is past

    @classmethod
    def of_rules(
        cls, rules: GameRules, wild: frozenset[Card], dead: tuple[Card, ...] = ()
    ) -> _Seen:
        """The facts of a game away from any table (for study)."""
        seen = cls.__new__(cls)
        seen.rules = rules
        seen.cards = ()
        seen.board = ()
        seen.plays = rules.board_plays
        seen.wild = wild
        seen.deck = rules.deck
        seen.dead = dead
        seen.drawn = 0
        seen.habits = _NO_HABITS
        return seen

    @property
    def ranking(self) -> Ranking:
        return self.rules.low if self.rules.split is Split.LOW else self.rules.high

    @property
    def low(self) -> Ranking | None:
        return self.rules.low if self.rules.split in (Split.HIGH_LOW, Split.DECLARE) else None

    @property
    def playing(self) -> tuple[Card, ...]:
        return (*self.cards, *self.board) if self.plays else self.cards

    @property
    def draws_left(self) -> bool:
        """Whether a drawing round is still to come (before the first draw, or a series)."""
        steps = self.rules.steps
        if any(isinstance(step, DrawSeries) for step in steps):
            return True
        return self.draws_to_come > 0

    @property
    def draws_to_come(self) -> int:
        """The drawing rounds still to come (the one being decided included), not a series."""
        return max(0, sum(1 for step in self.rules.steps if isinstance(step, Draw)) - self.drawn)


# ---------------------------------------------------------------------------------------------
# Strength: the share of the deck's five-card hands the final hand is expected to beat

_CACHE: OrderedDict[tuple[object, ...], tuple[object, int]] = OrderedDict()
_CACHE_BUDGET = 200_000
"""What the cache may hold, in final values counted by the odds it keeps (a float counts one):
about 25 MB. One entry can weigh thousands (the odds of every discard of a hand), so a bound on
the number of entries would let a bot with house players at many tables grow by gigabytes.
The same hand is asked about again within a few decisions, so a small cache is enough."""
_cache_weight = 0


def _weight(found: object) -> int:
    """What an entry of the cache holds, in :data:`_CACHE_BUDGET`'s unit."""
    if isinstance(found, DrawOdds):
        return 1 + found.size + (found.low.size if found.low is not None else 0)
    if isinstance(found, list):
        return 1 + sum(_weight(odds) for _, odds in found)
    return 1


def clear_cache() -> None:
    """Forget every count kept for the next decisions (they are made again when needed)."""
    global _cache_weight
    _CACHE.clear()
    _cache_weight = 0


def _cached(key: tuple[object, ...], make: object) -> object:
    global _cache_weight
    entry = _CACHE.get(key)
    if entry is not None:
        _CACHE.move_to_end(key)
        return entry[0]
    found = make()  # type: ignore[operator]
    weight = _weight(found)
    _CACHE[key] = (found, weight)
    _cache_weight += weight
    while _cache_weight > _CACHE_BUDGET and len(_CACHE) > 1:
        _, (_, dropped) = _CACHE.popitem(last=False)
        _cache_weight -= dropped
    return found


# Hands of more than five cards are counted set by set (engine.odds): these bounds (sets
# counted exactly at most, else seeded samples; the seed is made from the hand, so the same
# hand is always judged alike) keep a house player's decision to tens of milliseconds; the
# coach, which a person reads, counts more.
LARGE_EXACT = 600
LARGE_SAMPLES = 300
COACH_LIMITS = (4_000, 1_000)
# A house player holding more than five cards weighs only discards of its LARGE_WORST worst
# cards (by the rule of thumb's order): the best five are never all worth breaking up.
LARGE_WORST = 4
# The stripped deck's ranking has no short cut for hands of more than five cards (each set
# drawn to a nine-card hand is 126 five-card hands to rank): there the coach weighs the
# discards a house player does, within COACH_BUDGET five-card rankings in all, each discard
# at least COACH_FLOOR sets (the odds then say they are an estimate). A panel waits on the
# count, and so does every house player and coach on the bot's one odds thread: counted in
# full, a nine-card hand took two minutes.
COACH_BUDGET = 60_000
COACH_FLOOR = 30


def _game_key(seen: _Seen) -> tuple[object, ...]:
    """What the odds of a hand depend on besides the hand: part of every cache key."""
    return (seen.ranking, seen.low, seen.rules.low_qualifier, seen.wild, seen.dead, seen.deck)


def _game_args(seen: _Seen) -> dict[str, Any]:
    """The keyword arguments of :mod:`engine.odds` for this game (deck, wild and dead cards,
    the low half of a split game)."""
    return {
        "wild": seen.wild,
        "dead": seen.dead,
        "deck": seen.deck,
        "low": seen.low,
        "low_qualifier": (seen.rules.low_qualifier if seen.rules.split is Split.HIGH_LOW else None),
    }


def _odds_of(
    seen: _Seen,
    hand: tuple[Card, ...],
    discard: tuple[Card, ...],
    limits: tuple[int, int] = (LARGE_EXACT, LARGE_SAMPLES),
) -> DrawOdds:
    """The odds of one discard; ``limits``: the sets counted exactly at most and the samples
    otherwise, for hands of more than five cards."""

    def make() -> DrawOdds:
        return draw_odds(
            hand,
            discard,
            seen.ranking,
            exact_limit=limits[0],
            samples=limits[1],
            **_game_args(seen),
        )

    result = _cached(("odds", hand, discard, limits, *_game_key(seen)), make)
    assert isinstance(result, DrawOdds)
    return result


def _worth_of(seen: _Seen, hand: tuple[Card, ...], discard: tuple[Card, ...]) -> float:
    """:func:`_score` of :func:`_odds_of` for one discard, without counting its sets by value
    (about half the work)."""

    def make() -> float:
        return _worth(
            *draw_strength(
                hand,
                discard,
                seen.ranking,
                exact_limit=LARGE_EXACT,
                samples=LARGE_SAMPLES,
                **_game_args(seen),
            )
        )

    result = _cached(("worth", hand, discard, *_game_key(seen)), make)
    assert isinstance(result, float)
    return result


def _best(
    seen: _Seen,
    hand: tuple[Card, ...],
    most: int,
    limits: tuple[int, int] = (LARGE_EXACT, LARGE_SAMPLES),
) -> list[tuple[tuple[Card, ...], DrawOdds]]:
    def make() -> list[tuple[tuple[Card, ...], DrawOdds]]:
        return best_draws(
            hand,
            seen.ranking,
            max_discard=most,
            exact_limit=limits[0],
            samples=limits[1],
            **_game_args(seen),
        )

    result = _cached(("best", hand, most, limits, *_game_key(seen)), make)
    assert isinstance(result, list)
    return result


def _ranked(seen: _Seen, hand: tuple[Card, ...], most: int) -> list[tuple[tuple[Card, ...], float]]:
    """The discards of a five-card hand in the order of :func:`_best`, each with its
    :func:`_score`, without counting each draw by value (half the work)."""

    def make() -> list[tuple[tuple[Card, ...], float]]:
        found = discard_strengths(hand, seen.ranking, max_discard=most, **_game_args(seen))
        return [(discard, _worth(high, low)) for discard, high, low in found]

    result = _cached(("ranked", hand, most, *_game_key(seen)), make)
    assert isinstance(result, list)
    return result


def _large_discards(seen: _Seen, hand: tuple[Card, ...], most: int) -> list[tuple[Card, ...]]:
    """The discards weighed for a hand of more than five cards: every set of at most ``most``
    of its :data:`LARGE_WORST` worst cards, in the hand's order."""
    worst = _order_worst(seen, hand)[:LARGE_WORST]
    return [
        tuple(card for card in hand if card in chosen)
        for size in range(min(most, len(worst)) + 1)
        for chosen in combinations(worst, size)
    ]


def _coach_limits(hand: tuple[Card, ...], discards: int) -> tuple[int, int]:
    """The coach's sets counted exactly at most and samples otherwise, for each of
    ``discards`` discards of ``hand`` (see :data:`COACH_BUDGET`).

    >>> from engine.cards import parse_cards
    >>> _coach_limits(parse_cards("As Kd 7c 2h 3s 9d"), 15), _coach_limits(parse_cards(
    ...     "As Kd 7c 2h 3s 9d 4c 5h Js"), 15)
    ((666, 666), (31, 31))
    """
    per = max(COACH_FLOOR, COACH_BUDGET // (discards * comb(len(hand), 5)))
    return min(COACH_LIMITS[0], per), min(COACH_LIMITS[1], per)


def _best_large(
    seen: _Seen,
    hand: tuple[Card, ...],
    most: int,
    limits: tuple[int, int] = (LARGE_EXACT, LARGE_SAMPLES),
) -> list[tuple[tuple[Card, ...], DrawOdds]]:
    """The discards of a hand of more than five cards (:func:`_large_discards`), the best first
    by :func:`_score`; ``limits`` as for :func:`_odds_of`."""
    key = ("large", hand, most, limits, seen.ranking, seen.low, seen.wild, seen.dead, seen.deck)

    def make() -> list[tuple[tuple[Card, ...], DrawOdds]]:
        ranked: list[tuple[float, int, tuple[Card, ...], DrawOdds]] = []
        for discard in _large_discards(seen, hand, most):
            odds = _odds_of(seen, hand, discard, limits)
            ranked.append((-_score(odds), len(discard), discard, odds))
        ranked.sort(key=lambda item: (item[0], item[1]))
        return [(discard, odds) for _, _, discard, odds in ranked]

    result = _cached(key, make)
    assert isinstance(result, list)
    return result


def _score(odds: DrawOdds) -> float:
    """One number for a draw's worth: the expected strength, in a split game the better half
    plus a little of the other (a scoop is worth more than half)."""
    return _worth(odds.strength, None if odds.low is None else odds.low.strength)


def _worth(high: Fraction, low: Fraction | None) -> float:
    """:func:`_score` of a draw of these strengths."""
    if low is None:
        return float(high)
    return max(float(high), float(low)) + 0.25 * min(float(high), float(low))


def _five(seen: _Seen, cards: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """The best five of ``cards`` for the game's main ranking, or None for short hands."""
    if len(cards) < 5:
        return None
    if len(cards) == 5:
        return cards
    value = evaluate(cards, seen.ranking, wild=seen.wild)
    return tuple(played.card for played in value.cards)


def _strength_to_come(seen: _Seen, cards: tuple[Card, ...]) -> float:
    """A five-card hand's expected strength with more draws to come: that of its best draw
    among the few of most expected strength, a draw worth what drawing again while it misses
    makes it (:func:`_drawn_again`). Valued by one draw, a pat jack-low would rank above a
    one-card draw to a seven at the first of three draws."""
    to_come = seen.draws_to_come

    def worth(discard: tuple[Card, ...], share: float) -> float:
        if not discard:
            return share  # standing pat keeps the hand whatever comes
        counts: dict[float, int] = {}
        for value, count in _odds_of(seen, cards, discard).outcomes:
            strength = _strength_of_value(seen, value)
            counts[strength] = counts.get(strength, 0) + count
        return _drawn_again(counts, to_come)

    def make() -> float:
        return max(worth(*ranked) for ranked in _ranked(seen, cards, 3)[:_DRAW_CANDIDATES])

    result = _cached(("to come", cards, to_come, *_game_key(seen)), make)
    assert isinstance(result, float)
    return result


def _short_strength(seen: _Seen, cards: tuple[Card, ...]) -> float:
    """The share of hands of as many cards that a hand of fewer than five beats (a short
    game's hand, or one still being dealt: four-before, Q-ball), ranked by pairs and sets only,
    ties counted half; one or two cards get a rough guess."""
    # The 32-card ranking values five cards only; pairs and sets rank alike under high.
    ranking = Ranking.HIGH if seen.ranking is Ranking.STRIPPED_HIGH else seen.ranking
    if len(cards) >= 3:
        score = evaluate(cards, ranking, wild=seen.wild).score
        scores, below = _short_hands(ranking, len(cards))
        index = bisect_left(scores, score)
        tie = (
            below[index + 1] - below[index] if index < len(scores) and scores[index] == score else 0
        )
        return (below[index] + tie / 2) / below[-1]
    pair = len(cards) == 2 and cards[0].rank == cards[1].rank
    if seen.ranking.is_low:
        return 0.2 if pair else 0.6
    return min(0.95, 0.25 + 0.3 * pair + max(card.rank for card in cards) / 60)


_SHORT: dict[tuple[Ranking, int], tuple[list[int], list[int]]] = {}


def _short_hands(ranking: Ranking, size: int) -> tuple[list[int], list[int]]:
    """Every score of a hand of ``size`` cards (three or four) of a 52-card deck under
    ``ranking``, ascending, and how many hands score below each (one more entry: all of them).
    Short hands rank by their ranks alone, so one hand of each multiset of ranks is evaluated,
    weighed by the ways to pick its suits."""
    found = _SHORT.get((ranking, size))
    if found is None:
        counts: dict[int, int] = {}
        for ranks in combinations_with_replacement(range(2, 15), size):
            runs = {rank: ranks.count(rank) for rank in ranks}
            if max(runs.values()) > 4:
                continue
            # four suits in turn: every card its own suit, as a short hand's flush counts not
            hand = tuple(Card(rank, "cdhs"[index]) for index, rank in enumerate(ranks))
            score = evaluate(hand, ranking).score
            ways = 1
            for run in runs.values():
                ways *= comb(4, run)
            counts[score] = counts.get(score, 0) + ways
        scores = sorted(counts)
        below = [0]
        for score in scores:
            below.append(below[-1] + counts[score])
        found = _SHORT[ranking, size] = (scores, below)
    return found


def hand_strength(
    private: PrivateView, public: PublicView, rules: GameRules, *, exact: bool = True
) -> float:
    """The seat's hand as a number from 0 to about 1.25: the expected share of the deck's
    five-card hands it beats at the showdown (after the best draw when a draw is still to
    come; a split game adds a quarter of its weaker half)."""
    return _strength(_Seen(private, public, rules), exact)


def _strength(seen: _Seen, exact: bool) -> float:
    cards = seen.playing
    if not cards:
        return 0.0
    five = _five(seen, cards)
    if five is None:
        share = _short_strength(seen, cards)
        if seen.draws_left:
            return share
        # after the draw the hands still in are drawn to and kept: the better part of those
        # dealt, among which a share of all dealt hands counts for less
        return _among_the_better_part(share)
    series = any(isinstance(step, DrawSeries) for step in seen.rules.steps)
    if seen.draws_left and len(cards) <= MOST_CARDS and not seen.plays and not series:
        if exact:
            if len(cards) == 5 and seen.draws_to_come > 1 and seen.low is None:
                share = _strength_to_come(seen, cards)
            elif len(cards) == 5:
                share = _ranked(seen, cards, 3)[0][1]
            else:
                share = _score(_best_large(seen, cards, 3)[0][1])
        else:
            share = _worth_of(seen, cards, _rule_of_thumb(seen, cards, 3))
    else:
        share = _score(_odds_of(seen, five, ()))
    # The best five of more cards is measured against other players' best five of as many.
    # A split game's worth runs to 1.25: the power applies to its share of that.
    top = 1.0 if seen.low is None else 1.25
    return float(top * (share / top) ** (1 + 1.5 * (len(cards) - 5)))


# ---------------------------------------------------------------------------------------------
# Advice for a person (the coach)


class NoOdds(Refusal):
    """The odds engine counts hands of five to nine cards drawing as many as they throw, with
    no board: this game's hands are not such."""


def own_discards(events: Iterable[Event], seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` threw away so far this hand: its own knowledge, out of the deck for
    the next draw unless a reshuffle brings them back."""
    thrown: list[Card] = []
    for event in events:
        if isinstance(event, Reshuffled):
            thrown.clear()
        elif isinstance(event, Drew) and event.seat == seat:
            thrown.extend(event.discarded)
    return tuple(thrown)


def draw_advice(
    private: PrivateView,
    public: PublicView,
    rules: GameRules,
    *,
    dead: Iterable[Card] = (),
    top: int = 3,
) -> list[tuple[tuple[Card, ...], DrawOdds]]:
    """The ``top`` best legal discards of the seat's pending draw with their odds, best
    first (as :func:`engine.odds.best_draws` ranks them, the game's deck, wild cards and low
    qualifier applied, ``dead`` cards out of the deck; where the game's final hands are
    measured, by the chance to beat a typical one: :func:`_for_typical_player`). Five-card
    hands get exact counts; larger ones (seven-card draw, ``cards:N``) exact counts when the
    sets are few, else a seeded estimate (:attr:`engine.odds.DrawOdds.exact` says which), and
    at most three cards thrown.

    :raises NoOdds: when the seat has no draw to make or its hand is not five to nine cards
        (short hands, a board card that plays, four-before's extra card).
    """
    decision = private.decision
    if decision is None or not isinstance(decision.legal, DrawOptions):
        raise NoOdds("there is no draw to make")
    legal = decision.legal
    seen = _Seen(private, public, rules, tuple(dead))
    if not 5 <= len(legal.cards) <= MOST_CARDS or seen.plays or legal.extra:
        raise NoOdds("the odds are for hands of five to nine cards drawing as many as they throw")
    most = min(legal.most, 5 if len(legal.cards) == 5 else 3)
    if len(legal.cards) > 5 and seen.ranking is Ranking.STRIPPED_HIGH:
        discards = len(_large_discards(seen, legal.cards, most))
        found = _best_large(seen, legal.cards, most, _coach_limits(legal.cards, discards))
    else:
        found = _for_typical_player(seen, _best(seen, legal.cards, most, COACH_LIMITS))
    advice = [(discard, odds) for discard, odds in found if legal.refusal(discard) is None]
    return advice[:top]


def study_odds(
    cards: tuple[Card, ...],
    rules: GameRules,
    discard: tuple[Card, ...] | None = None,
    *,
    top: int = 3,
    widow: Card | None = None,
) -> list[tuple[tuple[Card, ...], DrawOdds]]:
    """Odds for study, away from a table: ``cards`` (as many as the game deals, five to nine)
    in a game of ``rules`` (its deck, its wild cards, the most its draws allow; for more than
    five cards at most three); ``discard`` alone when given, else the ``top`` best discards.
    A game whose wild rank is the face-up widow's (wild widow) needs ``widow``, that card.

    :raises NoOdds: when the game's hands are not five to nine cards, or a board plays.
    :raises ValueError: with the reason, for cards outside the game's deck, a discard of
        cards not held or more cards than the game lets a player draw, a widow missing, not
        the game's or among the cards held.
    """
    size = rules.dealt_per_player
    if rules.board_plays or not 5 <= size <= MOST_CARDS or rules.min_hand_size != size:
        raise NoOdds("the odds are for games of hands of five to nine cards")
    deck = rules.deck.cards()
    if len(cards) != size:
        raise ValueError(f"a hand to draw to holds {size} cards in this game, not {len(cards)}")
    known = cards if widow is None else (*cards, widow)
    outside = next((card for card in known if card not in deck), None)
    if outside is not None:
        raise ValueError(Phrase("{card} is not in this game's pack", card=str(outside)))
    dead = _study_widow(rules, cards, widow)
    extra = () if widow is None else (widow.rank,)
    seen = _Seen.of_rules(rules, rules.wild.resolve(deck, extra) - set(dead), dead)
    most = _most_drawn(rules) if size == 5 else min(_most_drawn(rules), 3)
    if most == 0:
        raise NoOdds("this game has no draw")
    legal = _study_options(rules, cards, seen.wild)
    if discard is not None:
        if len(discard) > most:
            raise ValueError(
                Phrase.counted(
                    "this game lets a player draw at most {count} card",
                    "this game lets a player draw at most {count} cards",
                    count=most,
                )
            )
        refusal = legal.refusal(discard)
        if refusal is not None:
            raise ValueError(refusal)
        # one discard asked for: counted like the odds engine's own default
        return [(discard, _odds_of(seen, cards, discard, (EXACT_LIMIT, SAMPLES)))]
    found = _for_typical_player(seen, _best(seen, cards, most, COACH_LIMITS))
    return [(thrown, odds) for thrown, odds in found if legal.refusal(thrown) is None][:top]


def _study_widow(rules: GameRules, cards: tuple[Card, ...], widow: Card | None) -> tuple[Card, ...]:
    """The cards out of play in a study of ``rules``: the widow, checked against the game."""
    widowed = any(isinstance(s, DealBoard) and s.wild_rank for s in rules.steps)
    if widow is None:
        if widowed:
            raise ValueError(Phrase("name the widow card: the cards of its rank are wild"))
        return ()
    if not widowed:
        raise ValueError(Phrase("this game has no widow card"))
    if widow in cards:
        raise ValueError(
            Phrase("{card} is the widow card, not a card of the hand", card=str(widow))
        )
    return (widow,)


def _study_options(rules: GameRules, cards: tuple[Card, ...], wild: frozenset[Card]) -> DrawOptions:
    """The discards the game's first draw lets ``cards`` make, as at a table with cards
    enough in the deck: its own counts (all for one's 0, 1 or 5), else the draw limit (four
    only when keeping an ace or a wild card, by default).

    >>> from engine.cards import parse_cards
    >>> from engine.variants import get_variant
    >>> five = get_variant("five-card-draw").rules
    >>> hand = parse_cards("Kc 9d 7h 4s 3c")
    >>> _study_options(five, hand, frozenset()).refusal(hand[1:])
    'you may discard 4 only when keeping an ace or a wild card'
    """
    step = next(s for s in rules.steps if isinstance(s, Draw | DrawSeries))
    limit = (step.limit if isinstance(step, Draw) else None) or DRAW_FOUR_WITH_ACE
    counts, _ace_count = discard_counts(step.counts, limit, len(cards))
    # As a draw round offers it: past the limit's usual most, an ace or a wild card kept.
    ace_above = limit.most if step.counts is None and counts[-1] > limit.most else None
    unlocks = tuple(card for card in cards if card.rank in (0, 14) or card in wild)
    return DrawOptions(cards, tuple(counts), ace_above=ace_above, unlocks=unlocks)


def _most_drawn(rules: GameRules) -> int:
    most = 0
    for step in rules.steps:
        if isinstance(step, DrawSeries):
            most = max(most, *step.counts)
        elif isinstance(step, Draw):
            if step.counts is not None:
                most = max(most, *step.counts)
            else:
                limit = step.limit or DRAW_FOUR_WITH_ACE
                most = max(most, limit.with_ace or limit.most)
    return min(most, 5)


# ---------------------------------------------------------------------------------------------
# Betting


def _opponents(seen: _Seen) -> list[tuple[int, tuple[int, ...]]]:
    return [
        (s.seat, s.draws)
        for s in seen.public.seats
        if s.in_hand and not s.folded and s.seat != seen.private.seat
    ]


# How much harder an opponent is to beat after drawing that many cards (an exponent on the
# share of hands beaten; 1.35 when nothing is known), for games without a measured range below.
_HIGH_READS = {0: 2.6, 1: 2.0, 2: 2.4, 3: 1.5}
_LOW_READS = {0: 2.2, 1: 1.5, 2: 1.1, 3: 0.9}

# Measured ranges: twenty quantiles of the strength (as :func:`_strength` measures it) a casual
# player's hand has heads-up, before the draw ("pre"), after it by the number of cards drawn,
# and after it whatever was drawn ("any"). Printed by ``bench/house.py --calibrate``; a share
# of the quantiles below a hand is its calibrated chance to beat that player, where a power of
# the strength was only a guess.
_RangeKey = tuple[str, str, int, int]
_READ_TRUST = 0.5
# fmt: off
_RANGES: dict[_RangeKey, dict[object, tuple[float, ...]]] = {
    ("high", "high", 52, 1): {
        "pre": (
            0.4829, 0.5037, 0.5248, 0.5397, 0.5624, 0.5811, 0.6002, 0.6208, 0.6361, 0.6520,
            0.6584, 0.6895, 0.7138, 0.7603, 0.7876, 0.8318, 0.8608, 0.9039, 0.9346, 0.9793,
        ),
        1: (
            0.9254, 0.9290, 0.9320, 0.9337, 0.9367, 0.9390, 0.9421, 0.9454, 0.9478, 0.9502,
            0.9525, 0.9566, 0.9588, 0.9611, 0.9632, 0.9662, 0.9692, 0.9983, 0.9990, 0.9996,
        ),
        2: (
            0.9722, 0.9735, 0.9756, 0.9770, 0.9779, 0.9788, 0.9796, 0.9817, 0.9830, 0.9845,
            0.9851, 0.9859, 0.9869, 0.9882, 0.9889, 0.9896, 0.9909, 0.9913, 0.9985, 0.9995,
        ),
        3: (
            0.1380, 0.2537, 0.3346, 0.4201, 0.4684, 0.4963, 0.5379, 0.5899, 0.6453, 0.6961,
            0.7390, 0.7756, 0.8092, 0.8414, 0.8694, 0.8912, 0.9215, 0.9468, 0.9706, 0.9874,
        ),
        "any": (
            0.1419, 0.2604, 0.3609, 0.4311, 0.4790, 0.5113, 0.5621, 0.6195, 0.6783, 0.7267,
            0.7665, 0.8044, 0.8377, 0.8686, 0.8926, 0.9231, 0.9441, 0.9623, 0.9774, 0.9909,
        ),
    },
    ("low", "deuce-to-seven", 52, 1): {
        "pre": (
            0.5505, 0.5837, 0.6014, 0.6164, 0.6323, 0.6468, 0.6597, 0.6709, 0.6833, 0.7004,
            0.7157, 0.7282, 0.7447, 0.7595, 0.7761, 0.7923, 0.8244, 0.8774, 0.9299, 0.9751,
        ),
        1: (
            0.0066, 0.3021, 0.3357, 0.3988, 0.4632, 0.4978, 0.6878, 0.8118, 0.8201, 0.8950,
            0.9413, 0.9480, 0.9688, 0.9763, 0.9853, 0.9923, 0.9943, 0.9959, 0.9974, 0.9994,
        ),
        2: (
            0.0217, 0.1535, 0.2903, 0.3327, 0.3660, 0.3997, 0.4434, 0.4890, 0.5893, 0.6603,
            0.6886, 0.7698, 0.8110, 0.8515, 0.8934, 0.9260, 0.9476, 0.9727, 0.9888, 0.9971,
        ),
        3: (
            0.0276, 0.1059, 0.2037, 0.2776, 0.3175, 0.3494, 0.3824, 0.4233, 0.4627, 0.4960,
            0.5720, 0.6521, 0.6992, 0.7702, 0.8106, 0.8538, 0.8946, 0.9390, 0.9704, 0.9927,
        ),
        4: (
            0.0250, 0.0645, 0.1641, 0.2253, 0.2744, 0.3107, 0.3444, 0.3883, 0.4233, 0.4633,
            0.4986, 0.5759, 0.6325, 0.6917, 0.7620, 0.8102, 0.8460, 0.8974, 0.9472, 0.9798,
        ),
        5: (
            0.0350, 0.0767, 0.1282, 0.2023, 0.2701, 0.2974, 0.3435, 0.4155, 0.4972, 0.5854,
            0.6085, 0.6560, 0.6843, 0.7526, 0.8004, 0.8491, 0.8762, 0.9162, 0.9555, 0.9896,
        ),
        "any": (
            0.0217, 0.1068, 0.2326, 0.2979, 0.3342, 0.3682, 0.4128, 0.4579, 0.4955, 0.5881,
            0.6654, 0.7109, 0.7867, 0.8169, 0.8707, 0.9017, 0.9437, 0.9704, 0.9876, 0.9971,
        ),
    },
    ("low", "ace-to-five", 53, 1): {
        "pre": (
            0.5544, 0.5847, 0.6040, 0.6221, 0.6389, 0.6531, 0.6656, 0.6780, 0.6908, 0.7046,
            0.7184, 0.7345, 0.7482, 0.7639, 0.7793, 0.7968, 0.8300, 0.8766, 0.9251, 0.9747,
        ),
        0: (
            0.9743, 0.9758, 0.9770, 0.9780, 0.9795, 0.9809, 0.9824, 0.9840, 0.9853, 0.9864,
            0.9878, 0.9890, 0.9903, 0.9916, 0.9930, 0.9944, 0.9955, 0.9971, 0.9982, 0.9996,
        ),
        1: (
            0.2543, 0.3159, 0.3786, 0.4401, 0.4755, 0.6582, 0.7797, 0.7983, 0.8735, 0.9144,
            0.9319, 0.9510, 0.9689, 0.9762, 0.9800, 0.9840, 0.9878, 0.9911, 0.9949, 0.9982,
        ),
        2: (
            0.0605, 0.2131, 0.2670, 0.3138, 0.3499, 0.4001, 0.4408, 0.4765, 0.5816, 0.6464,
            0.6707, 0.7545, 0.7921, 0.8409, 0.8782, 0.9174, 0.9428, 0.9684, 0.9819, 0.9940,
        ),
        3: (
            0.0409, 0.1141, 0.1916, 0.2479, 0.2870, 0.3350, 0.3748, 0.4128, 0.4581, 0.5280,
            0.6061, 0.6582, 0.7217, 0.7778, 0.8180, 0.8665, 0.9015, 0.9358, 0.9672, 0.9899,
        ),
        4: (
            0.0233, 0.0811, 0.1697, 0.2211, 0.2744, 0.3148, 0.3546, 0.3931, 0.4328, 0.4769,
            0.5365, 0.5995, 0.6500, 0.7100, 0.7661, 0.8126, 0.8670, 0.9030, 0.9428, 0.9809,
        ),
        5: (
            0.0162, 0.0529, 0.0902, 0.1548, 0.2193, 0.2760, 0.3068, 0.3562, 0.3761, 0.4259,
            0.4437, 0.4981, 0.5804, 0.6480, 0.6992, 0.7630, 0.8070, 0.8710, 0.9151, 0.9606,
        ),
        "any": (
            0.0557, 0.1880, 0.2549, 0.3097, 0.3489, 0.3996, 0.4419, 0.4985, 0.6066, 0.6578,
            0.7232, 0.7854, 0.8269, 0.8754, 0.9155, 0.9422, 0.9680, 0.9800, 0.9878, 0.9962,
        ),
    },
    ("low", "ace-to-six", 52, 1): {
        "pre": (
            0.5533, 0.5852, 0.6037, 0.6191, 0.6344, 0.6482, 0.6615, 0.6737, 0.6879, 0.7037,
            0.7180, 0.7304, 0.7467, 0.7612, 0.7767, 0.7934, 0.8271, 0.8754, 0.9256, 0.9751,
        ),
        0: (
            0.0062, 0.0070, 0.9806, 0.9818, 0.9829, 0.9845, 0.9857, 0.9865, 0.9876, 0.9888,
            0.9896, 0.9912, 0.9920, 0.9931, 0.9943, 0.9955, 0.9963, 0.9971, 0.9982, 0.9994,
        ),
        1: (
            0.0070, 0.3011, 0.3638, 0.3998, 0.4633, 0.4982, 0.6827, 0.8020, 0.8193, 0.8911,
            0.9284, 0.9445, 0.9613, 0.9770, 0.9818, 0.9853, 0.9884, 0.9916, 0.9951, 0.9982,
        ),
        2: (
            0.0598, 0.1726, 0.2679, 0.3033, 0.3546, 0.3973, 0.4362, 0.4843, 0.5563, 0.6427,
            0.6799, 0.7345, 0.7985, 0.8244, 0.8813, 0.9068, 0.9413, 0.9653, 0.9837, 0.9951,
        ),
        3: (
            0.0317, 0.1008, 0.1938, 0.2509, 0.2915, 0.3304, 0.3669, 0.4073, 0.4515, 0.4920,
            0.5728, 0.6454, 0.6894, 0.7584, 0.8067, 0.8569, 0.8966, 0.9327, 0.9649, 0.9900,
        ),
        4: (
            0.0224, 0.0695, 0.1523, 0.2055, 0.2503, 0.2956, 0.3335, 0.3732, 0.4171, 0.4557,
            0.4967, 0.5759, 0.6348, 0.6960, 0.7620, 0.8157, 0.8652, 0.9091, 0.9460, 0.9825,
        ),
        5: (
            0.0207, 0.0779, 0.1972, 0.2488, 0.2922, 0.3317, 0.3685, 0.4056, 0.4506, 0.5084,
            0.5673, 0.6285, 0.6890, 0.7392, 0.7926, 0.8342, 0.8789, 0.9260, 0.9472, 0.9778,
        ),
        "any": (
            0.0278, 0.1522, 0.2531, 0.2990, 0.3352, 0.3864, 0.4299, 0.4710, 0.5465, 0.6427,
            0.6839, 0.7612, 0.8083, 0.8620, 0.8962, 0.9335, 0.9582, 0.9806, 0.9884, 0.9963,
        ),
    },
    ("low", "ace-to-five", 53, 2): {
        "pre": (
            0.5544, 0.5847, 0.6040, 0.6221, 0.6389, 0.6531, 0.6656, 0.6780, 0.6908, 0.7046,
            0.7184, 0.7345, 0.7482, 0.7639, 0.7793, 0.7968, 0.8300, 0.8766, 0.9251, 0.9747,
        ),
        0: (
            0.9743, 0.9758, 0.9770, 0.9780, 0.9795, 0.9809, 0.9819, 0.9836, 0.9849, 0.9858,
            0.9878, 0.9890, 0.9903, 0.9916, 0.9930, 0.9940, 0.9955, 0.9967, 0.9982, 0.9996,
        ),
        1: (
            0.2543, 0.3155, 0.3768, 0.4119, 0.4737, 0.6562, 0.7778, 0.7977, 0.8726, 0.9155,
            0.9349, 0.9546, 0.9734, 0.9770, 0.9805, 0.9840, 0.9878, 0.9911, 0.9949, 0.9982,
        ),
        2: (
            0.0607, 0.2082, 0.2605, 0.3009, 0.3449, 0.3806, 0.4259, 0.4700, 0.5694, 0.6380,
            0.6678, 0.7493, 0.7906, 0.8405, 0.8786, 0.9170, 0.9408, 0.9663, 0.9819, 0.9940,
        ),
        3: (
            0.0397, 0.1092, 0.1893, 0.2456, 0.2833, 0.3239, 0.3681, 0.4080, 0.4420, 0.4886,
            0.5824, 0.6464, 0.7000, 0.7665, 0.8092, 0.8591, 0.8967, 0.9339, 0.9627, 0.9878,
        ),
        4: (
            0.0409, 0.0648, 0.1372, 0.2093, 0.2488, 0.2992, 0.3378, 0.3670, 0.4168, 0.4542,
            0.5048, 0.5911, 0.6484, 0.6871, 0.7501, 0.7950, 0.8428, 0.8934, 0.9349, 0.9775,
        ),
        "any": (
            0.1232, 0.2600, 0.3162, 0.3774, 0.4310, 0.4766, 0.6489, 0.7089, 0.7918, 0.8649,
            0.9000, 0.9380, 0.9649, 0.9762, 0.9795, 0.9832, 0.9869, 0.9911, 0.9944, 0.9982,
        ),
    },
    ("low", "deuce-to-seven", 52, 3): {
        "pre": (
            0.5556, 0.5849, 0.6034, 0.6185, 0.6348, 0.6487, 0.6612, 0.6731, 0.6872, 0.7034,
            0.7174, 0.7310, 0.7466, 0.7608, 0.7768, 0.7937, 0.8267, 0.8762, 0.9264, 0.9755,
        ),
        0: (
            0.0062, 0.0066, 0.0070, 0.9931, 0.9935, 0.9939, 0.9943, 0.9947, 0.9951, 0.9959,
            0.9963, 0.9967, 0.9971, 0.9974, 0.9978, 0.9982, 0.9986, 0.9990, 0.9994, 0.9998,
        ),
        1: (
            0.0066, 0.3027, 0.3657, 0.3989, 0.4323, 0.4659, 0.6811, 0.6901, 0.8150, 0.8923,
            0.9009, 0.9456, 0.9676, 0.9766, 0.9861, 0.9931, 0.9947, 0.9963, 0.9978, 0.9994,
        ),
        2: (
            0.0280, 0.1526, 0.2849, 0.3221, 0.3601, 0.3969, 0.4311, 0.4648, 0.4975, 0.6285,
            0.6796, 0.7263, 0.7981, 0.8193, 0.8848, 0.9135, 0.9460, 0.9704, 0.9869, 0.9967,
        ),
        3: (
            0.0259, 0.0754, 0.1859, 0.2637, 0.3011, 0.3351, 0.3731, 0.4094, 0.4449, 0.4848,
            0.5544, 0.6438, 0.6858, 0.7573, 0.8020, 0.8503, 0.8946, 0.9335, 0.9645, 0.9900,
        ),
        4: (
            0.0249, 0.0679, 0.1516, 0.2176, 0.2596, 0.2992, 0.3301, 0.3679, 0.4135, 0.4474,
            0.4876, 0.5477, 0.6034, 0.6603, 0.7259, 0.7839, 0.8279, 0.8903, 0.9347, 0.9774,
        ),
        "any": (
            0.0066, 0.1059, 0.3018, 0.3531, 0.3992, 0.4465, 0.4964, 0.6713, 0.7015, 0.8138,
            0.8903, 0.9205, 0.9511, 0.9770, 0.9920, 0.9943, 0.9955, 0.9967, 0.9982, 0.9994,
        ),
    },
    ("high-low", "high", 53, 1): {
        "pre": (
            0.4000, 0.4362, 0.4847, 0.5128, 0.5281, 0.5481, 0.5562, 0.5654, 0.5775, 0.6357,
            0.6592, 0.7037, 0.7371, 0.7726, 0.8175, 0.8410, 0.8870, 0.9269, 0.9618, 1.0018,
        ),
        1: (
            0.9192, 0.9210, 0.9233, 0.9267, 0.9293, 0.9307, 0.9334, 0.9355, 0.9383, 0.9405,
            0.9433, 0.9454, 0.9474, 0.9506, 0.9529, 0.9545, 0.9582, 0.9640, 0.9984, 0.9991,
        ),
        2: (
            0.5210, 0.5553, 0.6125, 0.6506, 0.7075, 0.7682, 0.8006, 0.8373, 0.9455, 0.9606,
            0.9662, 0.9688, 0.9716, 0.9745, 0.9762, 0.9796, 0.9814, 0.9843, 0.9872, 0.9997,
        ),
        3: (
            0.1356, 0.2561, 0.3498, 0.4168, 0.4697, 0.4995, 0.5575, 0.6103, 0.6642, 0.7058,
            0.7443, 0.7805, 0.8105, 0.8364, 0.8662, 0.8986, 0.9203, 0.9488, 0.9680, 0.9871,
        ),
        "any": (
            0.1431, 0.2636, 0.3683, 0.4418, 0.4847, 0.5318, 0.5881, 0.6456, 0.6948, 0.7373,
            0.7741, 0.8062, 0.8363, 0.8676, 0.9028, 0.9249, 0.9446, 0.9605, 0.9748, 0.9935,
        ),
    },
}
# fmt: on


def _range_key(rules: GameRules, *, any_draws: bool = False) -> _RangeKey | None:
    """The measured games: one draw, five cards each, no board, no wild cards. With
    ``any_draws``, also a game of the same ranking and deck with more draws (not a series):
    its own final hands where they are measured, else the one-draw game's stand in for them
    (weaker, but ordered alike). Only final hands are measured there, so only draws are
    weighed by them: betting rounds between draws have no range of their own."""
    draws = [step for step in rules.steps if isinstance(step, Draw | DrawSeries)]
    if not draws or rules.board_plays or any(isinstance(step, DrawSeries) for step in draws):
        return None
    if rules.min_hand_size < 5:
        return None  # a short hand's strength is a rough guess, not on the ranges' scale
    if len(draws) != 1 and not any_draws:
        return None
    if rules.wild.ranks or rules.wild.cards or rules.wild.joker:
        return None
    ranking = rules.low if rules.split is Split.LOW else rules.high
    for count in (len(draws), 1):
        key = (rules.split.value, ranking.value, rules.deck.value, count)
        if key in _RANGES:
            return key
    return None


def _share_below(quantiles: tuple[float, ...], strength: float) -> float:
    """The share of a measured range that ``strength`` beats (half of what it equals)."""
    below = sum(1.0 if q < strength else 0.5 if q == strength else 0.0 for q in quantiles)
    return below / len(quantiles)


_BEATEN: dict[tuple[object, ...], dict[int, float]] = {}


def _beaten(seen: _Seen, against: list[tuple[float, ...]]) -> dict[int, float]:
    """The chance that each final hand met so far beats every opponent's range, by its score
    (filled in by :func:`_chance_of_value`): the same few ranges meet the same hands again."""
    key = (seen.ranking, seen.wild, seen.deck, *against)
    found = _BEATEN.get(key)
    if found is None:
        if len(_BEATEN) >= 64:
            _BEATEN.clear()
        found = _BEATEN[key] = {}
    return found


_STRENGTHS: dict[tuple[object, ...], float] = {}


def _chance_of_value(seen: _Seen, value: HandValue, against: list[tuple[float, ...]]) -> float:
    """The chance that one final hand beats every opponent's hand taken from its range: its
    strength (the share of the deck's five-card hands it beats) placed in each range."""
    strength = _strength_of_value(seen, value)
    chance = 1.0
    for quantiles in against:
        beaten = bisect_left(quantiles, strength) + bisect_right(quantiles, strength)
        chance *= beaten / (2 * len(quantiles))
    return chance


def _strength_of_value(seen: _Seen, value: HandValue) -> float:
    """The share of the deck's five-card hands a final hand beats."""
    key = (seen.ranking, seen.wild, seen.deck, value.score)
    strength = _STRENGTHS.get(key)
    if strength is None:
        if len(_STRENGTHS) >= 100_000:
            _STRENGTHS.clear()
        # by score: the value may stand for hands of another deck (values are shared by
        # every deck of a ranking), so its own cards are never dealt again here
        strength = _STRENGTHS[key] = float(strength_of(value, wild=seen.wild, deck=seen.deck))
    return strength


def _opponent_ranges(
    seen: _Seen, reads: bool, bettors: Mapping[int, float] = _NOBODY
) -> list[tuple[float, ...]]:
    """The measured range of each opponent's final hand: after its draw by the number of
    cards it drew when ``reads`` (half of it: not everyone draws sensibly), else any; for
    one of ``bettors``, only the better part of that range (the share it maps to)."""
    key = _range_key(seen.rules, any_draws=True)
    assert key is not None
    ranges = _RANGES[key]
    # a draw read in a game of more draws than the range's one would read it wrong
    reads = reads and _range_key(seen.rules) is not None
    found: list[tuple[float, ...]] = []
    for seat, draws in _opponents(seen):
        if reads and draws and draws[-1] in ranges:
            quantiles = tuple(sorted(ranges[draws[-1]] + ranges["any"]))
        else:
            quantiles = ranges["any"]
        found.append(_better_part(quantiles, bettors.get(seat, 1.0)))
    return found


# the share of a range a bet after the draw leaves (its better part)
_BETTOR_KEEPS = 0.5


def _among_the_better_part(share: float, keeps: float = _BETTOR_KEEPS) -> float:
    """A share of a whole range as a share of its better part (``keeps`` of it; 1, the whole
    range): what beats that share beats the worse part first, then the rest."""
    return share if keeps >= 1 else max(0.0, (share - 1 + keeps) / keeps)


def _better_part(quantiles: tuple[float, ...], keeps: float = _BETTOR_KEEPS) -> tuple[float, ...]:
    """The part of a range a bet leaves, or the showdown: its better ``keeps`` (at least its
    top quantile; 1, all of it)."""
    return quantiles[min(len(quantiles) - 1, round(len(quantiles) * (1 - keeps))) :]


def _bettors(seen: _Seen, reads: bool) -> dict[int, float]:
    """The opponents whose bets say their hand is better than most, each with the share of
    its range its bet leaves, by how seldom that player bets (:class:`Habits`: a player who
    bets every other hand says little). Before the draw, those who bet or raised in the
    round (a blind says nothing). After the last draw, everyone who put chips in; a reader
    takes any such bet to say a hand is made, the better half of what that player might
    hold, or less."""
    me = seen.private.seat
    habits = seen.habits
    found: dict[int, float] = {}
    if seen.draws_left:
        players = {s.seat: s.player_id for s in seen.public.seats if not s.folded}
        for seat in seen.public.aggressors:
            if seat != me and seat in players:
                found[seat] = habits.bets_before(players[seat])
    else:
        most = _BETTOR_KEEPS if reads else 1.0
        for s in seen.public.seats:
            if s.bet > 0 and s.in_hand and not s.folded and s.seat != me:
                found[s.seat] = min(most, habits.bets_after(s.player_id))
    return {seat: keeps for seat, keeps in found.items() if keeps < 1}


def _draw_chance(
    seen: _Seen, odds: DrawOdds, against: list[tuple[float, ...]], to_come: int = 1
) -> float:
    """The chance that the hand ``odds`` draws to beats every opponent's final hand, each
    taken from its measured range. With more draws to come (``to_come``, this one
    included), an outcome that comes to less than drawing again is drawn to again
    (:func:`_drawn_again`); standing pat keeps the hand whatever comes."""
    to_come = to_come if odds.discard else 1
    key: tuple[object, ...] = ("chance", odds.hand, odds.discard, seen.ranking, seen.dead)
    key += (seen.deck, to_come, *against)

    def make() -> float:
        known = _beaten(seen, against)
        total = 0.0
        # how often each chance comes, only for a draw worth drawing again: the one-draw
        # games, the common case, need only the mean
        counts: dict[float, int] | None = {} if to_come > 1 else None
        for value, count in odds.outcomes:
            chance = known.get(value.score)
            if chance is None:
                chance = known[value.score] = _chance_of_value(seen, value, against)
            total += count * chance
            if counts is not None:
                counts[chance] = counts.get(chance, 0) + count
        return total / odds.draws if counts is None else _drawn_again(counts, to_come)

    result = _cached(key, make)
    assert isinstance(result, float)
    return result


def _drawn_again(counts: dict[float, int], tries: int) -> float:
    """What a draw is worth with ``tries`` draws to come, the same cards thrown each time
    while an outcome is worth less than trying again: an outcome of the chances ``counts``
    holds (how often each comes) is kept if it beats the worth of the tries left.

    >>> _drawn_again({0.0: 1, 1.0: 1}, 1), _drawn_again({0.0: 1, 1.0: 1}, 3)
    (0.5, 0.875)
    """
    total = sum(counts.values())
    worth = sum(chance * count for chance, count in counts.items()) / total
    for _ in range(tries - 1):
        worth = sum(max(chance, worth) * count for chance, count in counts.items()) / total
    return worth


def _drawn_against(seen: _Seen, cards: tuple[Card, ...]) -> bool:
    """Whether the seat's draws can be weighed by their chance to beat a typical player's
    final hand (:func:`_best_draw_chance`): five cards, one winner per pot, no wild card, no
    board, and a measured range for the game's ranking and deck. Strength alone measures a
    hand against hands dealt at random, which nobody keeps: it stands pat on a king-low and
    keeps a king to draw to in deuce-to-seven."""
    return (
        _range_key(seen.rules, any_draws=True) is not None
        and seen.rules.split in (Split.HIGH, Split.LOW)
        and len(cards) == 5
        and not seen.wild
        and not seen.plays
    )


def _for_typical_player(
    seen: _Seen, found: list[tuple[tuple[Card, ...], DrawOdds]]
) -> list[tuple[tuple[Card, ...], DrawOdds]]:
    """``found`` (the best first by expected strength) in the order of each draw's chance to
    beat one typical player's final hand still in at the showdown, where
    :func:`_drawn_against` allows it; equal chances keep their order."""
    if not found or not _drawn_against(seen, found[0][1].hand):
        return found
    # what is still in at the showdown: the better part of the range, the rest folds
    against = [_better_part(_typical_range(seen))]
    chances = [_draw_chance(seen, odds, against, seen.draws_to_come) for _, odds in found]
    order = sorted(range(len(found)), key=lambda index: -chances[index])
    return [found[index] for index in order]


def _typical_range(seen: _Seen) -> tuple[float, ...]:
    """The measured range of any final hand of a casual player in the seat's game."""
    key = _range_key(seen.rules, any_draws=True)
    assert key is not None
    return _RANGES[key]["any"]


def _counted(seen: _Seen) -> bool:
    """Whether win chances can be counted from measured ranges draw by draw: a game with a
    measured range and one winner per pot, five cards in hand and no wild card (a game can
    name them as it deals)."""
    return (
        _range_key(seen.rules) is not None
        and seen.rules.split in (Split.HIGH, Split.LOW)
        and len(seen.cards) == 5
        and not seen.wild
        and not seen.plays
    )


# how many of the draws that hold the most expected strength are weighed by their chance to win
_DRAW_CANDIDATES = 8


def _best_draw_chance(
    seen: _Seen,
    legal: DrawOptions | None,
    reads: bool,
    *,
    showdown: bool = False,
    bettors: Mapping[int, float] = _NOBODY,
) -> tuple[float, tuple[Card, ...]]:
    """The discard with the best chance to win at the showdown, among the few that hold the
    most expected strength, and that chance (against ``bettors``' better parts); with
    ``showdown``, against the hands opponents still hold there (the better part of each
    range: the rest is folded on the way)."""
    five = seen.cards
    if showdown:
        bettors = {seat: _BETTOR_KEEPS for seat, _ in _opponents(seen)}
    against = _opponent_ranges(seen, reads, bettors)
    most = min(legal.most, 3) if legal is not None else 3
    best: tuple[float, tuple[Card, ...]] | None = None
    for discard, _ in _ranked(seen, five, most)[:_DRAW_CANDIDATES]:
        if legal is not None and legal.refusal(discard) is not None:
            continue
        odds = _odds_of(seen, five, discard)
        chance = _draw_chance(seen, odds, against, seen.draws_to_come)
        if best is None or chance > best[0]:
            best = (chance, discard)
    return best if best is not None else (0.0, ())


def _win_chance(
    seen: _Seen,
    strength: float,
    style: _Style,
    reads: bool,
    bettors: Mapping[int, float] = _NOBODY,
) -> float:
    """The chance to win against everyone left, taking each opponent as an independent hand
    (one of ``bettors`` holding the better part of its range)."""
    opponents = _opponents(seen)
    key = _measured(seen, style)
    if key is not None and seen.draws_left:
        share = _share_below(_RANGES[key][_before_draws(seen)], strength)
        shares = [_among_the_better_part(share, bettors.get(seat, 1.0)) for seat, _ in opponents]
        return _before_the_draw(shares)
    chance = 1.0
    for seat, draws in opponents:
        share = _chance_against(seen, strength, style, reads, draws)
        chance *= _among_the_better_part(share, bettors.get(seat, 1.0))
    return chance


def _measured(seen: _Seen, style: _Style) -> _RangeKey | None:
    """The measured ranges a level weighs the seat's hand by, if any. The easy player keeps
    the rough guess: its judgement is meant to be plain. A hand still short of five cards
    (Q-ball's first rounds) has only a rough strength. A game of several draws is weighed
    by its final hands (or the one-draw game's): against hands dealt at random, a jack-low
    after the last draw of triple draw looked like the nuts."""
    if not style.ranges or len(seen.playing) < 5:
        return None
    return _range_key(seen.rules, any_draws=True)


def _before_draws(seen: _Seen) -> str:
    """The range a hand's expected strength is placed in while draws are left: the hands as
    dealt in a game of one draw; in a game of several, where the strength counts every draw
    to come, the final hands."""
    return "pre" if _range_key(seen.rules) is not None else "any"


def _before_the_draw(shares: list[float]) -> float:
    """The chance to win before the draw with a hand that beats ``shares`` of the hands each
    opponent holds then: half of it is the chance to beat them all if the draw kept the
    order of the hands, half an even share of the pot, since the draw can turn any hand
    around. Heads-up that puts every lead at half its size around even."""
    return 0.5 * prod(shares) + 0.5 / (1 + len(shares))


def _chance_against(
    seen: _Seen, strength: float, style: _Style, reads: bool, draws: tuple[int, ...]
) -> float:
    """The chance to beat one opponent who drew ``draws``. With a measured range the chance
    is read from it (a reader takes the range of the number of cards the opponent drew, half
    and half with the range of any draw: not every player draws sensibly); otherwise a power
    of the strength stands in for it."""
    key = _measured(seen, style)
    if key is not None:
        ranges = _RANGES[key]
        if seen.draws_left or not draws:
            return _before_the_draw([_share_below(ranges[_before_draws(seen)], strength)])
        # a draw read in a game of more draws than the range's one would read it wrong
        if reads and _range_key(seen.rules) is not None and draws[-1] in ranges:
            read = _share_below(ranges[draws[-1]], strength)
            return _READ_TRUST * read + (1 - _READ_TRUST) * _share_below(ranges["any"], strength)
        return _share_below(ranges["any"], strength)
    weight = 1.35
    if reads and draws:
        table = _LOW_READS if seen.rules.split is Split.LOW else _HIGH_READS
        weight = table.get(draws[-1], 1.0)
    return float(min(strength, 0.995) ** weight)


def _in_position(seen: _Seen) -> bool:
    """Whether every opponent still to act has already acted this round (acting last)."""
    seats = [s.seat for s in seen.public.seats if s.in_hand and not s.folded]
    button = seen.public.button if seen.public.button is not None else 0
    order = sorted(seats, key=lambda seat: (seat - button - 1) % 64)
    return bool(order) and order[-1] == seen.private.seat


def _bet(seen: _Seen, legal: BetOptions, style: _Style, rng: random.Random) -> Action:
    if style.counts and _range_key(seen.rules) is None:
        style = _GUESSING
    owed = legal.to_call
    # a bettor may be bluffing or drawing: its draw says what it holds only when it checked
    reads = style.reads and owed == 0
    # A level that weighs ranges takes a bet for the better part of the bettor's hands
    # (_bettors). After the draw it calls as it would bet (bets can be bluffs and draws gone
    # wrong) but raises only with what beats that better part; before it, a bet says a hand
    # worth opening, and it calls by that too.
    bettors = _bettors(seen, style.reads) if style.ranges and owed else {}
    if bettors and seen.draws_left:
        chance = stronger = _chance(seen, style, reads, bettors)
    else:
        chance = _chance(seen, style, reads, _NOBODY)
        stronger = _chance(seen, style, reads, bettors) if bettors else chance
    if style.reads and _in_position(seen):
        chance = min(1.0, chance * 1.08)
    if style.noise:
        wavers = rng.uniform(-style.noise, style.noise)
        chance += wavers
        stronger += wavers
    # The marks are set for one opponent. Against more, a fair share of the pot is smaller,
    # and so is the chance to win it that makes a bet pay.
    fair = 2 / (1 + max(1, len(_opponents(seen))))
    # A draw series ends after a round nobody exchanges in and nobody bets in: a player
    # standing pat who bet every round would keep it going until the stub ran out.
    may_raise = legal.can_raise and not _stood_pat_in_series(seen)
    if owed == 0:
        mark = style.open_at if seen.draws_left else style.value_at
        if may_raise and chance >= mark * fair:
            if _may_slowplay(seen, style, chance) and rng.random() < style.slowplay:
                return _check_or_least(legal)
            return _raise(legal, chance)
        if may_raise and _may_bluff(seen, style) and rng.random() < style.bluff:
            return _raise(legal, 0.0)
        return _check_or_least(legal)
    pressure = 0.0 if legal.fixed_limit else min(0.2, 0.3 * owed / max(1, legal.pot))
    hides = _may_slowplay(seen, style, chance) and rng.random() < style.slowplay
    needed = style.call_at or owed / (legal.pot + owed) * 1.1
    # After the draw a raise answers a bet that says a made hand: its mark stays one
    # opponent's, the bettor holding the better part of its range whatever the number of
    # callers. Before it, a bet says less (a blind says nothing): a raise there builds a pot
    # everyone's chances are in, and its mark falls with the fair share as an opening bet's,
    # though never below what a call needs (a hand too weak to call is too weak to raise).
    raise_mark = max(style.raise_at * fair, needed) if seen.draws_left else style.raise_at
    if may_raise and stronger >= raise_mark + pressure and not hides:
        return _raise(legal, stronger)
    # Calling down light is for after the draw, where a bet may be a bluff or a draw gone
    # wrong; before it, a bet says a hand worth opening, and junk calling it would rarely win.
    # Against several players, a call before the draw needs its pot odds in full: every
    # hand's even share of a big pot would otherwise call with anything.
    slack = style.call_slack
    if seen.draws_left:
        slack = min(slack, _DRAW_SLACK) if len(_opponents(seen)) == 1 else 0.0
    if chance + slack >= needed or (legal.call_all_in and chance > 0.5):
        return Call()
    return Fold() if legal.can_fold else Call()


# the most a level's call slack adds before the draw
_DRAW_SLACK = 0.05


def _chance(seen: _Seen, style: _Style, reads: bool, bettors: Mapping[int, float]) -> float:
    """The seat's chance to win the pot at the showdown as its level judges it."""
    if style.counts and _counted(seen) and seen.draws_left:
        return _best_draw_chance(seen, None, reads, bettors=bettors)[0]
    if style.counts and _counted(seen):
        against = _opponent_ranges(seen, reads, bettors)
        return _draw_chance(seen, _odds_of(seen, seen.cards, ()), against)
    return _win_chance(seen, _strength(seen, style.exact_draws), style, reads, bettors)


def _may_slowplay(seen: _Seen, style: _Style, chance: float) -> bool:
    """A monster may hide before the draw, when a check costs little and invites a bet."""
    return style.slowplay > 0 and chance > 0.95 and seen.draws_left


def _may_bluff(seen: _Seen, style: _Style) -> bool:
    """A bluff has a chance only against one opponent who drew to a weak hand."""
    if not style.bluff or seen.draws_left:
        return False
    opponents = _opponents(seen)
    return len(opponents) == 1 and bool(opponents[0][1]) and opponents[0][1][-1] >= 3


def _check_or_least(legal: BetOptions) -> Action:
    if legal.can_check:
        return Check()
    if legal.to_call == 0 and legal.min_to is not None:
        # a round without checking: the smallest bet keeps the hand alive cheaply
        return Bet(legal.min_to) if legal.is_bet else Raise(legal.min_to)
    return Call() if not legal.can_fold else Fold()


def _raise(legal: BetOptions, chance: float) -> Action:
    if legal.min_to is None or legal.max_to is None:
        return Call() if legal.to_call else Check()
    if legal.fixed_limit or legal.min_to == legal.max_to:
        to = legal.min_to
    else:
        share = 0.5 if chance < 0.85 else 0.75
        to = legal.clamp(legal.current_bet + int((legal.pot + legal.to_call) * share)) or 0
    return Bet(to) if legal.is_bet else Raise(to)


# ---------------------------------------------------------------------------------------------
# Drawing


def _discard(seen: _Seen, legal: DrawOptions, style: _Style) -> tuple[Card, ...]:
    cards = legal.cards
    most = legal.most
    wanted: tuple[Card, ...] = ()
    if style.exact_draws and _drawn_against(seen, cards) and legal.extra == 0:
        chance, discard = _best_draw_chance(seen, legal, style.reads, showdown=True)
        if chance > 0:
            return discard
    if 5 <= len(cards) <= MOST_CARDS and not seen.plays and legal.extra == 0 and style.exact_draws:
        sizes = [count for count in legal.counts if count <= most]
        if len(sizes) <= 3:
            # few legal counts (all for one): weigh each legal discard directly
            choices = [
                discard
                for size in sizes
                for discard in combinations(cards, size)
                if legal.refusal(discard) is None
            ]
            if choices:
                return max(choices, key=lambda d: (_discard_score(seen, cards, d), -len(d)))
        # throwing four or more is almost never best, and it costs the most to count
        if len(cards) == 5:
            ranked = [discard for discard, _ in _ranked(seen, cards, min(most, 3))]
        else:
            ranked = [discard for discard, _ in _best_large(seen, cards, min(most, 3))]
        for discard in ranked:
            if legal.refusal(discard) is None:
                return discard
    elif len(cards) == 4 and seen.plays and len(seen.board) == 1 and style.exact_draws:
        for discard, _ in _best(seen, (*cards, *seen.board), min(most, 4)):
            if seen.board[0] not in discard and legal.refusal(discard) is None:
                return discard
    else:
        wanted = _rule_of_thumb(seen, cards, most)
    if not wanted and 5 <= len(cards) <= MOST_CARDS and not seen.plays and legal.extra == 0:
        wanted = _rule_of_thumb(seen, cards, most)
    return _legal_discard(legal, _order_worst(seen, cards), len(wanted))


def _discard_score(seen: _Seen, cards: tuple[Card, ...], discard: tuple[Card, ...]) -> float:
    """:func:`_score` of a discard; five new cards are a hand like any other, of expected
    strength one half by the definition of strength, which need not be counted."""
    if len(discard) == len(cards) == 5 and seen.low is None:
        return 0.5
    return _worth_of(seen, cards, discard)


def _stood_pat_in_series(seen: _Seen) -> bool:
    """Whether everyone still in stood pat in the last exchange of a draw series: a round
    with no bet would then end it (a round where someone exchanged goes on anyway)."""
    if not any(isinstance(step, DrawSeries) for step in seen.rules.steps):
        return False
    playing = [s for s in seen.public.seats if s.in_hand and not s.folded]
    return bool(playing) and all(bool(s.draws) and s.draws[-1] == 0 for s in playing)


def _legal_discard(legal: DrawOptions, worst_first: list[Card], count: int) -> tuple[Card, ...]:
    """The ``count`` worst cards, or the nearest smaller legal number of them; standing pat when
    nothing else is allowed."""
    for size in sorted((c for c in legal.counts if c <= count), reverse=True):
        discard = tuple(worst_first[:size])
        if legal.refusal(discard) is None:
            return discard
    for size in sorted(legal.counts):
        discard = tuple(worst_first[:size])
        if legal.refusal(discard) is None:
            return discard
    return ()


def _useful(seen: _Seen, card: Card, counts: dict[int, int]) -> float:
    """How much a card is worth keeping, for the rule of thumb (higher is better)."""
    if card in seen.wild or card.is_joker:
        return 100.0
    low_game = seen.rules.split is Split.LOW
    if low_game:
        rank = 1 if card.rank == 14 and seen.ranking is not Ranking.DEUCE_TO_SEVEN else card.rank
        return -rank - (20 if counts[card.rank] > 1 else 0)
    return counts[card.rank] * 20 + card.rank


def _order_worst(seen: _Seen, cards: tuple[Card, ...]) -> list[Card]:
    counts: dict[int, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    ordered = sorted(cards, key=lambda card: (_useful(seen, card, counts), str(card)))
    if seen.rules.split is Split.LOW:
        # in lowball only one card of each rank is worth keeping
        kept: set[int] = set()
        firsts: list[Card] = []
        dupes: list[Card] = []
        for card in reversed(ordered):
            (dupes if card.rank in kept else firsts).append(card)
            kept.add(card.rank)
        ordered = dupes + list(reversed(firsts))
    else:
        five = _made_five(seen, cards)
        if five:
            # a straight or a flush is kept whole: the other cards are the worst
            ordered = [c for c in ordered if c not in five] + [c for c in ordered if c in five]
    return ordered


def _made_five(seen: _Seen, cards: tuple[Card, ...]) -> frozenset[Card]:
    """The five cards of a straight, a flush or a straight flush among ``cards``, if any."""
    if len(cards) < 5:
        return frozenset()
    made = evaluate(cards, seen.ranking, wild=seen.wild)
    if made.category not in (Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH):
        return frozenset()
    return frozenset(played.card for played in made.cards)


def _rule_of_thumb(seen: _Seen, cards: tuple[Card, ...], most: int) -> tuple[Card, ...]:
    """What a casual player throws: in high games everything but pairs or better and wild
    cards (the two highest cards when there is nothing); in lowball every pair and card above
    an eight."""
    counts: dict[int, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    worst = _order_worst(seen, cards)
    if seen.rules.split is Split.LOW:
        seen_ranks: set[int] = set()
        throw: list[Card] = []
        for card in reversed(worst):
            low_rank = (
                1 if card.rank == 14 and seen.ranking is not Ranking.DEUCE_TO_SEVEN else card.rank
            )
            if card in seen.wild or card.is_joker:
                continue
            if card.rank in seen_ranks or low_rank > 8:
                throw.append(card)
            seen_ranks.add(card.rank)
        target = len(throw)
    else:
        five = _made_five(seen, cards)
        if five:
            # a hand made of five cards is kept whole: the others go
            return tuple(card for card in cards if card not in five)[:most]
        keep = [c for c in cards if c in seen.wild or c.is_joker or counts[c.rank] > 1]
        target = len(cards) - max(len(keep), 2) if len(keep) < 2 else len(cards) - len(keep)
        if len(keep) == len(cards):
            target = 0
    target = max(0, min(target, most, len(cards)))
    return tuple(worst[:target])


def _longest_run(ranks: set[int]) -> int:
    """The most ranks in a row among ``ranks`` (the ace also below the two)."""
    if 14 in ranks:
        ranks = ranks | {1}
    longest = 0
    for rank in ranks:
        if rank - 1 not in ranks:
            length = 1
            while rank + length in ranks:
                length += 1
            longest = max(longest, length)
    return longest


def _passed(seen: _Seen, cards: tuple[Card, ...], count: int) -> tuple[Card, ...]:
    """The ``count`` cards to pass (Anaconda): those whose loss leaves the best hand. Five
    cards or more kept are valued by their best five; fewer by their pairs and sets, then by
    the most cards of one suit (a flush to pass into), then by their ranks."""
    order = _order_worst(seen, cards)
    ranking = Ranking.HIGH if seen.ranking is Ranking.STRIPPED_HIGH else seen.ranking
    best: tuple[tuple[int, ...], tuple[Card, ...]] | None = None
    for thrown in combinations(order, count):
        kept = tuple(card for card in cards if card not in thrown)
        value = evaluate(kept, ranking, wild=seen.wild)
        if len(kept) >= 5:
            merit: tuple[int, ...] = (value.score,)
        else:
            naturals = [card for card in kept if not card.is_joker and card not in seen.wild]
            suits = [card.suit for card in naturals]
            suited = max((suits.count(suit) for suit in set(suits)), default=0)
            run = _longest_run({card.rank for card in naturals})
            category = int(value.category)
            # two pair or better, then four to a flush or a straight, then a pair
            made = category >= Category.TWO_PAIR
            merit = (made, max(suited, run) >= 4, category, suited, run, value.score)
        if best is None or merit > best[0]:
            best = (merit, thrown)
    return best[1] if best is not None else ()


def _keep(seen: _Seen, legal: KeepOptions) -> Action:
    """The Bosnian exchange: the face-up card when it pairs the hand or is wild, else the
    unseen one."""
    card = legal.face_up
    ranks = {c.rank for c in legal.cards}
    if card in seen.wild or card.is_joker or card.rank in ranks or card.rank >= 13:
        return Keep(card)
    return Keep(None)


def _arrange(seen: _Seen, legal: ArrangeOptions) -> tuple[Card, ...]:
    """The best ``size`` cards, the least telling one shown first and the best kept hidden
    longest."""
    cards = legal.cards
    size = legal.size
    if len(cards) == size:
        chosen = cards
    else:
        chosen = max(
            combinations(cards, size),
            key=lambda five: _arrangement_value(seen, five),
        )
    counts: dict[int, int] = {}
    for card in chosen:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return tuple(sorted(chosen, key=lambda card: (_useful(seen, card, counts), str(card))))


def _arrangement_value(seen: _Seen, five: tuple[Card, ...]) -> tuple[int, int]:
    high = evaluate(five, seen.rules.high, wild=seen.wild).score if seen.rules.uses_high else 0
    low = evaluate(five, seen.rules.low, wild=seen.wild).score if seen.rules.uses_low else 0
    if seen.rules.split is Split.LOW:
        return (low, high)
    return (high, low)


def _declare(seen: _Seen, legal: DeclareOptions, style: _Style, rng: random.Random) -> Direction:
    """High or low by whichever half the hand is stronger in; both only with a hand that is
    very strong in each."""
    cards = seen.playing
    options = legal.directions
    if len(cards) < 5:
        return Direction.HIGH if Direction.HIGH in options else options[0]
    high = evaluate(cards, seen.rules.high, wild=seen.wild)
    low = evaluate(cards, seen.rules.low, wild=seen.wild)
    five_high = _five(seen, cards) or cards
    high_share = float(_odds_of(seen, five_high, ()).strength) if len(five_high) == 5 else 0.5
    low_good = low_qualifies(low, 8)
    low_share = 0.9 if low_qualifies(low, 7) else 0.75 if low_good else 0.2
    if style.reads and Direction.BOTH in options and high_share > 0.97 and low_good:
        return Direction.BOTH
    del high
    choice = Direction.LOW if low_share > high_share else Direction.HIGH
    if choice not in options:
        choice = options[0]
    return choice


def _choose(legal: ChooseOptions, rng: random.Random) -> Action:
    """Dealer's choice: one of the offered games, plain."""
    slugs = legal.slugs or (legal.default,)
    return ChooseGame(rng.choice(slugs))
