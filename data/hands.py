"""Queries about hands: dealing one (with its deck commitment), recording its result, and
reading the history back.

A hand's salt and deck are stored when it is dealt but never read back before it ends, so the
commitment published at the deal can be checked afterwards and not anticipated. Its events are
append-only (the schema refuses changes; :func:`data.tables.append_events` refuses a different
event under a stored ``seq``).
"""

from __future__ import annotations

from typing import Final

from data import stats, tables
from data.core import Row, Tx, marks, one, scalar, seconds
from data.errors import HandInProgress, HandNotFound, NoHandInProgress
from data.models import Hand, HandEvent, HandSecrets, Page, PlayerHandResult, TableSave

_COLUMNS: Final = (
    "hand_id, table_id, guild_id, number, variant, variant_name, commitment, started_at, "
    "ended_at, result, pot, config"
)
"""Every column but the secrets."""


def _hand(r: Row) -> Hand:
    return Hand(
        r["hand_id"],
        r["table_id"],
        r["guild_id"],
        r["number"],
        r["variant"],
        r["variant_name"],
        r["commitment"],
        float(r["started_at"]),
        seconds(r["ended_at"]),
        r["result"],
        r["pot"],
        r["config"],
    )


async def start_hand(
    tx: Tx,
    table_id: int,
    variant: str,
    variant_name: str,
    commitment: str,
    salt: str,
    deck: str,
    state: TableSave,
    now: float,
    config: str | None = None,
) -> Hand:
    table = await tables.open_table(tx, table_id)
    if table.current_hand_id is not None:
        raise HandInProgress(
            table.current_hand_id,
            f"table {table_id} already has hand {table.current_hand_id} in progress",
        )
    tables.check_chips(table, table.chips_on_table, state.chips)
    r = await one(
        tx,
        "INSERT INTO hands (table_id, guild_id, number, variant, variant_name, "
        "commitment, salt, deck, started_at, config) VALUES (?, ?, "
        "(SELECT coalesce(max(number), 0) + 1 FROM hands WHERE table_id = ?), "
        f"?, ?, ?, ?, ?, ?, ?) RETURNING {_COLUMNS}",
        (
            table_id,
            table.guild_id,
            table_id,
            variant,
            variant_name,
            commitment,
            salt,
            deck,
            now,
            config,
        ),
    )
    hand = _hand(r)
    await tx.execute(
        "UPDATE tables SET current_hand_id = ? WHERE table_id = ?", (hand.hand_id, table_id)
    )
    await tables.save(tx, table, state, now, hand.hand_id)
    return hand


async def record_hand_result(
    tx: Tx,
    guild_id: int,
    table_id: int,
    hand_id: int,
    players: list[PlayerHandResult],
    result_json: str,
    pot: int,
    state: TableSave,
    now: float,
) -> Hand:
    table = await tables.open_table(tx, table_id, guild_id)
    if table.current_hand_id != hand_id:
        raise NoHandInProgress(
            table_id, f"hand {hand_id} is not the current hand of table {table_id}"
        )
    tables.check_chips(table, table.chips_on_table, state.chips)
    await tables.append_events(tx, table_id, hand_id, state.events, now)
    r = await one(
        tx,
        f"UPDATE hands SET ended_at = ?, result = ?, pot = ? WHERE hand_id = ? "
        f"RETURNING {_COLUMNS}",
        (now, result_json, pot, hand_id),
    )
    await tx.execute("UPDATE tables SET current_hand_id = NULL WHERE table_id = ?", (table_id,))
    await tables.write_state(tx, table, state, now)
    if table.tournament_id is None:  # tournament chips are not the cash-game stats' chips
        await stats.add_hand(tx, guild_id, hand_id, players, now)
    return _hand(r)


async def void_hand(
    tx: Tx,
    guild_id: int,
    table_id: int,
    hand_id: int,
    reason_json: str,
    state: TableSave,
    now: float,
) -> Hand:
    """Close the table's current hand without a result: its chips went back to where they
    were when it was dealt (the snapshot says so), and no stats count it."""
    table = await tables.open_table(tx, table_id, guild_id)
    if table.current_hand_id != hand_id:
        raise NoHandInProgress(
            table_id, f"hand {hand_id} is not the current hand of table {table_id}"
        )
    tables.check_chips(table, table.chips_on_table, state.chips)
    r = await one(
        tx,
        f"UPDATE hands SET ended_at = ?, result = ?, pot = 0 WHERE hand_id = ? "
        f"RETURNING {_COLUMNS}",
        (now, reason_json, hand_id),
    )
    await tx.execute("UPDATE tables SET current_hand_id = NULL WHERE table_id = ?", (table_id,))
    await tables.write_state(tx, table, state, now)
    return _hand(r)


async def get_hand(tx: Tx, hand_id: int) -> Hand:
    r = await tx.fetch_one(f"SELECT {_COLUMNS} FROM hands WHERE hand_id = ?", (hand_id,))
    if r is None:
        raise HandNotFound(hand_id)
    return _hand(r)


async def list_hands(tx: Tx, table_id: int, offset: int, limit: int) -> Page[Hand]:
    total = await scalar(tx, "SELECT count(*) FROM hands WHERE table_id = ?", (table_id,))
    rows = await tx.fetch_all(
        f"SELECT {_COLUMNS} FROM hands WHERE table_id = ? ORDER BY number DESC LIMIT ? OFFSET ?",
        (table_id, limit, offset),
    )
    return Page(tuple(_hand(r) for r in rows), total, offset, limit)


async def games_chosen(tx: Tx, hand_ids: list[int]) -> list[HandEvent]:
    """The dealer's-choice events of these hands (a game chosen is public from the moment it
    is dealt, so a hand in progress has its own too). The engine writes the choice before the
    hand starts (after a misdeal's event at most): only the first events are read."""
    if not hand_ids:
        return []
    rows = await tx.fetch_all(
        "SELECT hand_id, seq, event, created_at FROM hand_events "
        f"WHERE hand_id IN ({marks(len(hand_ids))}) AND seq < 4 AND event LIKE ? "
        "ORDER BY hand_id, seq",
        (*hand_ids, "%game-chosen%"),
    )
    return [HandEvent(x[0], x[1], x[2], float(x[3])) for x in rows]


async def hand_events(tx: Tx, hand_id: int, allow_in_progress: bool) -> list[HandEvent]:
    r = await tx.fetch_one("SELECT ended_at FROM hands WHERE hand_id = ?", (hand_id,))
    if r is None:
        raise HandNotFound(hand_id)
    if r[0] is None and not allow_in_progress:
        raise HandInProgress(hand_id)
    rows = await tx.fetch_all(
        "SELECT hand_id, seq, event, created_at FROM hand_events WHERE hand_id = ? ORDER BY seq",
        (hand_id,),
    )
    return [HandEvent(x[0], x[1], x[2], float(x[3])) for x in rows]


async def hand_secrets(tx: Tx, hand_id: int) -> HandSecrets:
    r = await tx.fetch_one(
        "SELECT commitment, salt, deck, ended_at FROM hands WHERE hand_id = ?", (hand_id,)
    )
    if r is None:
        raise HandNotFound(hand_id)
    if r["ended_at"] is None:
        raise HandInProgress(hand_id, f"hand {hand_id} is still in progress; its deck stays secret")
    return HandSecrets(hand_id, r["commitment"], r["salt"], r["deck"])
