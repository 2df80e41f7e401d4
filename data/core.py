"""What the queries need from a database backend, and nothing about any particular one.

The repositories (:mod:`data.accounts`, :mod:`data.tables`, :mod:`data.hands`,
:mod:`data.stats`, :mod:`data.tournaments`, :mod:`data.preferences`) are async functions taking
a :class:`Tx`. A backend (:mod:`data.sqlite` for a file, :mod:`data.postgres` for a server)
opens the database, upgrades its schema with its dialect's scripts (:mod:`data.migrations`) and
runs each such function as one transaction through :meth:`Backend.run`. Adding a database
server means writing one more backend and its folder of migrations; the queries stay as they
are.

The SQL the repositories write is the common ground of SQLite and PostgreSQL: ``?``
placeholders (a backend with numbered ones rewrites them; no ``?`` ever appears inside a string
literal), ``RETURNING``, ``ON CONFLICT ... DO UPDATE`` with the target's columns qualified by
its table name, ``coalesce``, ``CASE``; no JSON functions, no engine-specific scalar functions,
no numbered parameters, no parameter whose type only the value tells (``? IS NULL``). Lists are
passed as one ``?`` per item (:func:`marks`). A constraint violation ends the transaction
(:class:`~data.errors.ConstraintViolation`). What cannot be written that way belongs to the backend
(``PRAGMA`` checks, the schema version).

One rule for concurrency, which PostgreSQL's snapshots rely on (:mod:`data.postgres`): a write
transaction writes every row whose value its decision rests on (a buy-in checks the table's
chips and then updates that table row), so that of two processes deciding on the same row at
once, one is sent back to start again. A decision resting on a row the transaction does not
write (a write skew) would go unnoticed: touch that row too, or let a unique index decide.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Row(Protocol):
    """A result row, read by column position or by column name (``sqlite3.Row`` and
    ``asyncpg.Record`` both are)."""

    def __getitem__(self, key: int | str, /) -> Any: ...


class Tx(Protocol):
    """One open transaction. Every statement either completes or raises; the backend commits
    when the body returns and rolls back when it raises."""

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a query; all its rows."""
        ...

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """Run a query (or a statement with ``RETURNING``); its first row, if any."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; how many rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        """Run a statement once per parameter row; how many rows they changed in all."""
        ...


Body = Callable[[Tx], Awaitable[T]]
"""A transaction's work. It awaits only the statements of its :class:`Tx` (the SQLite backend
runs it to the end inside the database thread) and touches nothing outside it, because it may
run more than once: a failed group commit runs each body again alone, and a server backend
retries a transaction that lost a race with another process."""


class Backend(Protocol):
    """An open database. :class:`data.db.Database` is written against this and nothing more."""

    @property
    def path(self) -> str:
        """Where the database lives (a file path, ``":memory:"``, or a server address)."""
        ...

    async def run(self, body: Body[T], *, write: bool = True) -> T:
        """Run ``body`` as one transaction and return what it returned.

        Write transactions are serialised against each other; a body that raises changes
        nothing. A caller cancelled meanwhile does not cut the transaction short: it commits or
        rolls back whole. Raises :class:`~data.errors.DataError` once closed.
        """
        ...

    async def schema_version(self) -> int:
        """The version of the migrations applied (see :mod:`data.migrations`)."""
        ...

    async def check_integrity(self) -> list[str]:
        """The backend's own consistency checks: a list of problems, empty when sound."""
        ...

    async def backup(self, target: str | os.PathLike[str]) -> int:
        """A consistent copy of the whole database in the new file ``target``, taken while
        the database stays in use; its size in bytes. Raises
        :class:`~data.errors.BackupFailed` with the reason (a server database names the
        server's own tool instead)."""
        ...

    async def close(self) -> None:
        """Let the running work finish, then close. Idempotent."""
        ...


@dataclass(frozen=True, slots=True)
class Claim:
    """The answer to a claim on tables (:meth:`data.db.Database.claim_tables`)."""

    claimed: tuple[int, ...]
    """Of the tables asked for, those this process now owns (already owned ones included), in
    id order."""
    refused: Mapping[int, str] = field(default_factory=dict)
    """The tables another process owns: table id -> the owner name that process gave."""


class TableOwnership(Protocol):
    """Which process drives which table. While shards move, two processes can both believe a
    table is theirs; the one that does not hold its claim must leave it alone."""

    async def claim(self, owner: str, table_ids: Sequence[int]) -> Claim:
        """Take every listed table that no other process owns; say who owns the others."""
        ...

    async def release(self, table_ids: Sequence[int]) -> None:
        """Give the listed tables up (those not owned are ignored)."""
        ...

    def owned(self) -> frozenset[int]:
        """The tables this process owns."""
        ...

    async def close(self) -> None:
        """Give every table up."""
        ...


class LocalOwnership:
    """:class:`TableOwnership` inside one process: an embedded database file has one process,
    so every claim succeeds; only the owner's name is checked, to catch a confused caller."""

    def __init__(self) -> None:
        self._owner: str | None = None
        self._tables: set[int] = set()

    async def claim(self, owner: str, table_ids: Sequence[int]) -> Claim:
        if self._owner is not None and owner != self._owner:
            return Claim((), {t: self._owner for t in table_ids})
        self._owner = owner
        self._tables.update(table_ids)
        return Claim(tuple(sorted(set(table_ids))))

    async def release(self, table_ids: Sequence[int]) -> None:
        self._tables.difference_update(table_ids)
        if not self._tables:
            self._owner = None

    def owned(self) -> frozenset[int]:
        return frozenset(self._tables)

    async def close(self) -> None:
        self._tables.clear()
        self._owner = None


def seconds(value: float | None) -> float | None:
    """A time column as the models carry it (SQLite's RETURNING can hand back 2.0 as 2)."""
    return None if value is None else float(value)


def marks(count: int) -> str:
    """``count`` comma-separated placeholders, for ``IN (...)`` over a list of values.

    >>> marks(3)
    '?, ?, ?'
    """
    return ", ".join("?" * count)


async def one(tx: Tx, sql: str, params: Sequence[Any] = ()) -> Row:
    """The row of a statement that always yields one (``INSERT ... RETURNING``, an aggregate)."""
    row = await tx.fetch_one(sql, params)
    if row is None:
        raise RuntimeError(f"expected a row from: {sql}")
    return row


async def scalar(tx: Tx, sql: str, params: Sequence[Any] = ()) -> Any:
    """The first column of :func:`one` (a count, a sum)."""
    return (await one(tx, sql, params))[0]
