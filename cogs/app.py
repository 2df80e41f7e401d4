"""The bot object: owns the database and the table service, loads the cogs, syncs commands."""

from __future__ import annotations

import gc
import logging

import discord
from discord.ext import commands

from cogs.config import Settings
from data import Database

log = logging.getLogger("poker")

EXTENSIONS = ("cogs.economy", "cogs.poker", "cogs.history")

GC_THRESHOLDS = (2000, 10, 100)
"""The garbage collector's thresholds once the bot is up (Python's defaults: 700, 10, 10)."""


class PokerBot(commands.Bot):
    """A ``commands.Bot`` with the project's services attached.

    ``db`` is opened in :meth:`setup_hook` (so it lives on the bot's event loop) and closed in
    :meth:`close`. Cogs reach it as ``bot.db``.
    """

    db: Database

    def __init__(self, settings: Settings, **kwargs: object) -> None:
        # Everything arrives as interactions: the bot needs no message events and no message
        # cache, which at hundreds of tables would only cost memory and CPU.
        intents = discord.Intents.default()
        intents.guild_messages = False
        intents.dm_messages = False
        intents.guild_typing = False
        intents.dm_typing = False
        kwargs.setdefault("max_messages", None)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            **kwargs,  # type: ignore[arg-type]
        )
        self.settings = settings

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.settings.database_path)
        for name in EXTENSIONS:
            await self.load_extension(name)
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info("Logged in as %s (%s guilds)", self.user, len(self.guilds))
        # Start-up objects (modules, the engine's tables) live for the whole process: keep them
        # out of the garbage collector's full passes, which otherwise pause busy bots.
        gc.freeze()
        # A full collection walks every live object: 100-200 ms at 500 tables. By default one
        # runs whenever a quarter more objects have outlived two young collections, which at a
        # busy bot is every few seconds. Young collections three times further apart let the
        # objects of one interaction die young (fewer reach the old generation), and waiting
        # for 100 middle collections instead of 10 makes the full pauses minutes apart.
        gc.set_threshold(*GC_THRESHOLDS)

    async def close(self) -> None:
        for name in list(self.extensions):
            await self.unload_extension(name)
        await super().close()
        if hasattr(self, "db"):
            await self.db.close()


def create_bot(settings: Settings, **kwargs: object) -> PokerBot:
    """Build the bot (not yet logged in); tests pass emulator-friendly keyword arguments."""
    return PokerBot(settings, **kwargs)
