"""The translator each package declares once, and the language of the work at hand.

A package that shows text declares ``_ = Translator("cogs", __file__)`` in one module (its
catalogues are ``locales/`` beside that file) and marks every player-visible string with it::

    _("{player} raises to {amount}", player=name, amount=2000)
    _.plural("{count} chip", "{count} chips", count=n)
    FOLD = _.lazy("Fold")                     # a module-level constant, read at render time

Placeholders are named, so that a language can reorder them; numbers are formatted in the
language's way (``2,000`` / ``2.000`` / ``2 000``). The language is the one of the current
piece of work (:func:`speaking`, a context variable), or an explicit ``language=`` for a text
that goes elsewhere: a table's message is rendered in the table's language while the private
answer to the button press that caused it is in the member's.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from string import Formatter

from babel.numbers import format_decimal

from engine.wording import Phrase

from .catalogues import load
from .languages import ENGLISH, Language

log = logging.getLogger(__name__)

_current: ContextVar[Language] = ContextVar("i18n_language", default=ENGLISH)


def current_language() -> Language:
    """The language of the work at hand (English unless :func:`speaking` chose one)."""
    return _current.get()


class speaking(contextlib.AbstractContextManager["Language"]):
    """Render in ``language`` inside the block (each asyncio task has its own).

    A class rather than a generator-based context manager: a table message enters it a few
    times, and a generator's set-up costs several times this one's at every action."""

    __slots__ = ("_language", "_token")

    def __init__(self, language: Language) -> None:
        self._language = language

    def __enter__(self) -> Language:
        self._token = _current.set(self._language)
        return self._language

    def __exit__(self, *exc: object) -> None:
        _current.reset(self._token)


def placeholders(text: str) -> set[str]:
    """The named placeholders of ``text``.

    >>> sorted(placeholders("{player} raises to {amount} ({{not one}})"))
    ['amount', 'player']
    """
    return {name for _, name, _, _ in Formatter().parse(text) if name}


_INTEGERS: dict[tuple[int, str], str] = {}
_INTEGERS_KEPT = 4096


def integer_text(value: int, language: Language) -> str:
    """``value`` written the language's way (``2,000`` / ``2.000``), remembered.

    >>> from i18n.languages import resolve
    >>> integer_text(12345, resolve("de"))
    '12.345'
    """
    # Babel takes ~5 µs a number and a table message says dozens (stacks, bets, pots) on
    # every change; the same few hundred amounts come back all evening. Keyed by the
    # language's code, a plain string: a Babel Locale hashes and compares in Python.
    key = (value, language.code)
    text = _INTEGERS.get(key)
    if text is None:
        if len(_INTEGERS) >= _INTEGERS_KEPT:
            _INTEGERS.clear()  # rare: a bound, not a policy
        text = _INTEGERS[key] = format_decimal(value, locale=language.locale)
    return text


def _shown(value: object, language: Language) -> object:
    kind = type(value)
    if kind is str:
        return value  # names, already rendered texts: the usual value, first
    if kind is int:
        return integer_text(value, language)  # type: ignore[arg-type]
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return integer_text(value, language)
    if isinstance(value, float | Decimal):
        return format_decimal(value, locale=language.locale)
    if isinstance(value, LazyString):
        return value.render(language)
    if isinstance(value, Phrase):
        # An engine's phrase given as a value (a street's name, a reason) reads in the same
        # language as the text around it, wherever the caller forgot to say it first.
        from .engine_text import engine_text

        return engine_text(value, language=language)
    return value


def render(template: str, language: Language, values: Mapping[str, object]) -> str:
    """``template`` with ``values`` filled in, numbers in ``language``'s way.

    >>> from i18n.languages import resolve
    >>> render("{player} raises to {amount}", resolve("de"), {"player": "Ana", "amount": 2000})
    'Ana raises to 2.000'
    """
    if not values:
        return template.format_map(values)
    shown = {name: _shown(value, language) for name, value in values.items()}
    return template.format_map(shown)


_TEXTS_KEPT = 4096
"""The most messages a translator keeps looked up per language."""


class Translator:
    """The strings of one package in every language its ``locales/`` folder holds.

    Each language's catalogue is read the first time a text is asked for in it. A
    message a catalogue lacks reads in English; a translation that no longer formats (a
    placeholder renamed in the code but not in the catalogue) reads in English too, and is
    logged: the suite's completeness checks catch both before a release.
    """

    def __init__(self, name: str, file: str | Path) -> None:
        self.name = name
        self.folder = Path(file).resolve().parent / "locales"
        self._catalogues = load(self.folder)
        # Each message's text by language code, looked up once: gettext's look-up is three
        # Python calls, and a table message asks for dozens of texts at every action. Kept
        # with the catalogue it was read from: one swapped in (a test's fresh pseudo-language)
        # is read afresh.
        self._texts: dict[str, tuple[object, dict[str, str]]] = {}

    def __repr__(self) -> str:
        return f"Translator({self.name!r}, {str(self.folder)!r})"

    def translation(self, message: str, language: Language) -> str | None:
        """The catalogue's translation of ``message``, or None when it has none or it is the
        English text itself (English has no catalogue: its text is the source)."""
        catalogue = self._catalogues.get(language.code)
        if catalogue is None:
            return None
        found = catalogue.gettext(message)
        return found if found != message else None

    def __call__(
        self, message: str, /, *, language: Language | None = None, **values: object
    ) -> str:
        """``message`` in ``language`` (default: the current one), placeholders filled."""
        language = language or _current.get()
        code = language.code
        catalogue = self._catalogues.get(code)
        kept = self._texts.get(code)
        if kept is None or kept[0] is not catalogue:
            kept = self._texts[code] = (catalogue, {})
        texts = kept[1]
        text = texts.get(message)
        if text is None:
            text = catalogue.gettext(message) if catalogue is not None else message
            if len(texts) >= _TEXTS_KEPT:
                texts.clear()  # engine texts can be made up at a table: a bound, rarely met
            texts[message] = text
        if "{" not in text and "}" not in text:
            return text  # nothing to fill: what format_map would return
        return self._fill(text, message, language, values)

    def plural(
        self,
        singular: str,
        plural: str,
        /,
        *,
        count: int,
        language: Language | None = None,
        **values: object,
    ) -> str:
        """The form of the message for ``count`` under the language's plural rules (Russian
        and Polish have three); ``{count}`` is a placeholder like the others."""
        language = language or _current.get()
        catalogue = self._catalogues.get(language.code)
        if catalogue is not None:
            text = catalogue.ngettext(singular, plural, count)
        else:
            text = singular if count == 1 else plural
        source = singular if count == 1 else plural
        return self._fill(text, source, language, {"count": count, **values})

    def lazy(self, message: str) -> LazyString:
        """``message`` marked for translation now and translated when it is rendered (for
        module-level constants, made before anyone's language is known)."""
        return LazyString(self, message)

    def lazy_plural(self, singular: str, plural: str) -> LazyPlural:
        """A plural message translated when it is rendered with its count."""
        return LazyPlural(self, singular, plural)

    def _fill(
        self, text: str, source: str, language: Language, values: Mapping[str, object]
    ) -> str:
        try:
            return render(text, language, values)
        except (KeyError, IndexError, ValueError):
            if text == source:
                raise
            log.error("%s: the %s translation of %r does not format", self, language, source)
            return render(source, language, values)


@dataclass(frozen=True, slots=True)
class LazyString:
    """A message translated only when rendered: ``str()`` in the current language, or
    :meth:`render` in a given one. As a placeholder's value it takes the text's language."""

    translator: Translator = field(repr=False)
    message: str

    def render(self, language: Language | None = None, **values: object) -> str:
        return self.translator(self.message, language=language, **values)

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True, slots=True)
class LazyPlural:
    """A plural message translated when it is rendered with its count."""

    translator: Translator = field(repr=False)
    singular: str
    plural: str

    def render(self, count: int, language: Language | None = None, **values: object) -> str:
        return self.translator.plural(
            self.singular, self.plural, count=count, language=language, **values
        )


__all__ = [
    "LazyPlural",
    "LazyString",
    "Translator",
    "current_language",
    "integer_text",
    "placeholders",
    "render",
    "speaking",
]
