"""House players: a seat the bot plays itself, from what that seat may see.

:func:`decide` answers one pending decision. It reads only the seat's
:class:`~engine.views.PrivateView` (its own cards), the table's
:class:`~engine.views.PublicView` and the game's :class:`~engine.rules.GameRules` (which everyone
at the table knows), so a house player never knows more than a person in its seat would. The
levels differ in judgement, not in information:

* ``easy`` draws by a rule of thumb and bets straightforwardly: it bets good hands, calls
  too often and never bluffs;
* ``normal`` draws by the exact odds (:func:`engine.odds.best_draws`) and weighs pot odds;
* ``hard`` also reads how many cards each opponent drew and how many opponents remain, acts
  later in position with more confidence, and sometimes bluffs or slowplays.

>>> import random
>>> from engine import Table, TableConfig
>>> table = Table(TableConfig("five-card-draw"))
>>> _ = table.sit("ann", 100), table.sit("house", 100)
>>> _ = table.start_hand(random.Random(3))
>>> decision = table.pending[0]
>>> view = table.private_view(decision.seat)
>>> action = decide(view, table.public_view(), decision, Level.NORMAL, random.Random(1),
...                 rules=current_rules(table))
>>> type(action).__name__ in {"Check", "Bet", "Fold", "Call", "Raise"}
True
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

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
from engine.events import Drew, Event, Reshuffled
from engine.hands import Category, HandValue, Ranking, evaluate, low_qualifies
from engine.odds import DrawOdds, best_draws, draw_odds
from engine.rules import DRAW_FOUR_WITH_ACE, Direction, Draw, DrawSeries, GameRules, Split
from engine.views import PrivateView, PublicView

__all__ = [
    "LEVELS",
    "Level",
    "NoOdds",
    "current_rules",
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
    bet_at: float  # win chance from which it bets or raises for value
    raise_at: float  # win chance from which it raises a bet
    call_slack: float  # added to its win chance when deciding to call (loose players)
    bluff: float  # how often it bets a weak hand nobody has bet into
    slowplay: float  # how often it only calls with a very strong hand
    reads: bool  # counts opponents' draws and its own position


_STYLES = {
    Level.EASY: _Style(False, 0.8, 0.92, 0.22, 0.0, 0.0, False),
    Level.NORMAL: _Style(True, 0.62, 0.8, 0.05, 0.0, 0.0, False),
    Level.HARD: _Style(True, 0.6, 0.78, 0.0, 0.06, 0.06, True),
}


def current_rules(table: object) -> GameRules:
    """The rules of the hand being dealt at ``table`` (an :class:`engine.table.Table`), or of
    its next hand: public knowledge at the table, what :func:`decide` needs beside the views."""
    hand = getattr(table, "hand", None)
    if hand is not None and not hand.over:
        rules: GameRules = hand.rules
        return rules
    config = table.config  # type: ignore[attr-defined]
    configured: GameRules = config.rules()
    return configured


def decide(
    private: PrivateView,
    public: PublicView,
    decision: Decision,
    level: Level | str,
    rng: random.Random,
    *,
    rules: GameRules,
) -> Action:
    """The action a house player of ``level`` takes for ``decision``, always a legal one.

    ``private`` is the view of the deciding seat, ``public`` the table's view and ``rules``
    the rules of the hand in play. ``rng`` supplies the only randomness, so the same inputs
    and the same generator state give the same action.
    """
    style = _STYLES[Level(level)]
    legal = decision.legal
    seen = _Seen(private, public, rules)
    if isinstance(legal, BetOptions):
        return _bet(seen, legal, style, rng)
    if isinstance(legal, DrawOptions):
        return Discard(_discard(seen, legal, style))
    if isinstance(legal, KeepOptions):
        return _keep(seen, legal)
    if isinstance(legal, PassOptions):
        return PassCards(_worst(seen, legal.cards, legal.count))
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


class _Seen:
    """The facts a decision uses, all from the seat's views and the game's rules."""

    __slots__ = ("board", "cards", "dead", "deck", "plays", "private", "public", "rules", "wild")

    def __init__(
        self,
        private: PrivateView,
        public: PublicView,
        rules: GameRules,
        dead: tuple[Card, ...] = (),
    ) -> None:
        self.private = private
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

    @classmethod
    def of_rules(cls, rules: GameRules, wild: frozenset[Card]) -> _Seen:
        """The facts of a game away from any table (for study)."""
        seen = cls.__new__(cls)
        seen.rules = rules
        seen.cards = ()
        seen.board = ()
        seen.plays = rules.board_plays
        seen.wild = wild
        seen.deck = rules.deck
        seen.dead = ()
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
        draws = sum(1 for step in steps if isinstance(step, Draw))
        me = next((s for s in self.public.seats if s.seat == self.private.seat), None)
        return (len(me.draws) if me is not None else 0) < draws


# ---------------------------------------------------------------------------------------------
# Strength: the share of the deck's five-card hands the final hand is expected to beat

_CACHE: OrderedDict[tuple[object, ...], object] = OrderedDict()
_CACHE_SIZE = 4096


def _cached(key: tuple[object, ...], make: object) -> object:
    found = _CACHE.get(key)
    if found is None:
        found = make()  # type: ignore[operator]
        _CACHE[key] = found
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return found


def _odds_of(seen: _Seen, hand: tuple[Card, ...], discard: tuple[Card, ...]) -> DrawOdds:
    key = (
        "odds",
        hand,
        discard,
        seen.ranking,
        seen.low,
        seen.rules.low_qualifier,
        seen.wild,
        seen.dead,
        seen.deck,
    )
    qualifier = seen.rules.low_qualifier if seen.rules.split is Split.HIGH_LOW else None

    def make() -> DrawOdds:
        return draw_odds(
            hand,
            discard,
            seen.ranking,
            wild=seen.wild,
            dead=seen.dead,
            deck=seen.deck,
            low=seen.low,
            low_qualifier=qualifier,
        )

    result = _cached(key, make)
    assert isinstance(result, DrawOdds)
    return result


def _best(
    seen: _Seen, hand: tuple[Card, ...], most: int
) -> list[tuple[tuple[Card, ...], DrawOdds]]:
    key = (
        "best",
        hand,
        most,
        seen.ranking,
        seen.low,
        seen.rules.low_qualifier,
        seen.wild,
        seen.dead,
        seen.deck,
    )
    qualifier = seen.rules.low_qualifier if seen.rules.split is Split.HIGH_LOW else None

    def make() -> list[tuple[tuple[Card, ...], DrawOdds]]:
        return best_draws(
            hand,
            seen.ranking,
            wild=seen.wild,
            dead=seen.dead,
            deck=seen.deck,
            max_discard=most,
            low=seen.low,
            low_qualifier=qualifier,
        )

    result = _cached(key, make)
    assert isinstance(result, list)
    return result


def _score(odds: DrawOdds) -> float:
    """One number for a draw's worth: the expected strength, in a split game the better half
    plus a little of the other (a scoop is worth more than half)."""
    high = float(odds.strength)
    if odds.low is None:
        return high
    low = float(odds.low.strength)
    return max(high, low) + 0.25 * min(high, low)


def _five(seen: _Seen, cards: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """The best five of ``cards`` for the game's main ranking, or None for short hands."""
    if len(cards) < 5:
        return None
    if len(cards) == 5:
        return cards
    value = evaluate(cards, seen.ranking, wild=seen.wild)
    return tuple(played.card for played in value.cards)


