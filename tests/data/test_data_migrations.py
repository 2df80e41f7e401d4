"""Opening files, pragmas, and schema migrations (PRAGMA user_version + ordered scripts)."""

from __future__ import annotations

import hashlib
import sqlite3
import tomllib
from pathlib import Path, PurePosixPath

import pytest

import data
from data import DEFAULT_PATH, Database, SchemaError
from data.migrations import Migration, load_migrations, migrate

from .helpers import GUILD, seat_players, start_hand

SHIPPED = load_migrations()

# A realistic future migration: rebuild `accounts` (the SQLite way, since ALTER TABLE cannot add
# a CHECK) while the ledger and stats still reference it.
REBUILD_ACCOUNTS = Migration(
    len(SHIPPED) + 1,
    "account_nicknames",
    """
    CREATE TABLE accounts_new (
        guild_id      INTEGER NOT NULL,
        user_id       INTEGER NOT NULL,
        balance       INTEGER NOT NULL CHECK (balance >= 0),
        last_daily_at REAL,
        created_at    REAL    NOT NULL,
        updated_at    REAL    NOT NULL,
        nickname      TEXT CHECK (nickname IS NULL OR length(nickname) <= 32),
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID;
    INSERT INTO accounts_new (guild_id, user_id, balance, last_daily_at, created_at, updated_at)
        SELECT guild_id, user_id, balance, last_daily_at, created_at, updated_at FROM accounts;
    DROP TABLE accounts;
    ALTER TABLE accounts_new RENAME TO accounts;
    """,
)


def raw_query(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def pragma(db: Database, name: str) -> object:
    """A per-connection pragma of the database's own connection (white-box)."""
    row = await db._backend.run(lambda tx: tx.fetch_one(f"PRAGMA {name}"), write=False)
    assert row is not None
    return row[0]


async def test_shipped_migrations_are_ordered() -> None:
    assert [m.version for m in SHIPPED] == list(range(1, len(SHIPPED) + 1))
    assert SHIPPED[0].name == "initial"


# sha256 of every shipped script, first 16 hex digits. A database upgraded by one release
# must be what the next release expects: a shipped script is never edited, only followed.
SHIPPED_DIGESTS = {
    "sqlite": [
        "5fbd7dbb9695cbcd",
        "59f9820b383356fa",
        "f3ab4cef7430f675",
        "36238760195b2f18",
        "03b6ebbb67b807d9",
        "9d70ba88b0ae13c4",
        "9acc035ce07f7a41",
        "673324f0deecdb09",
        "24c5c485adbcaaee",
        "1b2d2bb0a3a201fb",
    ],
    "postgres": [
        "0130c8e31f17291f",
        "5993022347dbd20d",
        "c02e3d3a5e451ca0",
        "928346d2da479b1f",
        "8a87cb6fe4f719c7",
        "15691509a3743dfd",
        "f2054524f9502908",
        "18d988573eeab251",
        "c04bda3116f5c71a",
        "8fa3cf145d2b13bb",
    ],
}


@pytest.mark.parametrize("dialect", ["sqlite", "postgres"])
def test_shipped_migrations_are_never_edited(dialect: str) -> None:
    shipped = load_migrations(dialect)  # type: ignore[arg-type]
    digests = [hashlib.sha256(m.sql.encode()).hexdigest()[:16] for m in shipped]
    pinned = SHIPPED_DIGESTS[dialect]
    assert digests[: len(pinned)] == pinned, "a shipped migration was edited: add a new one"


def test_every_migration_is_packaged() -> None:
    """The package data named in pyproject.toml covers every script, so an installed bot
    (not only a checkout) finds its migrations."""
    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]
    scripts = sorted((root / "data").rglob("*.sql"))
    assert len(scripts) == 2 * len(SHIPPED)

    def packaged(path: PurePosixPath) -> bool:
        for package, patterns in globs.items():
            folder = PurePosixPath(package.replace(".", "/"))
            if not path.is_relative_to(folder):
                continue
            inside = path.relative_to(folder)
            # A glob is relative to the package's folder: as many parts, each matching.
            if any(
                len(inside.parts) == len(PurePosixPath(p).parts) and inside.match(p)
                for p in patterns
            ):
                return True
        return False

    for script in scripts:
        path = PurePosixPath(script.relative_to(root).as_posix())
        assert packaged(path), f"{path} is not in pyproject's package-data"


