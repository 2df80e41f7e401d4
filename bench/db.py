"""How many save_table_state() transactions per second the data layer sustains on this
machine, and their p99 latency, on SQLite and on PostgreSQL.

    .venv/bin/python bench/db.py [--calls N] [--database sqlite|postgres|both]

Each call is what the bot does after every engine event: a ~4 KB engine snapshot, the six seated
stacks and one new hand event, in one transaction. Figures only, no assertions.

PostgreSQL runs on a throwaway server started for the bench (``tests/pg.py``, the tests' own
helper) with fsync on, as a real deployment would run it, on the same machine and disk.

Calls per second depend on the disk and on whatever else the machine runs; the CPU time per call
(this process's threads; a PostgreSQL server's own processes are not counted) is the steadier
figure for comparing two versions of the code on a busy machine.
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

from bench import positive
from data import Database, TableSave
from data.postgres import PostgresBackend

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
        await db.buy_in(
            guild,
            user,
            table.table_id,
            BUY_IN,
            TableSave("{}", BUY_IN * len(stacks), stacks),
            seat=seat,
        )
    salt, deck = "salt", "deck"
    hand = await db.start_hand(
        table.table_id,
        variant="five_card_draw",
        variant_name="Five-card draw",
        commitment=hashlib.sha256(f"{salt}{deck}".encode()).hexdigest(),
        salt=salt,
        deck=deck,
        save=TableSave("{}", BUY_IN * len(PLAYERS), stacks),
    )
    return table.table_id, stacks, hand.hand_id


async def run_table(
    db: Database,
    prepared: tuple[int, dict[int, int], int],
    calls: int,
    latencies: list[float],
    interval: float | None,
) -> None:
    """``calls`` saves back to back, or one every ``interval`` seconds (a table's pace)."""
    table_id, stacks, _ = prepared
    rng = random.Random(table_id)
    chips = BUY_IN * len(PLAYERS)
    states = [fake_state(rng, i, stacks) for i in range(16)]
    due = time.perf_counter() + (rng.uniform(0, interval) if interval else 0.0)
    for seq in range(1, calls + 1):
        if interval:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            due += interval
        a, b = rng.sample(PLAYERS, 2)
        moved = rng.randint(0, stacks[a])
        stacks[a] -= moved
        stacks[b] += moved
        event = json.dumps({"type": "bet", "seat": a, "amount": moved})
        began = time.perf_counter()
        await db.save_table_state(
            table_id, TableSave(states[seq % 16], chips, stacks, [(seq, event)])
        )
        latencies.append(time.perf_counter() - began)


Figures = tuple[float, float, float, int]


async def measure(
    path: str, synchronous: str, calls: int, tables: int, rate: float | None = None
) -> Figures:
    """Calls per second (wall clock), CPU microseconds per call (this process, all threads),
    the p99 of one call in milliseconds, and how many transactions PostgreSQL sent back to run
    again. With ``rate``, the tables together offer that many calls per second instead of
    calling as fast as they can."""
    db = await Database.open(path, synchronous=synchronous)  # type: ignore[arg-type]
    latencies: list[float] = []
    try:
        prepared = [await prepare(db, 100 + t) for t in range(tables)]
        interval = tables / rate if rate else None
        start, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(
            *(run_table(db, p, calls // tables, latencies, interval) for p in prepared)
        )
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        audit = await db.chip_audit()
        if not audit.ok:
            print("AUDIT FAILED:", audit)
        backend = db._backend
        retries = backend.retries if isinstance(backend, PostgresBackend) else 0
    finally:
        await db.close()
    done = (calls // tables) * tables
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    return done / elapsed, cpu / done * 1e6, p99, retries


def line(label: str, tables: int, figures: Figures, offered: float | None) -> str:
    rate, cpu, p99, retries = figures
    again = f" ({retries} retried)" if retries else ""
    pace = f"{offered:.0f}/s offered" if offered else "flat out"
    return (
        f"  {label:38s} {tables:3d} table(s), {pace:15s}: {rate:6.0f} tx/s  p99 {p99:6.1f} ms"
        f"  {cpu:6.1f} µs CPU{again}"
    )


async def sqlite(calls: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for label, path, sync in (
            ("SQLite file, WAL, synchronous=FULL", "full", "FULL"),
            ("SQLite file, WAL, synchronous=NORMAL", "normal", "NORMAL"),
            ("SQLite in memory", ":memory:", "FULL"),
        ):
            where = path if path == ":memory:" else str(Path(tmp) / f"{path}.db")
            for tables, rate in RUNS:
                figures = await measure(where, sync, calls, tables, rate)
                print(line(label, tables, figures, rate), flush=True)
                if where != ":memory:":
                    for suffix in ("", "-wal", "-shm"):
                        Path(where + suffix).unlink(missing_ok=True)


async def postgres(calls: int) -> None:
    from tests.pg import PgServer

    server = await asyncio.to_thread(PgServer.start, durable=True)
    try:
        for tables, rate in RUNS:
            url = await server.create_database()
            figures = await measure(url, "FULL", calls, tables, rate)
            print(line("PostgreSQL 127.0.0.1, fsync on", tables, figures, rate), flush=True)
            await server.drop_database(url)
    finally:
        server.stop()


RUNS: tuple[tuple[int, float | None], ...] = ((1, None), (8, None), (64, None), (500, 272.0))
"""(tables, offered calls per second or None for flat out). The last is the load measured for
500 busy tables on one process (272 actions a second, each one save)."""


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=positive, default=4000)
    parser.add_argument("--database", choices=("sqlite", "postgres", "both"), default="both")
    args = parser.parse_args()
    print(f"save_table_state, {args.calls} calls each (4 KB snapshot, 6 stacks, 1 event)")
    if args.database in ("sqlite", "both"):
        await sqlite(args.calls)
    if args.database in ("postgres", "both"):
        await postgres(args.calls)


if __name__ == "__main__":
    asyncio.run(main())
