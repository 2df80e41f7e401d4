"""Fixtures for tests that drive the real bot (cogs, engine, data) through the emulator."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cogs.app import PokerBot, create_bot
from cogs.config import Settings
from data.postgres import PostgresBackend
from data.sqlite import SqliteBackend
from tests.emulator.loopwatch import counting_as_work

StartPokerBot = Callable[..., Awaitable[PokerBot]]


@pytest.fixture(autouse=True)
def no_press_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test drivers press faster than people: bots started as processes (bot.py reads
    PRESS_LIMIT) have no press limit unless a test sets one."""
    monkeypatch.setenv("PRESS_LIMIT", "0")


@pytest.fixture(autouse=True)
def database_work_counts() -> Iterator[None]:
    """The bot's database work runs out of the event loop's sight (SQLite in aiosqlite's
    thread, PostgreSQL in its server): ``emu.idle()`` waits for a transaction in flight as
    it does for a REST call. The methods are the :class:`data.core.Backend` protocol's."""
    with contextlib.ExitStack() as stack:
        for backend in (SqliteBackend, PostgresBackend):
            for method in ("run", "backup", "schema_version"):
                stack.enter_context(counting_as_work(backend, method))
        yield


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "poker.db"


@pytest.fixture
def poker_bot(start_bot: Any, db_path: Path) -> StartPokerBot:
    """``bot = await poker_bot()`` starts the real bot in this loop against the emulator.

    Keyword arguments go to :class:`cogs.config.Settings` (e.g. ``dev_guild_id``)."""

    async def start(**settings: Any) -> PokerBot:
        # Test drivers press faster than people: the press limit is on only where a test
        # asks for it (press_limit=8).
        settings.setdefault("press_limit", 0)
        config = Settings(token="emulated", database_path=str(db_path), **settings)
        bot: PokerBot = await start_bot(lambda: create_bot(config))
        return bot

    return start
