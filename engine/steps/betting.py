"""The betting round.

Players act one at a time, clockwise from the first player named by the step's
:class:`engine.rules.BetStart`. The round ends when every player still in the hand has either
matched the largest bet or is all-in and nobody is owed an action, or when only one player is
left. Rules implemented here:

* limits per structure (:mod:`engine.stakes`), the raise cap of fixed and spread limit, and the
  jackpot limit after a passed-out deal;
* in pot and no limit, a raise is at least the largest bet or raise of the round so far; an
  all-in that falls short of a full raise does not reopen the betting to players who already
  acted (unless several short all-ins add up to a full raise);
* the opening requirement (no bet without openers while nobody has opened);
* open-or-fold rounds, live blinds (which may raise when the action comes back), the seven
  rule and no check-raise of lowball;
* uncalled bets go back to the bettor when the round ends; a first round checked around with
  no blinds passes the deal out.

The options of the first player to act, at a 2/4 fixed-limit table with antes:

>>> import random
>>> from engine import Table, TableConfig
>>> table = Table(TableConfig("five-card-draw"))
>>> _ = table.sit("ann", 100), table.sit("bob", 100)
>>> _ = table.start_hand(random.Random(1))
>>> legal = table.pending[0].legal
>>> legal.can_check, legal.min_to, legal.max_to, legal.raises_left
(True, 2, 2, 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import events as ev
from engine.actions import Action, AllIn, Bet, Call, Check, Fold, Raise
from engine.decisions import BetOptions, Decision, DecisionKind
from engine.errors import IllegalAction
from engine.hands import low_qualifies
from engine.rules import Bet as BetStep
from engine.rules import BetStart, BetTier
from engine.rules import Draw as DrawStep
from engine.stakes import FixedLimit, SpreadLimit
from engine.steps.base import Runner
from engine.wording import VERBS, Phrase, english

_STACK_COVERS_A_CALL = Phrase("your stack only covers a call")
_SHORT_ALL_IN = Phrase("an all-in short of a full raise does not reopen the betting")
_CHECKED_BEFORE = Phrase("you checked in this round and may not raise")
_NOBODY_TO_CALL = Phrase("nobody left could call a raise")

if TYPE_CHECKING:
    from engine.game import Hand, Player

__all__ = ["BettingRound"]

_BIG = BetTier.BIG
_AUTO, _AFTER_BLINDS, _OPENER = BetStart.AUTO, BetStart.AFTER_BLINDS, BetStart.OPENER
_BET = DecisionKind.BET

# Whole names, not an ordinal and a noun: a language may inflect the ordinal by the noun.
_STREETS = tuple(
    Phrase(name)
    for name in (
        english("First betting round"),
        english("Second betting round"),
        english("Third betting round"),
        english("Fourth betting round"),
        english("Fifth betting round"),
        english("Sixth betting round"),
        english("Seventh betting round"),
        english("Eighth betting round"),
    )
)


class BettingRound(Runner):
    """One betting round (see the module docstring)."""

    __slots__ = (
        "_decided",
        "acted",
        "after_draw",
        "aggressions",
        "aggressor",
        "checked",
        "current",
        "fixed",
        "full_level",
        "limit",
        "max_bet",
        "max_raises",
        "min_bet",
        "min_incr",
        "opening",
        "pot_limit",
        "sevens",
        "shorts",
        "step",
    )

    kind = "bet"

    # Every other attribute is set by begin(), which always runs right after construction.
    current: Player | None
    max_bet: int
    min_bet: int
    min_incr: int
    full_level: int
    limit: int | None
    fixed: bool
    pot_limit: bool
    max_raises: int | None
    aggressions: int
    shorts: list[int]
    acted: set[int]
    checked: set[int]
    aggressor: Player | None
    opening: bool
    after_draw: bool
    sevens: bool

    def __init__(self, hand: Hand, step: BetStep) -> None:
        self.hand = hand
        self.done = False
        self.step = step
        self.current = None
        self.shorts = []
        self.acted = set()
        self.checked = set()
        self.aggressor = None
        # The pending decision last given out: the same until somebody acts or folds (asked
        # for by the table's view, the player's own view and the action's checks alike).
        self._decided: tuple[Decision, ...] | None = None

    # -- setup ----------------------------------------------------------------------------------

    def begin(self) -> None:
        h = self.hand
        step = self.step
        number = self.number = h.next_number("bet")
        self.opening = h.opening_pending
        self.after_draw = "draw" in h.counters
        # The seven rule judges a final hand: a seven checked with a draw still to come may
        # yet be drawn to or broken.
        self.sevens = h.rules.seven_rule and h.counters.get("draw", 0) == sum(
            1 for s in h.rules.steps if isinstance(s, DrawStep)
        )
        big = step.tier is _BIG
        key = (big, step.scale)
        limits = h.limits_cache.get(key)
        if limits is None:
            limits = h.limits_cache[key] = h.structure.limits(big, step.scale)
        min_bet = limits.min_bet
        if step.double_min and h.last_round_bet:
            min_bet = max(min_bet, 2 * h.last_round_bet)
        self.min_bet = min_bet
        self.limit = limits.max_bet
        self.fixed = limits.fixed
        self.pot_limit = limits.pot_limit
        self.max_raises = limits.max_raises
        if h.jackpot_cap is not None and self.limit is not None:
            # Jackpot limit: bets may go up to the pot carried from the passed-out deals.
            self.limit = max(self.limit, h.jackpot_cap)
            self.fixed = False
        players = h.players
        start = self._start_index()
        if step.blind:
            poster = h.first_live_from(0, need_chips=True)
            if poster is not None:
                h._post(poster, min_bet, "blind", live=True)
                start = h.index_after(poster.index)
        # One pass: the largest bet, the players still in, and the two largest totals (bet
        # plus stack) among those (equal when two players share the largest).
        max_bet = 0
        live: list[Player] = []
        top = second = -1
        for p in players:
            bet = p.bet
            if bet > max_bet:
                max_bet = bet
            if not p.folded:
                live.append(p)
                total = bet + p.stack
                if total > top:
                    second = top
                    top = total
                elif total > second:
                    second = total
        self.max_bet = max_bet
        self.full_level = max_bet
        self.min_incr = min_bet if min_bet >= max_bet else max_bet
        self.aggressions = 1 if max_bet > 0 else 0
        several = len(live) > 1
        acted = self.acted
        able: Player | None = None  # the last player with a decision to make, and how many
        able_count = 0
        for p in live:
            if p.stack > 0:
                # A player whose bet already covers everything any other player could put
                # in has nothing to decide in this round.
                if several and p.bet >= (second if p.bet + p.stack == top else top):
                    acted.add(p.index)
                elif p.index not in acted:
                    able = p
                    able_count += 1
        if able is None or (able_count == 1 and able.bet >= max_bet):
            self._end()
            return
        current = self.current = self._next_from(start)
        if current is None:
            self._end()
            return
        h.events.append(ev.RoundStarted("bet", number, current.seat))

    def _start_index(self) -> int:
        h = self.hand
        start = self.step.start
        if start is _AUTO:
            if self.opening and h.blinds_posted and h.last_blind_index is not None:
                return h.index_after(h.last_blind_index)
            if self.opening or h.blinds_posted:
                return 0
            # Only betting after a draw may begin with the opener (anaconda's rounds after
            # a pass begin at the dealer's left, as every round of an ante game does).
            if self.after_draw and h.options.second_round_from_opener and h.opener is not None:
                return h.opener.index
            return 0
        if start is _AFTER_BLINDS and h.last_blind_index is not None:
            return h.index_after(h.last_blind_index)
        if start is _OPENER and h.opener is not None:
            return h.opener.index
        return 0

    # -- turn order -----------------------------------------------------------------------------

    def _needs(self, p: Player) -> bool:
        return not p.folded and p.stack > 0 and (p.index not in self.acted or p.bet < self.max_bet)

    def _next_from(self, index: int) -> Player | None:
        players = self.hand.players
        n = self.hand.n
        acted = self.acted
        max_bet = self.max_bet
        for k in range(n):
            p = players[(index + k) % n]
            if not p.folded and p.stack > 0 and (p.index not in acted or p.bet < max_bet):
                return p
        return None

    def waiting(self) -> list[Player]:
        return [] if self.current is None else [self.current]

    def waiting_seats(self) -> tuple[int, ...]:
        current = self.current
        return () if current is None else (current.seat,)

    def is_waiting_for(self, p: Player) -> bool:
        return p is self.current

    @property
    def current_bet(self) -> int:
        return self.max_bet

    def street(self) -> str:
        number = self.number
        if number <= len(_STREETS):
            return _STREETS[number - 1]
        return Phrase("Betting round {number}", number=number)

    # -- limits ---------------------------------------------------------------------------------

    def _no_raise_reason(self, p: Player, to_call: int) -> str | None:
        h = self.hand
        if p.stack <= to_call:
            return _STACK_COVERS_A_CALL
        if self.opening and self.max_bet == 0 and not h.has_openers(p):
            req = h.requirement
            assert req is not None
            return Phrase("you need {openers} to open", openers=req.label)
        if self.max_raises is not None and self.aggressions > self.max_raises:
            return Phrase.counted(
                "the betting is capped (a bet and {count} raise)",
                "the betting is capped (a bet and {count} raises)",
                count=self.max_raises,
            )
        if self.shorts and p.index in self.acted:
            return _SHORT_ALL_IN
        if (
            h.rules.no_check_raise
            and isinstance(h.structure, FixedLimit | SpreadLimit)  # limit games, not PL/NL
            and self.after_draw
            and p.index in self.checked
        ):
            return _CHECKED_BEFORE
        max_bet = self.max_bet
        for q in h.players:
            if q is not p and not q.folded and q.stack + q.bet > max_bet:
                return None
        return _NOBODY_TO_CALL

    def limits(self, p: Player) -> tuple[int, int | None, int | None, str | None]:
        """``(to_call, min_to, max_to, reason)`` for ``p``; the range is ``None`` (with a
        reason) when ``p`` may not bet or raise."""
        max_bet = self.max_bet
        to_call = max_bet - p.bet
        if to_call > p.stack:
            to_call = p.stack
        reason = self._no_raise_reason(p, to_call)
        if reason is not None:
            return to_call, None, None, reason
        all_in_to = p.bet + p.stack
        if self.fixed:
            lo = hi = self.full_level + self.min_bet
        else:
            incr = self.min_bet if max_bet == 0 else self.min_incr
            limit = self.limit
            if limit is not None and incr > limit:
                incr = limit
            lo = max_bet + incr
            if self.pot_limit:
                h = self.hand
                pot = h.carried + sum(q.committed for q in h.players) + (max_bet - p.bet)
                hi = max(lo, max_bet + pot)
            elif limit is not None:
                hi = max_bet + limit
            else:
                hi = all_in_to
        if all_in_to <= lo:
            lo = hi = all_in_to
        elif hi > all_in_to:
            hi = all_in_to
        return to_call, lo, hi, None

    def _can_check(self, p: Player, lo: int | None) -> bool:
        return p.bet >= self.max_bet and (self.step.checking or self.max_bet > 0 or lo is None)

    def options(self, p: Player) -> BetOptions:
        """The legal betting options of ``p``."""
        to_call, lo, hi, reason = self.limits(p)
        h = self.hand
        all_in_to = p.bet + p.stack
        in_range = lo is not None and hi is not None and lo <= all_in_to <= hi
        raises_left = None
        if self.max_raises is not None:
            raises_left = max(0, self.max_raises - max(0, self.aggressions - 1))
        # Positional, in the order of BetOptions' fields.
        return BetOptions(
            self._can_check(p, lo),  # can_check
            True,  # can_fold
            to_call,
            to_call > 0 and to_call >= p.stack,  # call_all_in
            lo,  # min_to
            hi,  # max_to
            all_in_to,
            p.stack > 0 and (p.stack <= to_call or in_range),  # can_all_in
            self.max_bet == 0,  # is_bet
            self.fixed,  # fixed_limit
            raises_left,
            self.max_bet,  # current_bet
            p.bet,  # player_bet
            h.carried + sum(q.committed for q in h.players),  # pot
            p.stack,
            reason,  # no_raise_reason
        )

    def decisions(self) -> tuple[Decision, ...]:
        decided = self._decided
        if decided is not None:
            return decided
        p = self.current
        if p is None:
            return ()
        decided = self._decided = (Decision(p.seat, p.pid, _BET, self.options(p)),)
        return decided

    def timeout_action(self, p: Player) -> Action:
        _, lo, _, _ = self.limits(p)
        return Check() if self._can_check(p, lo) else Fold()

    # -- actions --------------------------------------------------------------------------------

    def act(self, p: Player, action: Action) -> None:
        cls = action.__class__
        h = self.hand
        self._decided = None
        if cls is Fold:
            h.fold(p)
            self.acted.add(p.index)
            h.events.append(ev.Folded(p.seat))
            h.last_action = (p.seat, VERBS["folded"], None)
        elif cls is Check or cls is Call:
            to_call = self.max_bet - p.bet
            if to_call > p.stack:
                to_call = p.stack
            if to_call == 0:
                step = self.step
                if not (step.checking or self.max_bet > 0) and not self._can_check(
                    p, self.limits(p)[1]
                ):
                    raise IllegalAction("you may not check in this round: bet or fold")
                # A check, spelt out on this hot path (the seven rule has a method of its own)
                self.acted.add(p.index)
                self.checked.add(p.index)
                h.events.append(ev.Checked(p.seat))
                h.last_action = (p.seat, VERBS["checked"], None)
                if self.sevens:
                    self._seven_rule(p)
            elif cls is Check:
                raise IllegalAction("you cannot check: {amount} to call", amount=to_call)
            else:
                # self._call(p, to_call), inlined on this hot path
                stack = p.stack = p.stack - to_call
                bet = p.bet = p.bet + to_call
                p.committed += to_call
                self.acted.add(p.index)
                h.events.append(ev.Called(p.seat, to_call, bet, stack == 0))
                h.last_action = (p.seat, VERBS["called"], to_call)
        elif cls is Bet or cls is Raise:
            to = action.to  # type: ignore[union-attr]
            if isinstance(to, bool) or not isinstance(to, int):
                raise IllegalAction(
                    "the amount must be a whole number of chips, not {amount}", amount=repr(to)
                )
            _, lo, hi, reason = self.limits(p)
            if lo is None or hi is None:
                raise IllegalAction("you cannot bet or raise: {reason}", reason=reason)
            if not lo <= to <= hi:
                if lo == hi:
                    if self.max_bet == 0:
                        raise IllegalAction(
                            "you can only bet to exactly {low}, not {to}", low=lo, to=to
                        )
                    raise IllegalAction(
                        "you can only raise to exactly {low}, not {to}", low=lo, to=to
                    )
                if self.max_bet == 0:
                    raise IllegalAction(
                        "you can bet to between {low} and {high}, not {to}", low=lo, high=hi, to=to
                    )
                raise IllegalAction(
                    "you can raise to between {low} and {high}, not {to}", low=lo, high=hi, to=to
                )
            self._raise(p, to)
        elif cls is AllIn:
            to_call, lo, hi, reason = self.limits(p)
            if p.stack <= 0:
                raise IllegalAction("you have no chips left")
            if p.stack <= to_call:
                self._call(p, p.stack)
            elif lo is not None and hi is not None and lo <= p.bet + p.stack <= hi:
                self._raise(p, p.bet + p.stack)
            elif lo is None:
                raise IllegalAction("you cannot go all-in: {reason}", reason=reason)
            else:
                raise IllegalAction(
                    "all-in would be {amount}; the most you can is {most}",
                    amount=p.bet + p.stack,
                    most=hi,
                )
        else:
            raise IllegalAction("this is a betting round: fold, check, call, bet or raise")
        # self._after(p), inlined on this hot path
        if h.live <= 1:
            self._end()
            return
        nxt = self._next_from(p.index + 1)
        if nxt is None:
            self._end()
        else:
            self.current = nxt

    def _seven_rule(self, p: Player) -> None:
        """A player checking seven-low or better after the last draw caps their claim."""
        if p.seven_cap is None:
            h = self.hand
            low = h.low_value(p)
            if low is not None and low_qualifies(low, 7):
                p.seven_cap = p.committed

    def _call(self, p: Player, amount: int) -> None:
        h = self.hand
        p.stack -= amount
        p.bet += amount
        p.committed += amount
        self.acted.add(p.index)
        h.events.append(ev.Called(p.seat, amount, p.bet, p.stack == 0))
        h.last_action = (p.seat, VERBS["called"], amount)

    def _raise(self, p: Player, to: int) -> None:
        h = self.hand
        amount = to - p.bet
        p.stack -= amount
        p.bet = to
        p.committed += amount
        previous = self.max_bet
        incr = to - previous
        if self.fixed:
            full = to >= self.full_level + self.min_bet
        else:
            need = self.min_incr
            if self.limit is not None and need > self.limit:
                need = self.limit
            full = previous == 0 or incr >= need
        if full:
            if incr > self.min_incr:
                self.min_incr = incr
            self.full_level = to
            self.acted = {p.index}
            self.shorts = []
            self.aggressions += 1
        else:
            self.acted.add(p.index)
            self.shorts.append(incr)
            if sum(self.shorts) >= self.min_incr:
                self.shorts = []
        self.max_bet = to
        self.aggressor = p
        if self.opening and h.opener is None:
            h.record_opener(p)
        all_in = p.stack == 0
        if previous == 0:
            h.events.append(ev.BetPlaced(p.seat, amount, to, all_in))
            h.last_action = (p.seat, VERBS["bet"], to)
        else:
            h.events.append(ev.Raised(p.seat, amount, to, all_in, full))
            h.last_action = (p.seat, VERBS["raised"], to)

    def _after(self, p: Player) -> None:
        if self.hand.live <= 1:
            self._end()
            return
        nxt = self._next_from(p.index + 1)
        if nxt is None:
            self._end()
        else:
            self.current = nxt

    def player_folded(self, p: Player) -> None:
        self._decided = None
        self.acted.add(p.index)
        if self.done:
            return
        if self.hand.live <= 1:
            self._end()
        elif self.current is p:
            self._after(p)

    # -- the end of the round -------------------------------------------------------------------

    def _end(self) -> None:
        h = self.hand
        self.done = True
        self.current = None
        self._decided = None
        players = h.players
        # The largest bet (the first player making it) and the largest bet of the others.
        top = players[0]
        top_bet = top.bet
        second = 0
        for q in players:
            bet = q.bet
            if bet > top_bet:
                second = top_bet
                top = q
                top_bet = bet
            elif bet > second and q is not top:
                second = bet
        if self.max_bet > 0 and top_bet > second:
            excess = top_bet - second
            top.bet = second
            top.committed -= excess
            top.stack += excess
            h.events.append(ev.BetReturned(top.seat, excess))
            h.last_round_bet = second
        else:
            h.last_round_bet = top_bet
        h.last_round_aggressor = self.aggressor
        for q in players:
            q.bet = 0
        if self.opening:
            h.opening_pending = False
            # Passed out when two players or more could have opened and none did; with
            # fewer players holding chips nobody could, and the hand is played out (a deal
            # that passed out each time would carry the pot of players all-in for ever).
            if (
                self.max_bet == 0
                and h.live >= 2
                and h.rules.pass_out_on_checks
                and sum(1 for q in players if q.stack > 0 and not q.folded) >= 2
            ):
                h.pass_out()
            elif (
                self.max_bet == 0
                and h.live == 1
                and h.requirement is not None
                and h.rules.pass_out_on_checks
                and h.rules.switch_on_pass_out is None
            ):
                # Everyone else folded before anyone opened: the last player left opens
                # (and shows the openers when paid) if they hold them; else nobody opened.
                lone = next(q for q in players if not q.folded)
                if h.has_openers(lone):
                    h.record_opener(lone)
                else:
                    h.pass_out()
