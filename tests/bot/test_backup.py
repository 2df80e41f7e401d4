"""Backups and restore, as a host would do them.

``python bot.py backup PATH`` runs as its own process while the bot plays, mid-hand at a cash
table and at a tournament table; the backup is restored (copied to a fresh DATABASE_PATH, as
docs/hosting/backups.md says) and a fresh bot started on it: every row is as it was when the
backup was taken (balances, ledger, tables, hands, tournaments), and both tables play on. A
backup that cannot be written is logged once per attempt, with the reason, and the bot plays on.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from cogs.app import create_bot
from cogs.config import Settings
from data.backup import Backups, backups_in
from tests.bot.driver import act_once, create_table, deal, live_table, opener
from tests.emulator import Emulator, World
from tests.emulator.plugin import StartBot
from tests.pg import PgServer, pg_server

__all__ = ["pg_server"]  # a fixture

REPO = Path(__file__).resolve().parents[2]


def _dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the SQLite database at ``path``, in a stable order."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        return {n: sorted(conn.execute(f"SELECT * FROM {n}"), key=repr) for n in names}
    finally:
        conn.close()


async def _pg_dump(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """:func:`_dump` of a PostgreSQL database."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        names = [
            r[0]
            for r in await conn.fetch(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1"
            )
        ]
        return {
            n: sorted((tuple(r.values()) for r in await conn.fetch(f"SELECT * FROM {n}")), key=repr)
            for n in names
        }
    finally:
        await conn.close()


