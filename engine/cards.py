"""Playing cards, the joker, the three decks and seeded shuffles.

A :class:`Card` is a small immutable value. There is exactly one object per
card: ``Card(14, "s") is parse_card("As")`` holds, so cards compare and hash
cheaply and can be used freely in sets and as dictionary keys. Hashes are
deterministic (they do not depend on object addresses), so iterating a set of
cards gives the same order in every run.

Ranks are integers from 2 to 14 (jack 11, queen 12, king 13, ace 14). Suits
are the lower-case letters ``"c"``, ``"d"``, ``"h"`` and ``"s"``. The joker is
the distinguished card :data:`JOKER` with rank 0 and the empty suit.

Nothing in this module keeps hidden state or draws random numbers by itself:
:func:`shuffled` takes the random generator as an argument.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Final, TypeVar

T = TypeVar("T")

__all__ = [
    "DECK_32",
    "DECK_52",
    "DECK_53",
    "JOKER",
    "ONE_EYED_JACKS",
    "ONE_EYED_JACKS_AND_KING",
    "ONE_EYED_KING",
    "RANKS",
    "RANK_WORDS",
    "SUITS",
    "Card",
    "cards_of_rank",
    "parse_card",
    "parse_cards",
    "permuted",
    "shuffled",
]

SUITS: Final = ("c", "d", "h", "s")
"""The four suits, in the order used for card indices (clubs first)."""

RANKS: Final = tuple(range(2, 15))
"""The thirteen ranks, deuce (2) to ace (14)."""

_RANK_CHARS: Final = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}
_RANK_CHARS.update({10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"})
_SUIT_SYMBOLS: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_SUIT_NAMES: Final = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_WORDS: Final = {
    1: ("ace", "aces"),  # the ace below the deuce, in a low hand's value
    2: ("two", "twos"),
    3: ("three", "threes"),
    4: ("four", "fours"),
    5: ("five", "fives"),
    6: ("six", "sixes"),
    7: ("seven", "sevens"),
    8: ("eight", "eights"),
    9: ("nine", "nines"),
    10: ("ten", "tens"),
    11: ("jack", "jacks"),
    12: ("queen", "queens"),
    13: ("king", "kings"),
    14: ("ace", "aces"),
}
"""How a player says each rank, one and many (``RANK_WORDS[2] == ("two", "twos")``): the one
table of rank words, read by card names, hand names, openers and wild-card names."""

# The evaluation code ``Card._k`` (private; engine.hands relies on it). Adding
# the codes of five different cards never carries from one field to another:
#   bits  0..32  the ranks as a number in base 5: 5**(rank - 2) per card, and
#                5**13 for the joker, so each base-5 digit counts one rank
#   bits 33..56  a 6-bit field per suit (clubs lowest): 7 per card of the suit,
#                and 7 in every field for the joker; only 35 (five cards of
#                the suit, or four and the joker) sets the field's top bit
#   bits 57..59  always zero (engine.hands puts a wild-card count there)
#   bits 60..165 two bits per physical card: bit 60 + 2 * index is the card's
#                own bit (``Card._bit``); the bit above it is set only when
#                the same card is added twice
_SUIT_SHIFT: Final = {"c": 33, "d": 39, "h": 45, "s": 51}
_CARD_BIT_SHIFT: Final = 60


def _code(rank: int, suit: str, index: int) -> int:
    if rank == 0:
        suit_part = sum(7 << shift for shift in _SUIT_SHIFT.values())
        rank_part = 5**13
    else:
        suit_part = 7 << _SUIT_SHIFT[suit]
        rank_part = 5 ** (rank - 2)
    return _card_bit(index) | suit_part | rank_part


def _card_bit(index: int) -> int:
    return 1 << (_CARD_BIT_SHIFT + 2 * index)


class Card:
    """One playing card, or the joker.

    ``Card(rank, suit)`` returns the unique object for that card; it raises
    :class:`ValueError` if the rank is not an integer from 2 to 14 or the suit
    is not one of ``"c"``, ``"d"``, ``"h"``, ``"s"``. ``Card(0, "")`` is the
    joker (also available as :data:`JOKER`).

    Cards are ordered by rank, then by suit in the order clubs, diamonds,
    hearts, spades; the joker sorts after every other card. This order is only
    for tidy display: it says nothing about which hand wins.
    """

    __slots__ = ("_bit", "_index", "_k", "rank", "suit")

    rank: int
    """The rank: 2 to 10, 11 jack, 12 queen, 13 king, 14 ace; 0 for the joker."""
    suit: str
    """One of ``"c"``, ``"d"``, ``"h"``, ``"s"``; the empty string for the joker."""
    _index: int
    _bit: int
    _k: int

    _instances: ClassVar[dict[tuple[int, str], Card]] = {}

    def __new__(cls, rank: int, suit: str) -> Card:
        if type(rank) is not int or type(suit) is not str:
            raise ValueError(f"not a card: rank {rank!r}, suit {suit!r}")
        card = cls._instances.get((rank, suit))
        if card is not None:
            return card
        if not 2 <= rank <= 14:
            raise ValueError(f"card rank must be 2 to 14 (or 0 for the joker), not {rank!r}")
        raise ValueError(f"card suit must be one of 'c', 'd', 'h', 's', not {suit!r}")

    @classmethod
    def _create(cls, rank: int, suit: str) -> Card:
        index = 52 if rank == 0 else (rank - 2) * 4 + SUITS.index(suit)
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "_index", index)
        object.__setattr__(card, "_bit", _card_bit(index))
        object.__setattr__(card, "_k", _code(rank, suit, index))
        cls._instances[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cards are immutable (tried to set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cards are immutable (tried to delete {name!r})")

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __hash__(self) -> int:
        return self._index

    # Equality is identity (one object per card). Spelt out because the ordering methods below
    # make Python route every comparison of a card through a method lookup: object's own ==
    # then answers NotImplemented, the other card is asked in turn, and only then does
    # identity decide, about 110 ns a pair. One Python call is less than half that, and the
    # `card in cards` tests of a hand compare every card they pass.

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is Card:
            return False
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if self is other:
            return False
        if other.__class__ is Card:
            return True
        return NotImplemented

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index < other._index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index <= other._index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index > other._index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index >= other._index

    @property
    def is_joker(self) -> bool:
        """Whether this card is the joker."""
        return self.rank == 0

    @property
    def index(self) -> int:
        """A number unique to the card: 0 to 51 by rank then suit, 52 for the joker."""
        return self._index

    @property
    def display(self) -> str:
        """The card for people: ``"A♠"``, ``"10♦"``, ``"7♣"``; ``"🃏"`` for the joker.

        Tens show as ``10`` here (and as ``T`` in :func:`str`).
        """
        if self.rank == 0:
            return "🃏"
        rank = "10" if self.rank == 10 else _RANK_CHARS[self.rank]
        return rank + _SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """The card in words: ``"ace of spades"``, ``"joker"``."""
        if self.rank == 0:
            return "joker"
        return f"{RANK_WORDS[self.rank][0]} of {_SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        """The short code: ``"As"``, ``"Td"``, ``"7c"``; ``"JK"`` for the joker."""
        if self.rank == 0:
            return "JK"
        return _RANK_CHARS[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"

    @classmethod
    def from_str(cls, text: str) -> Card:
        """The same as :func:`parse_card`."""
        return parse_card(text)


for _rank in RANKS:
    for _suit in SUITS:
        Card._create(_rank, _suit)

JOKER: Final = Card._create(0, "")
"""The joker. Its rank is 0 and its suit is the empty string."""

DECK_52: Final = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)
"""The standard 52-card deck, deuces first (order is by :attr:`Card.index`)."""

DECK_53: Final = (*DECK_52, JOKER)
"""The 52-card deck plus the joker."""

DECK_32: Final = tuple(card for card in DECK_52 if card.rank >= 7)
"""The stripped deck: ace, king, queen, jack, ten, nine, eight and seven of each suit."""

ONE_EYED_JACKS: Final = frozenset((Card(11, "s"), Card(11, "h")))
"""The two jacks drawn in profile, the jack of spades and the jack of hearts: the usual
"one-eyed jacks" of a wild-card game."""

ONE_EYED_KING: Final = Card(13, "d")
"""The king of diamonds, also drawn in profile; some tables make it wild with the jacks."""

ONE_EYED_JACKS_AND_KING: Final = ONE_EYED_JACKS | {ONE_EYED_KING}
"""Every one-eyed court card: both one-eyed jacks and the king of diamonds."""

_TOKEN_RANKS: Final = {char: rank for rank, char in _RANK_CHARS.items()}
_TOKEN_RANKS["10"] = 10
_TOKEN_SUITS: Final = {
    "c": "c",
    "d": "d",
    "h": "h",
    "s": "s",
    "♣": "c",
    "♦": "d",
    "♥": "h",
    "♠": "s",
    "♧": "c",
    "♢": "d",
    "♡": "h",
    "♤": "s",
}
_JOKER_TOKENS: Final = frozenset(("JK", "🃏"))
_SEPARATORS: Final = re.compile(r"[\s,]+")


def parse_card(text: str) -> Card:
    """Read one card.

    The rank is one of ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``,
    ``A`` (either case) and the suit one of ``c``, ``d``, ``h``, ``s`` (either
    case) or a suit symbol such as ``♠`` (also as an emoji, ``♠️``). ``JK`` (either
    case) or ``🃏`` is the joker. Surrounding white space is ignored.

    >>> parse_card("Td") is Card(10, "d")
    True

    :raises TypeError: if ``text`` is not a string.
    :raises ValueError: naming the text, if it is not a card.
    """
    if not isinstance(text, str):
        raise TypeError(f"a card must be given as a string, not {type(text).__name__}")
    # A suit from Discord's emoji picker carries the emoji variation selector: ♠ + U+FE0F.
    token = text.strip().replace("\ufe0f", "")
    if token.upper() in _JOKER_TOKENS or token in _JOKER_TOKENS:
        return JOKER
    rank = _TOKEN_RANKS.get(token[:-1].upper())
    suit = _TOKEN_SUITS.get(token[-1:].lower())
    if rank is None or suit is None:
        from engine.wording import Phrase  # here: engine.wording imports this module

        raise ValueError(
            Phrase(
                "not a card: {text} (expected a rank 2-9, T or 10, J, Q, K or A "
                "followed by a suit c, d, h or s, or JK for the joker)",
                text=repr(text),
            )
        )
    return Card(rank, suit)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by white space and/or commas.

    >>> [str(card) for card in parse_cards("As Td 7h 2c JK")]
    ['As', 'Td', '7h', '2c', 'JK']

    An empty or blank string gives an empty tuple.

    :raises TypeError: if ``text`` is not a string.
    :raises ValueError: naming the first token that is not a card, or the first
        card that appears twice.
    """
    if not isinstance(text, str):
        raise TypeError(f"cards must be given as a string, not {type(text).__name__}")
    cards: list[Card] = []
    seen: set[Card] = set()
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        card = parse_card(token)
        if card in seen:
            from engine.wording import Phrase  # here: engine.wording imports this module

            raise ValueError(
                Phrase("card {token} appears twice in {text}", token=repr(token), text=repr(text))
            )
        seen.add(card)
        cards.append(card)
    return tuple(cards)


