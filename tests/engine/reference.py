"""A slow, plain reference evaluator, written independently of engine.hands.

It works on ``(rank, suit)`` pairs and knows nothing of lookup tables. Wild
cards, the bug and the fitter are handled by literally trying every card they
could legally stand for. Keys returned here are tuples that compare like hand
values: greater is better under the ranking (lowball included).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, combinations_with_replacement

from engine.cards import Card
from engine.hands import Category, Ranking

Pair = tuple[int, str]
RefKey = tuple[object, ...]

SUIT_ORDER = {"s": 0, "c": 1, "d": 2, "h": 3}
STANDARD = [
    Category.HIGH_CARD,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
    Category.FIVE_OF_A_KIND,
]
STRIPPED = [
    Category.HIGH_CARD,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
    Category.FIVE_OF_A_KIND,
]
LOW = (Ranking.ACE_TO_FIVE, Ranking.DEUCE_TO_SEVEN, Ranking.ACE_TO_SIX)


def deck_ranks(ranking: Ranking) -> range:
    return range(7, 15) if ranking is Ranking.STRIPPED_HIGH else range(2, 15)


def _straight_top(values: list[int], ranking: Ranking) -> int | None:
    """The top value of a straight made by five distinct values, or None."""
    if ranking is Ranking.ACE_TO_FIVE:
        return None
    high, low = max(values), min(values)
    if high - low == 4:
        return high
    if ranking is Ranking.HIGH and sorted(values) == [2, 3, 4, 5, 14]:
        return 5
    if ranking is Ranking.STRIPPED_HIGH and sorted(values) == [7, 8, 9, 10, 14]:
        return 10
    return None


def natural_key(cards: Sequence[Pair], ranking: Ranking) -> tuple[Category, RefKey]:
    """Category and comparison key of five real cards (five of a kind allowed)."""
    assert len(cards) == 5
    ace_low = ranking in (Ranking.ACE_TO_FIVE, Ranking.ACE_TO_SIX)
    values = [1 if ace_low and rank == 14 else rank for rank, _ in cards]
    counts = Counter(values)
    by_group = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    pattern = sorted(counts.values(), reverse=True)
    distinct = len(counts) == 5
    flush = (
        distinct and len({suit for _, suit in cards}) == 1 and ranking is not Ranking.ACE_TO_FIVE
    )
    top = _straight_top(values, ranking) if distinct else None
    tiebreak: list[int] = list(by_group)
    if pattern == [5]:
        category = Category.FIVE_OF_A_KIND
    elif pattern == [4, 1]:
        category = Category.FOUR_OF_A_KIND
    elif pattern == [3, 2]:
        category = Category.FULL_HOUSE
    elif pattern == [3, 1, 1]:
        category = Category.THREE_OF_A_KIND
    elif pattern == [2, 2, 1]:
        category = Category.TWO_PAIR
    elif pattern == [2, 1, 1, 1]:
        category = Category.PAIR
    elif top is not None:
        category = Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
        tiebreak = [top]
    else:
        category = Category.FLUSH if flush else Category.HIGH_CARD
    order = STRIPPED if ranking is Ranking.STRIPPED_HIGH else STANDARD
    position = order.index(category)
    if ranking in LOW:
        return category, (-position, *(-v for v in tiebreak))
    if ranking is not Ranking.STRIPPED_HIGH:
        return category, (position, *tiebreak)
    # The suit of the deciding card of the combination.
    if category in (Category.HIGH_CARD, Category.FLUSH):
        suit = max((c for c in cards), key=lambda c: c[0])[1]
    elif category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        suit = next(s for r, s in cards if r == tiebreak[0])
    else:
        suit = max((s for r, s in cards if r == tiebreak[0]), key=SUIT_ORDER.__getitem__)
    return category, (position, *tiebreak, SUIT_ORDER[suit])


def best_key(
    cards: Iterable[Card], ranking: Ranking, wild: Iterable[Card] = ()
) -> tuple[Category, RefKey]:
    """Best category/key over all five-card subsets and all legal substitutions."""
    hand = tuple(cards)
    wild_set = frozenset(wild)
    best: tuple[Category, RefKey] | None = None
    for five in combinations(hand, 5):
        found = _best_five(five, ranking, wild_set)
        if best is None or found[1] > best[1]:
            best = found
    assert best is not None
    return best


def _best_five(
    five: Sequence[Card], ranking: Ranking, wild: frozenset[Card]
) -> tuple[Category, RefKey]:
    naturals = [(c.rank, c.suit) for c in five if c not in wild and not c.is_joker]
    wilds = sum(1 for c in five if c in wild)
    bug = any(c.is_joker and c not in wild for c in five)
    if bug and ranking in LOW:  # the fitter: free choice, like a wild card
        wilds += 1
        bug = False
    candidates = [(r, s) for r in deck_ranks(ranking) for s in "cdhs"]
    held = set(naturals)
    best: tuple[Category, RefKey] | None = None
    for stand_ins in combinations_with_replacement(candidates, wilds):
        for bug_card in candidates if bug else [None]:
            extra = list(stand_ins) + ([bug_card] if bug_card is not None else [])
            final = naturals + extra
            five_of_a_kind = len({r for r, _ in final}) == 1
            if not five_of_a_kind and (len(set(final)) != 5 or any(card in held for card in extra)):
                continue
            category, key = natural_key(final, ranking)
            if (
                bug_card is not None
                and bug_card[0] != 14
                and category
                not in (
                    Category.STRAIGHT,
                    Category.FLUSH,
                    Category.STRAIGHT_FLUSH,
                )
            ):
                continue
            if best is None or key > best[1]:
                best = (category, key)
    assert best is not None
    return best
