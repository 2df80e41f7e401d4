"""Accounts, settings, the daily bonus, admin chip changes and the ledger."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from data import (
    Cooldown,
    Database,
    DataError,
    InsufficientFunds,
    InvalidArgument,
)

from .helpers import ADMIN, GUILD, OTHER_GUILD

DAY = 24 * 60 * 60


async def test_account_created_lazily_with_starting_bankroll(db: Database) -> None:
    assert (await db.ledger(GUILD)).total == 0
    account = await db.account(GUILD, 5, now=123)
    assert (account.balance, account.created_at, account.last_daily_at) == (1000, 123.0, None)
    assert await db.balance(GUILD, 5) == 1000  # second call: no new account, no new row
    page = await db.ledger(GUILD, 5)
    assert page.total == 1
    (entry,) = page.items
    assert (entry.kind, entry.delta, entry.balance_after, entry.created_at) == (
        "issue",
        1000,
        1000,
        123.0,
    )


async def test_accounts_are_per_server(db: Database) -> None:
    await db.update_settings(OTHER_GUILD, ADMIN, starting_bankroll=50)
    assert await db.balance(GUILD, 5) == 1000
    assert await db.balance(OTHER_GUILD, 5) == 50
    assert (await db.chip_audit(GUILD)).circulating == 1000
    assert (await db.chip_audit(OTHER_GUILD)).circulating == 50
    assert (await db.chip_audit()).circulating == 1050


async def test_settings_defaults_update_and_log(db: Database) -> None:
    settings = await db.get_settings(GUILD)
    assert (settings.starting_bankroll, settings.daily_amount, settings.daily_cooldown) == (
        1000,
        100,
        DAY,
    )
    assert (settings.table_defaults_json, settings.updated_at, settings.updated_by) == (
        "{}",
        None,
        None,
    )
    new = await db.update_settings(
        GUILD,
        ADMIN,
        starting_bankroll=500,
        table_defaults_json='{"seats": 6}',
        note="smaller stakes",
        now=50,
    )
    assert (new.starting_bankroll, new.daily_amount, new.table_defaults_json) == (
        500,
        100,
        '{"seats": 6}',
    )
    assert (new.updated_at, new.updated_by) == (50.0, ADMIN)
    assert await db.balance(GUILD, 7) == 500  # new accounts use the new starting bankroll
    (log,) = (await db.admin_log(GUILD)).items
    assert (log.action, log.actor_id, log.target_id, log.note) == (
        "settings",
        ADMIN,
        None,
        "smaller stakes",
    )
    assert json.loads(log.old_value) == {"starting_bankroll": 1000, "table_defaults": "{}"}
    assert json.loads(log.new_value) == {"starting_bankroll": 500, "table_defaults": '{"seats": 6}'}
    assert (await db.get_settings(OTHER_GUILD)).starting_bankroll == 1000


async def test_the_table_limit_is_a_server_setting(db: Database) -> None:
    assert (await db.get_settings(GUILD)).max_tables_per_player == 4
    changed = await db.update_settings(GUILD, ADMIN, max_tables_per_player=2, now=50)
    assert changed.max_tables_per_player == 2 and changed.starting_bankroll == 1000
    assert (await db.get_settings(OTHER_GUILD)).max_tables_per_player == 4
    later = await db.update_settings(GUILD, ADMIN, daily_amount=5, now=60)
    assert later.max_tables_per_player == 2  # another setting's change keeps it
    with pytest.raises(InvalidArgument):
        await db.update_settings(GUILD, ADMIN, max_tables_per_player=0)
    assert (await db.get_settings(GUILD)).max_tables_per_player == 2


async def test_settings_validation_changes_nothing(db: Database) -> None:
    with pytest.raises(InvalidArgument):
        await db.update_settings(GUILD, ADMIN)
    with pytest.raises(InvalidArgument):
        await db.update_settings(GUILD, ADMIN, daily_amount=-1)
    with pytest.raises(InvalidArgument, match="JSON"):
        await db.update_settings(GUILD, ADMIN, table_defaults_json="{not json")
    assert (await db.get_settings(GUILD)).updated_at is None
    assert (await db.admin_log(GUILD)).total == 0


async def test_daily_and_cooldown(db: Database) -> None:
    claim = await db.claim_daily(GUILD, 5, now=1000)
    assert (claim.amount, claim.balance, claim.next_at) == (100, 1100, 1000 + DAY)
    assert claim.entry.kind == "daily"
    rows_before = (await db.ledger(GUILD)).total

    with pytest.raises(Cooldown) as info:
        await db.claim_daily(GUILD, 5, now=1000 + DAY - 90)
    assert info.value.remaining == 90
    assert info.value.next_at == 1000 + DAY
    assert "0h 01m 30s" in str(info.value)
    assert isinstance(info.value, DataError)
    assert await db.balance(GUILD, 5) == 1100
    assert (await db.ledger(GUILD)).total == rows_before

    claim = await db.claim_daily(GUILD, 5, now=1000 + DAY)  # exactly at next_at
    assert claim.balance == 1200
    # another member is independent
    assert (await db.claim_daily(GUILD, 6, now=1000 + DAY)).balance == 1100


async def test_daily_follows_settings(db: Database) -> None:
    await db.update_settings(GUILD, ADMIN, daily_amount=25, daily_cooldown=60)
    assert (await db.claim_daily(GUILD, 5, now=0)).amount == 25
    with pytest.raises(Cooldown):
        await db.claim_daily(GUILD, 5, now=59.5)
    assert (await db.claim_daily(GUILD, 5, now=60)).balance == 1050
    # a cooldown that raises time on someone already waiting applies at once
    await db.update_settings(GUILD, ADMIN, daily_cooldown=3600)
    with pytest.raises(Cooldown) as info:
        await db.claim_daily(GUILD, 5, now=120)
    assert info.value.next_at == 60 + 3600


async def test_admin_grant_set_remove(db: Database) -> None:
    grant = await db.admin_grant(GUILD, ADMIN, 5, 250, note="tournament prize", now=10)
    assert (grant.kind, grant.delta, grant.balance_after, grant.actor_id) == (
        "admin_grant",
        250,
        1250,
        ADMIN,
    )
    set_down = await db.admin_set(GUILD, ADMIN, 5, 200, now=11)
    assert (set_down.kind, set_down.delta, set_down.balance_after) == ("admin_set", -1050, 200)
    set_up = await db.admin_set(GUILD, ADMIN, 5, 300, now=12)
    assert set_up.delta == 100
    removed = await db.admin_remove(GUILD, ADMIN, 5, 300, note="cheating", now=13)
    assert (removed.kind, removed.delta, removed.balance_after) == ("admin_remove", -300, 0)

    log = (await db.admin_log(GUILD)).items  # newest first
    assert [(e.action, json.loads(e.old_value), json.loads(e.new_value)) for e in log] == [
        ("remove", 300, 0),
        ("set", 200, 300),
        ("set", 1250, 200),
        ("grant", 1000, 1250),
    ]
    assert [e.entry_id for e in log] == [removed.entry_id, set_up.entry_id, set_down.entry_id,
                                         grant.entry_id]  # fmt: skip
    assert all(e.target_id == 5 and e.actor_id == ADMIN for e in log)

    audit = await db.chip_audit(GUILD)
    assert audit.ok, audit
    assert (audit.issued, audit.removed, audit.bankrolls) == (1000 + 250 + 100, 1050 + 300, 0)


async def test_admin_remove_too_much_changes_nothing(db: Database) -> None:
    # the target has no account yet: it would be created, but the whole transaction rolls back
    with pytest.raises(InsufficientFunds) as info:
        await db.admin_remove(GUILD, ADMIN, 5, 1001)
    assert (info.value.balance, info.value.needed) == (1000, 1001)
    assert (await db.ledger(GUILD)).total == 0
    assert (await db.admin_log(GUILD)).total == 0
    assert (await db.leaderboard(GUILD)).total == 0


@pytest.mark.parametrize("amount", [0, -5, True, 1.5, "10"])
async def test_admin_amounts_validated(db: Database, amount: object) -> None:
    with pytest.raises(InvalidArgument):
        await db.admin_grant(GUILD, ADMIN, 5, amount)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument):
        await db.admin_remove(GUILD, ADMIN, 5, amount)  # type: ignore[arg-type]
    assert (await db.ledger(GUILD)).total == 0


async def test_ledger_pages(db: Database) -> None:
    for i in range(5):
        await db.admin_grant(GUILD, ADMIN, 5, i + 1, now=i)
    await db.balance(GUILD, 6)
    first = await db.ledger(GUILD, 5, offset=0, limit=4)
    assert first.total == 6 and len(first.items) == 4
    assert (first.has_previous, first.has_next) == (False, True)
    assert [e.delta for e in first.items] == [5, 4, 3, 2]
    second = await db.ledger(GUILD, 5, offset=4, limit=4)
    assert [e.delta for e in second.items] == [1, 1000]
    assert (second.has_previous, second.has_next) == (True, False)
    assert (await db.ledger(GUILD)).total == 7
    with pytest.raises(InvalidArgument):
        await db.ledger(GUILD, limit=0)
    with pytest.raises(InvalidArgument):
        await db.ledger(GUILD, offset=-1)


async def test_now_is_validated(db: Database) -> None:
    with pytest.raises(InvalidArgument):
        await db.claim_daily(GUILD, 5, now=float("nan"))
    with pytest.raises(InvalidArgument):
        await db.account(GUILD, 5, now="soon")  # type: ignore[arg-type]


async def test_closed_database_refuses(db: Database) -> None:
    await db.close()
    with pytest.raises(DataError, match="closed"):
        await db.balance(GUILD, 5)
    await db.close()  # idempotent


async def test_concurrent_writes_commit_together_and_a_failure_stays_its_own(
    file_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes asked for at once share commits (group commit), yet each caller gets what it
    would have got alone: a refused one changes nothing, the others all land."""
    import asyncio

    import data.sqlite

    groups: list[int] = []
    real = data.sqlite._group_transaction

    def counting(conn: object, bodies: list[object]) -> list[object]:
        groups.append(len(bodies))
        return real(conn, bodies)  # type: ignore[arg-type]

    monkeypatch.setattr(data.sqlite, "_group_transaction", counting)
    users = range(10, 50)
    results = await asyncio.gather(
        *(file_db.admin_grant(GUILD, ADMIN, user, user) for user in users),
        file_db.admin_remove(GUILD, ADMIN, 5, 5000),  # more than the bankroll holds
        *(file_db.admin_remove(GUILD, ADMIN, user, 1) for user in users),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], InsufficientFunds), refused
    for user in users:
        assert await file_db.balance(GUILD, user) == 1000 + user - 1
    assert (await file_db.ledger(GUILD, 5)).total == 0, "the refused removal left no trace"
    assert (await file_db.chip_audit(GUILD)).ok
    assert sum(groups) >= 81 and max(groups) > 1, groups  # 81 asked, some of them together


