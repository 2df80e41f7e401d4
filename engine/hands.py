"""Hand values for every draw game the bot deals.

:func:`evaluate` turns five to nine cards (or a short hand of three or four, see below)
into a :class:`HandValue` under one
:class:`Ranking`. Values of the same ranking are totally ordered, and the
greater value is always the better hand, for lowball too. Equal values tie.

>>> from engine.cards import parse_cards
>>> low = evaluate(parse_cards("7s 5d 4c 3h 2s"), Ranking.DEUCE_TO_SEVEN)
>>> low.name
'Seven-five low'
>>> low > evaluate(parse_cards("8s 5d 4c 3h 2s"), Ranking.DEUCE_TO_SEVEN)
True
>>> bug = evaluate(parse_cards("Ah Th 9h 8h JK"), Ranking.HIGH)
>>> bug.name, [str(played) for played in bug.cards]
('Flush, ace high', ['Ah', 'JK=Kh', 'Th', '9h', '8h'])

Rankings
--------
``HIGH``
    The usual order, high card up to straight flush, with five of a kind on
    top when wild cards are in play. The ace plays high or below the deuce
    (5-4-3-2-A is the lowest straight).
``STRIPPED_HIGH``
    For the 32-card deck (sevens up; a lower card raises :class:`ValueError`).
    A flush beats a full house, and the ace also plays below the seven, so
    A-7-8-9-10 is the lowest straight (ten high). Hands whose ranks tie are
    decided by a suit, hearts > diamonds > clubs > spades, taken from one card
    of the combination; only that card's suit counts:

    * high card, straight, flush, straight flush: the top card as it plays
      (the ten of A-7-8-9-10);
    * pair, three and four of a kind, five of a kind: the best-suited card of
      the group;
    * two pair: the best-suited card of the higher pair;
    * full house: the best-suited card of the three.
``ACE_TO_FIVE``
    Lowball. Aces are low, straights and flushes do not exist; 5-4-3-2-A is
    the best hand. Pairs are bad: A-A-2-3-4 loses to every hand without a
    pair and beats every other pair.
``DEUCE_TO_SEVEN``
    Lowball. Aces are high only; straights and flushes count as made hands
    (bad for a low). 7-5-4-3-2 of mixed suits is the best hand; A-5-4-3-2 is
    an ace-high no-pair hand, not a straight.
``ACE_TO_SIX``
    Lowball. Aces are low only, straights and flushes count; 6-4-3-2-A is the
    best hand and 5-4-3-2-A is a straight. K-Q-J-10-A is no straight here
    (the ace cannot play high).

Wild cards and the joker
------------------------
Any card in ``wild`` is fully wild: it plays as whichever card gives the best
value. Under a high ranking that can be a fifth card of a rank (five of a
kind). Otherwise a wild card never plays as a card that the five playing
cards already hold, so a wild card in a flush is the highest card of that
suit which the flush lacks, never a second ace.

The joker follows ``wild`` when it is named there. When it is not:

* under ``HIGH`` and ``STRIPPED_HIGH`` it is the *bug*: it plays as an ace, or
  as any card that makes a straight, flush or straight flush (in a flush,
  that means the best card of the suit the hand lacks). With four aces it
  makes five aces, the best hand;
* under the three lowball rankings it is the *fitter*: it plays as the card
  that makes the best low. Under ``ACE_TO_FIVE`` that is always the lowest
  rank the hand lacks; under ``DEUCE_TO_SEVEN`` and ``ACE_TO_SIX`` it also
  steers clear of straights and flushes, exactly like a wild card.

A card standing for another (wild card, bug or fitter) takes the best suit,
in the order hearts, diamonds, clubs, spades, whose card of that rank the hand
does not hold (the flush suit in a flush; away from a suit that would make an
unwanted flush). This only shows in :attr:`HandValue.cards` and in
``STRIPPED_HIGH`` suit tie-breaks.

Short hands
-----------
Games dealt with fewer cards (the ``cards:3`` and ``cards:4`` modifiers) rank
three- and four-card hands by the common home-game convention: a straight or a
flush takes five cards, so a short hand only makes pairs, two pair (four
cards), three of a kind and four of a kind (four cards), then compares its
cards from the highest down. For low the same holds: the fewer and lower the
ranks the better, with no pair; aces are low in ``ACE_TO_FIVE`` and
``ACE_TO_SIX`` (3-2-A is the best three-card low) and high in
``DEUCE_TO_SEVEN`` (4-3-2 is best). A wild card joins the best group of a high
hand (or makes aces) and is the best rank a low lacks; the bug is an ace and
the fitter the lowest rank missing. ``STRIPPED_HIGH`` has no short hands.
Short values only compare with values of the same size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from enum import IntEnum, StrEnum
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Any, Final, NamedTuple

from engine.cards import JOKER, RANK_WORDS, Card, parse_card

__all__ = [
    "MOST_CARDS",
    "Category",
    "HandValue",
    "PlayedCard",
    "Ranking",
    "evaluate",
    "low_qualifies",
    "minimum_pair",
    "opening_requirement_met",
    "prepare",
]


class Ranking(StrEnum):
    """How hands are ranked. Each member's value is its kebab-case name, so
    ``Ranking("ace-to-five") is Ranking.ACE_TO_FIVE``."""

    HIGH = "high"
    STRIPPED_HIGH = "stripped-high"
    ACE_TO_FIVE = "ace-to-five"
    DEUCE_TO_SEVEN = "deuce-to-seven"
    ACE_TO_SIX = "ace-to-six"

    @property
    def is_low(self) -> bool:
        """Whether this is one of the lowball rankings."""
        return self in _LOW_RANKINGS


_LOW_RANKINGS: Final = frozenset((Ranking.ACE_TO_FIVE, Ranking.DEUCE_TO_SEVEN, Ranking.ACE_TO_SIX))

MOST_CARDS: Final = 9
"""The most cards :func:`evaluate` values at once (the best five of them)."""


class Category(IntEnum):
    """The kind of combination a hand makes.

    The integer order is the standard high-hand order, so for ``HIGH`` hands
    ``value.category >= Category.THREE_OF_A_KIND`` means "trips or better".
    Under ``STRIPPED_HIGH`` a flush beats a full house although its category
    is smaller; compare :class:`HandValue` objects to decide who wins. Lowball
    hands without a pair have category ``HIGH_CARD``.
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9


class PlayedCard(NamedTuple):
    """One of the five cards of a hand as it plays.

    ``card`` is the card held; ``plays_as`` is the card it counts as. They are
    the same card except for a wild card, bug or fitter.
    """

    card: Card
    plays_as: Card

    @property
    def is_substitute(self) -> bool:
        """Whether the card stands for another card (a wild card, bug or fitter)."""
        return self.card is not self.plays_as

    def __str__(self) -> str:
        if self.card is self.plays_as:
            return str(self.card)
        return f"{self.card}={self.plays_as}"


