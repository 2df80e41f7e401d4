"""Conservation of chips under random operations, concurrency and cancellation.

A seeded random walk drives the API like a (sometimes buggy) runtime would, against a plain
Python model of the expected bankrolls and tables. After EVERY step: the chip audit holds for
each server and globally, every bankroll matches the model (so failed operations changed
nothing) and every table's chips match the model.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from data import (
    ChipsMismatch,
    Cooldown,
    Database,
    InsufficientFunds,
    PlayerHandResult,
    TableExists,
    TableSave,
)

from .helpers import ADMIN, commitment, seat_players, state

GUILDS = (1, 2)
USERS = (11, 12, 13, 14, 15)
CHANNELS = {1: (101, 102), 2: (201,)}
COOLDOWN = 100


@dataclass
class ModelTable:
    guild: int
    channel: int
    stacks: dict[int, int] = field(default_factory=dict)
    pot: int = 0
    hand: int | None = None
    seq: int = 0
    bought: set[int] = field(default_factory=set)
    in_hand: list[int] = field(default_factory=list)
    put_in: dict[int, int] = field(default_factory=dict)

    @property
    def chips(self) -> int:
        return sum(self.stacks.values()) + self.pot


@dataclass
class Model:
    balances: dict[tuple[int, int], int] = field(default_factory=dict)
    last_daily: dict[tuple[int, int], float] = field(default_factory=dict)
    starting: dict[int, int] = field(default_factory=lambda: dict.fromkeys(GUILDS, 1000))
    tables: dict[int, ModelTable] = field(default_factory=dict)

    def ensure(self, g: int, u: int) -> None:
        self.balances.setdefault((g, u), self.starting[g])

    def balance_if_created(self, g: int, u: int) -> int:
        return self.balances.get((g, u), self.starting[g])


class Walk:
    def __init__(self, db: Database, seed: int) -> None:
        self.db = db
        self.rng = random.Random(seed)
        self.model = Model()
        self.now = 1000.0
        self.counts: dict[str, int] = {}

    def count(self, name: str) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1

    # ------------------------------------------------------------------ operations

    async def op_balance(self) -> None:
        g, u = self.rng.choice(GUILDS), self.rng.choice(USERS)
        assert await self.db.balance(g, u, now=self.now) == self.model.balance_if_created(g, u)
        self.model.ensure(g, u)

    async def op_daily(self) -> None:
        g, u = self.rng.choice(GUILDS), self.rng.choice(USERS)
        last = self.model.last_daily.get((g, u))
        if last is not None and self.now < last + COOLDOWN:
            with pytest.raises(Cooldown):
                await self.db.claim_daily(g, u, self.now)
            self.count("daily refused")
            return
        claim = await self.db.claim_daily(g, u, self.now)
        self.model.ensure(g, u)
        self.model.balances[(g, u)] += 7
        self.model.last_daily[(g, u)] = self.now
        assert claim.balance == self.model.balances[(g, u)]

    async def op_admin(self) -> None:
        g, u = self.rng.choice(GUILDS), self.rng.choice(USERS)
        have = self.model.balance_if_created(g, u)
        action = self.rng.choice(("grant", "set", "remove"))
        value = self.rng.randint(1, 1500)
        if action == "grant":
            await self.db.admin_grant(g, ADMIN, u, value, now=self.now)
            new = have + value
        elif action == "set":
            await self.db.admin_set(g, ADMIN, u, value - 1, now=self.now)
            new = value - 1
        elif value > have:
            with pytest.raises(InsufficientFunds):
                await self.db.admin_remove(g, ADMIN, u, value, now=self.now)
            self.count("remove refused")
            return
        else:
            await self.db.admin_remove(g, ADMIN, u, value, now=self.now)
            new = have - value
        self.model.ensure(g, u)
        self.model.balances[(g, u)] = new

    async def op_settings(self) -> None:
        g = self.rng.choice(GUILDS)
        start = self.rng.randint(0, 2000)
        await self.db.update_settings(g, ADMIN, starting_bankroll=start, now=self.now)
        self.model.starting[g] = start

    async def op_create(self) -> None:
        g = self.rng.choice(GUILDS)
        channel = self.rng.choice(CHANNELS[g])
        busy = [t for t in self.model.tables.values() if t.channel == channel]
        if busy:
            with pytest.raises(TableExists):
                await self.db.create_table(g, channel, ADMIN, "{}", now=self.now)
            self.count("create refused")
            return
        table = await self.db.create_table(g, channel, ADMIN, "{}", now=self.now)
        self.model.tables[table.table_id] = ModelTable(g, channel)

    def pick_table(self) -> tuple[int, ModelTable] | None:
        if not self.model.tables:
            return None
        tid = self.rng.choice(sorted(self.model.tables))
        return tid, self.model.tables[tid]

    def events(self, t: ModelTable) -> list[tuple[int, str]]:
        if t.hand is None:
            return []
        t.seq += 1
        return [(t.seq, json.dumps({"seq": t.seq}))]

    async def op_buy_in(self) -> None:
        picked = self.pick_table()
        if picked is None:
            return
        tid, t = picked
        u = self.rng.choice(USERS)
        have = self.model.balance_if_created(t.guild, u)
        amount = self.rng.randint(1, 1200)
        stacks = {**t.stacks, u: t.stacks.get(u, 0) + amount}
        if amount > have:
            with pytest.raises(InsufficientFunds):
                await self.db.buy_in(
                    t.guild,
                    u,
                    tid,
                    amount,
                    TableSave(state(), t.chips + amount, stacks),
                    now=self.now,
                )
            self.count("buy-in refused")
            return
        events = self.events(t)
        entry = await self.db.buy_in(
            t.guild,
            u,
            tid,
            amount,
            TableSave(state(), t.chips + amount, stacks, events),
            now=self.now,
        )
        assert entry.kind == ("top_up" if u in t.stacks else "buy_in")
        self.model.ensure(t.guild, u)
        self.model.balances[(t.guild, u)] -= amount
        t.stacks = stacks
        t.bought.add(u)

    async def op_cash_out(self) -> None:
        picked = self.pick_table()
        if picked is None or not picked[1].stacks:
            return
        tid, t = picked
        u = self.rng.choice(sorted(t.stacks))
        leave = self.rng.random() < 0.6 and u not in t.in_hand
        amount = t.stacks[u] if leave else self.rng.randint(0, t.stacks[u])
        stacks = dict(t.stacks)
        if leave:
            del stacks[u]
        else:
            stacks[u] -= amount
        events = self.events(t)
        await self.db.cash_out(
            t.guild,
            u,
            tid,
            amount,
            TableSave(state(), t.chips - amount, stacks, events),
            now=self.now,
        )
        self.model.balances[(t.guild, u)] += amount
        t.stacks = stacks

    async def op_save(self) -> None:
        picked = self.pick_table()
        if picked is None:
            return
        tid, t = picked
        # players in the hand bet into the pot
        for u in t.in_hand:
            if u in t.stacks and t.stacks[u] and self.rng.random() < 0.5:
                bet = self.rng.randint(1, t.stacks[u])
                t.stacks[u] -= bet
                t.pot += bet
                t.put_in[u] = t.put_in.get(u, 0) + bet
        if self.rng.random() < 0.1:  # a buggy runtime: wrong chip count
            with pytest.raises(ChipsMismatch):
                await self.db.save_table_state(
                    tid,
                    TableSave(
                        state(), t.chips + 1, t.stacks, [(t.seq + 1, "{}")] if t.hand else []
                    ),
                )
            self.count("save refused")
        await self.db.save_table_state(tid, TableSave(state(), t.chips, t.stacks, self.events(t)))

    async def op_hand(self) -> None:
        picked = self.pick_table()
        if picked is None:
            return
        tid, t = picked
        if t.hand is None:
            if len(t.stacks) < 2:
                return
            salt, deck = f"s{self.now}", "As Kd"
            t.seq = 0
            hand = await self.db.start_hand(
                tid,
                variant="draw",
                variant_name="Draw",
                commitment=commitment(salt, deck),
                salt=salt,
                deck=deck,
                save=TableSave(state(), t.chips, t.stacks, [(0, "{}")]),
                now=self.now,
            )
            t.hand, t.in_hand, t.put_in = hand.hand_id, sorted(t.stacks), {}
            return
        # end the hand: the pot goes to one player still seated (or is split back if none)
        seated = [u for u in t.in_hand if u in t.stacks]
        won: dict[int, int] = dict.fromkeys(t.in_hand, 0)
        if seated:
            winner = self.rng.choice(seated)
            won[winner] = t.pot
            t.stacks[winner] += t.pot
            t.pot = 0
        elif t.pot:
            return  # everybody left mid-hand: wait for the table to close
        per_player = [
            PlayerHandResult(
                u, won[u] - t.put_in.get(u, 0), won[u] > 0, won[u], self.rng.randint(0, 9), "x"
            )
            for u in t.in_hand
        ]
        t.seq += 1
        await self.db.record_hand_result(
            t.guild,
            tid,
            t.hand,
            per_player,
            result_json="{}",
            pot=sum(won.values()),
            save=TableSave(state(), t.chips, t.stacks, [(t.seq, "{}")]),
            now=self.now,
        )
        t.hand, t.in_hand, t.put_in = None, [], {}

    async def op_close(self) -> None:
        picked = self.pick_table()
        if picked is None or self.rng.random() < 0.5:
            return
        tid, t = picked
        payouts = dict(t.stacks)
        # refund what each player put into an unfinished pot
        for u, amount in t.put_in.items():
            payouts[u] = payouts.get(u, 0) + amount
        assert sum(payouts.values()) == t.chips
        if self.rng.random() < 0.2:
            with pytest.raises(ChipsMismatch):
                await self.db.close_table(tid, {**payouts, ADMIN: 1})
            self.count("close refused")
        await self.db.close_table(tid, payouts, now=self.now)
        for u, amount in payouts.items():
            self.model.balances[(t.guild, u)] += amount
        del self.model.tables[tid]

    # ------------------------------------------------------------------ checks

    async def check(self) -> None:
        for g in GUILDS:
            audit = await self.db.chip_audit(g)
            assert audit.ok, audit
            board = await self.db.leaderboard(g, limit=100)
            got = {e.user_id: (e.bankroll, e.on_tables) for e in board.items}
            want = {}
            for (mg, u), balance in self.model.balances.items():
                if mg == g:
                    on_tables = sum(
                        t.stacks.get(u, 0) for t in self.model.tables.values() if t.guild == g
                    )
                    want[u] = (balance, on_tables)
            assert got == want
        audit = await self.db.chip_audit()
        assert audit.ok, audit
        assert audit.on_tables == sum(t.chips for t in self.model.tables.values())
        for tid, t in self.model.tables.items():
            assert (await self.db.get_table(tid)).chips_on_table == t.chips

    async def run(self, steps: int) -> None:
        ops = [
            (self.op_balance, 2), (self.op_daily, 3), (self.op_admin, 3), (self.op_settings, 1),
            (self.op_create, 3), (self.op_buy_in, 6), (self.op_cash_out, 3), (self.op_save, 8),
            (self.op_hand, 5), (self.op_close, 1),
        ]  # fmt: skip
        functions = [f for f, _ in ops]
        weights = [w for _, w in ops]
        for g in GUILDS:
            await self.db.update_settings(g, ADMIN, daily_amount=7, daily_cooldown=COOLDOWN)
        for _ in range(steps):
            self.now += self.rng.choice((0, 1, 10, 60))
            op = self.rng.choices(functions, weights)[0]
            await op()
            self.count(op.__name__)
            await self.check()


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_random_walk_conserves_chips(db: Database, seed: int) -> None:
    walk = Walk(db, seed)
    await walk.run(300)
    # the walk really exercised the interesting paths
    for name in ("op_buy_in", "op_cash_out", "op_save", "op_hand", "op_close", "op_daily"):
        assert walk.counts.get(name, 0) > 5, walk.counts
    assert walk.counts.get("buy-in refused", 0) + walk.counts.get("remove refused", 0) > 0
    assert await db.check_integrity() == []


async def test_concurrent_coroutines_do_not_interleave(db: Database) -> None:
    """200 concurrent +1 grants on one bankroll: no lost update, one ledger row each."""
    await db.balance(1, 11)
    await asyncio.gather(*(db.admin_grant(1, ADMIN, 11, 1) for _ in range(200)))
    assert await db.balance(1, 11) == 1200
    page = await db.ledger(1, 11, limit=100)
    afters = [e.balance_after for e in page.items] + [
        e.balance_after for e in (await db.ledger(1, 11, offset=100, limit=100)).items
    ]
    assert sorted(afters) == list(range(1001, 1201))
    assert (await db.chip_audit()).ok


async def test_concurrent_tables_and_bankrolls(db: Database) -> None:
    """Several tables played at once plus dailies and grants: the audit holds at the end."""

    async def play(channel: int, users: list[int]) -> None:
        table = await db.create_table(1, channel, ADMIN, "{}")
        stacks: dict[int, int] = {}
        for u in users:
            stacks[u] = 100
            await db.buy_in(
                1, u, table.table_id, 100, TableSave(state(), sum(stacks.values()), stacks)
            )
        rng = random.Random(channel)
        for _ in range(30):
            a, b = rng.sample(users, 2)
            moved = rng.randint(0, stacks[a])
            stacks[a] -= moved
            stacks[b] += moved
            await db.save_table_state(table.table_id, TableSave(state(), 100 * len(users), stacks))
        await db.close_table(table.table_id, stacks)

    async def bankroll_noise() -> None:
        for i in range(40):
            await db.admin_grant(1, ADMIN, 20 + i % 3, 5)
            await db.claim_daily(1, 30 + i, now=i)

    await asyncio.gather(
        play(501, [11, 12, 13]), play(502, [14, 15]), play(503, [16, 17, 18]), bankroll_noise()
    )
    audit = await db.chip_audit()
    assert audit.ok, audit
    assert audit.on_tables == 0


async def _settled(db: Database) -> None:
    """Wait for the transactions a cancelled caller left running. On PostgreSQL they run
    beside the next read (which could see the table before them, on a loaded machine); on
    SQLite the next read waits for them by itself."""
    await asyncio.sleep(0.01)
    running = getattr(db._backend, "_running", ())
    while running:
        await asyncio.gather(*running, return_exceptions=True)


async def test_cancelled_callers_leave_no_partial_transaction(db: Database) -> None:
    """Cancel buy-ins at every possible point: each either fully happened or not at all,
    and the database stays usable."""
    table = await db.create_table(1, 100, ADMIN, "{}")
    chips, stacks = 0, {}
    for delay_steps in range(40):
        u = 11 + delay_steps % 5
        new_stacks = {**stacks, u: stacks.get(u, 0) + 1}
        task = asyncio.ensure_future(
            db.buy_in(1, u, table.table_id, 1, TableSave(state(), chips + 1, new_stacks))
        )
        for _ in range(delay_steps):
            await asyncio.sleep(0)
        task.cancel()
        try:
            await task
            done = True
        except asyncio.CancelledError:
            done = False
        await _settled(db)  # a shielded transaction finishes whole
        current = await db.get_table(table.table_id)
        assert current.chips_on_table in (chips, chips + 1)
        if current.chips_on_table == chips + 1:
            chips, stacks = chips + 1, new_stacks
        else:
            assert not done
        audit = await db.chip_audit()
        assert audit.ok, audit
    assert chips > 0  # some got through (the late cancels)
    assert await db.check_integrity() == []


async def test_the_audit_finds_chips_moved_behind_the_ledgers_back(tmp_path: Path) -> None:
    """Edit a bankroll and a table's chips outside the API: the audit names both, each in its
    own server's scope and both in the global one."""
    path = tmp_path / "poker.db"
    db = await Database.open(path)
    table = await db.create_table(1, 101, ADMIN, "{}")
    await seat_players(db, table, {11: 100, 12: 50})
    await db.balance(2, 12)
    assert (await db.chip_audit()).ok
    await db.close()
    raw = sqlite3.connect(path)
    with raw:
        raw.execute("UPDATE accounts SET balance = balance + 5 WHERE guild_id = 2 AND user_id = 12")
        raw.execute(
            "UPDATE tables SET chips_on_table = chips_on_table - 1 WHERE table_id = ?",
            (table.table_id,),
        )
    raw.close()
    db = await Database.open(path)
    try:
        everywhere, first, second = (
            await db.chip_audit(),
            await db.chip_audit(1),
            await db.chip_audit(2),
        )
    finally:
        await db.close()
    assert not everywhere.ok and not first.ok and not second.ok
    assert (everywhere.accounts_off, everywhere.tables_off) == (((2, 12),), (table.table_id,))
    assert (first.accounts_off, first.tables_off) == ((), (table.table_id,))
    assert (first.circulating, first.bankrolls, first.on_tables) == (2000, 1850, 149)
    assert (second.accounts_off, second.tables_off) == (((2, 12),), ())
    assert (second.circulating, second.bankrolls, second.on_tables) == (1000, 1005, 0)
