"""engine.odds against brute force: every replacement set enumerated and evaluated."""

from __future__ import annotations

import doctest
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.odds
from engine.cards import (
    DECK_32,
    DECK_52,
    DECK_53,
    JOKER,
    ONE_EYED_JACKS,
    ONE_EYED_JACKS_AND_KING,
    Card,
    cards_of_rank,
    parse_cards,
)
from engine.hands import Ranking, evaluate, low_qualifies
from engine.odds import DrawOdds, best_draws, discard_strengths, draw_odds
from engine.rules import DeckKind

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
LOW_RANKINGS = [Ranking.ACE_TO_FIVE, Ranking.DEUCE_TO_SEVEN, Ranking.ACE_TO_SIX]


def decks_for(ranking: Ranking) -> list[tuple[Card, ...]]:
    if ranking is Ranking.STRIPPED_HIGH:
        return [DECK_32, (*DECK_32, JOKER)]
    return [DECK_52, DECK_53]


def wilds_for(ranking: Ranking) -> list[frozenset[Card]]:
    if ranking is Ranking.STRIPPED_HIGH:
        return [frozenset(), cards_of_rank(7, DECK_32), ONE_EYED_JACKS, frozenset({JOKER})]
    return [
        frozenset(),
        cards_of_rank(2),
        ONE_EYED_JACKS_AND_KING,
        frozenset({JOKER}),
        cards_of_rank(9) | {JOKER},
    ]


def brute(
    hand: tuple[Card, ...],
    discard: tuple[Card, ...],
    ranking: Ranking,
    wild: frozenset[Card],
    dead: tuple[Card, ...],
    deck: tuple[Card, ...],
) -> Counter[int]:
    """The score of every replacement set, counted one by one."""
    kept = tuple(card for card in hand if card not in discard)
    unseen = [card for card in deck if card not in hand and card not in dead]
    tally: Counter[int] = Counter()
    for drawn in combinations(unseen, len(discard)):
        tally[evaluate((*kept, *drawn), ranking, wild=wild).score] += 1
    return tally


def counted(odds: DrawOdds) -> Counter[int]:
    return Counter({value.score: count for value, count in odds.outcomes})


@st.composite
def deals(
    draw: st.DrawFn, ranking: Ranking
) -> tuple[tuple[Card, ...], tuple[Card, ...], frozenset[Card], tuple[Card, ...], tuple[Card, ...]]:
    """A hand, a discard, wild cards, dead cards and a deck, with few enough
    unseen cards left that brute force stays cheap."""
    deck = draw(st.sampled_from(decks_for(ranking)))
    wild = draw(st.sampled_from(wilds_for(ranking)))
    order = draw(st.permutations(deck))
    hand = tuple(order[:5])
    discard = tuple(draw(st.lists(st.sampled_from(hand), max_size=5, unique=True)))
    unseen = draw(
        st.integers(min_value=len(discard), max_value={0: 40, 1: 40, 2: 30}.get(len(discard), 18))
    )
    unseen = min(unseen, len(deck) - 5)
    dead = tuple(order[5 : len(deck) - unseen])
    return hand, discard, wild, dead, deck


# ---------------------------------------------------------------------------
# Exact agreement with brute force
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("ranking", list(Ranking))
@settings(SETTINGS, max_examples=40)
@given(data=st.data())
def test_counts_equal_brute_force(ranking: Ranking, data: st.DataObject) -> None:
    hand, discard, wild, dead, deck = data.draw(deals(ranking))
    odds = draw_odds(hand, discard, ranking, wild=wild, dead=dead, deck=deck)
    expected = brute(hand, discard, ranking, wild, dead, deck)
    assert counted(odds) == expected
    assert odds.draws == comb(len(deck) - 5 - len(dead), len(discard))
    target = data.draw(st.lists(st.sampled_from(deck), min_size=5, max_size=5, unique=True))
    value = evaluate(target, ranking, wild=wild)
    assert odds.against(target) == (
        sum(count for score, count in expected.items() if score > value.score),
        expected[value.score],
        sum(count for score, count in expected.items() if score < value.score),
    )
    if ranking.is_low and len(discard) <= 2:
        kept = tuple(card for card in hand if card not in discard)
        unseen = [card for card in deck if card not in hand and card not in dead]
        for top in (7, 8, 9):
            assert odds.low_or_better(top) == sum(
                1
                for drawn in combinations(unseen, len(discard))
                if low_qualifies(evaluate((*kept, *drawn), ranking, wild=wild), top)
            )


