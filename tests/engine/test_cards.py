"""Cards, the joker, decks, parsing and shuffles."""

from __future__ import annotations

import copy
import pickle
import random
import secrets

import pytest

from engine.cards import (
    DECK_32,
    DECK_52,
    DECK_53,
    JOKER,
    ONE_EYED_JACKS_AND_KING,
    RANKS,
    SUITS,
    Card,
    cards_of_rank,
    parse_card,
    parse_cards,
    shuffled,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("As", 14, "s"),
        ("as", 14, "s"),
        ("AS", 14, "s"),
        ("Td", 10, "d"),
        ("td", 10, "d"),
        ("10d", 10, "d"),
        ("10D", 10, "d"),
        ("7h", 7, "h"),
        ("2c", 2, "c"),
        ("Jc", 11, "c"),
        ("qH", 12, "h"),
        ("Kd", 13, "d"),
        ("9s", 9, "s"),
        (" Kd ", 13, "d"),
        ("A♠", 14, "s"),
        ("10♦", 10, "d"),
        ("Q♥", 12, "h"),
        ("3♣", 3, "c"),
    ],
)
def test_parse_card(text: str, rank: int, suit: str) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert card is Card(rank, suit)
    assert not card.is_joker


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("A\u2660\ufe0f", "s"),
        ("A\u2665\ufe0f", "h"),
        ("A\u2666\ufe0f", "d"),
        ("A\u2663\ufe0f", "c"),
    ],
)
def test_parse_card_with_an_emoji_suit(text: str, suit: str) -> None:
    """Discord's emoji picker writes :spades: as ♠ followed by the emoji variation selector
    (U+FE0F): a player who types a card that way means that card."""
    assert parse_card(text) is Card(14, suit)
    assert parse_cards(f"{text} Kd 7h") == (Card(14, suit), Card(13, "d"), Card(7, "h"))


@pytest.mark.parametrize("text", ["JK", "jk", "Jk", "🃏"])
def test_parse_joker(text: str) -> None:
    assert parse_card(text) is JOKER
    assert JOKER.is_joker
    assert (JOKER.rank, JOKER.suit) == (0, "")


def test_parse_cards_example_from_the_issue() -> None:
    cards = parse_cards("As Td 7h 2c JK")
    assert cards == (Card(14, "s"), Card(10, "d"), Card(7, "h"), Card(2, "c"), JOKER)
    assert isinstance(cards, tuple)


def test_parse_cards_separators_and_empty() -> None:
    assert parse_cards("As,Kd, 10h\n2c\t3s") == tuple(
        Card(r, s) for r, s in [(14, "s"), (13, "d"), (10, "h"), (2, "c"), (3, "s")]
    )
    assert parse_cards("") == ()
    assert parse_cards("   ") == ()


