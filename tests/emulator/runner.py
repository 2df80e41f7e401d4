"""Starting a bot against the emulator: in the test's event loop, or as a subprocess.

In the loop::

    async with running_bot(emu, make_bot) as bot:
        ...

As a process (``python bot.py`` or any argv)::

    proc = BotProcess(emu, [sys.executable, "bot.py"], database_path=tmp_path / "poker.db")
    await proc.start()          # waits for IDENTIFY (and a command sync)
    proc.kill()                 # SIGKILL
    await proc.start()          # same emulator state: messages, users, commands survive
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import signal
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import discord

from .client_setup import is_local, point_discordpy_at, restore_endpoints
from .server import Emulator

BotFactory = Callable[[], "discord.Client | Awaitable[discord.Client]"]
REPO_ROOT = Path(__file__).resolve().parents[2]


async def _make(factory: BotFactory) -> discord.Client:
    bot = factory()
    if inspect.isawaitable(bot):
        bot = await bot
    assert isinstance(bot, discord.Client)
    return bot


@contextlib.asynccontextmanager
async def running_bot(
    emu: Emulator,
    factory: BotFactory,
    *,
    token: str | None = None,
    ready_timeout: float = 10.0,
    expect_sync: bool = True,
    guild_ready_timeout: float | None = 0.05,
    reidentify_delay: float | None = None,
) -> AsyncIterator[Any]:
    """Starts the bot ``factory()`` returns in this event loop against ``emu``; yields it once
    ``on_ready`` has fired (and, with ``expect_sync``, once it has synced commands).

    ``guild_ready_timeout`` overrides discord.py's 2 s wait for more GUILD_CREATEs before
    ``on_ready`` (None keeps the bot's own value).  Route.BASE / DEFAULT_GATEWAY are pointed at
    the emulator for the duration and restored afterwards.

    ``reidentify_delay`` replaces discord.py's ``before_identify_hook`` wait (5 s before every
    IDENTIFY after the first, e.g. after an invalid session); None keeps it."""
    previous = point_discordpy_at(emu.api_base, emu.gateway_url)
    bot: discord.Client | None = None
    task: asyncio.Task[None] | None = None
    try:
        if not is_local():
            raise RuntimeError("refusing to start a bot whose endpoints are not local")
        bot = await _make(factory)
        if guild_ready_timeout is not None:
            bot._connection.guild_ready_timeout = guild_ready_timeout
        if reidentify_delay is not None:
            delay = reidentify_delay

            async def before_identify_hook(shard_id: int | None, *, initial: bool = False) -> None:
                if not initial:
                    await asyncio.sleep(delay)

            bot.before_identify_hook = before_identify_hook  # type: ignore[method-assign]
        syncs_before = len(emu.command_syncs)
        await bot.login(token or emu.token)
        task = asyncio.create_task(bot.connect(reconnect=True), name="emulated-bot-connect")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {task, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # raises the connection error
            raise TimeoutError(f"bot not ready within {ready_timeout}s")
        if expect_sync:
            await emu.wait_for(
                lambda: len(emu.command_syncs) > syncs_before,
                ready_timeout,
                message="bot did not sync its application commands",
            )
        yield bot
    finally:
        if bot is not None:
            await bot.close()
        if task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, 5)
        restore_endpoints(previous)


class BotProcess:
    """A bot running as a separate process (``argv``) against the emulator."""

    def __init__(
        self,
        emu: Emulator,
        argv: Sequence[str] | None = None,
        *,
        database_path: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        log_path: str | os.PathLike[str] | None = None,
    ) -> None:
        self.emu = emu
        self.argv = list(argv or [sys.executable, "bot.py"])
        self.cwd = Path(cwd) if cwd is not None else REPO_ROOT
        if database_path is None:
            database_path = Path(tempfile.mkdtemp(prefix="emu-bot-")) / "bot.db"
        self.database_path = Path(database_path)
        self.extra_env = dict(env or {})
        self.log_path = (
            Path(log_path)
            if log_path is not None
            else (Path(tempfile.mkdtemp(prefix="emu-bot-log-")) / "bot.log")
        )
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.started_at: float | None = None
        self.ready_after: float | None = None  # seconds from spawn to ready, last start

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
        env.update(self.emu.env())
        env["DATABASE_PATH"] = str(self.database_path)
        env["PYTHONUNBUFFERED"] = "1"
        env.update(self.extra_env)
        return env

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def output(self) -> str:
        """Everything the process wrote to stdout/stderr (all starts)."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    async def start(
        self,
        *,
        wait: bool = True,
        timeout: float = 20.0,
        expect_sync: bool = True,
        settle: float = 0.0,
        shards: int | None = None,
    ) -> None:
        """Spawns the process; with ``wait``, returns once it has identified on the gateway
        (``shards`` times: by default once per id in its ``SHARD_IDS``, else once) and synced
        commands (with ``expect_sync``), then sleeps ``settle`` seconds (e.g. the bot's
        ``guild_ready_timeout`` if ``on_ready`` work matters)."""
        if self.running:
            raise RuntimeError("bot process already running")
        env = self.environment()
        for key in ("DISCORD_API_BASE", "DISCORD_GATEWAY_URL"):
            if "127.0.0.1" not in env[key]:
                raise RuntimeError(f"{key} is not local: {env[key]}")
        identifies = self.emu.identify_count
        wanted = shards if shards is not None else _shard_id_count(env.get("SHARD_IDS", ""))
        syncs = len(self.emu.command_syncs)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            log.write(f"--- start {self.starts + 1}: {' '.join(self.argv)}\n".encode())
            log.flush()
            self.started_at = time.perf_counter()
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv,
                cwd=str(self.cwd),
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,
            )
        self.starts += 1
        if not wait:
            return

        def ready() -> bool:
            if self.proc is not None and self.proc.returncode is not None:
                raise RuntimeError(
                    f"bot process exited with {self.proc.returncode}:\n{self.output[-4000:]}"
                )
            if self.emu.identify_count < identifies + wanted or not self.emu.connected:
                return False
            return not expect_sync or len(self.emu.command_syncs) > syncs

        try:
            await self.emu.wait_for(ready, timeout)
        except TimeoutError:
            raise TimeoutError(
                f"bot process not ready in {timeout}s:\n{self.output[-4000:]}"
            ) from None
        self.ready_after = time.perf_counter() - self.started_at
        if settle:
            await asyncio.sleep(settle)

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, the gateway connection just drops."""
        if self.proc is not None and self.proc.returncode is None:
            os.kill(self.proc.pid, signal.SIGKILL)

    async def wait_exit(self, timeout: float = 10.0) -> int:
        assert self.proc is not None
        return await asyncio.wait_for(self.proc.wait(), timeout)

    async def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM, then SIGKILL after ``timeout``."""
        if self.proc is None or self.proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.terminate()
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.kill()
            await self.proc.wait()

    async def restart(self, **start_kwargs: Any) -> None:
        """SIGKILL and start again against the same emulator state."""
        self.kill()
        if self.proc is not None:
            await self.proc.wait()
        await self.start(**start_kwargs)


def _shard_id_count(raw: str) -> int:
    """How many shards ``SHARD_IDS`` (``0,1`` or ``0-3``) starts; 1 when unset."""
    count = 0
    for part in filter(None, (p.strip() for p in raw.split(","))):
        low, _, high = part.partition("-")
        count += int(high) - int(low) + 1 if high else 1
    return count or 1
