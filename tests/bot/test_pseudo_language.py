"""Every word the bot sends, through the pseudo-language: a server and members in ``en-XA``.

``en-XA`` is made from the templates (every letter accented, text 40 % longer), so a plain
English word in anything the bot sent is a string that escaped the localisation layer, and a
payload over Discord's limits is a text too long for German or Polish. Every game is played
to the end through the emulator, pressing only by custom id (labels are pseudo here), with its
private panels (draws, passes, arrangements, declarations), the member's own hand panel, the
game's rules from the table, a refusal, ``/poker help`` and ``/poker rules``: openers'
requirements, no limit's quick raises, wild cards, lowball, high-low, and the game a pass-out
turns Jacks back into.
Everything the bot sent (channel messages and their edits, DMs, interaction answers, forms) is
read back from the emulator's record of REST calls.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from cogs.ui.custom_ids import LobbyButton, TableButton
from tests.bot.by_id import find, play, scan_sent, sit_and_deal, table_message
from tests.emulator import Emulator, World
from tests.i18n.escaped import english_words, payload_texts

GAMES = [v.slug for v in engine.list_variants()]


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_hand_in_the_pseudo_language(
    game: str, poker_bot: Any, emu: Emulator, world: World
) -> None:
    world.guild.locale = "en-XA"
    players = world.players[:3]
    for user in world.users:
        user.locale = "en-XA"
    bot = await poker_bot()
    lobby = await sit_and_deal(emu, world, players, game)
    await emu.wait_for(lambda: all(emu.dms(p) for p in players))

    table = table_message(emu, world)
    hand = find(table, TableButton, verb="hand") or find(lobby, LobbyButton, verb="hand")
    if hand is not None:
        r = await emu.click(players[0], table, custom_id=hand["custom_id"])
        assert r.type in (4, 6), r.content
    await play(emu, world, bot, players)
    await emu.idle()

    for command in ("poker help", "poker rules", "balance"):
        r = await emu.run_command(players[1], world.channel, command, {})
        assert r.content or r.embeds, command
    r = await emu.run_command(players[2], world.channel, "poker join", {})
    assert r.ephemeral and r.content, r.content  # already seated: a refusal

    names = [n for u in world.users for n in (u.username, u.global_name) if n]
    names += [world.guild.name, world.channel.name]
    allowed = [*names, game, "#"]
    scan = scan_sent(emu, lambda text: english_words(text, allowed))
    assert scan.sent > 20, scan.sent  # the hand really was played and shown
    assert not scan.found, "\n".join(scan.found)
    assert not scan.too_long, scan.too_long


async def test_the_checker_catches_an_english_word_left_in_a_payload() -> None:
    """The scan above would see a text that escaped: an English word among pseudo ones."""
    body = {"embeds": [{"title": "[Ŧåƀļé ···]", "fields": [{"name": "Pot", "value": "5"}]}]}
    found = [english_words(t, ()) for t in payload_texts(body)]
    assert ["Pot"] in found
    assert not english_words("[Ŧåƀļé ···] <@12> `/poker join`", ())
