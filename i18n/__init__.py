"""The localisation layer: every word a player reads, in the player's language.

Discord-free. Each package with text declares one :class:`Translator`
(``_ = Translator("cogs", __file__)``) whose gettext catalogues live beside it
(``locales/<code>.po``, template ``locales/messages.pot``, made by ``python -m i18n extract``).
:func:`resolve` turns a Discord locale into a shipped :class:`Language` (English when we do not
ship one); :func:`speaking` sets the language of the work at hand. See docs/translating.md.
"""

from .languages import ENGLISH, LANGUAGES, PSEUDO, Language, resolve
from .translator import (
    LazyPlural,
    LazyString,
    Translator,
    current_language,
    placeholders,
    speaking,
)

__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "PSEUDO",
    "Language",
    "LazyPlural",
    "LazyString",
    "Translator",
    "current_language",
    "placeholders",
    "resolve",
    "speaking",
]
