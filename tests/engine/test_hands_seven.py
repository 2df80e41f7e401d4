"""Six to nine cards: the table lookup agrees with the best of the five-card values.

``evaluate`` looks the best five of six to nine cards up in a table keyed by their ranks (and,
when a suit reaches five, by that suit's ranks); these tests hold it to the five-card evaluator,
hand for hand: the score must be the best score of the five-card subsets, and the five cards
shown must be the first best subset in ``itertools.combinations`` order. Exhaustive over every
rank multiset of seven cards without a flush and every seven-card high hand with five or more
hearts against two fixed off-suit cards; hypothesis for the rest (every ranking, wild cards, the
joker, six to nine cards).
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import (
    DECK_32,
    DECK_53,
    JOKER,
    ONE_EYED_JACKS_AND_KING,
    Card,
    cards_of_rank,
    parse_cards,
)
from engine.hands import HandValue, Ranking, evaluate

FAST_RANKINGS = [Ranking.HIGH, Ranking.ACE_TO_FIVE, Ranking.DEUCE_TO_SEVEN, Ranking.ACE_TO_SIX]
SUITS = "cdhs"


def best_of_fives(cards: tuple[Card, ...], ranking: Ranking, wild: frozenset[Card]) -> HandValue:
    """The five-card evaluator's answer: the first best five, in combinations order."""
    best: HandValue | None = None
    for five in combinations(cards, 5):
        value = evaluate(five, ranking, wild=wild)
        if best is None or value > best:
            best = value
    assert best is not None
    return best


def assert_agrees(cards: tuple[Card, ...], ranking: Ranking, wild: frozenset[Card]) -> None:
    value = evaluate(cards, ranking, wild=wild)
    expected = best_of_fives(cards, ranking, wild)
    assert value.score == expected.score, (cards, value, expected)
    assert value == expected
    assert value.cards == expected.cards
    assert value.name == expected.name


def off_suit(ranks: tuple[int, ...]) -> tuple[Card, ...]:
    """Cards of these ranks, each on the least used suit its rank has not taken yet: seven
    cards never hold five of a suit."""
    used = dict.fromkeys(SUITS, 0)
    taken: dict[int, set[str]] = {}
    cards = []
    for rank in ranks:
        free = [suit for suit in SUITS if suit not in taken.setdefault(rank, set())]
        suit = min(free, key=lambda s: used[s])
        taken[rank].add(suit)
        used[suit] += 1
        cards.append(Card(rank, suit))
    return tuple(cards)


def rank_multisets(size: int) -> list[tuple[int, ...]]:
    return [
        pattern
        for pattern in combinations_with_replacement(range(2, 15), size)
        if all(pattern.count(rank) <= 4 for rank in set(pattern))
    ]


def test_every_rank_multiset_of_seven_cards() -> None:
    patterns = rank_multisets(7)
    assert len(patterns) == 49_205
    for ranking in FAST_RANKINGS:
        for pattern in patterns:
            cards = off_suit(pattern)
            value = evaluate(cards, ranking)
            expected = max(evaluate(five, ranking).score for five in combinations(cards, 5))
            assert value.score == expected, (ranking, cards)


@pytest.mark.parametrize("ranking", [Ranking.HIGH, Ranking.DEUCE_TO_SEVEN, Ranking.ACE_TO_SIX])
def test_every_heart_flush_of_seven_cards(ranking: Ranking) -> None:
    """Five, six or seven hearts (with the rest off-suit: a pair-maker and a straight-maker)."""
    fillers = {5: (Card(9, "s"), Card(9, "c")), 6: (Card(5, "c"),), 7: ()}
    for count, filler in fillers.items():
        for ranks in combinations(range(2, 15), count):
            cards = (*(Card(rank, "h") for rank in ranks), *filler)
            expected = max(evaluate(five, ranking).score for five in combinations(cards, 5))
            assert evaluate(cards, ranking).score == expected, (ranking, cards)