# ---------------------------------------------------------------------------
# Rules of each ranking, and the strength of five ranks
# ---------------------------------------------------------------------------
#
# A "strength" S is an int that orders hands under a ranking as in high poker:
# the category's position in the ranking's order times 2**20, plus up to five
# 4-bit rank values in order of importance. Ranks are "values" here: the ace
# is 1 in the ace-low rankings and 14 otherwise. The score stored in a
# HandValue is S for HIGH, 4*S + suit for STRIPPED_HIGH, and -S for lowball
# (a lower strength is a better low).

_C = Category
_STANDARD_ORDER: Final = tuple(Category)
_STRIPPED_ORDER: Final = (
    _C.HIGH_CARD,
    _C.PAIR,
    _C.TWO_PAIR,
    _C.THREE_OF_A_KIND,
    _C.STRAIGHT,
    _C.FULL_HOUSE,
    _C.FLUSH,
    _C.FOUR_OF_A_KIND,
    _C.STRAIGHT_FLUSH,
    _C.FIVE_OF_A_KIND,
)
_SHAPES: Final = {
    (5,): _C.FIVE_OF_A_KIND,
    (4, 1): _C.FOUR_OF_A_KIND,
    (3, 2): _C.FULL_HOUSE,
    (3, 1, 1): _C.THREE_OF_A_KIND,
    (2, 2, 1): _C.TWO_PAIR,
    (2, 1, 1, 1): _C.PAIR,
}
_GROUP_SIZES: Final = {
    _C.HIGH_CARD: (1, 1, 1, 1, 1),
    _C.PAIR: (2, 1, 1, 1),
    _C.TWO_PAIR: (2, 2, 1),
    _C.THREE_OF_A_KIND: (3, 1, 1),
    _C.STRAIGHT: (5,),
    _C.FLUSH: (1, 1, 1, 1, 1),
    _C.FULL_HOUSE: (3, 2),
    _C.FOUR_OF_A_KIND: (4, 1),
    _C.STRAIGHT_FLUSH: (5,),
    _C.FIVE_OF_A_KIND: (5,),
}
# Short hands (three or four cards) have no straights or flushes: only groups of a rank count.
_SHORT_SHAPES: Final = {
    (1, 1, 1): _C.HIGH_CARD,
    (2, 1): _C.PAIR,
    (3,): _C.THREE_OF_A_KIND,
    (1, 1, 1, 1): _C.HIGH_CARD,
    (2, 1, 1): _C.PAIR,
    (2, 2): _C.TWO_PAIR,
    (3, 1): _C.THREE_OF_A_KIND,
    (4,): _C.FOUR_OF_A_KIND,
}
_SHORT_GROUP_SIZES: Final = {
    (category, sum(shape)): shape for shape, category in _SHORT_SHAPES.items()
}


def _group_sizes(category: Category, size: int) -> tuple[int, ...]:
    """How the cards of a ``size``-card hand of ``category`` group by rank, most important
    group first."""
    if size == 5:
        return _GROUP_SIZES[category]
    return _SHORT_GROUP_SIZES[category, size]


_SUIT_PREFERENCE: Final = ("h", "d", "c", "s")
_SUIT_STRENGTH: Final = {"s": 0, "c": 1, "d": 2, "h": 3}


class _Rules:
    """Everything that differs between rankings."""

    __slots__ = (
        "ace_low",
        "bug",
        "candidates",
        "flushes",
        "low",
        "order",
        "position",
        "ranking",
        "ranks",
        "straight_plays",
        "straight_tops",
        "strengths",
        "stripped",
    )

    def __init__(
        self,
        ranking: Ranking,
        *,
        ranks: tuple[int, ...],
        ace_low: bool,
        straights: tuple[tuple[int, ...], ...],
        flushes: bool,
        order: tuple[Category, ...],
    ) -> None:
        self.ranking = ranking
        self.ranks = ranks
        self.ace_low = ace_low
        self.flushes = flushes
        self.order = order
        self.position = {category: i for i, category in enumerate(order)}
        self.low = ranking in _LOW_RANKINGS
        self.bug = not self.low
        self.stripped = ranking is Ranking.STRIPPED_HIGH
        # ``straights`` lists each straight's real ranks from the top card down.
        self.straight_tops = {
            frozenset(self.value(rank) for rank in plays): self.value(plays[0])
            for plays in straights
        }
        self.straight_plays = {self.value(plays[0]): plays for plays in straights}
        # Only for wild cards and the bug, whose table entries try many candidates each, often
        # the same ones: a natural hand's entry asks for its one candidate once (or twice,
        # with and without a flush), and the table keeps the answer.
        self.candidates: dict[tuple[int, ...], tuple[int, int | None] | None] = {}

    def value(self, rank: int) -> int:
        return 1 if rank == 14 and self.ace_low else rank

    def strength(self, ranks: tuple[int, ...], flush: bool) -> int:
        """The strength of five real ranks (already sorted), flush or not."""
        values = [self.value(rank) for rank in ranks]
        counts = Counter(values)
        groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
        shape = tuple(count for _, count in groups)
        fields = [value for value, _ in groups]
        if shape in _SHAPES:
            category = _SHAPES[shape]
        else:
            top = self.straight_tops.get(frozenset(values))
            is_flush = flush and self.flushes
            if top is not None:
                category = _C.STRAIGHT_FLUSH if is_flush else _C.STRAIGHT
                fields = [top]
            else:
                category = _C.FLUSH if is_flush else _C.HIGH_CARD
        strength = self.position[category] << 20
        for i, field in enumerate(fields):
            strength |= field << (16 - 4 * i)
        return strength

    def candidate(self, ranks: tuple[int, ...]) -> tuple[int, int | None] | None:
        """For five ranks (sorted, highest first) that wild cards may have
        chosen: their strength as a non-flush and as a flush (None unless all
        five differ), or None if no hand has these ranks (a rank five times is
        five of a kind; more than four otherwise is impossible)."""
        counts = Counter(ranks)
        if len(counts) > 1 and max(counts.values()) > 4:
            return None
        flush = self.strength(ranks, True) if len(counts) == 5 else None
        return (self.strength(ranks, False), flush)

    def remembered_candidate(self, ranks: tuple[int, ...]) -> tuple[int, int | None] | None:
        """:meth:`candidate`, remembered (see ``candidates``)."""
        try:
            return self.candidates[ranks]
        except KeyError:
            result = self.candidates[ranks] = self.candidate(ranks)
            return result

    def decode(self, score: int, size: int = 5) -> tuple[Category, tuple[int, ...]]:
        """The category and the deciding rank values of a score (of a hand of ``size``
        cards: five, or three or four for a short hand)."""
        if self.stripped:
            strength = score >> 2
        elif self.low:
            strength = -score
        else:
            strength = score
        category = self.order[strength >> 20]
        count = len(_group_sizes(category, size))
        fields = tuple((strength >> (16 - 4 * i)) & 15 for i in range(count))
        return category, fields


