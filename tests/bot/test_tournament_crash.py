"""A sit-and-go survives kill -9: the bot runs as a process, is killed between hands and in
the middle of one, and the tournament resumes with its table, its prize pool and its level
clock (the level in force and the time left come out the same), then is played to the end
and paid: places and prizes checked against the ledger and the chip audit."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import engine
from data import Database
from tests.bot.driver import find_table_message
from tests.emulator import Emulator, World

LEVEL_SECONDS = 30


async def _table(db: Database, tid: int) -> engine.Table | None:
    tables = await db.tournament_tables(tid)
    if not tables:
        return None
    return engine.Table.from_dict(json.loads(tables[0].state_json or "{}")["engine"])


async def _act(emu: Emulator, user: Any, message: Any, decision: engine.Decision) -> None:
    if decision.kind is engine.DecisionKind.DRAW:
        opened = await emu.click(user, message, label="Draw / stand pat…")
        if opened.type == 4:
            return  # stale message right after a restart: the bot redraws it
        panel = (await emu.wait_for(lambda: opened.followups, timeout=5))[-1]
        r = await emu.click(user, panel, label="Stand pat")
        assert r.type == 7, r.content
        return
    labels = message.button_labels
    pick = next((label for label in labels if label.split(" ")[0] in ("Bet", "Raise")), None)
    pick = pick or next(label for label in labels if label.split(" ")[0] in ("Check", "Call"))
    r = await emu.click(user, message, label=pick)
    assert r.type == 7 or "no longer valid" in (r.content or ""), (pick, r.content)


async def test_a_tournament_resumes_after_kill_9(
    emu: Emulator, world: World, bot_process: Any
) -> None:
    proc = bot_process()
    await proc.start()
    players = world.players[:3]
    by_id = {str(p.id): p for p in players}
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {
            "buy_in": 50,
            "starting_stack": 70,  # a hand costs at most 31: nobody is out before the kills
            "levels": 5,
            "level_minutes": LEVEL_SECONDS / 60,
            "seats": 3,
            "payouts": "winner",
            "auto_deal": 0,
        },
    )
    assert created.type == 4, created.content
    for player in players:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    db = await Database.open(str(proc.database_path))
    try:
        (row,) = await db.open_tournaments()
        tid, started_at = row.tournament_id, row.started_at
        assert started_at is not None and row.prize_pool == 150
        kills = 0
        # Hands are random: most tournaments end within 300 actions, a few need over 450.
        for _ in range(3000):
            await emu.idle()
            audit = await db.chip_audit()
            assert audit.ok, str(audit)
            table = await _table(db, tid)
            if table is None:
                break
            if not table.in_hand:
                if table.hand_number == 1 and kills == 0:
                    # Between hands: kill -9, start again, and ask for the level.
                    proc.kill()
                    await proc.wait_exit()
                    await proc.start()
                    kills += 1
                    after = await db.get_tournament(tid)
                    assert (after.status, after.started_at, after.prize_pool) == (
                        "running",
                        started_at,
                        150,
                    )
                    status = await emu.run_command(
                        players[0], world.channel, "poker tournament status", {}
                    )
                    now_field = next(f for f in status.embeds[0]["fields"] if f["name"] == "Now")
                    level = int(re.search(r"Level (\d+)", now_field["value"])[1])  # type: ignore[index]
                    if level < 5:
                        at = int(re.search(r"<t:(\d+):R>", now_field["value"])[1])  # type: ignore[index]
                        # the end of the level in force, from the clock saved at the start
                        assert abs(at - (started_at + level * LEVEL_SECONDS)) <= 1
                    continue
                dealer = next(by_id[s.player_id] for s in table.seats if s is not None)
                r = await emu.run_command(dealer, world.channel, "poker start", {})
                assert r.ephemeral, r.content
                continue
            if table.hand_number == 2 and kills == 1:
                # In the middle of a hand.
                proc.kill()
                await proc.wait_exit()
                await proc.start()
                kills += 1
                continue
            decision = table.pending[0]
            message = find_table_message(emu, world)
            assert message is not None
            await _act(emu, by_id[decision.player_id], message, decision)
        else:
            raise AssertionError("the tournament did not finish")
        assert kills == 2
        final = await db.get_tournament(tid)
        assert (final.status, final.prize_pool) == ("finished", 0)
        results = await db.tournament_results(tid)
        assert sorted(r.place for r in results)[0] == 1 and len(results) == 3
        assert sum(r.prize for r in results) == 150
        winner = next(r for r in results if r.place == 1)
        assert winner.prize == 150
        for result in results:
            assert await db.balance(world.guild.id, result.user_id) == 950 + result.prize
            entries = (await db.ledger(world.guild.id, result.user_id)).items
            kinds = [e.kind for e in entries]
            assert kinds.count("tournament_buy_in") == 1
            assert kinds.count("tournament_prize") == (1 if result.prize else 0)
        audit = await db.chip_audit()
        assert audit.ok and audit.in_tournaments == 0, str(audit)
    finally:
        await db.close()


async def test_two_tables_in_threads_survive_kill_9(
    emu: Emulator, world: World, bot_process: Any
) -> None:
    """Eight players on two tables of four (threads of the channel), killed -9 in the middle
    of a hand and again once the tables have merged: nobody is lost or seated twice, and the
    tournament is played out and paid."""
    for name in ("erin", "frank", "gina", "hank"):
        user = emu.add_user(name)
        emu.add_member(world.guild, user)
        world.players.append(user)
    players = world.players[:8]
    by_id = {str(p.id): p for p in players}
    proc = bot_process()
    await proc.start()
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {
            "buy_in": 20,
            "starting_stack": 30,
            "levels": 6,
            "level_minutes": 0.05,
            "seats": 4,
            "players": 8,
            "payouts": "50/30/20",
            "auto_deal": 1,
        },
    )
    assert created.type == 4, created.content
    for player in players:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    db = await Database.open(str(proc.database_path))
    try:
        (row,) = await db.open_tournaments()
        tid = row.tournament_id
        kills: list[str] = []
        hands_seen = 0
        for _ in range(3000):
            await emu.idle()
            rows = await db.tournament_tables(tid)
            if not rows and (await db.get_tournament(tid)).status == "finished":
                break
            tables = {
                r.channel_id: engine.Table.from_dict(json.loads(r.state_json or "{}")["engine"])
                for r in rows
            }
            seated = [s.player_id for t in tables.values() for s in t.seats if s is not None]
            assert len(seated) == len(set(seated)), "a player sits at two tables"
            hands_seen = max([hands_seen, *(t.hand_number for t in tables.values())])
            acting = [(c, t) for c, t in tables.items() if t.in_hand and t.pending]
            if not kills and acting and hands_seen >= 2:
                kills.append("mid-hand")
            elif len(kills) == 1 and len(tables) == 1 and len(rows) == 1:
                kills.append("after the merge")
            else:
                if not acting:
                    await asyncio.sleep(0.1)
                    continue
                channel_id, table = acting[0]
                thread = next(t for t in emu.threads(world.channel) if t.id == channel_id)
                place = World(world.guild, thread, world.host, world.players)
                message = find_table_message(emu, place)
                if message is None:
                    await asyncio.sleep(0.1)
                    continue
                decision = table.pending[0]
                await _act(emu, by_id[decision.player_id], message, decision)
                continue
            proc.kill()
            await proc.wait_exit()
            await proc.start()
            audit = await db.chip_audit()
            assert audit.ok, str(audit)
        else:
            raise AssertionError("the tournament did not finish")
        assert kills == ["mid-hand", "after the merge"], kills
        results = await db.tournament_results(tid)
        assert len(results) == 8 and results[0].place == 1
        assert sum(r.prize for r in results) == 160
        for result in results:
            assert await db.balance(world.guild.id, result.user_id) == 980 + result.prize
        audit = await db.chip_audit()
        assert audit.ok and audit.in_tournaments == 0, str(audit)
    finally:
        await db.close()
