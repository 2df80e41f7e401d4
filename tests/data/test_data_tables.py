"""Tables: one open per channel, buy-ins, cash-outs, state saves, closing, the leaderboard."""

from __future__ import annotations

import json

import pytest

from data import (
    ChipsMismatch,
    Database,
    EventConflict,
    InsufficientFunds,
    InvalidArgument,
    NoHandInProgress,
    TableClosed,
    TableExists,
    TableNotFound,
    TableSave,
    WrongGuild,
)

from .helpers import (
    ADMIN,
    CHANNEL,
    GUILD,
    OTHER_GUILD,
    channel_table,
    seat_players,
    start_hand,
    state,
)


async def snapshot(db: Database, table_id: int) -> tuple[object, ...]:
    """Everything a failed operation must leave untouched."""
    table = await db.get_table(table_id)
    return (
        table,
        await db.table_players(table_id),
        await db.ledger(GUILD, limit=100),
        await db.leaderboard(GUILD, limit=100),
        await db.list_hands(table_id, limit=100),
    )


async def test_create_and_read_table(db: Database) -> None:
    table = await db.create_table(GUILD, CHANNEL, 5, '{"variant": "draw"}', now=7)
    assert (table.status, table.chips_on_table, table.state_json, table.message_id) == (
        "open",
        0,
        None,
        None,
    )
    assert (table.created_at, table.updated_at, table.closed_at) == (7.0, 7.0, None)
    assert await db.get_table(table.table_id) == table
    assert await channel_table(db, CHANNEL) == table
    assert await channel_table(db, CHANNEL + 1) is None
    assert await db.open_tables() == [table]
    assert await db.open_tables(OTHER_GUILD) == []

    updated = await db.update_table(table.table_id, message_id=555, now=8)
    assert (updated.message_id, updated.config_json, updated.updated_at) == (
        555,
        '{"variant": "draw"}',
        8.0,
    )
    updated = await db.update_table(table.table_id, config_json='{"variant": "lowball"}')
    assert (updated.message_id, updated.config_json) == (555, '{"variant": "lowball"}')
    with pytest.raises(TableNotFound):
        await db.get_table(999)
    with pytest.raises(InvalidArgument):
        await db.create_table(GUILD, CHANNEL + 1, 5, "not json")


async def test_one_open_table_per_channel(db: Database) -> None:
    first = await db.create_table(GUILD, CHANNEL, 5, "{}")
    with pytest.raises(TableExists) as info:
        await db.create_table(GUILD, CHANNEL, 6, "{}")
    assert info.value.table_id == first.table_id
    assert len(await db.open_tables()) == 1
    other = await db.create_table(GUILD, CHANNEL + 1, 6, "{}")  # another channel is fine
    await db.close_table(first.table_id, {})
    again = await db.create_table(GUILD, CHANNEL, 6, "{}")  # after closing, a new one is fine
    assert again.table_id not in (first.table_id, other.table_id)
    assert {t.table_id for t in await db.open_tables(GUILD)} == {other.table_id, again.table_id}


