"""The SQLite backend: the only module that knows aiosqlite (or sqlite3, outside the tests).

Transactions
------------
* One aiosqlite connection per database. A transaction (``BEGIN IMMEDIATE`` for writes) is ONE
  call to the connection's thread, so concurrent coroutines can never interleave inside one,
  and a caller that is cancelled cannot leave it half-applied: the work finishes (commit or
  rollback) regardless.
* Group commit: write transactions asked for while another runs are committed together, in one
  ``BEGIN ... COMMIT``, each caller answered only once its change is committed. If one of them
  fails, the group is rolled back and each runs again on its own, so every caller gets exactly
  what it would have got alone.

Durability
----------
WAL journal with ``synchronous=FULL`` by default. In WAL mode ``NORMAL`` is already safe
against a crash of the bot (SIGKILL included: a committed transaction is in the WAL file), but a
power cut or an OS crash may lose the last commits. ``FULL`` syncs the WAL on every commit so a
commit reported to the bot survives those too; measured here it still allows thousands of
``save_table_state`` calls per second (``bench/db.py``), far above what a Discord bot needs.
Checkpoints (copying the WAL back into the database file) run on a second connection in its own
thread, not inside a commit: at hundreds of tables an automatic checkpoint held every write up
for a tenth of a second or more.

Backups
-------
:func:`copy_database` uses SQLite's online backup API, never a file copy: the database file
alone misses the commits still in the WAL, and copying it while a checkpoint writes into it
gives a torn file. The backup reads every page inside one read transaction of its own
connection, so the copy is the database as of one commit, while the bot (in WAL mode) goes on
writing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import aiosqlite

from data.core import Body, Row, Tx
from data.errors import (
    BackupFailed,
    CannotOpen,
    ConstraintViolation,
    DataError,
    InvalidArgument,
    SchemaError,
)
from data.migrations import Migration, migrate

T = TypeVar("T")

Synchronous = Literal["NORMAL", "FULL", "EXTRA"]

log = logging.getLogger(__name__)

WAL_RESTART_FRAMES = 4096
"""A WAL longer than this (4096 pages, 16 MiB) is restarted by the background checkpointer."""

MAX_GROUP = 64
"""The most write transactions committed together."""

# aiosqlite runs each call it is given in the connection's thread, in order. Its queueing
# method is private but has been stable for years; without it, transactions take the slower
# path (a lock held over several round trips to the thread).
_IN_THREAD = callable(getattr(aiosqlite.Connection, "_execute", None))


def _refused(exc: sqlite3.IntegrityError) -> Exception:
    # The schema checks every JSON column with json_valid(): that one is the caller's input.
    if "json_valid" in str(exc):
        return InvalidArgument(f"a JSON argument is not valid JSON ({exc})")
    return ConstraintViolation(f"the database refused the change: {exc}")


def copy_database(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> int:
    """Copy the SQLite database at ``source`` into the new file ``target``, consistent as of
    one commit even while another process writes to it; return the copy's size in bytes.

    The copy is written beside ``target`` under a ``.partial`` name, checked
    (``PRAGMA quick_check``), synced to disk, and only then renamed: a backup that fails (disk
    full, no permission) leaves no file that looks like a backup. It is a single file in
    rollback-journal mode (no ``-wal`` beside it): restoring it is copying that one file.
    Raises :class:`BackupFailed` with the reason; the source is only read.
    """
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupFailed(f"there is no database at {source}")
    if target.exists():
        raise BackupFailed(f"{target} already exists: a backup never overwrites a file")
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        # mode=rw: never create an empty database where the real one was expected.
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=10)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)  # every page in one step: one read transaction, one commit
                dst.execute("PRAGMA journal_mode = DELETE")
                verdict = dst.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                dst.close()
        finally:
            src.close()
        if verdict != "ok":
            raise BackupFailed(f"the copy of {source} failed its check: {verdict}")
        with open(partial, "rb+") as written:
            os.fsync(written.fileno())
        os.replace(partial, target)
        _sync_folder(target.parent)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        if isinstance(exc, sqlite3.Error | OSError):
            raise BackupFailed(f"could not write the backup {target}: {exc}") from exc
        raise
    return target.stat().st_size


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the platform can open a folder)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class _Direct:
    """:class:`~data.core.Tx` on the sqlite3 connection itself: inside the connection's own
    thread, where :func:`_transaction` runs a body, every await of a body completes at once."""

    __slots__ = ("_raw",)

    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return self._raw.execute(sql, params).fetchall()
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        # fetchall, not fetchone: a statement left half-stepped would stay open until COMMIT.
        try:
            rows = self._raw.execute(sql, params).fetchall()
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc
        return cast(Row, rows[0]) if rows else None

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return self._raw.execute(sql, params).rowcount
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        try:
            return self._raw.executemany(sql, rows).rowcount
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc


class _RoundTrips:
    """:class:`~data.core.Tx` through aiosqlite's public API, one trip to the thread per
    statement: the fallback when its private queueing method is gone."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self._conn.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return (await self._conn.execute(sql, params)).rowcount
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        try:
            return (await self._conn.executemany(sql, rows)).rowcount
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc


