"""The words of the game: hand categories, actions and forced bets, by the engine's values.

The engine speaks in values (a :class:`engine.hands.Category`, an action, a forced bet's
``kind``) and never imports this layer; a renderer looks the value up here and renders the
word in its reader's language::

    category_name(value.category, royal=...).render(table_language)
    action_word(Discard(())).render()          # "Stand pat", in the current language
    _.plural("{player} draws {count} card", "{player} draws {count} cards", count=3, player=p)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from engine.actions import (
    Action,
    AllIn,
    Bet,
    Call,
    Check,
    Discard,
    Fold,
    Muck,
    Raise,
    Show,
)
from engine.hands import Category

from .languages import Language, resolve
from .translator import LazyString, Translator

_ = Translator("i18n", __file__)

CATEGORY_NAMES: Mapping[Category, LazyString] = MappingProxyType(
    {
        Category.HIGH_CARD: _.lazy("High card"),
        Category.PAIR: _.lazy("Pair"),
        Category.TWO_PAIR: _.lazy("Two pair"),
        Category.THREE_OF_A_KIND: _.lazy("Three of a kind"),
        Category.STRAIGHT: _.lazy("Straight"),
        Category.FLUSH: _.lazy("Flush"),
        Category.FULL_HOUSE: _.lazy("Full house"),
        Category.FOUR_OF_A_KIND: _.lazy("Four of a kind"),
        Category.STRAIGHT_FLUSH: _.lazy("Straight flush"),
        Category.FIVE_OF_A_KIND: _.lazy("Five of a kind"),
    }
)
"""The name of each hand category (a high hand's; lowball hands are read by their cards)."""

ROYAL_FLUSH = _.lazy("Royal flush")
"""The ace-high straight flush, which every language names apart."""

# Translators: a rank as a word, one card ("a seven") and several ("a pair of sevens"); used
# in hand names such as "Seven-five low" and "Full house, kings over nines".
RANK_WORDS: Mapping[int, tuple[LazyString, LazyString]] = MappingProxyType(
    {
        2: (_.lazy("two"), _.lazy("twos")),
        3: (_.lazy("three"), _.lazy("threes")),
        4: (_.lazy("four"), _.lazy("fours")),
        5: (_.lazy("five"), _.lazy("fives")),
        6: (_.lazy("six"), _.lazy("sixes")),
        7: (_.lazy("seven"), _.lazy("sevens")),
        8: (_.lazy("eight"), _.lazy("eights")),
        9: (_.lazy("nine"), _.lazy("nines")),
        10: (_.lazy("ten"), _.lazy("tens")),
        11: (_.lazy("jack"), _.lazy("jacks")),
        12: (_.lazy("queen"), _.lazy("queens")),
        13: (_.lazy("king"), _.lazy("kings")),
        14: (_.lazy("ace"), _.lazy("aces")),
    }
)
"""How a player says each rank, one and many, by the engine's rank (the ace is 14; an ace
played low, 1 in a low hand's value, is said the same)."""

HAND_NAMES: Mapping[Category, LazyString] = MappingProxyType(
    {
        # Translators: a high hand with no combination, by its top card ("Ace-high").
        Category.HIGH_CARD: _.lazy("{rank}-high"),
        Category.PAIR: _.lazy("Pair of {rank_plural}"),
        Category.TWO_PAIR: _.lazy("Two pair, {high_plural} and {low_plural}"),
        Category.THREE_OF_A_KIND: _.lazy("Three of a kind, {rank_plural}"),
        Category.STRAIGHT: _.lazy("Straight, {rank} high"),
        Category.FLUSH: _.lazy("Flush, {rank} high"),
        Category.FULL_HOUSE: _.lazy("Full house, {three_plural} over {pair_plural}"),
        Category.FOUR_OF_A_KIND: _.lazy("Four of a kind, {rank_plural}"),
        Category.STRAIGHT_FLUSH: _.lazy("Straight flush, {rank} high"),
        Category.FIVE_OF_A_KIND: _.lazy("Five {rank_plural}"),
    }
)
"""A high hand's name by category, from its ranks (``{rank}`` the top card's word,
``{rank_plural}`` the group's; two pair and a full house name both groups); the first letter
is made a capital when the name is said."""

# Translators: a low hand named by its two highest cards, "Seven-five low" (lowball).
LOW_HAND = _.lazy("{rank}-{next} low")
"""A low hand's name (lowball), by its two top cards."""

ACTION_WORDS: Mapping[str, LazyString] = MappingProxyType(
    {
        "check": _.lazy("Check"),
        "call": _.lazy("Call"),
        "bet": _.lazy("Bet"),
        "raise": _.lazy("Raise"),
        "fold": _.lazy("Fold"),
        "all-in": _.lazy("All-in"),
        "draw": _.lazy("Draw"),
        "stand-pat": _.lazy("Stand pat"),
        "show": _.lazy("Show"),
        "muck": _.lazy("Muck"),
    }
)
"""What a player does, as a button says it; the keys are the engine's action kinds (a
discard is ``draw``, or ``stand-pat`` when it throws no card)."""

TERMS: Mapping[str, LazyString] = MappingProxyType(
    {
        "ante": _.lazy("Ante"),
        "blind": _.lazy("Blind"),
        "small-blind": _.lazy("Small blind"),
        "big-blind": _.lazy("Big blind"),
        "blinds": _.lazy("Blinds"),
        "straddle": _.lazy("Straddle"),
        "openers": _.lazy("Openers"),
        "pot": _.lazy("Pot"),
        "showdown": _.lazy("Showdown"),
    }
)
"""The table's other words; ``ante``, ``blind`` and ``straddle`` are also the engine's
forced-bet kinds (:class:`engine.events.ForcedBet`)."""

DEEDS: Mapping[str, LazyString] = MappingProxyType(
    {
        "check": _.lazy("{player} checks"),
        "call": _.lazy("{player} calls {amount}"),
        "bet": _.lazy("{player} bets {amount}"),
        "raise": _.lazy("{player} raises to {amount}"),
        "fold": _.lazy("{player} folds"),
        "all-in": _.lazy("{player} is all-in for {amount}"),
        "stand-pat": _.lazy("{player} stands pat"),
    }
)
"""What the table reads when a player acts (placeholders ``player`` and ``amount``)."""

DRAWS = _.lazy_plural("{player} draws {count} card", "{player} draws {count} cards")
"""A draw, counted (``count`` cards)."""

CHIPS = _.lazy_plural("{count} chip", "{count} chips")
"""An amount of chips, counted."""

_KINDS: Mapping[type, str] = MappingProxyType(
    {
        Check: "check",
        Call: "call",
        Bet: "bet",
        Raise: "raise",
        Fold: "fold",
        AllIn: "all-in",
        Show: "show",
        Muck: "muck",
    }
)


def category_name(category: Category, *, royal: bool = False) -> LazyString:
    """The name of a hand category; ``royal`` for an ace-high straight flush."""
    if royal and category is Category.STRAIGHT_FLUSH:
        return ROYAL_FLUSH
    return CATEGORY_NAMES[category]


DIRECTIONS: Mapping[str, LazyString] = MappingProxyType(
    {
        # Translators: what a player declared in a high-low declare game (a word in a sentence).
        "high": _.lazy("high"),
        "low": _.lazy("low"),
        "both": _.lazy("both ways"),
    }
)
"""The words of a declaration, by the engine's :class:`engine.rules.Direction` value."""


def direction_word(direction: object, *, language: Language | None = None) -> str:
    """A declaration (``"high"``, a :class:`engine.rules.Direction`...) as a word.

    >>> direction_word("both")
    'both ways'
    """
    key = str(getattr(direction, "value", direction))
    word = DIRECTIONS.get(key)
    return key if word is None else word.render(language)


# Translators: words your language joins in a hand's name, as "written => said" pairs separated
# by " | " (French: "de as => d'as", so that "Paire de {rank_plural}" reads "Paire d'as"); a
# single "-" when your language joins none. Whole words only: "de as" leaves "de ases" alone.
CONTRACTIONS = _.lazy("-")
"""What a language joins where a rank word meets the words before it (French elision)."""


@cache
def _contractions(code: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    written = CONTRACTIONS.render(resolve(code))
    pairs = []
    for pair in written.split("|"):
        before, arrow, after = pair.partition("=>")
        if arrow and before.strip():
            word = re.escape(before.strip())
            pairs.append((re.compile(rf"(?<!\w){word}(?!\w)", re.IGNORECASE), after.strip()))
    return tuple(pairs)


def contract(text: str, language: Language) -> str:
    """``text`` with the words ``language`` joins joined (its :data:`CONTRACTIONS`); a first
    capital letter stays one.

    >>> contract("Paire de as", resolve("fr"))
    "Paire d'as"
    >>> contract("De as", resolve("fr")), contract("Paire de rois", resolve("fr"))
    ("D'as", 'Paire de rois')
    """
    for pattern, joined in _contractions(language.code):
        capital = joined[:1].upper() + joined[1:]
        text = pattern.sub(lambda found: capital if found[0][:1].isupper() else joined, text)  # noqa: B023
    return text


def rank_word(rank: int, *, plural: bool = False) -> LazyString:
    """The word for ``rank`` (1 or 14 for the ace), one card's or several's."""
    return RANK_WORDS[14 if rank == 1 else rank][1 if plural else 0]


def action_kind(action: Action) -> str | None:
    """The key of ``action`` in :data:`ACTION_WORDS` (None for an action with no word).

    >>> action_kind(Discard(())), action_kind(Fold())
    ('stand-pat', 'fold')
    """
    if isinstance(action, Discard):
        return "draw" if action.cards else "stand-pat"
    return _KINDS.get(type(action))


def action_word(action: Action) -> LazyString | None:
    """The word for ``action`` (the button's label), or None for an action with no word."""
    kind = action_kind(action)
    return None if kind is None else ACTION_WORDS[kind]


__all__ = [
    "ACTION_WORDS",
    "CATEGORY_NAMES",
    "CHIPS",
    "DEEDS",
    "DIRECTIONS",
    "DRAWS",
    "HAND_NAMES",
    "LOW_HAND",
    "RANK_WORDS",
    "ROYAL_FLUSH",
    "TERMS",
    "action_kind",
    "action_word",
    "category_name",
    "direction_word",
    "rank_word",
]
