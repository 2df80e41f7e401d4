"""Discord misbehaving around a running table, as a real server does: a moderator deleting
the table's message or its channel, the bot removed from its server, answers failing with
5xx. Each time the table must stay playable or pay its players out, chips adding up."""

from __future__ import annotations

from typing import Any

from tests.bot.driver import (
    act_once,
    create_table,
    deal,
    find_table_message,
    live_table,
    play_hand,
    table_message,
)
from tests.emulator import Emulator, World


async def _table_shown(emu: Emulator, world: World) -> Any:
    try:
        return await emu.wait_for(lambda: find_table_message(emu, world), timeout=3)
    except TimeoutError:
        raise AssertionError("the table has no message with its buttons") from None


async def test_a_table_message_deleted_mid_hand_comes_back_with_the_next_change(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The bot reads no message events: it learns of the deletion when it next shows the
    table (here the player to act running out of time), and posts the table again instead
    of leaving its players with no buttons until someone thinks of /poker table."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0, time_bank=0)
    await deal(emu, world, alice)
    live = live_table(bot, world)
    await act_once(emu, world, bot, live.engine.pending[0])
    await emu.idle()
    events = len(live.engine.events)
    live.settings.action_seconds = 0.3
    bot.tables.clock.schedule(live)
    emu.delete_message(table_message(emu, world))  # a moderator tidies the channel
    await emu.wait_for(lambda: len(live.engine.events) > events, timeout=3)
    await _table_shown(emu, world)
    live.settings.action_seconds = 60
    bot.tables.clock.schedule(live)
    await play_hand(emu, world, bot)
    # (The emulator's 404s are the deleted message's, as Discord answers them.)
    assert not emu.failures, emu.failures


async def test_a_table_message_deleted_while_the_bot_was_away_is_posted_again(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    await deal(emu, world, alice)
    await emu.idle()
    await bot.close()
    emu.delete_message(table_message(emu, world))  # nobody hears of it
    bot2 = await poker_bot()
    await _table_shown(emu, world)
    await play_hand(emu, world, bot2)
    # (The emulator's 404s are the deleted message's, as Discord answers them.)
    assert not emu.failures, emu.failures
