"""Hands per second: our engine against pokerkit, in the same run.

The scripted hand: four players, blinds 1/2, stacks of 200. Everyone calls (the big blind
checks), each player discards one card, everybody checks after the draw, and the showdown
settles the pot. Our engine builds its hand result on demand, so the bench asks for it, as the
bot does after every hand. Our engine plays five-card draw (no limit); pokerkit plays its
``NoLimitDeuceToSevenLowballSingleDraw`` with the same script. Each hand starts from a fresh
table (ours) or state (pokerkit) and a fresh shuffle. Both are warmed up, then timed in
alternating short batches; the best batch of each is reported.

A fourth line plays the same hand as a bare loop over the engine's shuffle and evaluator,
with nothing an engine needs around them: the interpreter's own cost for the hand, which
puts the engine's figure (and any goal set for it) in proportion. A fifth plays it on a lean
engine written for this one game (:class:`_LeanHand`): whose turn, what is legal, events, the
draw's decision and the pots, without any of the engine's features. The distance from it to
the engine is what those features and the engine's generality cost.

Run: ``.venv/bin/python bench/engine.py [seconds per engine]``; with ``--phases`` it times the
engine and the lean engine phase by phase instead (the deal, the calls, the draws, the checks
down to the result). With ``--budget`` it prices what the lean engine leaves out but the bot
reads after every hand (a table with its seats, the state and the journal kept for a crash,
the events and draw decisions as the engine's own objects, the hand's result), each timed alone,
and sets their sum beside the goal of 20x pokerkit: what is left of the goal for every rule
the lean engine does not have.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

if __name__ == "engine":
    # A script run from bench/ has this directory first on sys.path, so ``import engine``
    # finds this file rather than the engine package. Step aside for the real package.
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]
    del sys.modules["engine"]
    sys.modules["engine"] = importlib.import_module("engine")

from engine import (
    Bet,
    Call,
    Card,
    Check,
    Decision,
    Discard,
    DrawOptions,
    Fold,
    ForcedBets,
    IllegalAction,
    NoLimit,
    Raise,
    Ranking,
    Table,
    TableConfig,
    evaluate,
)
from engine import events as ev
from engine.actions import Action
from engine.cards import permuted
from engine.pots import build_pots

CONFIG = TableConfig(
    "five-card-draw", structure=NoLimit(2), forced_bets=ForcedBets.with_blinds(1, 2), max_seats=4
)
_PACK = CONFIG.rules().deck.cards()


def _unmarked() -> None:
    pass


def _seated() -> Table:
    """A new table with the script's four players seated."""
    table = Table(CONFIG)
    for name in ("a", "b", "c", "d"):
        table.sit(name, 200)
    return table


def _script(
    table: Table,
    rng: random.Random,
    mark: Callable[[], None] = _unmarked,
    offered: list[Decision] | None = None,
) -> None:
    """The scripted hand at ``table``; ``mark`` is called between its phases (the deal, the
    calls, the draws, the checks down to the result) when they are timed apart, and the draw
    decisions go to ``offered`` when it is given."""
    table.start_hand(rng)
    mark()
    for _ in range(4):
        table.act(table.to_act[0], Call())
    mark()
    for _ in range(4):
        decision = table.pending[0]
        legal = decision.legal
        assert isinstance(legal, DrawOptions)
        if offered is not None:
            offered.append(decision)
        table.act(decision.seat, Discard(legal.cards[:1]))
    mark()
    for _ in range(4):
        table.act(table.to_act[0], Check())
    assert not table.in_hand
    assert table.result is not None  # the bot reads the result after every hand


def our_hand(rng: random.Random, mark: Callable[[], None] = _unmarked) -> None:
    """The scripted hand on a new table (see :func:`_script` for ``mark``)."""
    _script(_seated(), rng, mark)


def table_hands() -> Callable[[random.Random], None]:
    """The same scripted hand dealt again and again at one table, each player topped back up
    to 200 between hands (how a bot's table really runs)."""
    table = _seated()

    def hand(rng: random.Random) -> None:
        for name in ("a", "b", "c", "d"):
            missing = 200 - table.stack(name)
            if missing > 0:
                table.add_chips(name, missing)
        _script(table, rng)

    return hand


