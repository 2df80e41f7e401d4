"""Backups of the bot's database: the ``python bot.py backup [PATH]`` command and the folder of
automatic backups (``BACKUP_DIR``, one every ``BACKUP_HOURS``, the last ``BACKUP_KEEP`` kept).

The copy itself is the backend's (:meth:`data.Database.backup`): SQLite's online backup API on
a connection of its own (:func:`data.sqlite.copy_database`), consistent as of one commit while
the bot goes on writing. A PostgreSQL database is backed up with the server's own ``pg_dump``;
the command prints the line (:func:`data.postgres.pg_dump_line`).

Automatic backups are named ``poker-YYYYmmdd-HHMMSS-mmm.db`` (UTC), so that their names sort
by age; only files named so are ever deleted from the folder. The next one is due
``BACKUP_HOURS`` after the newest one there, so restarting the bot neither skips nor repeats
one. A backup that fails is logged once, with the reason, and the bot carries on; the next
attempt comes an interval later.

Restoring is copying a backup file to ``DATABASE_PATH`` while the bot is stopped
(docs/hosting/backups.md has the steps).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from data.db import Database
from data.errors import BackupFailed, DataError
from data.postgres import is_url, pg_dump_line
from data.sqlite import copy_database

log = logging.getLogger("poker.backup")

_NAME = re.compile(r"^poker-\d{8}-\d{6}-\d{3}\.db$")


def backup_name(now: float) -> str:
    """The file name of a backup taken at unix time ``now``.

    >>> backup_name(1764061512.25)
    'poker-20251125-090512-250.db'
    """
    stamp = datetime.fromtimestamp(now, UTC)
    return f"poker-{stamp:%Y%m%d-%H%M%S}-{stamp.microsecond // 1000:03d}.db"


def backups_in(folder: Path) -> list[Path]:
    """The automatic backups in ``folder``, oldest first (their names sort by age)."""
    try:
        return sorted(p for p in folder.iterdir() if _NAME.match(p.name) and p.is_file())
    except (FileNotFoundError, NotADirectoryError):
        return []


class Backups:
    """The automatic backups of one open database into ``folder``."""

    def __init__(
        self,
        db: Database,
        folder: str | os.PathLike[str],
        *,
        hours: float = 24.0,
        keep: int = 7,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if hours <= 0 or keep < 1:
            raise ValueError("backups need hours > 0 and keep >= 1")
        self.db = db
        self.folder = Path(folder)
        self.hours = hours
        self.keep = keep
        self._clock = clock
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run :meth:`run` in the background (on the running event loop)."""
        if self._task is None:
            self._task = asyncio.create_task(self.run(), name="automatic backups")

    async def stop(self) -> None:
        """Stop the background task (a copy already under way finishes in its thread)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def next_due(self) -> float:
        """When the next backup is due: an interval after the newest one in the folder, or
        now if there is none."""
        found = backups_in(self.folder)
        now = self._clock()
        if not found:
            return now
        try:
            newest = found[-1].stat().st_mtime
        except OSError:
            return now
        return min(newest + self.hours * 3600, now + self.hours * 3600)

    async def take(self) -> Path | None:
        """Take one backup into the folder and delete the oldest beyond ``keep``; the new
        file, or None if it could not be written (logged once, with the reason)."""
        target = self.folder / backup_name(self._clock())
        try:
            size = await self.db.backup(target)
        except DataError as exc:  # BackupFailed with its reason, or the database closing
            log.error("automatic backup failed, the bot carries on: %s", exc)
            return None
        log.info("backup written: %s (%d bytes)", target, size)
        for old in backups_in(self.folder)[: -self.keep]:
            try:
                old.unlink()
            except OSError as exc:
                log.warning("could not delete the old backup %s: %s", old, exc)
        return target

    async def run(self) -> None:
        """Take a backup whenever one is due, until cancelled."""
        while True:
            await asyncio.sleep(max(0.0, self.next_due() - self._clock()))
            try:
                await self.take()
            except Exception:  # never let one attempt end the backups (nor the bot)
                log.exception("automatic backup failed, the bot carries on")
            # Wait a whole interval after an attempt, even a failed one: a full disk is not
            # helped by trying again at once, and the log says it once per attempt.
            await asyncio.sleep(self.hours * 3600)


def main(argv: Sequence[str], *, database: str, folder: str | None) -> int:
    """``python bot.py backup [PATH]``: back the database up into PATH (a new file, or a
    folder to put a dated file in); without PATH, into ``folder`` (``BACKUP_DIR``) or the
    ``backups`` folder beside the database. Prints what it did; 0 on success, 1 otherwise."""
    parser = argparse.ArgumentParser(
        prog="python bot.py backup",
        description="Copy the bot's SQLite database, consistently, while the bot runs.",
    )
    parser.add_argument(
        "path",
        nargs="?",
        help="the backup file to write, or a folder for a dated one "
        "(default: BACKUP_DIR, else data/backups/)",
    )
    args = parser.parse_args(list(argv))
    if is_url(database):
        where = args.path or "poker.dump"
        print(
            "The database is on a PostgreSQL server: back it up with PostgreSQL's own tool.\n"
            f"  {pg_dump_line(database, where)}\n"
            "(pg_dump asks for the password, or reads PGPASSWORD or ~/.pgpass.)",
            file=sys.stderr,
        )
        return 1
    if args.path is not None and not args.path.strip():
        print("Backup failed: the path is empty: give a file or a folder.", file=sys.stderr)
        return 2
    chosen = args.path or folder or str(Path(database).resolve().parent / "backups")
    target = Path(chosen)
    # A folder, or one to be made (written with a slash at the end): a new file inside.
    if args.path is None or target.is_dir() or args.path.endswith(("/", os.sep)):
        target = target / backup_name(time.time())
    try:
        size = copy_database(database, target)
    except BackupFailed as exc:
        print(f"Backup failed: {exc}", file=sys.stderr)
        return 1
    print(f"Backup written: {target} ({size:,} bytes)")
    return 0