def _straights(
    tops: Iterable[int], *, wheel: tuple[int, ...] | None
) -> tuple[tuple[int, ...], ...]:
    found = [tuple(range(top, top - 5, -1)) for top in tops]
    if wheel is not None:
        found.insert(0, wheel)
    return tuple(found)


_ALL_RANKS: Final = tuple(range(2, 15))
_RULES: Final = {
    Ranking.HIGH: _Rules(
        Ranking.HIGH,
        ranks=_ALL_RANKS,
        ace_low=False,
        straights=_straights(range(6, 15), wheel=(5, 4, 3, 2, 14)),
        flushes=True,
        order=_STANDARD_ORDER,
    ),
    Ranking.STRIPPED_HIGH: _Rules(
        Ranking.STRIPPED_HIGH,
        ranks=tuple(range(7, 15)),
        ace_low=False,
        straights=_straights(range(11, 15), wheel=(10, 9, 8, 7, 14)),
        flushes=True,
        order=_STRIPPED_ORDER,
    ),
    Ranking.ACE_TO_FIVE: _Rules(
        Ranking.ACE_TO_FIVE,
        ranks=_ALL_RANKS,
        ace_low=True,
        straights=(),
        flushes=False,
        order=_STANDARD_ORDER,
    ),
    Ranking.DEUCE_TO_SEVEN: _Rules(
        Ranking.DEUCE_TO_SEVEN,
        ranks=_ALL_RANKS,
        ace_low=False,
        straights=_straights(range(6, 15), wheel=None),
        flushes=True,
        order=_STANDARD_ORDER,
    ),
    Ranking.ACE_TO_SIX: _Rules(
        Ranking.ACE_TO_SIX,
        ranks=_ALL_RANKS,
        ace_low=True,
        straights=_straights(range(6, 14), wheel=(5, 4, 3, 2, 14)),
        flushes=True,
        order=_STANDARD_ORDER,
    ),
}


# ---------------------------------------------------------------------------
# Lookup tables
# ---------------------------------------------------------------------------
#
# The sum of five ``Card._k`` codes (see engine.cards) holds the ranks as a
# base-5 number (one digit per rank, one for the joker) in bits 0..32, a 6-bit
# field per suit in bits 33..56 (7 per card of the suit, 7 in each field for
# the joker) and two bits per card from bit 60 up: the card's own bit, and
# above it a bit that only a duplicate card can set. Five cards of one suit,
# or four and the joker, make 35, the only field value with bit 5 set: a
# flush is possible.
#
# To make a table key, take out the codes of the substitute cards (wild
# cards; the fitter in lowball is handled by the table itself), add 7 per
# substitute to every suit field (so bit 5 still means "every natural card
# has this suit") and put the number of substitutes in bits 57..59; then keep
# the bits in ``_KEY_MASK``. Without wild cards the key is simply the sum
# masked. The ranks sit in the low bits so that keys hash well. One table per
# ranking maps keys to scores; entries are computed on first use and kept.

_RANK_PART: Final = (1 << 33) - 1
_FLUSH_BITS: Final = sum(32 << shift for shift in (33, 39, 45, 51))
_WILD_SHIFT: Final = 57
_DUPLICATES: Final = sum(2 << (60 + 2 * index) for index in range(53))
# The duplicate bits are part of the mask: no real key has one, so a hand
# holding a card twice always misses the table, and _fill reports it.
_KEY_MASK: Final = _RANK_PART | _FLUSH_BITS | (7 << _WILD_SHIFT) | _DUPLICATES
_KEY_ADD: Final = tuple(
    sum((7 * w) << shift for shift in (33, 39, 45, 51)) + (w << _WILD_SHIFT) for w in range(8)
)


def _compute_entry(rules: _Rules, key: int) -> int:
    """The score of the best hand for one table key (see above)."""
    flushable = bool(key & _FLUSH_BITS)
    wild_count = (key >> _WILD_SHIFT) & 7
    naturals: list[int] = []
    digits = key & _RANK_PART
    for rank in _ALL_RANKS:
        digits, count = divmod(digits, 5)
        naturals.extend([rank] * count)
    joker = digits
    if joker and not rules.bug:
        wild_count += joker
        joker = 0
    forced_flush = flushable and wild_count == 0 and joker == 0
    bug_options: tuple[int | None, ...] = rules.ranks if joker else (None,)
    find = rules.candidate if wild_count == 0 and joker == 0 else rules.remembered_candidate
    best: int | None = None
    for bug in bug_options:
        base = (*naturals, bug) if bug is not None else tuple(naturals)
        for extra in combinations_with_replacement(rules.ranks, wild_count):
            candidate = find(tuple(sorted(base + extra, reverse=True)))
            if candidate is None:
                continue
            plain, flush = candidate
            if forced_flush:
                assert flush is not None
                strengths: tuple[int, ...] = (flush,)
            elif flushable and flush is not None:
                strengths = (plain, flush)
            else:
                strengths = (plain,)
            for strength in strengths:
                if bug is not None and bug != 14:
                    category = rules.order[strength >> 20]
                    if category not in (_C.STRAIGHT, _C.FLUSH, _C.STRAIGHT_FLUSH):
                        continue
                score = -strength if rules.low else strength
                if best is None or score > best:
                    best = score
    if best is None:  # pragma: no cover - every key built from real cards has a hand
        raise AssertionError(f"no hand for table key {key:#x}")
    return best


# STRIPPED_HIGH is missing from _FAST on purpose: its suit tie-break needs the
# slower general path. Its table still lives in _ALL_TABLES.
_ALL_TABLES: Final[dict[Ranking, dict[int, int]]] = {ranking: {} for ranking in _RULES}
_FAST: Final[dict[Ranking, tuple[dict[int, int], Ranking]]] = {
    ranking: (table, ranking)
    for ranking, table in _ALL_TABLES.items()
    if ranking is not Ranking.STRIPPED_HIGH
}


def _fill(ranking: Ranking, key: int, hand: tuple[Card, ...]) -> int:
    """Compute, store and return a table entry that was not there yet."""
    if key & _DUPLICATES:
        raise _bad_cards(hand)
    score = _compute_entry(_RULES[ranking], key)
    _ALL_TABLES[ranking][key] = score
    return score


# ---------------------------------------------------------------------------
# Wild-card sets
# ---------------------------------------------------------------------------

_CARD_BY_INDEX: Final = {card.index: card for card in (*Card._instances.values(),)}


