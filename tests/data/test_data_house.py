"""The house account: one per server, paying every house seat's buy-in and taking back its
chips, issued chips (house_fund) only when it lacks a buy-in, audited, kept off the leaderboard
and the stats; migration 6 merges the old per-seat bankrolls into it (on both backends)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import Database, DataError, InvalidArgument, PlayerHandResult, TableSave
from data import accounts as house_accounts
from data import tables as table_queries
from data.accounts import HOUSE_ACCOUNT
from data.core import Tx
from data.migrations import load_migrations

from .helpers import GUILD, OTHER_GUILD, seat_players, start_hand, state

HOUSE_FUND_NOW = 10.0


async def kinds(db: Database, user_id: int) -> list[tuple[str, int, int | None]]:
    """The user's ledger rows, oldest first: (kind, delta, actor_id)."""
    rows = (await db.ledger(GUILD, user_id, limit=100)).items
    return [(r.kind, r.delta, r.actor_id) for r in reversed(rows)]


async def audited(db: Database, guild_id: int = GUILD) -> None:
    audit = await db.chip_audit(guild_id)
    assert audit.ok, audit
    assert audit.house == await db.house_balance(guild_id)


async def test_fund_house_issues_only_what_is_missing(db: Database) -> None:
    assert await db.house_balance(GUILD) == 0
    assert await db.fund_house(GUILD, -201, 150, now=10) == 150
    # already enough, whichever seat asks: nothing issued
    assert await db.fund_house(GUILD, -102, 100, now=11) == 150
    assert await db.fund_house(GUILD, -201, 400, now=12) == 400
    assert await kinds(db, HOUSE_ACCOUNT) == [("house_fund", 150, -201), ("house_fund", 250, -201)]
    # no seat has a bankroll of its own
    assert (await db.ledger(GUILD, -201)).total == 0
    assert await db.house_balance(GUILD) == 400 and await db.house_balance(OTHER_GUILD) == 0
    await audited(db)
    await db.account(GUILD, 7, now=13)
    board = await db.leaderboard(GUILD)
    assert [entry.user_id for entry in board.items] == [7] and board.total == 1


async def test_fund_house_refuses_member_ids(db: Database) -> None:
    with pytest.raises(DataError):
        await db.fund_house(GUILD, 5, 100)
    assert (await db.ledger(GUILD)).total == 0


async def test_a_seat_id_has_no_bankroll_to_look_up(db: Database) -> None:
    for user in (-101, HOUSE_ACCOUNT):
        with pytest.raises(InvalidArgument, match="house"):
            await db.balance(GUILD, user)
    assert (await db.ledger(GUILD)).total == 0


async def test_house_seats_buy_in_from_and_cash_out_to_the_house_account(db: Database) -> None:
    table = await db.create_table(GUILD, 100, 7, "{}")
    # the first buy-in finds the house empty: it is issued exactly the buy-in, same transaction
    stacks = await seat_players(db, table, {7: 100, -101: 100})
    assert await db.house_balance(GUILD) == 0
    assert await kinds(db, HOUSE_ACCOUNT) == [("house_fund", 100, -101), ("buy_in", -100, -101)]
    await audited(db)
    # a house seat's hand counts in no stats and needs no account of its own
    hand = await start_hand(db, table, stacks)
    stacks = {7: 70, -101: 130}
    await db.record_hand_result(
        GUILD,
        table.table_id,
        hand.hand_id,
        [
            PlayerHandResult(7, -30, False, 0, None, None),
            PlayerHandResult(-101, 30, True, 60, 5, "a pair"),
        ],
        result_json="{}",
        pot=60,
        save=TableSave(state(stacks=stacks), 200, stacks, [(1, json.dumps({"type": "showdown"}))]),
        now=30,
    )
    assert (await db.stats(GUILD, -101)).hands_played == 0
    assert (await db.stats(GUILD, 7)).hands_played == 1
    # standing up pays the seat's stack to the house account
    entry = await db.cash_out(
        GUILD, -101, table.table_id, 130, TableSave(state(stacks={7: 70}), 70, {7: 70}), now=40
    )
    assert (entry.user_id, entry.kind, entry.actor_id, entry.balance_after) == (
        HOUSE_ACCOUNT,
        "cash_out",
        -101,
        130,
    )
    await audited(db)
    # a second house seat: the house holds enough, so nothing is issued; then a rebuy
    await seat_players(db, table, {-201: 100}, now=50)
    stacks = {7: 70, -201: 100}
    await db.buy_in(
        GUILD, -201, table.table_id, 20, TableSave(state(), 190, {7: 70, -201: 120}), now=51
    )
    assert await db.house_balance(GUILD) == 10
    assert [k for k, _, _ in await kinds(db, HOUSE_ACCOUNT)].count("house_fund") == 1
    await audited(db)
    # the table closes: both payouts in one transaction, the house's to the house account
    paid = await db.close_table(table.table_id, {7: 70, -201: 120}, now=60)
    assert sorted((e.user_id, e.delta, e.actor_id) for e in paid) == [
        (HOUSE_ACCOUNT, 120, -201),
        (7, 70, None),
    ]
    assert await db.house_balance(GUILD) == 130
    await audited(db)
    board = await db.leaderboard(GUILD)
    assert [e.user_id for e in board.items] == [7]


