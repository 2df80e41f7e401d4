"""The engine's words in the reader's language: the one way engine text reaches a player.

The engine is pure and never imports this layer: it speaks in values (a
:class:`engine.hands.HandValue`, an event kind with its blanks, a refused action with its
reason) and keeps its English sentences as the source strings. Whatever a player reads of
them is rendered here, in the current language (:func:`i18n.speaking`) or the one given::

    hand_name(value, language=table_language)       # "Pair of sevens"
    say("raised", who="ann", amount=40)              # "ann raises to 40"
    refusal(exc)                                     # an IllegalAction / TableError, in words
"""

from __future__ import annotations

from engine import wording
from engine.hands import HandValue
from engine.variants import Variant, VariantOption

from .languages import Language

__all__ = [
    "engine_text",
    "hand_name",
    "option_description",
    "option_label",
    "refusal",
    "say",
    "variant_description",
    "variant_name",
]


def hand_name(value: HandValue, *, language: Language | None = None) -> str:
    """What a player calls the hand: "Full house, kings over nines", "Seven-five low"."""
    return value.name


def say(kind: str, *, language: Language | None = None, **blanks: object) -> str:
    """The words for an event of ``kind`` (a key of :data:`engine.wording.PHRASES`), its
    blanks filled in; lower-case first letter, as :func:`engine.wording.say`."""
    return wording.say(kind, **{name: str(value) for name, value in blanks.items()})


def refusal(exc: Exception, *, language: Language | None = None) -> str:
    """Why the engine refused (an :class:`engine.IllegalAction`, a :class:`engine.TableError`
    or another exception a player can see), as a sentence for the player."""
    return str(exc)


def variant_name(variant: Variant, *, language: Language | None = None) -> str:
    """The game's name, as the catalogue lists it."""
    return variant.name


def variant_description(variant: Variant, *, language: Language | None = None) -> str:
    """The game's description, as the catalogue lists it."""
    return variant.description


def option_label(option: VariantOption, *, language: Language | None = None) -> str:
    """A game option's short label (a button or a select option)."""
    return option.label


def option_description(option: VariantOption, *, language: Language | None = None) -> str:
    """What a game option changes."""
    return option.description


def engine_text(message: str, *, language: Language | None = None, **values: object) -> str:
    """Any other English text of the engine (a rules note, a modifier's warning), translated
    when the engine's catalogue has it, with ``values`` filled into its named placeholders."""
    return message.format(**values) if values else message
