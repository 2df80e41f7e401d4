"""Exact odds of the draw: what every replacement set makes of the cards kept.

:func:`draw_odds` counts, for one discard, every set of replacement cards that
could come from the unseen cards (all equally likely) by the value the final
hand would have under a ranking. :func:`best_draws` does it for every legal
discard of a hand and orders the discards, best first. The counts are exact
integers, not samples, and agree with :func:`engine.hands.evaluate` hand for
hand.

>>> from engine.cards import parse_cards
>>> hand = parse_cards("Ah Kh Qh Jh 2c")
>>> odds = draw_odds(hand, parse_cards("2c"), Ranking.HIGH)
>>> odds.draws
47
>>> odds.categories
{'straight flush': 1, 'flush': 8, 'straight': 3, 'pair': 12, 'high card': 23}
>>> odds.against(parse_cards("Ks Kd 7c 7d 3s"))
(12, 0, 35)
>>> best = best_draws(hand, Ranking.HIGH)
>>> [(" ".join(map(str, discard)), odds.improves, odds.draws) for discard, odds in best[:2]]
[('2c', 45, 47), ('Jh 2c', 564, 1081)]

Lowball counts "N-low or better":

>>> low = draw_odds(parse_cards("7s 5d 4c 2h Kd"), parse_cards("Kd"), Ranking.DEUCE_TO_SEVEN)
>>> low.low_or_better(8), low.categories["7-low"]
(12, 8)

How the counting works
----------------------
Drawing ``k`` cards from ``n`` unseen ones gives ``C(n, k)`` replacement sets.
The value of a five-card hand depends only on the ranks of its natural cards,
how many wild cards and jokers it holds and whether all its natural cards
share a suit (for ``STRIPPED_HIGH`` also on the suits of the cards of the rank
that breaks ties). So the sets are counted in groups: by the multiset of
ranks drawn (a product of binomial coefficients) and, within it, by whether a
flush stays possible (one set per suit at most, since a suit holds one card
of each rank). One evaluation of a representative hand gives the value of a
whole group, and group values are remembered across calls.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from fractions import Fraction
from itertools import combinations, product
from math import comb
from operator import mul
from typing import Final

from engine.cards import DECK_32, DECK_52, JOKER, Card
from engine.hands import MOST_CARDS, Category, HandValue, Ranking, evaluate, low_qualifies
from engine.rules import DeckKind
from engine.wording import Phrase

__all__ = [
    "EXACT_LIMIT",
    "SAMPLES",
    "DrawOdds",
    "best_draws",
    "discard_strengths",
    "draw_odds",
    "draw_strength",
    "prepare",
    "strength_of",
]

EXACT_LIMIT: Final = 20_000
"""Replacement sets counted one by one at most, for hands of more than five cards."""
SAMPLES: Final = 3_000
"""Sets drawn for an estimate when there are more than :data:`EXACT_LIMIT`."""

# ---------------------------------------------------------------------------
# Group keys
# ---------------------------------------------------------------------------
#
# A group of final hands is named by one int: the natural ranks as a base-5
# number (5**(rank - 2) per card), the number of wild cards from bit 40, the
# number of jokers that are not wild from bit 44, and _FLUSH when every
# natural card shares a suit. STRIPPED_HIGH keys also carry a suit mask from
# bit 48 (the flush suit, or the suits of the natural cards of the deciding
# rank). A key always stands for the same value of a ranking, whatever the
# hand, the wild cards or the deck, so values are remembered per ranking.


_WILD_SHIFT: Final = 40
_JOKER_SHIFT: Final = 44
_FLUSH: Final = 1 << 46
_SUITS_SHIFT: Final = 48
_SUIT_BIT: Final = {"c": 1, "d": 2, "h": 4, "s": 8}
_SUIT_OF_BIT: Final = {1: "c", 2: "d", 4: "h", 8: "s"}
_POPCOUNT: Final = tuple(bin(mask).count("1") for mask in range(16))
_MEMO_LIMIT: Final = 400_000

_SCORES: Final[dict[Ranking, dict[int, int]]] = {ranking: {} for ranking in Ranking}
_VALUES: Final[dict[Ranking, dict[int, HandValue]]] = {ranking: {} for ranking in Ranking}
_DECIDERS: Final[dict[int, int]] = {}

# A shape: the code of the ranks drawn, how many sets draw exactly those
# ranks, the suits in which every one of them is still unseen (0 when a rank
# repeats: no flush), and the ranks themselves.
_Shape = tuple[int, int, int, tuple[int, ...]]


_RANK_CODES: Final = {rank: 5 ** (rank - 2) for rank in range(2, 15)}


class _Pool:
    """The unseen cards of one deal, sorted for counting."""

    __slots__ = (
        "by_rank",
        "growing",
        "joker",
        "masks",
        "ranking",
        "shapes",
        "signature",
        "size",
        "stripped",
        "wild",
        "wilds",
    )

    def __init__(self, ranking: Ranking, wild: frozenset[Card], unseen: tuple[Card, ...]) -> None:
        self.ranking = ranking
        self.stripped = ranking is Ranking.STRIPPED_HIGH
        self.wild = wild
        self.size = len(unseen)
        self.wilds = tuple(card for card in unseen if card in wild)
        self.joker: tuple[Card, ...] = (JOKER,) if JOKER in unseen and JOKER not in wild else ()
        self.by_rank: dict[int, tuple[Card, ...]] = {}
        self.masks: dict[int, int] = {}
        for card in unseen:
            if card in wild or card is JOKER:
                continue
            self.by_rank[card.rank] = (*self.by_rank.get(card.rank, ()), card)
            self.masks[card.rank] = self.masks.get(card.rank, 0) | _SUIT_BIT[card.suit]
        self.shapes: dict[int, list[_Shape]] = {}
        self.signature: tuple[tuple[int, int, int], ...] | None = None
        self.growing: tuple[int, list[_GROWING]] = (0, [_SEED])

    def shapes_of(self, size: int) -> list[_Shape]:
        """Every multiset of ``size`` natural ranks that can be drawn."""
        found = self.shapes.get(size)
        if found is None:
            signature = self.signature
            if signature is None:
                signature = self.signature = tuple(
                    sorted(
                        (rank, len(cards), self.masks[rank]) for rank, cards in self.by_rank.items()
                    )
                )
            memo_key = (signature, size)
            found = _SHAPES.get(memo_key)
            if found is None:
                # Sizes are asked for in increasing order: each grows from the last one.
                grown, growing = self.growing
                if grown > size:
                    grown, growing = 0, [_SEED]
                while grown < size:
                    growing = _grow(signature, growing)
                    grown += 1
                self.growing = (grown, growing)
                found = [(code, ways, suits, drawn) for code, ways, suits, drawn, _, _ in growing]
                if len(_SHAPES) >= 256:
                    _SHAPES.clear()
                _SHAPES[memo_key] = found
            self.shapes[size] = found
        return found


_SHAPES: Final[dict[tuple[tuple[tuple[int, int, int], ...], int], list[_Shape]]] = {}
# A shape being grown also carries the index of its last rank and how many cards of it it
# holds.
_GROWING = tuple[int, int, int, tuple[int, ...], int, int]
_SEED: Final[_GROWING] = (0, 1, 15, (), 0, 0)


def _grow(signature: tuple[tuple[int, int, int], ...], growing: list[_GROWING]) -> list[_GROWING]:
    """The shapes one card larger than ``growing``, drawn from unseen natural cards described
    by ``signature`` (rank, how many, their suits), ranks added in ascending order: one more
    card of the rank a shape holds ``run`` times multiplies its ways by
    (available - run) / (run + 1); a new rank multiplies them by its count."""
    grown: list[_GROWING] = []
    append = grown.append
    rank_codes = _RANK_CODES
    ranks = len(signature)
    for code, ways, suits, drawn, last, run in growing:
        if drawn:
            rank, available, _ = signature[last]
            if run < available:
                append(
                    (
                        code + rank_codes[rank],
                        ways * (available - run) // (run + 1),
                        0,
                        (*drawn, rank),
                        last,
                        run + 1,
                    )
                )
            start = last + 1
        else:
            start = 0
        for index in range(start, ranks):
            rank, available, mask = signature[index]
            append(
                (code + rank_codes[rank], ways * available, suits & mask, (*drawn, rank), index, 1)
            )
    return grown


class _Kept:
    """What the counting needs to know of the cards kept."""

    __slots__ = ("allowed", "cards", "code", "jokers", "naturals", "suits", "wilds")

    def __init__(self, cards: tuple[Card, ...], wild: frozenset[Card]) -> None:
        self.cards = cards
        self.naturals = tuple(card for card in cards if card not in wild and card is not JOKER)
        self.wilds = sum(1 for card in cards if card in wild)
        self.jokers = sum(1 for card in cards if card is JOKER and card not in wild)
        self.code = sum(_RANK_CODES[card.rank] for card in self.naturals)
        suits = 0
        for card in self.naturals:
            suits |= _SUIT_BIT[card.suit]
        self.suits = suits
        # The suits a flush could still be made in.
        self.allowed = 15 if not self.naturals else suits if _POPCOUNT[suits] == 1 else 0


def _remember(ranking: Ranking, key: int, value: HandValue) -> int:
    _SCORES[ranking][key] = value.score
    _VALUES[ranking].setdefault(value.score, value)
    return value.score


def _trim() -> None:
    """Forget remembered group keys once they grow large (a safety net: there
    are only so many groups). Only called between counts. The values are
    kept: a ranking has only so many, and odds already made refer to them."""
    by_key = [memo for reference in _REFERENCES.values() for memo in reference.by_key.values()]
    held = sum(len(scores) for scores in _SCORES.values()) + len(_DECIDERS)
    if held + sum(len(memo) for memo in by_key) > _MEMO_LIMIT:
        for scores in _SCORES.values():
            scores.clear()
        _DECIDERS.clear()
        for memo in by_key:
            memo.clear()


def _representative(
    pool: _Pool,
    kept: _Kept,
    wilds: int,
    jokers: int,
    drawn: tuple[int, ...],
    *,
    flush_suit: str | None = None,
    fixed: tuple[int, tuple[Card, ...]] | None = None,
) -> HandValue:
    """The value of one real draw of a group: a flush in ``flush_suit``, or
    else a draw whose natural cards do not all share a suit (``fixed`` pins
    the cards drawn of one rank)."""
    extra = (*kept.cards, *pool.wilds[:wilds], *pool.joker[:jokers])
    if flush_suit is not None:
        naturals = tuple(Card(rank, flush_suit) for rank in drawn)
        return evaluate((*extra, *naturals), pool.ranking, wild=pool.wild)
    if fixed is None:
        # The first cards of each rank (``drawn`` is sorted) usually do; if
        # they share a suit with everything kept, search below.
        by_rank = pool.by_rank
        picked: list[Card] = []
        previous = run = 0
        suits = kept.suits
        for rank in drawn:
            run = run + 1 if rank == previous else 0
            card = by_rank[rank][run]
            picked.append(card)
            suits |= _SUIT_BIT[card.suit]
            previous = rank
        if _POPCOUNT[suits] > 1:
            return evaluate((*extra, *picked), pool.ranking, wild=pool.wild)
    counts = {rank: drawn.count(rank) for rank in drawn}
    options: list[Iterable[tuple[Card, ...]]] = []
    for rank, count in counts.items():
        if fixed is not None and fixed[0] == rank:
            options.append((fixed[1],))
        else:
            options.append(combinations(pool.by_rank[rank], count))
    for choice in product(*options):
        naturals = tuple(card for cards in choice for card in cards)
        if len({card.suit for card in (*kept.naturals, *naturals)}) > 1:
            return evaluate((*extra, *naturals), pool.ranking, wild=pool.wild)
    raise AssertionError("no draw of the group misses a flush")  # pragma: no cover


def _parts(pool: _Pool, kept: _Kept, size: int) -> Iterator[tuple[int, int, int, int, int]]:
    """The parts a draw of ``size`` cards splits into, by how many wild cards and jokers it
    holds: (wilds, jokers, natural cards drawn, the group key of what is kept with those
    wild cards and jokers, how many ways to draw those wild cards)."""
    wild_total = len(pool.wilds)
    for wilds in range(min(size, wild_total) + 1):
        for jokers in range(min(size - wilds, len(pool.joker)) + 1):
            base = (
                kept.code
                + ((kept.wilds + wilds) << _WILD_SHIFT)
                + ((kept.jokers + jokers) << _JOKER_SHIFT)
            )
            yield wilds, jokers, size - wilds - jokers, base, comb(wild_total, wilds)


def _unnatural_score(pool: _Pool, kept: _Kept, wilds: int, jokers: int, base: int) -> int:
    """The score of drawing only wild cards or jokers: one group, a flush exactly when the
    kept naturals allow one."""
    key = base | _FLUSH if kept.allowed else base
    score = _SCORES[pool.ranking].get(key)
    if score is None:
        cards = (*kept.cards, *pool.wilds[:wilds], *pool.joker[:jokers])
        value = evaluate(cards, pool.ranking, wild=pool.wild)
        score = _remember(pool.ranking, key, value)
    return score


def _group_score(
    pool: _Pool,
    kept: _Kept,
    wilds: int,
    jokers: int,
    drawn: tuple[int, ...],
    key: int,
    flush_suits: int = 0,
) -> int:
    """The score of the group ``key`` of a plain ranking, worked out when not remembered yet:
    the flush of one of ``flush_suits`` (``key`` then carries :data:`_FLUSH`), or else a draw
    whose natural cards do not all share a suit."""
    score = _SCORES[pool.ranking].get(key)
    if score is None:
        if flush_suits:
            suit = _SUIT_OF_BIT[flush_suits & -flush_suits]
            value = _representative(pool, kept, wilds, jokers, drawn, flush_suit=suit)
        else:
            value = _representative(pool, kept, wilds, jokers, drawn)
        score = _remember(pool.ranking, key, value)
    return score


def _tally(pool: _Pool, kept: _Kept, size: int) -> dict[int, int]:
    """How many sets of ``size`` unseen cards give each final score."""
    tally: dict[int, int] = {}
    for wilds, jokers, naturals, base, times in _parts(pool, kept, size):
        if pool.stripped:
            _tally_stripped(pool, kept, wilds, jokers, naturals, base, times, tally)
        elif naturals:
            _tally_plain(pool, kept, wilds, jokers, naturals, base, times, tally)
        else:
            score = _unnatural_score(pool, kept, wilds, jokers, base)
            tally[score] = tally.get(score, 0) + times
    return tally


def _points(
    pool: _Pool, kept: _Kept, size: int, points: dict[int, int], memo: dict[int, int]
) -> int:
    """The sum over every set of ``size`` unseen cards of the ``points`` of its final score
    (a plain ranking only): :func:`_tally` weighed by ``points`` without counting by score,
    half the work. ``memo`` keeps the points of each group key met (for these ``points``)."""
    total = 0
    for wilds, jokers, naturals, base, times in _parts(pool, kept, size):
        if not naturals:
            total += points[_unnatural_score(pool, kept, wilds, jokers, base)] * times
            continue
        allowed = kept.allowed
        popcount = _POPCOUNT
        get = memo.get
        part = 0
        for code, ways, suits, drawn in pool.shapes_of(naturals):
            key = base + code
            flushes = popcount[suits & allowed]
            if flushes:
                flush_key = key | _FLUSH
                earned = get(flush_key)
                if earned is None:
                    score = _group_score(
                        pool, kept, wilds, jokers, drawn, flush_key, suits & allowed
                    )
                    earned = memo[flush_key] = points[score]
                part += earned * flushes
                ways -= flushes
            if ways:
                earned = get(key)
                if earned is None:
                    score = _group_score(pool, kept, wilds, jokers, drawn, key)
                    earned = memo[key] = points[score]
                part += earned * ways
        total += part * times
    return total


def _tally_plain(
    pool: _Pool,
    kept: _Kept,
    wilds: int,
    jokers: int,
    naturals: int,
    base: int,
    times: int,
    tally: dict[int, int],
) -> None:
    scores = _SCORES[pool.ranking]
    allowed = kept.allowed
    popcount = _POPCOUNT
    for code, ways, suits, drawn in pool.shapes_of(naturals):
        key = base + code
        flushes = popcount[suits & allowed]
        if flushes:
            score = scores.get(key | _FLUSH)
            if score is None:
                score = _group_score(
                    pool, kept, wilds, jokers, drawn, key | _FLUSH, suits & allowed
                )
            tally[score] = tally.get(score, 0) + flushes * times
            ways -= flushes
        if ways:
            score = scores.get(key)
            if score is None:
                score = _group_score(pool, kept, wilds, jokers, drawn, key)
            tally[score] = tally.get(score, 0) + ways * times


def _tally_stripped(
    pool: _Pool,
    kept: _Kept,
    wilds: int,
    jokers: int,
    naturals: int,
    base: int,
    times: int,
    tally: dict[int, int],
) -> None:
    """As :func:`_tally_plain`, for the suit tie-breaks of STRIPPED_HIGH.

    A flush draw is a single set per suit, so its key carries the suit. Any
    other draw's score depends, beyond its key, only on the suits of the
    natural cards of the deciding rank (the top card or the top group), so
    the cards drawn of that rank are enumerated one by one.
    """
    ranking = pool.ranking
    scores = _SCORES[ranking]
    allowed = kept.allowed
    shapes: list[_Shape] = pool.shapes_of(naturals) if naturals else [(0, 1, 15, ())]
    for code, ways, suits, drawn in shapes:
        key = base + code
        if drawn:
            flush_suits = suits & allowed
        elif allowed:
            # No natural card drawn: the one set is a flush in the kept
            # naturals' suit (any single suit names it when there are none).
            flush_suits = allowed if kept.naturals else 1
        else:
            flush_suits = 0
        bits = flush_suits
        while bits:
            bit = bits & -bits
            bits ^= bit
            flush_key = key | _FLUSH | (bit << _SUITS_SHIFT)
            score = scores.get(flush_key)
            if score is None:
                suit = _SUIT_OF_BIT[bit]
                value = _representative(pool, kept, wilds, jokers, drawn, flush_suit=suit)
                score = _remember(ranking, flush_key, value)
            tally[score] = tally.get(score, 0) + times
        others = ways - _POPCOUNT[flush_suits]
        if not others:
            continue
        decider = _DECIDERS.get(key)
        if decider is None:
            decider = _representative(pool, kept, wilds, jokers, drawn).ranks[0]
            _DECIDERS[key] = decider
        held = 0
        for card in kept.naturals:
            if card.rank == decider:
                held |= _SUIT_BIT[card.suit]
        count = drawn.count(decider)
        if not count:
            _add_stripped(pool, kept, wilds, jokers, drawn, key, held, None, others, times, tally)
            continue
        each = ways // comb(len(pool.by_rank[decider]), count)
        for cards in combinations(pool.by_rank[decider], count):
            mask = 0
            for card in cards:
                mask |= _SUIT_BIT[card.suit]
            # A flush draw of the suit of this one card is counted above.
            sets = each - 1 if count == 1 and mask & flush_suits else each
            if sets:
                fixed = (decider, cards)
                _add_stripped(
                    pool, kept, wilds, jokers, drawn, key, held | mask, fixed, sets, times, tally
                )


def _add_stripped(
    pool: _Pool,
    kept: _Kept,
    wilds: int,
    jokers: int,
    drawn: tuple[int, ...],
    key: int,
    held: int,
    fixed: tuple[int, tuple[Card, ...]] | None,
    sets: int,
    times: int,
    tally: dict[int, int],
) -> None:
    suited_key = key | (held << _SUITS_SHIFT)
    score = _SCORES[pool.ranking].get(suited_key)
    if score is None:
        value = _representative(pool, kept, wilds, jokers, drawn, fixed=fixed)
        score = _remember(pool.ranking, suited_key, value)
    tally[score] = tally.get(score, 0) + sets * times


# ---------------------------------------------------------------------------
# Strength against every five-card hand of the deck
# ---------------------------------------------------------------------------


class _Reference:
    """How each final score fares against all five-card hands of the deck.

    ``points[score]`` is twice the number of hands it beats plus the number it
    ties, out of ``scale`` (twice the number of hands): a strength of
    ``points / scale`` between 0 and 1, ties counted half.
    """

    __slots__ = ("below", "by_key", "points", "qualified", "ranking", "scale", "scores")

    def __init__(self, ranking: Ranking, tally: dict[int, int]) -> None:
        self.ranking = ranking
        self.qualified: dict[int, dict[int, int]] = {}
        # The points of each group key met, by low qualifier (None: no qualifier), for
        # :func:`_points`; a key stands for the same score whatever the hand (see above).
        self.by_key: dict[int | None, dict[int, int]] = {}
        self.points: dict[int, int] = {}
        self.scores = sorted(tally)
        self.below: list[int] = []
        below = 0
        for score in self.scores:
            count = tally[score]
            self.points[score] = 2 * below + count
            self.below.append(below)
            below += count
        self.scale = 2 * below

    def points_qualified(self, qualifier: int) -> dict[int, int]:
        """:attr:`points` with every low that does not qualify at 0 (asked once per qualifier:
        the house players weigh every discard by it)."""
        found = self.qualified.get(qualifier)
        if found is None:
            values = _VALUES[self.ranking]
            found = self.qualified[qualifier] = {
                score: points if low_qualifies(values[score], qualifier) else 0
                for score, points in self.points.items()
            }
        return found

    def summed(self, pool: _Pool, kept: _Kept, size: int, qualifier: int | None) -> int:
        """The points of every set of ``size`` cards drawn to ``kept``, summed (a plain
        ranking; a low that does not meet ``qualifier`` earns none)."""
        points = self.points if qualifier is None else self.points_qualified(qualifier)
        memo = self.by_key.get(qualifier)
        if memo is None:
            memo = self.by_key[qualifier] = {}
        return _points(pool, kept, size, points, memo)

    def points_of(self, score: int) -> int:
        """The points of any score of the ranking, also one no hand of this deck makes."""
        found = self.points.get(score)
        if found is not None:
            return found
        index = bisect_left(self.scores, score)
        return 2 * (self.below[index] if index < len(self.scores) else self.scale // 2)


_REFERENCES: Final[dict[tuple[Ranking, frozenset[Card], tuple[Card, ...]], _Reference]] = {}


def _reference(ranking: Ranking, wild: frozenset[Card], deck: tuple[Card, ...]) -> _Reference:
    memo_key = (ranking, wild, deck)
    found = _REFERENCES.get(memo_key)
    if found is None:
        if len(_REFERENCES) >= 16:
            _REFERENCES.clear()
        pool = _Pool(ranking, wild, deck)
        found = _Reference(ranking, _tally(pool, _Kept((), wild), 5))
        _REFERENCES[memo_key] = found
    return found


# ---------------------------------------------------------------------------
# The public API
# ---------------------------------------------------------------------------

_CATEGORY_LABELS: Final = {
    Category.HIGH_CARD: Phrase("high card"),
    Category.PAIR: Phrase("pair"),
    Category.TWO_PAIR: Phrase("two pair"),
    Category.THREE_OF_A_KIND: Phrase("three of a kind"),
    Category.STRAIGHT: Phrase("straight"),
    Category.FLUSH: Phrase("flush"),
    Category.FULL_HOUSE: Phrase("full house"),
    Category.FOUR_OF_A_KIND: Phrase("four of a kind"),
    Category.STRAIGHT_FLUSH: Phrase("straight flush"),
    Category.FIVE_OF_A_KIND: Phrase("five of a kind"),
}
_LOW_TOPS: Final = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


def _label(value: HandValue) -> str:
    """The category a player would name: "two pair", or "9-low" for a lowball
    hand without a pair, straight or flush."""
    category = value.category
    if value.ranking.is_low and category is Category.HIGH_CARD:
        top = value.ranks[0]  # an ace that plays low comes last
        label = _LOW_LABELS.get(top)
        if label is None:
            label = _LOW_LABELS[top] = Phrase("{top}-low", top=_LOW_TOPS.get(top, str(top)))
        return label
    return _CATEGORY_LABELS[category]


_LOW_LABELS: dict[int, Phrase] = {}


class DrawOdds:
    """Every replacement set of one discard, counted by the final hand's value.

    Made by :func:`draw_odds` and :func:`best_draws`. All counts are out of
    :attr:`draws`, the number of equally likely replacement sets; a chance is
    a count divided by it (:meth:`chance`).
    """

    __slots__ = (
        "_counts",
        "_current",
        "_labels",
        "_outcomes",
        "_reference",
        "_strength",
        "_wild",
        "discard",
        "draws",
        "exact",
        "hand",
        "low",
        "qualifier",
        "ranking",
    )

    hand: tuple[Card, ...]
    """The five cards held before the draw."""
    discard: tuple[Card, ...]
    """The cards thrown away, in the order of :attr:`hand`."""
    ranking: Ranking
    """The ranking the final hands are valued by."""
    draws: int
    """How many replacement sets there are, all equally likely."""
    low: DrawOdds | None
    """For a high-low game, the same sets valued by the low ranking."""
    qualifier: int | None
    """For the low half of a high-low game, the highest card a low may have."""
    exact: bool
    """Whether every replacement set was counted. False for an estimate: a hand of more than
    five cards with too many sets to count, whose :attr:`draws` are a seeded random sample
    of them (every share is then the share of the sample)."""

    def __init__(
        self,
        hand: tuple[Card, ...],
        discard: tuple[Card, ...],
        ranking: Ranking,
        tally: dict[int, int],
        current: HandValue,
        wild: frozenset[Card],
        reference: _Reference,
        low: DrawOdds | None = None,
        qualifier: int | None = None,
        exact: bool = True,
    ) -> None:
        self.hand = hand
        self._reference = reference
        self.discard = discard
        self.ranking = ranking
        self.draws = sum(tally.values())
        self._counts = tally
        self._outcomes: tuple[tuple[HandValue, int], ...] | None = None
        self._current = current
        self._wild = wild
        self._labels: dict[str, int] | None = None
        self._strength: Fraction | None = None
        self.low = low
        self.qualifier = qualifier
        self.exact = exact

    @property
    def size(self) -> int:
        """How many different final values these odds count (what they hold in memory)."""
        return len(self._counts)

    @property
    def kept(self) -> tuple[Card, ...]:
        """The cards kept, in the order of :attr:`hand`."""
        return tuple(card for card in self.hand if card not in self.discard)

    @property
    def outcomes(self) -> tuple[tuple[HandValue, int], ...]:
        """Each final value that can come, with its number of sets, best first.

        A value stands for every hand that ties it; its :attr:`HandValue.cards`
        are those of one such hand, not necessarily one this draw can make.
        """
        if self._outcomes is None:
            values = _VALUES[self.ranking]
            counts = self._counts
            self._outcomes = tuple(
                (values[score], counts[score]) for score in sorted(counts, reverse=True)
            )
        return self._outcomes

    @property
    def categories(self) -> dict[str, int]:
        """The sets counted by the category of the final hand, best first.

        Categories are named as in "two pair" or "full house"; a lowball hand
        without a pair (nor, where they count, a straight or flush) is named by
        its top card as it plays: "7-low", "10-low", "A-low".
        """
        if self._labels is None:
            labels: dict[str, int] = {}
            for value, count in self.outcomes:
                label = _label(value)
                labels[label] = labels.get(label, 0) + count
            self._labels = labels
        return dict(self._labels)

    @property
    def current(self) -> HandValue:
        """The value of :attr:`hand` as it stands before the draw."""
        return self._current

    @property
    def improves(self) -> int:
        """How many sets end in a hand better than :attr:`current`."""
        return self.against(self._current)[0]

    def against(self, target: HandValue | Iterable[Card]) -> tuple[int, int, int]:
        """(better, tie, worse): how many sets end in a hand that beats, ties or
        loses to ``target``, a five-card hand or its value under this ranking.

        :raises ValueError: if ``target`` is not a valid hand or is a value of
            another ranking.
        """
        value = _target(target, self.ranking, self._wild)
        score = value.score
        better = tie = 0
        for outcome, count in self._counts.items():
            if outcome > score:
                better += count
            elif outcome == score:
                tie += count
        return better, tie, self.draws - better - tie

    def low_or_better(self, top: int) -> int:
        """How many sets end in a low with no card above ``top`` (no pair, and
        no straight or flush where they count): ``low_or_better(8)`` counts
        "eight or better".

        :raises ValueError: if the ranking is not a lowball ranking or ``top``
            is not an integer from 5 to 14.
        """
        return sum(count for value, count in self.outcomes if low_qualifies(value, top))

    def chance(self, count: int) -> Fraction:
        """``count`` replacement sets as a share of all of them."""
        return Fraction(count, self.draws)

    @property
    def strength(self) -> Fraction:
        """The expected strength of the final hand: the share of all five-card
        hands of the deck that it beats, ties counted half, averaged over the
        replacement sets. For the low half of a high-low game a low that does
        not qualify has strength 0. This is what :func:`best_draws` ranks by.
        """
        if self._strength is None:
            reference = self._reference
            qualifier = self.qualifier
            points = (
                reference.points if qualifier is None else reference.points_qualified(qualifier)
            )
            counts = self._counts
            # Summed in C (map rather than a generator): the house players ask this of every
            # discard of every hand they draw to.
            total = sum(map(mul, counts.values(), map(points.__getitem__, counts)))
            self._strength = Fraction(total, self.draws * reference.scale)
        return self._strength

    def __repr__(self) -> str:
        discard = " ".join(str(card) for card in self.discard) or "nothing"
        return (
            f"<DrawOdds {self.ranking.value}: discard {discard}, {self.draws} draws, "
            f"{self.improves} improve>"
        )


def _ranking(ranking: object) -> Ranking:
    if isinstance(ranking, Ranking):
        return ranking
    if isinstance(ranking, str):
        try:
            return Ranking(ranking)
        except ValueError:
            names = ", ".join(repr(member.value) for member in Ranking)
            raise ValueError(f"unknown ranking {ranking!r} (expected one of {names})") from None
    raise TypeError(f"ranking must be a Ranking, not {type(ranking).__name__}")


def _cards(cards: object, what: str) -> tuple[Card, ...]:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise TypeError(f"{what} must be a sequence of cards, not {type(cards).__name__}")
    found = tuple(cards)
    for card in found:
        if not isinstance(card, Card):
            raise TypeError(f"{what} must hold only cards, not {card!r}")
    seen: set[Card] = set()
    for card in found:
        if card in seen:
            raise ValueError(f"card {card} appears twice in the {what}")
        seen.add(card)
    return found


def _game(
    ranking: object, wild: object, deck: object
) -> tuple[Ranking, frozenset[Card], tuple[Card, ...]]:
    """The checked ranking, wild cards and deck of one call (``None``: the ranking's deck)."""
    member = _ranking(ranking)
    wilds = frozenset(_cards(wild, "wild cards"))
    if deck is None:
        deck = DECK_32 if member is Ranking.STRIPPED_HIGH else DECK_52
    elif isinstance(deck, DeckKind):
        deck = deck.cards()
    cards = _cards(deck, "deck")
    if len(cards) < 5:
        raise ValueError(f"a deck of {len(cards)} cards deals no five-card hand")
    if member is Ranking.STRIPPED_HIGH:
        low = next((card for card in cards if 0 < card.rank < 7), None)
        if low is not None:
            raise ValueError(
                f"the stripped-high ranking needs the 32-card deck, which has no {low}"
            )
    return member, wilds, cards


class _Deal:
    """The checked arguments of one call, and its pool of unseen cards."""

    __slots__ = ("_reference", "deck", "hand", "pool", "ranking", "unseen", "wild")

    def __init__(
        self,
        hand: object,
        ranking: object,
        wild: object,
        dead: object,
        deck: object,
    ) -> None:
        _trim()
        self.ranking, self.wild, self.deck = _game(ranking, wild, deck)
        self.hand = _cards(hand, "hand")
        if not 5 <= len(self.hand) <= MOST_CARDS:
            raise ValueError(
                f"a hand to draw to holds five cards (up to nine), not {len(self.hand)}"
            )
        in_deck = set(self.deck)
        dead_cards = _cards(dead, "dead cards")
        for card in self.hand:
            if card not in in_deck:
                raise ValueError(f"card {card} of the hand is not in the deck")
        held = set(self.hand)
        for card in dead_cards:
            if card not in in_deck:
                raise ValueError(f"dead card {card} is not in the deck")
            if card in held:
                raise ValueError(f"card {card} is in the hand, so it cannot be dead")
        gone = held | set(dead_cards)
        self.unseen = tuple(card for card in self.deck if card not in gone)
        self.pool = _Pool(self.ranking, self.wild, self.unseen)
        self._reference: _Reference | None = None

    def reference(self) -> _Reference:
        """The deal's :class:`_Reference`, found once: its memo key hashes the whole deck."""
        found = self._reference
        if found is None:
            found = self._reference = _reference(self.ranking, self.wild, self.deck)
        return found

    def odds(
        self,
        discard: tuple[Card, ...],
        current: HandValue,
        low_deal: _Deal | None = None,
        qualifier: int | None = None,
        seed: int | str = 0,
        samples: int = SAMPLES,
        exact_limit: int = EXACT_LIMIT,
    ) -> DrawOdds:
        """The odds of one discard; with ``low_deal`` (the same deal under a
        lowball ranking), those of the low half too. ``seed`` and ``samples``
        only serve hands of more than five cards with too many sets to count."""
        kept = tuple(card for card in self.hand if card not in discard)
        ordered = tuple(card for card in self.hand if card in discard)
        low_odds = None
        if low_deal is not None:
            low_current = evaluate(self.hand, low_deal.ranking, wild=self.wild)
            low_odds = low_deal.odds(
                discard, low_current, seed=seed, samples=samples, exact_limit=exact_limit
            )
            low_odds.qualifier = qualifier
        exact = True
        if len(self.hand) == 5:
            tally = _tally(self.pool, _Kept(kept, self.wild), len(discard))
        else:
            tally, exact = _tally_large(self, kept, len(discard), seed, samples, exact_limit)
        return DrawOdds(
            self.hand,
            ordered,
            self.ranking,
            tally,
            current,
            self.wild,
            self.reference(),
            low_odds,
            exact=exact,
        )

    def strength(
        self,
        discard: tuple[Card, ...],
        current: HandValue,
        low_deal: _Deal | None = None,
        qualifier: int | None = None,
        seed: int | str = 0,
        samples: int = SAMPLES,
        exact_limit: int = EXACT_LIMIT,
    ) -> tuple[Fraction, Fraction | None]:
        """The :attr:`DrawOdds.strength` of one discard, and of its low half with
        ``low_deal``: summed group by group for five cards under a plain ranking, without
        the count by value that :meth:`odds` keeps."""
        if len(self.hand) != 5 or self.pool.stripped:  # (a low ranking is never stripped)
            odds = self.odds(discard, current, low_deal, qualifier, seed, samples, exact_limit)
            return odds.strength, None if odds.low is None else odds.low.strength
        kept = _Kept(tuple(card for card in self.hand if card not in discard), self.wild)
        size = len(discard)
        reference = self.reference()
        sets = comb(self.pool.size, size)
        high = Fraction(reference.summed(self.pool, kept, size, None), sets * reference.scale)
        if low_deal is None:
            return high, None
        low_reference = low_deal.reference()
        summed = low_reference.summed(low_deal.pool, kept, size, qualifier)
        return high, Fraction(summed, sets * low_reference.scale)


# ---------------------------------------------------------------------------
# More than five cards (seven-card draw, the cards:N games)
# ---------------------------------------------------------------------------
#
# The groups above rest on the value of a five-card hand depending on its ranks and one
# flush flag; the best five of more cards depend on which cards share which suit, so large
# hands are counted set by set with the seven-card table of engine.hands (about a
# microsecond a hand). Up to EXACT_LIMIT sets are all counted; past that a seeded sample of
# ``samples`` sets stands for them (the same seed draws the same sets, so the high and the
# low half of a split game are valued on the same sample, and a repeat gives the same
# answer).


def _sample_sets(
    unseen: tuple[Card, ...], size: int, seed: int | str, count: int
) -> Iterator[tuple[Card, ...]]:
    """``count`` uniformly random sets of ``size`` unseen cards: each shuffle of the unseen
    cards is cut into as many sets as it holds (each one uniform on its own)."""
    rng = random.Random(seed)
    pool = list(unseen)
    per_shuffle = len(pool) // size
    made = 0
    while made < count:
        rng.shuffle(pool)
        for start in range(0, min(per_shuffle, count - made) * size, size):
            yield tuple(pool[start : start + size])
        made += per_shuffle


def _tally_large(
    deal: _Deal,
    kept: tuple[Card, ...],
    size: int,
    seed: int | str,
    samples: int,
    exact_limit: int,
) -> tuple[dict[int, int], bool]:
    """The final scores of drawing ``size`` cards to ``kept``, by how many sets (or sampled
    sets) give each, and whether every set was counted."""
    ranking, wild = deal.ranking, deal.wild
    exact = comb(len(deal.unseen), size) <= exact_limit
    sets: Iterable[tuple[Card, ...]]
    if exact:
        sets = combinations(deal.unseen, size)
    else:
        sets = _sample_sets(deal.unseen, size, seed, samples)
    values = _VALUES[ranking]
    tally: dict[int, int] = {}
    for drawn in sets:
        value = evaluate((*kept, *drawn), ranking, wild=wild)
        score = value.score
        if score not in values:
            values[score] = value
        tally[score] = tally.get(score, 0) + 1
    return tally, exact


def _seed(rng: random.Random | None, hand: tuple[Card, ...]) -> int | str:
    """The seed of a call's samples: drawn from ``rng`` when one is given, else the hand
    itself (the same hand is always estimated alike)."""
    if rng is not None:
        return rng.getrandbits(64)
    return " ".join(str(card) for card in hand)


def _target(target: object, ranking: Ranking, wild: frozenset[Card]) -> HandValue:
    """The value of the hand to beat, given as its five cards or its value."""
    if isinstance(target, HandValue):
        if target.ranking is not ranking:
            raise ValueError(
                f"the hand to beat is valued as {target.ranking.value}, "
                f"these odds are for {ranking.value}"
            )
        return target
    cards = _cards(target, "hand to beat")
    if len(cards) != 5:
        raise ValueError(f"the hand to beat holds five cards, not {len(cards)}")
    return evaluate(cards, ranking, wild=wild)


def _check_low(low: object, qualifier: object) -> Ranking | None:
    if low is None:
        if qualifier is not None:
            raise ValueError("a low qualifier needs a low ranking")
        return None
    member = _ranking(low)
    if not member.is_low:
        raise ValueError(f"the low half needs a lowball ranking, not {member.value}")
    if qualifier is not None and (type(qualifier) is not int or not 5 <= qualifier <= 14):
        raise ValueError(f"the low qualifier must be an integer from 5 to 14, not {qualifier!r}")
    return member


def draw_odds(
    hand: Sequence[Card],
    discard: Sequence[Card],
    ranking: Ranking,
    *,
    wild: AbstractSet[Card] = frozenset(),
    dead: Iterable[Card] = (),
    deck: Iterable[Card] | DeckKind | None = None,
    low: Ranking | None = None,
    low_qualifier: int | None = None,
    rng: random.Random | None = None,
    samples: int = SAMPLES,
    exact_limit: int = EXACT_LIMIT,
) -> DrawOdds:
    """The exact odds of throwing ``discard`` from ``hand`` and drawing as many.

    ``hand`` is five different cards and ``discard`` any of them (none to
    stand pat). A hand of six to nine cards (seven-card draw, the ``cards:N``
    games) is valued by its best five; its sets are all counted when there are
    at most ``exact_limit``, else ``samples`` of them are drawn at random
    (from a seed drawn from ``rng``, or from the hand when ``rng`` is None) and
    the result says so (:attr:`DrawOdds.exact` is False).

    The replacements come from ``deck`` (the 52-card deck by
    default, the 32-card deck for ``STRIPPED_HIGH``; a :class:`DeckKind` or
    the cards) less the hand and the ``dead`` cards, those known to be out of
    it. ``wild`` holds the wild cards, as for :func:`engine.hands.evaluate`;
    an unnamed joker is the bug or the fitter. For a high-low game, ``low``
    names the low ranking (and ``low_qualifier`` its highest card); the
    result's :attr:`DrawOdds.low` counts the same sets for the low half.

    :raises TypeError: if an argument is of the wrong type.
    :raises ValueError: naming the problem, if a card is not in the deck, in
        the hand twice, both held and dead, the discard holds a card that is
        not in the hand, or there are fewer unseen cards than discards.
    """
    deal, thrown, low_deal, current, seed = _one_discard(
        hand, discard, ranking, wild, dead, deck, low, low_qualifier, rng, samples, exact_limit
    )
    return deal.odds(thrown, current, low_deal, low_qualifier, seed, samples, exact_limit)


def draw_strength(
    hand: Sequence[Card],
    discard: Sequence[Card],
    ranking: Ranking,
    *,
    wild: AbstractSet[Card] = frozenset(),
    dead: Iterable[Card] = (),
    deck: Iterable[Card] | DeckKind | None = None,
    low: Ranking | None = None,
    low_qualifier: int | None = None,
    rng: random.Random | None = None,
    samples: int = SAMPLES,
    exact_limit: int = EXACT_LIMIT,
) -> tuple[Fraction, Fraction | None]:
    """The :attr:`DrawOdds.strength` of :func:`draw_odds` called with the same arguments,
    and that of its low half (None without ``low``), at about half the cost: the sets are
    summed rather than counted by value.

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("Ah Kh Qh Jh 2c")
    >>> draw_strength(hand, parse_cards("2c"), Ranking.HIGH)
    (Fraction(865457, 1197560), None)

    :raises ValueError: as for :func:`draw_odds`.
    """
    deal, thrown, low_deal, current, seed = _one_discard(
        hand, discard, ranking, wild, dead, deck, low, low_qualifier, rng, samples, exact_limit
    )
    return deal.strength(thrown, current, low_deal, low_qualifier, seed, samples, exact_limit)


def _one_discard(
    hand: object,
    discard: object,
    ranking: object,
    wild: object,
    dead: object,
    deck: object,
    low: object,
    low_qualifier: object,
    rng: random.Random | None,
    samples: object,
    exact_limit: object,
) -> tuple[_Deal, tuple[Card, ...], _Deal | None, HandValue, int | str]:
    """The checked arguments of :func:`draw_odds` and :func:`draw_strength`: the deal, the
    discard, the same deal under the low ranking of a high-low game, the hand's value before
    the draw and the seed of its samples."""
    deal = _Deal(hand, ranking, wild, dead, deck)
    thrown = _cards(discard, "discard")
    for card in thrown:
        if card not in deal.hand:
            raise ValueError(f"card {card} is discarded but not in the hand")
    if len(thrown) > deal.pool.size:
        raise ValueError(
            f"only {deal.pool.size} unseen cards are left, too few to draw {len(thrown)}"
        )
    low_member = _check_low(low, low_qualifier)
    low_deal = None
    if low_member is not None:
        low_deal = _Deal(deal.hand, low_member, deal.wild, dead, deal.deck)
    _check_samples(samples, exact_limit)
    current = evaluate(deal.hand, deal.ranking, wild=deal.wild)
    return deal, thrown, low_deal, current, _seed(rng, deal.hand)


def _check_samples(samples: object, exact_limit: object) -> None:
    if type(samples) is not int or samples < 1:
        raise ValueError(f"samples must be a positive integer, not {samples!r}")
    if type(exact_limit) is not int or exact_limit < 1:
        raise ValueError(f"exact_limit must be a positive integer, not {exact_limit!r}")


def best_draws(
    hand: Sequence[Card],
    ranking: Ranking,
    *,
    wild: AbstractSet[Card] = frozenset(),
    dead: Iterable[Card] = (),
    deck: Iterable[Card] | DeckKind | None = None,
    against: HandValue | Iterable[Card] | None = None,
    max_discard: int = 5,
    low: Ranking | None = None,
    low_qualifier: int | None = None,
    rng: random.Random | None = None,
    samples: int = SAMPLES,
    exact_limit: int = EXACT_LIMIT,
) -> list[tuple[tuple[Card, ...], DrawOdds]]:
    """Every legal discard of ``hand`` with its odds, the best first.

    Arguments are as for :func:`draw_odds`; ``max_discard`` caps the number
    of cards thrown (discards with more than there are unseen cards are left
    out). Discards are ranked by:

    * without ``against``: :attr:`DrawOdds.strength`, the expected share of
      all five-card hands of the deck that the final hand beats (ties half);
      in a high-low game, the sum of that for the high half and for the low
      half (where a low that does not qualify counts 0);
    * with ``against`` (a five-card hand, or its value): the number of sets that beat it,
      in a high-low game summed over both halves (a low must qualify to
      beat it), then the number that tie it, then strength as above.

    Equal discards keep the fewer cards thrown first, then the order of the
    hand. A hand of six to nine cards is valued as in :func:`draw_odds` (each
    discard with its own seed, drawn from ``rng`` or made from the hand).

    :raises ValueError: as for :func:`draw_odds`, or if ``max_discard`` is not
        an integer from 0 to the number of cards held.
    """
    deal, low_deal, current, base_seed = _drawing(
        hand, ranking, wild, dead, deck, max_discard, low, low_qualifier, rng, samples, exact_limit
    )
    high_target: HandValue | None = None
    low_target: HandValue | None = None
    if isinstance(against, HandValue) and low_deal is not None:
        raise ValueError("in a high-low game, against must be the five cards to beat")
    if against is not None:
        high_target = _target(against, deal.ranking, deal.wild)
        if low_deal is not None:
            low_target = _target(against, low_deal.ranking, deal.wild)
    ranked: list[tuple[tuple[Fraction | int, ...], int, tuple[int, ...], DrawOdds]] = []
    for size, positions, discard in _discards(deal, max_discard):
        seed = f"{base_seed}|{' '.join(str(card) for card in discard)}"
        odds = deal.odds(discard, current, low_deal, low_qualifier, seed, samples, exact_limit)
        ranked.append((_merit(odds, high_target, low_target), size, positions, odds))
    ranked.sort(key=lambda item: (tuple(-part for part in item[0]), item[1], item[2]))
    return [(odds.discard, odds) for _, _, _, odds in ranked]


def _drawing(
    hand: object,
    ranking: object,
    wild: object,
    dead: object,
    deck: object,
    max_discard: object,
    low: object,
    low_qualifier: object,
    rng: random.Random | None,
    samples: object,
    exact_limit: object,
) -> tuple[_Deal, _Deal | None, HandValue, int | str]:
    """The checked arguments of :func:`best_draws` and :func:`discard_strengths`: the deal,
    the same deal under the low ranking of a high-low game, the hand's value before the
    draw, and the seed its discards' seeds are made from."""
    deal = _Deal(hand, ranking, wild, dead, deck)
    held = len(deal.hand)
    if type(max_discard) is not int or not 0 <= max_discard <= max(held, 5):
        raise ValueError(f"max_discard must be an integer from 0 to {held}, not {max_discard!r}")
    _check_samples(samples, exact_limit)
    base_seed = _seed(rng, deal.hand)
    low_member = _check_low(low, low_qualifier)
    low_deal = None
    if low_member is not None:
        low_deal = _Deal(deal.hand, low_member, deal.wild, dead, deal.deck)
    current = evaluate(deal.hand, deal.ranking, wild=deal.wild)
    return deal, low_deal, current, base_seed


def _discards(
    deal: _Deal, max_discard: int
) -> Iterator[tuple[int, tuple[int, ...], tuple[Card, ...]]]:
    """Each discard of at most ``max_discard`` cards that the unseen cards can replace: how
    many cards, their positions in the hand and the cards."""
    held = len(deal.hand)
    for size in range(min(max_discard, held, deal.pool.size) + 1):
        for positions in combinations(range(held), size):
            yield size, positions, tuple(deal.hand[i] for i in positions)


def discard_strengths(
    hand: Sequence[Card],
    ranking: Ranking,
    *,
    wild: AbstractSet[Card] = frozenset(),
    dead: Iterable[Card] = (),
    deck: Iterable[Card] | DeckKind | None = None,
    max_discard: int = 5,
    low: Ranking | None = None,
    low_qualifier: int | None = None,
    rng: random.Random | None = None,
    samples: int = SAMPLES,
    exact_limit: int = EXACT_LIMIT,
) -> list[tuple[tuple[Card, ...], Fraction, Fraction | None]]:
    """Every legal discard of ``hand`` with its :attr:`DrawOdds.strength` (and, in a
    high-low game, that of its low half, else None), in the order of :func:`best_draws`
    without ``against``. It gives what that order rests on at about half the cost, for a
    player that weighs every discard and needs the full count of few of them.

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("Ah Kh Qh Jh 2c")
    >>> [(" ".join(map(str, discard)), high) for discard, high, _ in
    ...  discard_strengths(hand, Ranking.HIGH)[:1]]
    [('2c', Fraction(865457, 1197560))]
    >>> best_draws(hand, Ranking.HIGH)[0][1].strength
    Fraction(865457, 1197560)

    :raises ValueError: as for :func:`best_draws`.
    """
    deal, low_deal, current, base_seed = _drawing(
        hand, ranking, wild, dead, deck, max_discard, low, low_qualifier, rng, samples, exact_limit
    )
    ranked: list[
        tuple[Fraction, int, tuple[int, ...], tuple[Card, ...], Fraction, Fraction | None]
    ] = []
    for size, positions, discard in _discards(deal, max_discard):
        seed = f"{base_seed}|{' '.join(str(card) for card in discard)}"
        high, low_strength = deal.strength(
            discard, current, low_deal, low_qualifier, seed, samples, exact_limit
        )
        merit = high if low_strength is None else high + low_strength
        ranked.append((merit, size, positions, discard, high, low_strength))
    ranked.sort(key=lambda item: (-item[0], item[1], item[2]))
    return [(discard, high, low_strength) for _, _, _, discard, high, low_strength in ranked]


def prepare(
    ranking: Ranking,
    *,
    wild: AbstractSet[Card] = frozenset(),
    deck: Iterable[Card] | DeckKind | None = None,
) -> int:
    """Count every five-card hand of ``deck`` under ``ranking`` once, ahead of play.

    The first odds of a ranking, wild cards and deck cost the most (about a
    tenth of a second more): they count the whole deck for
    :attr:`DrawOdds.strength` and meet most groups for the first time. A bot
    can pay that at start-up instead. Returns how many five-card hands there are.

    :raises ValueError: as for :func:`draw_odds`.
    """
    _trim()
    member, wilds, cards = _game(ranking, wild, deck)
    return _reference(member, wilds, cards).scale // 2


def strength_of(
    value: HandValue,
    *,
    wild: AbstractSet[Card] = frozenset(),
    deck: Iterable[Card] | DeckKind | None = None,
) -> Fraction:
    """The share of the five-card hands of ``deck`` that ``value`` beats, ties counted half:
    the :attr:`DrawOdds.strength` of standing pat on it. ``value`` may come from another deck
    (a score no hand of this deck makes is placed among them).

    :raises ValueError: as for :func:`prepare`.
    """
    _trim()
    ranking, wilds, cards = _game(value.ranking, wild, deck)
    reference = _reference(ranking, wilds, cards)
    return Fraction(reference.points_of(value.score), reference.scale)


def _merit(
    odds: DrawOdds, high_target: HandValue | None, low_target: HandValue | None
) -> tuple[Fraction | int, ...]:
    strength = odds.strength + (odds.low.strength if odds.low is not None else 0)
    if high_target is None:
        return (strength,)
    better, tie, _ = odds.against(high_target)
    shares: tuple[Fraction | int, ...] = (
        Fraction(better, odds.draws),
        Fraction(tie, odds.draws),
        strength,
    )
    low_odds = odds.low
    if low_odds is None or low_target is None:
        return shares
    qualifier = low_odds.qualifier
    target_ok = qualifier is None or low_qualifies(low_target, qualifier)
    low_better = low_tie = 0
    for value, count in low_odds.outcomes:
        if qualifier is not None and not low_qualifies(value, qualifier):
            continue
        if not target_ok or value > low_target:
            low_better += count
        elif value == low_target:
            low_tie += count
    return (
        Fraction(better + low_better, odds.draws),
        Fraction(tie + low_tie, odds.draws),
        strength,
    )