@pytest.mark.parametrize("ranking", list(Ranking))
@settings(SETTINGS, max_examples=15)
@given(data=st.data())
def test_discard_strengths_agree_with_best_draws(ranking: Ranking, data: st.DataObject) -> None:
    """The strengths summed group by group, without the count by value, are those of the
    full odds, discard for discard and in the same order, in a high-low game for both halves."""
    hand, _, wild, dead, deck = data.draw(deals(ranking))
    low = data.draw(st.sampled_from([None, *LOW_RANKINGS]))
    qualifier = data.draw(st.sampled_from([None, 8])) if low is not None else None
    most = data.draw(st.integers(min_value=0, max_value=5))
    game: dict[str, Any] = {
        "wild": wild,
        "dead": dead,
        "deck": deck,
        "max_discard": most,
        "low": low,
        "low_qualifier": qualifier,
    }
    found = discard_strengths(hand, ranking, **game)
    full = best_draws(hand, ranking, **game)
    assert [discard for discard, _, _ in found] == [discard for discard, _ in full]
    for (_, high, low_strength), (_, odds) in zip(found, full, strict=True):
        assert high == odds.strength
        assert low_strength == (None if odds.low is None else odds.low.strength)


FIXED = {
    Ranking.HIGH: "Ah Kh Qh Jh 2c",
    Ranking.STRIPPED_HIGH: "Ah Th 9h 8s 8d",
    Ranking.ACE_TO_FIVE: "As 2d 3c 4h 4d",
    Ranking.DEUCE_TO_SEVEN: "7s 5d 4c 2h Kd",
    Ranking.ACE_TO_SIX: "6h 4h 3h 2h Ad",
}


@pytest.mark.parametrize("wild_index", [0, 1])
@pytest.mark.parametrize("ranking", list(Ranking))
def test_every_discard_of_a_fixed_hand(ranking: Ranking, wild_index: int) -> None:
    """All 32 discards of one hand per ranking, each against brute force (with
    dead cards, so that the unseen cards number 22, or 17 in the short deck)."""
    hand = parse_cards(FIXED[ranking])
    deck = DECK_32 if ranking is Ranking.STRIPPED_HIGH else DECK_53
    wild = wilds_for(ranking)[wild_index]
    rest = [card for card in deck if card not in hand]
    random.Random(19).shuffle(rest)
    dead = tuple(rest[: len(rest) - (17 if ranking is Ranking.STRIPPED_HIGH else 22)])
    found = best_draws(hand, ranking, wild=wild, dead=dead, deck=deck)
    assert len(found) == 32
    assert len({discard for discard, _ in found}) == 32
    for discard, odds in found:
        assert odds.discard == discard
        assert counted(odds) == brute(hand, discard, ranking, wild, dead, deck)


def test_full_deck_small_discards_against_brute_force() -> None:
    """No dead cards at all: the 52-card deck with up to three cards drawn."""
    hand = parse_cards("Jc Jd 9h 4s 2c")
    wild = cards_of_rank(2)
    for discard in (parse_cards("4s"), parse_cards("9h 4s"), parse_cards("9h 4s 2c")):
        odds = draw_odds(hand, discard, Ranking.HIGH, wild=wild)
        assert counted(odds) == brute(hand, discard, Ranking.HIGH, wild, (), DECK_52)


# ---------------------------------------------------------------------------
# What the counts mean
# ---------------------------------------------------------------------------


def test_royal_draw_by_hand() -> None:
    hand = parse_cards("Ah Kh Qh Jh 2c")
    odds = draw_odds(hand, parse_cards("2c"), Ranking.HIGH)
    # One ten of hearts, eight other hearts, three other tens, twelve pairing cards.
    assert odds.categories == {
        "straight flush": 1,
        "flush": 8,
        "straight": 3,
        "pair": 12,
        "high card": 23,
    }
    assert odds.against(parse_cards("Ks Kd 7c 7d 3s")) == (12, 0, 35)
    assert odds.improves == 45  # all but the two deuces left, which tie
    assert odds.chance(odds.improves) == Fraction(45, 47)
    assert odds.kept == parse_cards("Ah Kh Qh Jh")
    assert odds.current == evaluate(hand, Ranking.HIGH)