async def test_partial_unique_index_enforced_by_sqlite(file_db: Database) -> None:
    """Even a write that bypassed the API could not open a second table in a channel."""
    import sqlite3

    await file_db.create_table(GUILD, CHANNEL, 5, "{}")
    raw = sqlite3.connect(file_db.path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            raw.execute(
                "INSERT INTO tables (guild_id, channel_id, creator_id, config, created_at, "
                "updated_at) VALUES (1, ?, 5, '{}', 0, 0)",
                (CHANNEL,),
            )
    finally:
        raw.close()


async def test_buy_in_top_up_and_cash_out(db: Database) -> None:
    table = await db.create_table(GUILD, CHANNEL, 5, "{}")
    entry = await db.buy_in(
        GUILD, 5, table.table_id, 300, TableSave(state(a=1), 300, {5: 300}), seat=2, now=10
    )
    assert (entry.kind, entry.delta, entry.balance_after, entry.table_id) == (
        "buy_in",
        -300,
        700,
        table.table_id,
    )
    top_up = await db.buy_in(GUILD, 5, table.table_id, 100, TableSave(state(a=2), 400, {5: 400}))
    assert (top_up.kind, top_up.balance_after) == ("top_up", 600)
    await db.buy_in(
        GUILD, 6, table.table_id, 50, TableSave(state(a=3), 450, {5: 400, 6: 50}), seat=0
    )

    current = await db.get_table(table.table_id)
    assert (current.chips_on_table, current.state_json) == (450, state(a=3))
    players = await db.table_players(table.table_id)
    assert [(p.user_id, p.seat, p.stack) for p in players] == [(6, 0, 50), (5, 2, 400)]

    out = await db.cash_out(GUILD, 5, table.table_id, 380, TableSave(state(a=4), 70, {6: 70}))
    assert (out.kind, out.delta, out.balance_after) == ("cash_out", 380, 980)
    assert [(p.user_id, p.stack) for p in await db.table_players(table.table_id)] == [(6, 70)]
    assert (await db.get_table(table.table_id)).chips_on_table == 70
    audit = await db.chip_audit(GUILD)
    assert audit.ok, audit
    assert (audit.bankrolls, audit.on_tables) == (980 + 950, 70)


async def test_insufficient_funds_changes_nothing(db: Database) -> None:
    table = await db.create_table(GUILD, CHANNEL, 5, "{}")
    stacks = await seat_players(db, table, {5: 900})
    before = await snapshot(db, table.table_id)
    with pytest.raises(InsufficientFunds) as info:
        await db.buy_in(GUILD, 5, table.table_id, 101, TableSave(state(x=1), 1001, {5: 1001}))
    assert (info.value.balance, info.value.needed) == (100, 101)
    assert "100" in str(info.value) and "101" in str(info.value)
    assert await snapshot(db, table.table_id) == before
    assert stacks == {5: 900}

    # a brand-new member: the account creation is rolled back too
    with pytest.raises(InsufficientFunds):
        await db.buy_in(
            GUILD, 6, table.table_id, 1001, TableSave(state(x=1), 1901, {5: 900, 6: 1001})
        )
    assert await snapshot(db, table.table_id) == before
    assert (await db.chip_audit()).ok


async def test_buy_in_checks(db: Database) -> None:
    table = await db.create_table(GUILD, CHANNEL, 5, "{}")
    await seat_players(db, table, {5: 100})
    before = await snapshot(db, table.table_id)
    tid = table.table_id
    with pytest.raises(ChipsMismatch) as info:
        await db.buy_in(GUILD, 6, tid, 50, TableSave(state(), 140, {5: 100, 6: 40}))
    assert (info.value.expected, info.value.got) == (150, 140)
    with pytest.raises(WrongGuild):
        await db.buy_in(OTHER_GUILD, 6, tid, 50, TableSave(state(), 150, {5: 100, 6: 50}))
    with pytest.raises(TableNotFound):
        await db.buy_in(GUILD, 6, 999, 50, TableSave(state(), 50, {6: 50}))
    with pytest.raises(InvalidArgument, match="include"):
        await db.buy_in(GUILD, 6, tid, 50, TableSave(state(), 150, {5: 100}))
    with pytest.raises(InvalidArgument, match="add up"):
        await db.buy_in(GUILD, 6, tid, 50, TableSave(state(), 150, {5: 101, 6: 50}))
    with pytest.raises(InvalidArgument, match="taken"):
        await db.buy_in(GUILD, 6, tid, 50, TableSave(state(), 150, {5: 100, 6: 50}), seat=0)
    with pytest.raises(InvalidArgument):
        await db.buy_in(GUILD, 6, tid, 0, TableSave(state(), 100, {5: 100, 6: 0}))
    with pytest.raises(InvalidArgument, match="JSON"):
        await db.buy_in(GUILD, 6, tid, 50, TableSave("{oops", 150, {5: 100, 6: 50}))
    with pytest.raises(NoHandInProgress):
        await db.buy_in(GUILD, 6, tid, 50, TableSave(state(), 150, {5: 100, 6: 50}, [(0, "{}")]))
    assert await snapshot(db, tid) == before


async def test_cash_out_checks(db: Database) -> None:
    table = await db.create_table(GUILD, CHANNEL, 5, "{}")
    await seat_players(db, table, {5: 100, 6: 100})
    before = await snapshot(db, table.table_id)
    tid = table.table_id
    with pytest.raises(ChipsMismatch):
        await db.cash_out(GUILD, 5, tid, 100, TableSave(state(), 150, {6: 100}))
    with pytest.raises(InvalidArgument, match="never bought in"):
        await db.cash_out(GUILD, 7, tid, 50, TableSave(state(), 150, {5: 100, 6: 50}))
    with pytest.raises(InvalidArgument):
        await db.cash_out(GUILD, 5, tid, -1, TableSave(state(), 201, {5: 100, 6: 100}))
    assert await snapshot(db, tid) == before
    # a busted player leaving with nothing is recorded too
    entry = await db.cash_out(GUILD, 5, tid, 0, TableSave(state(), 200, {6: 200}))
    assert (entry.kind, entry.delta) == ("cash_out", 0)


async def test_save_table_state(db: Database) -> None:
    table = await db.create_table(GUILD, CHANNEL, 5, "{}")
    stacks = await seat_players(db, table, {5: 100, 6: 100})
    tid = table.table_id
    with pytest.raises(NoHandInProgress):
        await db.save_table_state(tid, TableSave(state(), 200, stacks, [(0, "{}")]))
    await db.save_table_state(tid, TableSave(state(between="hands"), 200, {5: 90, 6: 110}), now=30)
    current = await db.get_table(tid)
    assert (current.state_json, current.updated_at) == (state(between="hands"), 30.0)
    assert [p.stack for p in await db.table_players(tid)] == [90, 110]
    assert [p.seat for p in await db.table_players(tid)] == [0, 1]  # seats kept

    hand = await start_hand(db, table, {5: 90, 6: 110})
    events = [(1, json.dumps({"bet": 10})), (2, json.dumps({"call": 10}))]
    await db.save_table_state(tid, TableSave(state(step=2), 200, {5: 80, 6: 100}, events))
    # stacks exclude the pot: 180 seated + 20 in the pot
    assert sum(p.stack for p in await db.table_players(tid)) == 180
    # a replayed save (same seqs, same content) does not duplicate anything
    await db.save_table_state(tid, TableSave(state(step=2), 200, {5: 80, 6: 100}, events))
    got = await db.hand_events(hand.hand_id, allow_in_progress=True)
    assert [(e.seq, json.loads(e.event_json)) for e in got] == [
        (0, {"type": "deal"}),
        (1, {"bet": 10}),
        (2, {"call": 10}),
    ]

    before = await snapshot(db, tid)
    with pytest.raises(EventConflict) as info:
        await db.save_table_state(
            tid, TableSave(state(step=3), 200, {5: 80, 6: 100}, [(2, '{"fold": 1}')])
        )
    assert info.value.seq == 2
    with pytest.raises(ChipsMismatch):
        await db.save_table_state(tid, TableSave(state(step=3), 201, {5: 80, 6: 100}, [(3, "{}")]))
    with pytest.raises(InvalidArgument, match="JSON"):
        await db.save_table_state(
            tid, TableSave(state(step=3), 200, {5: 80, 6: 100}, [(3, "{bad")])
        )
    with pytest.raises(InvalidArgument):
        await db.save_table_state(tid, TableSave(state(step=3), 200, {5: -1}, [(3, "{}")]))
    with pytest.raises(InvalidArgument):
        await db.save_table_state(tid, TableSave(state(step=3), 200, {5: 80}, [(-1, "{}")]))
    with pytest.raises(TableNotFound):
        await db.save_table_state(999, TableSave(state(), 0, {}))
    # the four values travel as one: loose ones are refused, with the reason
    with pytest.raises(InvalidArgument, match="TableSave"):
        await db.save_table_state(tid, (state(), 200, {5: 80, 6: 100}))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="map user ids"):
        await db.save_table_state(tid, TableSave(state(), 200, [(5, 80)]))  # type: ignore[arg-type]
    assert await snapshot(db, tid) == before
    assert len(await db.hand_events(hand.hand_id, allow_in_progress=True)) == 3

    # a player standing up between hands leaves the projection
    await db.save_table_state(tid, TableSave(state(step=4), 200, {6: 100}))
    assert [p.user_id for p in await db.table_players(tid)] == [6]


