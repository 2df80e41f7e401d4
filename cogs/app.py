"""The bot object: owns the database, the table service and its presenter; loads the cogs,
syncs the commands, and answers every app command's error in one place (:class:`PokerTree`).

Every cog is typed with :class:`PokerBot` (``discord.Interaction[PokerBot]``) and reaches the
services as ``bot.db``, ``bot.tables`` and ``bot.presenter``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import kit
from cogs.config import Settings
from cogs.presenter import TablePresenter
from cogs.ui.components import install_lazy_responses
from data import Database, DataError
from tables.errors import Refusal
from tables.live import LiveTable
from tables.service import TableService

log = logging.getLogger("poker")

EXTENSIONS = (
    "cogs.economy",
    "cogs.poker",
    "cogs.routing",
    "cogs.history",
    "cogs.coach",
    "cogs.tournament",
)
"""The cogs: slash commands by theme, and the router of the table's components."""

GC_THRESHOLDS = (2000, 10, 100)
"""The garbage collector's thresholds once the bot is up (Python's defaults: 700, 10, 10)."""

ADOPT_SECONDS = 30.0
"""How often a process looks for tables another process held at its start and has let go."""


MISMATCH = "Those options don't match this command. Refresh Discord and try again."

NOT_OURS = (
    "This server's tables are being moved to another process of the bot. "
    "Try again in a minute; nothing was changed."
)
"""Said when an interaction reaches a process that does not hold its server's shard: only
while shards are being moved (Discord sends a server's interactions to its shard's process)."""


class PokerTree(app_commands.CommandTree["PokerBot"]):
    """The bot's one handler of app-command errors.

    A :class:`~tables.errors.Refusal` (and Discord's own checks: permissions, DMs, option
    values) is answered ephemerally with its reason; anything else is a bug: logged with its
    traceback, and the user only hears that nothing was done.
    """

    async def _call(self, interaction: discord.Interaction[PokerBot]) -> None:
        # discord.py reads the options (a user id, a number...) before any error handler is
        # in place: a forged value it cannot read would escape as a bare exception, unanswered.
        try:
            await super()._call(interaction)
        except app_commands.AppCommandError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            log.warning("refused a command whose options could not be read: %r", exc)
            await kit.reply(interaction, MISMATCH)

    async def interaction_check(self, interaction: discord.Interaction[PokerBot]) -> bool:
        if interaction.client.owns(interaction.guild_id):
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await kit.reply(interaction, NOT_OURS)
        return False

    async def on_error(
        self, interaction: discord.Interaction[PokerBot], error: app_commands.AppCommandError
    ) -> None:
        original: BaseException = error
        if isinstance(error, app_commands.CommandInvokeError):
            original = error.original
        if isinstance(original, Refusal):
            reason = str(original)
        elif isinstance(original, app_commands.MissingPermissions):
            reason = "You need the **Manage Server** permission to use this command."
        elif isinstance(original, app_commands.NoPrivateMessage):
            reason = "This command works in a server, not in DMs."
        elif isinstance(original, app_commands.TransformerError):
            if original.type is discord.AppCommandOptionType.user:
                reason = "That user is not a member of this server."
            else:
                reason = f"{original.value!r} is not a valid value here."
        elif isinstance(original, app_commands.CommandSignatureMismatch):
            # A stale client or a forged request: options missing, unknown or of another type.
            log.warning("refused /%s: its options do not match the command", original.command)
            reason = MISMATCH
        elif isinstance(original, DataError):
            reason = f"That didn't work: {original}."
        else:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("/%s failed", command, exc_info=original)
            reason = "Something went wrong on our side. Please try again in a moment."
        await kit.reply(interaction, reason)