def test_against_sums_to_draws_and_value_target() -> None:
    hand = parse_cards("9s 9d 5c 3h 2d")
    odds = draw_odds(hand, parse_cards("5c 3h 2d"), Ranking.HIGH)
    target = parse_cards("Ts Td 4c 3d 2s")
    better, tie, worse = odds.against(target)
    assert better + tie + worse == odds.draws == comb(47, 3)
    assert odds.against(evaluate(target, Ranking.HIGH)) == (better, tie, worse)
    with pytest.raises(ValueError, match="ace-to-five"):
        odds.against(evaluate(target, Ranking.ACE_TO_FIVE))
    with pytest.raises(ValueError, match="five cards, not 4"):
        odds.against(target[:4])
    with pytest.raises(ValueError, match="high-low"):
        best_draws(
            hand, Ranking.HIGH, against=evaluate(target, Ranking.HIGH), low=Ranking.ACE_TO_FIVE
        )


def test_lowball_labels_and_low_or_better() -> None:
    odds = draw_odds(parse_cards("7s 5d 4c 2h Kd"), parse_cards("Kd"), Ranking.DEUCE_TO_SEVEN)
    assert odds.low_or_better(7) == 8  # a three or a six
    assert odds.low_or_better(8) == 12
    assert odds.categories["pair"] == 12
    assert sum(odds.categories.values()) == 47
    stand = draw_odds(parse_cards("As 2d 3c 4h 5d"), (), Ranking.ACE_TO_FIVE)
    assert stand.categories == {"5-low": 1}
    assert stand.draws == 1 and stand.improves == 0


@pytest.mark.parametrize("ranking", LOW_RANKINGS)
def test_low_or_better_matches_low_qualifies(ranking: Ranking) -> None:
    hand = parse_cards("8c 6d 4h 3s Kd")
    odds = draw_odds(hand, parse_cards("8c Kd"), ranking, wild=frozenset({JOKER}), deck=DECK_53)
    kept = parse_cards("6d 4h 3s")
    unseen = [card for card in DECK_53 if card not in hand]
    for top in (7, 8, 9):
        want = sum(
            1
            for drawn in combinations(unseen, 2)
            if low_qualifies(evaluate((*kept, *drawn), ranking, wild={JOKER}), top)
        )
        assert odds.low_or_better(top) == want


def test_low_or_better_needs_a_lowball_ranking() -> None:
    odds = draw_odds(parse_cards("7s 5d 4c 2h Kd"), (), Ranking.HIGH)
    with pytest.raises(ValueError, match="lowball"):
        odds.low_or_better(8)


def test_strength_against_every_hand_of_the_deck() -> None:
    total = comb(52, 5)
    royal = draw_odds(parse_cards("As Ks Qs Js Ts"), (), Ranking.HIGH)
    # Beats all but the four royal flushes, ties those (counted half).
    assert royal.strength == Fraction(2 * (total - 4) + 4, 2 * total)
    worst = draw_odds(parse_cards("7s 5d 4c 3h 2s"), (), Ranking.HIGH)
    assert worst.strength == Fraction(4**5 - 4, 2 * total)
    best_low = draw_odds(parse_cards("7s 5d 4c 3h 2s"), (), Ranking.DEUCE_TO_SEVEN)
    assert best_low.strength == Fraction(2 * (total - 1020) + 1020, 2 * total)


def test_reference_counts_every_high_category() -> None:
    """The counts behind strength: every five-card hand of the deck, by
    category, are the published figures."""
    every = engine.odds._Pool(Ranking.HIGH, frozenset(), DECK_52)
    tally = engine.odds._tally(every, engine.odds._Kept((), frozenset()), 5)
    values = engine.odds._VALUES[Ranking.HIGH]
    by_category: Counter[str] = Counter()
    for score, count in tally.items():
        by_category[values[score].category.name] += count
    assert by_category == {
        "STRAIGHT_FLUSH": 40,
        "FOUR_OF_A_KIND": 624,
        "FULL_HOUSE": 3744,
        "FLUSH": 5108,
        "STRAIGHT": 10200,
        "THREE_OF_A_KIND": 54912,
        "TWO_PAIR": 123552,
        "PAIR": 1098240,
        "HIGH_CARD": 1302540,
    }


