"""engine.odds.best_draws against brute-force enumeration, in the same run.

Run with ``.venv/bin/python bench/odds.py [--hands N] [--repeat R] [--no-brute]``.

For each ranking, without and with wild cards, the same hands go through:

* ours: ``best_draws(hand, ranking, wild=...)``, all 32 discards counted
  exactly. "cold" starts with every remembered group value and the deck's
  strength reference forgotten (the first call a process makes for a
  ranking); "warm" is the best of ``--repeat`` calls after that (what a bot
  that has been dealing for a while sees). The worst hand's time is printed.
  "strengths" is ``discard_strengths`` on the same hands, warm: the same order and
  strengths without the counts by value (what the house players ask).
* brute force with our evaluator: for every discard, every replacement set
  from the unseen cards through ``engine.hands.evaluate`` (2,598,960
  evaluations per hand for the 52-card deck, 201,376 for the 32-card deck).
  The line says whether its counts equal ours, discard by discard.
* brute force with eval7 (C): the same loops through ``eval7.evaluate``, for
  the high ranking without wild cards (eval7 knows no other). Both brute
  forces include the Python loops that build each hand, as any caller's would.

Only one hand per configuration goes through brute force (it takes seconds).
Nothing here asserts anything; the figures are for the documentation
(docs/players/coach.md) and issue 19.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from itertools import combinations
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import eval7

import engine.odds
from bench import positive
from engine.cards import DECK_32, DECK_52, DECK_53, JOKER, Card, cards_of_rank
from engine.hands import Ranking, evaluate
from engine.odds import best_draws, discard_strengths

Tallies = dict[tuple[Card, ...], Counter[int]]


def forget() -> None:
    """Drop everything engine.odds remembers between calls (a cold start)."""
    for scores in engine.odds._SCORES.values():
        scores.clear()
    for values in engine.odds._VALUES.values():
        values.clear()
    engine.odds._DECIDERS.clear()
    engine.odds._REFERENCES.clear()
    engine.odds._SHAPES.clear()


def best_warm(call: Callable[[], object], repeat: int) -> float:
    """The best of ``repeat`` timed calls, in seconds (after one untimed call)."""
    call()
    passes = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        passes.append(time.perf_counter() - start)
    return min(passes)


def time_ours(
    hands: list[tuple[Card, ...]],
    ranking: Ranking,
    wild: frozenset[Card],
    deck: tuple[Card, ...],
    repeat: int,
) -> tuple[float, float, float]:
    """The slowest hand's cold time, its best warm time, and its best warm time with
    ``discard_strengths``, in seconds."""
    cold = warm = strengths = 0.0
    for hand in hands:
        forget()
        start = time.perf_counter()
        best_draws(hand, ranking, wild=wild, deck=deck)
        cold = max(cold, time.perf_counter() - start)
        full = partial(best_draws, hand, ranking, wild=wild, deck=deck)
        warm = max(warm, best_warm(full, repeat))
        ranked = partial(discard_strengths, hand, ranking, wild=wild, deck=deck)
        strengths = max(strengths, best_warm(ranked, repeat))
    return cold, warm, strengths


def ours(
    hand: tuple[Card, ...], ranking: Ranking, wild: frozenset[Card], deck: tuple[Card, ...]
) -> Tallies:
    found = best_draws(hand, ranking, wild=wild, deck=deck)
    return {
        discard: Counter({value.score: count for value, count in odds.outcomes})
        for discard, odds in found
    }


def brute_ours(
    hand: tuple[Card, ...], ranking: Ranking, wild: frozenset[Card], deck: tuple[Card, ...]
) -> Tallies:
    unseen = [card for card in deck if card not in hand]
    tallies: Tallies = {}
    for size in range(6):
        for discard in combinations(hand, size):
            kept = tuple(card for card in hand if card not in discard)
            tally: Counter[int] = Counter()
            for drawn in combinations(unseen, size):
                tally[evaluate(kept + drawn, ranking, wild=wild).score] += 1
            tallies[discard] = tally
    return tallies


def brute_eval7(hand: tuple[Card, ...], deck: tuple[Card, ...]) -> int:
    as_eval7 = {card: eval7.Card(str(card)) for card in deck}
    unseen = [as_eval7[card] for card in deck if card not in hand]
    evaluations = 0
    for size in range(6):
        for discard in combinations(hand, size):
            kept = [as_eval7[card] for card in hand if card not in discard]
            tally: Counter[int] = Counter()
            for drawn in combinations(unseen, size):
                tally[eval7.evaluate(kept + list(drawn))] += 1
                evaluations += 1
    return evaluations


def configurations() -> list[tuple[Ranking, str, frozenset[Card], tuple[Card, ...]]]:
    found: list[tuple[Ranking, str, frozenset[Card], tuple[Card, ...]]] = []
    for ranking in Ranking:
        if ranking is Ranking.STRIPPED_HIGH:
            found.append((ranking, "no wild", frozenset(), DECK_32))
            found.append((ranking, "sevens wild", cards_of_rank(7, DECK_32), DECK_32))
        else:
            found.append((ranking, "no wild", frozenset(), DECK_52))
            found.append((ranking, "deuces + joker wild", cards_of_rank(2) | {JOKER}, DECK_53))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=positive, default=5, help="hands timed per configuration")
    parser.add_argument("--repeat", type=positive, default=3, help="warm passes per hand")
    parser.add_argument("--no-brute", action="store_true", help="skip the brute-force runs")
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(
        f"{'ranking':15} {'wild':20} {'cold max':>9} {'warm max':>9} {'strengths':>9} "
        f"{'brute ours':>11} {'brute eval7':>12}  counts"
    )
    for ranking, label, wild, deck in configurations():
        hands = [tuple(rng.sample(deck, 5)) for _ in range(args.hands)]
        cold, warm, strengths = time_ours(hands, ranking, wild, deck, args.repeat)
        brute = seven = agree = "-"
        if not args.no_brute:
            hand = hands[0]
            expected = ours(hand, ranking, wild, deck)
            start = time.perf_counter()
            counted = brute_ours(hand, ranking, wild, deck)
            brute = f"{time.perf_counter() - start:.2f} s"
            agree = "equal" if counted == expected else "DIFFERENT"
            if ranking is Ranking.HIGH and not wild:
                start = time.perf_counter()
                brute_eval7(hand, deck)
                seven = f"{time.perf_counter() - start:.2f} s"
        print(
            f"{ranking.value:15} {label:20} {cold * 1000:7.0f}ms {warm * 1000:7.0f}ms "
            f"{strengths * 1000:7.0f}ms "
            f"{brute:>11} {seven:>12}  {agree}"
        )


if __name__ == "__main__":
    main()