async def test_default_path_is_under_data() -> None:
    assert Path(data.__file__).resolve().parent / "poker.db" == DEFAULT_PATH


async def test_new_file_gets_schema_and_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "poker.db"
    db = await Database.open(path)
    try:
        assert path.exists()
        assert await db.schema_version() == len(SHIPPED)
        pragmas = {}
        for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"):
            pragmas[name] = await pragma(db, name)
        assert pragmas == {
            "journal_mode": "wal",
            "synchronous": 2,  # FULL
            "foreign_keys": 1,
            "busy_timeout": 10000,
        }
        assert await db.check_integrity() == []
    finally:
        await db.close()
    assert raw_query(path, "PRAGMA user_version") == [(len(SHIPPED),)]


async def test_normal_synchronous_is_an_option(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "p.db", synchronous="NORMAL")
    try:
        assert await pragma(db, "synchronous") == 1
    finally:
        await db.close()
    with pytest.raises(data.InvalidArgument):
        await Database.open(tmp_path / "p.db", synchronous="OFF")  # type: ignore[arg-type]


async def test_reopen_keeps_data_and_does_not_rerun(tmp_path: Path) -> None:
    path = tmp_path / "poker.db"
    db = await Database.open(path)
    await db.admin_grant(GUILD, 9, 5, 10)
    await db.close()
    db = await Database.open(path)
    try:
        assert await db.balance(GUILD, 5) == 1010
        assert await db.schema_version() == len(SHIPPED)
    finally:
        await db.close()


async def test_upgrade_from_older_version_keeps_everything(tmp_path: Path) -> None:
    path = tmp_path / "poker.db"
    old = await Database.open(path)  # "the bot as shipped today"
    table = await old.create_table(GUILD, 100, 5, "{}")
    stacks = await seat_players(old, table, {5: 300, 6: 200})
    hand = await start_hand(old, table, stacks)
    await old.claim_daily(GUILD, 7, now=0)
    before = (
        await old.leaderboard(GUILD),
        await old.ledger(GUILD, limit=100),
        await old.get_table(table.table_id),
        await old.hand_events(hand.hand_id, allow_in_progress=True),
    )
    await old.close()

    new = await Database.open(path, migrations=[*SHIPPED, REBUILD_ACCOUNTS])  # "next release"
    try:
        assert await new.schema_version() == len(SHIPPED) + 1
        after = (
            await new.leaderboard(GUILD),
            await new.ledger(GUILD, limit=100),
            await new.get_table(table.table_id),
            await new.hand_events(hand.hand_id, allow_in_progress=True),
        )
        assert after == before
        assert (await new.chip_audit()).ok
        assert await new.check_integrity() == []
        # the upgraded schema works, foreign keys included
        await new.admin_grant(GUILD, 9, 8, 5)
        assert await new.balance(GUILD, 8) == 1005
    finally:
        await new.close()
    columns = [r[1] for r in raw_query(path, "PRAGMA table_info(accounts)")]
    assert "nickname" in columns
    # and older code now refuses the newer file rather than corrupting it
    with pytest.raises(SchemaError, match=r"only knows up to"):
        await Database.open(path)