# ---------------------------------------------------------------------------
# best_draws
# ---------------------------------------------------------------------------


def test_best_draws_orders_by_strength() -> None:
    hand = parse_cards("Ah Kh Qh Jh 2c")
    found = best_draws(hand, Ranking.HIGH)
    strengths = [odds.strength for _, odds in found]
    assert strengths == sorted(strengths, reverse=True)
    assert found[0][0] == parse_cards("2c")
    assert len(found) == 32


def test_best_draws_against_a_hand() -> None:
    hand = parse_cards("Ah Kh Qh Jh 2c")
    target = parse_cards("Ks Kd 7c 7d 3s")
    found = best_draws(hand, Ranking.HIGH, against=target)
    wins = [odds.against(target)[0] * Fraction(1, odds.draws) for _, odds in found]
    assert wins == sorted(wins, reverse=True)
    # Against two pair, the flush and straight draw wins most often: 12 of 47.
    assert found[0][0] == parse_cards("2c")
    assert found[0][1].chance(found[0][1].against(target)[0]) == Fraction(12, 47)
    value = evaluate(target, Ranking.HIGH)
    assert [d for d, _ in best_draws(hand, Ranking.HIGH, against=value)] == [d for d, _ in found]


def test_max_discard_and_ties_keep_fewer_cards_first() -> None:
    hand = parse_cards("As Ks Qs Js Ts")
    found = best_draws(hand, Ranking.HIGH, max_discard=1)
    assert [len(discard) for discard, _ in found] == [0, 1, 1, 1, 1, 1]
    assert found[0][0] == ()


def test_high_low_both_halves() -> None:
    hand = parse_cards("As 2d 3c Kh Kd")
    found = best_draws(
        hand, Ranking.HIGH, low=Ranking.ACE_TO_FIVE, low_qualifier=8, dead=parse_cards("4s 5s")
    )
    for discard, odds in found[:6]:
        assert odds.low is not None
        direct = draw_odds(hand, discard, Ranking.ACE_TO_FIVE, dead=parse_cards("4s 5s"))
        assert counted(odds.low) == counted(direct)
        assert odds.low.qualifier == 8
    merits = [odds.strength + odds.low.strength for _, odds in found if odds.low is not None]
    assert merits == sorted(merits, reverse=True)
    single = draw_odds(hand, parse_cards("Kh Kd"), Ranking.HIGH, low=Ranking.ACE_TO_FIVE)
    assert single.low is not None and single.low.draws == single.draws


def test_wild_best_draws_is_fast_enough_to_run_often() -> None:
    """Not a timing test: all 32 discards with wild cards, every one summing up."""
    hand = parse_cards("2c Kd Ks 7h 4c")
    for discard, odds in best_draws(
        hand, Ranking.HIGH, wild=cards_of_rank(2) | {JOKER}, deck=DeckKind.WITH_JOKER
    ):
        assert odds.draws == comb(48, len(discard))
        assert sum(odds.categories.values()) == odds.draws


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: draw_odds(parse_cards("As Ks Qs Js"), (), Ranking.HIGH), "five cards"),
        (
            lambda: draw_odds(parse_cards("As Ks Qs Js Ts"), parse_cards("2c"), Ranking.HIGH),
            "not in the hand",
        ),
        (lambda: draw_odds(parse_cards("As Ks Qs Js JK"), (), Ranking.HIGH), "not in the deck"),
        (
            lambda: draw_odds(
                parse_cards("As Ks Qs Js Ts"), (), Ranking.HIGH, dead=parse_cards("As")
            ),
            "cannot be dead",
        ),
        (
            lambda: draw_odds(
                parse_cards("As Ks Qs Js Ts"), (), Ranking.STRIPPED_HIGH, deck=DECK_52
            ),
            "32-card",
        ),
        (
            lambda: draw_odds(
                parse_cards("As Ks Qs Js Ts"), (), Ranking.STRIPPED_HIGH, dead=parse_cards("2c")
            ),
            "not in the deck",
        ),
        (lambda: draw_odds(parse_cards("As Ks Qs Js Ts"), (), "highest"), "unknown ranking"),  # type: ignore[arg-type]
        (
            lambda: draw_odds(parse_cards("As Ks Qs Js Ts"), (), Ranking.HIGH, low=Ranking.HIGH),
            "lowball",
        ),
        (
            lambda: best_draws(parse_cards("As Ks Qs Js Ts"), Ranking.HIGH, max_discard=6),
            "max_discard",
        ),
        (
            lambda: draw_odds(
                parse_cards("As Ks Qs Js Ts"),
                parse_cards("As Ks Qs"),
                Ranking.HIGH,
                dead=[card for card in DECK_52 if card.suit != "s"]
                + list(parse_cards("9s 8s 7s 6s 5s 4s")),
            ),
            "too few",
        ),
    ],
)
def test_bad_input_says_why(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(ValueError, match=message):
        call()


def test_wrong_types_are_type_errors() -> None:
    hand = parse_cards("As Ks Qs Js Ts")
    with pytest.raises(TypeError):
        draw_odds("As Ks Qs Js Ts", (), Ranking.HIGH)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        draw_odds(hand, (), 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="twice"):
        draw_odds((*hand[:4], hand[0]), (), Ranking.HIGH)
    with pytest.raises(TypeError, match="only cards"):
        draw_odds((*hand[:4], "Ts"), (), Ranking.HIGH)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="qualifier"):
        draw_odds(hand, (), Ranking.HIGH, low_qualifier=8)
    with pytest.raises(ValueError, match="qualifier"):
        draw_odds(hand, (), Ranking.HIGH, low=Ranking.ACE_TO_FIVE, low_qualifier=4)


