"""Reading a package's catalogues: the ``.po`` files are compiled in memory at start-up.

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


def read_catalogue(path: Path) -> Catalog:
    """One ``.po``/``.pot`` file as a Babel catalogue."""
    with path.open("rb") as file:
        return read_po(file)


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


def load(folder: Path) -> dict[str, gettext.GNUTranslations]:
    """Every catalogue in ``folder`` (a package's ``locales``) by language code, plus the
    pseudo-language made from its template."""
    loaded = {path.stem: compile_catalogue(read_catalogue(path)) for path in folder.glob("*.po")}
    template = folder / TEMPLATE
    if template.exists():
        loaded[PSEUDO.code] = compile_catalogue(pseudo_catalogue(read_catalogue(template)))
    return loaded


__all__ = ["TEMPLATE", "compile_catalogue", "load", "pseudo_catalogue", "read_catalogue"]
