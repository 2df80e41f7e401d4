"""The end of a hand: who shows, who wins which pot, and what carries over.

:func:`settle` is called once no more steps remain or only one player is left. It builds the
main and side pots, shows hands in the proper order (the last player to bet or raise in the
final betting round, else the opener, else the first player left of the dealer, then
clockwise), and pays each pot to the best eligible hand(s) under the game's split: high, low,
high-low with a qualifier, or high-low by declaration. Ties split the pot with the odd chip to
the first winner left of the dealer (to the high half in high-low). It also applies trips to
win, Diablo's matching pot and showing the openers.

Through a table, a hand checked down after the draw ends here:

>>> import random
>>> from engine import Bet, Call, Check, Discard, Table, TableConfig, parse_cards
>>> table = Table(TableConfig("five-card-draw"))
>>> _ = table.sit("ann", 100), table.sit("bob", 100)
>>> _ = table.start_hand(random.Random(1), deck=parse_cards("As Kd Ah Kc Ad Ks Qh Qd 2c 3c"))
>>> for who, action in [("ann", Bet(2)), ("bob", Call()), ("ann", Discard(())),
...                     ("bob", Discard(())), ("ann", Check()), ("bob", Check())]:
...     _ = table.act(who, action)
>>> [(share.player_id, share.amount, share.hand) for share in table.result.pots[0].shares]
[('ann', 6, 'Three of a kind, aces')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine import events as ev
from engine.actions import Action, Muck, Show
from engine.cards import Card
from engine.decisions import Decision, DecisionKind, ShowOptions
from engine.errors import IllegalAction
from engine.hands import Category, HandValue, evaluate
from engine.pots import build_pots, contributions, split_amount
from engine.rules import Split
from engine.scoring import meets, proof_cards, qualifies_low
from engine.steps.base import Runner
from engine.wording import VERBS, Phrase

if TYPE_CHECKING:
    from engine.game import Hand, Player

__all__ = ["ShowdownRunner", "settle", "showdown_order"]

_HIGH, _LOW, _HIGH_LOW = Split.HIGH, Split.LOW, Split.HIGH_LOW


def _best(players: Sequence[Player], values: dict[int, HandValue | None]) -> list[Player]:
    """The players holding the best value (ties included), in seat order from the dealer's
    left."""
    # The values all come from one ranking, so their scores order them (HandValue's own
    # comparisons check the rankings first, through two Python calls each).
    best = 0
    winners: list[Player] = []
    for p in players:
        v = values.get(p.index)
        if v is None:
            continue
        score = v._score
        if not winners or score > best:
            best = score
            winners = [p]
        elif score == best:
            winners.append(p)
    if len(winners) > 1:
        winners.sort(key=lambda q: q.index)
    return winners


def _pay(
    shares: list[ev.PotShare],
    amount: int,
    winners: list[Player],
    half: str,
    values: dict[int, HandValue | None],
) -> None:
    if len(winners) == 1:
        p = winners[0]
        p.stack += amount
        shares.append(ev.PotShare(p.seat, p.pid, amount, half, values.get(p.index)))
        return
    for p, chips in zip(winners, split_amount(amount, len(winners)), strict=True):
        p.stack += chips
        shares.append(ev.PotShare(p.seat, p.pid, chips, half, values.get(p.index)))


Award = tuple[int, list["Player"], str, dict[int, HandValue | None]]


def _both_ways(
    amount: int,
    high_winners: list[Player],
    low_winners: list[Player],
    highs: dict[int, HandValue | None],
    lows: dict[int, HandValue | None],
) -> list[Award]:
    """Split ``amount`` between the high and the low winners (the odd chip goes high), or
    give it all to one side when the other has no winner."""
    if high_winners and low_winners:
        low_part = amount // 2
        return [
            (amount - low_part, high_winners, "high", highs),
            (low_part, low_winners, "low", lows),
        ]
    if high_winners:
        return [(amount, high_winners, "all", highs)]
    if low_winners:
        return [(amount, low_winners, "all", lows)]
    return []


def _declare_winners(
    eligible: list[Player],
    highs: dict[int, HandValue | None],
    lows: dict[int, HandValue | None],
    out: set[int],
) -> tuple[list[Player], list[Player], Player | None]:
    """High winners, low winners and a scooper for a declare game.

    A player declaring both must be the only best high and the only best low among the
    players declaring that way (or both); otherwise they win nothing and are left out, and the
    others are compared again. ``out`` holds the players already left out (it gains those
    who fail here)."""
    while True:
        high_side = [p for p in eligible if p.declared in ("high", "both") and p.index not in out]
        low_side = [p for p in eligible if p.declared in ("low", "both") and p.index not in out]
        best_high = _best(high_side, highs)
        best_low = _best(low_side, lows)
        failed = [
            p
            for p in eligible
            if p.declared == "both"
            and p.index not in out
            and not (best_high == [p] and best_low == [p])
        ]
        if not failed:
            break
        out.update(p.index for p in failed)
    scooper = next((p for p in eligible if p.declared == "both" and p.index not in out), None)
    if scooper is not None:
        return [], [], scooper
    return best_high, best_low, None


def showdown_order(h: Hand) -> list[Player]:
    """The players still in, in the order they show: the last bettor or raiser of the final
    round, else the opener (the first player still in on the opener's left when the opener
    has folded), else from the dealer's left, then clockwise."""
    aggressor = h.last_round_aggressor
    opener = h.opener
    if aggressor is not None and not aggressor.folded:
        start = aggressor.index
    elif opener is not None:
        start = opener.index
    else:
        start = 0
    return h.live_players_from(start)


