"""The bot object: owns the database, the table service and its presenter; loads the cogs,
syncs the commands, and answers every app command's error in one place (:class:`PokerTree`).

Every cog is typed with :class:`PokerBot` (``discord.Interaction[PokerBot]``) and reaches the
services as ``bot.db``, ``bot.tables`` and ``bot.presenter``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import time
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs import kit, languages, transport
from cogs.config import Settings
from cogs.memory import Trimmer, release_answered, tune_allocator
from cogs.metrics import Metrics
from cogs.presenter import TablePresenter
from cogs.translator import MenuTranslator, _
from cogs.ui.components import install_lazy_responses
from data import Database, DataError
from data.backup import Backups
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
    "cogs.ledger",
)
"""The cogs: slash commands by theme, and the router of the table's components."""

GC_THRESHOLDS = (2000, 10, 100)
"""The garbage collector's thresholds once the bot is up (Python's defaults: 700, 10, 10)."""

ADOPT_SECONDS = 30.0
"""How often a process looks for tables another process held at its start and has let go."""


MISMATCH = kit.MISMATCH

NOT_OURS = _.lazy(
    "This server's tables are being moved to another process of the bot. "
    "Try again in a minute; nothing was changed."
)
"""Said when an interaction reaches a process that does not hold its server's shard: only
while shards are being moved (Discord sends a server's interactions to its shard's process)."""

RESTARTING = _.lazy("The bot is restarting: try again in a moment. Nothing was changed.")
"""Said to a press that arrives while the bot stops (SIGTERM/SIGINT, or :meth:`PokerBot.close`)."""

STOP_BUDGET = (4.0, 1.0, 2.0, 0.5)
"""A clean stop's waits at most, in seconds: for the presses being handled, for the messages
being sent, for the tables' changes and pings, for the answers to presses that came meanwhile.
With the gateway's and the database's closing they stay under the 10 s a supervisor (Docker)
gives before it kills; a stop usually takes about :data:`STOP_GRACE`."""

STOP_GRACE = 1.0
"""After a signal, the gateway stays open at least this long, answering :data:`RESTARTING`:
presses Discord has already sent on their way get an answer instead of failing."""


class CannotStart(Exception):
    """Something on this machine keeps the bot from starting (its database, its metrics
    port): the reason says what, for the one line ``bot.py`` prints."""


