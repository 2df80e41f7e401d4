"""One of several processes writing the same server's rows at once (run by
``test_data_postgres.py``): it hammers shared bankrolls and shared tables through the public
API, and prints what it did as JSON.

    python -m tests.data.pg_writer URL SEED OPERATIONS START_AT

Each operation reads what it needs, then writes; another process may have changed the rows in
between, and the data layer must then either serialise the two or refuse this one (a
:class:`~data.errors.DataError`, nothing changed). ``issued`` is the chips this process created
(grants and dailies that were committed; new members' starting bankrolls are counted by the
test from the accounts), so the test can check that the supply is exactly what the processes
say they made.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time

from data import Database, DataError, TableSave
from data.postgres import PostgresBackend

GUILD = 7
ADMIN = 1
USERS = list(range(100, 106))
CHANNELS = (900, 901)
NEWCOMER = 500
"""The first of 40 members whose accounts the processes create as they go."""


async def run(url: str, seed: int, operations: int, start_at: float) -> dict[str, int]:
    rng = random.Random(seed)
    db = await Database.open(url)
    done = {"issued": 0, "ok": 0, "refused": 0}
    seat = 0
    try:
        tables = [t for t in await db.open_tables(GUILD) if t.channel_id in CHANNELS]
        while time.time() < start_at:  # start together with the other processes
            await asyncio.sleep(0.005)
        for _ in range(operations):
            kind = rng.choice(
                ("grant", "remove", "buy_in", "cash_out", "save", "daily", "newcomer")
            )
            user = rng.choice(USERS)
            table = rng.choice(tables)
            try:
                if kind == "grant":
                    amount = rng.randint(1, 50)
                    await db.admin_grant(GUILD, ADMIN, user, amount)
                    done["issued"] += amount
                elif kind == "remove":
                    amount = rng.randint(1, 50)
                    await db.admin_remove(GUILD, ADMIN, user, amount)
                    done["issued"] -= amount
                elif kind == "newcomer":
                    # Both processes create the same members' accounts at about the same time.
                    await db.balance(GUILD, NEWCOMER + seat)
                    seat = (seat + 1) % 40
                elif kind == "daily":
                    claim = await db.claim_daily(GUILD, user, now=rng.uniform(0, 1e9))
                    done["issued"] += claim.amount
                else:
                    current = await db.get_table(table.table_id)
                    stacks = {p.user_id: p.stack for p in await db.table_players(table.table_id)}
                    chips = current.chips_on_table
                    if kind == "buy_in":
                        amount = rng.randint(1, 40)
                        stacks[user] = stacks.get(user, 0) + amount
                        await db.buy_in(
                            GUILD,
                            user,
                            table.table_id,
                            amount,
                            TableSave("{}", chips + amount, stacks),
                        )
                    elif kind == "cash_out" and stacks.get(user):
                        amount = rng.randint(0, stacks[user])
                        stacks[user] -= amount
                        await db.cash_out(
                            GUILD,
                            user,
                            table.table_id,
                            amount,
                            TableSave("{}", chips - amount, stacks),
                        )
                    elif len(stacks) >= 2:
                        a, b = rng.sample(sorted(stacks), 2)
                        moved = rng.randint(0, stacks[a])
                        stacks[a] -= moved
                        stacks[b] += moved
                        await db.save_table_state(table.table_id, TableSave("{}", chips, stacks))
                done["ok"] += 1
            except DataError:
                done["refused"] += 1
        backend = db._backend
        done["retries"] = backend.retries if isinstance(backend, PostgresBackend) else 0
    finally:
        await db.close()
    return done


if __name__ == "__main__":
    url, seed, operations, start_at = sys.argv[1:5]
    result = asyncio.run(run(url, int(seed), int(operations), float(start_at)))
    print(json.dumps(result))