def _values(
    h: Hand, p: Player, wild: frozenset[Card]
) -> tuple[tuple[Card, ...], HandValue | None, HandValue | None]:
    """The cards ``p`` plays at the showdown with their high and low values."""
    rules = h.rules
    board = h.board if h.board and rules.board_plays else None
    cards = tuple(p.cards) if board is None else (*p.cards, *board)  # h.playing_cards(p)
    complete = 5 <= len(cards) <= 9 or h.complete(cards)
    high_rank = rules.high if rules.uses_high and complete else None
    low_rank = rules.low if rules.uses_low and complete else None
    hv = evaluate(cards, high_rank, wild=wild) if high_rank else None
    lv = evaluate(cards, low_rank, wild=wild) if low_rank else None
    return cards, hv, lv


def settle(
    h: Hand,
    returned: Sequence[tuple[int, int]],
    mucked: frozenset[int] = frozenset(),
    announced: frozenset[int] = frozenset(),
) -> None:
    """Pay the pots of ``h`` and close it (see the module docstring).

    ``mucked`` holds the indices of players who threw their hands away at a showdown played
    with :class:`ShowdownRunner` (they win nothing), ``announced`` those whose ``Shown``
    event that runner already wrote."""
    players = h.players
    rules = h.rules
    # One loop rather than four comprehensions (each a function call in Python 3.11).
    live: list[Player] = []
    alive: list[bool] = []
    committed: list[int] = []
    capped = False
    for p in players:
        if p.folded:
            alive.append(False)
        else:
            live.append(p)
            alive.append(True)
        committed.append(p.committed)
        if p.seven_cap is not None:
            capped = True
    staked, dead = h.pot_inputs(committed)
    caps: list[int | None] | None = None
    if capped:
        caps = [p.seven_cap for p in players]
        # A seven-rule cap is a level of this hand's chips: a share of the carried pot lifts it.
        if h.staked is not None:
            caps = [None if c is None else c + s for c, s in zip(caps, h.staked, strict=True)]
    pots = build_pots(staked, alive, dead, caps)
    total = 0
    for amount, _ in pots:
        total += amount
    wild = h.wild_cards()
    high_ranking = h.high_ranking() if h.requirement or rules.win_requirement else rules.high
    openers: list[tuple[int, tuple[Card, ...]]] = []
    opener = h.opener
    # An opener still in shows the openers when the pot is paid; one who folded owes that
    # proof only after splitting them (the cards kept aside are shown either way).
    if (
        opener is not None
        and h.requirement is not None
        and opener.opening_cards
        and (not opener.folded or _split_openers(h, opener.seat))
    ):
        proof = opener.opening_cards
        openers.append((opener.seat, proof))
    results: list[ev.PotResult] = []
    shown: list[ev.ShownHand] = []

    if len(live) == 1:
        winner = live[0]
        if rules.win_requirement is not None and not _shows_requirement(h, winner):
            _carry_all(
                h,
                total,
                live,
                Phrase(
                    "the winner could not show {requirement}",
                    requirement=rules.win_requirement.label,
                ),
            )
            _emit_openers(h, openers)
            h._close((), (), None, tuple(openers), returned)
            return
        if rules.win_requirement is not None:
            proof = proof_cards(h.playing_cards(winner), rules.win_requirement, high_ranking, wild)
            h.events.append(ev.OpenersShown(winner.seat, proof))
        _emit_openers(h, openers)
        for k, (amount, claim) in enumerate(pots):
            winner.stack += amount
            share = ev.PotShare(winner.seat, winner.pid, amount, "all", None)
            results.append(ev.PotResult(k, amount, tuple(players[i].seat for i in claim), (share,)))
            h.events.append(ev.PotAwarded(k, amount, ((winner.seat, amount, "all"),)))
        if rules.opener_must_win:
            _diablo(h, winner_ids={winner.index}, total=total)
        h.last_action = (winner.seat, VERBS["won"], total)
        h._close(tuple(results), (), winner.seat, tuple(openers), returned)
        return

    # The showdown.
    order = showdown_order(h)
    highs: dict[int, HandValue | None] = {}
    lows: dict[int, HandValue | None] = {}
    events = h.events
    # _values(h, p, wild) for each player, with what it asks of the rules read once.
    board = h.board if h.board and rules.board_plays else None
    split = rules.split
    high_rank = rules.high if split is not _LOW else None
    low_rank = rules.low if split is not _HIGH else None
    for p in order:
        index = p.index
        if index in mucked:
            # A mucked hand is out of every pot: no value can win.
            highs[index] = lows[index] = None
            continue
        cards = tuple(p.cards) if board is None else (*p.cards, *board)
        if 5 <= len(cards) <= 9 or h.complete(cards):
            hv = None if high_rank is None else evaluate(cards, high_rank, wild=wild)
            lv = None if low_rank is None else evaluate(cards, low_rank, wild=wild)
        else:
            hv = lv = None
        highs[index] = hv
        lows[index] = lv
        seat = p.seat
        if index not in announced:
            events.append(ev.Shown(seat, cards, hv, lv))
        shown.append(ev.ShownHand(seat, p.pid, cards, hv, lv, p.declared))
    if openers:
        _emit_openers(h, openers)

    if rules.win_requirement is not None:
        req = rules.win_requirement
        for p in order:
            if not meets(h.playing_cards(p), req, high_ranking, wild):
                highs[p.index] = None
        if all(highs[p.index] is None for p in order):
            _carry_all(h, total, live, Phrase("nobody showed {requirement}", requirement=req.label))
            h._close((), tuple(shown), None, tuple(openers), returned)
            return

    low_qualified: dict[int, HandValue | None] = {}
    high_qualified = highs
    if rules.split is _HIGH_LOW:
        for p in order:
            lv = lows[p.index]
            low_qualified[p.index] = (
                lv if lv is not None and qualifies_low(lv, rules.low_qualifier) else None
            )
        if rules.high_needs_pair:
            high_qualified = {i: _paired(v) for i, v in highs.items()}

    # Declare: a player who fails a scoop in any pot wins nothing, side pots included.
    declare_out: set[int] = set()
    if rules.split is Split.DECLARE:
        while True:
            known = len(declare_out)
            for _, eligible_idx in pots:
                _declare_winners([players[i] for i in eligible_idx], highs, lows, declare_out)
            if len(declare_out) == known:
                break

    won: set[int] = set()  # (needed by Diablo only)
    must_win = rules.opener_must_win
    carried_back = 0
    for k, (amount, eligible_idx) in enumerate(pots):
        # A pot open to everyone still in (the usual one) is ``live`` itself.
        eligible = live if len(eligible_idx) == len(live) else [players[i] for i in eligible_idx]
        shares: list[ev.PotShare] = []
        split = rules.split
        if split is _HIGH:
            awards = _both_ways(amount, _best(eligible, highs), [], highs, lows)
        elif split is _LOW:
            awards = _both_ways(amount, [], _best(eligible, lows), highs, lows)
        elif split is _HIGH_LOW:
            awards = _both_ways(
                amount,
                _best(eligible, high_qualified),
                _best(eligible, low_qualified),
                highs,
                lows,
            )
        else:
            high_winners, low_winners, scooper = _declare_winners(
                eligible, highs, lows, set(declare_out)
            )
            if scooper is not None:
                awards = [(amount, [scooper], "all", highs)]
            elif high_winners or low_winners:
                awards = _both_ways(amount, high_winners, low_winners, highs, lows)
            else:
                # Every declarer failed a scoop: the cards speak instead.
                awards = _both_ways(
                    amount, _best(eligible, highs), _best(eligible, lows), highs, lows
                )
        if not awards:
            # Nobody eligible may win this pot (trips to win): it stays for the next deal,
            # still belonging to whoever put it in.
            carried_back += amount
            h.carry_out += amount
            if h.carry_shares is None:
                h.carry_shares = [0] * len(players)
            for i, chips in enumerate(contributions(staked, alive, caps)[k]):
                h.carry_shares[i] += chips
            continue
        for part, winners, half, values in awards:
            _pay(shares, part, winners, half, values)
        if must_win:
            for share in shares:
                won.add(h.by_seat[share.seat].index)
        results.append(
            ev.PotResult(k, amount, tuple([players[i].seat for i in eligible_idx]), tuple(shares))
        )
        h.events.append(
            ev.PotAwarded(k, amount, tuple([(s.seat, s.amount, s.half) for s in shares]))
        )
    if carried_back:
        h.carry_note = Phrase("part of the pot stays: no eligible hand met the requirement to win")
        h.trips_failed = True
    if must_win:
        _diablo(h, winner_ids=won, total=total - carried_back)
    h._close(tuple(results), tuple(shown), None, tuple(openers), returned)


