"""Move a bot's SQLite database into PostgreSQL: every row, ids kept, audited on both sides.

    python -m data.copy --from sqlite:data/poker.db --to postgresql://poker:pw@host/poker

What it does, in order:

1. opens the SQLite file (bringing it to the current schema, as the bot would on start) and
   runs the chip audit on it: a source that does not balance is not copied;
2. opens the PostgreSQL database (creating the schema) and refuses unless it holds no rows,
   so that two histories are never merged;
3. copies every table in ONE transaction, ids as they are, then moves each id sequence past
   the highest id so new rows do not collide;
4. compares the row counts of every table and runs the chip audit on the copy: the same
   figures as the source, and balanced.

Stop the bot first: rows written to the file while copying would not be in the copy. On any
failure nothing is left half-copied in PostgreSQL (step 3 is one transaction). The target's
URL is only ever printed with its password masked.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from data.core import Tx
from data.db import Database
from data.errors import DataError
from data.migrations import load_migrations
from data.models import ChipAudit
from data.postgres import Batch, Link, PostgresBackend, is_url, redacted
from data.sqlite import SqliteBackend

TABLES: Final = (
    "guild_settings",
    "accounts",
    "tournaments",
    "tables",
    "hands",
    "table_players",
    "hand_events",
    "ledger",
    "admin_log",
    "player_stats",
    "player_preferences",
    "tournament_results",
    "seasons",
    "season_standings",
    "scheduled_games",
    "member_locales",
    "guild_languages",
)
"""Every table holding the bot's data, in an order where each row's references exist first
(``tables.current_hand_id`` excepted: it is filled in after the hands)."""

FIXED: Final = frozenset({"ledger_kinds"})
"""Tables the migrations fill; the copy checks them equal instead of copying them."""


class CopyRefused(DataError):
    """The copy was not made (or not trusted); the message says why."""


@dataclass(frozen=True, slots=True)
class Report:
    rows: dict[str, int]
    source: ChipAudit
    target: ChipAudit


async def _read(tx: Tx, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    rows = await tx.fetch_all(f"SELECT * FROM {table}")
    if not rows:
        names = await tx.fetch_all(f"SELECT name FROM pragma_table_info('{table}')")
        return [str(r[0]) for r in names], []
    columns = list(rows[0].keys())  # type: ignore[attr-defined]
    return columns, [tuple(r) for r in rows]  # type: ignore[arg-type]


async def _tables(tx: Tx) -> set[str]:
    rows = await tx.fetch_all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    return {str(r[0]) for r in rows}


def _same(a: ChipAudit, b: ChipAudit) -> bool:
    return (a.issued, a.removed, a.bankrolls, a.on_tables, a.in_tournaments) == (
        b.issued,
        b.removed,
        b.bankrolls,
        b.on_tables,
        b.in_tournaments,
    )


async def copy(source_path: str, target_url: str, *, say: Any = print) -> Report:
    """Copy the SQLite database at ``source_path`` into the empty PostgreSQL database at
    ``target_url``. Raises :class:`CopyRefused` with the reason when it will not or did not."""
    if not is_url(target_url):
        raise CopyRefused(f"the target must be a postgresql:// URL, not {target_url!r}")
    if not Path(source_path).is_file():
        raise CopyRefused(f"there is no SQLite file at {source_path}")
    source = Database(
        await SqliteBackend.open(
            source_path, synchronous="FULL", migrations=load_migrations(), checkpoint_every=60.0
        )
    )
    try:
        before = await source.chip_audit()
        if not before.ok:
            raise CopyRefused(f"the source does not balance, nothing copied: {before}")
        say(f"source {source_path}: {before}")

        async def everything(tx: Tx) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
            unknown = await _tables(tx) - set(TABLES) - FIXED
            if unknown:
                raise CopyRefused(f"the source has tables this command does not know: {unknown}")
            return {table: await _read(tx, table) for table in (*TABLES, *FIXED)}

        # One read transaction: a consistent picture, even were something still writing.
        data = await source._backend.run(everything, write=False)
    finally:
        await source.close()

    server = await PostgresBackend.open(target_url, migrations=load_migrations("postgres"))
    target = Database(server, server.ownership)
    try:

        async def counts(tx: Tx) -> dict[str, int]:
            return {
                t: int((await tx.fetch_all(f"SELECT count(*) FROM {t}"))[0][0])
                for t in (*TABLES, *FIXED)
            }

        held = await target._backend.run(counts, write=False)
        busy = {t: n for t, n in held.items() if n and t not in FIXED}
        if busy:
            raise CopyRefused(
                f"{redacted(target_url)} already holds rows ({busy}); copy into an empty database"
            )
        if held["ledger_kinds"] != len(data["ledger_kinds"][1]):
            raise CopyRefused("the two schemas disagree on the ledger kinds")

        batches: list[Batch] = []
        links: list[Link] = []
        for table in TABLES:
            columns, rows = data[table]
            if table == "tables" and rows:
                at = columns.index("current_hand_id")
                links.append(
                    (
                        "tables",
                        "table_id",
                        "current_hand_id",
                        [(r[columns.index("table_id")], r[at]) for r in rows if r[at] is not None],
                    )
                )
                rows = [(*r[:at], None, *r[at + 1 :]) for r in rows]
            batches.append((table, columns, rows))
        loaded = await server.load(batches, links)
        for table in TABLES:
            if loaded[table] != len(data[table][1]):
                raise CopyRefused(
                    f"{table}: {len(data[table][1])} rows in the source, {loaded[table]} copied"
                )
        after = await target.chip_audit()
        say(f"target {redacted(target_url)}: {after}")
        if not after.ok or not _same(before, after):
            raise CopyRefused(f"the copy does not audit like the source: {before} / {after}")
        problems = await target.check_integrity()
        if problems:
            raise CopyRefused(f"the copy's integrity check failed: {problems}")
        return Report(loaded, before, after)
    finally:
        await target.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m data.copy",
        description="Copy the bot's SQLite database into an empty PostgreSQL database.",
    )
    parser.add_argument(
        "--from", dest="source", required=True, help="sqlite:PATH (or just PATH) of the file"
    )
    parser.add_argument("--to", dest="target", required=True, help="postgresql://... URL")
    args = parser.parse_args(argv)
    source = str(args.source).removeprefix("sqlite:")
    try:
        report = asyncio.run(copy(source, args.target))
    except DataError as exc:
        print(f"copy refused: {exc}", file=sys.stderr)
        return 1
    total = sum(report.rows.values())
    print(f"copied {total} rows: " + ", ".join(f"{t} {n}" for t, n in report.rows.items()))
    print("chip audit identical on both sides and balanced")
    return 0


if __name__ == "__main__":
    sys.exit(main())
