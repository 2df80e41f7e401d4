"""The night's ledger, read back from the buy-in, top-up and cash-out rows (both backends)."""

from __future__ import annotations

import pytest

from data import Database, TableSave
from data.errors import InvalidArgument, TableNotFound
from data.ledger import NightLedger
from tests.data.helpers import CHANNEL, GUILD, OTHER_GUILD, seat_players, state

ANN, BOB, CLEO, HOUSE_SEAT = 5, 6, 7, -3
DAN, EVE, FAY = 8, 9, 10


async def ledger_of(db: Database, table_id: int) -> NightLedger:
    night = await db.night_ledger(table_id)
    assert night is not None  # by table id: the table's, or TableNotFound
    return night


async def night_at_one_table(db: Database) -> int:
    """Ann, Bob, Cleo and a house seat; Bob rebuys twice, Cleo leaves early with a profit."""
    table = await db.create_table(GUILD, CHANNEL, ANN, "{}", now=100)
    tid = table.table_id
    stacks = {ANN: 300}
    await db.buy_in(GUILD, ANN, tid, 300, TableSave(state(), 300, stacks), seat=0, now=110)
    stacks[BOB] = 200
    await db.buy_in(GUILD, BOB, tid, 200, TableSave(state(), 500, stacks), seat=1, now=120)
    stacks[CLEO] = 200
    await db.buy_in(GUILD, CLEO, tid, 200, TableSave(state(), 700, stacks), seat=2, now=130)
    stacks[HOUSE_SEAT] = 100
    await db.buy_in(GUILD, HOUSE_SEAT, tid, 100, TableSave(state(), 800, stacks), seat=3, now=140)
    # Bob loses everything: 100 to Ann, 100 to Cleo; he rebuys 100, twice.
    stacks = {ANN: 400, BOB: 0, CLEO: 300, HOUSE_SEAT: 100}
    await db.save_table_state(tid, TableSave(state(), 800, stacks), now=150)
    stacks[BOB] = 100
    await db.buy_in(GUILD, BOB, tid, 100, TableSave(state(), 900, stacks), now=160)
    stacks[BOB] = 200
    await db.buy_in(GUILD, BOB, tid, 100, TableSave(state(), 1000, stacks), now=170)
    # Cleo leaves with 300.
    del stacks[CLEO]
    await db.cash_out(GUILD, CLEO, tid, 300, TableSave(state(), 700, stacks), now=180)
    # Ann wins 50 from the house seat.
    stacks = {ANN: 450, BOB: 200, HOUSE_SEAT: 50}
    await db.save_table_state(tid, TableSave(state(), 700, stacks), now=190)
    return tid


async def test_an_open_table_lists_stacks_and_nets(db: Database) -> None:
    tid = await night_at_one_table(db)
    night = await ledger_of(db, tid)
    lines = {line.player_id: line for line in night.table.lines}
    assert list(lines) == [ANN, BOB, CLEO, HOUSE_SEAT]  # by start of session
    assert [
        (ln.buy_in, ln.rebuys, ln.rebuy_count, ln.cashed_out, ln.stack, ln.seated, ln.net)
        for ln in lines.values()
    ] == [
        (300, 0, 0, 0, 450, True, 150),
        (200, 200, 2, 0, 200, True, -200),
        (200, 0, 0, 300, 0, False, 100),
        (100, 0, 0, 0, 50, True, -50),
    ]
    assert (lines[CLEO].started_at, lines[CLEO].ended_at) == (130.0, 180.0)
    assert (lines[BOB].started_at, lines[BOB].ended_at) == (120.0, None)
    assert night.table.in_play == 0
    assert [t.table.table_id for t in night.night] == [tid]
    assert night.nets() == {ANN: 150, BOB: -200, CLEO: 100, HOUSE_SEAT: -50}


async def test_a_closed_table_has_every_chip_cashed_out(db: Database) -> None:
    tid = await night_at_one_table(db)
    await db.close_table(tid, {ANN: 450, BOB: 200, HOUSE_SEAT: 50}, now=300)
    night = await ledger_of(db, tid)
    assert [
        (ln.player_id, ln.cashed_out, ln.stack, ln.net, ln.ended_at) for ln in night.table.lines
    ] == [
        (ANN, 450, 0, 150, 300.0),
        (BOB, 200, 0, -200, 300.0),
        (CLEO, 300, 0, 100, 180.0),
        (HOUSE_SEAT, 50, 0, -50, 300.0),
    ]
    assert night.table.table.status == "closed"


