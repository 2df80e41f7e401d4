"""Tables in the other kinds of channel a server has: a voice channel's text chat, where a
game night's players often sit (a table plays there, and a tournament of one table: its
extra tables would be threads, which a voice channel does not have), and an announcement
channel (a tournament's tables there are announcement threads)."""

from __future__ import annotations

from tests.bot.driver import create_table, deal, play_hand, two_table_tournament
from tests.emulator import Emulator, World
from tests.emulator.models import ANNOUNCEMENT_THREAD


async def test_a_table_and_a_one_table_tournament_play_in_a_voice_channels_chat(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    lounge = emu.add_voice_channel(world.guild, "Lounge")
    here = World(world.guild, lounge, world.host, world.players)
    await create_table(emu, here, world.players[:3], variant="ace-to-six-lowball")
    await deal(emu, here, world.players[0])
    result = await play_hand(emu, here, bot)
    assert result.shown or result.uncontested is not None, result
    said = [m.text for m in emu.channel_messages(lounge)]
    assert any("hand #1 result" in text.replace("\xa0", " ") for text in said), said

    stage = emu.add_voice_channel(world.guild, "Stage")
    await emu.idle()
    options = {"buy_in": 10, "seats": 2, "players": 4}
    refused = await emu.run_command(world.host, stage, "poker tournament create", options)
    assert refused.ephemeral and "need a text channel" in refused.content, refused.content
    options = {"buy_in": 10, "seats": 4, "players": 4, "auto_deal": 1}
    created = await emu.run_command(world.host, stage, "poker tournament create", options)
    assert created.type == 4 and not created.ephemeral, created.content
    for player in world.players[:4]:
        assert (await emu.click(player, created.message, label="Register")).type == 7
    await emu.idle()
    running = next(iter(bot.get_cog("Tournaments").running.values()))
    assert running.state.status == "running"
    (table,) = bot.get_cog("Tournaments").tables_of(running)
    assert table.channel_id == stage.id and table.engine.in_hand
    emu.assert_clean()


async def test_a_tournament_in_an_announcement_channel_plays_in_announcement_threads(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    news = emu.add_announcement_channel(world.guild, "announcements")
    await emu.idle()
    here = World(world.guild, news, world.host, world.players)
    _, run = await two_table_tournament(
        emu, here, bot, ("erin", "frank", "grace", "heidi"), players=8
    )
    threads = emu.threads(news)
    assert {t.type for t in threads} == {ANNOUNCEMENT_THREAD}
    tables = bot.get_cog("Tournaments").tables_of(run)
    assert sorted(t.channel_id for t in tables) == sorted(t.id for t in threads)
    await emu.wait_for(lambda: all(t.engine.in_hand for t in tables), timeout=5)
    emu.assert_clean()
