"""A shown hand arranged by what makes it (engine/arrange.py): every category of every ranking
by example, and for any hand (hypothesis) a permutation whose playing cards spell the value."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.arrange import arrange, arrange_cards, rank_order
from engine.cards import (
    DECK_32,
    DECK_53,
    JOKER,
    ONE_EYED_JACKS_AND_KING,
    Card,
    cards_of_rank,
    parse_cards,
)
from engine.hands import Category, Ranking, evaluate

R = Ranking
C = Category
DEUCES = cards_of_rank(2)

# (ranking, hand as dealt, wild cards, playing cards in order | idle cards, category)
EXAMPLES = [
    (R.HIGH, "3d Kc 9h 7s 2c Jd 5h", frozenset(), "Kc Jd 9h 7s 5h | 3d 2c", C.HIGH_CARD),
    (R.HIGH, "Qd 7c 4h 7s 9h", frozenset(), "7c 7s Qd 9h 4h |", C.PAIR),
    (R.HIGH, "4h 9c Qd 4s 9h Ac", frozenset(), "9h 9c 4h 4s Ac | Qd", C.TWO_PAIR),
    (R.HIGH, "8c Kd 8h 2s 8d", frozenset(), "8h 8d 8c Kd 2s |", C.THREE_OF_A_KIND),
    (R.HIGH, "9c Td 6h 7s 8d Ks Kh", frozenset(), "Td 9c 8d 7s 6h | Ks Kh", C.STRAIGHT),
    (R.HIGH, "3c Ad 5h 2s 4d", frozenset(), "5h 4d 3c 2s Ad |", C.STRAIGHT),
    (R.HIGH, "3h Jh 9h Kh 6h 2c", frozenset(), "Kh Jh 9h 6h 3h | 2c", C.FLUSH),
    (R.HIGH, "5c 9d 5h 9s 5d", frozenset(), "5h 5d 5c 9d 9s |", C.FULL_HOUSE),
    (R.HIGH, "Ac 7d 7h 7s 7c", frozenset(), "7h 7d 7c 7s Ac |", C.FOUR_OF_A_KIND),
    (R.HIGH, "7s 4s 6s 3s 5s Ah", frozenset(), "7s 6s 5s 4s 3s | Ah", C.STRAIGHT_FLUSH),
    (R.HIGH, "2c Ks 2d Kh Kd", DEUCES, "Kh Kd Ks 2c=Kc 2d=Kh |", C.FIVE_OF_A_KIND),
    (R.HIGH, "Ah Th 9h 8h JK", frozenset(), "Ah JK=Kh Th 9h 8h |", C.FLUSH),
    (R.HIGH, "Qh 2c 9s 8d", frozenset(), "Qh 9s 8d 2c |", C.HIGH_CARD),
    (R.STRIPPED_HIGH, "9h Ac 8d Ts 7c", frozenset(), "Ts 9h 8d 7c Ac |", C.STRAIGHT),
    (R.STRIPPED_HIGH, "Jh 9h Qh 7h 8h Ks", frozenset(), "Qh Jh 9h 8h 7h | Ks", C.FLUSH),
    (R.STRIPPED_HIGH, "Kh 7c Kd 7s Kc", frozenset(), "Kh Kd Kc 7c 7s |", C.FULL_HOUSE),
    (R.ACE_TO_FIVE, "2s Ah 9c 5d 3h 4c Kd", frozenset(), "5d 4c 3h 2s Ah | Kd 9c", C.HIGH_CARD),
    (R.ACE_TO_FIVE, "8s 4h 8c Ad 6c", frozenset(), "8c 8s 6c 4h Ad |", C.PAIR),
    (R.ACE_TO_FIVE, "Ks Kd Kc Qh Qs", frozenset(), "Kd Kc Ks Qh Qs |", C.FULL_HOUSE),
    (R.ACE_TO_FIVE, "7h 3h JK 5c 2d", frozenset(), "7h 5c 3h 2d JK=Ah |", C.HIGH_CARD),
    (R.ACE_TO_FIVE, "9c 3d Ah 5s 3c Ad 9h", frozenset(), "Ah Ad 9c 5s 3d | 9h 3c", C.PAIR),
    (R.DEUCE_TO_SEVEN, "4c 7d 2h 5s 3c", frozenset(), "7d 5s 4c 3c 2h |", C.HIGH_CARD),
    (R.DEUCE_TO_SEVEN, "Ad 2h 3c 4s 5c", frozenset(), "Ad 5c 4s 3c 2h |", C.HIGH_CARD),
    (R.DEUCE_TO_SEVEN, "6s 3s 8s 2s 4s", frozenset(), "8s 6s 4s 3s 2s |", C.FLUSH),
    (R.DEUCE_TO_SEVEN, "6s 3d 5h 4c 7c", frozenset(), "7c 6s 5h 4c 3d |", C.STRAIGHT),
    (R.DEUCE_TO_SEVEN, "9s 3d 9h 4c 3c", frozenset(), "9h 9s 3d 3c 4c |", C.TWO_PAIR),
    (R.ACE_TO_SIX, "4c 6d Ah 2s 3c", frozenset(), "6d 4c 3c 2s Ah |", C.HIGH_CARD),
    (R.ACE_TO_SIX, "4c 5d Ah 2s 3c", frozenset(), "5d 4c 3c 2s Ah |", C.STRAIGHT),
    (R.ACE_TO_SIX, "Kc Qd Ah Js Tc", frozenset(), "Kc Qd Js Tc Ah |", C.HIGH_CARD),
    (R.ACE_TO_SIX, "Tc Td Th 3s 3c", frozenset(), "Th Td Tc 3c 3s |", C.FULL_HOUSE),
]


@pytest.mark.parametrize(("ranking", "hand", "wild", "expected", "category"), EXAMPLES)
def test_examples(
    ranking: Ranking, hand: str, wild: frozenset[Card], expected: str, category: Category
) -> None:
    shown = arrange_cards(parse_cards(hand), ranking, wild=wild)
    playing, idle = (part.split() for part in expected.split("|"))
    assert [str(card) for card in shown.playing] == playing
    assert [str(card) for card in shown.idle] == idle
    assert shown.value.category is category
    assert [card.wild for card in shown.playing] == ["=" in text for text in playing]


def test_a_value_made_of_other_cards_is_refused() -> None:
    value = evaluate(parse_cards("Ah Kh Qh Jh Th"), R.HIGH)
    with pytest.raises(ValueError, match="not in the hand"):
        arrange(parse_cards("Ah Kh Qh Jh 9h"), value)


def _deck(ranking: Ranking) -> tuple[Card, ...]:
    return (*DECK_32, JOKER) if ranking is R.STRIPPED_HIGH else DECK_53


def _wilds(ranking: Ranking) -> list[frozenset[Card]]:
    if ranking is R.STRIPPED_HIGH:
        return [frozenset(), cards_of_rank(7, DECK_32), frozenset({JOKER})]
    return [frozenset(), DEUCES, ONE_EYED_JACKS_AND_KING, frozenset({JOKER})]


@st.composite
def shown_hands(draw: st.DrawFn) -> tuple[Ranking, tuple[Card, ...], frozenset[Card]]:
    ranking = draw(st.sampled_from(list(R)))
    smallest = 5 if ranking is R.STRIPPED_HIGH else 3
    size = draw(st.integers(smallest, 7))
    deck = _deck(ranking)
    cards = draw(st.lists(st.sampled_from(deck), min_size=size, max_size=size, unique=True))
    return ranking, tuple(cards), draw(st.sampled_from(_wilds(ranking)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shown_hands())
def test_an_arrangement_reads_as_the_value(
    case: tuple[Ranking, tuple[Card, ...], frozenset[Card]],
) -> None:
    ranking, cards, wild = case
    shown = arrange_cards(cards, ranking, wild=wild)
    value = shown.value
    # Every card shown once, nothing added, nothing lost.
    assert Counter(card.card for card in shown.cards) == Counter(cards)
    # The cards that play come first and spell the value's ranks in order.
    count = len(shown.playing)
    assert count == value.size
    assert all(card.plays for card in shown.cards[:count])
    played = [card.plays_as for card in shown.playing]
    assert tuple(card.rank for card in played if card is not None) == value.ranks
    # A card marked wild is one of the stand-ins the game allows.
    assert all(card.card in wild or card.card is JOKER for card in shown.cards if card.wild)
    # The cards that do not play follow, highest first under the ranking.
    order = [rank_order(card.card, ranking) for card in shown.idle]
    assert order == sorted(order, reverse=True)
    # Without pairs a hand reads from its highest card down (the wheel's ace low).
    if value.category in (C.HIGH_CARD, C.FLUSH) and not wild:
        ranks = [rank_order(card, ranking) for card in played if card is not None]
        assert ranks == sorted(ranks, reverse=True)
    if value.category in (C.STRAIGHT, C.STRAIGHT_FLUSH):
        top = played[0]
        assert top is not None and top.rank == value.ranks[0]


# One hand of each category, for the full deck and for the 32-card deck; five of a kind needs
# a wild card (deuces wild; sevens wild in the 32-card deck).
CATEGORY_HANDS = {
    C.HIGH_CARD: ("Kc 9d 7h 5s 4c", "Kc Qd Th 9s 8c"),
    C.PAIR: ("9c 5d 9h Ks 4c", "9c 8d 9h Ks Jc"),
    C.TWO_PAIR: ("4c 9d 4h 9s Kc", "8c Jd 8h Js Kc"),
    C.THREE_OF_A_KIND: ("6c Kd 6h 4s 6d", "9c Kd 9h 8s 9d"),
    C.STRAIGHT: ("8c 6d 9h 7s 5c", "Jc 9d Qh Ts 8c"),
    C.FLUSH: ("Kh 3h 9h 7h 4h", "Ah 7h Jh 9h 8h"),
    C.FULL_HOUSE: ("5c 9d 5h 9s 5d", "Tc 8d Th 8s Td"),
    C.FOUR_OF_A_KIND: ("Jc 4d Jh Js Jd", "Jc 8d Jh Js Jd"),
    C.STRAIGHT_FLUSH: ("6s 4s 7s 3s 5s", "Ts 8s Js 7s 9s"),
    C.FIVE_OF_A_KIND: ("2c Ks 2d Kh Kd", "7c Ks 7d Kh Kd"),
}
NO_RUNS = {C.STRAIGHT, C.FLUSH, C.STRAIGHT_FLUSH}


@pytest.mark.parametrize("ranking", list(R))
@pytest.mark.parametrize("category", list(C))
def test_every_category_of_every_ranking(ranking: Ranking, category: Category) -> None:
    if ranking is R.ACE_TO_FIVE and category in NO_RUNS:
        pytest.skip("ace-to-five has no straights or flushes")
    if ranking.is_low and category is C.FIVE_OF_A_KIND:
        pytest.skip("a wild card never makes five of a kind for a low")
    stripped = ranking is R.STRIPPED_HIGH
    hand = parse_cards(CATEGORY_HANDS[category][stripped])
    wild: frozenset[Card] = frozenset()
    if category is C.FIVE_OF_A_KIND:
        wild = cards_of_rank(7, DECK_32) if stripped else DEUCES
    # One or two more cards that leave the value as it is, where there are some: they must be
    # set apart, after the five, as a six- or seven-card hand shows them.
    alone = evaluate(hand, ranking, wild=wild)
    held = {card.rank for card in hand}
    fitting = (
        pair
        for size in (2, 1)
        for pair in combinations(_deck(ranking)[:-1], size)
        if len({card.rank for card in pair}) == size
        and not {card.rank for card in pair} & held
        and not set(pair) & wild
        and evaluate((*pair, *hand), ranking, wild=wild) == alone
    )
    extra = next(fitting, ())  # a low is improved by any card below its top card
    assert extra or ranking.is_low
    shown = arrange_cards((*extra, *hand), ranking, wild=wild)
    assert shown.value.category is category
    assert Counter(item.card for item in shown.cards) == Counter((*extra, *hand))
    ranks = tuple(item.plays_as.rank for item in shown.playing if item.plays_as is not None)
    assert ranks == shown.value.ranks
    assert len(shown.idle) == len(extra)
    assert sorted(map(str, (item.card for item in shown.idle))) == sorted(map(str, extra))
