"""The PostgreSQL backend: the only module that knows asyncpg.

Chosen with ``DATABASE_URL=postgresql://...``; the queries are the same ones SQLite runs (see
:mod:`data.core` for the SQL both accept), only the placeholders are rewritten: ``?`` becomes
``$1, $2, ...``, once per statement text (:func:`numbered` is cached, and asyncpg keeps the
prepared statement per connection).

Transactions: snapshots, the rows decided on written, conflicts retried
----------------------------------------------------------------------
Several processes may write the same server's rows while shards move. The queries were written
for SQLite, where a write transaction has the whole file to itself: they read a row, decide,
then write (a buy-in reads the table's chips, then stores chips + amount). Under PostgreSQL's
default READ COMMITTED two such transactions could both read 500 and both store 600, creating
chips. The ways out considered:

* row locks (``SELECT ... FOR UPDATE``) in every read that a later write depends on. SQLite has
  no such clause, so the shared queries would fork per dialect, and every new query would have
  to get its locks right by hand;
* SERIALIZABLE: the server aborts any interleaving no serial order could produce. Tried first,
  and measured (``bench/db.py``, 8 tables each saving its own snapshot, nothing shared): 504
  transactions/s, p99 57 ms, and 469 of 5120 transactions aborted and retried. PostgreSQL
  tracks serializable reads per index page, and a few hundred seats share one page of
  ``table_players``' key, so tables that never touch each other's rows still collide;
* REPEATABLE READ (a snapshot per transaction) with the rule below: the same run gives 1137
  transactions/s, p99 12 ms and no retry at all.

This module takes the third. Each transaction sees one snapshot, and when two concurrent
transactions change the same row the later one is aborted (SQLSTATE 40001) rather than
overwriting it. So a lost update is impossible for every row a transaction both decides on
and writes, and the shared queries keep to that rule (:mod:`data.core`): a buy-in's decision
rests on the table row and the bankroll row, and it writes both; a daily bonus rests on the
account row's last claim, and writes that row; uniqueness (one account per member, one open
table per channel, one seat each) is the indexes' job. What snapshot isolation does not stop,
two transactions each deciding on a row only the other writes (write skew), has no instance in
the queries.

A transaction aborted for a serialization failure or a deadlock is run again from the start,
after a short random pause, up to :data:`ATTEMPTS` times; so is one refused by a unique index
that its own snapshot could not see the conflicting row of (two processes creating the same
member's account: the second, run again, finds the account), a few times only, since a
genuine duplicate would be refused every time. Running again is safe because a body touches
nothing outside its transaction (:data:`data.core.Body`). Read-only transactions use a
snapshot as well, so the chip audit sees one consistent state.

Other duties
------------
* A constraint the database enforces becomes :class:`~data.errors.ConstraintViolation` (bad JSON,
  which the schema's ``*_json`` constraints catch, becomes
  :class:`~data.errors.InvalidArgument`, as with SQLite).
* ``sum()`` of BIGINTs is NUMERIC; the connections decode whole NUMERICs as ``int`` so the
  audit's figures are the same type on both backends.
* asyncpg's ``executemany`` does not say how many rows it changed, which saving hand events
  needs: :meth:`_PgTx.execute_many` runs the statement once per row and adds up the counts.
* A caller cancelled mid-transaction does not cut it short: the transaction runs in a task of
  its own, which commits or rolls back whole.
* Migrations run under an advisory lock, so two processes starting together do not both
  upgrade the schema. The version is a row per migration in ``schema_migrations``.
* Table ownership (:class:`AdvisoryOwnership`): a session advisory lock per table, held by
  one connection the process keeps for nothing else. A process killed outright loses its
  connection and so its locks: the next process can take the tables at once, with no lease
  to wait out.
* :attr:`PostgresBackend.path` is the URL with its password masked: it may be logged.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import shlex
from collections.abc import Iterable, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any, Final, TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from data.core import Body, Claim, Row, Tx
from data.errors import (
    BackupFailed,
    ConstraintViolation,
    DataError,
    InvalidArgument,
    SchemaError,
)
from data.migrations import Migration, migrate

T = TypeVar("T")

log = logging.getLogger(__name__)

ATTEMPTS: Final = 50
"""How many times a transaction runs before a lasting serialization conflict is reported."""

DUPLICATE_ATTEMPTS: Final = 3
"""How many times a transaction refused by a unique index runs before the refusal stands."""

_MIGRATION_LOCK: Final = 0x504B_0001
"""The advisory lock key held while migrating (one bigint; no other user of this database
is expected to pick it)."""

TABLE_LOCK_SPACE: Final = 0x504B
"""The first key of every table's advisory lock (the second is the table id)."""