def bare_hand() -> Callable[[random.Random], None]:
    """The same hand as a bare loop: the engine's shuffle and hand evaluator, the chips moved,
    and nothing else (no events, decisions, journal, rules read from the variant, or checks
    beyond the script's): what the interpreter itself costs for the hand, the floor under
    any engine's figure."""
    high = Ranking.HIGH

    def hand(rng: random.Random) -> None:
        deck = permuted(_PACK, rng)
        rng.getrandbits(62)  # the hand's seed, as the engine draws it
        stacks = [200, 200, 200, 200]
        cards = [list(deck[k * 5 : k * 5 + 5]) for k in range(4)]
        put = [1, 2, 0, 0]
        stacks[0] -= 1
        stacks[1] -= 2
        for seat in (2, 3, 0):  # everyone calls the big blind, who checks
            need = 2 - put[seat]
            stacks[seat] -= need
            put[seat] += need
        top = 21  # one burn card, then the replacements
        for seat in range(4):
            held = cards[seat]
            del held[0]
            held.append(deck[top])
            top += 1
        values = [evaluate(tuple(held), high) for held in cards]
        best = max(values)
        winners = [seat for seat in range(4) if values[seat] == best]
        share, odd = divmod(sum(put), len(winners))
        for seat in winners:
            stacks[seat] += share
        stacks[winners[0]] += odd
        assert sum(stacks) == 800

    return hand


class _Record:
    """An event of the lean hand: what happened, to which seat, and its values."""

    __slots__ = ("kind", "seat", "values")

    def __init__(self, kind: str, seat: int | None, *values: object) -> None:
        self.kind = kind
        self.seat = seat
        self.values = values


