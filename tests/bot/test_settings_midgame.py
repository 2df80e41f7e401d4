"""A table's life around /poker settings and the clock: changes between hands and during
one, time banks, pre-actions, leaving and rebuying mid-hand, dealer's choice abuse."""

from __future__ import annotations

from typing import Any

from tests.bot.driver import create_table, live_table, play_hand
from tests.emulator import Emulator, World


async def test_turning_the_auto_deal_on_or_off_between_hands_takes_effect_now(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    await emu.click(alice, lobby, label="Deal")
    await play_hand(emu, world, bot)
    await emu.idle()
    assert not live.engine.in_hand and live.engine.hand_number == 1
    # Manual deal -> one second: the next hand is dealt without anyone pressing Deal.
    r = await emu.run_command(alice, world.channel, "poker settings", {"auto_deal": 1})
    assert not r.ephemeral, r.content
    await emu.wait_for(lambda: live.engine.hand_number == 2, timeout=5)
    await play_hand(emu, world, bot)
    await emu.idle()
    # One second -> manual, while the next deal is already counted down: no deal comes.
    assert live.auto_deal is not None
    r = await emu.run_command(alice, world.channel, "poker settings", {"auto_deal": 0})
    assert not r.ephemeral, r.content
    assert live.auto_deal is None
    await emu.idle()
    assert live.engine.hand_number == 2 and not live.engine.in_hand
