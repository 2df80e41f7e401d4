"""The documentation site's Games section is written from the engine's catalogue
(``docs_hooks/games.py``): every game and every modifier has its page, in the navigation, in
the engine's own words. (``.ci/run`` builds the whole site with ``mkdocs build --strict``.)"""

from __future__ import annotations

from pathlib import Path

import engine
from docs_hooks import games

ROOT = Path(__file__).resolve().parent.parent.parent


def _nav_pages(entries: list[object]) -> set[str]:
    found: set[str] = set()
    for entry in entries:
        if isinstance(entry, str):
            found.add(entry)
        elif isinstance(entry, dict):
            for value in entry.values():
                found |= _nav_pages(value if isinstance(value, list) else [value])
    return found


def test_every_variant_has_its_page_with_its_rules() -> None:
    pages = games.game_pages()
    for variant in engine.list_variants():
        text = pages[games.variant_page(variant.slug)]
        assert text.startswith(f"# {variant.name}\n")
        assert variant.description in text
        for option in variant.options:
            assert option.description in text


def test_every_modifier_has_its_page() -> None:
    pages = games.game_pages()
    for key in engine.MODIFIER_KEYS:
        assert engine.explain_modifier(key) in pages[games.modifier_page(key)]


def test_the_navigation_lists_every_generated_page() -> None:
    config = {"nav": [{"Home": "index.md"}, {"Games": []}]}
    games.on_config(config)
    listed = _nav_pages(config["nav"])
    assert set(games.game_pages()) <= listed
    hand_written = {"games/rules-notes.md"}
    assert all((ROOT / "docs" / page).exists() for page in hand_written & listed)


def test_no_generated_page_is_also_written_by_hand() -> None:
    # A page under docs/ with a generated page's path would be built twice, one copy lost.
    written = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert not written & set(games.game_pages())


def test_modifiers_whose_rules_their_name_cannot_carry_explain_them() -> None:
    # 'high' drops a declare game's declaration, 'no-check-raise' holds at fixed and spread
    # limit only, 'draws:N' copies the round after the draw: the menu's words as a sentence
    # ("High.") would leave a player to guess.
    for key in ("draws:1", "draws:2", "draws:3", "high", "no-check-raise"):
        words = engine.describe_modifier(key)
        assert engine.explain_modifier(key) != f"{words[0].upper()}{words[1:]}.", key
