"""The cogs' words, and the slash menu in every shipped language.

``_`` is the cogs' one translator (catalogues in ``cogs/locales/``): a cog or ``ui`` module
writes ``from cogs.translator import _`` and marks its texts with it (see :mod:`i18n`).

:class:`MenuTranslator` gives Discord the menu's descriptions and choice names in each shipped
language, from the same catalogues; :func:`menu_messages` lists them for
``python -m i18n extract`` (they are arguments of decorators, not calls Babel can find).
Command, group and option *names* stay English: see docs/translating.md for why.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import logging
from typing import Any

from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from i18n import ENGLISH, Translator, resolve

log = logging.getLogger(__name__)

_ = Translator("cogs", __file__)

TRANSLATED = frozenset(
    {
        Where.command_description,
        Where.group_description,
        Where.parameter_description,
        Where.choice_name,
    }
)
"""What the menu localizes: descriptions and choice names, never names."""

LIMIT = 100
"""Discord's limit on a description or a choice name, in every language."""

UNSET = "…"
"""discord.py's description for a command given none: nothing to translate."""


class MenuTranslator(app_commands.Translator):
    """Descriptions and choice names from the cogs' catalogues, for every Discord locale we
    ship a language for (``es-419`` reads ``es-ES``); other locales get Discord's default,
    the English text."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Any,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location not in TRANSLATED:
            return None
        language = resolve(str(locale))
        if language is ENGLISH:
            return None
        text = _.translation(string.message, language)
        if text is not None and len(text) > LIMIT:
            # Discord would refuse the whole sync: the English text is better than no menu.
            log.error("the %s menu text for %r is over %d characters", language, string, LIMIT)
            return None
        return text


class _Recorder(app_commands.Translator):
    def __init__(self) -> None:
        self.found: dict[str, str] = {}
        self._where = ""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Any,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        data: Any = context.data
        if context.location in (Where.command_name, Where.group_name):
            self._where = _menu_path(data.qualified_name)
        elif context.location is Where.parameter_name:
            where = _menu_path(data.command.qualified_name)
            self._where = f"{where}, option {data.display_name}"
        if context.location in TRANSLATED and string.message and string.message != UNSET:
            kind = "choice" if context.location is Where.choice_name else "description"
            comment = f"Slash menu, {self._where} ({kind}, at most {LIMIT} characters)"
            self.found.setdefault(string.message, comment)
        return None


def _menu_path(qualified_name: str) -> str:
    """The command as a player types it: the cogs moved under ``/poker`` are read here from
    their own classes, still at the top level."""
    from cogs.kit import UNDER_POKER

    if qualified_name.split(" ", 1)[0] in UNDER_POKER:
        return f"/poker {qualified_name}"
    return f"/{qualified_name}"


async def _collect() -> dict[str, str]:
    import discord

    from cogs.app import EXTENSIONS, PokerTree

    client = discord.Client(intents=discord.Intents.none())
    tree = PokerTree(client)  # type: ignore[arg-type]
    recorder = _Recorder()
    for name in EXTENSIONS:
        module = importlib.import_module(name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, commands.Cog) and cls is not commands.Cog:
                for command in cls.__cog_app_commands__:
                    await command.get_translated_payload(tree, recorder)
    return recorder.found


def menu_messages() -> list[tuple[str, str]]:
    """Every description and choice name of the slash menu, with a note for translators
    (read from the cogs' classes: no bot, no database)."""
    return sorted(asyncio.run(_collect()).items())


__all__ = ["LIMIT", "TRANSLATED", "MenuTranslator", "_", "menu_messages"]
