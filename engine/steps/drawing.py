"""Drawing rounds: one draw, and all for one's series of draws.

In a draw each player still in the hand, in turn, discards some cards and is dealt as many
(plus the step's ``extra``). The replacement cards come from the stub after one burn card; the
bottom card of the original stub is never dealt, and when the stub runs short the burn cards,
the bottom card and the discards of players who already drew are reshuffled (see
:meth:`engine.game.Hand.replacements`). The legal discard counts never exceed the cards that
can still be supplied, so a draw can always be completed.

After the first betting round, the first player draws (the counts follow the table's draw
limit; here ann keeps an ace and may throw away four):

>>> import random
>>> from engine import Bet, Call, Table, TableConfig, parse_cards
>>> table = Table(TableConfig("five-card-draw"))
>>> _ = table.sit("ann", 100), table.sit("bob", 100)
>>> _ = table.start_hand(random.Random(1), deck=parse_cards("As Kd Ah Kc Ad Ks Qh Qd 2c 3c"))
>>> _ = table.act("ann", Bet(2)), table.act("bob", Call())
>>> decision = table.pending[0]
>>> decision.kind.name, decision.player_id, decision.legal.counts
('DRAW', 'ann', (0, 1, 2, 3, 4))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine import events as ev
from engine.actions import Action, Discard, Keep
from engine.cards import Card
from engine.decisions import Decision, DecisionKind, DrawOptions, KeepOptions
from engine.errors import IllegalAction
from engine.rules import DRAW_FOUR_WITH_ACE, Bet, Draw, DrawLimit, DrawSeries, DrawStart
from engine.steps.base import Runner
from engine.steps.betting import BettingRound
from engine.wording import VERBS, Phrase, english

if TYPE_CHECKING:
    from engine.game import Hand, Player

__all__ = ["DrawRound", "DrawSeriesRunner", "discard_counts"]

_DRAW = DecisionKind.DRAW

# Whole names, not an ordinal and a noun (see the betting round's).
_STREETS = tuple(
    Phrase(name)
    for name in (
        english("First draw"),
        english("Second draw"),
        english("Third draw"),
        english("Fourth draw"),
        english("Fifth draw"),
        english("Sixth draw"),
        english("Seventh draw"),
        english("Eighth draw"),
    )
)
# The discard counts when the stub limits nothing, shared by every hand: keyed by the ids of
# the step and the limit (hashing those dataclasses field by field costs more than the rest
# of the lookup); each entry holds the two objects, so their ids cannot be reused meanwhile.
_PLENTY: dict[tuple[int, int, int], tuple[Draw, DrawLimit, tuple[tuple[int, ...], int | None]]] = {}
# The condition of an ace count, by the most cards discarded without one (a phrase is
# immutable, so every round shares it).
_CONDITIONS: dict[int, Phrase] = {}


def discard_counts(
    counts: frozenset[int] | None, limit: DrawLimit, held: int
) -> tuple[list[int], int | None]:
    """The numbers of cards a hand of ``held`` may discard by the rules (a step's own
    ``counts``, else its ``limit``), in increasing order, before the stub's supply is weighed;
    and the count allowed only with an ace or a wild card kept (None: no such count).

    >>> discard_counts(None, DRAW_FOUR_WITH_ACE, 5)
    ([0, 1, 2, 3, 4], 4)
    >>> discard_counts(frozenset({0, 1, 5}), DRAW_FOUR_WITH_ACE, 5)
    ([0, 1, 5], None)
    """
    if counts is not None:
        return sorted(c for c in counts if c <= held), None
    wanted = list(range(min(limit.most, held) + 1))
    ace_count = None
    if limit.with_ace is not None and limit.with_ace <= held:
        wanted.extend(range(limit.most + 1, min(limit.with_ace, held - 1) + 1))
        ace_count = limit.with_ace if limit.with_ace < held else None
    return wanted, ace_count


def _ace_condition(most: int) -> Phrase:
    return Phrase(
        "more than {most} only when the cards you keep include an ace or a wild card", most=most
    )


class DrawRound(Runner):
    """One drawing round (see the module docstring).

    ``series`` is set for all for one's rounds: no burn card, no reshuffle, and a full exchange
    only when the stub still leaves one card for each player after this one.
    """

    __slots__ = (
        "_condition",
        "_counts",
        "_decided",
        "_offered",
        "_plenty",
        "exchanged",
        "last_from_deck",
        "limit",
        "offer",
        "owed",
        "pos",
        "queue",
        "series",
        "start_index",
        "step",
    )

    kind = "draw"

    def __init__(
        self, hand: Hand, step: Draw, start_index: int | None = None, series: bool = False
    ) -> None:
        self.hand = hand  # Runner.__init__, inlined: a round is made in every hand
        self.done = False
        self.number = 0
        self.step = step
        self.series = series
        self.start_index = start_index
        self.queue: list[Player] = []
        self.pos = 0
        self.offer: tuple[Player, Card, Card, list[Card], list[Card]] | None = None
        self.exchanged = 0
        # The no-five-in-a-row rule: players owed their last card, and whoever was dealt the
        # latest replacement (the burn rule depends on it).
        self.owed: list[tuple[Player, list[Card]]] = []
        self.last_from_deck: Player | None = None
        self._counts: dict[tuple[int, int, int], tuple[tuple[int, ...], int | None]] = {}
        self.limit = DRAW_FOUR_WITH_ACE
        # held -> (cards needed at most, the shared answer of _PLENTY) for this round.
        self._plenty: dict[int, tuple[int, tuple[tuple[int, ...], int | None]]] = {}
        self._condition: str | None = None
        # The options last offered, and to whom: asked for by the decision and again by the
        # action, they only change when somebody draws or folds.
        self._offered: tuple[Player, DrawOptions] | None = None
        # The pending decisions last given out: the same until somebody acts or folds.
        self._decided: tuple[Decision, ...] | None = None

    def begin(self) -> None:
        h = self.hand
        step = self.step
        self.limit = self._limit()
        h.burned_this_round = False
        number = self.number = h.next_number("draw")
        if self.start_index is not None:
            start = self.start_index
        elif step.start is DrawStart.AFTER_BLINDS and h.last_blind_index is not None:
            start = h.index_after(h.last_blind_index)
        else:
            start = 0
        self.queue = h.live_players_from(start)
        if not self.queue:
            self.done = True
            return
        h.events.append(ev.RoundStarted("draw", number, self.queue[0].seat))

    def street(self) -> str:
        number = self.number
        if number <= len(_STREETS):
            return _STREETS[number - 1]
        return Phrase("Draw {number}", number=number)

    def _current(self) -> Player | None:
        if self.done:
            return None
        if self.offer is not None:
            return self.offer[0]
        return self.queue[self.pos]

    def waiting(self) -> list[Player]:
        p = self._current()
        return [] if p is None else [p]

    def waiting_seats(self) -> tuple[int, ...]:
        p = self._current()
        return () if p is None else (p.seat,)

    def is_waiting_for(self, p: Player) -> bool:
        if self.done:  # self._current(), inlined: this runs for every action
            return False
        offer = self.offer
        return p is (self.queue[self.pos] if offer is None else offer[0])

    # -- options --------------------------------------------------------------------------------

    def _limit(self) -> DrawLimit:
        limit = self.step.limit
        if limit is None:
            table_limit = self.hand.options.draw_limit
            limit = table_limit if isinstance(table_limit, DrawLimit) else DRAW_FOUR_WITH_ACE
        return limit

    def _most_needed(self, held: int) -> int:
        """The most cards a discard from ``held`` cards can require."""
        step = self.step
        if step.counts is not None:
            top = max((c for c in step.counts if c <= held), default=0)
        else:
            limit = self.limit
            top = min(limit.most if limit.with_ace is None else limit.with_ace, held)
        return top + step.extra + (1 if step.bosnian else 0)

    def counts(self, p: Player) -> tuple[tuple[int, ...], int | None]:
        """The allowed discard counts for ``p`` and the count that needs an ace kept."""
        held = len(p.cards)
        if self.series:
            # Only the stub, never a reshuffle, and never its bottom card.
            h = self.hand
            supply = len(h.stub) - (1 if h.bottom_reserved else 0)
        else:
            h = self.hand
            # h.supply(), less the cards already promised to players drawing five.
            supply = len(h.stub) + len(h.burns) + len(h.discards) - len(self.owed)
            known = self._plenty.get(held)
            if known is None:
                # With plenty of cards the stub limits nothing, and the answer depends on the
                # rules only, so it is shared by every hand (and remembered for this round).
                need = self._most_needed(held)
                step, limit = self.step, self.limit
                shared = (id(step), id(limit), held)
                entry = _PLENTY.get(shared)
                if entry is None or entry[0] is not step or entry[1] is not limit:
                    if len(_PLENTY) >= 1024:
                        _PLENTY.clear()
                    entry = _PLENTY[shared] = (step, limit, self._compute_counts(held, need, 0))
                known = self._plenty[held] = (need, entry[2])
            if supply >= known[0]:
                return known[1]
        key = (held, supply, len(self.queue) - self.pos - 1)
        cached = self._counts.get(key)
        if cached is None:
            later = len(self.queue) - self.pos - 1
            cached = self._counts[key] = self._compute_counts(held, supply, later)
        return cached

    def _compute_counts(
        self, held: int, supply: int, later: int
    ) -> tuple[tuple[int, ...], int | None]:
        extra = self.step.extra
        wanted, ace_count = discard_counts(self.step.counts, self.limit, held)
        allowed: list[int] = []
        for c in wanted:
            need = c + extra + (1 if self.step.bosnian and c == 4 else 0)
            if need > supply:
                continue
            if self.series and c > 1 and supply - need < later:
                continue
            allowed.append(c)
        if ace_count is not None and ace_count not in allowed:
            ace_count = None
        return tuple(allowed), ace_count

    def decisions(self) -> tuple[Decision, ...]:
        if self.done:
            return ()
        offer = self.offer
        if offer is not None:
            p, up, _, _, _ = offer
            return (Decision(p.seat, p.pid, DecisionKind.KEEP, KeepOptions(up, tuple(p.cards))),)
        decided = self._decided
        if decided is None:
            p = self.queue[self.pos]  # self._current(), inlined
            decided = self._decided = (Decision(p.seat, p.pid, _DRAW, self._options(p)),)
        return decided

    def _options(self, p: Player) -> DrawOptions:
        offered = self._offered
        if offered is not None and offered[0] is p:
            return offered[1]
        counts, ace_count = self.counts(p)
        step = self.step
        condition = None
        ace_above = None
        unlocks: tuple[Card, ...] = ()
        # ``counts`` is in increasing order, so its last entry is the largest.
        if step.counts is None and counts and counts[-1] > self.limit.most:
            ace_above = self.limit.most
            h = self.hand
            wild = h.wild if not h.extra_wild_ranks else h.wild_cards()
            if wild:
                unlocks = tuple([c for c in p.cards if c.rank == 14 or c.rank == 0 or c in wild])
            else:  # a card's hash is a Python call, asked for even by an empty set
                unlocks = tuple([c for c in p.cards if c.rank == 14 or c.rank == 0])
        if ace_count is not None and step.counts is None:
            condition = self._condition
            if condition is None:
                most = self.limit.most
                condition = _CONDITIONS.get(most)
                if condition is None:
                    condition = _CONDITIONS[most] = _ace_condition(most)
                self._condition = condition
        options = DrawOptions(
            tuple(p.cards),
            counts,
            ace_count,
            condition,
            step.extra,
            step.bosnian,
            ace_above,
            unlocks,
        )
        self._offered = (p, options)
        return options

    def timeout_action(self, p: Player) -> Action:
        if self.offer is not None:
            return Keep(self.offer[1])
        return Discard(())

    # -- actions --------------------------------------------------------------------------------

    def act(self, p: Player, action: Action) -> None:
        if self.offer is not None:
            if not isinstance(action, Keep):
                raise IllegalAction("choose the face-up card or the face-down card to keep")
            self._keep(p, action)
            return
        if not isinstance(action, Discard):
            raise IllegalAction("this is a draw: discard cards or stand pat")
        cards = action.cards
        held = p.cards
        count = len(cards)
        if count == 1:
            # The usual single card, by identity (one object per card): no comparisons.
            card = cards[0]
            kept = [c for c in held if c is not card]
            if len(kept) == len(held):
                raise IllegalAction("you do not hold {card}", card=str(card))
        else:
            for card in cards:
                if not isinstance(card, Card) or card not in held:
                    raise IllegalAction("you do not hold {card}", card=str(card))
            if count > 1 and len(set(cards)) != count:
                raise IllegalAction("a card is named twice")
            kept = [c for c in held if c not in cards] if count else list(held)
        offered = self._offered
        options = offered[1] if offered is not None and offered[0] is p else self._options(p)
        reason = options.refusal(cards)
        if reason is not None:
            raise IllegalAction(reason)
        self._draw(p, cards, kept)

    def _draw(self, p: Player, discarded: tuple[Card, ...], kept: list[Card]) -> None:
        h = self.hand
        self._offered = self._decided = None
        count = len(discarded)
        p.cards = kept
        to_pile: Sequence[Card] = discarded
        if (
            h.opener is p
            and h.requirement is not None
            and p.opening_cards
            and not self.series
            and count
        ):
            split = [c for c in discarded if c in p.opening_cards]
            if split:
                p.aside = (*p.aside, *split)
                to_pile = [c for c in discarded if c not in split]
                h.events.append(ev.OpenersSplit(p.seat, tuple(split)))
        if count:
            self.exchanged += 1
        if self.step.bosnian and count == 4:
            received = h.replacements(3 + self.step.extra)
            pair = h.replacements(2)
            p.cards.extend(received)
            h.events.append(ev.Drew(p.seat, tuple(discarded), tuple(received)))
            h.events.append(ev.BosnianOffer(p.seat, pair[0], pair[1]))
            self.offer = (p, pair[0], pair[1], list(to_pile), list(discarded))
            return
        total = count + self.step.extra
        hold_back = total >= 5 and not self.series and h.options.no_five_in_a_row
        received = h.replacements(total - 1 if hold_back else total, burn=not self.series)
        if hold_back:
            self.owed.append((p, list(to_pile)))
        if received:
            self.last_from_deck = p
        p.cards.extend(received)
        p.draws = (*p.draws, count)
        h.discards.extend(to_pile)
        h.events.append(ev.Drew(p.seat, discarded, tuple(received)))
        verb = VERBS["stood-pat"] if count == 0 else VERBS["drew"]
        h.last_action = (p.seat, verb, count or None)
        self._advance()

    def _keep(self, p: Player, action: Keep) -> None:
        assert self.offer is not None
        _, up, down, to_pile, _ = self.offer
        if action.card is not None and action.card is not up:
            raise IllegalAction(
                "keep the face-up {card} or the face-down card, not {chosen}",
                card=str(up),
                chosen=str(action.card),
            )
        h = self.hand
        self._offered = self._decided = None
        took_up = action.card is not None
        chosen, other = (up, down) if took_up else (down, up)
        p.cards.append(chosen)
        if took_up:
            p.turn_up((up,))
        p.draws = (*p.draws, 4)
        h.discards.extend(to_pile)
        h.discards.append(other)
        h.events.append(ev.BosnianKept(p.seat, took_up, chosen, other))
        h.last_action = (p.seat, VERBS["drew"], 4)
        self.offer = None
        self._advance()

    def _advance(self) -> None:
        self.pos += 1
        while self.pos < len(self.queue) and self.queue[self.pos].folded:
            self.pos += 1
        if self.pos >= len(self.queue):
            if self.owed:
                self._deal_owed()
            self.done = True

    def _deal_owed(self) -> None:
        """Give each player who drew five the last card, once everyone else has drawn; a
        burn card first when nobody drew since, so that the five are never consecutive."""
        h = self.hand
        for p, discarded in self.owed:
            if p.folded:
                continue
            usable = len(h.stub) - (1 if h.bottom_reserved else 0)
            if self.last_from_deck is p and usable >= 2:
                burned = h.stub.pop()
                h.burns.append(burned)
                h.events.append(ev.Burned(burned))
            # Should the stub run dry, a player is never dealt back a card of their own
            # discard, as long as other cards remain to reshuffle.
            own = set(discarded).intersection(h.discards)
            if own and usable < 1 and h.supply() - len(own) < 1:
                own = set()
            if own:
                h.discards = [c for c in h.discards if c not in own]
            card = h.replacements(1, burn=False)[0]
            h.discards.extend(c for c in discarded if c in own)
            p.cards.append(card)
            self.last_from_deck = p
            h.events.append(ev.LastCardDealt(p.seat, card))
        self.owed = []

    def player_folded(self, p: Player) -> None:
        self._offered = self._decided = None
        if self.done:
            return
        if self.offer is not None and self.offer[0] is p:
            _, up, down, to_pile, _ = self.offer
            self.hand.muck.extend((up, down))
            self.hand.discards.extend(to_pile)
            self.offer = None
            self._advance()
        elif self.queue[self.pos] is p:
            self._advance()
        h = self.hand
        if h.live <= 1 and self.offer is None and not self.done and not h.rules.win_requirement:
            # One player left (the others stood up): nobody to draw against, the pot is
            # theirs now, as when the last opponent folds to a bet. (Where a hand must show
            # something to win, the draw is theirs to make: it is judged after the draw.)
            if self.owed:
                self._deal_owed()
            self.done = True

    def held_cards(self) -> list[Card]:
        if self.offer is None:
            return []
        _, up, down, to_pile, _ = self.offer
        return [up, down, *to_pile]


class DrawSeriesRunner(Runner):
    """All for one: draw, bet, draw, bet... Every drawing round is followed by its betting
    round, and the showdown comes once a betting round leaves fewer cards in the stub than
    players still in the hand (the bottom card, never dealt, does not count). Each drawing
    round is begun by the first player still in left of whoever began the previous one.

    What bounds the series: the stub, for every round in which a card changes hands (an
    exchange takes at least one card and nothing is ever shuffled back). A round in which
    nobody exchanges and nobody bets changes nothing at all, so playing it again could only
    repeat it: the series ends after such a quiet round instead of going round forever.
    """

    kind = "draw"

    def __init__(self, hand: Hand, step: DrawSeries) -> None:
        super().__init__(hand)
        self.step = step
        self.rounds = 0
        self.sub: Runner | None = None
        self.last_draw: DrawRound | None = None

    def begin(self) -> None:
        self._next_phase()

    def _next_phase(self) -> None:
        h = self.hand
        while True:
            sub = self.sub
            if sub is not None and not sub.done:
                return
            if h.live <= 1 or h.passed_out:
                self.done = True
                return
            if isinstance(sub, DrawRound):
                self.last_draw = sub
                bet = BettingRound(h, Bet(tier=self.step.tier))
                self.sub = bet
                bet.begin()
                continue
            if (
                isinstance(sub, BettingRound)
                and self.last_draw is not None
                and self.last_draw.exchanged == 0
                and sub.aggressor is None
            ):
                self.done = True
                return
            if len(h.stub) - (1 if h.bottom_reserved else 0) < h.live:
                self.done = True
                return
            # Each round is begun by the player left of whoever began the previous one (a
            # folded seat is passed over, never counted as a turn to begin).
            last = self.last_draw
            start = 0 if last is None or not last.queue else h.index_after(last.queue[0].index)
            self.rounds += 1
            draw = DrawRound(h, Draw(counts=self.step.counts), start_index=start, series=True)
            self.sub = draw
            draw.begin()

    def waiting(self) -> list[Player]:
        return [] if self.sub is None or self.done else self.sub.waiting()

    def is_waiting_for(self, p: Player) -> bool:
        return self.sub is not None and not self.done and self.sub.is_waiting_for(p)

    def decisions(self) -> tuple[Decision, ...]:
        return () if self.sub is None or self.done else self.sub.decisions()

    def act(self, p: Player, action: Action) -> None:
        assert self.sub is not None
        self.sub.act(p, action)
        self._next_phase()

    def timeout_action(self, p: Player) -> Action:
        assert self.sub is not None
        return self.sub.timeout_action(p)

    def player_folded(self, p: Player) -> None:
        if self.sub is not None and not self.done:
            self.sub.player_folded(p)
            self._next_phase()

    def held_cards(self) -> list[Card]:
        return [] if self.sub is None else self.sub.held_cards()

    def street(self) -> str:
        return Phrase("All for one") if self.sub is None else self.sub.street()

    @property
    def current_bet(self) -> int:
        return 0 if self.sub is None else self.sub.current_bet

    @property
    def phase(self) -> str:
        """``"draw"`` or ``"bet"``, whichever sub-round is running."""
        return "draw" if self.sub is None else self.sub.kind