class _LeanHand:
    """A minimal engine for this one game, as a yardstick: a hand that checks whose turn it
    is and whether each action is legal (check, call, bet or raise, fold; cards held and how
    many may go), writes an event for each, offers the draw as a decision with its options,
    and pays the pots. Its steps are data. It has none of the engine's features: no journal
    or snapshot, no table (seats, button, sitting out), no house rules, openers, wild cards,
    all-in side rules, reshuffles or hand result object."""

    STEPS = ("bet", "draw", "bet", "showdown")
    COUNTS = (0, 1, 2, 3, 4, 5)

    def __init__(self, stacks: list[int], deck: tuple[Card, ...], blinds: tuple[int, ...]) -> None:
        n = self.n = len(stacks)
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.put = [0] * n
        self.folded = [False] * n
        self.live = n
        self.stub = list(deck)
        self.stub.reverse()
        self.events = [_Record("start", None, tuple(stacks))]
        self.cards: list[list[Card]] = [[] for _ in range(n)]
        pop = self.stub.pop
        for _ in range(5):
            for held in self.cards:
                held.append(pop())
        for seat in range(n):
            self.events.append(_Record("dealt", seat))
        for seat, blind in enumerate(blinds):
            paid = min(blind, self.stacks[seat])
            self.stacks[seat] -= paid
            self.bets[seat] += paid
            self.put[seat] += paid
            self.events.append(_Record("blind", seat, paid))
        self.step = -1
        self.result: tuple[tuple[int, int], ...] | None = None
        self.offered: tuple[int, tuple[Card, ...], tuple[int, ...]] | None = None
        self.current: int | None = None
        self.max_bet = self.min_raise = blinds[-1]
        self.acted = self.drawn = 0
        self._next_step(len(blinds) % n)

    def _next_step(self, start: int = 0) -> None:
        while True:
            self.step += 1
            kind = self.STEPS[self.step]
            if self.live == 1 or kind == "showdown":
                self._showdown()
                return
            if kind == "bet":
                self.max_bet = max(self.bets)
                self.acted = 0
            else:
                self.drawn = 0
            self.current = self._first_from(start)
            if self.current is not None:
                self.events.append(_Record("round", self.current, kind))
                return
            start = 0

    def _first_from(self, seat: int) -> int | None:
        for k in range(self.n):
            other = (seat + k) % self.n
            if not self.folded[other] and self.stacks[other] > 0:
                return other
        return None

    def pending_draw(self) -> tuple[int, tuple[Card, ...], tuple[int, ...]]:
        """The draw decision: the seat, the cards it may discard, how many it may."""
        if self.offered is None:
            seat = self.current
            if seat is None or self.STEPS[self.step] != "draw":
                raise IllegalAction("nobody is drawing")
            self.offered = (seat, tuple(self.cards[seat]), self.COUNTS)
        return self.offered

    def act(self, seat: int, action: Action) -> tuple[_Record, ...]:
        if self.result is not None:
            raise IllegalAction("the hand is over")
        if seat != self.current:
            raise IllegalAction("it is not {player}'s turn to act", player=str(seat))
        start = len(self.events)
        if self.STEPS[self.step] == "draw":
            if not isinstance(action, Discard):
                raise IllegalAction("this is a draw: discard cards or stand pat")
            self._discard(seat, action.cards)
        else:
            self._bet(seat, action)
        return tuple(self.events[start:])

    def _bet(self, seat: int, action: Action) -> None:
        bets, stacks = self.bets, self.stacks
        owed = self.max_bet - bets[seat]
        if isinstance(action, Check):
            if owed:
                raise IllegalAction("you cannot check: {amount} to call", amount=owed)
            self.events.append(_Record("check", seat))
        elif isinstance(action, Call):
            if not owed:
                raise IllegalAction("there is nothing to call")
            paid = min(owed, stacks[seat])
            stacks[seat] -= paid
            bets[seat] += paid
            self.put[seat] += paid
            self.events.append(_Record("call", seat, paid))
        elif isinstance(action, Fold):
            self.folded[seat] = True
            self.live -= 1
            self.events.append(_Record("fold", seat))
        elif isinstance(action, (Bet, Raise)):
            to, room = action.to, stacks[seat] + bets[seat]
            if to > room or (to < self.max_bet + self.min_raise and to < room):
                raise IllegalAction("a bet or raise to {amount} is not allowed", amount=to)
            self.min_raise = max(self.min_raise, to - self.max_bet)
            stacks[seat] -= to - bets[seat]
            self.put[seat] += to - bets[seat]
            bets[seat] = self.max_bet = to
            self.acted = 0
            self.events.append(_Record("raise", seat, to))
        else:
            raise IllegalAction("this is a betting round")
        self.acted += 1
        if self.live > 1:
            for k in range(1, self.n + 1):
                other = (seat + k) % self.n
                if (
                    not self.folded[other]
                    and stacks[other] > 0
                    and (self.acted < self.live or bets[other] < self.max_bet)
                ):
                    self.current = other
                    return
        self.bets = [0] * self.n
        self._next_step()

    def _discard(self, seat: int, cards: tuple[Card, ...]) -> None:
        held = self.cards[seat]
        for card in cards:
            if card not in held:
                raise IllegalAction("you do not hold {card}", card=str(card))
        if len(set(cards)) != len(cards):
            raise IllegalAction("a card is named twice")
        if len(cards) not in self.COUNTS:
            raise IllegalAction("you may not discard {count}", count=len(cards))
        kept = [card for card in held if card not in cards]
        if cards and self.drawn == 0:
            self.stub.pop()  # the burn card
        received = [self.stub.pop() for _ in cards]
        kept.extend(received)
        self.cards[seat] = kept
        self.events.append(_Record("drew", seat, cards, tuple(received)))
        self.drawn += 1
        self.offered = None
        if self.drawn >= self.live:
            self._next_step()
        else:
            self.current = self._first_from(seat + 1)

    def _showdown(self) -> None:
        alive = [not folded for folded in self.folded]
        values = {}
        for seat in range(self.n):
            if alive[seat]:
                value = values[seat] = evaluate(self.cards[seat], Ranking.HIGH)
                self.events.append(_Record("shown", seat, tuple(self.cards[seat]), value))
        awards = []
        for amount, eligible in build_pots(self.put, alive):
            best = max(values[seat] for seat in eligible)
            winners = [seat for seat in eligible if values[seat] == best]
            share, odd = divmod(amount, len(winners))
            for k, seat in enumerate(winners):
                paid = share + (odd if k == 0 else 0)
                self.stacks[seat] += paid
                awards.append((seat, paid))
            self.events.append(_Record("awarded", None, amount, tuple(winners)))
        self.result = tuple(awards)
        self.current = None


def lean_hand(rng: random.Random, mark: Callable[[], None] = _unmarked) -> _LeanHand:
    """The same hand played by :class:`_LeanHand` (returned, played out): what the engine's
    essentials (turns, legality, events, the draw's decision, pots) cost without its
    features."""
    deck = permuted(_PACK, rng)
    rng.getrandbits(62)
    lean = _LeanHand([200, 200, 200, 200], deck, (1, 2))
    mark()
    for _ in range(4):
        seat = lean.current
        assert seat is not None
        lean.act(seat, Call() if lean.bets[seat] < lean.max_bet else Check())
    mark()
    for _ in range(4):
        seat, cards, _counts = lean.pending_draw()
        lean.act(seat, Discard(cards[:1]))
    mark()
    for _ in range(4):
        assert lean.current is not None
        lean.act(lean.current, Check())
    assert lean.result is not None and sum(lean.stacks) == 800
    return lean


PHASES = ("the deal", "four calls", "four draws", "four checks and the result")


Script = Callable[[random.Random, Callable[[], None]], object]