class PokerTree(app_commands.CommandTree["PokerBot"]):
    """The bot's command tree: every app command's error goes to :func:`cogs.kit.answer_failure`
    (the router sends its presses' errors there too), so a refusal reads the same wherever it
    happens and a bug is logged once with its traceback.
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
            await kit.answer_failure(interaction, Refusal(MISMATCH.render()), what="a command")

    async def interaction_check(self, interaction: discord.Interaction[PokerBot]) -> bool:
        if interaction.client.owns(interaction.guild_id):
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await kit.reply(interaction, NOT_OURS)
        return False

    def _from_interaction(self, interaction: discord.Interaction[PokerBot]) -> None:
        # discord.py's own, with the task handed to the bot: a clean stop waits for it.
        async def invoke() -> None:
            try:
                await self._call(interaction)
            except app_commands.AppCommandError as exc:
                await self._dispatch_error(interaction, exc)

        self.client.track(interaction, asyncio.ensure_future(invoke()))

    async def on_error(
        self, interaction: discord.Interaction[PokerBot], error: app_commands.AppCommandError
    ) -> None:
        original: BaseException = error
        if isinstance(error, app_commands.CommandInvokeError):
            original = error.original
        command = interaction.command.qualified_name if interaction.command else "?"
        await kit.answer_failure(interaction, original, what=f"/{command}")


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

    def __init__(self, settings: Settings, *, stop_on_signals: bool = False, **kwargs: Any) -> None:
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
        # The operators' window (METRICS_PORT): off unless asked for.
        self.metrics = Metrics(self) if settings.metrics_port is not None else None
        if self.metrics is not None:
            kwargs["http_trace"] = self.metrics.http_trace()
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
        transport.install(self.http)
        self.settings = settings
        self._adopter: asyncio.Future[None] | None = None
        self.backups: Backups | None = None
        prune_buckets = amortise_bucket_cleanup(self.http)
        self.stopping = False
        self._stop_on_signals = stop_on_signals
        self._stopper: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None
        self._grace_until = 0.0
        # The handling of every interaction (its tasks), so that a clean stop can wait for it.
        self._in_flight: set[asyncio.Task[Any]] = set()
        self.trimmer = Trimmer()
        # on_ready runs again each time Discord ends the session and the bot identifies anew.
        self._tuned = False
        if prune_buckets is not None:
            self.trimmer.chores.append(prune_buckets)
        tune_allocator()
        parsers = self._connection.parsers
        self._parse_interaction = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self._interaction_create

    async def setup_hook(self) -> None:
        try:
            self.db = await Database.open(self.settings.database)
        except DataError as exc:
            raise CannotStart(f"the database: {exc}") from exc
        await languages.load(self.db)
        if self.metrics is not None:
            try:
                await self.metrics.start()
            except OSError as exc:
                where = f"{self.settings.metrics_host}:{self.settings.metrics_port}"
                raise CannotStart(f"health and metrics cannot be served on {where}: {exc}") from exc
        self.presenter = TablePresenter(self)
        shards = self.settings.shard_ids
        where = f"shards {','.join(map(str, shards))}" if shards is not None else "all shards"
        self.tables = TableService(self.db, self.presenter, owner=f"{where}, pid {os.getpid()}")
        restored = await self.tables.restore(self.owns)
        self.backups = automatic_backups(self.settings, self.db)
        # The process may have died after saving a change but before showing it: bring every
        # table message up to date (REST works here: setup_hook runs after login).
        self._show_restored(restored)
        if self.tables.elsewhere:
            self._adopter = asyncio.ensure_future(self._adopt_now_and_then())
        for name in EXTENSIONS:
            await self.load_extension(name)
        # The slash menu's descriptions and choices in every shipped language.
        await self.tree.set_translator(MenuTranslator())
        if self._stop_on_signals:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(signum, self._stop_on, signum)
        if not self.settings.syncs_commands:
            return
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    def _stop_on(self, signum: int) -> None:
        if self._stopper is None:
            name = signal.Signals(signum).name
            self._stopper = asyncio.ensure_future(self.stop_cleanly(name))

    # -- every interaction, and a clean stop ------------------------------------------------

    def _interaction_create(self, data: Any) -> None:
        """Every interaction enters here, before discord.py routes it: while the bot stops it
        is answered :data:`RESTARTING` and goes no further."""
        if self.metrics is not None:
            self.metrics.received(data)
        # Everything done for this interaction speaks its member's language: discord.py makes
        # the tasks that handle it (the command tree's, the router's) inside this call, and a
        # task keeps the context it was made in.
        db = self.db if hasattr(self, "db") else None
        with i18n.speaking(languages.seen(data, self._remember, db)):
            if not self.stopping:
                self._parse_interaction(data)
                return
            # discord.py types the bot's connection state with a plain Client.
            state: Any = self._connection
            interaction: discord.Interaction[PokerBot] = discord.Interaction(data=data, state=state)
            self.track(interaction, asyncio.ensure_future(self._answer_stopping(interaction)))

    def _remember(self, write: Coroutine[Any, Any, None]) -> None:
        """Write a member's or a server's new locale without holding up the press (a clean
        stop waits for it like for the presses)."""
        task = asyncio.ensure_future(write)
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)

    async def _answer_stopping(self, interaction: discord.Interaction[PokerBot]) -> None:
        Metrics.refused(interaction)
        if interaction.type is discord.InteractionType.autocomplete:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.autocomplete([])
        else:
            await kit.reply(interaction, RESTARTING)

    def _schedule_event(self, coro: Any, event_name: str, *args: Any, **kwargs: Any) -> Any:
        task = super()._schedule_event(coro, event_name, *args, **kwargs)
        if event_name == "on_interaction":
            self.track(args[0], task)
        elif event_name == "on_app_command_completion":
            # A slash command has run to its end: its interaction can be freed (see track).
            interaction = args[0]
            task.add_done_callback(lambda _: release_answered(interaction))
        return task

    def track(self, interaction: discord.Interaction[PokerBot], task: asyncio.Task[Any]) -> None:
        """Keep ``task`` (part of handling ``interaction``) until it ends: a clean stop waits
        for it, and the metrics count the interaction once its last task has ended."""
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)
        # Once answered, the interaction is freed by reference counting instead of waiting in
        # a cycle with its response for a full garbage collection (rare: GC_THRESHOLDS).
        task.add_done_callback(lambda _: release_answered(interaction))
        if self.metrics is not None:
            self.metrics.handling(interaction, task)

    async def stop_cleanly(self, reason: str = "asked") -> None:
        """Stop as a supervisor expects (SIGTERM, SIGINT): presses from now on hear
        :data:`RESTARTING`; the presses being handled finish; the tables' last changes and
        standing pings are saved; the database is closed. :meth:`close` does the last three."""
        log.info("%s: stopping cleanly; new presses are asked to try again in a moment", reason)
        self._grace_until = asyncio.get_running_loop().time() + STOP_GRACE
        await self.close()

    async def _wait_in_flight(self, timeout: float) -> None:
        """Until no interaction is being handled (those arriving meanwhile included)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while pending := {task for task in self._in_flight if not task.done()}:
            left = deadline - loop.time()
            if left <= 0:
                log.warning("stopping with %d interactions still being handled", len(pending))
                return
            await asyncio.wait(pending, timeout=left)

    async def adopt_tables(self) -> list[LiveTable]:
        """Drive the tables another process held at start-up and has since let go (it was
        stopped, or killed: the database drops a dead process's claims), and show them."""
        adopted = await self.tables.adopt(self.owns)
        self._show_restored(adopted)
        return adopted

    def _show_restored(self, restored: list[LiveTable]) -> None:
        """Bring restored tables' messages up to date, and say where a table could not be
        restored and was closed instead."""
        for live in restored:
            self.presenter.spawn(self.presenter.refresh(live))
        while self.tables.closed_at_restore:
            closed = self.tables.closed_at_restore.pop()
            self.presenter.spawn(self.presenter.retire_unrestored(closed))

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
        if self._tuned:
            return
        self._tuned = True
        # Start-up objects (modules, the engine's tables) live for the whole process: keep them
        # out of the garbage collector's full passes, which otherwise pause busy bots.
        gc.freeze()
        # A full collection walks every live object: 100-200 ms at 500 tables. By default one
        # runs whenever a quarter more objects have outlived two young collections, which at a
        # busy bot is every few seconds. Young collections three times further apart let the
        # objects of one interaction die young (fewer reach the old generation), and waiting
        # for 100 middle collections instead of 10 makes the full pauses minutes apart.
        gc.set_threshold(*GC_THRESHOLDS)
        # Freed memory back to the system after those full passes and now and then.
        self.trimmer.start(asyncio.get_running_loop())

    async def close(self) -> None:
        # Once, however many ask (a signal, then discord.py's own exit from run()).
        if self._closer is None:
            self._closer = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closer)

    async def __aexit__(self, *exc: object) -> None:
        # discord.py's run() leaves through here and then cancels every task left: wait for a
        # stop under way (discord.py's own skips close() once the gateway is closing).
        await self.close()

    async def _close(self) -> None:
        started = time.perf_counter()
        self.stopping = True
        presses, messages, tables, answers = STOP_BUDGET
        await self._wait_in_flight(presses)
        if hasattr(self, "tables"):
            await self.presenter.settle(messages)
        for name in list(self.extensions):
            await self.unload_extension(name)
        if self._adopter is not None:
            self._adopter.cancel()
        if self.backups is not None:
            await self.backups.stop()
        if hasattr(self, "tables"):
            try:
                await asyncio.wait_for(self.tables.shutdown(), tables)
            except TimeoutError:
                log.warning("stopping before every table's last change was saved")
            self.presenter.close()
        self.trimmer.stop()
        await asyncio.sleep(self._grace_until - asyncio.get_running_loop().time())
        # The answers to presses that came meanwhile; then no await before the gateway closes.
        await self._wait_in_flight(answers)
        log.info("closing the gateway")
        await super().close()
        if self.metrics is not None:
            await self.metrics.stop()
        if hasattr(self, "db"):
            await self.db.close()
        log.info("stopped cleanly in %.2f s", time.perf_counter() - started)