def _transaction(conn: aiosqlite.Connection, body: Body[T], write: bool) -> T:
    """BEGIN, ``body``, COMMIT (ROLLBACK on any error): runs in the connection's thread."""
    raw: sqlite3.Connection = conn._conn
    raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        steps = cast(Coroutine[Any, Any, T], body(_Direct(raw)))
        try:
            steps.send(None)
        except StopIteration as done:
            result = cast(T, done.value)
        else:
            steps.close()
            raise RuntimeError("a transaction body awaited something other than its statements")
        raw.execute("COMMIT")
    except BaseException:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raise
    return result


def _group_transaction(conn: aiosqlite.Connection, bodies: list[Body[Any]]) -> list[Any]:
    """Several write transactions' bodies in one BEGIN ... COMMIT (database thread); if one
    raises, everything is rolled back and the exception propagates."""
    return _transaction(conn, lambda tx: _each(tx, bodies), True)


async def _each(tx: Tx, bodies: list[Body[Any]]) -> list[Any]:
    return [await body(tx) for body in bodies]


def _settle(
    done: asyncio.Future[Any], result: Any = None, *, exc: BaseException | None = None
) -> None:
    """Answer a waiting caller (unless it gave up waiting)."""
    if done.done():
        return
    if exc is not None:
        done.set_exception(exc)
    else:
        done.set_result(result)


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a transaction task's exception as retrieved (its caller may have been cancelled)."""
    if not task.cancelled():
        task.exception()


async def _refuse_foreign(conn: aiosqlite.Connection, where: str) -> None:
    """Refuse a SQLite file another program made: it has tables but no schema version of
    this bot's (the bot would add its own tables to it, and switch it to WAL mode)."""
    version = next(iter(await conn.execute_fetchall("PRAGMA user_version")))[0]
    if int(version) != 0:
        return
    names = [
        str(row[0])
        for row in await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
    ]
    if names:
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        raise CannotOpen(
            f"{where} is another program's SQLite database (tables {shown}, and no schema "
            "version of this bot): choose another file"
        )


async def _refuse_damaged(conn: aiosqlite.Connection, where: str) -> None:
    """Refuse a damaged file (``PRAGMA quick_check``, a few milliseconds a megabyte): a bot
    playing on it could lose chips the day a damaged page is read; its backups are the cure."""
    found = [str(row[0]) for row in await conn.execute_fetchall("PRAGMA quick_check(3)")]
    if found != ["ok"]:
        raise CannotOpen(
            f"{where} is damaged ({'; '.join(found)}): restore the last backup "
            "(see docs/hosting/backups.md)"
        )