async def test_chips_in_a_pot_are_in_play_not_in_a_net(db: Database) -> None:
    tid = await night_at_one_table(db)
    # A hand under way: Ann and Bob have 20 each in the pot (in no stack).
    await db.save_table_state(
        tid, TableSave(state(), 700, {ANN: 430, BOB: 180, HOUSE_SEAT: 50}), now=195
    )
    ledger = (await ledger_of(db, tid)).table
    assert ledger.in_play == 40


async def test_a_night_is_the_tables_close_in_time_on_one_server(db: Database) -> None:
    first = await night_at_one_table(db)
    await db.close_table(first, {ANN: 450, BOB: 200, HOUSE_SEAT: 50}, now=300)
    # A second table in another channel an hour later: same night.
    second = (await db.create_table(GUILD, CHANNEL + 1, BOB, "{}", now=3600)).table_id
    await db.buy_in(GUILD, BOB, second, 100, TableSave(state(), 100, {BOB: 100}), seat=0, now=3601)
    await db.buy_in(
        GUILD, CLEO, second, 100, TableSave(state(), 200, {BOB: 100, CLEO: 100}), now=3602
    )
    await db.save_table_state(second, TableSave(state(), 200, {BOB: 160, CLEO: 40}), now=3603)
    # Another server's table, and a table of the next week: not this night.
    other = (await db.create_table(OTHER_GUILD, CHANNEL + 2, BOB, "{}", now=3600)).table_id
    next_week = 3600 + 7 * 86400
    week = (await db.create_table(GUILD, CHANNEL + 3, BOB, "{}", now=next_week)).table_id

    night = await ledger_of(db, first)
    assert [t.table.table_id for t in night.night] == [first, second]
    assert night.nets() == {ANN: 150, BOB: -140, CLEO: 40, HOUSE_SEAT: -50}
    later = await ledger_of(db, second)
    assert later.table.table.table_id == second
    assert [t.table.table_id for t in later.night] == [first, second]
    assert [t.table.table_id for t in (await ledger_of(db, other)).night] == [other]
    week_night = await ledger_of(db, week)
    assert [t.table.table_id for t in week_night.night] == [week]
    # The second table is still open, but idle since: it does not reach next week.
    assert (await db.get_table(second)).status == "open"


async def test_a_night_is_the_tables_whose_players_sat_together(db: Database) -> None:
    """Two home games on one server the same evening were one night: the settle-up paired
    Ann with Dan, who never sat at a table together. A night is now the tables of the window
    linked by the members they share (a house seat links nothing: it is the server's)."""
    first = await night_at_one_table(db)  # Ann, Bob, Cleo and the house seat
    await db.close_table(first, {ANN: 450, BOB: 200, HOUSE_SEAT: 50}, now=300)
    # Dan and Eve's game in another channel, with a house seat of the same id.
    other = await db.create_table(GUILD, CHANNEL + 1, DAN, "{}", now=200)
    await seat_players(db, other, {DAN: 100, EVE: 100, HOUSE_SEAT: 100}, now=210)
    # Later, Eve plays on with Fay: still Dan and Eve's night.
    third = await db.create_table(GUILD, CHANNEL + 2, EVE, "{}", now=3000)
    await seat_players(db, third, {EVE: 50, FAY: 50}, now=3010)
    # A table nobody sat at yet joins no one's night.
    empty = (await db.create_table(GUILD, CHANNEL + 3, ANN, "{}", now=3100)).table_id

    ids = [other.table_id, third.table_id]
    assert [t.table.table_id for t in (await ledger_of(db, first)).night] == [first]
    assert [t.table.table_id for t in (await ledger_of(db, other.table_id)).night] == ids
    night = await ledger_of(db, third.table_id)
    assert [t.table.table_id for t in night.night] == ids
    assert set(night.nets()) == {DAN, EVE, FAY, HOUSE_SEAT}
    assert [t.table.table_id for t in (await ledger_of(db, empty)).night] == [empty]


async def test_an_unknown_table_is_refused(db: Database) -> None:
    with pytest.raises(TableNotFound):
        await db.night_ledger(999)
    with pytest.raises(InvalidArgument):
        await db.night_ledger()
    assert await db.night_ledger(channel_id=CHANNEL) is None


async def test_a_channel_shows_its_open_table_else_its_last(db: Database) -> None:
    first = await night_at_one_table(db)
    await db.close_table(first, {ANN: 450, BOB: 200, HOUSE_SEAT: 50}, now=300)
    found = await db.night_ledger(channel_id=CHANNEL)
    assert found is not None and found.table.table.table_id == first
    second = (await db.create_table(GUILD, CHANNEL, BOB, "{}", now=400)).table_id
    await db.create_table(GUILD, CHANNEL + 1, BOB, "{}", now=500)  # a later one elsewhere
    found = await db.night_ledger(channel_id=CHANNEL)
    assert found is not None and found.table.table.table_id == second
