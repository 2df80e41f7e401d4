"""Finding the words that escaped the localisation layer, and payloads over Discord's limits.

Rendered in the pseudo-language ``en-XA`` every letter of a translated message is accented, so
a plain ASCII word of three letters or more is a string that did not pass through the layer.
Tests render in ``en-XA`` and ask :func:`english_words` what is left; names, mentions, card
codes, commands in backticks and the like are not words a translator writes, and are skipped.

Helpers (for unit tests and bot tests alike):

* :func:`fresh_pseudo` -- the ``en-XA`` catalogues made from the code as it is now, so a test
  does not depend on a committed ``messages.pot`` being up to date.
* :func:`engine_passthrough` -- records the English that :mod:`i18n.engine_text` let through
  (while the engine's catalogue lacks it), so a test can tell those words apart from strings
  that never reached the layer.
* :func:`payload_texts`, :func:`english_words`, :func:`limit_problems`.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from i18n import PSEUDO, Translator
from i18n import engine_text as engine_text_module
from i18n.catalogues import compile_catalogue, pseudo_catalogue
from i18n.extract import PACKAGES, Package, extract

__all__ = [
    "LIMITS",
    "engine_passthrough",
    "english_words",
    "fresh_pseudo",
    "limit_problems",
    "payload_texts",
]

_WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]{3,}(?![A-Za-z0-9_])")
_NOT_PROSE = re.compile(
    r"`[^`]*`"  # code and commands: `/poker end`
    r"|<[@#&:/!t][^>]*>"  # mentions, channels, emoji, Discord timestamps
    r"|\b(?:https?|attachment)://\S+"  # links and attachments
    r"|\{[A-Za-z_][A-Za-z0-9_]*\}"  # a placeholder left unfilled
)


def english_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The plain English words of ``text`` (ASCII words of three letters or more), leaving out
    code spans, mentions, links and the ``allowed`` texts (player names, game slugs...).

    >>> english_words("[Ŧĥé ŧåƀļé ····] **Alice** raises `/poker end` <t:5:R>", ["Alice"])
    ['raises']
    """
    for text_allowed in sorted(allowed, key=len, reverse=True):
        if text_allowed:
            text = text.replace(text_allowed, " ")
    text = _NOT_PROSE.sub(" ", text)
    return _WORD.findall(text)


_SKIPPED_KEYS = frozenset(
    {"type", "url", "proxy_url", "icon_url", "custom_id", "value_id", "id", "color", "colour"}
)


def payload_texts(payload: Any) -> list[str]:
    """Every string a player can read in a payload: an embed (``Embed`` or its dict), a message
    payload, components, or a list of them. Ids, urls and custom ids are left out, and so
    is a select option's ``value`` (never shown)."""
    if hasattr(payload, "to_dict"):
        payload = payload.to_dict()
    found: list[str] = []

    def walk(item: Any, key: str | None, in_option: bool) -> None:
        if isinstance(item, str):
            if key not in _SKIPPED_KEYS and not (in_option and key == "value"):
                found.append(item)
        elif isinstance(item, Mapping):
            option = in_option or ("label" in item and "value" in item)
            for k, v in item.items():
                walk(v, str(k), option)
        elif isinstance(item, list | tuple):
            for v in item:
                walk(v, key, in_option)

    walk(payload, None, False)
    return found


LIMITS: Mapping[str, int] = {
    "embed.title": 256,
    "embed.description": 4096,
    "field.name": 256,
    "field.value": 1024,
    "footer.text": 2048,
    "author.name": 256,
    "embed.total": 6000,
    "button.label": 80,
    "option.label": 100,
    "option.description": 100,
    "select.placeholder": 150,
    "content": 2000,
}
"""Discord's limits on what a message carries, in characters."""


