"""One way in: every component the bot posts is answered by the router, by custom id alone,
also by a bot started after the message was posted."""

from __future__ import annotations

from tests.bot.driver import create_table, forged_press
from tests.emulator import Emulator, World


async def test_a_tournament_lobby_works_after_a_restart(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    created = await emu.run_command(
        world.host, world.channel, "poker tournament create", {"buy_in": 100, "seats": 3}
    )
    lobby = created.message
    assert (await emu.click(alice, lobby, label="Register")).type == 7
    await bot.close()

    again = await poker_bot()
    r = await emu.click(bob, lobby, label="Register")
    assert r.type == 7, r.content
    assert await again.db.balance(world.guild.id, bob.id) == 900
    r = await emu.click(bob, lobby, label="Start")
    assert r.ephemeral and "creator" in r.content, r.content
    emu.assert_clean()


async def test_presses_of_the_table_lobby_and_an_unknown_id_after_a_restart(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    message = await create_table(emu, world, [alice, bob], stake=2, auto_deal=0)
    await bot.close()

    again = await poker_bot()
    r = await emu.click(carol, message, label="Sit down")
    assert r.type == 9  # the buy-in modal
    assert (await emu.submit_modal(carol, r, {})).type == 7
    assert again.tables.in_channel(world.channel.id).seated(carol.id)
    r = await forged_press(emu, carol, emu.get_message(message.id), "someone-elses:button")
    assert r.ephemeral and "no longer valid" in r.content
    emu.assert_clean()
