"""The languages the bot speaks, and which one a Discord locale gets.

A language is shipped when its catalogue ``i18n/locales/<code>.po`` exists: adding a language
is dropping files, never editing a list. Codes are spelled as Discord spells its locales
(``de``, ``es-ES``, ``pt-BR``), so a file name, a Discord locale and a setting's value are the
same string. English is the source language (it has no catalogue: the code's strings are its
text). ``en-XA`` is a pseudo-language for tests (see :mod:`i18n.pseudo`), never offered to
players.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale

LOCALES = Path(__file__).resolve().parent / "locales"
"""The layer's own catalogues (the poker words); their file names are the shipped languages."""


@dataclass(frozen=True, slots=True)
class Language:
    """One language: its Discord spelling and the Babel locale that formats its numbers."""

    code: str
    locale: Locale = field(compare=False, repr=False)
    pseudo: bool = field(default=False, compare=False, repr=False)

    @property
    def name(self) -> str:
        """The language's own name for itself (``Deutsch``, ``polski``)."""
        return str(self.locale.get_display_name(self.locale) or self.code)

    def __str__(self) -> str:
        return self.code


def _language(code: str, *, pseudo: bool = False) -> Language:
    return Language(code, Locale.parse("en" if pseudo else code, sep="-"), pseudo)


ENGLISH = _language("en")
"""The source language, and where every locale we do not ship falls back."""

PSEUDO = _language("en-XA", pseudo=True)
"""Accented, bracketed, longer English made from the templates: shows a string that escaped
the layer (it stays plain English) and a payload that a longer language would overflow."""

LANGUAGES: tuple[Language, ...] = (
    ENGLISH,
    *(_language(p.stem) for p in sorted(LOCALES.glob("*.po"))),
)
"""Every shipped language, English first (the pseudo-language is not shipped)."""

_BY_CODE = {language.code.lower(): language for language in (*LANGUAGES, PSEUDO)}
_BY_PRIMARY: dict[str, Language] = {}
for _shipped in LANGUAGES:
    _BY_PRIMARY.setdefault(_shipped.code.split("-")[0].lower(), _shipped)


def resolve(locale: str | None) -> Language:
    """The language for a Discord locale (``str(interaction.locale)``); English when we do
    not ship one, never an error.

    An exact code wins; otherwise the language part picks the shipped variant of that
    language (Discord's Latin-American Spanish reads our Spanish).

    >>> resolve("de").code
    'de'
    >>> resolve("es-419").code, resolve("es-ES").code
    ('es-ES', 'es-ES')
    >>> resolve("pt-BR").code, resolve("pt_br").code
    ('pt-BR', 'pt-BR')
    >>> resolve("en-US").code, resolve("en-GB").code
    ('en', 'en')
    >>> resolve("zh-CN").code, resolve("").code, resolve(None).code, resolve("??").code
    ('en', 'en', 'en', 'en')
    >>> resolve("en-XA").pseudo
    True
    """
    if not locale:
        return ENGLISH
    key = locale.strip().replace("_", "-").lower()
    return _BY_CODE.get(key) or _BY_PRIMARY.get(key.split("-")[0], ENGLISH)


__all__ = ["ENGLISH", "LANGUAGES", "LOCALES", "PSEUDO", "Language", "resolve"]
