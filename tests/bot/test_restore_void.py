"""A table whose saved hand this version's rules refuse to replay (a rule tightened by an
update) comes back at the restart with that hand void, rather than staying dark with its
players' chips on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from tests.bot.driver import (
    act_once,
    create_table,
    find_table_message,
    live_table,
    passive,
)
from tests.bot.look import Look
from tests.emulator import Emulator, World
from tests.saved import (
    act_refused,
    game_retired,
    rewrite_table,
    rewrite_tournament,
    tournament_game_retired,
)

NOTE = "could not go on after the bot was updated and is void"
CLOSED = "could not come back after the bot was updated"


async def test_a_hand_the_update_cannot_replay_is_void_after_the_restart(
    poker_bot, emu: Emulator, world: World, db_path: Path, tmp_path: Path
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    live = live_table(bot, world)
    before = {s.player_id: s.stack for s in live.engine.seats if s is not None}
    await act_once(emu, world, bot, live.engine.pending[0], policy=passive)
    await emu.idle()
    assert live.engine.in_hand
    waiting = live.engine.pending[0]
    number = live.engine.hand_number
    await bot.close()

    rewrite_table(db_path, act_refused(waiting.seat))  # what an older version saved next

    bot2 = await poker_bot()
    await emu.idle()
    live2 = live_table(bot2, world)
    assert live2 is not None and not live2.engine.in_hand
    assert {s.player_id: s.stack for s in live2.engine.seats if s is not None} == before
    shown = await emu.wait_for(
        lambda: next((m for m in emu.channel_messages(world.channel) if NOTE in m.text), None),
        timeout=5,
    )
    assert f"#{number}" in shown.text and "Deal" in shown.button_labels
    look = Look("The table after a restart that voided a hand it could not replay")
    look.add("channel", shown)
    look.write(tmp_path / "look", name="restore-void")
    audit = await bot2.db.chip_audit(world.guild.id)
    assert audit.ok, audit
    # The table plays on: the next deal is the hand after the void one.
    await emu.click(alice, shown, label="Deal")
    await emu.idle()
    assert live2.engine.in_hand and live2.engine.hand_number == number + 1
    assert isinstance(live2.engine.pending[0].legal, engine.BetOptions)
    emu.assert_clean()


async def test_a_table_the_update_cannot_rebuild_is_closed_and_paid_after_the_restart(
    poker_bot, emu: Emulator, world: World, db_path: Path, tmp_path: Path
) -> None:
    """A table whose game this version no longer deals cannot come back at all: it is closed
    at the restart, every chip back in its player's bankroll (the hand in progress void), its
    message says so and lists the payouts, its ledger follows, and the channel is free."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    bankrolls = {p.id: await bot.db.balance(world.guild.id, p.id) for p in (alice, bob, carol)}
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    live = live_table(bot, world)
    await act_once(emu, world, bot, live.engine.pending[0], policy=passive)
    await emu.idle()
    await bot.close()

    rewrite_table(db_path, game_retired)

    bot2 = await poker_bot()
    await emu.idle()
    for player, bankroll in bankrolls.items():
        assert await bot2.db.balance(world.guild.id, player) == bankroll
    assert (await bot2.db.chip_audit(world.guild.id)).ok
    closed = await emu.wait_for(
        lambda: next((m for m in emu.channel_messages(world.channel) if CLOSED in m.text), None),
        timeout=5,
    )
    assert closed.id == lobby.id and closed.components == []  # the hand's message, retired
    for player in (alice, bob, carol):
        assert f"{player.global_name or player.username}: 40" in closed.text, closed.text
    ledger = await emu.wait_for(
        lambda: next((m for m in emu.channel_messages(world.channel) if m.id != closed.id), None),
        timeout=5,
    )
    look = Look("A table closed at the restart: it could not be rebuilt")
    look.add("channel", closed)
    look.add("channel", ledger)
    look.write(tmp_path / "look", name="restore-closed")
    again = await emu.run_command(alice, world.channel, "poker create", {})
    assert again.type == 4 and not again.ephemeral, again.content
    emu.assert_clean()


async def _sit_and_go(emu: Emulator, world: World, bot: Any, players: list[Any]) -> Any:
    """A sit-and-go of ``players`` (buy-in 50, 70 tournament chips, winner takes all, dealt
    by hand), registered and started: the tournament, its one table, and that table's place
    (its thread, as a world of its own)."""
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {"buy_in": 50, "starting_stack": 70, "seats": 3, "payouts": "winner", "auto_deal": 0},
    )
    for player in players:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    cog = bot.get_cog("Tournaments")
    (run,) = cog.running.values()
    (live,) = cog.tables_of(run)
    return run, live, World(world.guild, emu.channels[live.channel_id], world.host, players)


