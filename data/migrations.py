"""Schema migrations: ordered SQL scripts applied on open, tracked by ``PRAGMA user_version``.

Each file ``data/migration_NNNN_<name>.sql`` upgrades the schema from version ``NNNN - 1`` to
``NNNN``. Versions start at 1 and must be contiguous. A migration runs in one transaction together
with the ``user_version`` bump, so a crash or an error mid-migration leaves the previous version
intact. Foreign-key enforcement is switched off while migrating (so a migration may rebuild a
table the SQLite way: create new, copy, drop old, rename) and ``PRAGMA foreign_key_check`` must
come back empty before the migration commits.

To change the schema later, add the next ``migration_NNNN_<name>.sql``; never edit one that has
shipped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from data.errors import SchemaError

_FILE_RE = re.compile(r"^migration_(\d{4})_(\w+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: running ``sql`` on a version ``version - 1`` database gives ``version``."""

    version: int
    name: str
    sql: str


def load_migrations() -> tuple[Migration, ...]:
    """The migrations shipped in the ``data`` package, in order (checked to be 1..N)."""
    found: list[Migration] = []
    for entry in resources.files("data").iterdir():
        match = _FILE_RE.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    check_sequence(found)
    return tuple(found)


def check_sequence(migrations: Sequence[Migration]) -> None:
    """Raise :class:`SchemaError` unless the versions are exactly 1, 2, ..., N."""
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise SchemaError(
                f"migration versions must be 1..N in order; found {migration.version} "
                f"({migration.name!r}) where {expected} was expected"
            )


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The database's current schema version (``PRAGMA user_version``; 0 for a new file)."""
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate(conn: aiosqlite.Connection, migrations: Sequence[Migration]) -> tuple[int, int]:
    """Apply the pending ``migrations`` in order; return ``(old_version, new_version)``.

    ``conn`` must be in autocommit mode (``isolation_level=None``) and outside a transaction.
    Raises :class:`SchemaError` if the file is newer than the code or a migration fails (that
    migration is rolled back; earlier ones stay applied).
    """
    check_sequence(migrations)
    old = await schema_version(conn)
    latest = len(migrations)
    if old > latest:
        raise SchemaError(
            f"the database is at schema version {old} but this code only knows up to {latest}; "
            "refusing to open it with older code"
        )
    if old == latest:
        return old, old
    await conn.execute("PRAGMA foreign_keys = OFF")
    try:
        for migration in migrations[old:]:
            await _apply(conn, migration)
    finally:
        await conn.execute("PRAGMA foreign_keys = ON")
    return old, latest


async def _apply(conn: aiosqlite.Connection, migration: Migration) -> None:
    # executescript() commits any open transaction first, so the BEGIN goes inside the script;
    # the script leaves the transaction open for the foreign-key check and the COMMIT below.
    script = (
        f"BEGIN IMMEDIATE;\n{migration.sql}\n;\nPRAGMA user_version = {int(migration.version)};\n"
    )
    try:
        await conn.executescript(script)
        problems = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
        if problems:
            raise SchemaError(
                f"migration {migration.version} ({migration.name}) leaves "
                f"{len(problems)} foreign-key violation(s), e.g. {tuple(problems[0])}"
            )
        await conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        if isinstance(exc, SchemaError) or not isinstance(exc, Exception):
            raise
        raise SchemaError(
            f"migration {migration.version} ({migration.name}) failed and was rolled back: {exc}"
        ) from exc