async def test_the_wal_is_checkpointed_in_the_background_and_stays_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commits never checkpoint (that stalled every writer); a second connection does, and
    restarts a WAL that grew past the limit, so the file stays small under steady writes."""
    import asyncio
    import sqlite3

    import data.sqlite

    monkeypatch.setattr(data.sqlite, "WAL_RESTART_FRAMES", 50)
    path = tmp_path / "poker.db"
    db = await Database.open(path, checkpoint_every=0.01)
    try:
        for user in range(400):
            await db.admin_grant(GUILD, ADMIN, 10 + user, 5)
            if user % 20 == 0:
                await asyncio.sleep(0.02)  # room for the checkpointer to run
        wal = path.with_name(path.name + "-wal").stat().st_size
        # 400 commits of several pages each, never checkpointed, would make about 9 MB.
        assert wal < 2_000_000, wal
        assert await db.balance(GUILD, 409) == 1005
    finally:
        await db.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT count(*) FROM ledger").fetchone()[0] == 800


async def test_without_aiosqlites_queue_transactions_still_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fallback for an aiosqlite without its private queueing method (one trip to the
    thread per statement, under a lock) keeps every guarantee, refusals included."""
    import asyncio

    import data.sqlite

    monkeypatch.setattr(data.sqlite, "_IN_THREAD", False)
    db = await Database.open(tmp_path / "poker.db")
    try:
        users = range(10, 30)
        results = await asyncio.gather(
            *(db.admin_grant(GUILD, ADMIN, user, user) for user in users),
            db.admin_remove(GUILD, ADMIN, 5, 5000),
            return_exceptions=True,
        )
        assert [type(r) for r in results if isinstance(r, Exception)] == [InsufficientFunds]
        assert [await db.balance(GUILD, user) for user in users] == [1000 + u for u in users]
        assert (await db.ledger(GUILD, 5)).total == 0
        with pytest.raises(InvalidArgument, match="JSON"):
            await db.update_settings(GUILD, ADMIN, table_defaults_json="{not json")
        assert (await db.get_settings(GUILD)).updated_at is None
        assert (await db.chip_audit()).ok
    finally:
        await db.close()
    with pytest.raises(DataError, match="closed"):
        await db.balance(GUILD, 5)