class _WildInfo:
    """A wild-card set prepared for evaluation: its cards' bits and, for each
    subset of it met so far, what to subtract from a five-card code sum to
    get the table key of the rest (see "Lookup tables")."""

    __slots__ = ("cards", "mask", "offsets")

    def __init__(self, cards: frozenset[Card]) -> None:
        self.cards = cards
        self.mask = 0
        for card in cards:
            self.mask |= card._bit
        self.offsets: dict[int, int] = {}

    def offset(self, bits: int) -> int:
        total = 0
        rest = bits
        while rest:
            low = rest & -rest
            total += _CARD_BY_INDEX[(low.bit_length() - 61) // 2]._k
            rest ^= low
        offset = total - _KEY_ADD[bits.bit_count()]
        if len(self.offsets) < 4096:
            self.offsets[bits] = offset
        return offset


_NO_WILD: Final[frozenset[Card]] = frozenset()
_NO_WILD_INFO: Final = _WildInfo(_NO_WILD)
_WILD_INFOS: dict[AbstractSet[Card], _WildInfo] = {}


def _wild_info(wild: object) -> _WildInfo:
    try:
        return _WILD_INFOS[wild]  # type: ignore[index]
    except (KeyError, TypeError):
        pass
    if isinstance(wild, (str, bytes)) or not isinstance(wild, Iterable):
        raise TypeError(f"wild must be a set of cards, not {type(wild).__name__}")
    items = tuple(wild)
    for card in items:
        if not isinstance(card, Card):
            raise TypeError(f"wild must hold only cards, not {card!r}")
    cards = frozenset(items)
    info = _WildInfo(cards)
    if len(_WILD_INFOS) >= 64:
        _WILD_INFOS.clear()
    _WILD_INFOS[cards] = info
    return info


# ---------------------------------------------------------------------------
# Hand values
# ---------------------------------------------------------------------------


def _one(value: int) -> str:
    return RANK_WORDS[value][0]


def _many(value: int) -> str:
    return RANK_WORDS[value][1]


def _describe(rules: _Rules, category: Category, fields: tuple[int, ...]) -> str:
    """What a player would call the hand."""
    first = fields[0]
    if category is _C.HIGH_CARD:
        if rules.low:
            return f"{_one(first).capitalize()}-{_one(fields[1])} low"
        return f"{_one(first).capitalize()}-high"
    if category is _C.PAIR:
        return f"Pair of {_many(first)}"
    if category is _C.TWO_PAIR:
        return f"Two pair, {_many(first)} and {_many(fields[1])}"
    if category is _C.THREE_OF_A_KIND:
        return f"Three of a kind, {_many(first)}"
    if category is _C.STRAIGHT:
        return f"Straight, {_one(first)} high"
    if category is _C.FLUSH:
        return f"Flush, {_one(first)} high"
    if category is _C.FULL_HOUSE:
        return f"Full house, {_many(first)} over {_many(fields[1])}"
    if category is _C.FOUR_OF_A_KIND:
        return f"Four of a kind, {_many(first)}"
    if category is _C.STRAIGHT_FLUSH:
        if first == 14:
            return "Royal flush"
        return f"Straight flush, {_one(first)} high"
    return f"Five {_many(first)}"


def _target_ranks(
    rules: _Rules, category: Category, fields: tuple[int, ...], size: int = 5
) -> list[int]:
    """The real ranks of the cards in the order they play."""
    if category in (_C.STRAIGHT, _C.STRAIGHT_FLUSH):
        return list(rules.straight_plays[fields[0]])
    ranks: list[int] = []
    for value, count in zip(fields, _group_sizes(category, size), strict=True):
        ranks.extend([14 if value == 1 else value] * count)
    return ranks


_AS_ITSELF: dict[Card, PlayedCard] = {}
"""A natural card playing as itself, one shared value per card: a bot keeps the played cards
of every table's last showdown."""


def _play(
    rules: _Rules, hand: tuple[Card, ...], wild: frozenset[Card], score: int
) -> tuple[Category, tuple[int, ...], tuple[PlayedCard, ...]]:
    """Decode a score and say what each of the cards plays as."""
    size = 5 if len(hand) >= 5 else len(hand)
    category, fields = rules.decode(score, size)
    substitutes = [card for card in hand if card in wild or card is JOKER]
    naturals = [card for card in hand if not (card in wild or card is JOKER)]
    pool: dict[int, list[Card]] = {}
    for card in sorted(naturals, key=lambda c: _SUIT_PREFERENCE.index(c.suit)):
        pool.setdefault(card.rank, []).append(card)
    slots: list[PlayedCard | int] = []
    for rank in _target_ranks(rules, category, fields, size):
        available = pool.get(rank)
        if available:
            card = available.pop(0)
            as_itself = _AS_ITSELF.get(card)
            if as_itself is None:
                as_itself = _AS_ITSELF[card] = PlayedCard(card, card)
            slots.append(as_itself)
        else:
            slots.append(rank)
    flush = category in (_C.FLUSH, _C.STRAIGHT_FLUSH)
    held = set(naturals)
    suits_so_far = {card.suit for card in naturals}
    flush_suit = next(iter(suits_so_far)) if len(suits_so_far) == 1 else "h"
    stand_ins = iter(substitutes)
    played: list[PlayedCard] = []
    for slot in slots:
        if isinstance(slot, PlayedCard):
            played.append(slot)
            continue
        if flush:
            suit = flush_suit
        else:
            free = [s for s in _SUIT_PREFERENCE if Card(slot, s) not in held]
            if len(suits_so_far) == 1 and len(free) > 1:
                # Keep clear of the one suit seen so far: no accidental flush.
                free = [s for s in free if s not in suits_so_far] or free
            suit = free[0] if free else _SUIT_PREFERENCE[0]
        plays_as = Card(slot, suit)
        held.add(plays_as)
        suits_so_far.add(suit)
        played.append(PlayedCard(next(stand_ins), plays_as))
    return category, fields, tuple(played)


def _stripped_suit(category: Category, played: tuple[PlayedCard, ...]) -> int:
    """The suit strength that breaks ties between equal STRIPPED_HIGH ranks."""
    if category in (_C.HIGH_CARD, _C.STRAIGHT, _C.FLUSH, _C.STRAIGHT_FLUSH):
        return _SUIT_STRENGTH[played[0].plays_as.suit]
    rank = played[0].plays_as.rank
    return max(_SUIT_STRENGTH[p.plays_as.suit] for p in played if p.plays_as.rank == rank)


class HandValue:
    """The value of a hand under one ranking; made by :func:`evaluate`.

    Values of the same ranking compare with ``<``, ``==`` and so on, and the
    greater value is the better hand (for lowball, the better low). Equal
    values tie and hash alike, whatever cards made them. Ordering values of
    different rankings raises :class:`TypeError`; they are never equal.
    """

    __slots__ = ("_detail", "_hand", "_ranking", "_score", "_wild")

    _detail: tuple[Category, tuple[int, ...], tuple[PlayedCard, ...]]

    def __init__(
        self, ranking: Ranking, score: int, hand: tuple[Card, ...], wild: frozenset[Card]
    ) -> None:
        self._ranking = ranking
        self._score = score
        self._hand = hand
        self._wild = wild

    @property
    def ranking(self) -> Ranking:
        """The ranking this value belongs to."""
        return self._ranking

    @property
    def score(self) -> int:
        """An integer that orders the values of this ranking (greater is better).

        Only meaningful against scores of the same ranking, in the same
        version of this module.
        """
        return self._score

    @property
    def size(self) -> int:
        """How many cards the value is made of: five, or three or four for a short hand."""
        return 5 if len(self._hand) >= 5 else len(self._hand)

    def _details(self) -> tuple[Category, tuple[int, ...], tuple[PlayedCard, ...]]:
        try:
            return self._detail
        except AttributeError:
            wild = getattr(self, "_wild", _NO_WILD)
            if len(self._hand) > 5:
                # The table lookup for six to nine cards gave the score only: which five
                # cards make it is worked out here, when somebody asks.
                self._hand = _evaluate_many(self._hand, self._ranking, wild)._hand
            detail = _play(_RULES[self._ranking], self._hand, wild, self._score)
            self._detail = detail
            return detail

    @property
    def category(self) -> Category:
        """The kind of combination (pair, flush, ...)."""
        return self._details()[0]

    @property
    def name(self) -> str:
        """What a player would say: "Full house, kings over nines", "Seven-five low"."""
        category, fields, _ = self._details()
        return _describe(_RULES[self._ranking], category, fields)

    @property
    def naming(self) -> tuple[Category, tuple[int, ...]]:
        """What :attr:`name` is said from: the category and the ranks that name it, most
        important first (the three then the pair of a full house; a low's cards from the top,
        an ace played low as 1). A translated name is built from these.

        >>> from engine.cards import parse_cards
        >>> evaluate(parse_cards("9h 9d 9s Kc Kd"), Ranking.HIGH).naming
        (<Category.FULL_HOUSE: 6>, (9, 13))
        """
        category, fields, _ = self._details()
        return category, fields

    @property
    def cards(self) -> tuple[PlayedCard, ...]:
        """The five cards that make the value, in the order they play.

        Groups come first (the three of a full house, then the pair), then the
        other cards from the most to the least important; straights run from
        the top card down (5-4-3-2-A). Each item says which card is held and
        which card it plays as.
        """
        return self._details()[2]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks the five cards play as, in the order of :attr:`cards` (ace 14)."""
        return tuple(played.plays_as.rank for played in self._details()[2])

    def _check(self, other: HandValue) -> None:
        if other._ranking is not self._ranking:
            raise TypeError(
                f"cannot compare a {self._ranking.value} hand with a {other._ranking.value} hand"
            )
        if (len(self._hand) < 5 or len(other._hand) < 5) and self.size != other.size:
            raise TypeError(f"cannot compare a {self.size}-card hand with a {other.size}-card hand")

    def __lt__(self, other: object) -> bool:
        if other.__class__ is not HandValue:
            return NotImplemented
        assert isinstance(other, HandValue)
        self._check(other)
        return self._score < other._score

    def __le__(self, other: object) -> bool:
        if other.__class__ is not HandValue:
            return NotImplemented
        assert isinstance(other, HandValue)
        self._check(other)
        return self._score <= other._score

    def __gt__(self, other: object) -> bool:
        if other.__class__ is not HandValue:
            return NotImplemented
        assert isinstance(other, HandValue)
        self._check(other)
        return self._score > other._score

    def __ge__(self, other: object) -> bool:
        if other.__class__ is not HandValue:
            return NotImplemented
        assert isinstance(other, HandValue)
        self._check(other)
        return self._score >= other._score

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not HandValue:
            return NotImplemented
        assert isinstance(other, HandValue)
        return self._ranking is other._ranking and self._score == other._score

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((self._ranking, self._score))

    def __str__(self) -> str:
        return self.name

    def to_state(self) -> dict[str, Any]:
        """The value as JSON-friendly data that :meth:`from_state` makes again (unlike its
        name, which is all a stored event keeps). Scores are those of this version of the
        module: a state is for the bot's own snapshots, not for the history.

        >>> from engine.cards import parse_cards
        >>> value = evaluate(parse_cards("9h 9d 9s Kc Kd"), Ranking.HIGH)
        >>> again = HandValue.from_state(value.to_state())
        >>> again == value and again.name == value.name
        True
        """
        return {
            "ranking": self._ranking.value,
            "score": self._score,
            "hand": [str(card) for card in self._hand],
            "wild": sorted(str(card) for card in getattr(self, "_wild", _NO_WILD)),
        }

    @classmethod
    def from_state(cls, data: Mapping[str, Any]) -> HandValue:
        """The value saved by :meth:`to_state`.

        :raises ValueError: if ``data`` is not such a value.
        """
        try:
            return cls(
                Ranking(data["ranking"]),
                int(data["score"]),
                tuple(parse_card(str(card)) for card in data["hand"]),
                frozenset(parse_card(str(card)) for card in data["wild"]),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a hand value: {data!r}") from exc

    def __repr__(self) -> str:
        played = " ".join(str(item) for item in self.cards)
        return f"<HandValue {self._ranking.value}: {self.name!r} [{played}]>"


# ---------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------

_new: Final = object.__new__
_SUBSETS: Final = {n: tuple(combinations(range(n), 5)) for n in range(5, 10)}


def _bad_cards(cards: tuple[object, ...]) -> Exception:
    """The exception that explains what is wrong with ``cards``."""
    for item in cards:
        if not isinstance(item, Card):
            return TypeError(f"hands hold cards, not {item!r}")
    seen: set[Card] = set()
    for card in cards:
        assert isinstance(card, Card)
        if card in seen:
            return ValueError(f"card {card} appears twice in the hand")
        seen.add(card)
    return ValueError("invalid hand")  # pragma: no cover


def _member(ranking: object) -> Ranking:
    """The Ranking member for ``ranking`` (a member or its kebab-case value)."""
    if isinstance(ranking, str):
        for member in Ranking:
            if member.value == ranking:
                return member
    raise _bad_ranking(ranking)


def _bad_ranking(ranking: object) -> Exception:
    if isinstance(ranking, str):
        try:
            Ranking(ranking)
        except ValueError:
            names = ", ".join(repr(member.value) for member in Ranking)
            return ValueError(f"unknown ranking {ranking!r} (expected one of {names})")
    return TypeError(f"ranking must be a Ranking, not {type(ranking).__name__}")


def evaluate(
    cards: Iterable[Card], ranking: Ranking, *, wild: AbstractSet[Card] = _NO_WILD
) -> HandValue:
    """The value of the best five-card hand in ``cards`` under ``ranking``.

    ``cards`` holds five to nine different cards, or a short hand of three or four (see
    "Short hands" in the module docstring); their order never changes
    the value. With more than five, the value is that of the best five of
    them; when several fives are equally good, :attr:`HandValue.cards` shows
    the one that comes first among ``itertools.combinations(cards, 5)``.
    ``ranking`` is a :class:`Ranking` (its kebab-case value, such as
    ``"ace-to-five"``, is accepted too). ``wild`` holds the wild cards, for
    example ``cards_of_rank(2)`` for deuces wild; passing the same frozenset
    each time is fastest. See the module docstring for the rules of each
    ranking, wild cards and the joker.

    >>> from engine.cards import parse_cards
    >>> evaluate(parse_cards("Kh Ks Kd 9c 9s"), Ranking.HIGH).name
    'Full house, kings over nines'

    :raises TypeError: if an item of ``cards`` or ``wild`` is not a card, or
        ``ranking`` is neither a :class:`Ranking` nor a string.
    :raises ValueError: if there are fewer than three or more than nine cards,
        a card appears twice, a STRIPPED_HIGH hand holds a card below seven,
        or ``ranking`` is a string that names no ranking.
    """
    hand = cards if cards.__class__ is tuple else tuple(cards)
    if len(hand) != 5:
        if len(hand) == 7 and not wild:
            # Seven cards without wild cards, the common large hand, spelt out here: a
            # Python call fewer. Table misses, possible flushes and errors go the long way.
            try:
                table, _, member = _LARGE[ranking]
                a, b, c, d, e, f, g = hand
                total = a._k + b._k + c._k + d._k + e._k + f._k + g._k
            except (KeyError, TypeError, AttributeError, ValueError):
                return _evaluate_large(hand, ranking, wild)
            score = table.get(total & _LARGE_MASK)
            if score is None or total & _FLUSH_BITS:
                return _evaluate_large(hand, ranking, wild)
            value = _new(HandValue)
            value._ranking = member
            value._hand = hand
            value._score = score
            return value
        return _evaluate_large(hand, ranking, wild)
    # The fast path: five cards, any ranking but STRIPPED_HIGH. Anything else,
    # and every error, goes to _evaluate_many. The HandValue is filled in here
    # rather than through a constructor call, which saves a Python frame.
    try:
        table, ranking = _FAST[ranking]  # a plain "high" becomes Ranking.HIGH
        a, b, c, d, e = hand
        total = a._k + b._k + c._k + d._k + e._k
    except (KeyError, TypeError, AttributeError, ValueError):
        return _evaluate_many(hand, ranking, wild)
    value = _new(HandValue)
    value._ranking = ranking
    value._hand = hand
    if not wild:
        key = total & _KEY_MASK
        try:
            value._score = table[key]
        except KeyError:
            value._score = _fill(ranking, key, hand)
        return value
    try:
        info = _WILD_INFOS[wild]
    except (KeyError, TypeError):
        info = _wild_info(wild)
    bits = total & info.mask
    if bits:
        try:
            key = (total - info.offsets[bits]) & _KEY_MASK
        except KeyError:
            key = (total - info.offset(bits)) & _KEY_MASK
    else:
        key = total & _KEY_MASK
    try:
        value._score = table[key]
    except KeyError:
        value._score = _fill(ranking, key, hand)
    value._wild = info.cards
    return value


def _evaluate_many(hand: tuple[object, ...], ranking: object, wild: object) -> HandValue:
    """The general path: three to nine cards, any ranking, with every check."""
    ranking = _member(ranking)
    rules = _RULES[ranking]
    table = _ALL_TABLES[ranking]
    count = len(hand)
    if count in (3, 4) and all(isinstance(card, Card) for card in hand):
        return _evaluate_short(hand, rules, wild)  # type: ignore[arg-type]
    if not 5 <= count <= MOST_CARDS:
        raise ValueError(f"a hand needs 3 to {MOST_CARDS} cards, not {count}")
    if not all(isinstance(card, Card) for card in hand):
        raise _bad_cards(hand)
    cards: tuple[Card, ...] = hand  # type: ignore[assignment]
    if len(set(cards)) != count:
        raise _bad_cards(hand)
    if rules.stripped:
        for card in cards:
            if 0 < card.rank < 7:
                raise ValueError(
                    f"card {card} is not in the 32-card deck used by the stripped-high ranking"
                )
    info = _wild_info(wild if wild else _NO_WILD)
    mask = info.mask
    offsets = info.offsets
    codes = [card._k for card in cards]
    best_score: int | None = None
    best_five: tuple[int, ...] = ()
    for five in _SUBSETS[count]:
        i, j, k, m, n = five
        total = codes[i] + codes[j] + codes[k] + codes[m] + codes[n]
        bits = total & mask
        if bits:
            offset = offsets.get(bits)
            key = (total - (info.offset(bits) if offset is None else offset)) & _KEY_MASK
        else:
            key = total & _KEY_MASK
        score = table.get(key)
        if score is None:
            score = _fill(ranking, key, cards)
        if rules.stripped:
            chosen = tuple(cards[i] for i in five)
            category, _, played = _play(rules, chosen, info.cards, score << 2)
            score = (score << 2) | _stripped_suit(category, played)
        if best_score is None or score > best_score:
            best_score = score
            best_five = five
    assert best_score is not None
    return HandValue(ranking, best_score, tuple(cards[i] for i in best_five), info.cards)


# ---------------------------------------------------------------------------
# Six to nine cards (seven-card draw, the ``cards:N`` games)
# ---------------------------------------------------------------------------
#
# The code sum of six to nine cards has the same layout as that of five (see "Lookup
# tables"): a rank digit never passes four, a suit field never passes 63, and bit 5 of a
# suit field is set exactly when that suit, with the substitutes, reaches five cards. So
# when no suit field has bit 5, no five of the cards can make a flush, and the best five
# depend only on the ranks, the number of wild cards and the joker: one table per ranking,
# keyed like the five-card one (flush bits left out), gives the score at once. Its entries
# are the best of the five-card entries of every five of those items, computed on first
# use and kept (49,205 rank multisets for seven cards).
#
# When a suit reaches five, a flush is possible:
#
# * under HIGH a flush only ever helps, so the best is the better of the rank-only entry
#   and the best flush among the cards of that suit (with the substitutes); that second
#   table is keyed by the suit's ranks, the wild cards and the joker;
# * ACE_TO_FIVE has no flushes: the flush bits change nothing;
# * DEUCE_TO_SEVEN and ACE_TO_SIX count a flush against the hand: those hands (about one in
#   thirty) take the general path, five cards at a time.

_LARGE_LIMIT: Final = 400_000  # entries kept per table (seven cards need 49,205)
_FLUSH_ONE: Final = 32 << 33  # the flush bit of one suit field: "these five may be a flush"
_LARGE_MASK: Final = _RANK_PART | (7 << _WILD_SHIFT) | _DUPLICATES
_SUIT_FIELDS: Final = (("c", 33), ("d", 39), ("h", 45), ("s", 51))
_RANK_DIGIT: Final = {rank: 5 ** (rank - 2) for rank in _ALL_RANKS}
_JOKER_DIGIT: Final = 5**13
# For each ranking with a fast path: its rank-only table, and its flush table (HIGH only;
# None where the flush bits change nothing, False where a flush takes the general path).
_LARGE: Final[dict[Ranking, tuple[dict[int, int], dict[int, int] | bool | None, Ranking]]] = {
    Ranking.HIGH: ({}, {}, Ranking.HIGH),
    Ranking.ACE_TO_FIVE: ({}, None, Ranking.ACE_TO_FIVE),
    Ranking.DEUCE_TO_SEVEN: ({}, False, Ranking.DEUCE_TO_SEVEN),
    Ranking.ACE_TO_SIX: ({}, False, Ranking.ACE_TO_SIX),
}


def _best_of_items(
    ranking: Ranking, key: int, count: int, flush: int, table: dict[int, int]
) -> int:
    """The best five-card entry among the ``count`` items (natural ranks, wild cards,
    jokers) that ``key`` stands for, ``flush`` added to each five-card key: the best of the
    entries without one item, down to five items, whose entry is the five-card table's.
    Entries of six items and more are kept in ``table``."""
    if count == 5:
        five = key | flush
        score = _ALL_TABLES[ranking].get(five)
        if score is None:
            score = _ALL_TABLES[ranking][five] = _compute_entry(_RULES[ranking], five)
        return score
    found = table.get(key)
    if found is not None:
        return found
    shorter = count - 1
    best = max(
        _best_of_items(ranking, key - code, shorter, flush, table) for code in set(_item_codes(key))
    )
    if len(table) >= _LARGE_LIMIT:
        table.clear()  # a bound on memory: eight and nine cards have many rank multisets
    table[key] = best
    return best


def _item_codes(key: int) -> list[int]:
    """The key part of each card a large key stands for: naturals, then wild cards, then
    jokers (see "Lookup tables")."""
    codes: list[int] = []
    digits = key & _RANK_PART
    for rank in _ALL_RANKS:
        digits, count = divmod(digits, 5)
        codes.extend([_RANK_DIGIT[rank]] * count)
    codes.extend([1 << _WILD_SHIFT] * ((key >> _WILD_SHIFT) & 7))
    codes.extend([_JOKER_DIGIT] * digits)
    return codes


def _fill_large(ranking: Ranking, key: int, hand: tuple[Card, ...]) -> int:
    """Compute, store and return a rank-only entry for six to nine cards."""
    if key & _DUPLICATES:
        raise _bad_cards(hand)
    return _best_of_items(ranking, key, len(hand), 0, _LARGE[ranking][0])


def _high_flush(
    flushes: dict[int, int], key: int, hand: tuple[Card, ...], wild: frozenset[Card]
) -> int:
    """The best HIGH flush (or straight flush) among the cards of each suit that reaches
    five with the substitutes; ``key`` is the hand's key with its flush bits."""
    wilds = key & (7 << _WILD_SHIFT)
    jokers = (key & _RANK_PART) // _JOKER_DIGIT
    best = -1
    for suit, shift in _SUIT_FIELDS:
        if not key >> shift & 32:
            continue
        ranks = 0
        count = jokers + (wilds >> _WILD_SHIFT)
        for card in hand:
            if card.suit == suit and card not in wild:
                ranks += _RANK_DIGIT[card.rank]
                count += 1
        flush_key = ranks + jokers * _JOKER_DIGIT + wilds
        score = flushes.get(flush_key)
        if score is None:
            score = _best_of_items(Ranking.HIGH, flush_key, count, _FLUSH_ONE, flushes)
        best = max(best, score)
    return best


_LOW_FLUSHES: Final[dict[Ranking, dict[tuple[int, ...], int]]] = {
    Ranking.DEUCE_TO_SEVEN: {},
    Ranking.ACE_TO_SIX: {},
}
_LOW_FLUSH_LIMIT: Final = 100_000


def _low_flush(ranking: Ranking, key: int, hand: tuple[Card, ...], info: _WildInfo) -> int:
    """The score of a DEUCE_TO_SEVEN or ACE_TO_SIX hand in which a suit reaches five: the
    best of every five, where five naturals of one suit are a flush. It depends on the ranks,
    the substitutes and the ranks of each suit that reaches five, which key a cache; a miss
    takes the general path."""
    suited = [key & ~_FLUSH_BITS]
    for suit, shift in _SUIT_FIELDS:
        ranks = 0
        if key >> shift & 32:
            for card in hand:
                if card.suit == suit and card not in info.cards:
                    ranks += _RANK_DIGIT[card.rank]
        suited.append(ranks)
    memo_key = tuple(suited)
    known = _LOW_FLUSHES[ranking]
    score = known.get(memo_key)
    if score is None:
        if len(known) >= _LOW_FLUSH_LIMIT:
            known.clear()
        score = _evaluate_many(hand, ranking, info.cards)._score
        known[memo_key] = score
    return score


def _evaluate_large(hand: tuple[object, ...], ranking: object, wild: object) -> HandValue:
    """Six to nine cards by table (see above); anything else, and every error, goes to the
    general path."""
    try:
        table, flushes, ranking = _LARGE[ranking]  # type: ignore[index]
        if len(hand) == 7:  # seven-card games, spelt out: no loop
            a, b, c, d, e, f, g = hand
            total = a._k + b._k + c._k + d._k + e._k + f._k + g._k  # type: ignore[attr-defined]
        elif 6 <= len(hand) <= 9:
            total = 0
            for card in hand:
                total += card._k  # type: ignore[attr-defined]
        else:
            raise ValueError
    except (KeyError, TypeError, AttributeError, ValueError):
        return _evaluate_many(hand, ranking, wild)
    cards: tuple[Card, ...] = hand  # type: ignore[assignment]
    info = _NO_WILD_INFO
    if wild:
        try:
            info = _WILD_INFOS[wild]  # type: ignore[index]
        except (KeyError, TypeError):
            info = _wild_info(wild)
        bits = total & info.mask
        if bits:
            if bits.bit_count() > 7:  # more wild cards than the key can count
                return _evaluate_many(hand, ranking, wild)
            offset = info.offsets.get(bits)
            total -= info.offset(bits) if offset is None else offset
    key = total & _LARGE_MASK
    score = table.get(key)
    if score is None:
        score = _fill_large(ranking, key, cards)
    if total & _FLUSH_BITS and flushes is not None:
        if flushes is False:
            score = _low_flush(ranking, total & _KEY_MASK, cards, info)
        else:
            assert isinstance(flushes, dict)
            score = max(score, _high_flush(flushes, total & _KEY_MASK, cards, info.cards))
    value = _new(HandValue)
    value._ranking = ranking
    value._hand = cards
    value._score = score
    value._wild = info.cards
    return value


def _evaluate_short(hand: tuple[Card, ...], rules: _Rules, wild: object) -> HandValue:
    """A three- or four-card hand. Such hands follow the usual convention for short hands:
    straights and flushes take five cards, so only pairs, two pair, three and four of a kind
    count, then the ranks one by one. A wild card joins the best group (high) or becomes the
    best rank the hand lacks (low); the bug plays as an ace and the fitter as the best rank
    the low lacks."""
    if len(set(hand)) != len(hand):
        raise _bad_cards(hand)
    if rules.stripped:
        raise ValueError("the stripped-high ranking needs five cards")
    info = _wild_info(wild if wild else _NO_WILD)
    substitutes = [c for c in hand if c in info.cards or c is JOKER]
    naturals = [c.rank for c in hand if not (c in info.cards or c is JOKER)]
    if rules.low:
        # A stand-in avoids pairing: it takes the best ranks the hand does not hold yet.
        best = sorted(rules.ranks, key=rules.value)
        free = [rank for rank in best if rank not in naturals]
        choices = [naturals + free[: len(substitutes)]]
    else:
        bugs = [c for c in substitutes if c is JOKER and c not in info.cards]
        wilds = len(substitutes) - len(bugs)
        base = naturals + [14] * len(bugs)
        choices = [base + [rank] * wilds for rank in rules.ranks] if wilds else [base]
    strength = min if rules.low else max
    best_strength = strength(_short_strength(rules, ranks) for ranks in choices)
    score = -best_strength if rules.low else best_strength
    return HandValue(rules.ranking, score, hand, info.cards)


def _short_strength(rules: _Rules, ranks: list[int]) -> int:
    values = [rules.value(rank) for rank in ranks]
    counts = Counter(values)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    category = _SHORT_SHAPES[tuple(count for _, count in groups)]
    strength = rules.position[category] << 20
    for i, (field, _) in enumerate(groups):
        strength |= field << (16 - 4 * i)
    return strength


def _representatives(ranks: tuple[int, ...]) -> Iterable[tuple[Card, ...]]:
    """One five-card hand for every table key that a hand without wild cards
    can produce: each rank pattern unsuited, each suited one in each suit,
    and the same for four cards with the joker."""
    suits = ("c", "d", "h", "s")
    for size in (5, 4):
        joker = () if size == 5 else (JOKER,)
        for pattern in combinations_with_replacement(ranks, size):
            if any(pattern.count(rank) > 4 for rank in pattern):
                continue
            if len(set(pattern)) == size:
                # Different ranks: mixed suits, then all in one suit.
                yield (*(Card(rank, suits[i % 2]) for i, rank in enumerate(pattern)), *joker)
                for suit in suits:
                    yield (*(Card(rank, suit) for rank in pattern), *joker)
            else:
                seen: dict[int, int] = {}
                cards = []
                for rank in pattern:
                    seen[rank] = seen.get(rank, -1) + 1
                    cards.append(Card(rank, suits[seen[rank]]))
                yield (*cards, *joker)


def prepare(ranking: Ranking) -> int:
    """Build the whole table for hands without wild cards under ``ranking``.

    Tables otherwise fill themselves in as hands are met, so the first few
    thousand evaluations of a ranking are slower. Calling this at start-up
    (about a fifth of a second per ranking) moves that cost out of play.
    Hands with the bug or the fitter are covered; entries for hands with wild
    cards are still computed on first use. Returns the number of entries for
    hands without wild cards: 16,003 (1,618 for STRIPPED_HIGH).

    :raises ValueError: if ``ranking`` is a string that names no ranking.
    :raises TypeError: if ``ranking`` is neither a :class:`Ranking` nor a string.
    """
    member = _member(ranking)
    for hand in _representatives(_RULES[member].ranks):
        evaluate(hand, member)
    return sum(1 for key in _ALL_TABLES[member] if not key >> _WILD_SHIFT & 7)


# ---------------------------------------------------------------------------
# Helpers for game rules
# ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def minimum_pair(rank: int, ranking: Ranking = Ranking.HIGH) -> HandValue:
    """The weakest hand holding a pair of ``rank`` under a high ranking.

    A hand opens "jacks or better" exactly when its value is at least
    ``minimum_pair(11)``: a pair of jacks with the lowest kickers, which loses
    to every other hand with a pair of jacks and beats every pair of tens.

    :raises ValueError: if ``ranking`` is a lowball ranking, or ``rank`` is not
        a rank of the ranking's deck (2 to 14; 7 to 14 for STRIPPED_HIGH).
    """
    ranking = _member(ranking)
    rules = _RULES[ranking]
    if rules.low:
        raise ValueError(f"minimum_pair is for high rankings, not {ranking.value}")
    if type(rank) is not int or rank not in rules.ranks:
        raise ValueError(f"rank must be one of {rules.ranks[0]} to 14 here, not {rank!r}")
    kickers = [other for other in rules.ranks if other != rank][:3]
    # Spades and clubs are the weakest suits for the stripped tie-break.
    hand = (
        Card(rank, "s"),
        Card(rank, "c"),
        Card(kickers[0], "s"),
        Card(kickers[1], "c"),
        Card(kickers[2], "d"),
    )
    return evaluate(hand, ranking)


def opening_requirement_met(
    cards: Iterable[Card],
    min_pair_rank: int = 11,
    ranking: Ranking = Ranking.HIGH,
    *,
    wild: AbstractSet[Card] = _NO_WILD,
) -> bool:
    """Whether ``cards`` hold a pair of ``min_pair_rank`` or better ("jacks or
    better" by default; progressive jackpots raise the rank)."""
    return evaluate(cards, ranking, wild=wild) >= minimum_pair(min_pair_rank, ranking)


def low_qualifies(value: HandValue, qualifier: int = 8) -> bool:
    """Whether a lowball value is "``qualifier`` or better".

    The hand qualifies when it has no pair (and, where they count, no straight
    or flush) and its highest card is at most ``qualifier``: eight or better
    by default, ``qualifier=9`` for nine or better. The ace counts as one in
    ACE_TO_FIVE and ACE_TO_SIX and as fourteen in DEUCE_TO_SEVEN.

    :raises ValueError: if ``value`` is not a lowball value or ``qualifier`` is
        not an integer from 5 to 14.
    """
    if not isinstance(value, HandValue):
        raise TypeError(f"expected a HandValue, not {type(value).__name__}")
    if not value.ranking.is_low:
        raise ValueError(f"low_qualifies needs a lowball value, not a {value.ranking.value} one")
    if type(qualifier) is not int or not 5 <= qualifier <= 14:
        raise ValueError(f"qualifier must be an integer from 5 to 14, not {qualifier!r}")
    category, fields, _ = value._details()
    return category is _C.HIGH_CARD and fields[0] <= qualifier
