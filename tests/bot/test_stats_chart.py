"""``/stats`` draws the member's game over time: hands of two games played through the table's
buttons, then the picture and its words checked as the member receives them."""

from __future__ import annotations

import asyncio
import io
from typing import Any

from PIL import Image

from cogs.ui.stats_chart import CHART_FILE, WIDTH, _game_name
from data import GameNet
from i18n import resolve, speaking
from tests.bot.driver import create_table, deal, play_hand
from tests.emulator import Emulator, World


async def play_a_night(
    emu: Emulator, world: World, bot: Any, players: list[Any], game: str
) -> None:
    """A table of ``game``: two hands dealt and played to the end, then the table closed."""
    await create_table(emu, world, players, variant=game, auto_deal=0)
    for _ in range(2):
        await deal(emu, world, players[0])
        await play_hand(emu, world, bot)
    r = await emu.run_command(players[0], world.channel, "poker end", {})
    assert not r.ephemeral and "Table closed" in r.embeds[0]["title"], r.content


def field(embed: dict[str, Any], name: str) -> str:
    return next(f["value"] for f in embed.get("fields", []) if f["name"] == name)


async def test_stats_shows_the_bankroll_and_net_per_game(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await play_a_night(emu, world, bot, [alice, bob], "five-card-draw")
    await play_a_night(emu, world, bot, [alice, bob], "seven-card-draw")

    r = await emu.run_command(bob, world.channel, "stats", {"member": alice})
    assert r.type == 4 and not r.ephemeral
    [picture] = r.attachments
    assert picture.filename == CHART_FILE
    embed = r.embeds[0]
    # the embed shows the attached picture (the emulator resolves attachment:// to its URL)
    assert embed["image"]["url"] == picture.url
    assert picture.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert 5_000 < len(picture.data) < 300_000, len(picture.data)
    image = Image.open(io.BytesIO(picture.data))
    image.load()  # decodes every row: a broken PNG raises here
    width, height = image.size
    assert width == WIDTH and WIDTH < height < 2 * WIDTH, image.size

    # the same figures as text, for screen readers: two games, 2 hands each, adding up to the
    # net chips the stats count hand by hand
    stats = await bot.db.stats(world.guild.id, alice.id)
    lines = field(embed, "Net per game").splitlines()
    assert len(lines) == 2, lines
    assert {line.split(":")[0] for line in lines} == {"Five-card draw", "Seven-card draw"}
    assert all(line.endswith("(2 hands)") for line in lines), lines
    nets = [int(line.split("**")[1].replace(",", "")) for line in lines]
    assert sum(nets) == stats.net_chips
    assert "Bankroll from 1,000 to" in (picture.description or "")
    assert "Five-card draw" in (picture.description or "")
    emu.assert_clean()


async def test_stats_without_history_answers_in_words(
    poker_bot, emu: Emulator, world: World
) -> None:
    await poker_bot()
    alice, dave = world.players[0], world.players[3]
    await emu.run_command(dave, world.channel, "balance")  # an account, no hand played
    r = await emu.run_command(alice, world.channel, "stats", {"member": dave})
    assert r.type == 4 and not r.ephemeral
    assert "hasn't played a hand" in r.embeds[0]["description"]
    assert not r.attachments and "image" not in r.embeds[0]
    emu.assert_clean()


def test_a_dealers_choice_game_is_named_as_the_game_dealt() -> None:
    """A dealer's choice hand is kept under its table's variant with the chosen game's name:
    the chart names the game dealt (it named the table's), in the reader's language."""
    with speaking(resolve("de")):
        chosen = _game_name(GameNet("five-card-draw", "California lowball", 3, 12))
        own = _game_name(GameNet("california-lowball", "California lowball", 3, 12))
    assert chosen == own and "Lowball" in chosen


async def test_a_slow_stats_is_answered_in_time(poker_bot, emu: Emulator, world: World) -> None:
    """A member with years of hands: reading them took longer than Discord's 3 seconds, and
    /stats went unanswered. It now says "thinking..." in the channel, then the stats."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await play_a_night(emu, world, bot, [alice, bob], "five-card-draw")
    read = bot.db.stats_history

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(3.5)  # (a database of a million hands, say)
        return await read(*args, **kwargs)

    bot.db.stats_history = slow
    r = await emu.run_command(bob, world.channel, "stats", {"member": alice})
    assert r.type == 5 and not r.ephemeral
    await emu.wait_for(lambda: r.message is not None and r.message.embeds, timeout=10)
    assert not r.message.ephemeral and r.attachments[0].filename == CHART_FILE
    assert "Net per game" in [f["name"] for f in r.message.embeds[0]["fields"]]
