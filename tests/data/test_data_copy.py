"""``python -m data.copy``: an SQLite database moved into PostgreSQL row for row, ids kept,
sequences moved on, audited on both sides; and the cases it refuses."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from data import Database, TableSave
from data.copy import TABLES, CopyRefused, copy
from tests.data.helpers import ADMIN, GUILD, seat_players, start_hand, state
from tests.data.test_data_invariants import Walk
from tests.pg import PgServer

ROOT = Path(__file__).resolve().parents[2]

KEYS = {
    "guild_settings": "guild_id",
    "accounts": "guild_id, user_id",
    "tables": "table_id",
    "hands": "hand_id",
    "table_players": "table_id, user_id",
    "hand_events": "hand_id, seq",
    "ledger": "entry_id",
    "admin_log": "log_id",
    "player_stats": "guild_id, user_id",
    "player_preferences": "user_id",
    "tournaments": "tournament_id",
    "tournament_results": "tournament_id, user_id",
    "seasons": "season_id",
    "season_standings": "season_id, user_id",
    "scheduled_games": "schedule_id",
    "member_locales": "user_id",
    "guild_languages": "guild_id",
}


async def busy_sqlite(path: Path) -> None:
    """A file with a bit of everything: a random walk's history, a hand still being played
    (a table pointing at its current hand), preferences and settings."""
    db = await Database.open(path)
    try:
        await Walk(db, seed=5).run(150)
        table = await db.create_table(GUILD, 4242, ADMIN, '{"game": "draw"}')
        stacks = await seat_players(db, table, {5: 100, 6: 80})
        await start_hand(db, table, stacks)
        await db.set_preferences(5, notify=False, now=3.0)
        # Tournaments: one finished in a closed season, one running with a table.
        await db.start_season(GUILD, "first", [3, 1])
        done = await db.create_tournament(GUILD, 5151, ADMIN, "{}", "{}")
        for user in (5, 6):
            await db.tournament_pay_in(done.tournament_id, user, 10, "{}")
        await db.finish_tournament(done.tournament_id, [(5, 1, 20), (6, 2, 0)], "{}")
        await db.end_season(GUILD, ADMIN)
        running = await db.create_tournament(GUILD, 5252, ADMIN, "{}", "{}")
        await db.tournament_pay_in(running.tournament_id, 5, 10, "{}")
        await db.save_tournament(running.tournament_id, "running", "{}", started_at=1.0)
        played = await db.create_tournament_table(running.tournament_id, 5252, "{}", "{}")
        await db.seat_tournament_table(played.table_id, TableSave("{}", 300, {5: 300}))
        await db.schedule_game(GUILD, 5353, ADMIN, "table", "{}", 2e9)
        await db.update_settings(GUILD, ADMIN, daily_amount=55, note="more")
        await db.set_member_locale(5, "pl", now=4.0)
        await db.set_member_locale(6, "pt-BR", now=4.5)
        await db.set_guild_locale(GUILD, "fr", now=5.0)
        await db.set_guild_language(GUILD, "de", ADMIN, now=6.0)
    finally:
        await db.close()


def sqlite_rows(path: Path, table: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as raw:
        return [tuple(r) for r in raw.execute(f"SELECT * FROM {table} ORDER BY {KEYS[table]}")]


async def pg_rows(url: str, table: str) -> list[tuple[Any, ...]]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(f"SELECT * FROM {table} ORDER BY {KEYS[table]}")]
    finally:
        await conn.close()


async def test_every_row_is_copied_and_audited(tmp_path: Path, pg_server: PgServer) -> None:
    path = tmp_path / "poker.db"
    await busy_sqlite(path)
    url = await pg_server.create_database()
    try:
        said: list[str] = []
        report = await copy(str(path), url, say=said.append)
        assert report.source.ok and report.target.ok
        assert report.target.circulating == report.source.circulating > 0
        assert len(said) == 2 and all("OK" in line for line in said)
        for table in TABLES:
            source = sqlite_rows(path, table)
            assert source or table in ("table_players",), table  # the walk made rows
            assert await pg_rows(url, table) == source, table
            assert report.rows[table] == len(source)

        # The copy is a working database: new rows get fresh ids, the open hand goes on.
        db = await Database.open(url)
        try:
            highest = max(r[0] for r in sqlite_rows(path, "tables"))
            fresh = await db.create_table(GUILD, 777, ADMIN, "{}")
            assert fresh.table_id == highest + 1
            entry = await db.admin_grant(GUILD, ADMIN, 5, 1)
            assert entry.entry_id == max(r[0] for r in sqlite_rows(path, "ledger")) + 1
            playing = next(t for t in await db.open_tables() if t.channel_id == 4242)
            assert playing.current_hand_id is not None
            await db.save_table_state(playing.table_id, TableSave(state(), 180, {5: 90, 6: 90}))
            assert (await db.chip_audit()).ok
        finally:
            await db.close()

        with pytest.raises(CopyRefused, match="already holds rows"):
            await copy(str(path), url)
    finally:
        await pg_server.drop_database(url)


async def test_refusals_change_nothing(tmp_path: Path, pg_server: PgServer) -> None:
    url = await pg_server.create_database()
    try:
        with pytest.raises(CopyRefused, match="no SQLite file"):
            await copy(str(tmp_path / "missing.db"), url)
        with pytest.raises(CopyRefused, match="postgresql://"):
            await copy(str(tmp_path / "missing.db"), str(tmp_path / "other.db"))

        path = tmp_path / "poker.db"
        db = await Database.open(path)
        await db.admin_grant(GUILD, ADMIN, 5, 10)
        await db.close()
        with sqlite3.connect(path) as raw:  # chips made behind the ledger's back
            raw.execute("UPDATE accounts SET balance = balance + 1")
        with pytest.raises(CopyRefused, match="does not balance"):
            await copy(str(path), url)
        conn = await asyncpg.connect(url)
        try:  # refused before the target was even opened
            assert await conn.fetchval("SELECT to_regclass('ledger')") is None
        finally:
            await conn.close()
    finally:
        await pg_server.drop_database(url)


async def test_the_command_line(tmp_path: Path, pg_server: PgServer) -> None:
    path = tmp_path / "poker.db"
    await busy_sqlite(path)
    url = await pg_server.create_database()
    # The throwaway server trusts 127.0.0.1, so any password is accepted: it must not show.
    with_password = url.replace("postgres@", "postgres:hunter2@")
    try:
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "data.copy", "--from", f"sqlite:{path}", "--to", with_password],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "chip audit identical" in done.stdout
        assert "hunter2" not in done.stdout + done.stderr
        again = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "data.copy", "--from", str(path), "--to", with_password],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert again.returncode == 1 and "already holds rows" in again.stderr
        assert "hunter2" not in again.stdout + again.stderr
    finally:
        await pg_server.drop_database(url)