class PokerBot(commands.AutoShardedBot):
    """An ``AutoShardedBot`` with the project's services attached.

    ``SHARD_COUNT``/``SHARD_IDS`` split the gateway's shards between processes; unset, this
    process runs as many shards as Discord recommends. A server's tables live in the process
    holding its shard: only those are restored here, and :meth:`owns` refuses the others.

    ``db`` is opened in :meth:`setup_hook` (so it lives on the bot's event loop) and closed in
    :meth:`close`; ``tables`` (every open table) and ``presenter`` (showing them in Discord)
    are made next to it, and the open tables are restored before any cog loads.
    """

    db: Database
    tables: TableService
    presenter: TablePresenter

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        # The bot never joins a voice channel: discord.py's start-up warnings about missing
        # voice libraries would only worry whoever reads the log.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # Everything arrives as interactions: the bot needs no message events and no message
        # cache, which at hundreds of tables would only cost memory and CPU.
        intents = discord.Intents.default()
        intents.guild_messages = False
        intents.dm_messages = False
        intents.guild_typing = False
        intents.dm_typing = False
        kwargs.setdefault("max_messages", None)
        if settings.shard_ids is not None:
            kwargs["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            # Slash commands only: no prefix (and no message events to read one from).
            command_prefix=(),
            tree_cls=PokerTree,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            shard_count=settings.shard_count,
            **kwargs,
        )
        # discord.py builds the message of every callback's answer; the bot never reads it.
        install_lazy_responses()
        self.settings = settings
        self._adopter: asyncio.Future[None] | None = None
        amortise_bucket_cleanup(self.http)

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.settings.database)
        self.presenter = TablePresenter(self)
        shards = self.settings.shard_ids
        where = f"shards {','.join(map(str, shards))}" if shards is not None else "all shards"
        self.tables = TableService(self.db, self.presenter, owner=f"{where}, pid {os.getpid()}")
        restored = await self.tables.restore(self.owns)
        # The process may have died after saving a change but before showing it: bring every
        # table message up to date (REST works here: setup_hook runs after login).
        for live in restored:
            self.presenter.spawn(self.presenter.refresh(live))
        if self.tables.elsewhere:
            self._adopter = asyncio.ensure_future(self._adopt_now_and_then())
        for name in EXTENSIONS:
            await self.load_extension(name)
        if not self.settings.syncs_commands:
            return
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def adopt_tables(self) -> list[LiveTable]:
        """Drive the tables another process held at start-up and has since let go (it was
        stopped, or killed: the database drops a dead process's claims), and show them."""
        adopted = await self.tables.adopt(self.owns)
        for live in adopted:
            self.presenter.spawn(self.presenter.refresh(live))
        return adopted

    async def _adopt_now_and_then(self) -> None:
        while self.tables.elsewhere:
            await asyncio.sleep(ADOPT_SECONDS)
            try:
                await self.adopt_tables()
            except Exception:
                log.exception("taking over tables let go by another process failed")

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process drives the tables of server ``guild_id`` (its shard is ours)."""
        return self.settings.owns_guild(guild_id)

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
        if self._adopter is not None:
            self._adopter.cancel()
        if hasattr(self, "tables"):
            await self.tables.shutdown()
            self.presenter.close()
        await super().close()
        if hasattr(self, "db"):
            await self.db.close()


def amortise_bucket_cleanup(http: Any) -> None:
    """Make discord.py's clean-up of idle rate-limit buckets amortised.

    discord.py keeps one bucket per route and channel (every DM channel has its own) and, once
    it holds 256, scans all of them for idle ones each time a new one is added. A bot with
    thousands of players' DM channels adds one at every first DM or edit in a channel, and each
    scan takes milliseconds (at 500 busy tables, 9 % of the bot's CPU went there). Here a scan
    runs only when the buckets have doubled since the last one: the same buckets are dropped,
    in amortised constant time. Left alone if discord.py no longer has that method."""
    clear = getattr(http, "_try_clear_expired_ratelimits", None)
    buckets = getattr(http, "_buckets", None)
    if clear is None or not isinstance(buckets, dict):
        return
    floor = 256
    next_scan = floor

    def cleanup() -> None:
        nonlocal next_scan
        if len(http._buckets) < next_scan:
            return
        clear()
        next_scan = max(floor, 2 * len(http._buckets))

    http._try_clear_expired_ratelimits = cleanup


def create_bot(settings: Settings, **kwargs: Any) -> PokerBot:
    """Build the bot (not yet logged in); tests pass emulator-friendly keyword arguments."""
    return PokerBot(settings, **kwargs)
