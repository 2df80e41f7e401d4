"""Reading a package's catalogues: each ``.po`` file is compiled in memory when first used.

Translators edit ``<package>/locales/<code>.po`` (and nothing binary is committed); here each
is read with Babel and compiled to the ``.mo`` form in memory, which :mod:`gettext` reads with
its plural rules (the catalogue's own ``Plural-Forms`` header). The pseudo-language is compiled
the same way from the template ``messages.pot``.
"""

from __future__ import annotations

import gettext
import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .languages import PSEUDO
from .pseudo import pseudo

TEMPLATE = "messages.pot"


def read_catalogue(path: Path, *, strict: bool = False) -> Catalog:
    """One ``.po``/``.pot`` file as a Babel catalogue. ``strict``: a line Babel cannot read
    raises :class:`babel.messages.pofile.PoFileError` (for ``python -m i18n check``), where
    the bot itself reads on and leaves what it could not read in English."""
    with path.open("rb") as file:
        return read_po(file, abort_invalid=strict)


def compile_catalogue(catalogue: Catalog) -> gettext.GNUTranslations:
    """``catalogue`` as :mod:`gettext` reads it (fuzzy and empty translations are left out,
    so those strings read in English)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def pseudo_catalogue(template: Catalog) -> Catalog:
    """Every message of ``template`` pseudo-translated (``en-XA``)."""
    out = Catalog(locale=PSEUDO.locale, domain=template.domain)
    for message in template:
        if not message.id:
            continue
        if message.pluralizable:
            singular, plural = str(message.id[0]), str(message.id[1])
            out.add((singular, plural), (pseudo(singular), pseudo(plural)))
        else:
            out.add(message.id, pseudo(str(message.id)))
    return out


class Catalogues(dict[str, gettext.GNUTranslations]):
    """A package's catalogues by language code, each read the first time it is looked up
    (``catalogues[code]`` or :meth:`get`): parsing a ``.po`` with Babel takes tens of
    milliseconds, and a bot that never meets a language never pays for it. Set, swapped and
    removed like a dict; ``in`` and iteration see only the catalogues read so far."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self._sources = {path.stem: path for path in folder.glob("*.po")}
        template = folder / TEMPLATE
        if template.exists():
            self._sources[PSEUDO.code] = template

    def __missing__(self, code: str) -> gettext.GNUTranslations:
        source = self._sources[code]  # KeyError: no catalogue for this language
        catalogue = read_catalogue(source)
        if code == PSEUDO.code:
            catalogue = pseudo_catalogue(catalogue)
        found = self[code] = compile_catalogue(catalogue)
        del self._sources[code]
        return found

    def get(  # type: ignore[override]
        self, code: str, default: gettext.GNUTranslations | None = None
    ) -> gettext.GNUTranslations | None:
        # Read on every text a player gets: English, which has no catalogue, costs no
        # exception.
        found = dict.get(self, code)
        if found is None and code in self._sources:
            found = self[code]
        return default if found is None else found


def load(folder: Path) -> Catalogues:
    """Every catalogue in ``folder`` (a package's ``locales``) by language code, plus the
    pseudo-language made from its template, each read when first asked for."""
    return Catalogues(folder)


__all__ = [
    "TEMPLATE",
    "Catalogues",
    "compile_catalogue",
    "load",
    "pseudo_catalogue",
    "read_catalogue",
]
