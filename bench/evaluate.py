"""Evaluations per second: engine.hands.evaluate against published evaluators.

Run with ``.venv/bin/python bench/evaluate.py [--hands N] [--repeat R]``.

Every contender gets the same hands in the same run, already converted to its
own card representation before any clock starts (our Card tuples, treys ints,
eval7 Card lists, pokerkit Card tuples). Each timed loop has the same shape,
``for hand in hands: call(hand)``, through the library's public entry point:

* ours: ``engine.hands.evaluate(hand, ranking)`` (with ``wild=`` for the wild
  hands) -- the function the game engine calls at every showdown;
* treys: ``Evaluator().evaluate(hand, [])``;
* eval7: ``eval7.evaluate(hand)``;
* pokerkit: ``<HandType>.lookup.get_entry(hand)``, its fastest lookup (the
  hand classes add a validity check on top of it).

Tables: treys builds its tables in ``Evaluator()``, pokerkit when the hand
classes are imported. Our tables fill themselves in on first use; for the
no-wild figures we build them up front with ``engine.hands.prepare`` (as the
bot does at start-up) and print how long that took, next to treys'
construction time. Wild-card entries are always filled on first use, so for
wild hands the first pass is printed too (and for the seven-card table). Every rate is the best of
``--repeat`` passes. Nothing here asserts anything.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import eval7
from pokerkit import utilities as pokerkit_utilities
from pokerkit.hands import RegularLowHand, StandardLowHand
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from bench import positive
from engine.cards import DECK_52, Card, cards_of_rank
from engine.hands import Ranking, evaluate, prepare


def timed(loop: Callable[[], None]) -> float:
    start = time.perf_counter()
    loop()
    return time.perf_counter() - start


def rate(loop: Callable[[], None], count: int, repeat: int) -> float:
    """Evaluations per second, best of ``repeat`` passes."""
    return count / min(timed(loop) for _ in range(repeat))


def ours(hands: Sequence[tuple[Card, ...]], ranking: Ranking) -> Callable[[], None]:
    def loop() -> None:
        for hand in hands:
            evaluate(hand, ranking)

    return loop


def ours_wild(
    hands: Sequence[tuple[Card, ...]], ranking: Ranking, wild: frozenset[Card]
) -> Callable[[], None]:
    def loop() -> None:
        for hand in hands:
            evaluate(hand, ranking, wild=wild)

    return loop


def calls(hands: Sequence[Any], function: Callable[[Any], object]) -> Callable[[], None]:
    def loop() -> None:
        for hand in hands:
            function(hand)

    return loop


def treys_calls(hands: Sequence[list[int]], evaluator: TreysEvaluator) -> Callable[[], None]:
    def loop() -> None:
        board: list[int] = []
        for hand in hands:
            evaluator.evaluate(hand, board)

    return loop


def line(label: str, per_second: float, note: str = "") -> None:
    print(f"  {label:<44} {per_second:>12,.0f} /s  {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=positive, default=100_000, help="hands per test")
    parser.add_argument("--repeat", type=positive, default=5, help="timed passes (best is kept)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    count, repeat = args.hands, args.repeat
    rng = random.Random(args.seed)

    hands = [tuple(rng.sample(DECK_52, 5)) for _ in range(count)]
    treys_hands = [[TreysCard.new(str(card)) for card in hand] for hand in hands]
    eval7_hands = [[eval7.Card(str(card)) for card in hand] for hand in hands]
    pk = {card: next(iter(pokerkit_utilities.Card.parse(str(card)))) for card in DECK_52}
    pokerkit_hands = [tuple(pk[card] for card in hand) for hand in hands]
    start = time.perf_counter()
    treys_evaluator = TreysEvaluator()
    treys_build = time.perf_counter() - start

    print(f"{count:,} random 5-card hands, best of {repeat} passes\n")

    print("HIGH, no wild cards")
    start = time.perf_counter()
    entries = prepare(Ranking.HIGH)
    build = time.perf_counter() - start
    print(f"  tables: prepare(HIGH) {build * 1000:.0f} ms ({entries:,} entries); ", end="")
    print(f"treys Evaluator() {treys_build * 1000:.0f} ms")
    high = rate(ours(hands, Ranking.HIGH), count, repeat)
    treys_rate = rate(treys_calls(treys_hands, treys_evaluator), count, repeat)
    eval7_rate = rate(calls(eval7_hands, eval7.evaluate), count, repeat)
    line("engine.hands.evaluate", high, f"{high / treys_rate:.2f}x treys")
    line("treys Evaluator.evaluate", treys_rate)
    line("eval7.evaluate (C extension)", eval7_rate, f"ours is {high / eval7_rate:.2f}x")

    for ranking, hand_type, name in (
        (Ranking.ACE_TO_FIVE, RegularLowHand, "RegularLowHand"),
        (Ranking.DEUCE_TO_SEVEN, StandardLowHand, "StandardLowHand"),
    ):
        print(f"\n{ranking.name}, no wild cards")
        start = time.perf_counter()
        prepare(ranking)
        print(f"  tables: prepare({ranking.name}) {(time.perf_counter() - start) * 1000:.0f} ms")
        mine = rate(ours(hands, ranking), count, repeat)
        theirs = rate(calls(pokerkit_hands, hand_type.lookup.get_entry), count, repeat)
        line("engine.hands.evaluate", mine, f"{mine / theirs:.2f}x pokerkit")
        line(f"pokerkit {name}.lookup.get_entry", theirs)

    print("\nHIGH, deuces wild: hands holding one to four deuces")
    deuces = cards_of_rank(2)
    wild_cards = sorted(deuces)
    others = [card for card in DECK_52 if card not in deuces]
    per_count = count // 4
    wild_hands: list[tuple[Card, ...]] = []
    for wilds in (1, 2, 3, 4):
        group = []
        for _ in range(per_count):
            hand = [*rng.sample(wild_cards, wilds), *rng.sample(others, 5 - wilds)]
            rng.shuffle(hand)
            group.append(tuple(hand))
        wild_hands.extend(group)
        first = per_count / timed(ours_wild(group, Ranking.HIGH, deuces))
        mine = rate(ours_wild(group, Ranking.HIGH, deuces), per_count, repeat)
        line(f"{wilds} wild: engine.hands.evaluate", mine, f"(first pass {first:,.0f} /s)")
    mixed = rate(ours_wild(wild_hands, Ranking.HIGH, deuces), len(wild_hands), repeat)
    line("1-4 wild, mixed: engine.hands.evaluate", mixed)

    print("\nBest five of seven cards (seven-card draw, the cards:N games)")
    seven = [tuple(rng.sample(DECK_52, 7)) for _ in range(count)]
    seven_eval7 = [[eval7.Card(str(card)) for card in hand] for hand in seven]
    start = time.perf_counter()
    ours(seven, Ranking.HIGH)()
    first = time.perf_counter() - start
    print(f"  first pass, filling the seven-card table: {first * 1000:.0f} ms")
    high7 = rate(ours(seven, Ranking.HIGH), len(seven), repeat)
    eval7_7 = rate(calls(seven_eval7, eval7.evaluate), len(seven), repeat)
    line("HIGH: engine.hands.evaluate", high7, f"ours is {high7 / eval7_7:.2f}x eval7")
    line("HIGH: eval7.evaluate (C extension)", eval7_7)
    for ranking in (Ranking.ACE_TO_FIVE, Ranking.DEUCE_TO_SEVEN, Ranking.ACE_TO_SIX):
        ours(seven, ranking)()
        line(
            f"{ranking.name}: engine.hands.evaluate", rate(ours(seven, ranking), len(seven), repeat)
        )
    ours_wild(seven, Ranking.HIGH, deuces)()
    line(
        "HIGH, deuces wild: engine.hands.evaluate",
        rate(ours_wild(seven, Ranking.HIGH, deuces), len(seven), repeat),
    )


if __name__ == "__main__":
    main()
