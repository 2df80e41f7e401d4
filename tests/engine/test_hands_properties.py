"""Property tests (hypothesis): order, input order, best-of-N, wild cards vs brute force."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import (
    DECK_32,
    DECK_52,
    DECK_53,
    JOKER,
    ONE_EYED_JACKS_AND_KING,
    Card,
    cards_of_rank,
)
from engine.hands import Category, Ranking, evaluate
from tests.engine import reference

RANKINGS = list(Ranking)
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def deck_for(ranking: Ranking) -> tuple[Card, ...]:
    return (*DECK_32, JOKER) if ranking is Ranking.STRIPPED_HIGH else DECK_53


def wild_choices(ranking: Ranking) -> list[frozenset[Card]]:
    if ranking is Ranking.STRIPPED_HIGH:
        return [frozenset(), cards_of_rank(7, DECK_32), frozenset({JOKER}), cards_of_rank(12)]
    return [
        frozenset(),
        cards_of_rank(2),
        ONE_EYED_JACKS_AND_KING,
        frozenset({JOKER}),
        cards_of_rank(9) | {JOKER},
    ]


@st.composite
def deals(
    draw: st.DrawFn, min_size: int = 5, max_size: int = 9, ranking: Ranking | None = None
) -> tuple[tuple[Card, ...], Ranking, frozenset[Card]]:
    """Cards, a ranking and a wild set (possibly empty)."""
    chosen = draw(st.sampled_from(RANKINGS)) if ranking is None else ranking
    deck = deck_for(chosen)
    cards = draw(st.lists(st.sampled_from(deck), min_size=min_size, max_size=max_size, unique=True))
    wild = draw(st.sampled_from(wild_choices(chosen)))
    return tuple(cards), chosen, wild


def sign(x: Any, y: Any) -> int:
    return int(x > y) - int(x < y)


@SETTINGS
@given(deals(), st.randoms(use_true_random=False))
def test_input_order_never_matters(
    deal: tuple[tuple[Card, ...], Ranking, frozenset[Card]], rng: object
) -> None:
    cards, ranking, wild = deal
    value = evaluate(cards, ranking, wild=wild)
    shuffled = list(cards)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    again = evaluate(shuffled, ranking, wild=wild)
    assert again == value
    assert hash(again) == hash(value)
    assert again.name == value.name
    assert again.category is value.category


@SETTINGS
@given(deals())
def test_played_cards_are_worth_the_value(
    deal: tuple[tuple[Card, ...], Ranking, frozenset[Card]],
) -> None:
    """The five cards "as they play" are a real hand with exactly this value."""
    cards, ranking, wild = deal
    value = evaluate(cards, ranking, wild=wild)
    assert len(value.cards) == 5
    held = [item.card for item in value.cards]
    assert len(set(held)) == 5
    assert set(held) <= set(cards)
    for item in value.cards:
        substitute = item.card in wild or item.card.is_joker
        assert item.is_substitute == (substitute and item.plays_as is not item.card)
        if not substitute:
            assert item.plays_as is item.card
        assert not item.plays_as.is_joker
    plays_as = tuple(item.plays_as for item in value.cards)
    if value.category is Category.FIVE_OF_A_KIND:
        assert len({card.rank for card in plays_as}) == 1
    else:
        assert len(set(plays_as)) == 5  # never a card the hand holds
        assert evaluate(plays_as, ranking) == value


@SETTINGS
@given(st.sampled_from(RANKINGS), st.data())
def test_total_order(ranking: Ranking, data: st.DataObject) -> None:
    values = [
        evaluate(data.draw(deals(ranking=ranking))[0], ranking, wild=wild)
        for wild in data.draw(
            st.lists(st.sampled_from(wild_choices(ranking)), min_size=3, max_size=3)
        )
    ]
    a, b, c = values
    for x, y in ((a, b), (b, c), (a, c)):
        assert [x < y, x == y, x > y].count(True) == 1
        assert (x <= y) == (x < y or x == y)
        assert (x >= y) == (x > y or x == y)
        assert (x != y) == (not x == y)  # noqa: SIM201
        if x == y:
            assert hash(x) == hash(y)
            assert x.name == y.name
    if a <= b <= c:
        assert a <= c
    if a >= b >= c:
        assert a >= c
    assert sorted(values, key=lambda v: v.score) == sorted(values)


@SETTINGS
@given(deals(min_size=6, max_size=9))
def test_best_of_n_is_the_best_five(
    deal: tuple[tuple[Card, ...], Ranking, frozenset[Card]],
) -> None:
    cards, ranking, wild = deal
    value = evaluate(cards, ranking, wild=wild)
    fives = [evaluate(five, ranking, wild=wild) for five in combinations(cards, 5)]
    assert value == max(fives)
    assert any(five == value for five in fives)
    best_cards = {item.card for item in value.cards}
    assert evaluate(tuple(best_cards), ranking, wild=wild) == value


def _agree_with_reference(
    hands: list[tuple[Card, ...]], ranking: Ranking, wild: frozenset[Card]
) -> None:
    ours = [evaluate(hand, ranking, wild=wild) for hand in hands]
    theirs = [reference.best_key(hand, ranking, wild) for hand in hands]
    for value, (category, _) in zip(ours, theirs, strict=True):
        assert value.category is category, (value, category)
    for i, j in combinations(range(len(hands)), 2):
        assert sign(ours[i], ours[j]) == sign(theirs[i][1], theirs[j][1]), (ours[i], ours[j])


def _with_substitutes(
    ranking: Ranking, count: int, wild: frozenset[Card], size: int = 5
) -> st.SearchStrategy[tuple[Card, ...]]:
    """Hands of ``size`` cards holding exactly ``count`` wild cards or jokers."""
    deck = deck_for(ranking)
    substitutes = sorted(card for card in deck if card in wild or card.is_joker)
    naturals = [card for card in deck if card not in substitutes]
    count = min(count, len(substitutes))
    return st.tuples(
        st.lists(st.sampled_from(substitutes), min_size=count, max_size=count, unique=True),
        st.lists(
            st.sampled_from(naturals), min_size=size - count, max_size=size - count, unique=True
        ),
    ).map(lambda parts: (*parts[0], *parts[1]))


@settings(SETTINGS, max_examples=150)
@given(st.sampled_from(RANKINGS), st.integers(0, 2), st.data())
def test_wild_hands_equal_the_best_legal_substitution(
    ranking: Ranking, count: int, data: st.DataObject
) -> None:
    wild = data.draw(st.sampled_from(wild_choices(ranking)))
    hands = data.draw(st.lists(_with_substitutes(ranking, count, wild), min_size=3, max_size=3))
    _agree_with_reference(hands, ranking, wild)


@settings(SETTINGS, max_examples=8)
@given(st.sampled_from(RANKINGS), st.data())
def test_three_substitutes_equal_the_best_legal_substitution(
    ranking: Ranking, data: st.DataObject
) -> None:
    wild = cards_of_rank(7, DECK_32) if ranking is Ranking.STRIPPED_HIGH else cards_of_rank(2)
    hands = data.draw(st.lists(_with_substitutes(ranking, 3, wild), min_size=2, max_size=2))
    _agree_with_reference(hands, ranking, wild)


@settings(SETTINGS, max_examples=15)
@given(st.sampled_from(RANKINGS), st.integers(0, 2), st.data())
def test_six_card_wild_hands_equal_the_reference(
    ranking: Ranking, count: int, data: st.DataObject
) -> None:
    wild = data.draw(st.sampled_from(wild_choices(ranking)))
    hands = data.draw(
        st.lists(_with_substitutes(ranking, min(count, 1), wild, size=6), min_size=2, max_size=2)
    )
    _agree_with_reference(hands, ranking, wild)


@settings(SETTINGS, max_examples=300)
@given(st.sampled_from(RANKINGS), st.data())
def test_natural_hands_match_the_reference(ranking: Ranking, data: st.DataObject) -> None:
    deck = DECK_32 if ranking is Ranking.STRIPPED_HIGH else DECK_52
    hands = data.draw(
        st.lists(
            st.lists(st.sampled_from(deck), min_size=5, max_size=5, unique=True).map(tuple),
            min_size=4,
            max_size=4,
        )
    )
    _agree_with_reference(hands, ranking, frozenset())


FOUR_DEUCES_LOWS = {
    Ranking.ACE_TO_FIVE: {
        "Kh": "King-four low",
        "7h": "Seven-four low",
        "5h": "Five-four low",
        "Ah": "Five-four low",
        "JK": "Five-four low",
    },
    Ranking.DEUCE_TO_SEVEN: {
        "Kh": "King-five low",
        "Ah": "Ace-five low",
        "8h": "Eight-five low",
        "7h": "Seven-five low",
        "6h": "Seven-six low",
        "3h": "Seven-five low",
        "JK": "Seven-five low",
    },
    Ranking.ACE_TO_SIX: {
        "Kh": "King-four low",
        "6h": "Six-four low",
        "5h": "Six-five low",
        "4h": "Six-four low",
        "Ah": "Six-four low",
        "JK": "Six-four low",
    },
}


def test_four_wild_deuces_with_every_fifth_card() -> None:
    deuces = cards_of_rank(2)
    hands = [(*sorted(deuces), card) for card in DECK_53 if card.rank != 2]
    for hand in hands:
        value = evaluate(hand, Ranking.HIGH, wild=deuces)
        rank = 14 if hand[-1].is_joker else hand[-1].rank
        assert value.category is Category.FIVE_OF_A_KIND
        assert value.ranks == (rank,) * 5
        for ranking in FOUR_DEUCES_LOWS:
            low = evaluate(hand, ranking, wild=deuces)
            assert low.category is Category.HIGH_CARD
            expected = FOUR_DEUCES_LOWS[ranking].get(str(hand[-1]))
            if expected is not None:
                assert low.name == expected
    assert evaluate(hands[0], Ranking.HIGH, wild=deuces) < evaluate(
        hands[-2], Ranking.HIGH, wild=deuces
    )
