"""Fixtures for the data-layer tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import Database


@pytest.fixture
async def db() -> AsyncIterator[Database]:
    """A fresh in-memory database."""
    database = await Database.open(":memory:")
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def file_db(tmp_path: Path) -> AsyncIterator[Database]:
    """A fresh database in a file (WAL mode applies)."""
    database = await Database.open(tmp_path / "poker.db")
    try:
        yield database
    finally:
        await database.close()