Batch = tuple[str, Sequence[str], Sequence[Sequence[Any]]]
"""Rows for :meth:`PostgresBackend.load`: table name, column names, rows."""
Link = tuple[str, str, str, Sequence[tuple[Any, Any]]]
"""A column set after loading: table, key column, column, ``(key, value)`` pairs."""

_RETRY: Final = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)

_REQUIRED_TRIGGERS: Final = frozenset(
    {
        "ledger_no_update",
        "ledger_no_truncate",
        "admin_log_no_update",
        "admin_log_no_truncate",
        "hand_events_no_update",
        "hand_events_no_truncate",
        "hands_secrets_frozen",
        "hands_finished_frozen",
    }
)
"""The triggers that make history append-only: check_integrity() reports any missing."""


def is_url(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL server rather than an SQLite file.

    >>> is_url("postgresql://bot@127.0.0.1/poker"), is_url("data/poker.db")
    (True, False)
    """
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def redacted(url: str) -> str:
    """``url`` with its password masked, for logs and messages.

    >>> redacted("postgresql://bot:s3cret@db.example:5432/poker")
    'postgresql://bot:***@db.example:5432/poker'
    >>> redacted("postgresql://127.0.0.1/poker?password=s3cret")
    'postgresql://127.0.0.1/poker?***'
    """
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        if ":" in user:
            user = user.split(":", 1)[0] + ":***"
        netloc = f"{user}@{host}"
    query = "***" if "password" in parts.query.lower() else parts.query
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def pg_dump_line(url: str, target: str) -> str:
    """The command that backs up the database at ``url`` into ``target``: PostgreSQL's own
    ``pg_dump``, in its custom format (``pg_restore`` reads it back). The password is left
    out of the line: ``pg_dump`` asks for it, or reads ``PGPASSWORD`` or ``~/.pgpass``.

    >>> pg_dump_line("postgresql://bot:s3cret@db.example:5432/poker", "poker.dump")
    'pg_dump --format=custom --file=poker.dump postgresql://bot@db.example:5432/poker'
    """
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.split(':', 1)[0]}@{host}"
    query = "&".join(
        pair for pair in parts.query.split("&") if pair and not pair.lower().startswith("password=")
    )
    plain = urlunsplit((parts.scheme, netloc, parts.path, query, ""))
    return f"pg_dump --format=custom --file={shlex.quote(target)} {shlex.quote(plain)}"


@lru_cache(maxsize=4096)
def numbered(sql: str) -> str:
    """The statement with its ``?`` placeholders numbered as PostgreSQL wants them.

    >>> numbered("UPDATE t SET a = ? WHERE b = ? AND c IN (?, ?)")
    'UPDATE t SET a = $1 WHERE b = $2 AND c IN ($3, $4)'
    """
    pieces = sql.split("?")
    out = [pieces[0]]
    for n, piece in enumerate(pieces[1:], start=1):
        out.append(f"${n}{piece}")
    return "".join(out)


def _count(status: str) -> int:
    """The row count in a command tag such as ``INSERT 0 1`` or ``UPDATE 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _numeric(text: str) -> int | Decimal:
    # Sums of BIGINT columns are whole; anything else keeps its exact decimal value.
    return int(text) if text.lstrip("-").isdigit() else Decimal(text)


def _refused(exc: asyncpg.IntegrityConstraintViolationError) -> Exception:
    name = getattr(exc, "constraint_name", None) or ""
    if isinstance(exc, asyncpg.CheckViolationError) and name.endswith("_json"):
        return InvalidArgument(f"a JSON argument is not valid JSON ({exc})")
    return ConstraintViolation(f"the database refused the change: {exc}")


class _PgTx:
    """:class:`~data.core.Tx` on one asyncpg connection inside an open transaction."""

    __slots__ = ("_conn",)

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return cast(list[Row], await self._conn.fetch(numbered(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _refused(exc) from exc

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:
            return cast(Row | None, await self._conn.fetchrow(numbered(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _refused(exc) from exc

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return _count(await self._conn.execute(numbered(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _refused(exc) from exc

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        query = numbered(sql)
        changed = 0
        try:
            for row in rows:
                changed += _count(await self._conn.execute(query, *row))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _refused(exc) from exc
        return changed


async def _setup(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec(
        "numeric", schema="pg_catalog", encoder=str, decoder=_numeric, format="text"
    )


class _Schema:
    """The migration runner's view of the server (see :mod:`data.migrations`)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def schema_version(self) -> int:
        return int(
            await self._conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations")
        )

    async def apply_migration(self, migration: Migration) -> None:
        async with self._conn.transaction():
            # No parameters: asyncpg then sends the script as one simple query, which may hold
            # many statements and dollar-quoted function bodies.
            await self._conn.execute(migration.sql)
            await self._conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) "
                "VALUES ($1, $2, extract(epoch FROM clock_timestamp()))",
                migration.version,
                migration.name,
            )


class AdvisoryOwnership:
    """:class:`~data.core.TableOwnership` across processes: table ``t`` is owned by whichever
    connection holds the advisory lock ``(TABLE_LOCK_SPACE, t)``.

    The locks live on one connection opened for them (not a pooled one, which would hand
    them to whichever transaction borrows it next), named ``drawpoker:<owner>`` so that a
    refused claim can say who holds the table. Should that connection drop, the locks go with
    it: the process is told in the log and owns nothing from then on.
    """

    def __init__(self, url: str) -> None:
        self._url = url
        self._conn: asyncpg.Connection | None = None
        self._owner: str | None = None
        self._tables: set[int] = set()
        self._lock = asyncio.Lock()

    def owned(self) -> frozenset[int]:
        return frozenset(self._tables)

    async def _connection(self, owner: str) -> asyncpg.Connection:
        if self._conn is not None and not self._conn.is_closed():
            return self._conn
        self._tables.clear()
        conn = await asyncpg.connect(
            self._url, server_settings={"application_name": f"drawpoker:{owner}"[:63]}
        )
        conn.add_termination_listener(self._lost)
        self._conn = conn
        return conn

    def _lost(self, conn: asyncpg.Connection) -> None:
        if conn is self._conn and self._tables:
            log.error(
                "the connection holding %d table claim(s) closed: those tables are no longer "
                "this process's",
                len(self._tables),
            )
            self._tables.clear()

    async def claim(self, owner: str, table_ids: Sequence[int]) -> Claim:
        wanted = sorted(set(table_ids))
        for table_id in wanted:
            if not 0 < table_id < 2**31:
                raise InvalidArgument(f"table id {table_id} cannot be claimed (out of range)")
        async with self._lock:
            if self._owner is not None and owner != self._owner and self._tables:
                return Claim((), {t: self._owner for t in wanted})
            self._owner = owner
            conn = await self._connection(owner)
            new = [t for t in wanted if t not in self._tables]
            rows = await conn.fetch(
                "SELECT t, pg_try_advisory_lock($1::int, t::int) FROM unnest($2::bigint[]) AS t",
                TABLE_LOCK_SPACE,
                new,
            )
            taken = {int(r[0]) for r in rows if r[1]}
            self._tables |= taken
            refused = [t for t in new if t not in taken]
            holders: dict[int, str] = {}
            if refused:
                for r in await conn.fetch(
                    "SELECT l.objid::bigint, a.application_name, a.pid FROM pg_locks AS l "
                    "LEFT JOIN pg_stat_activity AS a ON a.pid = l.pid "
                    "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
                    "AND l.classid::bigint = $1 AND l.objid::bigint = ANY($2::bigint[])",
                    TABLE_LOCK_SPACE,
                    refused,
                ):
                    name = str(r[1] or "").removeprefix("drawpoker:") or "another process"
                    holders[int(r[0])] = f"{name} (server pid {r[2]})"
            return Claim(
                tuple(t for t in wanted if t in self._tables),
                {t: holders.get(t, "another process") for t in refused},
            )

    async def release(self, table_ids: Sequence[int]) -> None:
        async with self._lock:
            mine = sorted(set(table_ids) & self._tables)
            if not mine or self._conn is None or self._conn.is_closed():
                self._tables.difference_update(mine)
                return
            await self._conn.execute(
                "SELECT pg_advisory_unlock($1::int, t::int) FROM unnest($2::bigint[]) AS t",
                TABLE_LOCK_SPACE,
                mine,
            )
            self._tables.difference_update(mine)
            if not self._tables:
                self._owner = None

    async def close(self) -> None:
        async with self._lock:
            conn, self._conn = self._conn, None
            self._tables.clear()
            self._owner = None
            if conn is not None and not conn.is_closed():
                await conn.close()


class PostgresBackend:
    """A :class:`~data.core.Backend` on a PostgreSQL server, through an asyncpg pool."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        """Private: use :meth:`open`."""
        self._pool: asyncpg.Pool | None = pool
        self._url = url
        self._running: set[asyncio.Task[Any]] = set()
        self.ownership = AdvisoryOwnership(url)
        self.retries = 0
        """Transactions run again after a serialization failure or a deadlock (a figure for
        the bench and the tests)."""

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrations: Sequence[Migration],
        min_size: int = 1,
        max_size: int = 8,
    ) -> PostgresBackend:
        """Connect to the server at ``url`` and upgrade its schema.

        Raises :class:`SchemaError` if the schema is newer than ``migrations`` or a migration
        fails, :class:`DataError` if the server cannot be reached (the message names the
        server without its password).
        """
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, init=_setup)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise DataError(f"cannot connect to {redacted(url)}: {exc}") from None
        try:
            async with pool.acquire() as conn:
                await conn.execute("SELECT pg_advisory_lock($1::bigint)", _MIGRATION_LOCK)
                try:
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS schema_migrations ("
                        " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                        " applied_at DOUBLE PRECISION NOT NULL)"
                    )
                    await migrate(_Schema(conn), migrations)
                finally:
                    await conn.execute("SELECT pg_advisory_unlock($1::bigint)", _MIGRATION_LOCK)
            # A migration may have created types or functions the pooled connections' caches
            # predate.
            await pool.expire_connections()
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url)

    @property
    def path(self) -> str:
        """The server's URL, password masked."""
        return redacted(self._url)

    async def close(self) -> None:
        """Wait for the running transactions, then close. Further calls raise DataError."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)
        await self.ownership.close()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    async def backup(self, target: str | os.PathLike[str]) -> int:
        """A server database is backed up by the server's own tool: always refused, with the
        ``pg_dump`` line that does it (:func:`pg_dump_line`)."""
        raise BackupFailed(
            "the database is on a PostgreSQL server: back it up with pg_dump, e.g.\n  "
            + pg_dump_line(self._url, os.fspath(target))
        )

    async def schema_version(self) -> int:
        """The highest version recorded in ``schema_migrations``."""
        row = await self.run(
            lambda tx: tx.fetch_one("SELECT coalesce(max(version), 0) FROM schema_migrations"),
            write=False,
        )
        return int(row[0]) if row is not None else 0

    async def check_integrity(self) -> list[str]:
        """What the server does not check by itself: that nobody removed or disabled the
        triggers keeping history append-only."""

        async def body(tx: Tx) -> list[str]:
            rows = await tx.fetch_all(
                "SELECT tgname, tgenabled = 'D' FROM pg_trigger WHERE NOT tgisinternal"
            )
            present = {str(r[0]): bool(r[1]) for r in rows}
            problems = [f"trigger {name} is missing" for name in sorted(_REQUIRED_TRIGGERS)
                        if name not in present]  # fmt: skip
            problems += [
                f"trigger {name} is disabled"
                for name in sorted(_REQUIRED_TRIGGERS & present.keys())
                if present[name]
            ]
            return problems

        return await self.run(body, write=False)

    async def load(self, batches: Sequence[Batch], links: Sequence[Link]) -> dict[str, int]:
        """Bulk-load rows as they are, ids included, in ONE transaction (``data.copy``):
        each batch with COPY, then each link (a column filled in once the rows it points at
        exist), then every identity column's sequence moved past the highest id. Returns the
        rows each table holds afterwards; on any error nothing is loaded."""
        pool = self._pool
        if pool is None:
            raise DataError("the database is closed")
        async with pool.acquire() as conn, conn.transaction(isolation="serializable"):
            held: dict[str, int] = {}
            for table, columns, rows in batches:
                types = {
                    str(r[0]): str(r[1])
                    for r in await conn.fetch(
                        "SELECT column_name, data_type FROM information_schema.columns "
                        "WHERE table_schema = current_schema() AND table_name = $1",
                        table,
                    )
                }
                missing = [c for c in columns if c not in types]
                if missing:
                    raise SchemaError(f"{table} has no column(s) {missing} on the server")
                as_float = [types[c] in ("double precision", "real") for c in columns]
                records = [
                    tuple(
                        float(v) if f and v is not None else v
                        for v, f in zip(row, as_float, strict=True)
                    )
                    for row in rows
                ]
                try:
                    await conn.copy_records_to_table(table, records=records, columns=columns)
                except asyncpg.IntegrityConstraintViolationError as exc:
                    raise _refused(exc) from exc
            for table, key, column, pairs in links:
                await conn.executemany(
                    f"UPDATE {table} SET {column} = $2 WHERE {key} = $1", list(pairs)
                )
            for r in await conn.fetch(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND is_identity = 'YES'"
            ):
                table, column = str(r[0]), str(r[1])
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                    f"coalesce(max({column}), 0) + 1, false) FROM {table}"
                )
            for table, _, _ in batches:
                held[table] = int(await conn.fetchval(f"SELECT count(*) FROM {table}"))
            return held

    async def run(self, body: Body[T], *, write: bool = True) -> T:
        """Run ``body`` as one REPEATABLE READ transaction, again from the start when the
        server aborts it for a conflict with another transaction (see the module's
        docstring)."""
        if self._pool is None:
            raise DataError("the database is closed")
        task = asyncio.ensure_future(self._attempts(body, write))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        task.add_done_callback(_retrieve)
        return await asyncio.shield(task)

    async def _attempts(self, body: Body[T], write: bool) -> T:
        duplicates = 0
        for attempt in range(1, ATTEMPTS + 1):
            pool = self._pool
            if pool is None:
                raise DataError("the database is closed")
            try:
                async with (
                    pool.acquire() as conn,
                    conn.transaction(isolation="repeatable_read", readonly=not write),
                ):
                    return await body(_PgTx(conn))
            except _RETRY:
                if attempt == ATTEMPTS:
                    raise DataError(
                        f"a transaction kept conflicting with others ({ATTEMPTS} attempts)"
                    ) from None
            except ConstraintViolation as exc:
                if not isinstance(exc.__cause__, asyncpg.UniqueViolationError):
                    raise
                duplicates += 1
                if duplicates >= DUPLICATE_ATTEMPTS:
                    raise
            self.retries += 1
            await asyncio.sleep(random.uniform(0, min(0.002 * 2**attempt, 0.2)))
        raise AssertionError("unreachable")


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a transaction task's exception as retrieved (its caller may have been cancelled)."""
    if not task.cancelled():
        task.exception()