async def test_close_table_pays_everyone(db: Database) -> None:
    table = await db.create_table(GUILD, CHANNEL, 5, "{}")
    await seat_players(db, table, {5: 100, 6: 200, 7: 300})
    tid = table.table_id
    await db.save_table_state(tid, TableSave(state(), 600, {5: 0, 6: 250, 7: 350}))
    before = await snapshot(db, tid)
    with pytest.raises(ChipsMismatch, match="payouts"):
        await db.close_table(tid, {6: 250, 7: 340})
    with pytest.raises(InvalidArgument, match="never bought in"):
        await db.close_table(tid, {6: 250, 7: 300, 8: 50})
    assert await snapshot(db, tid) == before

    entries = await db.close_table(tid, {5: 0, 6: 250, 7: 350}, state_json=state(over=1), now=99)
    assert [(e.user_id, e.kind, e.delta, e.note) for e in entries] == [
        (5, "cash_out", 0, "table closed"),
        (6, "cash_out", 250, "table closed"),
        (7, "cash_out", 350, "table closed"),
    ]
    closed = await db.get_table(tid)
    assert (closed.status, closed.chips_on_table, closed.closed_at, closed.state_json) == (
        "closed",
        0,
        99.0,
        state(over=1),
    )
    assert await db.table_players(tid) == []
    assert await channel_table(db, CHANNEL) is None
    assert [await db.balance(GUILD, u) for u in (5, 6, 7)] == [900, 1050, 1050]
    assert (await db.chip_audit()).ok
    with pytest.raises(TableClosed):
        await db.save_table_state(tid, TableSave(state(), 0, {}))
    with pytest.raises(TableClosed):
        await db.buy_in(GUILD, 5, tid, 10, TableSave(state(), 10, {5: 10}))
    with pytest.raises(TableClosed):
        await db.close_table(tid, {})
    with pytest.raises(TableClosed):
        await db.update_table(tid, message_id=1)


