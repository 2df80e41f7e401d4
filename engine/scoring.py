"""Hand values for the rules of a game: thin glue over :mod:`engine.hands`.

These helpers decide what a player's cards are worth under a :class:`engine.rules.GameRules`
(high, low, both), whether they meet a requirement (openers, trips to win), and which cards
prove the openers.

>>> from engine.cards import parse_cards
>>> value(parse_cards("As Ad Kc 7h 2d"), Ranking.HIGH, frozenset()).name
'Pair of aces'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.cards import Card
from engine.hands import Category, HandValue, Ranking, evaluate, low_qualifies, minimum_pair
from engine.rules import Requirement

__all__ = ["meets", "proof_cards", "qualifies_low", "value"]


def value(cards: Sequence[Card], ranking: Ranking, wild: frozenset[Card]) -> HandValue:
    """The value of the best five of ``cards`` under ``ranking``."""
    return evaluate(tuple(cards), ranking, wild=wild)


def meets(
    cards: Sequence[Card], requirement: Requirement, ranking: Ranking, wild: frozenset[Card]
) -> bool:
    """Whether ``cards`` hold the hand ``requirement`` asks for, ranked with ``ranking`` (a high
    ranking). Fewer cards than a hand (the first round of a four-before jackpot) are judged
    as they stand: a pair of the rank or better among them, the bug being an ace."""
    if len(cards) < 3:
        return _meets_in_two(cards, requirement, wild)
    if len(cards) < 5 and ranking is Ranking.STRIPPED_HIGH:
        ranking = Ranking.HIGH  # short hands have no straights, so the orders agree
    hand_value = evaluate(tuple(cards), ranking, wild=wild)
    if requirement.kind == "trips":
        return hand_value.category >= Category.THREE_OF_A_KIND
    if hand_value.size < 5:
        # A short hand has no kickers to compare with the weakest qualifying five: a pair
        # of the rank or better qualifies, as does any better combination.
        category = hand_value.category
        return category > Category.PAIR or (
            category is Category.PAIR and hand_value.ranks[0] >= requirement.rank
        )
    return hand_value >= minimum_pair(requirement.rank, ranking)


def _meets_in_two(cards: Sequence[Card], requirement: Requirement, wild: frozenset[Card]) -> bool:
    """:func:`meets` for one or two cards: only a pair can be there."""
    if requirement.kind == "trips" or len(cards) < 2:
        return False
    # A wild card takes the rank of the other card; the bug is an ace.
    ranks = [None if card in wild else 14 if card.is_joker else card.rank for card in cards]
    known = [rank for rank in ranks if rank is not None]
    if not known:
        return True  # two wild cards: a pair of aces
    if len(known) == 1 or known[0] == known[1]:
        return known[0] >= requirement.rank
    return False


def qualifies_low(hand_value: HandValue, qualifier: int | None) -> bool:
    """Whether a low value wins low under ``qualifier`` (``None``: every low qualifies)."""
    return qualifier is None or low_qualifies(hand_value, qualifier)


def proof_cards(
    cards: Sequence[Card], requirement: Requirement, ranking: Ranking, wild: frozenset[Card]
) -> tuple[Card, ...]:
    """The cards of ``cards`` a player shows to prove ``requirement``: the qualifying pair,
    two pair or set when the hand makes one with natural cards, otherwise the whole hand
    (straights, flushes, and hands that need a wild card or the bug)."""
    counts = Counter(card.rank for card in cards if card not in wild and not card.is_joker)
    groups = [rank for rank, count in counts.items() if count >= 2]
    if requirement.kind == "trips":
        sets = [rank for rank, count in counts.items() if count >= 3]
        if sets:
            return tuple(card for card in cards if card.rank == max(sets) and card not in wild)
        return tuple(cards)
    good = [rank for rank in groups if rank >= requirement.rank]
    if good:
        best = max(good)
        return tuple(card for card in cards if card.rank == best and card not in wild)
    if len(groups) >= 2 or any(counts[rank] >= 3 for rank in groups):
        return tuple(card for card in cards if card.rank in groups and card not in wild)
    return tuple(cards)