def phase_times(play: Script, hands: int) -> list[float]:
    """Microseconds a hand spends in each of :data:`PHASES`: the best of three runs of
    ``hands`` hands, after one such run to warm up."""
    clock = time.perf_counter
    marks: list[float] = []

    def mark() -> None:
        marks.append(clock())

    runs = []
    for _ in range(4):
        spent = [0.0] * len(PHASES)
        rng = random.Random(1)
        for _ in range(hands):
            marks.clear()
            mark()
            play(rng, mark)
            mark()
            for k in range(len(PHASES)):
                spent[k] += marks[k + 1] - marks[k]
        runs.append(spent)
    best = min(runs[1:], key=sum)
    return [1e6 * t / hands for t in best]


def _fields(obj: object) -> tuple[Any, ...]:
    return tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))  # type: ignore[arg-type]


def _best_of(work: Callable[[], object], repeat: int) -> float:
    """Microseconds one call of ``work`` takes: the best of five runs of ``repeat`` calls."""
    clock = time.perf_counter
    best = float("inf")
    for _ in range(5):
        start = clock()
        for _ in range(repeat):
            work()
        best = min(best, clock() - start)
    return 1e6 * best / repeat


def budget_parts(repeat: int) -> list[tuple[str, float]]:
    """What the outputs the bot reads cost on top of the lean engine, each timed alone with
    the engine's own classes (µs a hand), where the lean engine makes a cheaper stand-in or
    none: a floor for any engine core that gives the bot what it reads today."""
    rng = random.Random(5)
    table = _seated()
    offered: list[Decision] = []
    _script(table, rng, offered=offered)
    decisions: list[tuple[type, tuple[Any, ...], type, tuple[Any, ...]]] = [
        (type(d), _fields(d)[:3], type(d.legal), _fields(d.legal)) for d in offered
    ]
    events = [(type(e), _fields(e)) for e in table.events]
    result = table.result
    assert result is not None
    records = [(r.kind, r.seat, r.values) for r in lean_hand(rng).events]

    def real_events() -> None:
        for cls, values in events:
            cls(*values)

    def lean_records() -> None:
        for kind, seat, values in records:
            _Record(kind, seat, *values)

    def real_decisions() -> None:
        for decision, head, options, values in decisions:
            decision(*head, options(*values))

    def lean_offers() -> None:
        for _, (seat, _pid, _kind), _, values in decisions:
            (seat, values[0], values[1])

    def journal() -> None:
        # The lean engine hands each action's events back too: only the record is extra.
        kept: list[Any] = [("start", (), 0)]
        for k in range(12):
            kept.append(("act", k, None))

    pots = [
        (pot.index, pot.amount, pot.eligible, [_fields(share) for share in pot.shares])
        for pot in result.pots
    ]
    shown = [_fields(hand) for hand in result.shown]
    number, game, stacks = result.hand_number, result.game, list(result.final_stacks.items())

    def hand_result() -> None:
        made = [
            ev.PotResult(index, amount, eligible, tuple([ev.PotShare(*share) for share in shares]))
            for index, amount, eligible, shares in pots
        ]
        hands = tuple([ev.ShownHand(*hand) for hand in shown])
        ev.HandResult(number, game, tuple(made), hands, None, (), False, 0, (), dict(stacks))

    parts = [
        ("a table and its four seats", _best_of(_seated, repeat)),
        ("the table's state kept at the deal", _best_of(table._snapshot, repeat)),
        (
            f"{len(events)} events as engine objects, less {len(records)} lean records",
            _best_of(real_events, repeat) - _best_of(lean_records, repeat),
        ),
        (
            "4 draw decisions as engine objects, less lean tuples",
            _best_of(real_decisions, repeat) - _best_of(lean_offers, repeat),
        ),
        ("the journal (each action recorded, for a crash)", _best_of(journal, repeat)),
        ("the hand's result", _best_of(hand_result, repeat)),
    ]
    return parts


def print_budget(seconds: float) -> None:
    """The lean engine, and the floor under an engine core that gives the bot what it reads,
    against the goal of 20x pokerkit."""
    rates = best_rates({"pokerkit": pokerkit_hand(), "lean": lean_hand}, seconds)
    goal = 1e6 / (20 * rates["pokerkit"])
    lean = 1e6 / rates["lean"]
    parts = budget_parts(int(20_000 * seconds / 3))
    print("µs a hand: what an engine core must give the bot, on top of the lean engine")
    print(f"  {'the lean engine (best batch)':62} {lean:6.1f}")
    for name, cost in parts:
        print(f"  {'+ ' + name:62} {cost:6.1f}")
    floor = lean + sum(cost for _, cost in parts)
    print(f"  {'= the floor, with no rule beyond the lean engine':62} {floor:6.1f}")
    label = f"the goal, 20x pokerkit ({rates['pokerkit']:,.0f} hands/s)"
    print(f"  {label:62} {goal:6.1f}")
    print(f"  left for every other rule and feature: {goal - floor:.1f} µs a hand")