async def test_close_table_mid_hand_ends_the_hand(db: Database) -> None:
    table = await db.create_table(GUILD, CHANNEL, 5, "{}")
    stacks = await seat_players(db, table, {5: 100, 6: 100})
    hand = await start_hand(db, table, stacks)
    # 10 each in the pot; closing refunds it
    await db.save_table_state(table.table_id, TableSave(state(), 200, {5: 90, 6: 90}, [(1, "{}")]))
    entries = await db.close_table(table.table_id, {5: 100, 6: 100}, now=50)
    assert all(e.hand_id == hand.hand_id for e in entries)
    ended = await db.get_hand(hand.hand_id)
    assert (ended.ended_at, ended.result_json, ended.in_progress) == (50.0, None, False)
    assert (await db.hand_secrets(hand.hand_id)).deck == "As Kd Qh"
    assert (await db.chip_audit()).ok


async def test_leaderboard_counts_chips_on_tables(db: Database) -> None:
    t1 = await db.create_table(GUILD, CHANNEL, 5, "{}")
    t2 = await db.create_table(GUILD, CHANNEL + 1, 5, "{}")
    await seat_players(db, t1, {5: 500, 6: 100})
    await seat_players(db, t2, {5: 300})
    await db.admin_grant(GUILD, ADMIN, 7, 50)
    await db.balance(GUILD, 8)
    await db.balance(OTHER_GUILD, 9)  # another server: not on this board
    await db.save_table_state(t1.table_id, TableSave(state(), 600, {5: 400, 6: 200}))

    board = await db.leaderboard(GUILD)
    assert board.total == 4
    assert [(e.rank, e.user_id, e.bankroll, e.on_tables, e.total) for e in board.items] == [
        (1, 6, 900, 200, 1100),
        (2, 7, 1050, 0, 1050),
        (3, 8, 1000, 0, 1000),
        (4, 5, 200, 700, 900),
    ]
    page = await db.leaderboard(GUILD, offset=2, limit=2)
    assert [(e.rank, e.user_id) for e in page.items] == [(3, 8), (4, 5)]
    assert (page.total, page.has_next, page.has_previous) == (4, False, True)
    # closing a table moves its chips back to bankrolls: totals unchanged
    await db.close_table(t1.table_id, {5: 400, 6: 200})
    after = await db.leaderboard(GUILD)
    assert [(e.user_id, e.on_tables, e.total) for e in after.items] == [
        (6, 0, 1100),
        (7, 0, 1050),
        (8, 0, 1000),
        (5, 300, 900),
    ]


