"""Shown hands arranged by what makes them, for a reader.

A hand is dealt in any order; at the showdown a reader wants to see the pair together, the
straight running down from its top card, the low from its highest card. :func:`arrange` puts
the cards of a shown hand in that order, from the :class:`~engine.hands.HandValue` the engine
already decided with:

* the cards that play come first, in the order they play: the group (pair, trips, quads; the
  three of a full house before its pair), then the kickers from the highest down; a straight
  or flush from its top card, the wheel 5-4-3-2-A with the ace last; a low from its highest
  card down;
* a wild card, bug or fitter stands where the card it plays as would stand, and is marked;
* the cards that do not play (the sixth and seventh card of a seven-card hand, or a joker
  left over) come after, from the highest down under the ranking (the ace lowest when the
  ranking plays it low).

>>> from engine.cards import parse_cards
>>> from engine.hands import Ranking, evaluate
>>> hand = parse_cards("Qd 7c 4h 7s 9h")
>>> shown = arrange(hand, evaluate(hand, Ranking.HIGH))
>>> [str(c.card) for c in shown.cards], shown.value.name
(['7c', '7s', 'Qd', '9h', '4h'], 'Pair of sevens')
>>> seven = parse_cards("2c 9d Ah 3s Kd 4h 5c")
>>> wheel = arrange(seven, evaluate(seven, Ranking.HIGH))
>>> [str(c.card) for c in wheel.playing], [str(c.card) for c in wheel.idle]
(['5c', '4h', '3s', '2c', 'Ah'], ['Kd', '9d'])
>>> bug = parse_cards("Ah Th 9h 8h JK")
>>> [str(c) for c in arrange(bug, evaluate(bug, Ranking.HIGH)).cards]
['Ah', 'JK=Kh', 'Th', '9h', '8h']
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from engine.cards import Card
from engine.hands import HandValue, Ranking, evaluate

__all__ = ["ArrangedCard", "Arrangement", "arrange", "arrange_cards", "rank_order"]

_ACE_LOW = frozenset((Ranking.ACE_TO_FIVE, Ranking.ACE_TO_SIX))


@dataclass(frozen=True, slots=True)
class ArrangedCard:
    """One card of an arranged hand.

    ``plays_as`` is the card it counts as when it plays (itself, or the card a wild card,
    bug or fitter stands for) and ``None`` when it does not play; ``wild`` says the card is
    a stand-in that plays as another card.
    """

    card: Card
    plays_as: Card | None
    wild: bool = False

    @property
    def plays(self) -> bool:
        """Whether the card is one of the cards that make the hand."""
        return self.plays_as is not None

    def __str__(self) -> str:
        if self.wild and self.plays_as is not None:
            return f"{self.card}={self.plays_as}"
        return str(self.card)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A shown hand in reading order: :attr:`playing` then :attr:`idle`."""

    value: HandValue
    cards: tuple[ArrangedCard, ...]

    @property
    def playing(self) -> tuple[ArrangedCard, ...]:
        """The cards that make the value, in the order they play."""
        return tuple(card for card in self.cards if card.plays)

    @property
    def idle(self) -> tuple[ArrangedCard, ...]:
        """The cards that do not play, highest first."""
        return tuple(card for card in self.cards if not card.plays)


def rank_order(card: Card, ranking: Ranking) -> int:
    """How high ``card`` stands under ``ranking`` for sorting (greater is higher): the ace is
    lowest where the ranking plays it low, and a joker left over sorts above every card.

    >>> from engine.cards import parse_card
    >>> ace = parse_card("Ah")
    >>> rank_order(ace, Ranking.HIGH), rank_order(ace, Ranking.ACE_TO_FIVE)
    (14, 1)
    """
    if card.is_joker:
        return 15
    if card.rank == 14 and ranking in _ACE_LOW:
        return 1
    return card.rank


def arrange(cards: Sequence[Card], value: HandValue) -> Arrangement:
    """``cards`` (a shown hand: every card the player plays with) arranged by ``value``, the
    value the engine gave them (the high or the low half of a high-low hand).

    :raises ValueError: if ``value`` is made of a card that ``cards`` does not hold.
    """
    left = list(cards)
    arranged: list[ArrangedCard] = []
    for played in value.cards:
        try:
            left.remove(played.card)
        except ValueError:
            raise ValueError(f"card {played.card} of the value is not in the hand") from None
        arranged.append(ArrangedCard(played.card, played.plays_as, played.card != played.plays_as))
    ranking = value.ranking
    # sorted() is stable: cards of the same rank keep the order they were shown in.
    left.sort(key=lambda card: rank_order(card, ranking), reverse=True)
    arranged.extend(ArrangedCard(card, None) for card in left)
    return Arrangement(value, tuple(arranged))


def arrange_cards(
    cards: Sequence[Card], ranking: Ranking, *, wild: AbstractSet[Card] = frozenset()
) -> Arrangement:
    """Evaluate ``cards`` under ``ranking`` (with ``wild``) and arrange them by that value.

    >>> from engine.cards import parse_cards
    >>> low = arrange_cards(parse_cards("2s Ah 9c 5d 3h 4c Kd"), Ranking.ACE_TO_FIVE)
    >>> [str(c) for c in low.playing], [str(c) for c in low.idle], low.value.name
    (['5d', '4c', '3h', '2s', 'Ah'], ['Kd', '9c'], 'Five-four low')
    """
    return arrange(cards, evaluate(cards, ranking, wild=wild))
