"""How many save_table_state() calls per second the data layer sustains on this machine.

    .venv/bin/python bench/db.py [--calls N]

Each call is what the bot does after every engine event: a ~4 KB engine snapshot, the six seated
stacks and one new hand event, in one transaction. Figures only, no assertions.

Calls per second depend on the disk and on whatever else the machine runs; the CPU time per call
(all threads, the database thread included) is the steadier figure for comparing two versions
of the code on a busy machine.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from data import Database

PLAYERS = list(range(1001, 1007))
BUY_IN = 1000


def fake_state(rng: random.Random, step: int, stacks: dict[int, int]) -> str:
    """A snapshot about the size of a real engine state."""
    return json.dumps(
        {
            "step": step,
            "seats": [
                {"user": u, "stack": s, "cards": [rng.randrange(52) for _ in range(5)]}
                for u, s in stacks.items()
            ],
            "deck": [rng.randrange(52) for _ in range(52)],
            "log": [{"actor": rng.choice(PLAYERS), "action": "bet", "n": i} for i in range(40)],
            "pad": "x" * 1500,
        }
    )


async def prepare(db: Database, channel: int) -> tuple[int, dict[int, int], int]:
    guild = channel  # one server per table, so every table has its own bankrolls
    table = await db.create_table(guild, channel, PLAYERS[0], "{}")
    stacks: dict[int, int] = {}
    for seat, user in enumerate(PLAYERS):
        stacks[user] = BUY_IN
        await db.buy_in(guild, user, table.table_id, BUY_IN, "{}", BUY_IN * len(stacks), stacks,
                        seat=seat)  # fmt: skip
    salt, deck = "salt", "deck"
    hand = await db.start_hand(
        table.table_id, variant="five_card_draw", variant_name="Five-card draw",
        commitment=hashlib.sha256(f"{salt}{deck}".encode()).hexdigest(), salt=salt, deck=deck,
        state_json="{}", chips_on_table=BUY_IN * len(PLAYERS), seat_stacks=stacks,
    )  # fmt: skip
    return table.table_id, stacks, hand.hand_id


async def run_table(db: Database, channel: int, calls: int) -> None:
    rng = random.Random(channel)
    table_id, stacks, _ = await prepare(db, channel)
    chips = BUY_IN * len(PLAYERS)
    states = [fake_state(rng, i, stacks) for i in range(16)]
    for seq in range(1, calls + 1):
        a, b = rng.sample(PLAYERS, 2)
        moved = rng.randint(0, stacks[a])
        stacks[a] -= moved
        stacks[b] += moved
        event = json.dumps({"type": "bet", "seat": a, "amount": moved})
        await db.save_table_state(table_id, states[seq % 16], chips, stacks, [(seq, event)])


async def measure(path: str, synchronous: str, calls: int, tables: int) -> tuple[float, float]:
    """Calls per second (wall clock), and CPU microseconds per call (all threads)."""
    db = await Database.open(path, synchronous=synchronous)  # type: ignore[arg-type]
    try:
        start, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(run_table(db, 100 + t, calls // tables) for t in range(tables)))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        audit = await db.chip_audit()
        if not audit.ok:
            print("AUDIT FAILED:", audit)
    finally:
        await db.close()
    done = (calls // tables) * tables
    return done / elapsed, cpu / done * 1e6


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=4000)
    args = parser.parse_args()
    print(f"save_table_state, {args.calls} calls each (4 KB snapshot, 6 stacks, 1 event)")
    with tempfile.TemporaryDirectory() as tmp:
        for label, path, sync in (
            ("file, WAL, synchronous=FULL (default)", "full", "FULL"),
            ("file, WAL, synchronous=NORMAL", "normal", "NORMAL"),
            ("in memory", ":memory:", "FULL"),
        ):
            where = path if path == ":memory:" else str(Path(tmp) / f"{path}.db")
            for tables in (1, 8):
                rate, cpu = await measure(where, sync, args.calls, tables)
                print(f"  {label:40s} {tables} table(s): {rate:8.0f} calls/s {cpu:6.1f} µs CPU")
                if where != ":memory:":
                    for suffix in ("", "-wal", "-shm"):
                        Path(where + suffix).unlink(missing_ok=True)


if __name__ == "__main__":
    asyncio.run(main())