async def test_chips_on_tables_in_one_query(db: Database) -> None:
    """A member's chips on a server's open tables: other servers and closed tables left out."""
    t1 = await db.create_table(GUILD, CHANNEL, 5, "{}")
    t2 = await db.create_table(GUILD, CHANNEL + 1, 5, "{}")
    t3 = await db.create_table(GUILD, CHANNEL + 2, 5, "{}")
    elsewhere = await db.create_table(OTHER_GUILD, CHANNEL + 3, 5, "{}")
    await seat_players(db, t1, {5: 500, 6: 100})
    await seat_players(db, t2, {5: 300})
    await seat_players(db, t3, {6: 50, 5: 20})
    await seat_players(db, elsewhere, {5: 70})
    await db.save_table_state(t1.table_id, TableSave(state(), 600, {5: 400, 6: 200}))
    # busted, still seated
    await db.save_table_state(t3.table_id, TableSave(state(), 70, {6: 70, 5: 0}))

    assert await db.chips_on_tables(GUILD, 5) == (700, 3)
    assert await db.chips_on_tables(GUILD, 6) == (270, 2)
    assert await db.chips_on_tables(OTHER_GUILD, 5) == (70, 1)
    assert await db.chips_on_tables(OTHER_GUILD, 6) == (0, 0)
    assert await db.chips_on_tables(GUILD, 7) == (0, 0)  # never played: no account made

    await db.close_table(t1.table_id, {5: 400, 6: 200})
    assert await db.chips_on_tables(GUILD, 5) == (300, 2)
    assert await db.chips_on_tables(GUILD, 6) == (70, 1)
    assert (await db.ledger(GUILD, 7)).total == 0

    if db.path == ":memory:":
        # White-box: one statement, however many tables the server has open (SQLite traces
        # its statements; the query is the same text on PostgreSQL).
        conn = db._backend._conn  # type: ignore[attr-defined]
        statements: list[str] = []
        await conn.set_trace_callback(statements.append)
        try:
            await db.chips_on_tables(GUILD, 5)
        finally:
            await conn.set_trace_callback(None)
        assert [s for s in statements if s not in ("BEGIN", "COMMIT")] == [
            s for s in statements if s.startswith("SELECT")
        ]
        assert len(statements) == 3, statements

    with pytest.raises(InvalidArgument):
        await db.chips_on_tables(GUILD, "5")  # type: ignore[arg-type]
