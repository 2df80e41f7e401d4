"""The Games section of the documentation site, written from the engine's catalogue at build time.

MkDocs loads this module as a hook (``hooks:`` in ``mkdocs.yml``). Every variant of
:func:`engine.list_variants` and every modifier key of :data:`engine.MODIFIER_KEYS` gets a page,
and the Games entry of the navigation lists them, so a game added to the catalogue appears on
the site without anyone writing a page. The words are the engine's own (a variant's
description and options, :func:`engine.explain_modifier`): the site says what ``/poker rules``
says.

The page texts come from :func:`game_pages`, which needs no MkDocs, so a test can check that
every game has its page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import engine

GAMES = "games"
MODIFIERS = "games/modifiers"
# Pages of the repository shown as they are, outside docs/: (source, page in the site).
INCLUDED = (("tests/emulator/README.md", "developers/emulator-reference.md"),)
ROOT = Path(__file__).resolve().parent.parent


def modifier_page(key: str) -> str:
    """The site path of a modifier's page (``wild:2`` -> ``games/modifiers/wild-2.md``)."""
    return f"{MODIFIERS}/{key.replace(':', '-')}.md"


def variant_page(slug: str) -> str:
    """The site path of a game's page."""
    return f"{GAMES}/{slug}.md"


def _variant_text(variant: engine.Variant) -> str:
    config = engine.TableConfig(variant.slug)
    structure, forced = config.stakes
    lines = [f"# {variant.name}", "", variant.description, ""]
    lines += ["| At a glance | |", "| --- | --- |", f"| Players | 2 to {variant.max_players} |"]
    lines.append(f"| Usual stakes | {structure.label} |")
    if forced.ante:
        lines.append(f"| Ante | {forced.ante} |")
    if forced.blinds:
        lines.append(f"| Blinds | {'/'.join(str(b) for b in forced.blinds)} |")
    lines.append(f"| Open it with | `/poker create variant:{variant.slug}` |")
    lines.append("")
    if variant.options:
        lines += ["## Options", ""]
        for option in variant.options:
            state = "on" if option.default else "off"
            lines.append(
                f"- **{option.label}** (`{option.key}`, {state} by default): {option.description}"
            )
        lines.append("")
    notes = config.rules_notes()
    if notes:
        lines += [
            "## Where the rules books differ",
            "",
            "How a table plays it unless its creator changes the "
            "[house rules](../admins/house-rules.md):",
            "",
        ]
        lines += [f"- {note}" for note in notes]
        lines.append("")
    return "\n".join(lines)


def _modifier_text(key: str, variants: tuple[engine.Variant, ...]) -> str:
    words = engine.describe_modifier(key)
    offering = [v for v in variants if any(o.key == key for o in v.options)]
    lines = [f"# {words[0].upper()}{words[1:]}", "", engine.explain_modifier(key), ""]
    # A variant that offers it as an option describes it in a sentence of its own.
    described = {o.description for v in offering for o in v.options if o.key == key}
    lines += [*(f"{text}\n" for text in sorted(described)), f"Key: `{key}`.", ""]
    base = engine.get_variant("five-card-draw")
    try:
        modified = engine.apply_modifiers(base.rules, (key,))
    except ValueError as exc:
        lines.append(f"It does not fit {base.name.lower()} on its own ({exc}).")
    else:
        lines.append(
            f"Under dealer's choice, {base.name.lower()} with it is called *{modified.rules.name}*."
        )
        lines += [f"The rules books advise against it: {w}" for w in modified.warnings]
    if offering:
        links = ", ".join(f"[{v.name}](../{v.slug}.md)" for v in offering)
        lines += ["", f"Offered as an option of: {links}."]
    lines.append("")
    return "\n".join(lines)


def _index_text(variants: tuple[engine.Variant, ...]) -> str:
    lines = [
        "# Games",
        "",
        "Every game the bot deals, from its catalogue. `/poker rules` at a table says the "
        "same, and `/poker create variant:` takes the name in the second column.",
        "",
        "| Game | Name at the table | Players |",
        "| --- | --- | --- |",
    ]
    for v in variants:
        lines.append(f"| [{v.name}]({v.slug}.md) | `{v.slug}` | 2 to {v.max_players} |")
    lines += [
        "",
        "## Modifiers",
        "",
        "Home games bend the rules with modifiers: a variant's options are made of them, "
        "and under dealer's choice the dealer adds them to the game they pick.",
        "",
        "| Modifier | Key |",
        "| --- | --- |",
    ]
    for key in engine.MODIFIER_KEYS:
        lines.append(
            f"| [{engine.describe_modifier(key)}](modifiers/{key.replace(':', '-')}.md) | `{key}` |"
        )
    lines += ["", "See also [where the program differs from a card table](rules-notes.md).", ""]
    return "\n".join(lines)


def game_pages() -> dict[str, str]:
    """Every generated page of the Games section: its path under ``docs/`` -> its Markdown."""
    variants = engine.list_variants()
    pages = {f"{GAMES}/index.md": _index_text(variants)}
    for variant in variants:
        pages[variant_page(variant.slug)] = _variant_text(variant)
    for key in engine.MODIFIER_KEYS:
        pages[modifier_page(key)] = _modifier_text(key, variants)
    return pages


def _nav() -> list[Any]:
    games: list[Any] = [f"{GAMES}/index.md"]
    games += [{v.name: variant_page(v.slug)} for v in engine.list_variants()]
    games.append({"Modifiers": [modifier_page(key) for key in engine.MODIFIER_KEYS]})
    games.append(f"{GAMES}/rules-notes.md")
    return games


def on_config(config: Any) -> Any:
    """Fill the Games entry of the navigation (``- Games: []`` in mkdocs.yml)."""
    for entry in config["nav"] or []:
        if isinstance(entry, dict) and "Games" in entry:
            entry["Games"] = _nav()
    return config


def on_files(files: Any, config: Any) -> Any:
    """Add the generated pages to the build (nothing is written under docs/)."""
    from mkdocs.structure.files import File

    for path, text in game_pages().items():
        files.append(File.generated(config, path, content=text))
    for source, path in INCLUDED:
        files.append(File.generated(config, path, content=(ROOT / source).read_text()))
    return files
