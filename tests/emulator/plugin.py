"""Pytest fixtures for tests that run a bot against the Discord emulator.

Loaded from ``tests/conftest.py`` (``pytest_plugins = ["tests.emulator.plugin"]``).

* ``emu``: a started :class:`~tests.emulator.server.Emulator` with :meth:`default_world` built
  (``emu.world.guild``, ``.channel``, ``.host`` (Manage Server), ``.players``).
* ``world``: that world.
* ``start_bot``: ``bot = await start_bot(factory, **running_bot_kwargs)`` starts a bot in the
  test's loop; stopped (and discord.py's endpoints restored) at teardown.
* ``bot_process``: ``proc = bot_process(argv=None, env=None, database_path=None)`` makes a
  :class:`~tests.emulator.runner.BotProcess` (``python bot.py`` by default); killed at teardown.

A session-wide guard points discord.py at a closed local port for the whole run, so a test that
forgets the emulator fails fast instead of reaching Discord.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from .client_setup import point_discordpy_at, restore_endpoints
from .runner import BotFactory, BotProcess, running_bot
from .server import Emulator, World

StartBot = Callable[..., Awaitable[Any]]
SpawnBot = Callable[..., BotProcess]

BLACKHOLE_API = "http://127.0.0.1:9/api/v10"
BLACKHOLE_GATEWAY = "ws://127.0.0.1:9/gateway"


@pytest.fixture(scope="session", autouse=True)
def _no_real_discord() -> Iterator[None]:
    previous = point_discordpy_at(BLACKHOLE_API, BLACKHOLE_GATEWAY)
    yield
    restore_endpoints(previous)


@pytest_asyncio.fixture
async def emu() -> AsyncIterator[Emulator]:
    emulator = Emulator()
    emulator.default_world()
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.close()


@pytest.fixture
def world(emu: Emulator) -> World:
    assert emu.world is not None
    return emu.world


@pytest_asyncio.fixture
async def start_bot(emu: Emulator) -> AsyncIterator[StartBot]:
    stack = contextlib.AsyncExitStack()

    async def start(factory: BotFactory, **kwargs: Any) -> Any:
        return await stack.enter_async_context(running_bot(emu, factory, **kwargs))

    async with stack:
        yield start


@pytest_asyncio.fixture
async def bot_process(emu: Emulator, tmp_path: Path) -> AsyncIterator[SpawnBot]:
    made: list[BotProcess] = []

    def make(argv: list[str] | None = None, **kwargs: Any) -> BotProcess:
        kwargs.setdefault("database_path", tmp_path / f"bot{len(made)}.db")
        kwargs.setdefault("log_path", tmp_path / f"bot{len(made)}.log")
        proc = BotProcess(emu, argv, **kwargs)
        made.append(proc)
        return proc

    yield make
    for proc in made:
        proc.kill()
        if proc.proc is not None:
            with contextlib.suppress(Exception):
                await proc.wait_exit(5)
