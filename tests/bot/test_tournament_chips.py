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
import random
from typing import Any

import pytest

from tests.bot.driver import (
    act_at_a_table,
    deal,
    live_table,
    opener,
    passive,
    play_hand,
    two_table_tournament,
)
from tests.emulator import Emulator, World

PLAYERS = 8
STACK = 10


def mostly_checking(rng: random.Random) -> Any:
    """Check round mostly (deals pass out), open now and then (stacks grow apart, so some
    players are all-in for the ante while others still check)."""

    def policy(decision: Any, labels: list[str]) -> str:
        return opener(decision, labels) if rng.random() < 0.2 else passive(decision, labels)

    return policy


async def test_passed_out_pots_and_broken_tables_keep_every_chip(
    poker_bot, emu: Emulator, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    bot = await poker_bot()
    _, run = await two_table_tournament(
        emu,
        world,
        bot,
        ("erin", "frank", "grace", "heidi"),
        starting_stack=STACK,
        players=PLAYERS,
        payouts="50/30/20",
    )
    players = list(world.players)
    tid = run.tournament_id
    threads = {t.id: t for t in emu.threads(world.channel)}
    total = PLAYERS * STACK

    def tables() -> list[Any]:
        return [t for t in bot.tables.tables.values() if t.meta.tournament == tid]

    seen: dict[int, Any] = {}
    passed_out = set()
    started = False
    policy = mostly_checking(random.Random(25))
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
        started = started or len(seated) == PLAYERS
        if not started:  # still seating the players, one at a time
            await asyncio.sleep(0.05)
            continue
        moving = sum(stack for pid, (_, stack) in run.moving.items() if pid not in seated)
        assert sum(t.engine.chips() for t in live) + moving == total, "chips left the tournament"
        stakes = {pid for t in live for pid in t.engine.carried_stakes}
        for entry in run.state.entries:
            if entry.out:
                assert entry.player_id not in stakes, "out with chips in a carried pot"
                assert seated.get(entry.player_id, 0) == 0
        await act_at_a_table(emu, world, bot, live, threads, players, policy=policy)
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


async def test_all_in_for_the_ante_of_a_passed_out_deal_is_still_in(
    poker_bot, emu: Emulator, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """The report's case, made certain: two players take the add-on, the level's ante is 3,
    everyone checks round. The two short stacks go all-in for the ante of a deal that passes
    out: they stay in (they were counted out, their chips left in the carried pot), are
    dealt in, and play for the part of the pot they put in."""
    caplog.set_level(logging.ERROR)
    bot = await poker_bot()
    cog = bot.get_cog("Tournaments")
    now = 1_800_000_000.0
    cog.clock = lambda: now
    players = world.players[:4]
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {
            "buy_in": 10,
            "starting_stack": 10,
            "levels": 6,
            "level_minutes": 0.05,
            "seats": 4,
            "players": 4,
            "payouts": "winner",
            "rebuy_levels": 3,
            "addon": 5,
            "auto_deal": 0,
            "timer": 60,
        },
    )
    assert created.type == 4 and not created.ephemeral, created.content
    run = next(iter(cog.running.values()))
    for player in players:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    live = live_table(bot, world)
    first = await play_hand(emu, world, bot, policy=passive)  # ante 1, everyone checks
    assert first.passed_out

    # Level 3 (ante 3); the first two players buy the add-on: 14, 14, 9, 9 chips.
    cog.clock = lambda: now + 7.5
    for player in players[:2]:
        r = await emu.run_command(player, world.channel, "poker tournament addon", {})
        assert not r.ephemeral, r.content
    await emu.idle()
    short = {str(p.id) for p in players[2:]}
    assert {live.engine.stack(pid) for pid in short} == {9}
    total = run.state.chips_in_play
    assert total == 50 and live.engine.chips() == total

    held_on = False
    # Checked round, the chips move by antes and showdowns only: most runs end within 20
    # hands, but the tail is long (40 failed a clean-clone run once).
    for _ in range(200):
        if run.state.status != "running":
            break
        dealt_in = {s.player_id for s in live.engine.seats if s is not None and s.stack}
        await deal(emu, world, next(p for p in players if live.seated(p.id)))
        result = await play_hand(emu, world, bot, policy=passive)
        await emu.idle()
        assert live.engine.chips() == total, "chips left the tournament"
        stakes = live.engine.carried_stakes
        for entry in run.state.entries:
            if entry.out:
                assert entry.player_id not in stakes, "out with chips in the carried pot"
        seats = {s.player_id: s.stack for s in live.engine.seats if s is not None}
        for pid in short & dealt_in:
            if result.passed_out and seats.get(pid, 0) == 0:
                held_on = True  # all-in for the ante, and the deal passed out
                assert not run.state.entry(pid).out, "counted out with chips in the pot"
                assert pid in stakes
    else:
        raise AssertionError("the tournament did not finish")
    assert held_on, "nobody was all-in for the ante of a passed-out deal"
    await emu.idle()
    (winner,) = run.state.alive
    assert live.engine.stack(winner) + live.engine.carried == total
    results = await bot.db.tournament_results(run.tournament_id)
    assert {str(r.user_id): r.place for r in results} == dict(run.state.places())
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok and audit.in_tournaments == 0, str(audit)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