def wild_sets(ranking: Ranking) -> list[frozenset[Card]]:
    if ranking is Ranking.STRIPPED_HIGH:
        return [frozenset(), cards_of_rank(7, DECK_32), frozenset({JOKER})]
    return [
        frozenset(),
        cards_of_rank(2),
        ONE_EYED_JACKS_AND_KING,
        frozenset({JOKER}),
        cards_of_rank(9) | {JOKER},
    ]


@st.composite
def large_deals(
    draw: st.DrawFn, ranking: Ranking | None = None
) -> tuple[tuple[Card, ...], Ranking, frozenset[Card]]:
    chosen = draw(st.sampled_from(list(Ranking))) if ranking is None else ranking
    deck = (*DECK_32, JOKER) if chosen is Ranking.STRIPPED_HIGH else DECK_53
    size = draw(st.integers(6, 9))
    if draw(st.booleans()):
        # Lean on one suit, so that flushes (and hands just short of one) come often.
        suit = draw(st.sampled_from(SUITS))
        suited = [card for card in deck if card.suit == suit]
        many = draw(st.integers(3, min(size, len(suited))))
        cards = draw(st.lists(st.sampled_from(suited), min_size=many, max_size=many, unique=True))
        rest = [card for card in deck if card not in cards]
        cards += draw(
            st.lists(st.sampled_from(rest), min_size=size - many, max_size=size - many, unique=True)
        )
    else:
        cards = draw(st.lists(st.sampled_from(deck), min_size=size, max_size=size, unique=True))
    order = draw(st.permutations(cards))
    wild = draw(st.sampled_from(wild_sets(chosen)))
    return tuple(order), chosen, wild


@settings(deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(large_deals())
def test_large_hands_agree_with_the_five_card_evaluator(
    deal: tuple[tuple[Card, ...], Ranking, frozenset[Card]],
) -> None:
    cards, ranking, wild = deal
    assert_agrees(cards, ranking, wild)


_NON_DEUCES = [card for card in DECK_53 if card.rank != 2]


@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 4).flatmap(
        lambda deuces: st.tuples(
            st.just(deuces),
            st.lists(
                st.sampled_from(_NON_DEUCES), min_size=7 - deuces, max_size=7 - deuces, unique=True
            ),
        )
    )
)
def test_many_deuces_in_seven_cards(deal: tuple[int, list[Card]]) -> None:
    """Up to four wild deuces (and the joker as the bug) in a seven-card high hand."""
    deuces, rest = deal
    wild = cards_of_rank(2)
    assert_agrees((*sorted(wild)[:deuces], *rest), Ranking.HIGH, wild)


def test_the_bug_completes_a_flush_among_seven() -> None:
    cards = parse_cards("JK Ah 9h 6h 3h Ks Kc")
    value = evaluate(cards, Ranking.HIGH)
    assert value.name == "Flush, ace high"
    assert [str(item) for item in value.cards] == ["Ah", "JK=Kh", "9h", "6h", "3h"]


def test_a_deuce_to_seven_low_avoids_the_flush_among_seven() -> None:
    cards = (*(Card(rank, "d") for rank in (7, 5, 4, 3, 2)), Card(8, "c"), Card(13, "s"))
    value = evaluate(cards, Ranking.DEUCE_TO_SEVEN)
    assert value.name == "Eight-five low"
    assert Card(8, "c") in {item.card for item in value.cards}


def test_errors_are_those_of_the_general_path() -> None:
    ace = Card(14, "s")
    with pytest.raises(ValueError, match="appears twice"):
        evaluate((ace, ace, *DECK_53[:5]), Ranking.HIGH)
    with pytest.raises(TypeError, match="hands hold cards"):
        evaluate((ace, "Kd", *DECK_53[:5]), Ranking.HIGH)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="3 to 9 cards"):
        evaluate(DECK_53[:10], Ranking.HIGH)