async def test_only_a_house_seat_that_bought_in_is_paid(db: Database) -> None:
    table = await db.create_table(GUILD, 100, 7, "{}")
    await seat_players(db, table, {7: 100, -101: 100})
    # -102 shares the house account with -101 but never sat here
    with pytest.raises(InvalidArgument, match="never bought in"):
        await db.cash_out(GUILD, -102, table.table_id, 100, TableSave(state(), 100, {7: 100}))
    with pytest.raises(InvalidArgument, match="never bought in"):
        await db.close_table(table.table_id, {7: 100, -102: 100})
    await audited(db)
    assert await db.house_balance(GUILD) == 0


async def test_each_server_has_its_own_house_account(db: Database) -> None:
    await db.fund_house(GUILD, -101, 300, now=1)
    await db.fund_house(OTHER_GUILD, -101, 50, now=2)
    assert (await db.house_balance(GUILD), await db.house_balance(OTHER_GUILD)) == (300, 50)
    everywhere = await db.chip_audit()
    assert everywhere.ok and everywhere.house == 350


# ------------------------------------------------------------------------------ migration 6


@pytest.fixture(params=["sqlite", "postgres"])
async def empty_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where to build a database from scratch: a file, or an empty PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "old.db")
        return
    server = request.getfixturevalue("pg_server")
    url = await server.create_database()
    try:
        yield url
    finally:
        await server.drop_database(url)


async def _old_seat_bankroll(tx: Tx, guild_id: int, seat: int, amount: int) -> None:
    """What fund_house did before migration 6: a bankroll under the seat's own id."""
    await tx.execute(
        "INSERT INTO accounts (guild_id, user_id, balance, created_at, updated_at) "
        "VALUES (?, ?, 0, 1, 1)",
        (guild_id, seat),
    )
    await house_accounts.move(tx, guild_id, seat, amount, "house_fund", HOUSE_FUND_NOW)


async def _old_house_buy_in(tx: Tx, table_id: int, seat: int, amount: int) -> None:
    """What a house seat's buy-in did before migration 6: from its own bankroll."""
    table = await table_queries.get_table(tx, table_id)
    await house_accounts.move(
        tx, table.guild_id, seat, -amount, "buy_in", HOUSE_FUND_NOW, table_id=table_id
    )
    seats = {p.user_id: p.stack for p in await table_queries.table_players(tx, table_id)}
    chips = table.chips_on_table + amount
    await table_queries.save(
        tx, table, TableSave(state(), chips, {**seats, seat: amount}), HOUSE_FUND_NOW, None
    )


async def test_migration_6_moves_seat_bankrolls_into_the_house_account(
    empty_store: str,
) -> None:
    dialect = "postgres" if empty_store.startswith("postgresql") else "sqlite"
    shipped = load_migrations(dialect)  # type: ignore[arg-type]
    assert shipped[5].name == "house_account"
    old = await Database.open(empty_store, migrations=shipped[:5])
    try:
        table = await old.create_table(GUILD, 100, 7, "{}")
        await seat_players(old, table, {7: 100})

        async def before(tx: Tx) -> None:
            await _old_seat_bankroll(tx, GUILD, -101, 300)
            await _old_seat_bankroll(tx, GUILD, -201, 150)
            await _old_seat_bankroll(tx, GUILD, -301, 40)
            await _old_house_buy_in(tx, table.table_id, -301, 40)  # its bankroll now empty
            await _old_seat_bankroll(tx, OTHER_GUILD, -102, 70)

        await old._write(before)
        assert (await old.chip_audit()).ok
    finally:
        await old.close()

    db = await Database.open(empty_store)
    try:
        assert await db.schema_version() == len(shipped)
        assert (await db.house_balance(GUILD), await db.house_balance(OTHER_GUILD)) == (450, 70)
        assert await kinds(db, HOUSE_ACCOUNT) == [("house_merge", 450, None)]
        assert (await kinds(db, -101))[-1] == ("house_merge", -300, HOUSE_ACCOUNT)
        assert (await kinds(db, -301))[-1] == ("buy_in", -40, None)  # nothing to move
        for guild_id in (GUILD, OTHER_GUILD):
            await audited(db, guild_id)
        everywhere = await db.chip_audit()
        assert everywhere.ok and everywhere.house == 520
        # a seat that bought in from its old bankroll cashes out to the house account
        entry = await db.cash_out(
            GUILD, -301, table.table_id, 40, TableSave(state(stacks={7: 100}), 100, {7: 100})
        )
        assert (entry.user_id, entry.balance_after) == (HOUSE_ACCOUNT, 490)
        await audited(db)
        board = await db.leaderboard(GUILD)
        assert [e.user_id for e in board.items] == [7]
    finally:
        await db.close()


async def test_simultaneous_house_buy_ins_all_land(db: Database) -> None:
    """House seats at several tables buy in at once from one house account that holds enough
    for one of them only: each is funded what it lacks, none is refused, the audit is exact
    (on PostgreSQL the transactions really overlap and conflicts are run again)."""
    await db.fund_house(GUILD, -101, 150, now=1)
    tables = [await db.create_table(GUILD, 300 + n, 7, "{}") for n in range(6)]

    async def buy(n: int) -> None:
        table, seat = tables[n], -(201 + n)
        await db.buy_in(
            GUILD, seat, table.table_id, 100, TableSave(state(), 100, {seat: 100}), seat=0
        )

    await asyncio.gather(*(buy(n) for n in range(6)))
    for table in tables:
        assert [p.stack for p in await db.table_players(table.table_id)] == [100]
    assert await db.house_balance(GUILD) == 0
    issued = sum(d for k, d, _ in await kinds(db, HOUSE_ACCOUNT) if k == "house_fund")
    assert issued == 600
    await audited(db)