def _short_strength(value: HandValue) -> float:
    """A rough share for three- and four-card hands, which rank by pairs and sets only."""
    if value.ranking.is_low:
        return 0.6 if value.category is Category.HIGH_CARD else 0.2
    top = value.ranks[0] if value.ranks else 2
    return min(0.95, 0.25 + 0.3 * int(value.category) + top / 60)


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
        return _short_strength(evaluate(cards, seen.ranking, wild=seen.wild))
    series = any(isinstance(step, DrawSeries) for step in seen.rules.steps)
    if seen.draws_left and len(cards) == 5 and not seen.plays and not series:
        if exact:
            return _score(_best(seen, five, 3)[0][1])
        return _score(_odds_of(seen, five, _rule_of_thumb(seen, five, 3)))
    share = _score(_odds_of(seen, five, ()))
    # the best five of more cards is measured against other players' best five of as many
    return float(share ** (1 + 1.5 * (len(cards) - 5)))


# ---------------------------------------------------------------------------------------------
# Advice for a person (the coach)


class NoOdds(ValueError):
    """The odds engine counts five-card hands only: this game's hands are not such."""


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
    """The ``top`` best legal discards of the seat's pending draw with their exact odds, best
    first (as :func:`engine.odds.best_draws` ranks them, the game's deck, wild cards and low
    qualifier applied, ``dead`` cards out of the deck).

    :raises NoOdds: when the seat has no draw to make or its hand is not five cards (short
        hands, seven-card draw, a board card that plays, four-before's extra card).
    """
    decision = private.decision
    if decision is None or not isinstance(decision.legal, DrawOptions):
        raise NoOdds("there is no draw to make")
    legal = decision.legal
    seen = _Seen(private, public, rules, tuple(dead))
    if len(legal.cards) != 5 or seen.plays or legal.extra:
        raise NoOdds("the odds are for five-card hands drawing as many as they throw")
    advice = [
        (discard, odds)
        for discard, odds in _best(seen, legal.cards, min(legal.most, 5))
        if legal.refusal(discard) is None
    ]
    return advice[:top]


