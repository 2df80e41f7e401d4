"""The bot's SQLite store: bankrolls, ledger, tables, hands, stats. Every SQL statement lives here.

Design
------
* One aiosqlite connection per :class:`Database`. Every public method runs as ONE transaction
  (``BEGIN IMMEDIATE`` for writes), and a transaction is one call to the connection's thread, so
  concurrent coroutines can never interleave inside one and a caller that is cancelled cannot
  leave it half-applied: the work finishes (commit or rollback) regardless. Write transactions
  asked for while another runs are committed together (group commit), each caller answered
  only once its change is committed.
* Durability: WAL journal with ``synchronous=FULL`` by default. In WAL mode ``NORMAL`` is already
  safe against a crash of the bot (SIGKILL included: a committed transaction is in the WAL file),
  but a power cut or an OS crash may lose the last commits. ``FULL`` syncs the WAL on every commit
  so a commit reported to the bot survives those too; measured here it still allows thousands of
  ``save_table_state`` calls per second (``bench/db.py``), far above what a Discord bot needs.
  Checkpoints (copying the WAL back into the database file) run on a second connection in its
  own thread, not inside a commit: at hundreds of tables an automatic checkpoint held every
  write up for a tenth of a second or more.
* Chips: a bankroll changes only together with a ``ledger`` row (same transaction, same helper).
  The chips on a table change only by buy-ins, top-ups and cash-outs; every other save must pass
  the same ``chips_on_table`` or it is refused (:class:`ChipsMismatch`). Hence
  ``issued - removed == bankrolls + chips on tables`` always; :meth:`Database.chip_audit` checks.
* JSON blobs (settings, config, engine state, events, results) are opaque strings; SQLite only
  checks that they are valid JSON.
* Every method that raises a :class:`~data.errors.DataError` has changed nothing.
* ``now`` parameters are unix seconds from the caller (tests control time); default
  ``time.time()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal, TypeVar, cast

import aiosqlite

from data.errors import (
    ChipsMismatch,
    Cooldown,
    DataError,
    EventConflict,
    HandInProgress,
    HandNotFound,
    InsufficientFunds,
    InvalidArgument,
    NoHandInProgress,
    SchemaError,
    TableClosed,
    TableExists,
    TableNotFound,
    WrongGuild,
)
from data.migrations import Migration, load_migrations, migrate, schema_version
from data.models import (
    Account,
    AdminAction,
    AdminLogEntry,
    ChipAudit,
    DailyClaim,
    GuildSettings,
    Hand,
    HandEvent,
    HandSecrets,
    LeaderboardEntry,
    LedgerEntry,
    LedgerKind,
    Page,
    PlayerHandResult,
    PlayerStats,
    Table,
    TablePlayer,
)

T = TypeVar("T")

DEFAULT_PATH: Final = Path(__file__).resolve().parent / "poker.db"
"""Where the bot keeps its database unless told otherwise (gitignored)."""

DEFAULT_STARTING_BANKROLL: Final = 1000
DEFAULT_DAILY_AMOUNT: Final = 100
DEFAULT_DAILY_COOLDOWN: Final = 24 * 60 * 60
DEFAULT_TABLE_DEFAULTS: Final = "{}"
MAX_PAGE: Final = 100

_ADMIN_KINDS: Final[dict[str, LedgerKind]] = {
    "grant": "admin_grant",
    "set": "admin_set",
    "remove": "admin_remove",
}

Synchronous = Literal["NORMAL", "FULL", "EXTRA"]
HandEventIn = tuple[int, str]
"""A new hand event: ``(seq, event_json)``; seq is unique per hand (0, 1, 2, ...)."""

_Body = Callable[[aiosqlite.Connection], Awaitable[T]]


# --------------------------------------------------------------------------------------------
# Argument checks (pure; they run before any SQL)
# --------------------------------------------------------------------------------------------


def _clock(now: float | None) -> float:
    if now is None:
        return time.time()
    if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
        raise InvalidArgument(f"now must be unix seconds, got {now!r}")
    return float(now)


def _int(name: str, value: object, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name} must be an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise InvalidArgument(f"{name} must be at least {minimum}, got {value}")
    return value


def _json(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidArgument(f"{name} must be a JSON string, got {type(value).__name__}")
    return value


def _page(offset: int, limit: int) -> tuple[int, int]:
    _int("offset", offset, 0)
    _int("limit", limit, 1)
    if limit > MAX_PAGE:
        raise InvalidArgument(f"limit must be at most {MAX_PAGE}, got {limit}")
    return offset, limit


def _seats(seat_stacks: Mapping[int, int], chips_on_table: int) -> list[tuple[int, int]]:
    items: list[tuple[int, int]] = []
    for user_id, stack in seat_stacks.items():
        items.append((_int("seat_stacks user id", user_id), _int("seat_stacks stack", stack, 0)))
    seated = sum(stack for _, stack in items)
    if seated > chips_on_table:
        raise InvalidArgument(
            f"the seated stacks add up to {seated}, more than the {chips_on_table} chips on "
            "the table"
        )
    return items


def _events(new_events: Sequence[HandEventIn]) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for item in new_events:
        if not isinstance(item, tuple) or len(item) != 2:
            raise InvalidArgument(f"a hand event must be (seq, event_json), got {item!r}")
        out.append((_int("event seq", item[0], 0), _json("event", item[1])))
    return out


def _check_chips(table: Table, expected: int, got: int) -> None:
    if got != expected:
        raise ChipsMismatch(table.table_id, expected, got)


def _commitment(value: object) -> str:
    if (
        not isinstance(value, str)
        or len(value) != 64
        or any(c not in "0123456789abcdef" for c in value)
    ):
        raise InvalidArgument("commitment must be a SHA-256 digest in lowercase hex (64 chars)")
    return value


# --------------------------------------------------------------------------------------------
# Row -> model
# --------------------------------------------------------------------------------------------


def _time(value: float | None) -> float | None:
    # RETURNING can hand back a REAL like 2.0 as the int 2; models always carry floats.
    return None if value is None else float(value)


def _account(r: sqlite3.Row) -> Account:
    return Account(
        r["guild_id"],
        r["user_id"],
        r["balance"],
        _time(r["last_daily_at"]),
        float(r["created_at"]),
        float(r["updated_at"]),
    )


def _ledger_entry(r: sqlite3.Row) -> LedgerEntry:
    return LedgerEntry(
        r["entry_id"],
        r["guild_id"],
        r["user_id"],
        r["delta"],
        r["balance_after"],
        cast(LedgerKind, r["kind"]),
        r["table_id"],
        r["hand_id"],
        r["actor_id"],
        r["note"],
        float(r["created_at"]),
    )


def _admin_entry(r: sqlite3.Row) -> AdminLogEntry:
    return AdminLogEntry(
        r["log_id"],
        r["guild_id"],
        r["actor_id"],
        cast(AdminAction, r["action"]),
        r["target_id"],
        r["old_value"],
        r["new_value"],
        r["note"],
        r["entry_id"],
        float(r["created_at"]),
    )


def _table(r: sqlite3.Row) -> Table:
    return Table(
        r["table_id"],
        r["guild_id"],
        r["channel_id"],
        r["creator_id"],
        r["status"],
        r["config"],
        r["state"],
        r["chips_on_table"],
        r["message_id"],
        r["current_hand_id"],
        float(r["created_at"]),
        float(r["updated_at"]),
        _time(r["closed_at"]),
    )


def _hand(r: sqlite3.Row) -> Hand:
    return Hand(
        r["hand_id"],
        r["table_id"],
        r["guild_id"],
        r["number"],
        r["variant"],
        r["variant_name"],
        r["commitment"],
        float(r["started_at"]),
        _time(r["ended_at"]),
        r["result"],
        r["pot"],
    )


_HAND_COLUMNS: Final = (
    "hand_id, table_id, guild_id, number, variant, variant_name, commitment, started_at, "
    "ended_at, result, pot"
)


# --------------------------------------------------------------------------------------------
# Statement helpers (inside a transaction)
# --------------------------------------------------------------------------------------------


async def _rows(conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> list[Any]:
    return list(await conn.execute_fetchall(sql, tuple(params)))


async def _row(conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> Any:
    rows = await _rows(conn, sql, params)
    return rows[0] if rows else None


async def _exec(conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> int:
    cursor = await conn.execute(sql, tuple(params))
    return cursor.rowcount


class _Direct:
    """What transaction bodies use of an aiosqlite connection, done directly on its sqlite3
    connection: inside the connection's own thread, where :func:`_transaction` runs a body,
    every await of a body completes at once."""

    __slots__ = ("_raw",)

    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw

    @property
    def in_transaction(self) -> bool:
        return self._raw.in_transaction

    async def execute(self, sql: str, parameters: Iterable[Any] = ()) -> sqlite3.Cursor:
        return self._raw.execute(sql, tuple(parameters))

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] = ()) -> list[Any]:
        return self._raw.execute(sql, tuple(parameters)).fetchall()

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> sqlite3.Cursor:
        return self._raw.executemany(sql, parameters)


def _transaction(conn: aiosqlite.Connection, body: _Body[T], write: bool) -> T:
    """BEGIN, ``body``, COMMIT (ROLLBACK on any error): runs in the connection's thread."""
    raw: sqlite3.Connection = conn._conn
    raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        steps = cast(Coroutine[Any, Any, T], body(cast(aiosqlite.Connection, _Direct(raw))))
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


