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
puts the engine's figure (and any goal set for it) in proportion.

Run: ``.venv/bin/python bench/engine.py [seconds per engine]``
"""

from __future__ import annotations

import importlib
import os
import random
import sys
import time
from collections.abc import Callable

if __name__ == "engine":
    # A script run from bench/ has this directory first on sys.path, so ``import engine``
    # finds this file rather than the engine package. Step aside for the real package.
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]
    del sys.modules["engine"]
    sys.modules["engine"] = importlib.import_module("engine")

from engine import (
    Call,
    Check,
    Discard,
    DrawOptions,
    ForcedBets,
    NoLimit,
    Ranking,
    Table,
    TableConfig,
    evaluate,
)
from engine.cards import permuted

CONFIG = TableConfig(
    "five-card-draw", structure=NoLimit(2), forced_bets=ForcedBets.with_blinds(1, 2), max_seats=4
)


def our_hand(rng: random.Random) -> None:
    table = Table(CONFIG)
    for name in ("a", "b", "c", "d"):
        table.sit(name, 200)
    table.start_hand(rng)
    for _ in range(4):
        table.act(table.to_act[0], Call())
    for _ in range(4):
        decision = table.pending[0]
        legal = decision.legal
        assert isinstance(legal, DrawOptions)
        table.act(decision.seat, Discard(legal.cards[:1]))
    for _ in range(4):
        table.act(table.to_act[0], Check())
    assert not table.in_hand
    assert table.result is not None  # the bot reads the result after every hand


def table_hands() -> Callable[[random.Random], None]:
    """The same scripted hand dealt again and again at one table, each player topped back up
    to 200 between hands (how a bot's table really runs)."""
    table = Table(CONFIG)
    for name in ("a", "b", "c", "d"):
        table.sit(name, 200)

    def hand(rng: random.Random) -> None:
        for name in ("a", "b", "c", "d"):
            missing = 200 - table.stack(name)
            if missing > 0:
                table.add_chips(name, missing)
        table.start_hand(rng)
        for _ in range(4):
            table.act(table.to_act[0], Call())
        for _ in range(4):
            decision = table.pending[0]
            legal = decision.legal
            assert isinstance(legal, DrawOptions)
            table.act(decision.seat, Discard(legal.cards[:1]))
        for _ in range(4):
            table.act(table.to_act[0], Check())
        assert not table.in_hand
        assert table.result is not None

    return hand


def bare_hand() -> Callable[[random.Random], None]:
    """The same hand as a bare loop: the engine's shuffle and hand evaluator, the chips moved,
    and nothing else (no events, decisions, journal, rules read from the variant, or checks
    beyond the script's): what the interpreter itself costs for the hand, the floor under
    any engine's figure."""
    pack = CONFIG.rules().deck.cards()
    high = Ranking.HIGH

    def hand(rng: random.Random) -> None:
        deck = permuted(pack, rng)
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
    plays: dict[str, Callable[[random.Random], None]], seconds: float
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
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    rates = best_rates(
        {
            "engine": our_hand,
            "table": table_hands(),
            "pokerkit": pokerkit_hand(),
            "bare": bare_hand(),
        },
        seconds,
    )
    ours, table, theirs, bare = rates["engine"], rates["table"], rates["pokerkit"], rates["bare"]
    print("scripted 4-player hand (blinds 1/2, stacks 200, call, draw one, check down)")
    print(f"  engine, a new table every hand:                 {ours:10,.0f} hands/s")
    print(f"  engine, consecutive hands at one table:         {table:10,.0f} hands/s")
    print(f"  pokerkit NoLimitDeuceToSevenLowballSingleDraw:  {theirs:10,.0f} hands/s")
    print(f"  ratio: {ours / theirs:.1f}x (new table), {table / theirs:.1f}x (one table)")
    print(
        f"  the floor, the same hand as a bare loop:        {bare:10,.0f} hands/s "
        f"({1e6 / bare:.1f} µs a hand, against {1e6 / ours:.1f} for the engine)"
    )


if __name__ == "__main__":
    main()