def study_odds(
    cards: tuple[Card, ...],
    rules: GameRules,
    discard: tuple[Card, ...] | None = None,
    *,
    top: int = 3,
) -> list[tuple[tuple[Card, ...], DrawOdds]]:
    """Odds for study, away from a table: five ``cards`` in a game of ``rules`` (its deck, its
    wild cards, the most its draws allow); ``discard`` alone when given, else the ``top``
    best discards.

    :raises NoOdds: when the game's hands are not five cards.
    :raises ValueError: with the reason, for cards outside the game's deck, a discard of
        cards not held or more cards than the game lets a player draw.
    """
    if rules.min_hand_size != 5 or rules.board_plays or rules.dealt_per_player != 5:
        raise NoOdds("the odds are for games of five-card hands")
    deck = rules.deck.cards()
    seen = _Seen.of_rules(rules, rules.wild.resolve(deck))
    if len(cards) != 5:
        raise ValueError(f"a hand to draw to holds five cards, not {len(cards)}")
    most = _most_drawn(rules)
    if discard is not None:
        if len(discard) > most:
            raise ValueError(f"this game lets a player draw at most {most} cards")
        return [(discard, _odds_of(seen, cards, discard))]
    return _best(seen, cards, most)[:top]


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
# share of hands beaten; 1.35 when nothing is known). In high games any draw keeps something:
# a pat hand or a two-card draw (trips) is strong, a three-card draw a pair. In lowball a pat
# hand is made, a one-card draw close to it, and more cards is a rough draw.
_HIGH_READS = {0: 2.6, 1: 2.0, 2: 2.4, 3: 1.5}
_LOW_READS = {0: 2.2, 1: 1.5, 2: 1.1, 3: 0.9}


def _win_chance(seen: _Seen, strength: float, style: _Style) -> float:
    """The chance to win against everyone left, taking each opponent as an independent hand.
    A player who draws fewer cards usually holds more, so a reader weighs them by it."""
    share = min(strength, 0.995)
    chance = 1.0
    for _, draws in _opponents(seen):
        weight = 1.35
        if style.reads and draws:
            drawn = draws[-1]
            table = _LOW_READS if seen.rules.split is Split.LOW else _HIGH_READS
            weight = table.get(drawn, 1.0)
        chance *= share**weight
    return chance


