"""Table-driven tests: every rule and example of the rankings, names and helpers."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from engine.cards import (
    DECK_32,
    DECK_52,
    JOKER,
    ONE_EYED_JACKS_AND_KING,
    Card,
    cards_of_rank,
    parse_cards,
)
from engine.hands import (
    Category,
    HandValue,
    PlayedCard,
    Ranking,
    evaluate,
    low_qualifies,
    minimum_pair,
    opening_requirement_met,
    prepare,
)

HIGH = Ranking.HIGH
STRIPPED = Ranking.STRIPPED_HIGH
A5 = Ranking.ACE_TO_FIVE
D7 = Ranking.DEUCE_TO_SEVEN
A6 = Ranking.ACE_TO_SIX
DEUCES = cards_of_rank(2)
NO_WILD: frozenset[Card] = frozenset()


def ev(text: str, ranking: Ranking = HIGH, wild: frozenset[Card] = NO_WILD) -> HandValue:
    return evaluate(parse_cards(text), ranking, wild=wild)


def plays(value: HandValue) -> list[str]:
    return [str(item) for item in value.cards]


def assert_increasing(ranking: Ranking, texts: list[str], wild: frozenset[Card] = NO_WILD) -> None:
    values = [ev(text, ranking, wild) for text in texts]
    for worse, better in itertools.pairwise(values):
        assert worse < better, f"{worse!r} should lose to {better!r}"
        assert better > worse
        assert worse != better


# --------------------------------------------------------------------------- rankings


def test_ranking_names() -> None:
    assert [r.value for r in Ranking] == [
        "high",
        "stripped-high",
        "ace-to-five",
        "deuce-to-seven",
        "ace-to-six",
    ]
    assert Ranking("ace-to-five") is A5
    assert Ranking("deuce-to-seven") is D7
    assert Ranking("stripped-high") is STRIPPED
    assert [r.is_low for r in Ranking] == [False, False, True, True, True]
    with pytest.raises(ValueError):
        Ranking("lowball")


# --------------------------------------------------------------------------- HIGH

HIGH_NAMES = [
    ("Kh Ks Kd 9c 9s", "Full house, kings over nines", Category.FULL_HOUSE),
    ("Ah As 8d 8c 2s", "Two pair, aces and eights", Category.TWO_PAIR),
    ("Jh Js 9c 4d 2s", "Pair of jacks", Category.PAIR),
    ("Ah Qs 9c 4d 2s", "Ace-high", Category.HIGH_CARD),
    ("7s 5d 4c 3h 2s", "Seven-high", Category.HIGH_CARD),
    ("7h 7s 7d Kc 2s", "Three of a kind, sevens", Category.THREE_OF_A_KIND),
    ("9h Ts Jd Qc Ks", "Straight, king high", Category.STRAIGHT),
    ("5s 4d 3c 2h As", "Straight, five high", Category.STRAIGHT),
    ("Ah Th 8h 4h 2h", "Flush, ace high", Category.FLUSH),
    ("Qh Qs Qd Qc 3s", "Four of a kind, queens", Category.FOUR_OF_A_KIND),
    ("9s Ts Js Qs Ks", "Straight flush, king high", Category.STRAIGHT_FLUSH),
    ("5d 4d 3d 2d Ad", "Straight flush, five high", Category.STRAIGHT_FLUSH),
    ("As Ks Qs Js Ts", "Royal flush", Category.STRAIGHT_FLUSH),
]


@pytest.mark.parametrize(("text", "name", "category"), HIGH_NAMES)
def test_high_names_and_categories(text: str, name: str, category: Category) -> None:
    value = ev(text)
    assert value.name == name
    assert str(value) == name
    assert value.category is category
    assert value.ranking is HIGH
    assert sorted(item.card for item in value.cards) == sorted(parse_cards(text))
    assert all(not item.is_substitute for item in value.cards)


def test_high_cards_play_in_order() -> None:
    assert plays(ev("9c Kh 9s Kd Ks")) == ["Kh", "Kd", "Ks", "9c", "9s"]
    assert plays(ev("2s 8d Ah 8c As")) == ["Ah", "As", "8d", "8c", "2s"]
    assert plays(ev("3c As 2h 5s 4d")) == ["5s", "4d", "3c", "2h", "As"]
    assert ev("3c As 2h 5s 4d").ranks == (5, 4, 3, 2, 14)


def test_high_order_of_categories() -> None:
    assert_increasing(
        HIGH,
        [
            "7s 5d 4c 3h 2s",
            "Ah Ks Qc Jd 9s",
            "2h 2s 3c 4d 5s",
            "Ah As Kc Qd Js",
            "2h 2s 3c 3d 4s",
            "Ah As Kc Kd Qs",
            "2h 2s 2c 3d 4s",
            "Ah As Ac Kd Qs",
            "5s 4d 3c 2h As",
            "6s 5d 4c 3h 2s",
            "Ts Jd Qc Kh As",
            "7h 5h 4h 3h 2h",
            "Ah Kh Qh Jh 9h",
            "2h 2s 2c 3d 3s",
            "Ah As Ac Kd Ks",
            "2h 2s 2c 2d 3s",
            "Ah As Ac Ad Ks",
            "5h 4h 3h 2h Ah",
            "Th Jh Qh Kh Ah",
        ],
    )


def test_high_kickers_and_ties() -> None:
    assert_increasing(
        HIGH, ["Jh Js 9c 4d 2s", "Jh Js 9c 4d 3s", "Jh Js 9c 5d 2s", "Jh Js Tc 4d 2s"]
    )
    assert_increasing(HIGH, ["9h 9s 8c 8d As", "Th Ts 2c 2d 3s", "Th Ts 3c 3d 2s"])
    assert ev("Jh Js 9c 4d 2s") == ev("Jd Jc 9s 4h 2c")
    assert hash(ev("Jh Js 9c 4d 2s")) == hash(ev("Jd Jc 9s 4h 2c"))
    assert ev("Ah Kh 9h 4h 2h") == ev("As Ks 9s 4s 2s")
    assert ev("5s 4d 3c 2h As") < ev("6s 5d 4c 3h 2s")


# --------------------------------------------------------------------------- the bug


def test_bug_flush_takes_the_highest_missing_card() -> None:
    bugged = ev("Ah Th 9h 8h JK")
    assert bugged.name == "Flush, ace high"
    assert plays(bugged) == ["Ah", "JK=Kh", "Th", "9h", "8h"]
    assert bugged.cards[1] == PlayedCard(JOKER, Card(13, "h"))
    assert bugged.cards[1].is_substitute
    # A-K-J-4-2 beats A-10-9-8-bug because the bug is the king, not a second ace.
    assert ev("Ah Kh Jh 4h 2h") > bugged
    assert ev("Ah Kh Th 9h 8h") == bugged
    assert ev("Ah Kh Th 9h 7h") < bugged


def test_bug_is_an_ace_otherwise() -> None:
    value = ev("9s 9d 7c 7h JK")
    assert value.name == "Two pair, nines and sevens"
    assert plays(value)[-1] == "JK=Ah"
    assert value == ev("9s 9d 7c 7h As")  # an ace kicker, not a full house
    assert value < ev("9s 9d 7c 7h 7s")
    assert ev("Ks Kd 4c 7h JK").name == "Pair of kings"
    assert ev("Ks Kd 4c 7h JK") == ev("Ks Kd 4c 7h Ac")
    assert ev("As Kd 4c 7h JK").name == "Pair of aces"
    assert ev("As Ad Ac 7h JK").name == "Four of a kind, aces"
    assert ev("Ks Qd 4c 7h JK").name == "Ace-high"
    assert ev("Ks Kd Kc 7h JK") == ev("Ks Kd Kc 7h Ah")


def test_five_aces_is_the_best_bug_hand() -> None:
    five = ev("As Ac Ad Ah JK")
    assert five.name == "Five aces"
    assert five.category is Category.FIVE_OF_A_KIND
    assert five > ev("Ts Js Qs Ks As")
    assert five > ev("Ks Kc Kd Kh JK")


def test_bug_completes_straights_and_straight_flushes() -> None:
    assert ev("9s Td Jc Qh JK").name == "Straight, king high"
    assert ev("9s Td Jc Kh JK").name == "Straight, king high"
    assert plays(ev("9s Td Jc Kh JK"))[1] == "JK=Qh"
    assert ev("2s 3d 4c 5h JK").name == "Straight, six high"
    assert ev("2s 3d 4c 6h JK").name == "Straight, six high"
    assert ev("Ks Qs Js Ts JK").name == "Royal flush"
    assert ev("8h 9h Th Jh JK").name == "Straight flush, queen high"
    assert ev("2h 3h 4h 5h JK").name == "Straight flush, six high"
    assert ev("2h 3h 4h 6h JK").name == "Straight flush, six high"
    assert ev("Ah 3h 4h 5h JK").name == "Straight flush, five high"


def test_joker_named_wild_is_fully_wild() -> None:
    wild = frozenset({JOKER})
    assert ev("9s 9d 7c 7h JK", wild=wild).name == "Full house, nines over sevens"
    assert ev("Ks Kd Kc Kh JK", wild=wild).name == "Five kings"
    assert ev("Ks Kd Kc Kh JK").name == "Four of a kind, kings"


# --------------------------------------------------------------------------- wild cards


def test_deuces_wild_examples() -> None:
    assert ev("2s 2h Ah Kh 3c", wild=DEUCES).name == "Three of a kind, aces"
    assert ev("2s 2h 2d 2c Ah", wild=DEUCES).name == "Five aces"
    assert ev("2s 2h 2d 2c 3h", wild=DEUCES).name == "Five threes"
    assert ev("2s 7d 7c 9h 9s", wild=DEUCES).name == "Full house, nines over sevens"
    assert ev("2s Ah Kh Qh Jh", wild=DEUCES).name == "Royal flush"
    assert ev("2s 3h 5c 6d 7s", wild=DEUCES).name == "Straight, seven high"
    assert ev("2s 2c 5c 6d 9s", wild=DEUCES).name == "Straight, nine high"
    assert ev("2s 2c 5c 6d Ks", wild=DEUCES).name == "Three of a kind, kings"
    assert ev("2s 2c 5c 6d 8s", wild=DEUCES).name == "Straight, nine high"
    assert ev("2s 7h 7d 7c 7s", wild=DEUCES).name == "Five sevens"
    five_threes = ev("2s 3h 3d 3c 3s", wild=DEUCES)
    assert five_threes > ev("As Ks Qs Js Ts", wild=DEUCES)
    assert ev("2s 2h 2d Kc Ks", wild=DEUCES).name == "Five kings"


def test_wild_card_never_duplicates_a_held_card_in_a_flush() -> None:
    value = ev("Ah Kh 5h 4h 2s", wild=DEUCES)
    assert value.name == "Flush, ace high"
    assert plays(value) == ["Ah", "Kh", "2s=Qh", "5h", "4h"]
    assert value == ev("Ah Kh Qh 5h 4h")
    assert value < ev("Ah Kh Qh 6h 4h")
    two = ev("Ah 7h 5h 2h 2s", wild=DEUCES)
    assert plays(two) == ["Ah", "2h=Kh", "2s=Qh", "7h", "5h"]
    assert two.name == "Flush, ace high"
    assert two < ev("Ah Kh Qh 8h 5h")
    assert ev("2h Kh 9h 5h 4h", wild=DEUCES) == ev("Ah Kh 9h 5h 4h")


def test_wild_cards_shown_with_what_they_stand_for() -> None:
    value = ev("2s 7d 7c 9h 9s", wild=DEUCES)
    stand_in = next(item for item in value.cards if item.is_substitute)
    assert stand_in.card is Card(2, "s")
    assert stand_in.plays_as.rank == 9
    assert stand_in.plays_as not in parse_cards("7d 7c 9h 9s")
    assert str(stand_in) == f"2s={stand_in.plays_as}"


def test_one_eyed_jacks_and_a_rank_chosen_during_the_deal() -> None:
    one_eyed = ONE_EYED_JACKS_AND_KING
    assert ev("Js Jh Kd Ac As", wild=one_eyed).name == "Five aces"
    assert ev("Jd Jc Kd 7c 3s", wild=one_eyed).name == "Three of a kind, jacks"
    assert ev("Jd Jh Kd 7c 3s", wild=one_eyed).name == "Three of a kind, jacks"
    assert ev("Jd Jh Kd Jc 3s", wild=one_eyed).name == "Four of a kind, jacks"
    assert ev("Ks Jh Qc Tc 9d", wild=one_eyed).name == "Straight, king high"
    assert ev("Ks Jh 9c 8h 7d", wild=one_eyed).name == "Pair of kings"
    sixes = cards_of_rank(6)
    assert ev("6c 6d Qh Qs 4c", wild=sixes).name == "Four of a kind, queens"
    assert ev("6c 6d Qh Qs 4c", wild=sixes) == ev("Qc Qd Qh Qs 4c")


def test_wild_set_may_be_any_collection_of_cards() -> None:
    assert ev("2s 2h Ah Kh 3c", wild=frozenset(DEUCES)) == evaluate(
        parse_cards("2s 2h Ah Kh 3c"), HIGH, wild=set(DEUCES)
    )
    assert ev("2s 2h Ah Kh 3c", wild=NO_WILD).name == "Pair of twos"


# --------------------------------------------------------------------------- STRIPPED_HIGH


def test_stripped_flush_beats_full_house() -> None:
    assert ev("Ah Kh Qh Jh 8h", STRIPPED) > ev("Ks Kd Kc 9h 9s", STRIPPED)
    assert ev("9h 7h 8h Jh Qh", STRIPPED) > ev("As Ad Ac Kh Ks", STRIPPED)
    assert ev("9h 7h 8h Jh Qh", STRIPPED) < ev("7s 7d 7c 7h 8s", STRIPPED)
    assert ev("9h 7h 8h Jh Qh", STRIPPED).category is Category.FLUSH


def test_stripped_low_straight() -> None:
    low = ev("As 7d 8c 9h Ts", STRIPPED)
    assert low.name == "Straight, ten high"
    assert low.category is Category.STRAIGHT
    assert plays(low) == ["Ts", "9h", "8c", "7d", "As"]
    assert low > ev("As Ad Ac 8h 9s", STRIPPED)
    assert low < ev("7d 8c 9h Ts Js", STRIPPED)
    assert ev("Ah 7h 8h 9h Th", STRIPPED).name == "Straight flush, ten high"
    assert ev("Ah 7h 8h 9h Th", STRIPPED) < ev("7s 8s 9s Ts Js", STRIPPED)
    assert ev("Ah 7h 8h 9h Th", STRIPPED) > ev("As Ad Ac Ah 7s", STRIPPED)
    # In the full deck, A-7-8-9-10 is no straight.
    assert ev("As 7d 8c 9h Ts").name == "Ace-high"


def test_stripped_suit_breaks_ties_by_the_combination_not_the_kickers() -> None:
    hearts = ev("Jh Js Ac Kd 8s", STRIPPED)
    diamonds = ev("Jd Jc Ah Kh 8h", STRIPPED)
    assert hearts.name == diamonds.name == "Pair of jacks"
    assert hearts > diamonds
    # kickers' suits do not count
    assert ev("Jd Js Ac Kd 8s", STRIPPED) == ev("Jd Js Ah Kh 8h", STRIPPED)
    # the order of suits: hearts > diamonds > clubs > spades
    assert_increasing(
        STRIPPED,
        ["As Kd Qc 9d 8s", "Ac Kd Qc 9d 8s", "Ad Kh Qc 9d 8s", "Ah Kd Qc 9d 8s"],
    )
    assert_increasing(
        STRIPPED,
        ["Js Jc Ah Kh 8h", "Js Jd Ac Kd 8s", "Jh Jc As Ks 8s"],
    )
    assert_increasing(
        STRIPPED,
        ["Ks 7s 8c 9d Ts", "Kc 7s 8c 9d Ts", "Kd 7s 8c 9d Ts", "Kh 7s 8c 9d Ts"],
    )
    # ranks come first
    assert ev("Qs Qc Ac Kd 8s", STRIPPED) > ev("Jh Jd Ac Kd 8s", STRIPPED)
    assert ev("Jh Jd Ac Kd 8s", STRIPPED) < ev("Js Jc Ac Kd 9s", STRIPPED)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Th 9s 8c 7d As", "Ts 9h 8c 7d Ah"),  # straight: top card (the ten) decides
        ("Th 9s 8c 7d As", "Td 9h 8h 7h Ah"),
        ("Kh Qh 9h 8h 7h", "Kd Qd 9d 8d 7d"),  # flush
        ("Ah Kh Qh Jh Th", "As Ks Qs Js Ts"),  # straight flush
        ("Jh Js 9d 9c Ac", "Jd Jc 9h 9s Ac"),  # two pair: the higher pair decides
        ("Ah Ks Qs 9s 8s", "As Kh Qh 9h 8h"),  # high card: the top card decides
    ],
)
def test_stripped_suit_tie_breaks(better: str, worse: str) -> None:
    assert ev(better, STRIPPED) > ev(worse, STRIPPED)


def test_stripped_with_wild_cards_and_bug() -> None:
    sevens = cards_of_rank(7, DECK_32)
    assert ev("7s Ah Kh Qh Jh", STRIPPED, sevens).name == "Royal flush"
    assert ev("7s 7h 9d 9c 9s", STRIPPED, sevens).name == "Five nines"
    # a wild card standing in the combination takes the best suit it can
    assert ev("7s Kd Ks Ac 9s", STRIPPED, sevens) == ev("Kh Kd Ks Ac 9s", STRIPPED)
    assert ev("As 8d 9c Th JK", STRIPPED).name == "Straight, ten high"
    assert ev("Ah Kh Qh 9h JK", STRIPPED).name == "Flush, ace high"
    assert ev("Ah Kh Qh 9h JK", STRIPPED) == ev("Ah Kh Qh Jh 9h", STRIPPED)
    assert ev("As Ac Ad Ah JK", STRIPPED).name == "Five aces"


def test_stripped_rejects_small_cards() -> None:
    with pytest.raises(ValueError, match="6h is not in the 32-card deck"):
        ev("As Kd Qc Jh 6h", STRIPPED)


# --------------------------------------------------------------------------- ACE_TO_FIVE


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("5s 4d 3c 2h As", "Five-four low"),
        ("6s 4d 3c 2h As", "Six-four low"),
        ("7s 5d 4c 3h 2s", "Seven-five low"),
        ("8h 7h 6h 5h 4h", "Eight-seven low"),
        ("Ks Qd Jc Th As", "King-queen low"),
        ("As Ad 2c 3h 4s", "Pair of aces"),
        ("9s 9d 2c 2h 4s", "Two pair, nines and twos"),
    ],
)
def test_ace_to_five_names(text: str, name: str) -> None:
    value = ev(text, A5)
    assert value.name == name


def test_ace_to_five_order() -> None:
    assert_increasing(
        A5,
        [
            "Ks Kd Kc Kh Qs",
            "Ks Kd Kc Qh Qs",
            "2s 2d 2c 3h 4s",
            "Ks Kd Qc Qh Js",
            "As Ad 2c 2h 3s",
            "Ks Kd Qc Jh Ts",
            "2s 2d 3c 4h 5s",
            "As Ad 2c 3h 4s",  # the best pair ...
            "Ks Qd Jc Th 9s",  # ... loses to the worst no-pair hand
            "8s 7d 6c 5h 4s",
            "8s 5d 4c 3h 2s",
            "7s 6d 4c 3h 2s",
            "7s 5d 4c 3h 2s",
            "6s 5d 4c 3h 2s",
            "6s 4d 3c 2h As",
            "5s 4d 3c 2h As",
        ],
    )


def test_ace_to_five_ignores_straights_and_flushes() -> None:
    assert ev("5h 4h 3h 2h Ah", A5) == ev("5s 4d 3c 2h As", A5)
    assert ev("5h 4h 3h 2h Ah", A5).category is Category.HIGH_CARD
    assert ev("9h 8h 7h 6h 5h", A5) == ev("9s 8d 7c 6h 5s", A5)
    assert ev("Kh Qh Jh Th Ah", A5).name == "King-queen low"


def test_ace_to_five_fitter_is_the_lowest_missing_card() -> None:
    assert plays(ev("7s 5d 4c 3h JK", A5))[-1] == "JK=Ah"
    assert plays(ev("As 5d 4c 3h JK", A5)) == ["5d", "4c", "3h", "JK=2h", "As"]
    assert ev("As 2d 3c 4h JK", A5).name == "Five-four low"
    assert ev("As Ad 2c 3h JK", A5).name == "Pair of aces"
    assert ev("As Ad 2c 3h JK", A5) == ev("As Ad 2c 3h 4h", A5)
    assert ev("Ks Kd Kc Kh JK", A5) == ev("Ks Kd Kc Kh As", A5)
    assert ev("9s 8d 7c 6h JK", A5) == ev("9s 8d 7c 6h As", A5)


def test_ace_to_five_wild_cards() -> None:
    assert ev("2s 2h 2d 2c 5h", A5, DEUCES).name == "Five-four low"
    assert ev("2s 2h 2d 2c Kh", A5, DEUCES).name == "King-four low"
    assert ev("2s 7h 6d 5c 4h", A5, DEUCES) == ev("7h 6d 5c 4h As", A5)
    assert ev("2s 2h Ad 3c 4h", A5, DEUCES) == ev("As 2d 3c 4h 5h", A5)
    assert ev("2s 2h Ad 3c 3h", A5, DEUCES).name == "Pair of threes"


# --------------------------------------------------------------------------- DEUCE_TO_SEVEN


def test_deuce_to_seven_order() -> None:
    assert_increasing(
        D7,
        [
            "Ah Kh Qh Jh Th",
            "7h 5h 4h 3h 2h",  # a flush is a made hand
            "6s 5d 4c 3h 2s",  # so is a straight
            "2s 2d 2c Ah Ks",
            "As Ad Kc Kh Qs",
            "As Ad Kc Qh Js",
            "2s 2d Ac Kh Qs",
            "2s 2d 3c 4h 5s",
            "As Kd Qc Jh 9s",
            "As 5d 4c 3h 2s",  # ace-high, not a straight
            "Ks Qd Jc Th 8s",
            "8s 7d 6c 5h 3s",
            "8s 5d 4c 3h 2s",
            "7s 6d 5c 4h 2s",
            "7s 6d 4c 3h 2s",
            "7s 5d 4c 3h 2s",
        ],
    )


def test_deuce_to_seven_names_and_rules() -> None:
    assert ev("7s 5d 4c 3h 2s", D7).name == "Seven-five low"
    best = ev("7s 5d 4c 3h 2s", D7)
    assert ev("As 5d 4c 3h 2s", D7).name == "Ace-five low"
    assert ev("As 5d 4c 3h 2s", D7).category is Category.HIGH_CARD
    assert ev("6s 5d 4c 3h 2s", D7).name == "Straight, six high"
    assert ev("7h 5h 4h 3h 2h", D7).name == "Flush, seven high"
    assert ev("7h 5h 4h 3h 2h", D7) < ev("Ks Qd Jc Th 8s", D7)
    assert all(ev(text, D7) < best for text in ["8s 5d 4c 3h 2s", "7s 6d 4c 3h 2s"])


def test_deuce_to_seven_fitter_and_wilds_avoid_straights_and_flushes() -> None:
    value = ev("3s 4d 5c 6h JK", D7)
    assert value.name == "Eight-six low"
    assert ev("7s 5d 4c 3h JK", D7) == ev("7s 5d 4c 3h 2s", D7)
    suited = ev("7h 5h 4h 3h JK", D7)
    assert suited == ev("7s 5d 4c 3h 2s", D7)
    assert plays(suited)[-1] in ("JK=2d", "JK=2c", "JK=2s")
    sevens = cards_of_rank(7)
    assert ev("7s 7d 7c 7h Ks", D7, sevens) == ev("Ks 5d 4c 3h 2s", D7)
    all_wild = ev("7s 7d 7c 7h JK", D7, sevens | {JOKER})
    assert all_wild.name == "Seven-five low"
    assert len({item.plays_as.suit for item in all_wild.cards}) > 1


# --------------------------------------------------------------------------- ACE_TO_SIX


def test_ace_to_six_order() -> None:
    assert_increasing(
        A6,
        [
            "5h 4h 3h 2h Ah",  # a straight flush: the worst low
            "Ah Kh Qh Jh Th",  # a king-high flush (the ace is low)
            "7h 5h 4h 3h 2h",
            "6s 5d 4c 3h 2s",
            "5s 4d 3c 2h As",  # the wheel is a straight here
            "Ks Kd 2c 2h 3s",
            "As Ad 2c 3h 4s",
            "Ks Qd Jc Th As",  # no straight: the ace is only low
            "7s 6d 5c 4h 2s",
            "7s 5d 4c 3h 2s",
            "7s 5d 4c 3h As",
            "6s 5d 4c 3h As",
            "6s 4d 3c 2h As",
        ],
    )
    assert ev("6s 4d 3c 2h As", A6).name == "Six-four low"
    assert ev("5s 4d 3c 2h As", A6).name == "Straight, five high"
    assert ev("Ks Qd Jc Th As", A6).name == "King-queen low"


def test_ace_to_six_fitter() -> None:
    # the ace, six or three would make a straight or a pair: the seven is best
    assert ev("5s 4d 3c 2h JK", A6) == ev("7s 5d 4c 3h 2s", A6)
    assert ev("6s 4d 3c 2h JK", A6) == ev("6s 4d 3c 2h As", A6)
    assert ev("3s 4d 5c 6h JK", A6) == ev("6s 5d 4c 3h As", A6)


# --------------------------------------------------------------------------- more cards


def test_best_five_of_seven_and_nine() -> None:
    value = ev("As Kd 9c 8h 2s 3s 4s")
    assert value.name == "Ace-high"
    assert plays(value) == ["As", "Kd", "9c", "8h", "4s"]
    assert ev("As Kd 9c 4h 2s 3s 5s").name == "Straight, five high"
    assert ev("Ah Kh 9h 8h 2s 3h 4d").name == "Flush, ace high"
    nine = ev("Ah Kh 9h 8h 2s 3h 4d Ac Ad")
    assert nine.name == "Flush, ace high"
    assert ev("Ah Kh 9h 8h 2s 3s 4d Ac Ad").name == "Three of a kind, aces"
    assert ev("Kd 8c 7s 5d 4c 3h 2s", A5).name == "Seven-five low"
    assert ev("Kd 8c 7s 6d 5c 4h 3s", D7).name == "Eight-six low"
    assert ev("2s 2h Kd Qd Jd 9c 4s", HIGH, DEUCES).name == "Royal flush"


def test_six_cards_use_the_same_value_as_the_best_five() -> None:
    assert ev("Js Jd 9c 4h 2s 3c") == ev("Js Jd 9c 4h 3c")
    assert ev("Js Jd 9c 4h 2s 3c", D7) == ev("Js 9c 4h 3c 2s", D7)
    assert ev("Js Jd 9c 4h 2s 3c", A5) == ev("Js 4h 3c 2s 9c", A5)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("count", [0, 1, 2, 10, 13])
def test_wrong_number_of_cards(count: int) -> None:
    with pytest.raises(ValueError, match=f"3 to 9 cards, not {count}"):
        evaluate(DECK_52[:count], HIGH)


def test_duplicates_are_named() -> None:
    with pytest.raises(ValueError, match="card As appears twice"):
        evaluate((*parse_cards("As Kd 4c 3h"), Card(14, "s")), HIGH)
    with pytest.raises(ValueError, match="card Kd appears twice"):
        evaluate((*parse_cards("As Kd 4c 3h 9c 8c"), Card(13, "d")), A5)
    with pytest.raises(ValueError, match="card JK appears twice"):
        evaluate((JOKER, *parse_cards("As Kd 4c 3h"), JOKER), D7, wild=DEUCES)
    for ranking in Ranking:
        with pytest.raises(ValueError, match="card Ks appears twice"):
            evaluate((*parse_cards("Ks Kd 8c 9h"), Card(13, "s")), ranking)
        for wild in (DEUCES, frozenset({JOKER}), frozenset({Card(13, "s")})):
            with pytest.raises(ValueError, match="card 2s appears twice"):
                evaluate((*parse_cards("2s Kd 8c 9h"), Card(2, "s")), ranking, wild=wild)
            with pytest.raises(ValueError, match="card Ks appears twice"):
                evaluate((*parse_cards("Ks Kd 2c JK"), Card(13, "s")), ranking, wild=wild)


def test_non_cards_are_rejected() -> None:
    with pytest.raises(TypeError, match="not 'As'"):
        evaluate([*parse_cards("Kd 4c 3h 9c"), "As"], HIGH)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not 14"):
        evaluate([*parse_cards("Kd 4c 3h 9c 8c"), 14], HIGH)  # type: ignore[list-item]


def test_ranking_values_are_accepted_as_strings() -> None:
    for text in ("Kh Ks Kd 9c 9s", "Kh Ks Kd 9c 9s 7c"):
        for ranking in Ranking:
            value = evaluate(parse_cards(text), ranking.value)  # type: ignore[arg-type]
            assert value.ranking is ranking
            assert value == ev(text, ranking)
    assert minimum_pair(11, "high") is minimum_pair(11, HIGH)


def test_bad_rankings_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown ranking 'lowball'"):
        evaluate(DECK_52[:5], "lowball")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a Ranking"):
        evaluate(DECK_52[:5], 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a Ranking"):
        evaluate(DECK_52[:7], None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a Ranking"):
        evaluate(DECK_52[:5], ["high"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown ranking 'HIGH'"):
        evaluate(DECK_52[:5], "HIGH")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a Ranking"):
        minimum_pair(11, 0)


def test_bad_wild_sets_are_rejected() -> None:
    with pytest.raises(TypeError, match="wild must hold only cards"):
        evaluate(DECK_52[:5], HIGH, wild={"2s"})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="wild must be a set of cards"):
        evaluate(DECK_52[:5], HIGH, wild="2s")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="wild must be a set of cards"):
        evaluate(DECK_52[:7], HIGH, wild=2)  # type: ignore[arg-type]


def test_input_may_be_any_iterable() -> None:
    expected = ev("Kh Ks Kd 9c 9s")
    assert evaluate(list(parse_cards("Kh Ks Kd 9c 9s")), HIGH) == expected
    assert evaluate(iter(parse_cards("Kh Ks Kd 9c 9s")), HIGH) == expected
    assert evaluate({c: 1 for c in parse_cards("Kh Ks Kd 9c 9s")}, HIGH) == expected


# --------------------------------------------------------------------------- HandValue


def test_values_of_different_rankings_do_not_compare() -> None:
    high, low = ev("7s 5d 4c 3h 2s"), ev("7s 5d 4c 3h 2s", D7)
    compares: list[Callable[[], bool]] = [
        lambda: high < low,
        lambda: high <= low,
        lambda: high > low,
        lambda: high >= low,
    ]
    for compare in compares:
        with pytest.raises(TypeError, match="cannot compare a high hand with a deuce-to-seven"):
            compare()
    assert high != low
    assert not high == low  # noqa: SIM201
    with pytest.raises(TypeError):
        _ = high < 3
    assert high != 3


def test_values_sort_and_hash() -> None:
    texts = ["Kh Ks Kd 9c 9s", "Jh Js 9c 4d 2s", "As Ac Ad Ah JK", "Jd Jc 9s 4h 2c"]
    values = [ev(text) for text in texts]
    ordered = sorted(values)
    assert [v.name for v in ordered] == [
        "Pair of jacks",
        "Pair of jacks",
        "Full house, kings over nines",
        "Five aces",
    ]
    assert max(values).name == "Five aces"
    assert len(set(values)) == 3
    assert "Five aces" in repr(max(values))


# --------------------------------------------------------------------------- helpers


def test_minimum_pair_and_openers() -> None:
    jacks = minimum_pair(11)
    assert jacks.name == "Pair of jacks"
    assert jacks <= ev("Jh Js 2c 3d 4s")
    assert jacks < ev("Jh Js 2c 3d 5s")
    assert jacks > ev("Th Ts Ac Kd Qs")
    assert opening_requirement_met(parse_cards("Js Jd 9c 4h 2s"))
    assert opening_requirement_met(parse_cards("5s 5d 3c 3h 6s"))  # two pair opens
    assert not opening_requirement_met(parse_cards("Ts Td Ac Kh Qs"))
    assert not opening_requirement_met(parse_cards("Js Qd 9c 4h 2s"))
    assert opening_requirement_met(parse_cards("Qs Qd 9c 4h 2s"), 12)
    assert not opening_requirement_met(parse_cards("Js Jd 9c 4h 2s"), 12)
    assert opening_requirement_met(parse_cards("Ks Kd 9c 4h 2s"), 13)
    assert not opening_requirement_met(parse_cards("Ks Kd 9c 4h 2s"), 14)
    assert opening_requirement_met(parse_cards("2s Jd 9c 4h 3s"), wild=DEUCES)
    assert opening_requirement_met(parse_cards("As 8d 9c 4h JK"))  # bug is an ace
    assert not opening_requirement_met(parse_cards("Js 8d 9c 4h JK"))
    assert not opening_requirement_met(parse_cards("Ts 8d 9c 4h JK"))
    assert opening_requirement_met(parse_cards("Js Jc 9c 8h 7s"), 11, STRIPPED)
    assert minimum_pair(11, STRIPPED) == ev("Js Jc 7s 8c 9d", STRIPPED)
    assert minimum_pair(2).name == "Pair of twos"


def test_minimum_pair_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="high rankings"):
        minimum_pair(11, A5)
    with pytest.raises(ValueError, match="rank"):
        minimum_pair(6, STRIPPED)
    with pytest.raises(ValueError, match="rank"):
        minimum_pair(15)


@pytest.mark.parametrize(
    ("text", "ranking", "qualifier", "expected"),
    [
        ("8s 7d 6c 5h 4s", A5, 8, True),
        ("8s 7d 6c 5h 4h", A5, 8, True),
        ("9s 4d 3c 2h As", A5, 8, False),
        ("9s 4d 3c 2h As", A5, 9, True),
        ("5s 4d 3c 2h As", A5, 8, True),
        ("As Ad 2c 3h 4s", A5, 8, False),
        ("7s 5d 4c 3h 2s", D7, 8, True),
        ("8s 5d 4c 3h 2s", D7, 8, True),
        ("6s 5d 4c 3h 2s", D7, 8, False),
        ("7h 5h 4h 3h 2h", D7, 8, False),
        ("As 5d 4c 3h 2s", D7, 9, False),
        ("As 5d 4c 3h 2s", D7, 14, True),
        ("6s 4d 3c 2h As", A6, 8, True),
        ("5s 4d 3c 2h As", A6, 8, False),
        ("8s 7d 6c 5h 4s", A6, 7, False),
    ],
)
def test_low_qualifies(text: str, ranking: Ranking, qualifier: int, expected: bool) -> None:
    assert low_qualifies(ev(text, ranking), qualifier) is expected


def test_low_qualifies_defaults_and_errors() -> None:
    assert low_qualifies(ev("8s 7d 6c 5h 4s", A5))
    assert not low_qualifies(ev("9s 7d 6c 5h 4s", A5))
    with pytest.raises(ValueError, match="lowball"):
        low_qualifies(ev("8s 7d 6c 5h 4s"))
    for bad in (4, 15, 8.0, "8"):
        with pytest.raises(ValueError, match="qualifier"):
            low_qualifies(ev("8s 7d 6c 5h 4s", A5), bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        low_qualifies("8s 7d 6c 5h 4s")  # type: ignore[arg-type]


def test_docstring_examples() -> None:
    import doctest

    import engine.cards
    import engine.hands

    for module in (engine.cards, engine.hands):
        failures, tried = doctest.testmod(module)
        assert tried > 0
        assert failures == 0


@pytest.mark.parametrize(
    ("ranking", "entries"),
    [(HIGH, 16003), (STRIPPED, 1618), (A5, 16003), (D7, 16003), (A6, 16003)],
)
def test_prepare_builds_the_whole_table_for_hands_without_wild_cards(
    ranking: Ranking, entries: int
) -> None:
    # 16003 = 6175 rank patterns + 4 x 1287 suited ones, and with the joker
    # 1820 patterns of four cards + 4 x 715 suited ones (1618 for 32 cards).
    assert prepare(ranking) == entries
    deck = (*(DECK_32 if ranking is STRIPPED else DECK_52), JOKER)
    rng = random.Random(11)
    for _ in range(3_000 if ranking is STRIPPED else 20_000):
        evaluate(tuple(rng.sample(deck, 5)), ranking)
    assert prepare(ranking.value) == entries  # nothing new was needed
