"""Crash safety: SIGKILL a writer at random moments; nothing committed is lost, nothing partial
is visible, the chip audit holds, and the writer resumes where the database says it was.

The child (crash_child.py) tags every row of its operation n with ``created_at == T(n)`` and
prints n once the operation has committed.
"""

from __future__ import annotations

import json
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from data import Database, NotFound

from .crash_child import CHANNEL, PLAYERS, op_of
from .helpers import GUILD, channel_table

CHILD = Path(__file__).with_name("crash_child.py")
ROUNDS = 8


def run_and_kill(path: Path, rng: random.Random, *, early: bool) -> list[int]:
    """Start the child, SIGKILL it at a random moment, return the op numbers it acknowledged."""
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        if early:  # possibly while importing, opening or migrating
            time.sleep(rng.uniform(0.0, 0.5))
        else:  # wait until it writes, then let it run a random while
            ready, _, _ = select.select([proc.stdout], [], [], 20)
            assert ready, "the child never acknowledged a write"
            time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=20)
    out = proc.stdout.read().decode()
    err = proc.stderr.read().decode()
    proc.stdout.close()
    proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL, f"the child died on its own:\n{err}"
    # a line cut by the kill is not an acknowledgement
    lines = out.split("\n")
    return [int(x) for x in lines[:-1] if x.strip()]


async def all_tags(db: Database) -> tuple[set[int], list[int]]:
    """Op numbers found in ledger rows, hand events and tables; plus every event's op."""
    tags: set[int] = set()
    event_ops: list[int] = []
    offset = 0
    while True:
        page = await db.ledger(GUILD, offset=offset, limit=100)
        tags.update(op for e in page.items if (op := op_of(e.created_at)) is not None)
        if not page.has_next:
            break
        offset += 100
    table_id = 1
    while True:
        try:
            table = await db.get_table(table_id)
        except NotFound:
            break
        tags.add(op_of(table.created_at) or 0)
        offset = 0
        while True:
            hands = await db.list_hands(table_id, offset=offset, limit=100)
            for hand in hands.items:
                for event in await db.hand_events(hand.hand_id, allow_in_progress=True):
                    event_ops.append(json.loads(event.event_json)["op"])
                    assert op_of(event.created_at) == event_ops[-1]
            if not hands.has_next:
                break
            offset += 100
        table_id += 1
    tags.update(event_ops)
    return tags, event_ops


async def verify(path: Path, acknowledged: int) -> int:
    """Check the file after a crash; return the last op found in it."""
    db = await Database.open(path)  # recovers the WAL
    try:
        assert await db.check_integrity() == []
        audit = await db.chip_audit()
        assert audit.ok, audit
        tags, event_ops = await all_tags(db)
        last = max(tags, default=-1)
        # durable: everything acknowledged is there; at most the op in flight got further
        assert acknowledged <= last <= acknowledged + 1, (acknowledged, last)
        # no gaps, no duplicates: every op 0..last left its rows exactly once
        assert tags == set(range(last + 1)), sorted(set(range(last + 1)) - tags)
        assert len(event_ops) == len(set(event_ops))

        table = await channel_table(db, CHANNEL)
        if table is not None:
            # the snapshot, the projection, the chips and the events were written together
            st = json.loads(table.state_json or "{}")
            stacks = {int(u): s for u, s in st["stacks"].items()}
            seated = await db.table_players(table.table_id)
            assert {p.user_id: p.stack for p in seated} == stacks
            assert table.chips_on_table == sum(stacks.values()) + st["pot"]
            if table.current_hand_id is not None:
                events = await db.hand_events(table.current_hand_id, allow_in_progress=True)
                assert events[-1].seq == st["seq"]
                assert json.loads(events[-1].event_json)["op"] == st["op"]
        # the stats were written with the hand results
        finished = 0
        table_id = 1
        while True:
            try:
                await db.get_table(table_id)
            except NotFound:
                break
            page = await db.list_hands(table_id, limit=100)
            finished += sum(1 for h in page.items if h.result_json is not None)
            table_id += 1
        played = sum([(await db.stats(GUILD, p)).hands_played for p in PLAYERS])
        assert played == len(PLAYERS) * finished
        # every admin grant is in the admin log
        grants = 0
        offset = 0
        while True:
            page = await db.ledger(GUILD, offset=offset, limit=100)
            grants += sum(1 for e in page.items if e.kind == "admin_grant")
            if not page.has_next:
                break
            offset += 100
        assert (await db.admin_log(GUILD)).total == grants
        return last
    finally:
        await db.close()


async def test_sigkill_at_random_moments(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    rng = random.Random(20240607)
    last_in_db = -1
    total_acks = 0
    for round_no in range(ROUNDS):
        acks = run_and_kill(path, rng, early=round_no == 0)
        total_acks += len(acks)
        if acks:
            # the child resumed right after what the database holds: nothing done twice
            assert acks == list(range(last_in_db + 1, last_in_db + 1 + len(acks)))
        acknowledged = acks[-1] if acks else last_in_db
        if path.exists():  # the first kill may come before the file exists
            last_in_db = await verify(path, acknowledged)
    assert total_acks > 50, total_acks  # the child really wrote a lot