def _in_position(seen: _Seen) -> bool:
    """Whether every opponent still to act has already acted this round (acting last)."""
    seats = [s.seat for s in seen.public.seats if s.in_hand and not s.folded]
    button = seen.public.button if seen.public.button is not None else 0
    order = sorted(seats, key=lambda seat: (seat - button - 1) % 64)
    return bool(order) and order[-1] == seen.private.seat


def _bet(seen: _Seen, legal: BetOptions, style: _Style, rng: random.Random) -> Action:
    strength = _strength(seen, style.exact_draws)
    chance = _win_chance(seen, strength, style)
    if style.reads and _in_position(seen):
        chance = min(1.0, chance * 1.08)
    noise = rng.uniform(-0.04, 0.04) if style is not _STYLES[Level.EASY] else 0.0
    chance += noise
    owed = legal.to_call
    if owed == 0:
        if legal.can_raise and chance >= style.bet_at:
            if _may_slowplay(seen, style, chance) and rng.random() < style.slowplay:
                return _check_or_least(legal)
            return _raise(legal, chance)
        if legal.can_raise and _may_bluff(seen, style) and rng.random() < style.bluff:
            return _raise(legal, 0.0)
        return _check_or_least(legal)
    pressure = 0.0 if legal.fixed_limit else min(0.2, 0.3 * owed / max(1, legal.pot))
    hides = _may_slowplay(seen, style, chance) and rng.random() < style.slowplay
    if legal.can_raise and chance >= style.raise_at + pressure and not hides:
        return _raise(legal, chance)
    pot_odds = owed / (legal.pot + owed)
    if chance + style.call_slack >= pot_odds * 1.1 or (legal.call_all_in and chance > 0.5):
        return Call()
    return Fold() if legal.can_fold else Call()


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
    if _stood_pat_in_series(seen) and 1 in legal.counts:
        # the series only ends as the stub runs out: standing pat for ever would never end it
        return _legal_discard(legal, _order_worst(seen, cards), 1)
    wanted: tuple[Card, ...] = ()
    if len(cards) == 5 and not seen.plays and legal.extra == 0 and style.exact_draws:
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
                return max(choices, key=lambda d: (_score(_odds_of(seen, cards, d)), -len(d)))
        # throwing four or five is almost never best, and it costs the most to count
        for discard, _ in _best(seen, cards, min(most, 3)):
            if legal.refusal(discard) is None:
                return discard
    elif len(cards) == 4 and seen.plays and len(seen.board) == 1 and style.exact_draws:
        for discard, _ in _best(seen, (*cards, *seen.board), min(most, 4)):
            if seen.board[0] not in discard and legal.refusal(discard) is None:
                return discard
    else:
        wanted = _rule_of_thumb(seen, cards, most)
    if not wanted and len(cards) == 5 and not seen.plays and legal.extra == 0:
        wanted = _rule_of_thumb(seen, cards, most)
    return _legal_discard(legal, _order_worst(seen, cards), len(wanted))


def _stood_pat_in_series(seen: _Seen) -> bool:
    if not any(isinstance(step, DrawSeries) for step in seen.rules.steps):
        return False
    me = next((s for s in seen.public.seats if s.seat == seen.private.seat), None)
    return me is not None and bool(me.draws) and me.draws[-1] == 0


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
    return ordered


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
        keep = [c for c in cards if c in seen.wild or c.is_joker or counts[c.rank] > 1]
        target = len(cards) - max(len(keep), 2) if len(keep) < 2 else len(cards) - len(keep)
        if len(keep) == len(cards):
            target = 0
    target = max(0, min(target, most, len(cards)))
    return tuple(worst[:target])


def _worst(seen: _Seen, cards: tuple[Card, ...], count: int) -> tuple[Card, ...]:
    return tuple(_order_worst(seen, cards)[:count])


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