def test_repr_names_the_discard() -> None:
    odds = draw_odds(parse_cards("Ah Kh Qh Jh 2c"), parse_cards("2c"), Ranking.HIGH)
    assert repr(odds) == "<DrawOdds high: discard 2c, 47 draws, 45 improve>"


def test_string_ranking_and_deck_kind() -> None:
    hand = parse_cards("As Ks Qs Js 7d")
    odds = draw_odds(hand, parse_cards("7d"), "stripped-high", deck=DeckKind.STRIPPED)  # type: ignore[arg-type]
    assert odds.ranking is Ranking.STRIPPED_HIGH and odds.draws == 27


def test_module_doctests() -> None:
    failures, tried = doctest.testmod(engine.odds)
    assert tried > 0 and failures == 0


def test_prepare_counts_the_deck() -> None:
    assert engine.odds.prepare(Ranking.HIGH) == comb(52, 5)
    assert engine.odds.prepare(Ranking.STRIPPED_HIGH, wild=cards_of_rank(7, DECK_32)) == comb(32, 5)
    assert engine.odds.prepare("ace-to-five", deck=DeckKind.WITH_JOKER) == comb(53, 5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="32-card"):
        engine.odds.prepare(Ranking.STRIPPED_HIGH, deck=DECK_52)


def test_high_low_against_counts_both_halves_by_brute_force() -> None:
    """With a target, high-low discards are ordered by the halves won outright
    (a low must be eight or better), counted here one set at a time."""
    hand = parse_cards("As 2d 3c Kh Kd")
    target = parse_cards("Qs Qd 7c 5h 4d")
    rest = [card for card in DECK_52 if card not in hand]
    random.Random(8).shuffle(rest)
    dead = tuple(rest[:30])
    unseen = rest[30:]
    found = best_draws(
        hand,
        Ranking.HIGH,
        dead=dead,
        against=target,
        low=Ranking.ACE_TO_FIVE,
        low_qualifier=8,
    )
    high_target = evaluate(target, Ranking.HIGH)
    low_target = evaluate(target, Ranking.ACE_TO_FIVE)
    target_low_ok = low_qualifies(low_target, 8)
    shares = []
    for discard, odds in found:
        kept = tuple(card for card in hand if card not in discard)
        won = 0
        for drawn in combinations(unseen, len(discard)):
            final = (*kept, *drawn)
            won += evaluate(final, Ranking.HIGH) > high_target
            low = evaluate(final, Ranking.ACE_TO_FIVE)
            won += low_qualifies(low, 8) and (not target_low_ok or low > low_target)
        shares.append(Fraction(won, odds.draws))
    assert shares == sorted(shares, reverse=True)
    assert shares[0] > shares[-1]