async def test_the_admin_log_rebuilt_by_migration_10_keeps_its_rows_and_stays_append_only(
    tmp_path: Path,
) -> None:
    path = tmp_path / "poker.db"
    old = await Database.open(path, migrations=SHIPPED[:9])
    await old.admin_grant(GUILD, 9, 8, 5, note="before")
    await old.update_settings(GUILD, 9, daily_amount=50)
    before = await old.admin_log(GUILD)
    await old.close()

    new = await Database.open(path)
    try:
        assert await new.schema_version() == len(SHIPPED)
        assert await new.admin_log(GUILD) == before
        assert await new.check_integrity() == []
    finally:
        await new.close()
    for sql in ("UPDATE admin_log SET note = 'x'", "DELETE FROM admin_log"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw_query(path, sql)
    indexes = [r[1] for r in raw_query(path, "PRAGMA index_list(admin_log)")]
    assert "admin_log_guild" in indexes


async def test_failed_migration_rolls_back(tmp_path: Path) -> None:
    path = tmp_path / "poker.db"
    db = await Database.open(path)
    await db.balance(GUILD, 5)
    await db.close()
    broken = Migration(
        len(SHIPPED) + 1,
        "broken",
        "ALTER TABLE accounts ADD COLUMN half_done TEXT; SELECT * FROM no_such_table;",
    )
    with pytest.raises(SchemaError, match="rolled back"):
        await Database.open(path, migrations=[*SHIPPED, broken])
    assert raw_query(path, "PRAGMA user_version") == [(len(SHIPPED),)]
    assert "half_done" not in [r[1] for r in raw_query(path, "PRAGMA table_info(accounts)")]

    orphan = Migration(
        len(SHIPPED) + 1,
        "orphan_rows",
        "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, created_at) "
        "VALUES (1, 424242, 5, 5, 'issue', 0);",
    )
    with pytest.raises(SchemaError, match="foreign-key"):
        await Database.open(path, migrations=[*SHIPPED, orphan])
    assert raw_query(path, "SELECT count(*) FROM ledger") == [(1,)]

    db = await Database.open(path)  # still fine for the current code
    try:
        assert await db.balance(GUILD, 5) == 1000
        assert await db.check_integrity() == []
    finally:
        await db.close()


async def test_migration_list_must_be_contiguous(tmp_path: Path) -> None:
    gap = Migration(len(SHIPPED) + 2, "gap", "SELECT 1;")
    with pytest.raises(SchemaError, match=r"1\.\.N"):
        await Database.open(tmp_path / "p.db", migrations=[*SHIPPED, gap])


async def test_newer_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    with pytest.raises(SchemaError, match="999"):
        await Database.open(path)


class FakeStore:
    """A schema store kept in a list, standing in for any backend: the runner decides alone
    which migrations run, in what order, and what a failure means."""

    def __init__(self, version: int, fail_at: int | None = None) -> None:
        self.version = version
        self.fail_at = fail_at
        self.applied: list[int] = []

    async def schema_version(self) -> int:
        return self.version

    async def apply_migration(self, migration: Migration) -> None:
        if migration.version == self.fail_at:
            raise RuntimeError("boom")
        self.applied.append(migration.version)
        self.version = migration.version


async def test_the_runner_is_the_same_for_every_backend() -> None:
    steps = [Migration(v, f"step{v}", "-- nothing") for v in (1, 2, 3, 4)]

    store = FakeStore(version=1)
    assert await migrate(store, steps) == (1, 4)
    assert store.applied == [2, 3, 4]
    assert await migrate(store, steps) == (4, 4)
    assert store.applied == [2, 3, 4]

    failing = FakeStore(version=0, fail_at=3)
    with pytest.raises(SchemaError, match=r"migration 3 \(step3\) failed.*boom"):
        await migrate(failing, steps)
    assert (failing.applied, failing.version) == ([1, 2], 2)

    with pytest.raises(SchemaError, match="only knows up to 4"):
        await migrate(FakeStore(version=5), steps)
    with pytest.raises(SchemaError, match=r"1\.\.N"):
        await migrate(FakeStore(version=0), [steps[0], steps[2]])


async def test_a_file_that_is_damaged_or_another_programs_is_refused_untouched(
    tmp_path: Path,
) -> None:
    from data import CannotOpen

    damaged = tmp_path / "damaged.db"
    db = await Database.open(damaged)
    try:
        for user in range(300):  # pages enough that one in the middle can be spoiled
            await db.admin_grant(GUILD, 9, 1000 + user, 5)
    finally:
        await db.close()
    raw = bytearray(damaged.read_bytes())
    page = 4096
    assert len(raw) > 6 * page
    raw[3 * page : 4 * page] = b"\xa5" * page
    damaged.write_bytes(bytes(raw))
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as other:
        other.execute("CREATE TABLE notes (body TEXT)")
    for path, words in ((damaged, "is damaged"), (foreign, "another program's")):
        before = path.read_bytes()
        with pytest.raises(CannotOpen, match=words):
            await Database.open(path)
        assert path.read_bytes() == before
        assert not path.with_name(path.name + "-wal").exists()
