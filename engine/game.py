"""One hand of draw poker, from the forced bets to the pots being pushed.

:class:`Hand` is the state machine behind :class:`engine.table.Table`: it is built from a
:class:`HandSetup` (who is dealt in, the deck order, the rules and the stakes), walks through
the steps of its :class:`engine.rules.GameRules` with one handler per step kind (see
:mod:`engine.steps`), and ends with a :class:`engine.events.HandResult`. It owns every card of
the deck and every chip in the middle until the end, so the invariants (cards in exactly one
place, chips conserved) can be checked at any time with :meth:`Hand.card_locations` and
:meth:`Hand.chips`.

Callers normally use the table; the hand is public for tests and tools.

>>> import random
>>> from engine import Table, TableConfig
>>> table = Table(TableConfig("five-card-draw"))
>>> _ = table.sit("ann", 100), table.sit("bob", 100)
>>> _ = table.start_hand(random.Random(2))
>>> hand = table.hand
>>> hand.rules.name, [p.pid for p in hand.players]
('Five-card draw', ['ann', 'bob'])
>>> sum(len(cards) for cards in hand.card_locations().values())
52
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import events as ev
from engine._frozen import fast_init
from engine.actions import Action, Timeout
from engine.cards import Card
from engine.decisions import Decision
from engine.errors import IllegalAction
from engine.hands import MOST_CARDS, HandValue, Ranking
from engine.rules import Bet, GameRules, Requirement, Split
from engine.scoring import meets, proof_cards, value
from engine.showdown import ShowdownRunner, settle
from engine.stakes import ForcedBets, Structure, TierLimits
from engine.steps import RUNNERS
from engine.wording import VERBS, english

if TYPE_CHECKING:
    from engine.steps.base import Runner

__all__ = ["Hand", "HandOptions", "HandSetup", "Player"]


@dataclass(frozen=True, slots=True)
class HandOptions:
    """Table settings that change how a hand is played.

    * ``second_round_from_opener``: betting rounds that follow a draw start with the opener (or
      the next active player to the opener's left) in games without blinds; when false, with
      the first active player to the dealer's left. Rounds that follow no draw (anaconda's,
      after a pass) start at the dealer's left either way.
    * ``draw_limit``: the discard limit for draws whose rules leave it to the table (``None``:
      three, or four when keeping an ace or wild card).
    * ``diablo_cap``: the largest new pot a Diablo opener must build (``None``: no cap).
    * ``no_five_in_a_row``: a player drawing five cards gets four in turn and the fifth after
      everyone else has drawn.
    * ``muck_losers``: at the showdown a beaten hand may be mucked (see
      :class:`engine.showdown.ShowdownRunner`); when false every hand still in is shown.
    """

    second_round_from_opener: bool = True
    draw_limit: object | None = None
    diablo_cap: int | None = None
    no_five_in_a_row: bool = False
    muck_losers: bool = False


_DEFAULT_OPTIONS = HandOptions()
_NO_CARDS: frozenset[Card] = frozenset()
_NO_RANKS: frozenset[int] = frozenset()

# The betting limits of each structure by round kind, shared by every hand dealt with the same
# structure object (``Structure.limits`` depends on nothing else): id -> (structure, cache).
# Holding the structure keeps its id from being reused while the entry lives.
_LIMITS: dict[int, tuple[Structure, dict[tuple[object, int], TierLimits]]] = {}


def _limits_cache(structure: Structure) -> dict[tuple[object, int], TierLimits]:
    known = _LIMITS.get(id(structure))
    if known is None or known[0] is not structure:
        if len(_LIMITS) >= 256:
            _LIMITS.clear()
        known = _LIMITS[id(structure)] = (structure, {})
    return known[1]


@fast_init
@dataclass(frozen=True, slots=True)
class HandSetup:
    """Everything a hand starts from.

    ``players`` holds ``(seat, player_id, stack)`` clockwise from the dealer's left, so the
    dealer is last. ``deck`` is the full deck order, top card first. ``seed`` seeds the
    reshuffles of discards (each one uses ``random.Random`` seeded from it and its number), so a
    hand replays exactly from the setup and the actions.

    ``carried`` chips from earlier deals join the main pot; ``antes``: whether antes are paid
    this deal (not after a plain re-deal, not in Diablo's new pot: everyone antes all the same
    when its opener is gone or has no chips left to build it); ``requirement``: the
    opening requirement in force (progressive jackpots change it); ``jackpot_cap``: with the
    jackpot limit after a passed-out deal, bets may go up to this amount; ``diablo``:
    ``(player_id, amount)`` when a Diablo opener must build a new pot before the deal;
    ``posts``: ``(player_id, amount)`` for each newcomer who posts a dead blind to come in;
    ``stakes``: ``(player_id, amount)``, the part of ``carried`` each player dealt in put in
    during the deals that carried it. A pot belongs to whoever put chips in it until it is
    won, so the pots are built as if those chips had been put in during this hand: a player
    all-in for the ante of a passed-out deal plays for the part of the pot they reached.
    The rest of ``carried`` (chips of players gone, or a pot nobody could win) is dead money
    in the main pot.
    """

    number: int
    rules: GameRules
    structure: Structure
    forced: ForcedBets
    button: int
    players: tuple[tuple[int, str, int], ...]
    deck: tuple[Card, ...]
    seed: int
    options: HandOptions = _DEFAULT_OPTIONS  # a shared default: fast_init needs no factory
    carried: int = 0
    carry_reason: str = ""
    antes: bool = True
    requirement: Requirement | None = None
    jackpot_cap: int | None = None
    diablo: tuple[str, int] | None = None
    posts: tuple[tuple[str, int], ...] = ()
    stakes: tuple[tuple[str, int], ...] = ()


class Player:
    """A player's state during one hand (mutable; internal to the engine)."""

    __slots__ = (
        "arranged",
        "aside",
        "bet",
        "cards",
        "committed",
        "declared",
        "draws",
        "folded",
        "gone",
        "index",
        "opening_cards",
        "pid",
        "seat",
        "seven_cap",
        "stack",
        "up",
    )

    def __init__(self, index: int, seat: int, pid: str, stack: int) -> None:
        self.index = index
        self.seat = seat
        self.pid = pid
        self.stack = stack
        self.bet = 0
        """Chips put in during the current betting round."""
        self.committed = 0
        """Chips put in during the whole hand (including ``bet``)."""
        self.folded = False
        self.gone = False
        """Left the table during the hand."""
        self.cards: list[Card] = []
        # Cards dealt or turned face up: most hands have none, and share one empty set until
        # they do (see :meth:`turn_up`).
        self.up: AbstractSet[Card] = _NO_CARDS
        # A tuple, not a list: a player draws once or twice a hand, and most hands' players
        # never need a list of their own.
        self.draws: tuple[int, ...] = ()
        self.aside: tuple[Card, ...] = ()
        """Split openers kept aside."""
        self.opening_cards: tuple[Card, ...] = ()
        self.declared: str | None = None
        self.arranged = False
        self.seven_cap: int | None = None
        """Seven rule: the player's claim is capped at this committed level."""

    def turn_up(self, cards: Iterable[Card]) -> None:
        """Turn ``cards`` (held by the player) face up."""
        up = self.up
        if up is _NO_CARDS:
            self.up = set(cards)
        else:
            self.up = {*up, *cards}

    @property
    def all_in(self) -> bool:
        """Still in the hand with no chips behind."""
        return not self.folded and self.stack == 0

    def __repr__(self) -> str:
        return f"<Player seat={self.seat} {self.pid} stack={self.stack} bet={self.bet}>"


