"""Fixtures for the data-layer tests.

``db`` runs every test that takes it twice: on SQLite (in memory) and on PostgreSQL (a fresh
database on the session's throwaway server, copied from a migrated template). Without the
PostgreSQL binaries the second run skips with the reason (fails under ``CI=true``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import pytest

from data import Database
from tests.pg import PgServer, pg_server

__all__ = ["db", "file_db", "pg_server", "pg_template", "pg_url"]

TEMPLATE = "poker_template"

T = TypeVar("T")


def _apart(work: Callable[[], Awaitable[T]]) -> T:
    """Run ``work`` to completion on an event loop of its own: these fixtures are first asked
    for from inside a test's running loop, which cannot be re-entered."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(_call(work))).result()


async def _call(work: Callable[[], Awaitable[T]]) -> T:
    return await work()


@pytest.fixture(scope="session")
def pg_template(pg_server: PgServer) -> Iterator[str]:
    """The name of a database with every migration applied, to copy for each test."""

    async def build() -> None:
        import asyncpg

        conn = await asyncpg.connect(pg_server.url())
        try:
            await conn.execute(f"CREATE DATABASE {TEMPLATE} TEMPLATE template0")
        finally:
            await conn.close()
        database = await Database.open(pg_server.url(TEMPLATE))
        await database.close()

    _apart(build)
    yield TEMPLATE


@pytest.fixture
def pg_url(pg_server: PgServer, pg_template: str) -> Iterator[str]:
    """The URL of a fresh, migrated PostgreSQL database, dropped after the test."""
    url = _apart(lambda: pg_server.create_database(template=pg_template))
    try:
        yield url
    finally:
        _apart(lambda: pg_server.drop_database(url))


@pytest.fixture(params=["sqlite", "postgres"])
async def db(request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    """A fresh database on each backend."""
    if request.param == "sqlite":
        database = await Database.open(":memory:")
    else:
        database = await Database.open(request.getfixturevalue("pg_url"))
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def file_db(tmp_path: Path) -> AsyncIterator[Database]:
    """A fresh SQLite database in a file (WAL mode applies)."""
    database = await Database.open(tmp_path / "poker.db")
    try:
        yield database
    finally:
        await database.close()
