"""Making and updating the catalogues (``python -m i18n``): the tool translators run.

``extract`` reads each package's code with Babel (the keywords below are the translator's
methods) and writes its template ``<package>/locales/messages.pot``; a package may add strings
that are not literals in calls, such as the slash menu's descriptions, through a collector
(``module:function`` returning ``(message, comment)`` pairs), imported only here.
``update`` merges each template into the package's ``.po`` files, ``init`` starts a new
language, ``check`` lists what a catalogue still lacks (the suite runs the same checks).
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from .catalogues import TEMPLATE, read_catalogue
from .languages import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent

KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "_": None,
    "lazy": None,
    "plural": (1, 2),
    "lazy_plural": (1, 2),
}
"""The calls whose literal arguments are messages: ``_("...")``, ``_.lazy("...")``,
``_.plural("...", "...", count=n)``, ``_.lazy_plural("...", "...")`` (``babel.cfg`` and the
``pybabel`` commands in docs/translating.md name the same ones)."""

ENGINE_KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "Phrase": None,
    "begun": None,
    "counted": (1, 2),
    "english": None,
    "IllegalAction": None,
    "TableError": None,
    "TournamentError": None,
    "SeatRefused": None,
    "NoOdds": None,
}
"""The engine's own constructs whose literal first argument is a message: a
:class:`engine.wording.Phrase` (``Phrase.begun``, ``Phrase.counted`` with its two forms), the
marker ``english("...")`` and the refusals (the engine knows no translator: see
:mod:`i18n.engine_text`)."""

COMMENT_TAGS = ("Translators:",)


@dataclass(frozen=True)
class Package:
    """A package with catalogues: its folder and, maybe, a collector of extra messages."""

    name: str
    collector: str | None = None
    keywords: Mapping[str, tuple[int, ...] | None] = field(
        default_factory=lambda: KEYWORDS, hash=False, compare=False
    )

    @property
    def folder(self) -> Path:
        return ROOT / self.name

    @property
    def locales(self) -> Path:
        return self.folder / "locales"

    @property
    def template(self) -> Path:
        return self.locales / TEMPLATE

    def catalogue(self, code: str) -> Path:
        return self.locales / f"{code}.po"


PACKAGES: tuple[Package, ...] = (
    Package("i18n"),
    Package("cogs", collector="cogs.translator:menu_messages"),
    Package("engine", collector="i18n.engine_text:engine_messages", keywords=ENGINE_KEYWORDS),
    Package("tables"),
)
"""Every package that has catalogues (each declares its ``Translator`` once)."""


def extract(package: Package) -> Catalog:
    """``package``'s template, freshly read from its code (and its collector)."""
    template = Catalog(project="drawpoker-bot", domain="messages", fuzzy=False)
    found = extract_from_dir(
        package.folder,
        method_map=[("**.py", "python")],
        keywords=package.keywords,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        location = (f"{package.name}/{filename}", lineno)
        template.add(message, None, [location], auto_comments=comments, context=context)
    if package.collector:
        module, _, function = package.collector.partition(":")
        collect: Callable[[], Iterable[tuple[str, str]]] = getattr(
            importlib.import_module(module), function
        )
        for message, comment in collect():
            template.add(message, None, auto_comments=[comment])
    return template


def render(catalogue: Catalog) -> bytes:
    """``catalogue`` as its ``.po`` / ``.pot`` file reads."""
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=100, include_lineno=False)
    return buffer.getvalue()


def write(catalogue: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(render(catalogue))


def write_template(template: Catalog, path: Path) -> bool:
    """Write a freshly extracted ``template`` to ``path``, unless only its creation date
    would change: a template whose messages are as they were keeps its file (and its date),
    so that extracting from an unchanged tree changes nothing. Returns whether it wrote."""
    if path.exists():
        made = template.creation_date
        template.creation_date = read_catalogue(path).creation_date
        if render(template) == path.read_bytes():
            return False
        template.creation_date = made
    write(template, path)
    return True


def update(package: Package) -> list[Path]:
    """Merge the template into every ``.po`` of ``package`` (new messages arrive untranslated,
    changed ones fuzzy); returns the files written."""
    template = read_catalogue(package.template)
    written = []
    for path in sorted(package.locales.glob("*.po")):
        catalogue = read_catalogue(path)
        catalogue.update(template)
        write(catalogue, path)
        written.append(path)
    return written


def init(package: Package, code: str) -> Path:
    """A new, empty catalogue for language ``code`` (Discord's spelling, e.g. ``it``)."""
    template = read_catalogue(package.template)
    catalogue = Catalog(locale=Locale.parse(code, sep="-"), project="drawpoker-bot")
    catalogue.update(template)
    path = package.catalogue(code)
    write(catalogue, path)
    return path


def shipped_codes() -> list[str]:
    return [language.code for language in LANGUAGES[1:]]


__all__ = [
    "COMMENT_TAGS",
    "ENGINE_KEYWORDS",
    "KEYWORDS",
    "PACKAGES",
    "ROOT",
    "Package",
    "extract",
    "init",
    "render",
    "shipped_codes",
    "update",
    "write",
    "write_template",
]
