"""Queries about poker tables: opening and closing them, buy-ins, top-ups and cash-outs, and the
engine snapshot saved after every event (with the seat projection and the hand's new events).

Conservation of chips at a table: ``chips_on_table`` changes only by a buy-in, a top-up or a
cash-out (each a ledger row written by :func:`data.accounts.move` in the same transaction).
Every other save must bring the same ``chips_on_table`` as the table holds or it is refused
(:class:`ChipsMismatch`); hence ``issued - removed == bankrolls + chips on tables`` always.

Seats are by user id, but the chips of a house seat come from and go back to the server's house
account (:func:`data.accounts.holder`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from data import accounts
from data.core import Row, Tx, marks, one, seconds
from data.errors import (
    ChipsMismatch,
    ConstraintViolation,
    EventConflict,
    InvalidArgument,
    NoHandInProgress,
    TableClosed,
    TableExists,
    TableNotFound,
    WrongGuild,
)
from data.models import HandEventIn, LedgerEntry, Table, TablePlayer, TableSave


def _table(r: Row) -> Table:
    return Table(
        r["table_id"],
        r["guild_id"],
        r["channel_id"],
        r["creator_id"],
        r["status"],
        r["config"],
        r["state"],
        r["chips_on_table"],
        r["message_id"],
        r["current_hand_id"],
        float(r["created_at"]),
        float(r["updated_at"]),
        seconds(r["closed_at"]),
        r["tournament_id"],
    )


table_row = _table
"""A ``tables`` row as a :class:`~data.models.Table` (for the other query modules)."""


def check_chips(table: Table, expected: int, got: int) -> None:
    if got != expected:
        raise ChipsMismatch(table.table_id, expected, got)


async def open_table(tx: Tx, table_id: int, guild_id: int | None = None) -> Table:
    """An OPEN table (TableNotFound / WrongGuild / TableClosed otherwise)."""
    r = await tx.fetch_one("SELECT * FROM tables WHERE table_id = ?", (table_id,))
    if r is None:
        raise TableNotFound(table_id)
    table = _table(r)
    if guild_id is not None and table.guild_id != guild_id:
        raise WrongGuild(table_id, guild_id, table.guild_id)
    if table.status != "open":
        raise TableClosed(table_id)
    return table


# ------------------------------------------------------------------------------ reads


async def get_table(tx: Tx, table_id: int) -> Table:
    r = await tx.fetch_one("SELECT * FROM tables WHERE table_id = ?", (table_id,))
    if r is None:
        raise TableNotFound(table_id)
    return _table(r)


async def open_tables(tx: Tx, guild_id: int | None) -> list[Table]:
    if guild_id is None:
        rows = await tx.fetch_all("SELECT * FROM tables WHERE status = 'open' ORDER BY table_id")
    else:
        rows = await tx.fetch_all(
            "SELECT * FROM tables WHERE status = 'open' AND guild_id = ? ORDER BY table_id",
            (guild_id,),
        )
    return [_table(r) for r in rows]


async def table_players(tx: Tx, table_id: int) -> list[TablePlayer]:
    rows = await tx.fetch_all(
        "SELECT table_id, user_id, seat, stack FROM table_players WHERE table_id = ? "
        "ORDER BY seat IS NULL, seat, user_id",
        (table_id,),
    )
    return [TablePlayer(r[0], r[1], r[2], r[3]) for r in rows]


async def chips_on_tables(tx: Tx, guild_id: int, user_id: int) -> tuple[int, int]:
    r = await one(
        tx,
        "SELECT coalesce(sum(p.stack), 0), count(*) FROM table_players AS p "
        "JOIN tables AS t ON t.table_id = p.table_id "
        "WHERE p.guild_id = ? AND p.user_id = ? AND t.status = 'open' "
        "AND t.tournament_id IS NULL",
        (guild_id, user_id),
    )
    return int(r[0]), int(r[1])


# ------------------------------------------------------------------------------ lifecycle


async def create_table(
    tx: Tx,
    guild_id: int,
    channel_id: int,
    creator_id: int,
    config_json: str,
    state_json: str | None,
    message_id: int | None,
    now: float,
    tournament_id: int | None = None,
) -> Table:
    """A new open table (a tournament's with ``tournament_id``): one per channel."""
    existing = await tx.fetch_one(
        "SELECT table_id FROM tables WHERE channel_id = ? AND status = 'open'", (channel_id,)
    )
    if existing is not None:
        raise TableExists(channel_id, existing[0])
    r = await one(
        tx,
        "INSERT INTO tables (guild_id, channel_id, creator_id, config, state, message_id, "
        "created_at, updated_at, tournament_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
        (
            guild_id,
            channel_id,
            creator_id,
            config_json,
            state_json,
            message_id,
            now,
            now,
            tournament_id,
        ),
    )
    return _table(r)


async def update_table(
    tx: Tx, table_id: int, config_json: str | None, message_id: int | None, now: float
) -> Table:
    await open_table(tx, table_id)
    r = await one(
        tx,
        "UPDATE tables SET config = coalesce(?, config), "
        "message_id = coalesce(?, message_id), updated_at = ? WHERE table_id = ? "
        "RETURNING *",
        (config_json, message_id, now, table_id),
    )
    return _table(r)


async def close_table(
    tx: Tx, table_id: int, pay: list[tuple[int, int]], state_json: str | None, now: float
) -> list[LedgerEntry]:
    """``pay`` is ``(user_id, chips)`` sorted by user id."""
    table = await open_table(tx, table_id)
    total = sum(amount for _, amount in pay)
    if total != table.chips_on_table:
        raise ChipsMismatch(table_id, table.chips_on_table, total, "the sum of payouts")
    await require_players(tx, table_id, [user for user, _ in pay])
    if any(accounts.holder(user) != user for user, _ in pay):
        await accounts.open_house(tx, table.guild_id, now)
    entries = [
        await accounts.move(
            tx,
            table.guild_id,
            accounts.holder(user),
            amount,
            "cash_out",
            now,
            table_id=table_id,
            hand_id=table.current_hand_id,
            actor_id=accounts.seat_actor(user),
            note="table closed",
        )
        for user, amount in pay
    ]
    if table.current_hand_id is not None:
        await end_unfinished_hand(tx, table.current_hand_id, now)
    await tx.execute("DELETE FROM table_players WHERE table_id = ?", (table_id,))
    await tx.execute(
        "UPDATE tables SET status = 'closed', chips_on_table = 0, current_hand_id = NULL, "
        "state = coalesce(?, state), updated_at = ?, closed_at = ? WHERE table_id = ?",
        (state_json, now, now, table_id),
    )
    return entries


async def end_unfinished_hand(tx: Tx, hand_id: int, now: float) -> None:
    """A hand still in progress at a table that closes ends without a result, which also
    unlocks its secrets."""
    await tx.execute("UPDATE hands SET ended_at = ? WHERE hand_id = ?", (now, hand_id))


# ------------------------------------------------------------------------------ chips in and out


async def buy_in(
    tx: Tx,
    guild_id: int,
    user_id: int,
    table_id: int,
    amount: int,
    state: TableSave,
    seat: int | None,
    now: float,
) -> LedgerEntry:
    table = await open_table(tx, table_id, guild_id)
    check_chips(table, table.chips_on_table + amount, state.chips)
    if accounts.holder(user_id) == user_id:
        await accounts.account(tx, guild_id, user_id, now)
    else:
        # the house never runs short: what it lacks is issued here, in the same transaction
        await accounts.fund_house(tx, guild_id, user_id, amount, now)
    seated = await tx.fetch_one(
        "SELECT 1 FROM table_players WHERE table_id = ? AND user_id = ?", (table_id, user_id)
    )
    entry = await accounts.move(
        tx,
        guild_id,
        accounts.holder(user_id),
        -amount,
        "top_up" if seated else "buy_in",
        now,
        table_id=table_id,
        hand_id=table.current_hand_id,
        actor_id=accounts.seat_actor(user_id),
    )
    await save(tx, table, state, now, table.current_hand_id)
    if seat is not None:
        try:
            await tx.execute(
                "UPDATE table_players SET seat = ? WHERE table_id = ? AND user_id = ?",
                (seat, table_id, user_id),
            )
        except ConstraintViolation as exc:
            raise InvalidArgument(f"seat {seat} is taken at table {table_id}") from exc
    return entry


async def cash_out(
    tx: Tx,
    guild_id: int,
    user_id: int,
    table_id: int,
    amount: int,
    state: TableSave,
    now: float,
) -> LedgerEntry:
    table = await open_table(tx, table_id, guild_id)
    check_chips(table, table.chips_on_table - amount, state.chips)
    await require_players(tx, table_id, [user_id])
    if accounts.holder(user_id) != user_id:
        await accounts.open_house(tx, guild_id, now)
    entry = await accounts.move(
        tx,
        guild_id,
        accounts.holder(user_id),
        amount,
        "cash_out",
        now,
        table_id=table_id,
        hand_id=table.current_hand_id,
        actor_id=accounts.seat_actor(user_id),
    )
    await save(tx, table, state, now, table.current_hand_id)
    return entry


async def require_players(tx: Tx, table_id: int, user_ids: list[int]) -> None:
    """Chips can only go back to members who bought in at this table (a house seat: whose
    buy-in the house account paid, or before migration 6 its own bankroll)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return
    accounts_of = sorted({*wanted, *(accounts.holder(user) for user in wanted)})
    rows = await tx.fetch_all(
        "SELECT DISTINCT user_id, actor_id FROM ledger WHERE table_id = ? "
        f"AND kind IN ('buy_in', 'top_up') AND user_id IN ({marks(len(accounts_of))})",
        (table_id, *accounts_of),
    )
    bought = {r[0] if r[0] != accounts.HOUSE_ACCOUNT else r[1] for r in rows}
    missing = set(wanted) - bought
    if missing:
        raise InvalidArgument(f"member(s) {sorted(missing)} never bought in at table {table_id}")


# ------------------------------------------------------------------------------ snapshots


async def save_table_state(tx: Tx, table_id: int, state: TableSave, now: float) -> None:
    # The hot path (after every engine event): check and write the snapshot in one statement.
    r = await tx.fetch_one(
        "UPDATE tables SET state = ?, updated_at = ? "
        "WHERE table_id = ? AND status = 'open' AND chips_on_table = ? "
        "RETURNING table_id, guild_id, current_hand_id",
        (state.state_json, now, table_id, state.chips),
    )
    if r is None:  # say why
        table = await open_table(tx, table_id)
        raise ChipsMismatch(table_id, table.chips_on_table, state.chips)
    await write_seats(tx, table_id, r[1], state.seats)
    await append_events(tx, table_id, r[2], state.events, now)


async def save(tx: Tx, table: Table, state: TableSave, now: float, hand_id: int | None) -> None:
    """Write ``state``: the snapshot, the chips and the seat projection (:func:`write_state`),
    and its events, to hand ``hand_id``."""
    await write_state(tx, table, state, now)
    await append_events(tx, table.table_id, hand_id, state.events, now)


async def write_state(tx: Tx, table: Table, state: TableSave, now: float) -> None:
    """Write the snapshot, the chips and the seat projection of ``state``, not its events (a
    hand's end stores them before closing the hand)."""
    await tx.execute(
        "UPDATE tables SET state = ?, chips_on_table = ?, updated_at = ? WHERE table_id = ?",
        (state.state_json, state.chips, now, table.table_id),
    )
    await write_seats(tx, table.table_id, table.guild_id, state.seats)


@cache
def _keep_seats(count: int) -> str:
    return f"DELETE FROM table_players WHERE table_id = ? AND user_id NOT IN ({marks(count)})"


@cache
def _upsert_seats(count: int) -> str:
    # One statement for every seat, writing only stacks that changed (during a hand none do):
    # fewer steps in the database thread and fewer pages in the WAL.
    return (
        "INSERT INTO table_players (table_id, user_id, guild_id, seat, stack) VALUES "
        + ", ".join(["(?, ?, ?, NULL, ?)"] * count)
        + " ON CONFLICT (table_id, user_id) DO UPDATE SET stack = excluded.stack "
        "WHERE table_players.stack != excluded.stack"
    )


async def write_seats(tx: Tx, table_id: int, guild_id: int, seats: Mapping[int, int]) -> None:
    """Make the seat projection exactly ``seats`` (user id -> stack; seat numbers of staying
    players kept)."""
    if not seats:
        await tx.execute("DELETE FROM table_players WHERE table_id = ?", (table_id,))
        return
    await tx.execute(_keep_seats(len(seats)), (table_id, *seats))
    await tx.execute(
        _upsert_seats(len(seats)),
        [x for user, stack in seats.items() for x in (table_id, user, guild_id, stack)],
    )


async def append_events(
    tx: Tx, table_id: int, hand_id: int | None, events: Sequence[HandEventIn], now: float
) -> None:
    """Add the hand's new events; saving the very same event again is harmless (a replay after
    a restart), another event under a stored ``seq`` is refused (history is append-only)."""
    if not events:
        return
    if hand_id is None:
        raise NoHandInProgress(table_id, f"table {table_id} has no hand to add events to")
    added = await tx.execute_many(
        "INSERT INTO hand_events (hand_id, seq, event, created_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (hand_id, seq) DO NOTHING",
        [(hand_id, seq, event, now) for seq, event in events],
    )
    if added == len(events):
        return
    stored = {
        r[0]: r[1]
        for r in await tx.fetch_all(
            "SELECT seq, event FROM hand_events WHERE hand_id = ? "
            f"AND seq IN ({marks(len(events))})",
            (hand_id, *(seq for seq, _ in events)),
        )
    }
    for seq, event in events:
        if stored.get(seq) != event:
            raise EventConflict(hand_id, seq)
