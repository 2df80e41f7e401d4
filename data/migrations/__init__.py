"""Schema migrations: ordered SQL scripts applied on open, and the one runner for them.

Each dialect has its folder beside this module, ``sqlite/`` and ``postgres/``; in each, the
file ``migration_NNNN_<name>.sql`` upgrades the schema from version ``NNNN - 1`` to ``NNNN``.
Both histories advance together: every version has its script in both folders, with the same
number and name (the tests check). Versions start at 1 and must be contiguous. A migration runs
in one transaction together with the bump of the recorded version, so a crash or an error
mid-migration leaves the previous version intact. How a version is recorded and a script run
is the backend's part (:class:`SchemaStore`; for SQLite, ``PRAGMA user_version`` and a
foreign-key check before the commit, see :mod:`data.sqlite`; for PostgreSQL, a row in
``schema_migrations``, see :mod:`data.postgres`); which migrations are pending and in what
order is decided here.

To change the schema later, add the next ``migration_NNNN_<name>.sql`` to both folders; never
edit one that has shipped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Literal, Protocol

from data.errors import SchemaError

_FILE_RE = re.compile(r"^migration_(\d{4})_(\w+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: running ``sql`` on a version ``version - 1`` database gives ``version``."""

    version: int
    name: str
    sql: str


Dialect = Literal["sqlite", "postgres"]
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgres")
"""Every dialect with a folder of migrations."""


def load_migrations(dialect: Dialect = "sqlite") -> tuple[Migration, ...]:
    """The migrations shipped for ``dialect`` (the folder of that name beside this module), in
    order (checked to be 1..N)."""
    if dialect not in DIALECTS:
        raise SchemaError(f"no migrations for the {dialect!r} dialect")
    folder = resources.files(__name__) / dialect
    found: list[Migration] = []
    for entry in folder.iterdir():
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


class SchemaStore(Protocol):
    """What the runner needs from a backend's connection while it opens the database."""

    async def schema_version(self) -> int:
        """The version recorded in the database (0 for a new one)."""
        ...

    async def apply_migration(self, migration: Migration) -> None:
        """Run ``migration.sql`` and record ``migration.version``, in ONE transaction; on any
        error roll both back and raise."""
        ...


async def migrate(store: SchemaStore, migrations: Sequence[Migration]) -> tuple[int, int]:
    """Apply the pending ``migrations`` in order; return ``(old_version, new_version)``.

    Raises :class:`SchemaError` if the database is newer than the code or a migration fails
    (that migration is rolled back; earlier ones stay applied).
    """
    check_sequence(migrations)
    old = await store.schema_version()
    latest = len(migrations)
    if old > latest:
        raise SchemaError(
            f"the database is at schema version {old} but this code only knows up to {latest}; "
            "refusing to open it with older code"
        )
    for migration in migrations[old:]:
        try:
            await store.apply_migration(migration)
        except SchemaError:
            raise
        except Exception as exc:
            raise SchemaError(
                f"migration {migration.version} ({migration.name}) failed and was rolled back: "
                f"{exc}"
            ) from exc
    return old, latest