class Hand:
    """The state of one hand in progress (see the module docstring)."""

    # Slots: a hand has about fifty attributes, past what an instance dictionary shares with
    # its class, and the engine reads them all the time.
    __slots__ = (
        "_result",
        "_result_parts",
        "anyone_gone",
        "blinds_posted",
        "board",
        "bottom_reserved",
        "burned_this_round",
        "burns",
        "button",
        "by_pid",
        "by_seat",
        "carried",
        "carry_note",
        "carry_out",
        "carry_shares",
        "counters",
        "diablo_owed",
        "discards",
        "events",
        "extra_wild_ranks",
        "forced",
        "jackpot_cap",
        "last_action",
        "last_blind_index",
        "last_round_aggressor",
        "last_round_bet",
        "limits_cache",
        "live",
        "muck",
        "n",
        "number",
        "opener",
        "opening_pending",
        "options",
        "over",
        "passed_out",
        "players",
        "requirement",
        "reshuffles",
        "rules",
        "runner",
        "seed",
        "setup",
        "staked",
        "step_index",
        "steps",
        "structure",
        "stub",
        "switched",
        "trips_failed",
        "wild",
    )

    def __init__(self, setup: HandSetup) -> None:
        self.setup = setup
        self.number = setup.number
        self.rules = setup.rules
        self.steps = setup.rules.steps
        self.structure = setup.structure
        self.forced = setup.forced
        self.options = setup.options
        self.requirement = setup.requirement
        self.jackpot_cap = setup.jackpot_cap
        self.button = setup.button
        self.seed = setup.seed
        # One loop rather than three comprehensions (each a function call in Python 3.11).
        players: list[Player] = []
        by_seat: dict[int, Player] = {}
        by_pid: dict[str, Player] = {}
        for i, (s, pid, stack) in enumerate(setup.players):
            p = Player(i, s, pid, stack)
            players.append(p)
            by_seat[s] = p
            by_pid[pid] = p
        self.players = players
        self.by_seat = by_seat
        self.by_pid = by_pid
        self.n = len(self.players)
        self.live = self.n
        # Cards: the stub holds the deck with the top card last, so dealing is list.pop().
        stub = self.stub = list(setup.deck)
        stub.reverse()
        self.bottom_reserved = True
        self.burns: list[Card] = []
        self.discards: list[Card] = []
        self.muck: list[Card] = []
        # Few games deal a board: none of them has one until they do (see BoardDealing).
        self.board: tuple[Card, ...] = ()
        self.extra_wild_ranks: frozenset[int] = _NO_RANKS
        self.reshuffles = 0
        self.burned_this_round = False
        self.wild = self.rules.wild.resolve(setup.deck)
        # Chips.
        self.carried = setup.carried
        # Each player's share of ``carried`` (by index), or None when nobody has one.
        self.staked: list[int] | None = None
        if setup.stakes:
            shares = dict(setup.stakes)
            self.staked = [shares.get(p.pid, 0) for p in self.players]
        # Progress.
        self.events: list[ev.Event] = []
        self.step_index = -1
        self.runner: Runner | None = None
        self.counters: dict[str, int] = {}
        self.limits_cache = _limits_cache(setup.structure)
        self.opening_pending = True
        self.opener: Player | None = None
        self.blinds_posted = False
        self.last_blind_index: int | None = None
        self.last_round_bet = 0
        self.last_round_aggressor: Player | None = None
        self.last_action: tuple[int | None, str, int | None] | None = None
        self.passed_out = False
        self.switched = False
        self.over = False
        self._result: ev.HandResult | None = None
        self._result_parts: (
            tuple[
                tuple[ev.PotResult, ...],
                tuple[ev.ShownHand, ...],
                int | None,
                tuple[tuple[int, tuple[Card, ...]], ...],
                Sequence[tuple[int, int]],
            ]
            | None
        ) = None
        self.carry_out = 0
        # Each player's chips in the pots carried out when only some pots stay (trips to win).
        self.carry_shares: list[int] | None = None
        self.carry_note: str | None = None
        self.trips_failed = False
        self.diablo_owed: tuple[str, int] | None = None
        self.anyone_gone = False

    # -- setup --------------------------------------------------------------------------------

    def start(self) -> None:
        """Post the forced bets and run the steps up to the first decision."""
        s = self.setup
        # ``s.players`` holds (seat, player id, stack) of each player, in order, before any
        # forced bet: the event's very values.
        self.events.append(ev.HandStarted(self.number, self.rules.name, self.button, s.players))
        forced = self.forced
        builder = None
        if s.diablo is not None and s.diablo[1] > 0:
            builder = self.by_pid.get(s.diablo[0])
            if builder is not None and builder.stack == 0:
                builder = None
        # A Diablo deal goes without antes because its opener builds the pot; an opener gone
        # from the table, or with no chip left, builds nothing, and everyone antes as usual.
        antes = s.antes or (s.diablo is not None and builder is None)
        if antes and forced.ante:
            payers = [self.players[-1]] if forced.dealer_edge else self.players
            for p in payers:
                self._post(p, forced.ante, "ante", live=False)
        if s.diablo is not None:
            amount = s.diablo[1]
            if builder is not None:
                paid = min(amount, builder.stack)
                builder.stack -= paid
                self.carried += paid
                self.events.append(ev.ForcedBet(builder.seat, "diablo", paid, builder.stack == 0))
        if self.carried:
            self.events.append(
                ev.PotCarried(self.carried, s.carry_reason or english("carried over"))
            )
        if forced.blinds:
            self._post_blinds(forced.blinds)
        if s.posts:
            self._post_newcomers(s.posts)
        self._advance()

    def _post_newcomers(self, posts: tuple[tuple[str, int], ...]) -> None:
        """Newcomers joining at once put a dead blind in the pot, unless a blind or the
        dealer's ante already made them pay their way into this hand."""
        paid = {e.seat for e in self.events if isinstance(e, ev.ForcedBet) and e.kind != "ante"}
        if self.forced.dealer_edge and self.setup.antes:
            paid.add(self.players[-1].seat)
        for pid, amount in posts:
            p = self.by_pid.get(pid)
            if p is not None and p.seat not in paid and p.stack > 0 and amount > 0:
                self._post(p, amount, "post", live=False)

    def _post(self, p: Player, amount: int, kind: str, live: bool) -> None:
        paid = amount if amount < p.stack else p.stack
        p.stack -= paid
        p.committed += paid
        if live:
            p.bet += paid
        self.events.append(ev.ForcedBet(p.seat, kind, paid, p.stack == 0))

    def _post_blinds(self, blinds: tuple[int, ...]) -> None:
        n = self.n
        if len(blinds) > n:
            blinds = blinds[-n:]
        from_dealer = self.forced.blinds_from_dealer or (n == 2 and len(blinds) >= 2)
        start = n - 1 if from_dealer else 0
        index = start
        players = self.players
        for k, amount in enumerate(blinds):
            index = (start + k) % n
            p = players[index]
            kind = "straddle" if k >= 2 and not self.forced.blinds_from_dealer else "blind"
            if p.stack > 0:
                self._post(p, amount, kind, live=True)
        self.blinds_posted = True
        self.last_blind_index = index

    # -- cards --------------------------------------------------------------------------------

    def deal_one(self) -> Card:
        """The top card of the stub (for the deal; the stub always suffices there)."""
        return self.stub.pop()

    def supply(self) -> int:
        """Cards that replacements can still come from: the stub, the burn cards and the
        discards of players who already drew."""
        return len(self.stub) + len(self.burns) + len(self.discards)

    def replacements(self, count: int, burn: bool = True) -> list[Card]:
        """Deal ``count`` replacement cards: one burn card before the first replacement of the
        drawing round, never the bottom card of the original stub, and a reshuffle of burn
        cards, the bottom card and earlier discards when the stub runs short."""
        if count <= 0:
            return []
        stub = self.stub
        if burn and not self.burned_this_round:
            self.burned_this_round = True
            if len(stub) > 1:
                card = stub.pop()
                self.burns.append(card)
                self.events.append(ev.Burned(card))
        if len(stub) - (1 if self.bottom_reserved else 0) >= count:
            # The usual case: the stub suffices. Its top is its end, so the cards come in the
            # order that popping them one by one would give.
            got = stub[: -count - 1 : -1]
            del stub[-count:]
            return got
        got = []
        while len(got) < count:
            usable = len(stub) - (1 if self.bottom_reserved else 0)
            if usable > 0:
                take = min(usable, count - len(got))
                for _ in range(take):
                    got.append(stub.pop())
            else:
                self._reshuffle()
                stub = self.stub
        return got

    def _reshuffle(self) -> None:
        pool = self.burns + self.stub + self.discards
        if not pool:
            raise AssertionError("no cards left to reshuffle")  # guarded by legal counts
        self.burns = []
        self.discards = []
        self.reshuffles += 1
        rng = random.Random((self.seed << 8) + self.reshuffles)
        rng.shuffle(pool)
        self.stub = pool
        self.bottom_reserved = False
        self.events.append(ev.Reshuffled(len(pool)))

    def fold(self, p: Player) -> None:
        """Fold ``p``'s hand: its cards go to the muck."""
        p.folded = True
        self.live -= 1
        self.muck.extend(p.cards)
        self.muck.extend(p.aside)
        p.cards = []
        p.aside = ()
        p.up = _NO_CARDS

    def card_locations(self) -> dict[str, list[Card]]:
        """Where every card of the deck is (for invariant checks): ``"stub"``, ``"burns"``,
        ``"discards"``, ``"muck"``, ``"board"``, ``"runner"`` (cards held by the current step,
        such as passes in flight) and one entry per seat like ``"seat 3"`` (held cards and
        split openers)."""
        where: dict[str, list[Card]] = {
            "stub": list(self.stub),
            "burns": list(self.burns),
            "discards": list(self.discards),
            "muck": list(self.muck),
            "board": list(self.board),
        }
        for p in self.players:
            where[f"seat {p.seat}"] = [*p.cards, *p.aside]
        if self.runner is not None:
            where["runner"] = self.runner.held_cards()
        return where

    def chips(self) -> int:
        """Chips in this hand: stacks, bets and pots together (constant during a hand)."""
        return sum(p.stack + p.committed for p in self.players) + self.carried

    def pot_inputs(self, committed: list[int]) -> tuple[list[int], int]:
        """What builds the pots from each player's ``committed`` chips of this hand: the same
        list with each player's share of the carried pot added, and the dead money (the
        rest of the carried pot, which joins the main pot)."""
        staked = self.staked
        if staked is None:
            return committed, self.carried
        return [c + s for c, s in zip(committed, staked, strict=True)], self.carried - sum(staked)

    # -- hand values --------------------------------------------------------------------------

    def playing_cards(self, p: Player) -> tuple[Card, ...]:
        """The cards ``p`` plays at the showdown (held cards plus a shared board card)."""
        if self.board and self.rules.board_plays:
            return (*p.cards, *self.board)
        return tuple(p.cards)

    def wild_cards(self) -> frozenset[Card]:
        """The wild cards right now (the rules' plus any rank made wild by a board card)."""
        if not self.extra_wild_ranks:
            return self.wild
        return self.wild | frozenset(
            c for c in self.setup.deck if not c.is_joker and c.rank in self.extra_wild_ranks
        )

    def complete(self, cards: Sequence[Card]) -> bool:
        """Whether ``cards`` (a player's playing cards) make a whole hand of this game: five
        to nine cards, or exactly the game's size when it deals short hands (three-card
        games)."""
        count = len(cards)
        if 5 <= count <= MOST_CARDS:
            return True
        return count == self.rules.min_hand_size and count >= 3 and not self.rules.board_plays

    def high_value(self, p: Player) -> HandValue | None:
        """``p``'s high value, when high hands count and the hand is complete."""
        cards = self.playing_cards(p)
        if not self.rules.uses_high or not self.complete(cards):
            return None
        return value(cards, self.rules.high, self.wild_cards())

    def low_value(self, p: Player) -> HandValue | None:
        """``p``'s low value, when low hands count and the hand is complete."""
        cards = self.playing_cards(p)
        if not self.rules.uses_low or not self.complete(cards):
            return None
        return value(cards, self.rules.low, self.wild_cards())

    def high_ranking(self) -> Ranking:
        """The high ranking used for requirements (openers, trips)."""
        high = self.rules.high
        return high if not high.is_low else Ranking.HIGH

    def has_openers(self, p: Player) -> bool:
        """Whether ``p`` may open under the opening requirement in force."""
        req = self.requirement
        if req is None:
            return True
        # A hand not yet whole (four-before's four cards) must hold the openers already.
        return meets(self.playing_cards(p), req, self.high_ranking(), self.wild_cards())

    def record_opener(self, p: Player) -> None:
        """Remember ``p`` as the opener and, under a requirement, the cards that prove it."""
        self.opener = p
        if self.requirement is not None and p.cards:
            p.opening_cards = proof_cards(
                p.cards, self.requirement, self.high_ranking(), self.wild_cards()
            )

    # -- turn-taking ----------------------------------------------------------------------------

    def pending(self) -> tuple[Decision, ...]:
        """The decisions the hand is waiting for (empty once it is over)."""
        if self.over or self.runner is None:
            return ()
        return self.runner.decisions()

    def waiting(self) -> list[Player]:
        """The players with a pending decision (cheaper than :meth:`pending`)."""
        if self.over or self.runner is None:
            return []
        return self.runner.waiting()

    def act(self, p: Player, action: Action) -> None:
        """Apply ``action`` for ``p`` or raise :class:`IllegalAction` without changing
        anything."""
        if self.over:
            raise IllegalAction("the hand is over")
        self.act_in_play(p, action)

    def act_in_play(self, p: Player, action: Action) -> None:
        """:meth:`act` for a hand known not to be over (the table's hot path checks that
        itself)."""
        runner = self.runner
        assert runner is not None
        if not runner.is_waiting_for(p):
            raise IllegalAction("it is not {player}'s turn to act", player=p.pid)
        if action.__class__ is Timeout:
            real = runner.timeout_action(p)
            self.events.append(ev.TimedOut(p.seat))
            runner.act(p, real)
        else:
            runner.act(p, action)
        if runner.done or self.anyone_gone:
            self._advance()

    def leave(self, p: Player) -> None:
        """``p`` left the table: fold the hand unless all-in (an all-in player stays in and
        every later decision of theirs is taken by the timeout default)."""
        if p.gone:
            return
        p.gone = True
        self.anyone_gone = True
        self.events.append(ev.PlayerLeft(p.seat, p.pid))
        if self.over:
            return
        if not p.folded and not p.all_in:
            runner = self.runner
            self.fold(p)
            self.events.append(ev.Folded(p.seat))
            self.last_action = (p.seat, VERBS["folded"], None)
            if runner is not None:
                runner.player_folded(p)
        self._advance()

    def _advance(self) -> None:
        """Run steps that need nobody, until a decision is pending or the hand is over."""
        while not self.over:
            runner = self.runner
            if runner is not None and not runner.done:
                if not self.anyone_gone:
                    return
                gone = [p for p in runner.waiting() if p.gone]
                if not gone:
                    return
                for p in gone:
                    if runner.is_waiting_for(p):
                        self.events.append(ev.TimedOut(p.seat))
                        runner.act(p, runner.timeout_action(p))
                continue
            if self.passed_out:
                self._end_passed_out()
                return
            if self.live <= 1:
                self._finish()
                return
            index = self.step_index = self.step_index + 1
            steps = self.steps
            if index >= len(steps):
                self._finish()
                return
            step = steps[index]
            runner = self.runner = RUNNERS[step.__class__](self, step)  # make_runner(self, step)
            runner.begin()

    def next_number(self, kind: str) -> int:
        """Count rounds of one kind (``"bet"``, ``"draw"``...), starting at 1."""
        number = self.counters.get(kind, 0) + 1
        self.counters[kind] = number
        return number

    def index_after(self, index: int) -> int:
        """The index of the player to the left of ``index``."""
        return (index + 1) % self.n

    def first_live_from(self, index: int, need_chips: bool = False) -> Player | None:
        """The first player at or after ``index`` (going left) still in the hand (and with
        chips behind when ``need_chips``)."""
        players = self.players
        n = self.n
        for k in range(n):
            p = players[(index + k) % n]
            if not p.folded and (not need_chips or p.stack > 0):
                return p
        return None

    def live_players_from(self, index: int) -> list[Player]:
        """Players still in the hand, clockwise starting at ``index``."""
        players = self.players
        if players:
            index %= len(players)
        # The rotation by slices (done in C), then one test per player.
        return [p for p in players[index:] + players[:index] if not p.folded]

    # -- special endings ------------------------------------------------------------------------

    def pass_out(self) -> None:
        """Nobody opened the opening round: switch games when the rules say so, else end the
        deal with the pot carried over."""
        switch = self.rules.switch_on_pass_out
        if switch is not None and not self.switched:
            self.switched = True
            self.rules = switch
            self.steps = switch.steps
            self.requirement = switch.open_requirement
            self.opening_pending = True
            self.opener = None
            first_bet = next(i for i, step in enumerate(switch.steps) if isinstance(step, Bet))
            self.step_index = first_bet - 1
            self.wild = switch.wild.resolve(self.setup.deck)
            self.events.append(ev.GameSwitched(switch.name))
            return
        self.passed_out = True

    def _end_passed_out(self) -> None:
        for p in self.players:
            p.bet = 0
        pot = self.carried + sum(p.committed for p in self.players)
        for p in self.players:
            if not p.folded:
                self.fold(p)
        self.events.append(ev.PassedOut(pot))
        self.carry_out = pot
        self._close(pots=(), shown=(), uncontested=None, openers=(), returned=())

    # -- the end --------------------------------------------------------------------------------

    def _return_uncalled(self) -> list[tuple[int, int]]:
        """Give back the part of the largest commitment nobody matched."""
        returned: list[tuple[int, int]] = []
        # The largest commitment (the first player making it) and the largest of the others.
        players = self.players
        top = players[0]
        top_committed = top.committed
        second = 0
        for q in players:
            committed = q.committed
            if committed > top_committed:
                second = top_committed
                top = q
                top_committed = committed
            elif committed > second and q is not top:
                second = committed
        excess = top_committed - second
        if excess > 0:
            top.committed -= excess
            top.stack += excess
            top.bet = max(0, top.bet - excess)
            returned.append((top.seat, excess))
            self.events.append(ev.BetReturned(top.seat, excess))
        return returned

    def _finish(self) -> None:
        runner = self.runner
        if isinstance(runner, ShowdownRunner):
            # The show-or-muck choices are over (or everyone else left): pay the pots.
            runner.finish()
            return
        returned = self._return_uncalled()
        for p in self.players:
            p.bet = 0
        if self.options.muck_losers and self.live > 1:
            showdown = ShowdownRunner(self, returned)
            self.runner = showdown
            showdown.begin()
            if showdown.done:
                showdown.finish()
            return
        settle(self, returned)

    def _close(
        self,
        pots: tuple[ev.PotResult, ...],
        shown: tuple[ev.ShownHand, ...],
        uncontested: int | None,
        openers: tuple[tuple[int, tuple[Card, ...]], ...],
        returned: Sequence[tuple[int, int]],
    ) -> None:
        """Record the end of the hand (stacks already paid); the :class:`HandResult` is built
        when first asked for."""
        self.over = True
        self.runner = None
        self.events.append(
            ev.HandEnded(tuple([(p.seat, p.stack) for p in self.players]), self.carry_out)
        )
        self._result_parts = (pots, shown, uncontested, openers, returned)

    @property
    def result(self) -> ev.HandResult | None:
        """The summary of the hand once it is over."""
        if self._result is None and self._result_parts is not None:
            pots, shown, uncontested, openers, returned = self._result_parts
            # Positional, in the order of HandResult's fields (hand_number, game, pots, shown,
            # uncontested, openers, passed_out, carried, returned, final_stacks, note,
            # low_qualifier).
            rules = self.rules
            high_low = rules.split is Split.HIGH_LOW
            self._result = ev.HandResult(
                self.number,
                self.rules.name,
                pots,
                shown,
                uncontested,
                openers,
                self.passed_out,
                self.carry_out,
                tuple(returned),
                {p.pid: p.stack for p in self.players},
                self.carry_note,
                rules.low_qualifier if high_low else None,
            )
        return self._result