def limit_problems(payload: Any) -> list[str]:
    """What in ``payload`` (an embed, a message payload with ``embeds``/``components``, or a
    list of them) is over Discord's limits; empty when all fits."""
    if hasattr(payload, "to_dict"):
        payload = payload.to_dict()
    problems: list[str] = []

    def over(what: str, text: object) -> None:
        if isinstance(text, str) and len(text) > LIMITS[what]:
            problems.append(f"{what} is {len(text)} > {LIMITS[what]}: {text[:60]!r}…")

    def embed(e: Mapping[str, Any]) -> None:
        over("embed.title", e.get("title"))
        over("embed.description", e.get("description"))
        total = len(e.get("title") or "") + len(e.get("description") or "")
        for field in e.get("fields", ()):
            over("field.name", field.get("name"))
            over("field.value", field.get("value"))
            total += len(field.get("name") or "") + len(field.get("value") or "")
        footer = e.get("footer") or {}
        over("footer.text", footer.get("text"))
        total += len(footer.get("text") or "")
        over("author.name", (e.get("author") or {}).get("name"))
        if total > LIMITS["embed.total"]:
            problems.append(f"embed.total is {total} > {LIMITS['embed.total']}")
        if len(e.get("fields", ())) > 25:
            problems.append("more than 25 fields")

    def component(c: Mapping[str, Any]) -> None:
        for child in c.get("components", ()):
            component(child)
        if c.get("type") == 2:
            over("button.label", c.get("label"))
        if "options" in c:
            over("select.placeholder", c.get("placeholder"))
            for option in c["options"]:
                over("option.label", option.get("label"))
                over("option.description", option.get("description"))

    def walk(item: Any) -> None:
        if hasattr(item, "to_dict"):
            item = item.to_dict()
        if isinstance(item, list | tuple):
            for each in item:
                walk(each)
        elif isinstance(item, Mapping):
            if "embeds" in item or "components" in item or "content" in item:
                over("content", item.get("content"))
                for e in item.get("embeds") or ():
                    walk(e)
                for c in item.get("components") or ():
                    component(c)
            elif "type" in item and isinstance(item.get("type"), int):
                component(item)
            else:
                embed(item)

    walk(payload)
    return problems


@contextlib.contextmanager
def fresh_pseudo(*translators: Translator) -> Iterator[None]:
    """Inside the block, each translator's ``en-XA`` is made from its package's code as it is
    now (the committed template may lag behind the code until the lead re-extracts)."""
    saved = []
    known = {package.name: package for package in PACKAGES}
    for translator in translators:
        package = known.get(translator.name, Package(translator.name))
        if package.name == "cogs":
            # The slash menu's texts (the cogs' collector) are never rendered here.
            package = Package(package.name, keywords=package.keywords)
        template = extract(package)
        catalogues = translator._catalogues  # a test swaps one catalogue
        saved.append((catalogues, catalogues.get(PSEUDO.code)))
        catalogues[PSEUDO.code] = compile_catalogue(pseudo_catalogue(template))
    try:
        yield
    finally:
        for catalogues, before in saved:
            if before is None:
                catalogues.pop(PSEUDO.code, None)
            else:
                catalogues[PSEUDO.code] = before


_ENGINE_FUNCTIONS = (
    "hand_name",
    "say",
    "refusal",
    "variant_name",
    "variant_description",
    "option_label",
    "option_description",
    "engine_text",
)


@contextlib.contextmanager
def engine_passthrough() -> Iterator[set[str]]:
    """Record what :mod:`i18n.engine_text` returned with English words in it (the engine's
    catalogue lacks it yet): yields the set of those texts, to pass as ``allowed`` to
    :func:`english_words`. Every module that imported one of its functions is patched for
    the block. Once the engine's words are translated the set stays empty."""
    returned: set[str] = set()
    originals: dict[str, Callable[..., str]] = {
        name: getattr(engine_text_module, name) for name in _ENGINE_FUNCTIONS
    }

    def recording(function: Callable[..., str]) -> Callable[..., str]:
        def wrapper(*args: Any, **kwargs: Any) -> str:
            text = function(*args, **kwargs)
            if _WORD.search(text):
                returned.add(text)
            return text

        return wrapper

    wrapped = {name: recording(f) for name, f in originals.items()}
    patched: list[tuple[Any, str, object]] = []
    module: Any
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for attr, value in list(namespace.items()):
            for name, original in originals.items():
                if value is original:
                    patched.append((module, attr, value))
                    setattr(module, attr, wrapped[name])
    try:
        yield returned
    finally:
        for module, attr, value in patched:
            setattr(module, attr, value)