def _paired(value: HandValue | None) -> HandValue | None:
    """``value`` when it holds a pair or better (it may win high under "any pair, no pair")."""
    return value if value is not None and value.category >= Category.PAIR else None


def _shows_requirement(h: Hand, p: Player) -> bool:
    req = h.rules.win_requirement
    cards = h.playing_cards(p)
    if req is None:
        return True
    if not h.complete(cards):
        return False
    return meets(cards, req, h.high_ranking(), h.wild_cards())


def _split_openers(h: Hand, seat: int) -> bool:
    """Whether the player at ``seat`` split openers in this hand (a fold mucks the cards kept
    aside, so the hand's log is what remembers it)."""
    return any(isinstance(e, ev.OpenersSplit) and e.seat == seat for e in h.events)


def _emit_openers(h: Hand, openers: list[tuple[int, tuple[Card, ...]]]) -> None:
    for seat, cards in openers:
        h.events.append(ev.OpenersShown(seat, cards))


def _carry_all(h: Hand, total: int, live: list[Player], note: str) -> None:
    """Nobody may win: the whole pot stays for a new deal among the players still in."""
    h.carry_out += total
    h.trips_failed = True
    h.carry_note = Phrase("The pot stays: {reason}.", reason=note)
    h.events.append(ev.PotCarried(total, note))


