"""The slash menu the bot syncs carries its descriptions and choices in every shipped
language (through the emulator: what Discord would store and show)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord

from cogs.translator import LIMIT, _
from i18n import ENGLISH, resolve
from tests.emulator import limits

SHIPPED_LOCALES = {
    "de", "fr", "es-ES", "es-419", "pt-BR", "it", "nl", "sv-SE", "tr", "ru", "uk", "vi", "pl",
    "id", "cs",
}  # fmt: skip
"""The Discord locales a shipped language answers (Latin-American Spanish reads Spain's)."""

SUBCOMMAND, GROUP = 1, 2


def _nodes(command: dict[str, Any], path: str = "") -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(where, kind, payload) for a command and everything under it."""
    where = f"{path} {command['name']}".strip()
    kind = "command" if command.get("type", SUBCOMMAND) in (SUBCOMMAND, GROUP) else "option"
    yield where, kind, command
    for choice in command.get("choices") or ():
        yield f"{where} choice {choice['name']}", "choice", choice
    for option in command.get("options") or ():
        yield from _nodes(option, where)


def _expected(message: str) -> dict[str, str]:
    found = {
        locale.value: _.translation(message, resolve(locale.value)) for locale in discord.Locale
    }
    return {code: text for code, text in found.items() if text is not None}


def test_only_the_shipped_languages_answer_discord_locales() -> None:
    answered = {loc.value for loc in discord.Locale if resolve(loc.value) is not ENGLISH}
    assert answered == SHIPPED_LOCALES


async def test_synced_commands_carry_every_language(poker_bot, emu) -> None:
    await poker_bot()
    synced = [command.to_dict() for command in emu.commands()]
    assert synced, "the bot synced no commands"
    commands_seen = 0
    for command in synced:
        for where, kind, node in _nodes(command):
            field = "name" if kind == "choice" else "description"
            localized = node.get(f"{field}_localizations") or {}
            assert localized == _expected(node[field]), where
            assert all(len(text) <= LIMIT for text in localized.values()), where
            if kind == "command":
                commands_seen += 1
                assert set(localized) == SHIPPED_LOCALES, f"/{where} lacks a language"
            # Names stay English (docs/translating.md says why).
            assert not node.get("name_localizations") or kind == "choice", where
    assert commands_seen > 30


def _english(node: Any) -> Any:
    """A command payload without its translations."""
    if isinstance(node, list):
        return [_english(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {k: _english(v) for k, v in node.items() if not k.endswith("_localizations")}


async def test_every_command_fits_in_discord_size_with_every_language(poker_bot) -> None:
    """Discord counts each text of a command (its groups, subcommands, options and choices)
    at its longest translation, and refuses a command over 8,000 characters: the whole menu
    would then fail to sync. Each language added can only make a text's longest longer."""
    bot = await poker_bot()
    tree = bot.tree
    assert tree.translator is not None
    sizes, english = {}, {}
    for command in tree.get_commands():
        payload = await command.get_translated_payload(tree, tree.translator)
        sizes[command.name] = limits.command_size(payload)
        english[command.name] = limits.command_size(_english(payload))
    assert sizes["poker"] > english["poker"]  # the translations were counted
    over = {name: size for name, size in sizes.items() if size > limits.COMMAND_SIZE}
    assert not over, over