def automatic_backups(settings: Settings, db: Database) -> Backups | None:
    """The automatic backups ``BACKUP_DIR`` asks for, started; None when it is empty (or the
    database is on PostgreSQL, which pg_dump backs up: said once in the log)."""
    if not settings.backup_dir:
        return None
    if settings.database_url:
        log.warning(
            "BACKUP_DIR is ignored: the database is on PostgreSQL; back it up with pg_dump "
            "(`python bot.py backup` prints the line)"
        )
        return None
    backups = Backups(
        db, settings.backup_dir, hours=settings.backup_hours, keep=settings.backup_keep
    )
    backups.start()
    return backups


BUCKET_IDLE_SECONDS = 5.0
"""How long an idle rate-limit bucket is kept (discord.py keeps them 300 s)."""


def amortise_bucket_cleanup(http: Any) -> Callable[[], None] | None:
    """Make discord.py's clean-up of idle rate-limit buckets amortised, and drop them sooner.

    discord.py keeps one bucket per route and channel (every DM channel has its own) and, once
    it holds 256, scans all of them for idle ones each time a new one is added. A bot with
    thousands of players' DM channels adds one at every first DM or edit in a channel, and each
    scan takes milliseconds (at 500 busy tables, 9 % of the bot's CPU went there). Here a scan
    runs only when the buckets have doubled since the last one: in amortised constant time.

    A bucket costs about a kilobyte (some 20 a table: each player's DM channel has a few) and
    discord.py keeps it five minutes after its last request. Here one is dropped after
    :data:`BUCKET_IDLE_SECONDS` if it knows nothing a new one would not: no request under way or
    waiting, and its window has ended (or never began). A new bucket starts more cautious (one
    request at a time until Discord's first answer gives the limit), never less.

    Returns the scan, for the bot to run now and then as well (see :class:`Trimmer`'s chores):
    between the doublings, buckets idle since a player's last hand would otherwise stay.
    Left alone (None) if discord.py no longer has that method."""
    clear = getattr(http, "_try_clear_expired_ratelimits", None)
    buckets = getattr(http, "_buckets", None)
    if clear is None or not isinstance(buckets, dict):
        return None
    floor = 256
    next_scan = floor

    def idle(bucket: Any, now: float) -> bool:
        if bucket.outgoing or bucket._pending_requests:
            return False
        if bucket.expires is not None and now <= bucket.expires:
            return False  # inside a rate-limit window: its count still matters
        return bool(now - bucket._last_request >= BUCKET_IDLE_SECONDS)

    def prune() -> None:
        nonlocal next_scan
        now = asyncio.get_running_loop().time()
        for key in [key for key, bucket in http._buckets.items() if idle(bucket, now)]:
            del http._buckets[key]
        next_scan = max(floor, 2 * len(http._buckets))

    def cleanup() -> None:
        if len(http._buckets) >= next_scan:
            prune()

    http._try_clear_expired_ratelimits = cleanup
    return prune


def create_bot(settings: Settings, **kwargs: Any) -> PokerBot:
    """Build the bot (not yet logged in); tests pass emulator-friendly keyword arguments."""
    return PokerBot(settings, **kwargs)