def _group_transaction(conn: aiosqlite.Connection, bodies: list[_Body[Any]]) -> list[Any]:
    """Several write transactions' bodies in one BEGIN ... COMMIT (database thread); if one
    raises, everything is rolled back and the exception propagates."""
    return _transaction(conn, lambda direct: _each(direct, bodies), True)


async def _each(conn: aiosqlite.Connection, bodies: list[_Body[Any]]) -> list[Any]:
    return [await body(conn) for body in bodies]


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


log = logging.getLogger(__name__)

WAL_RESTART_FRAMES = 4096
"""A WAL longer than this (4096 pages, 16 MiB) is restarted by the background checkpointer."""

MAX_GROUP = 64
"""The most write transactions committed together."""

# aiosqlite runs each call it is given in the connection's thread, in order. Its queueing
# method is private but has been stable for years; without it, transactions take the slower
# path (a lock held over several round trips to the thread).
_IN_THREAD = callable(getattr(aiosqlite.Connection, "_execute", None))


class Database:
    """The data layer. Open with ``await Database.open(path)``; close with ``await db.close()``.

    Also an async context manager: ``async with await Database.open(p) as db: ...``.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        """Private: use :meth:`open`."""
        self._conn: aiosqlite.Connection | None = conn
        self._path = path
        self._lock = asyncio.Lock()
        # Group commit: write transactions asked for while one is running wait here and then
        # go to the database thread together, in one BEGIN ... COMMIT (see _run).
        self._waiting: list[tuple[_Body[Any], asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._writes = 0  # write transactions since the last checkpoint

    # ---------------------------------------------------------------- lifecycle

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] = DEFAULT_PATH,
        *,
        synchronous: Synchronous = "FULL",
        migrations: Sequence[Migration] | None = None,
        checkpoint_every: float = 1.0,
    ) -> Database:
        """Open (creating if needed) the database at ``path`` and upgrade its schema.

        ``":memory:"`` gives a private in-memory database (tests). ``migrations`` defaults to
        the ones shipped in this package (an override exists for tests and tooling). A file
        database is checkpointed in the background every ``checkpoint_every`` seconds in which
        something was written.
        Raises :class:`SchemaError` if the file's schema is newer than this code or a migration
        fails.
        """
        if synchronous not in ("NORMAL", "FULL", "EXTRA"):
            raise InvalidArgument(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
        where = os.fspath(path)
        if where != ":memory:":
            Path(where).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(where, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute("PRAGMA busy_timeout = 10000")
            mode = (await _row(conn, "PRAGMA journal_mode = WAL"))[0]
            if where != ":memory:" and str(mode).lower() != "wal":
                raise SchemaError(f"could not switch {where} to WAL mode (got {mode!r})")
            await conn.execute(f"PRAGMA synchronous = {synchronous}")
            await conn.execute("PRAGMA foreign_keys = ON")
            await migrate(conn, load_migrations() if migrations is None else migrations)
            checkpoints = None
            if where != ":memory:":
                await conn.execute("PRAGMA wal_autocheckpoint = 0")
                checkpoints = await aiosqlite.connect(where, isolation_level=None)
                await checkpoints.execute("PRAGMA busy_timeout = 10000")
        except BaseException:
            await conn.close()
            raise
        db = cls(conn, where)
        if checkpoints is not None:
            db._checkpointer = asyncio.ensure_future(
                db._checkpoint_loop(checkpoints, checkpoint_every)
            )
        return db

    async def _checkpoint_loop(self, conn: aiosqlite.Connection, every: float) -> None:
        try:
            while True:
                await asyncio.sleep(every)
                if not self._writes:
                    continue
                self._writes = 0
                try:
                    row = await _row(conn, "PRAGMA wal_checkpoint(PASSIVE)")
                    if row is not None and row[1] > WAL_RESTART_FRAMES:
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

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def path(self) -> str:
        return self._path

    async def schema_version(self) -> int:
        """The schema version of the open file (``PRAGMA user_version``)."""
        return await self._run(schema_version, write=False)

    async def check_integrity(self) -> list[str]:
        """SQLite's own checks (``integrity_check`` and ``foreign_key_check``): a list of
        problems, empty when the file is sound. Cheap enough for a start-up check."""

        async def body(conn: aiosqlite.Connection) -> list[str]:
            problems = [
                str(r[0]) for r in await _rows(conn, "PRAGMA integrity_check") if r[0] != "ok"
            ]
            problems += [
                f"foreign key: {tuple(r)}" for r in await _rows(conn, "PRAGMA foreign_key_check")
            ]
            return problems

        return await self._run(body, write=False)

    # ---------------------------------------------------------------- transactions

    async def _run(self, body: _Body[T], *, write: bool = True) -> T:
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
        try:
            if write:
                done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
                self._waiting.append((body, done))
                if self._writer is None:
                    self._writer = asyncio.ensure_future(self._write_waiting(conn))
                return await done
            in_thread: Callable[..., Awaitable[T]] = conn._execute
            return await in_thread(_transaction, conn, body, write)
        except sqlite3.IntegrityError as exc:
            if "json_valid" in str(exc):
                raise InvalidArgument(f"a JSON argument is not valid JSON ({exc})") from exc
            raise

    async def _write_waiting(self, conn: aiosqlite.Connection) -> None:
        """Commit the waiting write transactions, a group at a time, until none wait.

        A group is one BEGIN ... COMMIT in the database thread: one sync to disk and one trip
        to the thread for all of them, where each transaction on its own paid both (at hundreds
        of tables, the thread's queue then backed up for hundreds of milliseconds). Each caller
        is answered only after the COMMIT holding its change. If any transaction of a group
        fails, the group is rolled back and each of its transactions runs again on its own, so
        every caller gets exactly the result it would have had alone.
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

    async def _run_locked(self, conn: aiosqlite.Connection, body: _Body[T], write: bool) -> T:
        """:meth:`_run` by round trips under the lock, shielded from cancellation."""

        async def transaction() -> T:
            async with self._lock:
                if self._conn is None:
                    raise DataError("the database is closed")
                await conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    result = await body(conn)
                    await conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        await conn.execute("ROLLBACK")
                    raise
                return result

        task = asyncio.ensure_future(transaction())
        task.add_done_callback(_retrieve)
        try:
            return await asyncio.shield(task)
        except sqlite3.IntegrityError as exc:
            if "json_valid" in str(exc):
                raise InvalidArgument(f"a JSON argument is not valid JSON ({exc})") from exc
            raise

    # ---------------------------------------------------------------- shared pieces

    async def _settings(self, conn: aiosqlite.Connection, guild_id: int) -> GuildSettings:
        r = await _row(conn, "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if r is None:
            return GuildSettings(
                guild_id,
                DEFAULT_STARTING_BANKROLL,
                DEFAULT_DAILY_AMOUNT,
                DEFAULT_DAILY_COOLDOWN,
                DEFAULT_TABLE_DEFAULTS,
                None,
                None,
            )
        return GuildSettings(
            r["guild_id"],
            r["starting_bankroll"],
            r["daily_amount"],
            r["daily_cooldown"],
            r["table_defaults"],
            float(r["updated_at"]),
            r["updated_by"],
        )

    async def _account(
        self, conn: aiosqlite.Connection, guild_id: int, user_id: int, now: float
    ) -> Account:
        """The member's account, created with the server's starting bankroll (an 'issue'
        ledger row) if it does not exist yet."""
        r = await _row(
            conn, "SELECT * FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        if r is not None:
            return _account(r)
        start = (await self._settings(conn, guild_id)).starting_bankroll
        await _exec(
            conn,
            "INSERT INTO accounts (guild_id, user_id, balance, created_at, updated_at) "
            "VALUES (?, ?, 0, ?, ?)",
            (guild_id, user_id, now, now),
        )
        await self._move(conn, guild_id, user_id, start, "issue", now, note="starting bankroll")
        return Account(guild_id, user_id, start, None, now, now)

    async def _move(
        self,
        conn: aiosqlite.Connection,
        guild_id: int,
        user_id: int,
        delta: int,
        kind: LedgerKind,
        now: float,
        *,
        table_id: int | None = None,
        hand_id: int | None = None,
        actor_id: int | None = None,
        note: str | None = None,
    ) -> LedgerEntry:
        """THE way a bankroll changes: update the balance and append its ledger row."""
        try:
            r = await _row(
                conn,
                "UPDATE accounts SET balance = balance + ?, updated_at = ? "
                "WHERE guild_id = ? AND user_id = ? RETURNING balance",
                (delta, now, guild_id, user_id),
            )
        except sqlite3.IntegrityError as exc:  # CHECK (balance >= 0)
            have = await _row(
                conn,
                "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            raise InsufficientFunds(guild_id, user_id, have[0], -delta) from exc
        if r is None:
            raise DataError(f"member {user_id} has no account in server {guild_id}")
        entry = await _row(
            conn,
            "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, table_id, "
            "hand_id, actor_id, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "RETURNING *",
            (guild_id, user_id, delta, r[0], kind, table_id, hand_id, actor_id, note, now),
        )
        return _ledger_entry(entry)

    async def _table(
        self, conn: aiosqlite.Connection, table_id: int, guild_id: int | None = None
    ) -> Table:
        """An OPEN table (TableNotFound / WrongGuild / TableClosed otherwise)."""
        r = await _row(conn, "SELECT * FROM tables WHERE table_id = ?", (table_id,))
        if r is None:
            raise TableNotFound(table_id)
        table = _table(r)
        if guild_id is not None and table.guild_id != guild_id:
            raise WrongGuild(table_id, guild_id, table.guild_id)
        if table.status != "open":
            raise TableClosed(table_id)
        return table

    async def _save(
        self,
        conn: aiosqlite.Connection,
        table: Table,
        state_json: str,
        chips_on_table: int,
        seats: list[tuple[int, int]],
        events: list[tuple[int, str]],
        now: float,
        hand_id: int | None,
    ) -> None:
        """Write the snapshot, the chips, the seat projection and the new events."""
        await _exec(
            conn,
            "UPDATE tables SET state = ?, chips_on_table = ?, updated_at = ? WHERE table_id = ?",
            (state_json, chips_on_table, now, table.table_id),
        )
        await self._write_seats(conn, table.table_id, table.guild_id, seats)
        await self._append_events(conn, table.table_id, hand_id, events, now)

    async def _write_seats(
        self, conn: aiosqlite.Connection, table_id: int, guild_id: int, seats: list[tuple[int, int]]
    ) -> None:
        """Make the seat projection exactly ``seats`` (seat numbers of staying players kept)."""
        await _exec(
            conn,
            "DELETE FROM table_players WHERE table_id = ? "
            "AND user_id NOT IN (SELECT value FROM json_each(?))",
            (table_id, json.dumps([user for user, _ in seats])),
        )
        if seats:
            # One statement for every seat, writing only stacks that changed (during a hand
            # none do): fewer steps in the database thread and fewer pages in the WAL.
            await _exec(
                conn,
                "INSERT INTO table_players (table_id, user_id, guild_id, seat, stack) "
                "SELECT ?, json_extract(value, '$[0]'), ?, NULL, json_extract(value, '$[1]') "
                "FROM json_each(?) WHERE true "
                "ON CONFLICT (table_id, user_id) DO UPDATE SET stack = excluded.stack "
                "WHERE stack != excluded.stack",
                (table_id, guild_id, json.dumps(seats)),
            )

    async def _append_events(
        self,
        conn: aiosqlite.Connection,
        table_id: int,
        hand_id: int | None,
        events: list[tuple[int, str]],
        now: float,
    ) -> None:
        if not events:
            return
        if hand_id is None:
            raise NoHandInProgress(table_id, f"table {table_id} has no hand to add events to")
        cursor = await conn.executemany(
            "INSERT INTO hand_events (hand_id, seq, event, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (hand_id, seq) DO NOTHING",
            [(hand_id, seq, event, now) for seq, event in events],
        )
        if cursor.rowcount == len(events):
            return
        # Some seqs exist already: fine if this is a replay of the very same events.
        stored = {
            r[0]: r[1]
            for r in await _rows(
                conn,
                "SELECT seq, event FROM hand_events WHERE hand_id = ? "
                "AND seq IN (SELECT value FROM json_each(?))",
                (hand_id, json.dumps([seq for seq, _ in events])),
            )
        }
        for seq, event in events:
            if stored.get(seq) != event:
                raise EventConflict(hand_id, seq)

    # ---------------------------------------------------------------- settings

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults if never changed)."""
        _int("guild_id", guild_id)
        return await self._run(lambda conn: self._settings(conn, guild_id), write=False)

    async def update_settings(
        self,
        guild_id: int,
        actor_id: int,
        *,
        starting_bankroll: int | None = None,
        daily_amount: int | None = None,
        daily_cooldown: int | None = None,
        table_defaults_json: str | None = None,
        note: str | None = None,
        now: float | None = None,
    ) -> GuildSettings:
        """Change the given settings (None = unchanged) and log the change in the admin log.

        ``daily_cooldown`` is in seconds. Returns the new settings.
        """
        _int("guild_id", guild_id)
        _int("actor_id", actor_id)
        at = _clock(now)
        changes: dict[str, int | str] = {}
        if starting_bankroll is not None:
            changes["starting_bankroll"] = _int("starting_bankroll", starting_bankroll, 0)
        if daily_amount is not None:
            changes["daily_amount"] = _int("daily_amount", daily_amount, 0)
        if daily_cooldown is not None:
            changes["daily_cooldown"] = _int("daily_cooldown", daily_cooldown, 0)
        if table_defaults_json is not None:
            changes["table_defaults"] = _json("table_defaults_json", table_defaults_json)
        if not changes:
            raise InvalidArgument("no setting to change")

        async def body(conn: aiosqlite.Connection) -> GuildSettings:
            old = await self._settings(conn, guild_id)
            old_values = {
                "starting_bankroll": old.starting_bankroll,
                "daily_amount": old.daily_amount,
                "daily_cooldown": old.daily_cooldown,
                "table_defaults": old.table_defaults_json,
            }
            new_values = {**old_values, **changes}
            await _exec(
                conn,
                "INSERT INTO guild_settings (guild_id, starting_bankroll, daily_amount, "
                "daily_cooldown, table_defaults, updated_at, updated_by) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "starting_bankroll = excluded.starting_bankroll, "
                "daily_amount = excluded.daily_amount, daily_cooldown = excluded.daily_cooldown, "
                "table_defaults = excluded.table_defaults, updated_at = excluded.updated_at, "
                "updated_by = excluded.updated_by",
                (
                    guild_id,
                    new_values["starting_bankroll"],
                    new_values["daily_amount"],
                    new_values["daily_cooldown"],
                    new_values["table_defaults"],
                    at,
                    actor_id,
                ),
            )
            await self._log(
                conn,
                guild_id,
                actor_id,
                "settings",
                None,
                json.dumps({k: old_values[k] for k in changes}),
                json.dumps(changes),
                note,
                None,
                at,
            )
            return await self._settings(conn, guild_id)

        return await self._run(body)

    async def _log(
        self,
        conn: aiosqlite.Connection,
        guild_id: int,
        actor_id: int,
        action: AdminAction,
        target_id: int | None,
        old_value: str,
        new_value: str,
        note: str | None,
        entry_id: int | None,
        now: float,
    ) -> None:
        await _exec(
            conn,
            "INSERT INTO admin_log (guild_id, actor_id, action, target_id, old_value, "
            "new_value, note, entry_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, actor_id, action, target_id, old_value, new_value, note, entry_id, now),
        )

    # ---------------------------------------------------------------- accounts

    async def account(self, guild_id: int, user_id: int, *, now: float | None = None) -> Account:
        """The member's account, created with the server's starting bankroll on first use."""
        _int("guild_id", guild_id)
        _int("user_id", user_id)
        at = _clock(now)
        return await self._run(lambda conn: self._account(conn, guild_id, user_id, at))

    async def balance(self, guild_id: int, user_id: int, *, now: float | None = None) -> int:
        """The member's bankroll (chips not on a table); creates the account on first use."""
        return (await self.account(guild_id, user_id, now=now)).balance

    async def claim_daily(
        self, guild_id: int, user_id: int, now: float | None = None
    ) -> DailyClaim:
        """Credit the server's daily bonus. Raises :class:`Cooldown` (remaining seconds and
        next time) and changes nothing if the last claim is more recent than the cooldown."""
        _int("guild_id", guild_id)
        _int("user_id", user_id)
        at = _clock(now)

        async def body(conn: aiosqlite.Connection) -> DailyClaim:
            settings = await self._settings(conn, guild_id)
            account = await self._account(conn, guild_id, user_id, at)
            if account.last_daily_at is not None:
                next_at = account.last_daily_at + settings.daily_cooldown
                if at < next_at:
                    raise Cooldown(next_at - at, next_at)
            entry = await self._move(
                conn, guild_id, user_id, settings.daily_amount, "daily", at, note="daily bonus"
            )
            await _exec(
                conn,
                "UPDATE accounts SET last_daily_at = ? WHERE guild_id = ? AND user_id = ?",
                (at, guild_id, user_id),
            )
            return DailyClaim(
                settings.daily_amount, entry.balance_after, at + settings.daily_cooldown, entry
            )

        return await self._run(body)

    async def admin_grant(
        self,
        guild_id: int,
        actor_id: int,
        user_id: int,
        amount: int,
        *,
        note: str | None = None,
        now: float | None = None,
    ) -> LedgerEntry:
        """Issue ``amount`` (> 0) new chips to the member's bankroll; ledger + admin log."""
        _int("amount", amount, 1)
        return await self._admin(guild_id, actor_id, user_id, "grant", amount, note, now)

    async def admin_set(
        self,
        guild_id: int,
        actor_id: int,
        user_id: int,
        balance: int,
        *,
        note: str | None = None,
        now: float | None = None,
    ) -> LedgerEntry:
        """Set the member's bankroll to ``balance`` (>= 0), issuing or removing the difference;
        ledger + admin log. Chips on tables are not touched."""
        _int("balance", balance, 0)
        return await self._admin(guild_id, actor_id, user_id, "set", balance, note, now)

    async def admin_remove(
        self,
        guild_id: int,
        actor_id: int,
        user_id: int,
        amount: int,
        *,
        note: str | None = None,
        now: float | None = None,
    ) -> LedgerEntry:
        """Remove ``amount`` (> 0) chips from the member's bankroll; ledger + admin log.
        Raises :class:`InsufficientFunds` if the bankroll holds less."""
        _int("amount", amount, 1)
        return await self._admin(guild_id, actor_id, user_id, "remove", amount, note, now)

    async def _admin(
        self,
        guild_id: int,
        actor_id: int,
        user_id: int,
        action: Literal["grant", "set", "remove"],
        value: int,
        note: str | None,
        now: float | None,
    ) -> LedgerEntry:
        _int("guild_id", guild_id)
        _int("actor_id", actor_id)
        _int("user_id", user_id)
        at = _clock(now)

        async def body(conn: aiosqlite.Connection) -> LedgerEntry:
            old = (await self._account(conn, guild_id, user_id, at)).balance
            delta = {"grant": value, "set": value - old, "remove": -value}[action]
            kind = _ADMIN_KINDS[action]
            entry = await self._move(
                conn, guild_id, user_id, delta, kind, at, actor_id=actor_id, note=note
            )
            await self._log(
                conn,
                guild_id,
                actor_id,
                action,
                user_id,
                json.dumps(old),
                json.dumps(entry.balance_after),
                note,
                entry.entry_id,
                at,
            )
            return entry

        return await self._run(body)

    async def ledger(
        self, guild_id: int, user_id: int | None = None, *, offset: int = 0, limit: int = 20
    ) -> Page[LedgerEntry]:
        """Ledger rows of a server (or of one member), newest first."""
        _int("guild_id", guild_id)
        _page(offset, limit)
        where, params = "guild_id = ?", [guild_id]
        if user_id is not None:
            where += " AND user_id = ?"
            params.append(_int("user_id", user_id))

        async def body(conn: aiosqlite.Connection) -> Page[LedgerEntry]:
            total = (await _row(conn, f"SELECT count(*) FROM ledger WHERE {where}", params))[0]
            rows = await _rows(
                conn,
                f"SELECT * FROM ledger WHERE {where} ORDER BY entry_id DESC LIMIT ? OFFSET ?",
                [*params, limit, offset],
            )
            return Page(tuple(_ledger_entry(r) for r in rows), total, offset, limit)

        return await self._run(body, write=False)

    async def admin_log(
        self, guild_id: int, *, offset: int = 0, limit: int = 20
    ) -> Page[AdminLogEntry]:
        """The server's admin actions, newest first."""
        _int("guild_id", guild_id)
        _page(offset, limit)

        async def body(conn: aiosqlite.Connection) -> Page[AdminLogEntry]:
            total = (
                await _row(conn, "SELECT count(*) FROM admin_log WHERE guild_id = ?", (guild_id,))
            )[0]
            rows = await _rows(
                conn,
                "SELECT * FROM admin_log WHERE guild_id = ? ORDER BY log_id DESC LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            )
            return Page(tuple(_admin_entry(r) for r in rows), total, offset, limit)

        return await self._run(body, write=False)

    # ---------------------------------------------------------------- tables

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        config_json: str,
        *,
        state_json: str | None = None,
        message_id: int | None = None,
        now: float | None = None,
    ) -> Table:
        """Open a table in a channel (no chips on it yet). Raises :class:`TableExists` if the
        channel already has an open table."""
        _int("guild_id", guild_id)
        _int("channel_id", channel_id)
        _int("creator_id", creator_id)
        _json("config_json", config_json)
        if state_json is not None:
            _json("state_json", state_json)
        if message_id is not None:
            _int("message_id", message_id)
        at = _clock(now)

        async def body(conn: aiosqlite.Connection) -> Table:
            existing = await _row(
                conn,
                "SELECT table_id FROM tables WHERE channel_id = ? AND status = 'open'",
                (channel_id,),
            )
            if existing is not None:
                raise TableExists(channel_id, existing[0])
            r = await _row(
                conn,
                "INSERT INTO tables (guild_id, channel_id, creator_id, config, state, "
                "message_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (guild_id, channel_id, creator_id, config_json, state_json, message_id, at, at),
            )
            return _table(r)

        return await self._run(body)

    async def update_table(
        self,
        table_id: int,
        *,
        config_json: str | None = None,
        message_id: int | None = None,
        now: float | None = None,
    ) -> Table:
        """Change an open table's config and/or its public message id (None = unchanged)."""
        _int("table_id", table_id)
        if config_json is not None:
            _json("config_json", config_json)
        if message_id is not None:
            _int("message_id", message_id)
        at = _clock(now)

        async def body(conn: aiosqlite.Connection) -> Table:
            await self._table(conn, table_id)
            r = await _row(
                conn,
                "UPDATE tables SET config = coalesce(?, config), "
                "message_id = coalesce(?, message_id), updated_at = ? WHERE table_id = ? "
                "RETURNING *",
                (config_json, message_id, at, table_id),
            )
            return _table(r)

        return await self._run(body)

    async def get_table(self, table_id: int) -> Table:
        """A table, open or closed. Raises :class:`TableNotFound`."""
        _int("table_id", table_id)

        async def body(conn: aiosqlite.Connection) -> Table:
            r = await _row(conn, "SELECT * FROM tables WHERE table_id = ?", (table_id,))
            if r is None:
                raise TableNotFound(table_id)
            return _table(r)

        return await self._run(body, write=False)

    async def open_table_in_channel(self, channel_id: int) -> Table | None:
        """The channel's open table, if any."""
        _int("channel_id", channel_id)

        async def body(conn: aiosqlite.Connection) -> Table | None:
            r = await _row(
                conn, "SELECT * FROM tables WHERE channel_id = ? AND status = 'open'", (channel_id,)
            )
            return None if r is None else _table(r)

        return await self._run(body, write=False)

    async def open_tables(self, guild_id: int | None = None) -> list[Table]:
        """All open tables (of one server, or of all: what to resume after a restart)."""
        sql, params = "SELECT * FROM tables WHERE status = 'open'", []
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(_int("guild_id", guild_id))

        async def body(conn: aiosqlite.Connection) -> list[Table]:
            return [_table(r) for r in await _rows(conn, sql + " ORDER BY table_id", params)]

        return await self._run(body, write=False)

    async def table_players(self, table_id: int) -> list[TablePlayer]:
        """The seat projection of a table (empty once closed), by seat then user."""
        _int("table_id", table_id)

        async def body(conn: aiosqlite.Connection) -> list[TablePlayer]:
            rows = await _rows(
                conn,
                "SELECT table_id, user_id, seat, stack FROM table_players WHERE table_id = ? "
                "ORDER BY seat IS NULL, seat, user_id",
                (table_id,),
            )
            return [TablePlayer(r[0], r[1], r[2], r[3]) for r in rows]

        return await self._run(body, write=False)

    async def buy_in(
        self,
        guild_id: int,
        user_id: int,
        table_id: int,
        amount: int,
        state_json: str,
        chips_on_table: int,
        seat_stacks: Mapping[int, int],
        *,
        seat: int | None = None,
        new_events: Sequence[HandEventIn] = (),
        now: float | None = None,
    ) -> LedgerEntry:
        """Move ``amount`` (> 0) chips from the member's bankroll onto the table, in one
        transaction with the new engine snapshot.

        ``chips_on_table`` must be the table's chips plus ``amount``; ``seat_stacks`` (user id ->
        stack, every seated player, including this one) replaces the seat projection; ``seat``
        records this player's seat number. The ledger kind is 'buy_in', or 'top_up' if the
        member was already seated. Raises :class:`InsufficientFunds` if the bankroll is too small
        (the account is created first if needed, with the starting bankroll).
        """
        _int("guild_id", guild_id)
        _int("user_id", user_id)
        _int("table_id", table_id)
        _int("amount", amount, 1)
        _json("state_json", state_json)
        _int("chips_on_table", chips_on_table, 0)
        seats = _seats(seat_stacks, chips_on_table)
        if user_id not in seat_stacks:
            raise InvalidArgument(f"seat_stacks must include the member buying in ({user_id})")
        if seat is not None:
            _int("seat", seat, 0)
        events = _events(new_events)
        at = _clock(now)

        async def body(conn: aiosqlite.Connection) -> LedgerEntry:
            table = await self._table(conn, table_id, guild_id)
            _check_chips(table, table.chips_on_table + amount, chips_on_table)
            await self._account(conn, guild_id, user_id, at)
            seated = await _row(
                conn,
                "SELECT 1 FROM table_players WHERE table_id = ? AND user_id = ?",
                (table_id, user_id),
            )
            entry = await self._move(
                conn,
                guild_id,
                user_id,
                -amount,
                "top_up" if seated else "buy_in",
                at,
                table_id=table_id,
                hand_id=table.current_hand_id,
            )
            await self._save(
                conn, table, state_json, chips_on_table, seats, events, at, table.current_hand_id
            )
            if seat is not None:
                try:
                    await _exec(
                        conn,
                        "UPDATE table_players SET seat = ? WHERE table_id = ? AND user_id = ?",
                        (seat, table_id, user_id),
                    )
                except sqlite3.IntegrityError as exc:
                    raise InvalidArgument(f"seat {seat} is taken at table {table_id}") from exc
            return entry

        return await self._run(body)

    async def cash_out(
        self,
        guild_id: int,
        user_id: int,
        table_id: int,
        amount: int,
        state_json: str,
        chips_on_table: int,
        seat_stacks: Mapping[int, int],
        *,
        new_events: Sequence[HandEventIn] = (),
        now: float | None = None,
    ) -> LedgerEntry:
        """Move ``amount`` (>= 0) chips from the table back to the member's bankroll, in one
        transaction with the new snapshot.

        ``chips_on_table`` must be the table's chips minus ``amount``; ``seat_stacks`` is the new
        set of seated players (leave the member out when they stand up). The member must have
        bought in at this table.
        """
        _int("guild_id", guild_id)
        _int("user_id", user_id)
        _int("table_id", table_id)
        _int("amount", amount, 0)
        _json("state_json", state_json)
        _int("chips_on_table", chips_on_table, 0)
        seats = _seats(seat_stacks, chips_on_table)
        events = _events(new_events)
        at = _clock(now)

        async def body(conn: aiosqlite.Connection) -> LedgerEntry:
            table = await self._table(conn, table_id, guild_id)
            _check_chips(table, table.chips_on_table - amount, chips_on_table)
            await self._require_player(conn, table_id, [user_id])
            entry = await self._move(
                conn,
                guild_id,
                user_id,
                amount,
                "cash_out",
                at,
                table_id=table_id,
                hand_id=table.current_hand_id,
            )
            await self._save(
                conn, table, state_json, chips_on_table, seats, events, at, table.current_hand_id
            )
            return entry

        return await self._run(body)

    async def _require_player(
        self, conn: aiosqlite.Connection, table_id: int, user_ids: Iterable[int]
    ) -> None:
        """Chips can only go back to members who bought in at this table."""
        wanted = sorted(set(user_ids))
        rows = await _rows(
            conn,
            "SELECT DISTINCT user_id FROM ledger WHERE table_id = ? "
            "AND kind IN ('buy_in', 'top_up') "
            "AND user_id IN (SELECT value FROM json_each(?))",
            (table_id, json.dumps(wanted)),
        )
        missing = set(wanted) - {r[0] for r in rows}
        if missing:
            raise InvalidArgument(
                f"member(s) {sorted(missing)} never bought in at table {table_id}"
            )

    async def save_table_state(
        self,
        table_id: int,
        state_json: str,
        chips_on_table: int,
        seat_stacks: Mapping[int, int],
        new_events: Sequence[HandEventIn] = (),
        *,
        now: float | None = None,
    ) -> None:
        """Store the engine's snapshot after an event, append the current hand's new events
        and refresh the seat projection, in one transaction.

        ``chips_on_table`` must equal the table's current chips (only buy-ins and cash-outs
        change them): :class:`ChipsMismatch` otherwise. Events go to the table's current hand
        (:class:`NoHandInProgress` if none); saving an event again with the same ``seq`` and
        content is a no-op, with other content :class:`EventConflict`.
        """
        _int("table_id", table_id)
        _json("state_json", state_json)
        _int("chips_on_table", chips_on_table, 0)
        seats = _seats(seat_stacks, chips_on_table)
        events = _events(new_events)
        at = _clock(now)

        async def body(conn: aiosqlite.Connection) -> None:
            # Fast path: check and write the snapshot in one statement.
            r = await _row(
                conn,
                "UPDATE tables SET state = ?, updated_at = ? "
                "WHERE table_id = ? AND status = 'open' AND chips_on_table = ? "
                "RETURNING table_id, guild_id, current_hand_id",
                (state_json, at, table_id, chips_on_table),
            )
            if r is None:  # say why
                table = await self._table(conn, table_id)
                raise ChipsMismatch(table_id, table.chips_on_table, chips_on_table)
            await self._write_seats(conn, table_id, r[1], seats)
            await self._append_events(conn, table_id, r[2], events, at)

        await self._run(body)

    async def close_table(
        self,
        table_id: int,
        payouts: Mapping[int, int],
        *,
        state_json: str | None = None,
        now: float | None = None,
    ) -> list[LedgerEntry]:
        """Close the table, paying every remaining chip back to bankrolls in one transaction.

        ``payouts`` (user id -> chips, each >= 0) must add up to the table's chips exactly
        (:class:`ChipsMismatch` otherwise) and go to members who bought in at this table. A hand
        still in progress is ended without a result (its secrets become readable). Returns the
        cash-out ledger rows, by user id.
        """
        _int("table_id", table_id)
        pay = sorted((_int("payout user", u), _int("payout", a, 0)) for u, a in payouts.items())
        if state_json is not None:
            _json("state_json", state_json)
        at = _clock(now)

        async def body(conn: aiosqlite.Connection) -> list[LedgerEntry]:
            table = await self._table(conn, table_id)
            total = sum(amount for _, amount in pay)
            if total != table.chips_on_table:
                raise ChipsMismatch(table_id, table.chips_on_table, total, "the sum of payouts")
            await self._require_player(conn, table_id, [user for user, _ in pay])
            entries = [
                await self._move(
                    conn,
                    table.guild_id,
                    user,
                    amount,
                    "cash_out",
                    at,
                    table_id=table_id,
                    hand_id=table.current_hand_id,
                    note="table closed",
                )
                for user, amount in pay
            ]
            if table.current_hand_id is not None:
                await _exec(
                    conn,
                    "UPDATE hands SET ended_at = ? WHERE hand_id = ?",
                    (at, table.current_hand_id),
                )
            await _exec(conn, "DELETE FROM table_players WHERE table_id = ?", (table_id,))
            await _exec(
                conn,
                "UPDATE tables SET status = 'closed', chips_on_table = 0, current_hand_id = NULL, "
                "state = coalesce(?, state), updated_at = ?, closed_at = ? WHERE table_id = ?",
                (state_json, at, at, table_id),
            )
            return entries

        return await self._run(body)

    # ---------------------------------------------------------------- hands

    async def start_hand(
        self,
        table_id: int,
        *,
        variant: str,
        variant_name: str,
        commitment: str,
        salt: str,
        deck: str,
        state_json: str,
        chips_on_table: int,
        seat_stacks: Mapping[int, int],
        new_events: Sequence[HandEventIn] = (),
        now: float | None = None,
    ) -> Hand:
        """Record a new hand (numbered 1, 2, ... per table) as the table's current hand, with
        its commitment, salt and deck, and save the snapshot and first events with it.

        The salt and deck stay unreadable until the hand ends. Raises :class:`HandInProgress`
        if the table's previous hand has not ended.
        """
        _int("table_id", table_id)
        for name, text in (("variant", variant), ("variant_name", variant_name)):
            if not isinstance(text, str) or not text:
                raise InvalidArgument(f"{name} must be a non-empty string")
        _commitment(commitment)
        for name, text in (("salt", salt), ("deck", deck)):
            if not isinstance(text, str) or not text:
                raise InvalidArgument(f"{name} must be a non-empty string")
        _json("state_json", state_json)
        _int("chips_on_table", chips_on_table, 0)
        seats = _seats(seat_stacks, chips_on_table)
        events = _events(new_events)
        at = _clock(now)

        async def body(conn: aiosqlite.Connection) -> Hand:
            table = await self._table(conn, table_id)
            if table.current_hand_id is not None:
                raise HandInProgress(
                    table.current_hand_id,
                    f"table {table_id} already has hand {table.current_hand_id} in progress",
                )
            _check_chips(table, table.chips_on_table, chips_on_table)
            r = await _row(
                conn,
                "INSERT INTO hands (table_id, guild_id, number, variant, variant_name, "
                "commitment, salt, deck, started_at) VALUES (?, ?, "
                "(SELECT coalesce(max(number), 0) + 1 FROM hands WHERE table_id = ?), "
                f"?, ?, ?, ?, ?, ?) RETURNING {_HAND_COLUMNS}",
                (
                    table_id,
                    table.guild_id,
                    table_id,
                    variant,
                    variant_name,
                    commitment,
                    salt,
                    deck,
                    at,
                ),
            )
            hand = _hand(r)
            await _exec(
                conn,
                "UPDATE tables SET current_hand_id = ? WHERE table_id = ?",
                (hand.hand_id, table_id),
            )
            await self._save(
                conn, table, state_json, chips_on_table, seats, events, at, hand.hand_id
            )
            return hand

        return await self._run(body)

    async def record_hand_result(
        self,
        guild_id: int,
        table_id: int,
        hand_id: int,
        per_player: Sequence[PlayerHandResult],
        *,
        result_json: str,
        pot: int,
        state_json: str,
        chips_on_table: int,
        seat_stacks: Mapping[int, int],
        new_events: Sequence[HandEventIn] = (),
        carried: int = 0,
        now: float | None = None,
    ) -> Hand:
        """End the table's current hand: store its last events, result and pot, update every
        player's stats and save the snapshot, in one transaction.

        ``per_player`` lists everyone dealt in. Chips can stay in the middle from one deal to
        the next (a passed-out deal, trips not reached, Diablo's new pot): ``carried`` is the
        change in those chips over this hand (positive when the hand left chips in the middle,
        negative when it paid out chips carried in), and the players' ``net`` values must add
        up to ``-carried``.
        ``best_hand_score`` is higher-is-better (None when the hand was not shown). Raises
        :class:`NoHandInProgress` unless ``hand_id`` is the table's current hand.
        """
        _int("guild_id", guild_id)
        _int("table_id", table_id)
        _int("hand_id", hand_id)
        _json("result_json", result_json)
        _int("pot", pot, 0)
        _json("state_json", state_json)
        _int("chips_on_table", chips_on_table, 0)
        seats = _seats(seat_stacks, chips_on_table)
        events = _events(new_events)
        at = _clock(now)
        players: list[PlayerHandResult] = []
        for p in per_player:
            p = PlayerHandResult(*p)
            _int("user_id", p.user_id)
            _int("net", p.net)
            _int("pot_won", p.pot_won, 0)
            if not isinstance(p.won, bool):
                raise InvalidArgument(f"won must be a bool, got {p.won!r}")
            if p.best_hand_score is not None:
                _int("best_hand_score", p.best_hand_score)
            players.append(p)
        if len({p.user_id for p in players}) != len(players):
            raise InvalidArgument("per_player lists a member twice")
        _int("carried", carried)
        if sum(p.net for p in players) != -carried:
            raise InvalidArgument(
                f"the players' nets add up to {sum(p.net for p in players)}, not {-carried} "
                f"(the change in chips carried between deals)"
            )

        async def body(conn: aiosqlite.Connection) -> Hand:
            table = await self._table(conn, table_id, guild_id)
            if table.current_hand_id != hand_id:
                raise NoHandInProgress(
                    table_id, f"hand {hand_id} is not the current hand of table {table_id}"
                )
            _check_chips(table, table.chips_on_table, chips_on_table)
            await self._append_events(conn, table_id, hand_id, events, at)
            r = await _row(
                conn,
                f"UPDATE hands SET ended_at = ?, result = ?, pot = ? WHERE hand_id = ? "
                f"RETURNING {_HAND_COLUMNS}",
                (at, result_json, pot, hand_id),
            )
            await _exec(
                conn, "UPDATE tables SET current_hand_id = NULL WHERE table_id = ?", (table_id,)
            )
            await self._save(conn, table, state_json, chips_on_table, seats, [], at, None)
            try:
                await conn.executemany(
                    _STATS_UPSERT,
                    [
                        (
                            guild_id,
                            p.user_id,
                            int(p.won),
                            p.net,
                            p.pot_won,
                            p.best_hand_score,
                            p.best_hand_name,
                            hand_id if p.best_hand_score is not None else None,
                            at,
                        )
                        for p in players
                    ],
                )
            except sqlite3.IntegrityError as exc:
                raise InvalidArgument(
                    f"every player in per_player needs an account in server {guild_id} ({exc})"
                ) from exc
            return _hand(r)

        return await self._run(body)

    async def get_hand(self, hand_id: int) -> Hand:
        """A hand's public record. Raises :class:`HandNotFound`."""
        _int("hand_id", hand_id)

        async def body(conn: aiosqlite.Connection) -> Hand:
            r = await _row(conn, f"SELECT {_HAND_COLUMNS} FROM hands WHERE hand_id = ?", (hand_id,))
            if r is None:
                raise HandNotFound(hand_id)
            return _hand(r)

        return await self._run(body, write=False)

    async def list_hands(self, table_id: int, *, offset: int = 0, limit: int = 10) -> Page[Hand]:
        """A table's hands, newest first."""
        _int("table_id", table_id)
        _page(offset, limit)

        async def body(conn: aiosqlite.Connection) -> Page[Hand]:
            total = (
                await _row(conn, "SELECT count(*) FROM hands WHERE table_id = ?", (table_id,))
            )[0]
            rows = await _rows(
                conn,
                f"SELECT {_HAND_COLUMNS} FROM hands WHERE table_id = ? "
                "ORDER BY number DESC LIMIT ? OFFSET ?",
                (table_id, limit, offset),
            )
            return Page(tuple(_hand(r) for r in rows), total, offset, limit)

        return await self._run(body, write=False)

    async def hand_events(
        self, hand_id: int, *, allow_in_progress: bool = False
    ) -> list[HandEvent]:
        """A hand's events in ``seq`` order. Raises :class:`HandInProgress` for a hand still
        being played unless ``allow_in_progress`` (events may reveal private cards)."""
        _int("hand_id", hand_id)

        async def body(conn: aiosqlite.Connection) -> list[HandEvent]:
            r = await _row(conn, "SELECT ended_at FROM hands WHERE hand_id = ?", (hand_id,))
            if r is None:
                raise HandNotFound(hand_id)
            if r[0] is None and not allow_in_progress:
                raise HandInProgress(hand_id)
            rows = await _rows(
                conn,
                "SELECT hand_id, seq, event, created_at FROM hand_events WHERE hand_id = ? "
                "ORDER BY seq",
                (hand_id,),
            )
            return [HandEvent(x[0], x[1], x[2], float(x[3])) for x in rows]

        return await self._run(body, write=False)

    async def hand_secrets(self, hand_id: int) -> HandSecrets:
        """The salt and deck order of a FINISHED hand, to verify its commitment. Raises
        :class:`HandInProgress` while the hand is being played."""
        _int("hand_id", hand_id)

        async def body(conn: aiosqlite.Connection) -> HandSecrets:
            r = await _row(
                conn,
                "SELECT commitment, salt, deck, ended_at FROM hands WHERE hand_id = ?",
                (hand_id,),
            )
            if r is None:
                raise HandNotFound(hand_id)
            if r["ended_at"] is None:
                raise HandInProgress(
                    hand_id, f"hand {hand_id} is still in progress; its deck stays secret"
                )
            return HandSecrets(hand_id, r["commitment"], r["salt"], r["deck"])

        return await self._run(body, write=False)

    # ---------------------------------------------------------------- stats & leaderboard

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """The member's poker stats in the server (zeros if they never played)."""
        _int("guild_id", guild_id)
        _int("user_id", user_id)

        async def body(conn: aiosqlite.Connection) -> PlayerStats:
            r = await _row(
                conn,
                "SELECT * FROM player_stats WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            if r is None:
                return PlayerStats(guild_id, user_id, 0, 0, 0, 0, None, None, None, None)
            return PlayerStats(
                r["guild_id"],
                r["user_id"],
                r["hands_played"],
                r["hands_won"],
                r["net_chips"],
                r["biggest_pot"],
                r["best_hand_score"],
                r["best_hand_name"],
                r["best_hand_id"],
                float(r["updated_at"]),
            )

        return await self._run(body, write=False)

    async def leaderboard(
        self, guild_id: int, *, offset: int = 0, limit: int = 10
    ) -> Page[LeaderboardEntry]:
        """Members ranked by bankroll + stacks at open tables (ties by user id)."""
        _int("guild_id", guild_id)
        _page(offset, limit)

        async def body(conn: aiosqlite.Connection) -> Page[LeaderboardEntry]:
            total = (
                await _row(conn, "SELECT count(*) FROM accounts WHERE guild_id = ?", (guild_id,))
            )[0]
            rows = await _rows(
                conn,
                "SELECT a.user_id, a.balance, coalesce(t.chips, 0) AS on_tables, "
                "a.balance + coalesce(t.chips, 0) AS total "
                "FROM accounts AS a LEFT JOIN ("
                "  SELECT user_id, sum(stack) AS chips FROM table_players WHERE guild_id = ? "
                "  GROUP BY user_id) AS t ON t.user_id = a.user_id "
                "WHERE a.guild_id = ? ORDER BY total DESC, a.user_id LIMIT ? OFFSET ?",
                (guild_id, guild_id, limit, offset),
            )
            entries = tuple(
                LeaderboardEntry(offset + i + 1, r[0], r[1], r[2], r[3]) for i, r in enumerate(rows)
            )
            return Page(entries, total, offset, limit)

        return await self._run(body, write=False)

    # ---------------------------------------------------------------- audit

    async def chip_audit(self, guild_id: int | None = None) -> ChipAudit:
        """Check conservation of chips for one server, or all servers if ``guild_id`` is None.

        See :class:`ChipAudit`; ``.ok`` must always be True. Reads the whole ledger: meant for
        tests, admin commands and start-up checks, not for every action.
        """
        if guild_id is not None:
            _int("guild_id", guild_id)
        # "?1 IS NULL OR guild_id = ?1": one statement for both scopes.
        scope = (guild_id,)

        async def body(conn: aiosqlite.Connection) -> ChipAudit:
            issued, removed = await _row(
                conn,
                "SELECT coalesce(sum(CASE WHEN delta > 0 THEN delta END), 0), "
                "       coalesce(-sum(CASE WHEN delta < 0 THEN delta END), 0) "
                "FROM ledger WHERE (?1 IS NULL OR guild_id = ?1) "
                "AND kind IN (SELECT kind FROM ledger_kinds WHERE supply = 1)",
                scope,
            )
            bankrolls = (
                await _row(
                    conn,
                    "SELECT coalesce(sum(balance), 0) FROM accounts "
                    "WHERE ?1 IS NULL OR guild_id = ?1",
                    scope,
                )
            )[0]
            on_tables = (
                await _row(
                    conn,
                    "SELECT coalesce(sum(chips_on_table), 0) FROM tables "
                    "WHERE ?1 IS NULL OR guild_id = ?1",
                    scope,
                )
            )[0]
            # Each balance must be the sum of its ledger rows and its last row's balance_after.
            accounts_off = await _rows(
                conn,
                "SELECT a.guild_id, a.user_id FROM accounts AS a "
                "LEFT JOIN (SELECT guild_id, user_id, sum(delta) AS total, "
                "                  max(entry_id) AS last_entry "
                "           FROM ledger WHERE ?1 IS NULL OR guild_id = ?1 "
                "           GROUP BY guild_id, user_id) AS l "
                "       ON l.guild_id = a.guild_id AND l.user_id = a.user_id "
                "LEFT JOIN ledger AS e ON e.entry_id = l.last_entry "
                "WHERE (?1 IS NULL OR a.guild_id = ?1) AND (l.total IS NULL "
                "       OR a.balance != l.total OR a.balance != e.balance_after) "
                "ORDER BY a.guild_id, a.user_id",
                scope,
            )
            # Each table must hold its buy-ins and top-ups minus its cash-outs.
            tables_off = await _rows(
                conn,
                "SELECT t.table_id FROM tables AS t "
                "LEFT JOIN (SELECT table_id, -sum(delta) AS net FROM ledger "
                "           WHERE table_id IS NOT NULL "
                "           AND kind IN (SELECT kind FROM ledger_kinds WHERE supply = 0) "
                "           GROUP BY table_id) AS l ON l.table_id = t.table_id "
                "WHERE (?1 IS NULL OR t.guild_id = ?1) AND t.chips_on_table != coalesce(l.net, 0) "
                "ORDER BY t.table_id",
                scope,
            )
            return ChipAudit(
                guild_id,
                issued,
                removed,
                bankrolls,
                on_tables,
                tuple((r[0], r[1]) for r in accounts_off),
                tuple(r[0] for r in tables_off),
            )

        return await self._run(body, write=False)


_STATS_UPSERT: Final = """
INSERT INTO player_stats (guild_id, user_id, hands_played, hands_won, net_chips, biggest_pot,
                          best_hand_score, best_hand_name, best_hand_id, updated_at)
VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
ON CONFLICT (guild_id, user_id) DO UPDATE SET
    hands_played = hands_played + 1,
    hands_won = hands_won + excluded.hands_won,
    net_chips = net_chips + excluded.net_chips,
    biggest_pot = max(biggest_pot, excluded.biggest_pot),
    best_hand_score = CASE WHEN excluded.best_hand_score > coalesce(best_hand_score, -1e308)
                      THEN excluded.best_hand_score ELSE best_hand_score END,
    best_hand_name = CASE WHEN excluded.best_hand_score > coalesce(best_hand_score, -1e308)
                     THEN excluded.best_hand_name ELSE best_hand_name END,
    best_hand_id = CASE WHEN excluded.best_hand_score > coalesce(best_hand_score, -1e308)
                   THEN excluded.best_hand_id ELSE best_hand_id END,
    updated_at = excluded.updated_at
"""


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a transaction task's exception as retrieved (its caller may have been cancelled)."""
    if not task.cancelled():
        task.exception()
