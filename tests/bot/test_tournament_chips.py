"""Issue 25 (1b) the way it broke: a sit-and-go of eight on two tables, tiny stacks, antes
rising every few seconds, everyone checking round (so deals pass out with players all-in for
the ante in them), played through the emulator. Throughout, every tournament chip is in a
stack, a pot or a move under way, nobody is out with chips in a pot; at the end the winner
holds them all, the places are the engine's, no ERROR was logged, and no table message of
the tournament still offers Sit down or Deal (the table that broke up says where its
players went)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from tests.bot.driver import act_once, find_table_message, passive
from tests.emulator import Emulator, World

PLAYERS = 8
STACK = 10


async def test_passed_out_pots_and_broken_tables_keep_every_chip(
    poker_bot, emu: Emulator, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    bot = await poker_bot()
    for name in ("erin", "frank", "grace", "heidi"):
        user = emu.add_user(name)
        emu.add_member(world.guild, user)
        world.players.append(user)
    players = list(world.players)
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {
            "buy_in": 10,
            "starting_stack": STACK,
            "levels": 8,
            "level_minutes": 0.05,
            "seats": 4,
            "players": PLAYERS,
            "payouts": "50/30/20",
            "auto_deal": 1,
            "timer": 60,
        },
    )
    assert created.type == 4 and not created.ephemeral, created.content
    cog = bot.get_cog("Tournaments")
    run = next(iter(cog.running.values()))
    for player in players:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    tid = run.tournament_id
    threads = {t.id: t for t in emu.threads(world.channel)}
    assert len(threads) == 2
    total = PLAYERS * STACK

    def tables() -> list[Any]:
        return [t for t in bot.tables.tables.values() if t.meta.tournament == tid]

    seen: dict[int, Any] = {}
    passed_out = set()
    for _ in range(4000):
        await emu.idle()
        live = tables()
        if not live:
            break
        for t in live:
            seen[t.id] = t
            result = t.engine.result
            if result is not None and result.passed_out:
                passed_out.add((t.id, t.engine.hand_number))
        seated = {s.player_id: s.stack for t in live for s in t.engine.seats if s is not None}
        moving = sum(stack for pid, (_, stack) in run.moving.items() if pid not in seated)
        assert sum(t.engine.chips() for t in live) + moving == total, "chips left the tournament"
        stakes = {pid for t in live for pid in t.engine.carried_stakes}
        for entry in run.state.entries:
            if entry.out:
                assert entry.player_id not in stakes, "out with chips in a carried pot"
                assert seated.get(entry.player_id, 0) == 0
        acting = [t for t in live if t.engine.in_hand and t.engine.pending]
        if not acting:
            await asyncio.sleep(0.05)
            continue
        table = acting[0]
        place = World(world.guild, threads[table.channel_id], world.host, players)
        if find_table_message(emu, place) is None:
            await asyncio.sleep(0.05)
            continue
        await act_once(emu, place, bot, table.engine.pending[0], policy=passive)
    else:
        raise AssertionError("the tournament did not finish")
    await emu.idle()
    await asyncio.sleep(0.2)
    await emu.idle()

    assert passed_out, "no deal passed out: the test did not test what broke"
    final = run.state
    assert final.status == "finished"
    assert len(final.alive) == 1, f"the tournament ended with {final.alive} still in"
    (winner,) = final.alive
    holding = [t for t in seen.values() if t.engine.chips()]
    assert len(holding) == 1, "chips were left at a table that broke up"
    engine_table = holding[0].engine
    assert engine_table.stack(winner) + engine_table.carried == total
    results = await bot.db.tournament_results(tid)
    places = {str(r.user_id): r.place for r in results}
    assert places == dict(final.places())
    assert sum(r.prize for r in results) == PLAYERS * 10
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok and audit.in_tournaments == 0, str(audit)
    closed = []
    for thread in threads.values():
        for message in emu.channel_messages(thread):
            labels = message.button_labels
            assert "Sit down" not in labels and "Deal" not in labels, message.text
            if "This table is closed." in message.text:
                closed.append(message.text)
    # The table that broke up says so, and where its players went (a link to their table).
    assert any("moves to <#" in text for text in closed), closed
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []
