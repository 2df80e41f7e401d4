"""Issue 15 loose ends of the turn pings: a ping standing in the channel survives a restart
only until the restored bot deletes it, and a ping whose player acts again in a new street
is reworded rather than left saying the old one."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from cogs.presenter import Shown
from tests.bot.driver import act_once, create_table, live_table, opener
from tests.emulator import Emulator, World

PING = "🔔"


def pings(emu: Emulator, world: World) -> list[Any]:
    return [m for m in emu.channel_messages(world.channel) if PING in (m.content or "")]


async def standing_ping(emu: Emulator, world: World, bot: Any, live: Any) -> int:
    """Act until a ping stands in the channel; its message id."""
    shown = Shown.of(live)
    for _ in range(20):
        if shown.ping is not None:
            break
        await act_once(emu, world, bot, live.engine.pending[0], policy=opener)
        await emu.idle()
    assert shown.ping is not None
    return int(shown.ping.message_id)


async def test_a_ping_left_by_a_restart_is_deleted(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    live = live_table(bot, world)
    left = await standing_ping(emu, world, bot, live)
    assert Shown.of(live).ping_id == left
    assert [m.id for m in pings(emu, world)] == [left]
    await bot.close()
    bot2 = await poker_bot()
    await emu.idle()
    await emu.wait_for(lambda: not pings(emu, world), timeout=5)
    assert Shown.of(live_table(bot2, world)).ping_id is None
    # The hand goes on, and the next ping is again the only one.
    live2 = live_table(bot2, world)
    for _ in range(10):
        if not live2.engine.in_hand:
            break
        await act_once(emu, world, bot2, live2.engine.pending[0], policy=opener)
        await emu.idle()
        assert len(pings(emu, world)) <= 1
    emu.assert_clean()


async def test_a_ping_follows_the_street_of_the_player_it_waits_for(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Heads-up: the player who closes the betting is often first to draw. Their ping may
    stay (no new ping for their own action), but it must name the street they now play."""
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    reworded = 0
    deal_on = lobby
    for _ in range(6):
        await emu.click(alice, deal_on, label="Deal")
        await emu.idle()
        live = live_table(bot, world)
        for _ in range(40):
            if not live.engine.in_hand:
                break
            before = Shown.of(live).ping
            await act_once(emu, world, bot, live.engine.pending[0], policy=opener)
            await emu.idle()
            ping = Shown.of(live).ping
            if ping is None or not live.engine.in_hand:
                continue
            view = live.engine.public_view()
            where = f"hand\u00a0#{view.hand_number}" + (f" · {view.street}" if view.street else "")
            (message,) = pings(emu, world)
            assert message.id == ping.message_id
            assert f"({where})" in message.content, (message.content, where)
            same = before is not None and before.message_id == ping.message_id
            if same and before is not None and before.text != ping.text:
                reworded += 1
        deal_on = await emu.wait_for(
            lambda: next(
                (m for m in emu.channel_messages(world.channel) if "Deal" in m.button_labels),
                None,
            )
        )
        if reworded:
            break
    assert reworded, "no ping ever had to change its street"
    emu.assert_clean()


async def test_a_ping_id_is_saved_on_its_own_when_no_change_follows(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The ping's id rides on the table's next snapshot; when the player takes their time and
    nothing else is saved, it is written by itself after ``presentation_save_delay`` (a kill -9 then
    still finds it)."""
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    bot.tables.presentation_save_delay = 0.2
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    live = live_table(bot, world)

    async def saved_ping() -> int | None:
        row = await bot.db.get_table(live.id)
        return json.loads(row.state_json or "{}")["presentation"].get("ping_id")

    standing = await standing_ping(emu, world, bot, live)
    for _ in range(50):
        if await saved_ping() == standing:
            break
        await asyncio.sleep(0.05)
    assert await saved_ping() == standing
    assert live.presentation_save is None
    emu.assert_clean()