async def _run(*argv: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        *argv,
        cwd=REPO,
        env={"PATH": "/usr/bin:/bin", **(env or {})},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode()


async def _backup_command(database: Path, *args: str) -> tuple[int, str]:
    """``python bot.py backup ARGS`` as a process of its own (the bot keeps running here)."""
    env = {"PATH": "/usr/bin:/bin", "DATABASE_PATH": str(database)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "bot.py",
        "backup",
        *args,
        cwd=REPO,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode()


async def _act_until(emu: Emulator, world: World, bot: Any, done: Any, limit: int = 80) -> None:
    for _ in range(limit):
        await emu.idle()
        live = live_table(bot, world)
        if done(live):
            return
        await act_once(emu, world, bot, live.engine.pending[0], policy=opener)
    raise AssertionError("the table did not get there")


async def test_a_backup_taken_mid_hand_restores_everything_and_play_goes_on(
    poker_bot, start_bot: StartBot, emu: Emulator, world: World, db_path: Path, tmp_path: Path
) -> None:
    bot = await poker_bot()
    alice, bob, carol, dave = world.players[:4]
    await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    # A sit-and-go in a second channel: it deals as soon as it is full.
    hall = emu.add_text_channel(world.guild, "tourney")
    cup = World(world.guild, hall, world.host, [dave, world.host, carol])
    lobby = await emu.run_command(
        dave,
        hall,
        "poker tournament create",
        {"buy_in": 100, "starting_stack": 40, "seats": 3, "payouts": "100", "auto_deal": 0},
    )
    assert lobby.type == 4 and not lobby.ephemeral, lobby.content
    for player in cup.players:
        r = await emu.click(player, lobby.message, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    assert live_table(bot, cup).engine.in_hand
    await deal(emu, world, alice)
    await act_once(emu, world, bot, live_table(bot, world).engine.pending[0], policy=opener)
    await act_once(emu, cup, bot, live_table(bot, cup).engine.pending[0], policy=opener)
    await emu.idle()
    cash_hand = live_table(bot, world).engine.hand_number
    assert live_table(bot, world).engine.in_hand and live_table(bot, cup).engine.in_hand
    at_backup = _dump(db_path)

    backup = tmp_path / "backups" / "mid-hand.db"
    rc, out = await _backup_command(db_path, str(backup))
    assert rc == 0 and "Backup written" in out and str(backup) in out, out
    assert _dump(backup) == at_backup
    # The bot never stopped: the cash hand is played to its end after the backup.
    await _act_until(emu, world, bot, lambda live: not live.engine.in_hand)
    assert _dump(db_path) != at_backup
    await bot.close()

    # Restore, as docs/hosting/backups.md says: the bot stopped, the backup copied to DATABASE_PATH.
    restored = tmp_path / "restored" / "poker.db"
    restored.parent.mkdir()
    shutil.copyfile(backup, restored)
    config = Settings(token="emulated", database_path=str(restored), press_limit=0)
    fresh = await start_bot(lambda: create_bot(config))
    await emu.idle()
    assert _dump(restored) == at_backup
    assert (await fresh.db.chip_audit(world.guild.id)).ok

    # Both tables play on from where the backup left them.
    assert live_table(fresh, world).engine.hand_number == cash_hand
    await _act_until(emu, world, fresh, lambda live: not live.engine.in_hand)
    await _act_until(emu, cup, fresh, lambda live: not live.engine.in_hand)
    await deal(emu, world, alice)
    assert live_table(fresh, world).engine.hand_number == cash_hand + 1
    await _act_until(emu, world, fresh, lambda live: not live.engine.in_hand)
    assert (await fresh.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()


async def test_automatic_backups_keep_the_last_few_and_a_failure_never_stops_the_bot(
    poker_bot, emu: Emulator, world: World, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "backups"
    bot = await poker_bot(backup_dir=str(folder), backup_keep=2)
    assert bot.backups is not None
    await emu.wait_for(lambda: backups_in(folder), message="the first backup was not taken")
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    for _ in range(3):
        assert await bot.backups.take() is not None
    kept = backups_in(folder)
    assert len(kept) == 2 and not list(folder.glob("*.partial"))
    assert "tables" in _dump(kept[-1]) and len(_dump(kept[-1])["tables"]) == 1

    # The folder cannot be made (a file stands in its place): each attempt is logged once,
    # with the reason, and the table plays on.
    blocked = tmp_path / "blocked"
    blocked.write_text("not a folder")
    failing = Backups(bot.db, blocked / "backups", hours=24, keep=2)
    with caplog.at_level(logging.INFO, logger="poker.backup"):
        assert await failing.take() is None
        assert await failing.take() is None
    errors = [r for r in caplog.records if r.name == "poker.backup" and r.levelno >= logging.ERROR]
    assert len(errors) == 2, [r.getMessage() for r in errors]
    assert all("Not a directory" in r.getMessage() for r in errors), errors[0].getMessage()
    await deal(emu, world, alice)
    await _act_until(emu, world, bot, lambda live: not live.engine.in_hand)
    assert (await bot.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()


async def test_a_full_disk_fails_the_backup_command_with_the_reason(tmp_path: Path) -> None:
    """The command as a host runs it, on a disk that fills up halfway (a file size limit):
    it says why, exits 1, and leaves no partial file behind."""
    from data import Database

    source = tmp_path / "poker.db"
    db = await Database.open(source)
    await db.close()
    target = tmp_path / "full.db"
    script = (
        "import resource, sys, runpy; "
        "resource.setrlimit(resource.RLIMIT_FSIZE, (8192, resource.RLIM_INFINITY)); "
        "sys.argv = ['bot.py', 'backup', sys.argv[1]]; "
        "runpy.run_path('bot.py', run_name='__main__')"
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        str(target),
        cwd=REPO,
        env={"PATH": "/usr/bin:/bin", "DATABASE_PATH": str(source)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out = (await proc.communicate())[0].decode()
    assert proc.returncode == 1, out
    assert "Backup failed: could not write the backup" in out and str(target) in out, out
    assert not target.exists() and not list(tmp_path.glob("*.partial"))


async def test_the_backup_command_reads_a_new_folder_and_refuses_an_empty_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``backup new/folder/`` (a slash at the end: a folder, not there yet) writes a backup
    inside it, not a file of that name; an empty path is refused and writes nothing."""
    from data import Database
    from data.backup import main

    source = tmp_path / "poker.db"
    db = await Database.open(source)
    await db.close()
    folder = tmp_path / "new" / "folder"
    assert await asyncio.to_thread(main, [f"{folder}/"], database=str(source), folder=None) == 0
    (written,) = folder.iterdir()
    assert written.name.startswith("poker-") and written.suffix == ".db"
    before = sorted(tmp_path.rglob("*"))
    assert await asyncio.to_thread(main, [""], database=str(source), folder=None) == 2
    assert "the path is empty" in capsys.readouterr().err
    assert sorted(tmp_path.rglob("*")) == before


async def test_on_postgresql_the_command_shows_the_pg_dump_line() -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "DATABASE_URL": "postgresql://poker:s3cret@127.0.0.1:5432/poker",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "bot.py",
        "backup",
        "nightly.dump",
        cwd=REPO,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out = (await proc.communicate())[0].decode()
    assert proc.returncode == 1, out
    line = "pg_dump --format=custom --file=nightly.dump postgresql://poker@127.0.0.1:5432/poker"
    assert line in out and "s3cret" not in out, out


def test_backup_settings() -> None:
    from cogs.config import SettingsError

    unset = Settings.from_env({"DISCORD_TOKEN": "t"})
    assert (unset.backup_dir, unset.backup_hours, unset.backup_keep) == (None, 24.0, 7)
    chosen = Settings.from_env(
        {"DISCORD_TOKEN": "t", "BACKUP_DIR": " b ", "BACKUP_HOURS": "0.5", "BACKUP_KEEP": "3"}
    )
    assert (chosen.backup_dir, chosen.backup_hours, chosen.backup_keep) == ("b", 0.5, 3)
    assert Settings.from_env({}, need_token=False).token == ""
    for key, value, words in (
        ("BACKUP_HOURS", "0", "BACKUP_HOURS must be a number of hours, at least one minute"),
        ("BACKUP_HOURS", "nan", "BACKUP_HOURS must be a number of hours, at least one minute"),
        ("BACKUP_HOURS", "daily", "BACKUP_HOURS must be a number of hours, at least one minute"),
        ("BACKUP_KEEP", "0", "BACKUP_KEEP must be a whole number of backups"),
        ("BACKUP_KEEP", "-2", "BACKUP_KEEP must be a whole number of backups"),
    ):
        with pytest.raises(SettingsError, match=words):
            Settings.from_env({"DISCORD_TOKEN": "t", key: value})


async def test_on_postgresql_the_printed_pg_dump_line_backs_up_and_pg_restore_restores(
    poker_bot, start_bot: StartBot, emu: Emulator, world: World, pg_server: PgServer, tmp_path: Path
) -> None:
    """The PostgreSQL steps of docs/hosting/backups.md, run as written: the line
    ``python bot.py backup`` prints, taken mid-hand while the bot runs, then pg_restore into a new
    database and a fresh bot."""
    url = await pg_server.create_database()
    bot = await poker_bot(database_url=url)
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await deal(emu, world, alice)
    await act_once(emu, world, bot, live_table(bot, world).engine.pending[0], policy=opener)
    await emu.idle()
    hand = live_table(bot, world).engine.hand_number
    at_backup = await _pg_dump(url)

    dump = tmp_path / "poker.dump"
    rc, out = await _run(sys.executable, "bot.py", "backup", str(dump), env={"DATABASE_URL": url})
    assert rc == 1, out
    line = next(text.strip() for text in out.splitlines() if text.strip().startswith("pg_dump"))
    tool = str(pg_server.bindir / "pg_dump")
    rc, out = await _run(*shlex.split(line.replace("pg_dump", tool, 1)))
    assert rc == 0 and dump.is_file(), out
    await _act_until(emu, world, bot, lambda live: not live.engine.in_hand)
    assert await _pg_dump(url) != at_backup
    await bot.close()

    restored = await pg_server.create_database()
    restore = str(pg_server.bindir / "pg_restore")
    rc, out = await _run(restore, "--no-owner", f"--dbname={restored}", str(dump))
    assert rc == 0, out
    config = Settings(
        token="emulated", database_path="unused.db", database_url=restored, press_limit=0
    )
    fresh = await start_bot(lambda: create_bot(config))
    await emu.idle()
    assert await _pg_dump(restored) == at_backup
    assert live_table(fresh, world).engine.hand_number == hand
    await _act_until(emu, world, fresh, lambda live: not live.engine.in_hand)
    await deal(emu, world, alice)
    await _act_until(emu, world, fresh, lambda live: not live.engine.in_hand)
    assert (await fresh.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()
