"""bench/engine.py's yardsticks hold to what they claim: the lean engine refuses what the
engine refuses on this hand (so its figure is not bought by skipping checks), and every
scripted hand of the benchmark plays to its end."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine import Call, Card, Check, Discard, Fold, IllegalAction, Raise
from engine.cards import permuted

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_engine", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_scripted_hand_plays_to_its_end(bench: ModuleType) -> None:
    rng = random.Random(7)
    for play in (bench.our_hand, bench.table_hands(), bench.bare_hand(), bench.lean_hand):
        play(rng)  # each asserts its own end (a result, every chip accounted for)
    times = bench.phase_times(bench.lean_hand, 20)
    assert len(times) == len(bench.PHASES) and all(t > 0 for t in times)


def test_the_budget_prices_each_output_the_lean_engine_leaves_out(bench: ModuleType) -> None:
    parts = dict(bench.budget_parts(200))
    assert len(parts) == 6
    # Each is timed with the engine's own classes; the events and decisions are priced net
    # of the lean engine's stand-ins, which are cheaper, so none of the six is free.
    assert all(cost > 0 for cost in parts.values()), parts


def test_the_lean_engine_refuses_what_is_not_legal(bench: ModuleType) -> None:
    deck = permuted(bench.CONFIG.rules().deck.cards(), random.Random(3))
    lean = bench._LeanHand([200, 200, 200, 200], deck, (1, 2))
    first = lean.current
    assert first == 2  # left of the big blind
    refused = [
        (1, Call()),  # out of turn
        (first, Check()),  # facing the big blind
        (first, Raise(3)),  # less than a full raise
        (first, Raise(500)),  # more than the stack
        (first, Discard(())),  # not a draw
    ]
    for seat, action in refused:
        events = len(lean.events)
        with pytest.raises(IllegalAction):
            lean.act(seat, action)
        assert len(lean.events) == events and lean.current == first
    lean.act(2, Raise(6))
    lean.act(3, Fold())
    lean.act(0, Call())
    lean.act(1, Call())
    seat, cards, counts = lean.pending_draw()
    assert seat == 0 and len(cards) == 5 and max(counts) == 5
    stranger = next(card for card in deck if card not in cards)
    with pytest.raises(IllegalAction):
        lean.act(seat, Discard((stranger,)))
    with pytest.raises(IllegalAction):
        lean.act(seat, Discard((cards[0], cards[0])))
    with pytest.raises(IllegalAction):
        lean.act(seat, Check())
    for _ in range(3):
        seat, cards, _ = lean.pending_draw()
        lean.act(seat, Discard(cards[:2]))
    assert lean.current is not None
    lean.act(lean.current, Raise(10))
    while lean.result is None:
        assert lean.current is not None
        lean.act(lean.current, Call())
    assert sum(lean.stacks) == 800
    assert all(isinstance(card, Card) for held in lean.cards for card in held)
    with pytest.raises(IllegalAction):
        lean.act(0, Check())  # the hand is over
