"""The gateway connection lost while tables play: a network drop the bot resumes, Discord
asking it to reconnect, and a session Discord ends, after which the bot identifies again, its
cache starts empty and ``on_ready`` runs a second time (the bot tunes its memory once).

Through all of it a cash table and a tournament on two threads keep every seat and chip: a
press in flight as the connection drops is answered, the tables (threads included) are not
taken for deleted channels, and every table plays on to the end of a hand."""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

import pytest

from tests.bot.driver import (
    act_at_a_table,
    act_once,
    create_table,
    deal,
    live_table,
    member_to_act,
    nothing_logged_as_error,
    play_hand,
    table_message,
    two_table_tournament,
)
from tests.emulator import Emulator, World


async def _press_while_the_connection_drops(
    emu: Emulator, world: World, bot: Any, drop: Any
) -> None:
    """The player to act at ``world``'s table presses; once the press has reached the bot,
    ``drop`` cuts the connection. The press is answered all the same (answers go over HTTP)."""
    live = live_table(bot, world)
    decision = live.engine.pending[0]
    user = member_to_act(emu, decision)
    message = table_message(emu, world)
    label = next(label for label in message.button_labels if label in ("Check", "Call"))
    sent = len(emu.interactions)
    press = asyncio.ensure_future(emu.click(user, message, label=label))
    await emu.wait_for(
        lambda: any(r.dispatched_perf for r in list(emu.interactions.values())[sent:])
    )
    await drop()
    answer = await press
    assert answer.type == 7, answer.content


async def _connected_again(emu: Emulator, identified: int, resumed: int) -> None:
    await emu.wait_for(
        lambda: emu.connected and (emu.identify_count > identified or emu.resume_count > resumed),
        timeout=15,
    )
    await emu.idle()


async def test_tables_and_a_tournament_play_on_through_a_lost_gateway_connection(
    poker_bot, emu: Emulator, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    bot = await poker_bot()
    cash = World(world.guild, emu.add_text_channel(world.guild, "cash"), world.host, [])
    cash.players.extend(world.players[:3])
    await create_table(emu, cash, cash.players)
    await deal(emu, cash, cash.players[0])
    extra = ("erin", "frank", "grace", "heidi")
    _, run = await two_table_tournament(emu, world, bot, extra, players=8)
    tournaments = bot.get_cog("Tournaments")
    tables = tournaments.tables_of(run)
    threads = {t.id: t for t in emu.threads(world.channel)}
    await emu.wait_for(lambda: all(t.engine.in_hand for t in tables), timeout=5)
    chips = {live.id: live.engine.chips() for live in (live_table(bot, cash), *tables)}

    async def drop() -> None:
        assert await emu.drop_gateway() == 1

    async def reconnect() -> None:
        await emu.request_reconnect()

    async def session_ended() -> None:
        await emu.invalidate_session(resumable=False)

    frozen = gc.get_freeze_count()  # (the bot's first on_ready froze its start-up objects)
    for cut in (drop, reconnect, session_ended):
        identified, resumed = emu.identify_count, emu.resume_count
        await _press_while_the_connection_drops(emu, cash, bot, cut)
        await _connected_again(emu, identified, resumed)
        await act_at_a_table(emu, world, bot, tables, threads, world.players)
    # The lost session made the bot identify again: a second READY, and on_ready again.
    assert emu.identify_count == 2 and emu.resume_count >= 2
    # Its start-up tuning is done once: a second freeze would keep every object of the
    # tables that has come since out of the collector's reach for good.
    assert gc.get_freeze_count() <= frozen
    await emu.idle()

    # Nothing was closed as if its channel were gone, and nothing was lost.
    assert bot.get_channel(next(iter(threads))) is not None
    assert {live.channel_id for live in tournaments.tables_of(run)} == set(threads)
    assert run.state.status == "running"
    assert len(await bot.db.open_tables()) == 3
    assert live_table(bot, cash).engine.chips() == chips[live_table(bot, cash).id]
    assert sum(t.engine.chips() for t in tables) == sum(chips[t.id] for t in tables)

    # Every table plays on: the cash hand to its end, a new hand at each tournament table.
    assert (await play_hand(emu, cash, bot)).hand_number == 1
    numbers = {t.id: t.engine.hand_number for t in tables}
    for _ in range(400):
        if all(t.engine.hand_number > numbers[t.id] for t in tournaments.tables_of(run)):
            break
        await emu.idle()
        await act_at_a_table(emu, world, bot, tournaments.tables_of(run), threads, world.players)
    else:
        raise AssertionError("a tournament table did not deal a new hand")
    if not live_table(bot, cash).engine.in_hand:  # (unless its auto-deal dealt already)
        await deal(emu, cash, cash.players[0])
    await act_once(emu, cash, bot, live_table(bot, cash).engine.pending[0])
    assert live_table(bot, cash).engine.hand_number == 2

    emu.assert_clean()
    assert (await bot.db.chip_audit(world.guild.id)).ok
    nothing_logged_as_error(caplog)
