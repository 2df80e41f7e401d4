"""Small helpers shared by the data-layer tests (a stand-in for the bot's runtime)."""

from __future__ import annotations

import hashlib
import json

from data import Database, Hand, Table, TableSave

GUILD = 1
OTHER_GUILD = 2
CHANNEL = 100
ADMIN = 9


def commitment(salt: str, deck: str) -> str:
    return hashlib.sha256(f"{salt}:{deck}".encode()).hexdigest()


def state(**fields: object) -> str:
    return json.dumps(fields, sort_keys=True)


async def channel_table(db: Database, channel_id: int) -> Table | None:
    """The channel's open table, if any (the bot keeps this mapping in memory)."""
    found = [t for t in await db.open_tables() if t.channel_id == channel_id]
    assert len(found) <= 1, found  # the schema allows one open table per channel
    return found[0] if found else None


async def seat_players(
    db: Database, table: Table, buy_ins: dict[int, int], *, now: float = 10.0
) -> dict[int, int]:
    """Buy each member in (seats 0, 1, ...); return the stacks."""
    current = await db.get_table(table.table_id)
    chips = current.chips_on_table
    stacks = {p.user_id: p.stack for p in await db.table_players(table.table_id)}
    for seat, (user, amount) in enumerate(buy_ins.items(), start=len(stacks)):
        chips += amount
        stacks[user] = stacks.get(user, 0) + amount
        await db.buy_in(
            table.guild_id,
            user,
            table.table_id,
            amount,
            TableSave(state(stacks=stacks), chips, stacks),
            seat=seat,
            now=now,
        )
    return stacks


async def start_hand(
    db: Database,
    table: Table,
    stacks: dict[int, int],
    *,
    salt: str = "salt",
    deck: str = "As Kd Qh",
    now: float = 20.0,
) -> Hand:
    chips = (await db.get_table(table.table_id)).chips_on_table
    return await db.start_hand(
        table.table_id,
        variant="five_card_draw",
        variant_name="Five-card draw",
        commitment=commitment(salt, deck),
        salt=salt,
        deck=deck,
        save=TableSave(
            state(stacks=stacks, hand=True), chips, stacks, [(0, json.dumps({"type": "deal"}))]
        ),
        now=now,
    )
