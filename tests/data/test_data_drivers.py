"""Only :mod:`data` knows a database driver: the rest of the bot sees the data layer's own
exceptions (:class:`data.DataError`, :class:`data.ConstraintViolation` among them)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from data import ConstraintViolation, DataError

ROOT = Path(__file__).resolve().parents[2]
DRIVERS = frozenset({"sqlite3", "aiosqlite", "asyncpg"})


def _sources() -> list[Path]:
    found = [ROOT / "bot.py"]
    for package in ("cogs", "tables", "engine"):
        found += sorted((ROOT / package).rglob("*.py"))
    return found


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_driver_outside_data(path: Path) -> None:
    assert not _imported(path) & DRIVERS, f"{path.relative_to(ROOT)} imports a database driver"


def test_a_refused_statement_is_a_data_error() -> None:
    assert issubclass(ConstraintViolation, DataError)
