"""What only PostgreSQL has to prove: its schema enforces history as SQLite's does, its
migrations run once however many processes start, several processes can write the same rows
without losing or making a chip, and a table has one owning process at a time.

(Every other data test runs on PostgreSQL too, through the ``db`` fixture.)
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from data import Database, DataError, InvalidArgument, SchemaError, TableSave
from data.migrations import Migration, load_migrations
from data.postgres import PostgresBackend, numbered, redacted
from tests.data.helpers import ADMIN, GUILD, seat_players, start_hand, state
from tests.pg import PgServer

ROOT = Path(__file__).resolve().parents[2]


def test_both_dialects_have_the_same_migrations() -> None:
    """A migration added for one backend without its twin for the other fails here."""
    sqlite = [(m.version, m.name) for m in load_migrations("sqlite")]
    postgres = [(m.version, m.name) for m in load_migrations("postgres")]
    assert sqlite == postgres
    with pytest.raises(SchemaError, match="dialect"):
        load_migrations("oracle")  # type: ignore[arg-type]


def test_placeholders_and_redaction() -> None:
    assert numbered("SELECT ? , ?") == "SELECT $1 , $2"
    assert numbered("SELECT 1") == "SELECT 1"
    assert "s3cret" not in redacted("postgresql://u:s3cret@h:5/d")


async def test_history_is_tamper_proof_in_postgres(pg_url: str) -> None:
    """The append-only rules hold for anyone with a connection, not only for this code."""
    db = await Database.open(pg_url)
    try:
        table = await db.create_table(GUILD, 100, ADMIN, "{}")
        stacks = await seat_players(db, table, {5: 100, 6: 100})
        hand = await start_hand(db, table, stacks)
        await db.admin_grant(GUILD, ADMIN, 5, 10)
    finally:
        await db.close()
    raw = await asyncpg.connect(pg_url)
    try:
        for statement in (
            "UPDATE ledger SET delta = delta + 1",
            "DELETE FROM ledger",
            "TRUNCATE ledger CASCADE",
            "UPDATE admin_log SET note = 'x'",
            "DELETE FROM admin_log",
            "UPDATE hand_events SET event = '{}'",
            "DELETE FROM hand_events",
            "TRUNCATE hand_events",
            "UPDATE hands SET deck = 'other'",
        ):
            with pytest.raises(asyncpg.IntegrityConstraintViolationError):
                await raw.execute(statement)
        await raw.execute("UPDATE hands SET ended_at = 1 WHERE hand_id = $1", hand.hand_id)
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="finished"):
            await raw.execute("UPDATE hands SET pot = 5 WHERE hand_id = $1", hand.hand_id)
        with pytest.raises(asyncpg.CheckViolationError):
            await raw.execute("UPDATE tables SET config = '{not json'")
        assert await raw.fetchval("SELECT count(*) FROM ledger") == 5
        await raw.execute("ALTER TABLE ledger DISABLE TRIGGER ledger_no_update")
    finally:
        await raw.close()
    db = await Database.open(pg_url)
    try:
        assert await db.check_integrity() == ["trigger ledger_no_update is disabled"]
    finally:
        await db.close()


async def test_the_audit_finds_chips_moved_behind_the_ledgers_back(pg_url: str) -> None:
    db = await Database.open(pg_url)
    try:
        table = await db.create_table(1, 101, ADMIN, "{}")
        await seat_players(db, table, {11: 100, 12: 50})
        await db.balance(2, 12)
        assert (await db.chip_audit()).ok
        raw = await asyncpg.connect(pg_url)
        try:
            await raw.execute("UPDATE accounts SET balance = balance + 5 WHERE guild_id = 2")
            await raw.execute("UPDATE tables SET chips_on_table = chips_on_table - 1")
        finally:
            await raw.close()
        audit = await db.chip_audit()
        assert (audit.accounts_off, audit.tables_off) == (((2, 12),), (table.table_id,))
        assert (audit.circulating, audit.bankrolls, audit.on_tables) == (3000, 2855, 149)
        assert all(type(x) is int for x in (audit.circulating, audit.bankrolls))
    finally:
        await db.close()


async def test_migrations_run_once_however_many_processes_start(pg_server: PgServer) -> None:
    url = await pg_server.create_database()
    try:
        opened = await asyncio.gather(*(Database.open(url) for _ in range(4)))
        for db in opened:
            assert await db.schema_version() == len(load_migrations("postgres"))
            await db.close()
        raw = await asyncpg.connect(url)
        try:
            rows = await raw.fetch("SELECT version, name FROM schema_migrations ORDER BY 1")
        finally:
            await raw.close()
        assert [(r[0], r[1]) for r in rows] == [
            (m.version, m.name) for m in load_migrations("postgres")
        ]
    finally:
        await pg_server.drop_database(url)


async def test_a_failed_migration_rolls_back_and_a_newer_schema_is_refused(
    pg_url: str,
) -> None:
    shipped = list(load_migrations("postgres"))
    broken = Migration(
        len(shipped) + 1, "broken", "CREATE TABLE half_done (x INTEGER); SELECT 1/0;"
    )
    with pytest.raises(SchemaError, match="broken"):
        await Database.open(pg_url, migrations=[*shipped, broken])
    db = await Database.open(pg_url)
    try:
        assert await db.schema_version() == len(shipped)
        assert await db._backend.run(
            lambda tx: tx.fetch_one("SELECT to_regclass('half_done') IS NULL"), write=False
        ) == (True,)
    finally:
        await db.close()
    with pytest.raises(SchemaError, match="only knows up to 1"):
        await Database.open(pg_url, migrations=shipped[:1])


async def test_an_unreachable_server_is_a_clear_error_without_the_password() -> None:
    with pytest.raises(DataError) as caught:
        await Database.open("postgresql://bot:s3cret@127.0.0.1:1/poker")
    assert "127.0.0.1:1" in str(caught.value) and "s3cret" not in str(caught.value)


async def test_a_table_has_one_owner_at_a_time(pg_url: str) -> None:
    first, second = await Database.open(pg_url), await Database.open(pg_url)
    try:
        a = await first.create_table(GUILD, 100, ADMIN, "{}")
        b = await first.create_table(GUILD, 101, ADMIN, "{}")
        claim = await first.claim_tables("shard 0", [a.table_id, b.table_id])
        assert claim.claimed == (a.table_id, b.table_id) and not claim.refused
        assert (await first.claim_tables("shard 0", [a.table_id])).claimed == (a.table_id,)

        refused = await second.claim_tables("shard 1", [a.table_id, b.table_id])
        assert refused.claimed == ()
        assert set(refused.refused) == {a.table_id, b.table_id}
        assert refused.refused[a.table_id].startswith("shard 0 ")

        await first.release_tables([a.table_id])
        assert first.owned_tables() == {b.table_id}
        again = await second.claim_tables("shard 1", [a.table_id, b.table_id])
        assert again.claimed == (a.table_id,) and set(again.refused) == {b.table_id}

        await first.close_table(b.table_id, {})  # a closed table is let go
        assert first.owned_tables() == set()
        again = await second.claim_tables("shard 1", [b.table_id])
        assert again.claimed == (b.table_id,)
        await second.release_tables([b.table_id])
        await first.claim_tables("shard 0", [b.table_id])

        await first.close()  # a closed (or dead) process owns nothing
        assert (await second.claim_tables("shard 1", [b.table_id])).claimed == (b.table_id,)
        with pytest.raises(InvalidArgument):
            await second.claim_tables("", [b.table_id])
        with pytest.raises(InvalidArgument):
            await second.claim_tables("shard 1", [0])
    finally:
        await first.close()
        await second.close()


async def test_a_killed_process_loses_its_tables(pg_url: str) -> None:
    db = await Database.open(pg_url)
    try:
        table = await db.create_table(GUILD, 100, ADMIN, "{}")
        child = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import asyncio, sys\n"
                "from data import Database\n"
                "async def main():\n"
                "    db = await Database.open(sys.argv[1])\n"
                "    claim = await db.claim_tables('doomed', [int(sys.argv[2])])\n"
                "    print(len(claim.claimed), flush=True)\n"
                "    await asyncio.sleep(60)\n"
                "asyncio.run(main())\n",
                pg_url,
                str(table.table_id),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
        )
        try:
            assert child.stdout is not None
            line = await asyncio.get_running_loop().run_in_executor(None, child.stdout.readline)
            assert line.strip() == b"1"
            refused = await db.claim_tables("survivor", [table.table_id])
            assert refused.refused[table.table_id].startswith("doomed ")
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        for _ in range(100):  # the server notices the dropped connection at once, or nearly
            claim = await db.claim_tables("survivor", [table.table_id])
            if claim.claimed:
                break
            await asyncio.sleep(0.05)
        assert claim.claimed == (table.table_id,)
    finally:
        await db.close()


async def test_two_processes_writing_the_same_rows_lose_and_make_no_chip(pg_url: str) -> None:
    """Two OS processes hammer the same six bankrolls and the same two tables (grants,
    removals, dailies, buy-ins, cash-outs, snapshots) and create the same new members'
    accounts, each reading then writing: afterwards
    every bankroll is its ledger, every table its buy-ins less its cash-outs, and the chips in
    circulation are exactly what the processes say they committed."""
    db = await Database.open(pg_url)
    try:
        for channel in (900, 901):
            table = await db.create_table(7, channel, ADMIN, "{}")
            await seat_players(db, table, {100: 50, 101: 50})
        for user in range(100, 106):
            await db.balance(7, user)
        before = await db.chip_audit(7)
        assert before.ok
        start_at = time.time() + 1.5
        children = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.data.pg_writer",
                    pg_url,
                    str(seed),
                    "300",
                    str(start_at),
                ],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
            for seed in (1, 2)
        ]
        loop = asyncio.get_running_loop()
        outputs = [await loop.run_in_executor(None, c.communicate, None, 240) for c in children]
        for child, (_, err) in zip(children, outputs, strict=True):
            assert child.returncode == 0, err.decode()[-3000:]
        reports = [json.loads(out) for out, _ in outputs]
        audit = await db.chip_audit(7)
        assert audit.ok, audit
        newcomers = sum(
            1 for e in (await db.leaderboard(7, limit=100)).items if 500 <= e.user_id < 540
        )
        assert newcomers > 20, newcomers
        issued = sum(r["issued"] for r in reports) + 1000 * newcomers
        assert audit.circulating == before.circulating + issued, (audit, reports)
        assert sum(r["ok"] for r in reports) > 300, reports  # most operations went through
        # The two really collided: the server sent transactions back to run again.
        assert sum(r["retries"] for r in reports) > 0, reports
        ledger_rows = await db.ledger(7, limit=1)
        assert ledger_rows.total > 300
    finally:
        await db.close()


async def test_retries_are_invisible_to_callers(pg_url: str) -> None:
    """Many coroutines of one process on one bankroll and one table: conflicts are retried,
    every call lands once."""
    db = await Database.open(pg_url)
    try:
        table = await db.create_table(GUILD, 100, ADMIN, "{}")
        stacks = await seat_players(db, table, {5: 100, 6: 100})
        await asyncio.gather(
            *(db.admin_grant(GUILD, ADMIN, 5, 1) for _ in range(60)),
            *(
                db.save_table_state(table.table_id, TableSave(state(i=i), 200, stacks))
                for i in range(60)
            ),
        )
        assert await db.balance(GUILD, 5) == 1000 - 100 + 60
        assert (await db.chip_audit()).ok
        backend = db._backend
        assert isinstance(backend, PostgresBackend)
        assert backend.retries > 0
    finally:
        await db.close()


def test_database_url_selects_postgresql() -> None:
    from cogs.config import Settings, SettingsError

    base = {"DISCORD_TOKEN": "t", "DATABASE_PATH": "/tmp/x.db"}
    assert Settings.from_env(base).database == "/tmp/x.db"
    url = "postgresql://bot:pw@127.0.0.1/poker"
    assert Settings.from_env({**base, "DATABASE_URL": url}).database == url
    with pytest.raises(SettingsError, match="DATABASE_URL"):
        Settings.from_env({**base, "DATABASE_URL": "mysql://x"})