@pytest.mark.parametrize("bad", ["Xs", "1s", "11h", "A", "Asx", "Az", "0d", "T", "s", "J K", "KK"])
def test_bad_token_names_it(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card") as info:
        parse_cards(f"As {bad} Kd")
    assert repr(bad.split()[0]) in str(info.value)


def test_parse_card_rejects_empty_and_non_strings() -> None:
    with pytest.raises(ValueError, match="''"):
        parse_card("")
    with pytest.raises(TypeError):
        parse_card(14)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_cards(["As"])  # type: ignore[arg-type]


def test_parse_cards_rejects_duplicates_naming_the_card() -> None:
    with pytest.raises(ValueError, match=r"'as' appears twice"):
        parse_cards("As Kd as")


@pytest.mark.parametrize(
    ("text", "short", "display", "name"),
    [
        ("As", "As", "A♠", "ace of spades"),
        ("Td", "Td", "10♦", "ten of diamonds"),
        ("10h", "Th", "10♥", "ten of hearts"),
        ("7c", "7c", "7♣", "seven of clubs"),
        ("Qh", "Qh", "Q♥", "queen of hearts"),
        ("JK", "JK", "🃏", "joker"),
    ],
)
def test_text_forms(text: str, short: str, display: str, name: str) -> None:
    card = parse_card(text)
    assert str(card) == short
    assert card.display == display
    assert card.name == name
    assert parse_card(str(card)) is card
    assert parse_card(card.display) is card
    assert eval(repr(card), {"Card": Card}) is card


def test_cards_are_unique_immutable_and_hash_deterministically() -> None:
    card = Card(14, "s")
    assert card is parse_card("As")
    assert hash(card) == card.index == 51
    assert hash(JOKER) == JOKER.index == 52
    assert hash(Card(2, "c")) == 0
    with pytest.raises(AttributeError):
        card.rank = 13
    with pytest.raises(AttributeError):
        del card.suit
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.copy(card) is card
    assert copy.deepcopy([card])[0] is card
    assert card != (14, "s")
    assert card == Card(14, "s")
    assert len({Card(r, s) for r in RANKS for s in SUITS}) == 52


@pytest.mark.parametrize(
    ("rank", "suit", "message"),
    [
        (15, "s", "rank"),
        (1, "s", "rank"),
        (0, "s", "rank"),
        (14, "x", "suit"),
        (14, "S", "suit"),
        (14, "", "suit"),
        ("A", "s", "not a card"),
        (14.0, "s", "not a card"),
        (True, "s", "not a card"),
    ],
)
def test_card_constructor_rejects_bad_values(rank: object, suit: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Card(rank, suit)  # type: ignore[arg-type]


def test_card_ordering_is_by_rank_then_suit_with_joker_last() -> None:
    cards = parse_cards("JK As 2c Ah 2s Td")
    assert [str(c) for c in sorted(cards)] == ["2c", "2s", "Td", "Ah", "As", "JK"]
    assert Card(2, "c") < Card(2, "d") <= Card(2, "d") < JOKER
    assert JOKER > Card(14, "s") >= Card(14, "s")
    with pytest.raises(TypeError):
        _ = Card(2, "c") < 3  # type: ignore[operator]


def test_decks() -> None:
    assert len(DECK_52) == len(set(DECK_52)) == 52
    assert JOKER not in DECK_52
    assert (*DECK_52, JOKER) == DECK_53
    assert len(DECK_32) == len(set(DECK_32)) == 32
    assert {card.rank for card in DECK_32} == {7, 8, 9, 10, 11, 12, 13, 14}
    for suit in SUITS:
        assert sum(1 for card in DECK_32 if card.suit == suit) == 8
        assert sum(1 for card in DECK_52 if card.suit == suit) == 13
    assert set(DECK_32) < set(DECK_52)
    assert all(isinstance(deck, tuple) for deck in (DECK_32, DECK_52, DECK_53))


def test_wild_card_sets() -> None:
    assert frozenset(parse_cards("Js Jh Kd")) == ONE_EYED_JACKS_AND_KING
    assert cards_of_rank(2) == frozenset(parse_cards("2c 2d 2h 2s"))
    assert cards_of_rank(7, DECK_32) == frozenset(parse_cards("7c 7d 7h 7s"))
    assert cards_of_rank(2, DECK_32) == frozenset()
    for bad in (1, 15, 0, "2", 2.0):
        with pytest.raises(ValueError, match="rank"):
            cards_of_rank(bad)  # type: ignore[arg-type]


def test_shuffled_uses_only_the_injected_generator() -> None:
    first = shuffled(DECK_53, random.Random(42))
    second = shuffled(DECK_53, random.Random(42))
    other = shuffled(DECK_53, random.Random(43))
    assert first == second
    assert first != other
    assert sorted(first) == sorted(DECK_53)
    assert isinstance(first, tuple)
    assert first != DECK_53
    assert DECK_53[0] is Card(2, "c")  # the input is untouched


def test_shuffled_accepts_system_random_and_checks_its_inputs() -> None:
    deck = shuffled(DECK_32, secrets.SystemRandom())
    assert sorted(deck) == sorted(DECK_32)
    with pytest.raises(TypeError, match=r"random\.Random"):
        shuffled(DECK_52, 42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"random\.Random"):
        shuffled(DECK_52, random)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="only shuffle cards"):
        shuffled([Card(2, "c"), "As"], random.Random(1))  # type: ignore[list-item]


def test_shuffle_is_uniform_enough() -> None:
    rng = random.Random(7)
    tops = [shuffled(DECK_52, rng)[0] for _ in range(5200)]
    counts = {card: tops.count(card) for card in DECK_52}
    assert min(counts.values()) > 50
    assert max(counts.values()) < 160