class _Schema:
    """The migration runner's view of a connection being opened (see :mod:`data.migrations`)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def schema_version(self) -> int:
        rows = list(await self._conn.execute_fetchall("PRAGMA user_version"))
        return int(rows[0][0])

    async def apply_migration(self, migration: Migration) -> None:
        conn = self._conn
        # Off while migrating, so a migration may rebuild a table the SQLite way (create new,
        # copy, drop old, rename); foreign_key_check below makes up for it. The pragma is a
        # no-op inside a transaction, hence outside.
        await conn.execute("PRAGMA foreign_keys = OFF")
        try:
            # executescript() commits any open transaction first, so the BEGIN goes inside the
            # script, which leaves the transaction open for the check and the COMMIT below.
            await conn.executescript(
                f"BEGIN IMMEDIATE;\n{migration.sql}\n;\n"
                f"PRAGMA user_version = {int(migration.version)};\n"
            )
            problems = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
            if problems:
                raise SchemaError(
                    f"migration {migration.version} ({migration.name}) leaves "
                    f"{len(problems)} foreign-key violation(s), e.g. {tuple(problems[0])}"
                )
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
        finally:
            await conn.execute("PRAGMA foreign_keys = ON")


class SqliteBackend:
    """A :class:`~data.core.Backend` on one SQLite file (or ``":memory:"``)."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        """Private: use :meth:`open`."""
        self._conn: aiosqlite.Connection | None = conn
        self._path = path
        self._lock = asyncio.Lock()
        # Group commit: write transactions asked for while one is running wait here and then
        # go to the database thread together, in one BEGIN ... COMMIT (see _write_waiting).
        self._waiting: list[tuple[Body[Any], asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._writes = 0  # write transactions since the last checkpoint

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: Synchronous,
        migrations: Sequence[Migration],
        checkpoint_every: float,
    ) -> SqliteBackend:
        """Open (creating if needed) the database at ``path`` and upgrade its schema.

        ``":memory:"`` gives a private in-memory database. A file database is checkpointed in
        the background every ``checkpoint_every`` seconds in which something was written.
        Raises :class:`SchemaError` if the file's schema is newer than ``migrations`` or a
        migration fails.
        """
        if synchronous not in ("NORMAL", "FULL", "EXTRA"):
            raise InvalidArgument(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
        where = os.fspath(path)
        try:
            if where != ":memory:":
                Path(where).parent.mkdir(parents=True, exist_ok=True)
                # Refused here, not by aiosqlite: its worker thread outlives a failed connect
                # and, in a process that stops at once, complains of the closed event loop.
                await asyncio.to_thread(lambda: sqlite3.connect(where).close())
            conn = await aiosqlite.connect(where, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise CannotOpen(f"cannot open the SQLite file {where}: {exc}") from exc
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute("PRAGMA busy_timeout = 10000")
            await _refuse_foreign(conn, where)
            await _refuse_damaged(conn, where)
            mode = next(iter(await conn.execute_fetchall("PRAGMA journal_mode = WAL")))[0]
            if where != ":memory:" and str(mode).lower() != "wal":
                raise SchemaError(f"could not switch {where} to WAL mode (got {mode!r})")
            await conn.execute(f"PRAGMA synchronous = {synchronous}")
            await conn.execute("PRAGMA foreign_keys = ON")
            await migrate(_Schema(conn), migrations)
            checkpoints = None
            if where != ":memory:":
                await conn.execute("PRAGMA wal_autocheckpoint = 0")
                checkpoints = await aiosqlite.connect(where, isolation_level=None)
                await checkpoints.execute("PRAGMA busy_timeout = 10000")
        except (OSError, sqlite3.Error) as exc:
            await conn.close()
            raise CannotOpen(f"{where} cannot be used as the bot's database: {exc}") from exc
        except BaseException:
            await conn.close()
            raise
        backend = cls(conn, where)
        if checkpoints is not None:
            backend._checkpointer = asyncio.ensure_future(
                backend._checkpoint_loop(checkpoints, checkpoint_every)
            )
        return backend

    @property
    def path(self) -> str:
        return self._path

    async def _checkpoint_loop(self, conn: aiosqlite.Connection, every: float) -> None:
        try:
            while True:
                await asyncio.sleep(every)
                if not self._writes:
                    continue
                self._writes = 0
                try:
                    rows = list(await conn.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)"))
                    # Looked up here, not bound at import: the tests lower the limit.
                    if rows and rows[0][1] > WAL_RESTART_FRAMES:
                        # Writers never paused long enough for the WAL to start over from
                        # the beginning: make it (they wait only while the few frames written
                        # since the passive checkpoint are copied).
                        await conn.execute("PRAGMA wal_checkpoint(RESTART)")
                except sqlite3.Error:
                    log.warning("background checkpoint of %s failed", self._path, exc_info=True)
        finally:
            await asyncio.shield(conn.close())

    async def close(self) -> None:
        """Wait for the running transaction, then close. Further calls raise DataError."""
        while self._writer is not None:
            await asyncio.shield(self._writer)
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()

    async def backup(self, target: str | os.PathLike[str]) -> int:
        """A consistent copy of the database in the new file ``target`` (:func:`copy_database`),
        taken on a connection and thread of its own: the bot's writes go on meanwhile."""
        if self._conn is None:
            raise DataError("the database is closed")
        if self._path == ":memory:":
            raise BackupFailed("an in-memory database has no file to back up")
        return await asyncio.to_thread(copy_database, self._path, target)

    async def schema_version(self) -> int:
        """``PRAGMA user_version``, which the migrations bump."""
        row = await self.run(lambda tx: tx.fetch_one("PRAGMA user_version"), write=False)
        return int(row[0]) if row is not None else 0

    async def check_integrity(self) -> list[str]:
        """SQLite's own checks (``integrity_check`` and ``foreign_key_check``); cheap enough
        for a start-up check."""

        async def body(tx: Tx) -> list[str]:
            problems = [
                str(r[0]) for r in await tx.fetch_all("PRAGMA integrity_check") if r[0] != "ok"
            ]
            problems += [
                f"foreign key: {tuple(cast(sqlite3.Row, r))}"
                for r in await tx.fetch_all("PRAGMA foreign_key_check")
            ]
            return problems

        return await self.run(body, write=False)

    async def run(self, body: Body[T], *, write: bool = True) -> T:
        """Run ``body`` as one transaction.

        The whole transaction (BEGIN, the body's statements, COMMIT or ROLLBACK) is ONE call
        to the connection's thread, which runs calls whole and in the order they were made: no
        lock is held while the event loop turns. (Holding one over a transaction's six or so
        round trips between the threads made each transaction wait on a busy event loop that
        many times; at hundreds of tables the queue for the lock grew without bound.) A caller
        cancelled meanwhile leaves its transaction to finish, commit or rollback, regardless.
        """
        conn = self._conn
        if conn is None:
            raise DataError("the database is closed")
        if not _IN_THREAD:
            return await self._run_locked(conn, body, write)
        if write:
            done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
            self._waiting.append((body, done))
            if self._writer is None:
                self._writer = asyncio.ensure_future(self._write_waiting(conn))
            return await done
        in_thread: Callable[..., Awaitable[T]] = conn._execute
        return await in_thread(_transaction, conn, body, write)

    async def _write_waiting(self, conn: aiosqlite.Connection) -> None:
        """Commit the waiting write transactions, a group at a time, until none wait.

        A group is one BEGIN ... COMMIT in the database thread: one sync to disk and one trip
        to the thread for all of them, where each transaction on its own paid both (at hundreds
        of tables, the thread's queue then backed up for hundreds of milliseconds). Each caller
        is answered only after the COMMIT holding its change.
        """
        in_thread: Callable[..., Awaitable[Any]] = conn._execute
        try:
            while self._waiting:
                group, self._waiting = self._waiting[:MAX_GROUP], self._waiting[MAX_GROUP:]
                try:
                    results = await in_thread(_group_transaction, conn, [b for b, _ in group])
                except Exception:
                    if len(group) == 1:
                        raise
                    for body, done in group:
                        try:
                            result = await in_thread(_transaction, conn, body, True)
                        except Exception as exc:
                            _settle(done, exc=exc)
                        else:
                            _settle(done, result)
                else:
                    for (_, done), result in zip(group, results, strict=True):
                        _settle(done, result)
                self._writes += len(group)
        except Exception as exc:
            for _, done in group:
                _settle(done, exc=exc)
        except BaseException:
            for _, done in group:  # cancelled (the loop is closing): nobody is left waiting
                done.cancel()
            raise
        finally:
            self._writer = None
            if self._waiting and self._conn is not None:
                self._writer = asyncio.ensure_future(self._write_waiting(conn))

    async def _run_locked(self, conn: aiosqlite.Connection, body: Body[T], write: bool) -> T:
        """:meth:`run` by round trips under the lock, shielded from cancellation."""

        async def transaction() -> T:
            async with self._lock:
                if self._conn is None:
                    raise DataError("the database is closed")
                await conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    result = await body(_RoundTrips(conn))
                    await conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        await conn.execute("ROLLBACK")
                    raise
                return result

        task = asyncio.ensure_future(transaction())
        task.add_done_callback(_retrieve)
        return await asyncio.shield(task)