async def test_a_tournament_hand_the_update_cannot_replay_is_void_and_the_tournament_goes_on(
    poker_bot, emu: Emulator, world: World, db_path: Path
) -> None:
    """At a tournament's table too: the hand is void (tournament chips back to the deal), the
    prize pool and the bankrolls untouched, and the tournament plays on."""
    bot = await poker_bot()
    players = world.players[:3]
    run, live, place = await _sit_and_go(emu, world, bot, players)
    assert live.engine.in_hand  # dealt as it starts
    before = {s.player_id: s.stack for s in live.engine.seats if s is not None}
    await act_once(emu, place, bot, live.engine.pending[0], policy=passive)
    await emu.idle()
    assert live.engine.in_hand
    waiting, number = live.engine.pending[0], live.engine.hand_number
    bankrolls = {p.id: await bot.db.balance(world.guild.id, p.id) for p in players}
    await bot.close()

    rewrite_table(db_path, act_refused(waiting.seat), "tournament_id IS NOT NULL")

    bot2 = await poker_bot()
    await emu.idle()
    cog2 = bot2.get_cog("Tournaments")
    run2 = cog2.running[run.tournament_id]
    (live2,) = cog2.tables_of(run2)
    assert live2.engine.hand_number == number and live2.meta.hand is None
    assert {s.player_id: s.stack for s in live2.engine.seats if s is not None} == before
    assert live2.engine.chips() == 3 * 70
    for player, bankroll in bankrolls.items():
        assert await bot2.db.balance(world.guild.id, player) == bankroll
    audit = await bot2.db.chip_audit(world.guild.id)
    assert audit.ok, audit
    # Played on: the void hand's seats deal the next hands, every tournament chip still there.
    for _ in range(100):
        if live2.engine.hand_number >= number + 2 and not live2.engine.in_hand:
            break
        if live2.engine.in_hand:
            await act_once(emu, place, bot2, live2.engine.pending[0], policy=passive)
        else:
            lobby = next(
                m
                for m in reversed(emu.channel_messages(place.channel))
                if "Deal" in m.button_labels
            )
            await emu.click(players[0], lobby, label="Deal")
        await emu.idle()
    assert live2.engine.hand_number == number + 2 and not live2.engine.in_hand
    assert live2.engine.chips() == 3 * 70 and run2.state.status == "running"
    for player, bankroll in bankrolls.items():
        assert await bot2.db.balance(world.guild.id, player) == bankroll
    assert (await bot2.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()


@pytest.mark.parametrize("broken", ["tournament", "both", "table"])
async def test_a_tournament_the_update_cannot_rebuild_is_called_off_and_paid_back(
    poker_bot, emu: Emulator, world: World, db_path: Path, tmp_path: Path, broken: str
) -> None:
    """A tournament whose game this version no longer deals (in its own record, its
    table's too, or only its table's) is called off at the restart as void: what each player
    paid in goes back, the hand in progress is void, its tables close, and its channel says
    so."""
    bot = await poker_bot()
    players = world.players[:3]
    bankrolls = {p.id: await bot.db.balance(world.guild.id, p.id) for p in players}
    run, live, place = await _sit_and_go(emu, world, bot, players)
    await act_once(emu, place, bot, live.engine.pending[0], policy=passive)
    await emu.idle()
    assert live.engine.in_hand
    await bot.close()

    tid = run.tournament_id
    if broken != "table":
        assert rewrite_tournament(db_path, tournament_game_retired) == tid
    if broken != "tournament":
        rewrite_table(db_path, game_retired, f"tournament_id = {tid}")

    bot2 = await poker_bot()
    await emu.idle()
    assert bot2.get_cog("Tournaments").running == {}
    assert (await bot2.db.get_tournament(tid)).status == "cancelled"
    assert await bot2.db.tournament_tables(tid) == []
    assert bot2.tables.tables == {}
    for player, bankroll in bankrolls.items():
        assert await bot2.db.balance(world.guild.id, player) == bankroll
    audit = await bot2.db.chip_audit(world.guild.id)
    assert audit.ok and audit.in_tournaments == 0, audit
    said = await emu.wait_for(
        lambda: next(
            (m for m in emu.channel_messages(world.channel) if "called off" in m.text), None
        ),
        timeout=5,
    )
    for player in players:
        assert f"{player.global_name or player.username}: 50 chips" in said.text, said.text
    look = Look("A tournament called off at the restart: it could not be rebuilt")
    look.add("channel", said)
    look.write(tmp_path / "look", name="restore-tournament")
    table = find_table_message(emu, place)
    if broken == "tournament":  # the table was rebuilt, then closed with it: retired
        assert table is None
    else:  # the table message stayed as it was: a press on it hears the table is closed
        assert table is not None
        pressed = await emu.click(players[0], table, label="My hand")
        assert pressed.ephemeral and "closed" in pressed.content, pressed.content
    emu.assert_clean()