def cards_of_rank(rank: int, deck: Iterable[Card] = DECK_52) -> frozenset[Card]:
    """The cards of one rank in ``deck``: ``cards_of_rank(2)`` is the four deuces.

    :raises ValueError: if ``rank`` is not an integer from 2 to 14.
    """
    if type(rank) is not int or not 2 <= rank <= 14:
        raise ValueError(f"rank must be an integer from 2 to 14, not {rank!r}")
    return frozenset(card for card in deck if card.rank == rank)


_SWAPPERS: dict[int, tuple[int, Callable[[list[Any], int], None]]] = {}


def _swapper(n: int) -> Callable[[list[Any], int], None]:
    """A function applying the swaps of a Fisher-Yates shuffle of ``n`` items whose digits, in
    mixed radix, make up an integer below ``n!`` (see :func:`permuted`).

    The swaps are written out (no loop), and the digits are taken from the big integer a few
    at a time: one division by a product of radices below ``2**30`` leaves a one-digit integer
    whose own digits cost little. The result is exactly the one of the plain loop::

        for i in range(n - 1, 0, -1):
            x, j = divmod(x, i + 1)
            order[i], order[j] = order[j], order[i]
    """
    lines = ["def swap(o, x):"]
    i = n - 1
    while i >= 1:
        product = 1
        positions = []
        while i >= 1 and product * (i + 1) < 1 << 30:
            product *= i + 1
            positions.append(i)
            i -= 1
        lines.append(f"    x, r = divmod(x, {product})")
        for k in positions[:-1]:
            lines.append(f"    j = r % {k + 1}")
            lines.append(f"    r //= {k + 1}")
            lines.append(f"    o[{k}], o[j] = o[j], o[{k}]")
        # What is left of the chunk is below the last radix: it is that digit.
        k = positions[-1]
        lines.append(f"    o[{k}], o[r] = o[r], o[{k}]")
    if len(lines) == 1:
        lines.append("    pass")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)
    swap: Callable[[list[Any], int], None] = namespace["swap"]
    return swap