def _diablo(h: Hand, winner_ids: set[int], total: int) -> None:
    """Diablo: an opener who won nothing must build a new pot as large as this one."""
    opener = h.opener
    if not h.rules.opener_must_win or opener is None or opener.index in winner_ids:
        return
    cap = h.options.diablo_cap
    amount = total if cap is None else min(total, cap)
    if amount > 0:
        h.diablo_owed = (opener.pid, amount)
        h.carry_note = Phrase(
            "{player} opened and did not win: they build a new pot of {amount}.",
            player=opener.pid,
            amount=amount,
        )


class ShowdownRunner(Runner):
    """A showdown where a beaten hand may be mucked (``TableOptions.muck_losers``).

    Hands are shown one at a time in showdown order. A hand that can no longer win any part of
    any pot it has a claim on, against hands already face up, is put to its holder as a
    :class:`~engine.decisions.DecisionKind.SHOW` decision: show it anyway or muck it. Everyone
    else shows at once. When every hand is either shown or mucked, :func:`settle` pays the
    pots among the shown hands only.
    """

    kind = "showdown"

    def __init__(self, hand: Hand, returned: Sequence[tuple[int, int]]) -> None:
        super().__init__(hand)
        self.returned = tuple(returned)
        self.order = showdown_order(hand)
        self.position = 0
        self.shown: list[Player] = []
        self.mucked: set[int] = set()
        self.current: Player | None = None
        self.beaten_by: tuple[int, ...] = ()
        wild = hand.wild_cards()
        self.wild = wild
        self.values = {p.index: _values(hand, p, wild) for p in self.order}
        req = hand.rules.win_requirement
        if req is not None:
            # A hand short of the requirement to win cannot beat anyone.
            ranking = hand.high_ranking()
            for p in self.order:
                cards, _, lv = self.values[p.index]
                if not meets(hand.playing_cards(p), req, ranking, wild):
                    self.values[p.index] = (cards, None, lv)
        players = hand.players
        staked, dead = hand.pot_inputs([q.committed for q in players])
        pots = build_pots(staked, [not q.folded for q in players], dead)
        self.claims = [set(eligible) for _, eligible in pots]

    def begin(self) -> None:
        self._run()

    def street(self) -> str:
        return Phrase("Showdown")

    def _required(self, p: Player) -> bool:
        h = self.hand
        # Jacks or better: the opener's hand is always laid down (the openers must be proved,
        # split openers included); only the other players may throw a loser away.
        return h.requirement is not None and h.opener is p

    def _beaten_by(self, p: Player) -> tuple[int, ...]:
        """The seats of shown hands that leave ``p`` nothing to win, or () when some pot is
        still open to ``p``."""
        if not self.shown:
            return ()
        split = self.hand.rules.split
        if split is Split.DECLARE:
            # Declarations decide who competes for which half: keep it simple and show all.
            return ()
        _, my_high, my_low = self.values[p.index]
        rules = self.hand.rules
        qualifier = rules.low_qualifier
        if my_low is not None and split is _HIGH_LOW and not qualifies_low(my_low, qualifier):
            my_low = None
        if split is _HIGH_LOW and rules.high_needs_pair:
            my_high = _paired(my_high)
        beaters: set[int] = set()
        for claim in self.claims:
            if p.index not in claim:
                continue
            rivals = [q for q in self.shown if q.index in claim]
            high_by = [q.seat for q in rivals if self._better(q, my_high, high=True)]
            low_by = [q.seat for q in rivals if self._better(q, my_low, high=False)]
            if split is _HIGH:
                if not high_by:
                    return ()
                beaters.update(high_by)
            elif split is _LOW:
                if not low_by:
                    return ()
                beaters.update(low_by)
            else:
                # High-low: beaten only when neither half is left (a hand with no qualifying
                # low has only the high half to play for, and one short of a pair when high
                # needs one only the low half).
                if (my_high is not None and not high_by) or (my_low is not None and not low_by):
                    return ()
                beaters.update(high_by)
                beaters.update(low_by)
        return tuple(sorted(beaters))

    def _better(self, q: Player, mine: HandValue | None, *, high: bool) -> bool:
        _, q_high, q_low = self.values[q.index]
        theirs = q_high if high else q_low
        if theirs is None:
            return False
        rules = self.hand.rules
        if not high and rules.split is _HIGH_LOW and not qualifies_low(theirs, rules.low_qualifier):
            return False
        if high and rules.split is _HIGH_LOW and rules.high_needs_pair and _paired(theirs) is None:
            return False
        return mine is None or theirs._score > mine._score

    def _show(self, p: Player) -> None:
        cards, hv, lv = _values(self.hand, p, self.wild)
        self.hand.events.append(ev.Shown(p.seat, cards, hv, lv))
        self.shown.append(p)

    def _run(self) -> None:
        """Show every hand that must or may not be mucked, up to the next choice."""
        self.current = None
        while self.position < len(self.order):
            p = self.order[self.position]
            beaten = () if self._required(p) or p.folded else self._beaten_by(p)
            if p.folded:
                self.position += 1
                continue
            if beaten:
                self.current = p
                self.beaten_by = beaten
                return
            self._show(p)
            self.position += 1
        self.done = True

    def waiting(self) -> list[Player]:
        return [] if self.current is None else [self.current]

    def is_waiting_for(self, p: Player) -> bool:
        return p is self.current

    def decisions(self) -> tuple[Decision, ...]:
        p = self.current
        if p is None:
            return ()
        legal = ShowOptions(tuple(p.cards), self.beaten_by)
        return (Decision(p.seat, p.pid, DecisionKind.SHOW, legal),)

    def act(self, p: Player, action: Action) -> None:
        if isinstance(action, Show):
            self._show(p)
            self.hand.last_action = (p.seat, VERBS["shown"], None)
        elif isinstance(action, Muck):
            self.mucked.add(p.index)
            self.hand.events.append(ev.Mucked(p.seat, tuple(p.cards)))
            self.hand.last_action = (p.seat, VERBS["mucked"], None)
        else:
            raise IllegalAction("show or muck your hand")
        self.position += 1
        self._run()

    def timeout_action(self, p: Player) -> Action:
        # A beaten hand wins nothing either way; mucking it for an absent player keeps their
        # cards private, which is what a player who wanted them seen would have had to ask for.
        return Muck()

    def player_folded(self, p: Player) -> None:
        if p is self.current:
            self.mucked.add(p.index)
            self.position += 1
            self._run()

    def finish(self) -> None:
        """Pay the pots among the shown hands."""
        settle(
            self.hand,
            self.returned,
            frozenset(self.mucked),
            frozenset(p.index for p in self.shown),
        )