def pokerkit_hand() -> Callable[[random.Random], None]:
    from pokerkit import Automation, NoLimitDeuceToSevenLowballSingleDraw

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )

    def hand(rng: random.Random) -> None:
        state = NoLimitDeuceToSevenLowballSingleDraw.create_state(
            automations, True, 0, (1, 2), 2, 200, 4
        )
        for _ in range(4):
            state.check_or_call()
        for _ in range(4):
            index = state.stand_patter_or_discarder_index
            assert index is not None
            state.stand_pat_or_discard(state.hole_cards[index][:1])
        for _ in range(4):
            state.check_or_call()
        assert not state.status

    return hand


def best_rates(
    plays: dict[str, Callable[[random.Random], object]], seconds: float
) -> dict[str, float]:
    """Hands per second of each player of hands, measured in short alternating batches over
    about ``seconds`` each, keeping each one's best batch (as ``timeit`` advises: slower
    batches only measure other processes). Everything is warmed up first for as long (the
    hand evaluator fills its lookup tables lazily; a bot that has been running is warm)."""
    rngs = {name: random.Random(1) for name in plays}
    for name, play in plays.items():
        warm_until = time.perf_counter() + seconds / 2
        while time.perf_counter() < warm_until:
            play(rngs[name])
    best = dict.fromkeys(plays, 0.0)
    spent = dict.fromkeys(plays, 0.0)
    while min(spent.values()) < seconds:
        for name, play in plays.items():
            rng = rngs[name]
            count = 0
            start = time.perf_counter()
            while True:
                play(rng)
                count += 1
                elapsed = time.perf_counter() - start
                if elapsed >= 0.1:
                    break
            spent[name] += elapsed
            best[name] = max(best[name], count / elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seconds", nargs="?", default="3", help="seconds per engine (3)")
    parser.add_argument("--phases", action="store_true", help="time each phase of the hand")
    parser.add_argument("--budget", action="store_true", help="price what the bot reads")
    args = parser.parse_args()
    try:
        seconds = float(args.seconds)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        parser.error(f"seconds must be a number above 0, not {args.seconds!r}")
    if args.phases:
        print_phases(max(1, int(20_000 * seconds / 3)))
        return
    if args.budget:
        print_budget(seconds)
        return
    rates = best_rates(
        {
            "engine": our_hand,
            "table": table_hands(),
            "pokerkit": pokerkit_hand(),
            "bare": bare_hand(),
            "lean": lean_hand,
        },
        seconds,
    )
    ours, table, theirs = rates["engine"], rates["table"], rates["pokerkit"]
    bare, lean = rates["bare"], rates["lean"]
    print("scripted 4-player hand (blinds 1/2, stacks 200, call, draw one, check down)")
    print(f"  engine, a new table every hand:                 {ours:10,.0f} hands/s")
    print(f"  engine, consecutive hands at one table:         {table:10,.0f} hands/s")
    print(f"  pokerkit NoLimitDeuceToSevenLowballSingleDraw:  {theirs:10,.0f} hands/s")
    print(f"  ratio: {ours / theirs:.1f}x (new table), {table / theirs:.1f}x (one table)")
    print(
        f"  the floor, the same hand as a bare loop:        {bare:10,.0f} hands/s "
        f"({1e6 / bare:.1f} µs a hand, against {1e6 / ours:.1f} for the engine)"
    )
    print(
        f"  a lean engine's essentials, the same hand:      {lean:10,.0f} hands/s "
        f"({1e6 / lean:.1f} µs a hand; {lean / theirs:.1f}x pokerkit)"
    )


def print_phases(hands: int) -> None:
    """The engine's and the lean engine's time in each phase of the hand, side by side."""
    ours = phase_times(our_hand, hands)
    lean = phase_times(lean_hand, hands)
    print(f"µs a hand, phase by phase (best of three runs of {hands:,} hands)")
    print(f"  {'phase':28} {'engine':>8} {'lean':>8} {'ratio':>6}")
    rows = zip([*PHASES, "the whole hand"], [*ours, sum(ours)], [*lean, sum(lean)], strict=True)
    for name, a, b in rows:
        print(f"  {name:28} {a:8.1f} {b:8.1f} {a / b:6.1f}")


if __name__ == "__main__":
    main()