def permuted(pack: Sequence[T], rng: random.Random) -> tuple[T, ...]:
    """``pack`` in a uniformly random order drawn from ``rng``: the one shuffle of the engine
    (decks, reshuffles, a tournament's seat draw). Items are not checked: see :func:`shuffled`.

    One random integer below ``n!`` (drawn by rejection, so exactly uniform) is read as the
    digits of a Fisher-Yates shuffle in mixed radix: fewer calls into the generator than
    :meth:`random.Random.shuffle`, and a single read of the operating system's entropy with
    :class:`random.SystemRandom`.
    """
    n = len(pack)
    known = _SWAPPERS.get(n)
    if known is None:
        known = _SWAPPERS[n] = (math.factorial(n), _swapper(n))
    total, swap = known
    bits = total.bit_length()
    x = rng.getrandbits(bits)
    while x >= total:
        x = rng.getrandbits(bits)
    order = list(pack)
    swap(order, x)
    return tuple(order)


def shuffled(cards: Iterable[Card], rng: random.Random) -> tuple[Card, ...]:
    """A new tuple holding ``cards`` in an order drawn from ``rng``.

    The generator is the only source of randomness, so the same seed gives the
    same order. Real games should pass ``secrets.SystemRandom()``.

    :raises TypeError: if ``rng`` is not a :class:`random.Random` (which
        includes :class:`random.SystemRandom`), or an item is not a card.
    """
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
    deck = tuple(cards)
    for card in deck:
        if not isinstance(card, Card):
            raise TypeError(f"can only shuffle cards, not {card!r}")
    return permuted(deck, rng)
