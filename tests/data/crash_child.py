"""Child process for the crash-safety test: a tiny "runtime" writing forever to a file database.

Usage: python crash_child.py DB_PATH

Like the real bot it resumes from what the database holds (the table's state snapshot and the
ledger) and carries on. Operation number n is tagged with the time ``T(n)`` it passes as ``now``,
so every row an operation writes carries ``created_at == T(n)``; table operations also append a
hand event ``{"op": n}`` and save ``"op": n`` in the snapshot. After each operation returns
(i.e. committed) the child prints ``n`` on stdout. The parent SIGKILLs it at a random moment.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from data import Database, PlayerHandResult, Table, TableSave
from tests.data.helpers import ADMIN, GUILD, channel_table, commitment

CHANNEL = 777
PLAYERS = (11, 12, 13)
T0 = 1_000_000
STEP = 100_000  # > the 24 h daily cooldown, so a daily claim always succeeds


def op_time(n: int) -> float:
    return float(T0 + n * STEP)


def op_of(created_at: float) -> int | None:
    """The operation number a row's created_at belongs to (None for other rows)."""
    if created_at < T0:
        return None
    return round((created_at - T0) / STEP)


async def last_op(db: Database, table: Table | None) -> int:
    last = -1
    if table is not None and table.state_json:
        last = max(last, json.loads(table.state_json)["op"])
    newest = (await db.ledger(GUILD, limit=1)).items
    if newest:
        last = max(last, op_of(newest[0].created_at) or -1)
    return last


async def step(db: Database, n: int) -> None:
    rng = random.Random(n)
    now = op_time(n)
    table = await channel_table(db, CHANNEL)
    if table is None:
        initial = {"op": n, "seq": -1, "stacks": {}, "pot": 0, "put_in": {}}
        await db.create_table(GUILD, CHANNEL, ADMIN, "{}", state_json=json.dumps(initial), now=now)
        return
    st: dict[str, Any] = json.loads(table.state_json or "{}")
    stacks = {int(u): s for u, s in st["stacks"].items()}
    put_in = {int(u): s for u, s in st["put_in"].items()}
    pot: int = st["pot"]
    hand = table.current_hand_id  # like the bot: the hand in progress comes from the table row
    seq: int = st["seq"]

    def snapshot() -> str:
        return json.dumps({"op": n, "seq": seq, "stacks": stacks, "pot": pot, "put_in": put_in})

    def chips() -> int:
        return sum(stacks.values()) + pot

    def event() -> list[tuple[int, str]]:
        nonlocal seq
        if hand is None:
            return []
        seq += 1
        return [(seq, json.dumps({"op": n}))]

    tid = table.table_id
    missing = [p for p in PLAYERS if p not in stacks]
    if missing and hand is None:
        user = missing[0]
        amount = min(200, await db.balance(GUILD, user, now=now))
        if amount == 0:
            await db.admin_grant(GUILD, ADMIN, user, 500, note=f"op {n}", now=now)
            return
        stacks[user] = amount
        await db.buy_in(
            GUILD,
            user,
            tid,
            amount,
            TableSave(snapshot(), chips(), stacks),
            seat=PLAYERS.index(user),
            now=now,
        )
        return
    if hand is None:
        if rng.random() < 0.12:
            await db.close_table(tid, stacks, now=now)
            return
        salt, deck = f"salt{n}", "As Kd Qh Jc Ts"
        seq = 0
        started = await db.start_hand(
            tid,
            variant="five_card_draw",
            variant_name="Five-card draw",
            commitment=commitment(salt, deck),
            salt=salt,
            deck=deck,
            save=TableSave(snapshot(), chips(), stacks, [(0, json.dumps({"op": n}))]),
            now=now,
        )
        assert started.number >= 1
        return

    r = rng.random()
    player = rng.choice(PLAYERS)
    if r < 0.40 or (r < 0.50 and await db.balance(GUILD, player, now=now) == 0):
        bet = rng.randint(0, stacks[player])
        stacks[player] -= bet
        pot += bet
        put_in[player] = put_in.get(player, 0) + bet
        events = event()
        await db.save_table_state(tid, TableSave(snapshot(), chips(), stacks, events), now=now)
    elif r < 0.50:
        amount = min(rng.randint(1, 30), await db.balance(GUILD, player, now=now))
        stacks[player] += amount
        events = event()
        await db.buy_in(
            GUILD, player, tid, amount, TableSave(snapshot(), chips(), stacks, events), now=now
        )
    elif r < 0.58:
        amount = rng.randint(0, stacks[player])
        stacks[player] -= amount
        events = event()
        await db.cash_out(
            GUILD, player, tid, amount, TableSave(snapshot(), chips(), stacks, events), now=now
        )
    elif r < 0.72:
        winner = rng.choice(PLAYERS)
        won = {p: (pot if p == winner else 0) for p in PLAYERS}
        per_player = [
            PlayerHandResult(p, won[p] - put_in.get(p, 0), p == winner, won[p], rng.randint(0, 99),
                             "something")
            for p in PLAYERS
        ]  # fmt: skip
        stacks[winner] += pot
        ended, pot, put_in = hand, 0, {}
        events = event()
        hand, seq = None, -1
        await db.record_hand_result(
            GUILD,
            tid,
            ended,
            per_player,
            result_json=json.dumps({"winner": winner}),
            pot=won[winner],
            save=TableSave(snapshot(), chips(), stacks, events),
            now=now,
        )
    elif r < 0.86:
        await db.claim_daily(GUILD, player, now)
    else:
        await db.admin_grant(GUILD, ADMIN, player, rng.randint(1, 50), note=f"op {n}", now=now)


async def main(path: str) -> None:
    db = await Database.open(path)
    n = await last_op(db, await channel_table(db, CHANNEL)) + 1
    while True:
        await step(db, n)
        print(n, flush=True)
        n += 1


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
