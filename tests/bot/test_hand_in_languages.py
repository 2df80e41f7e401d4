"""A whole hand in each shipped language, as its players see it: a server and members in one
language play five-card draw through the emulator (pressing by custom id), and every text the
bot sent must be within Discord's limits (German and Polish run longest) and carry no English
sentence that the language translates (a text that escaped the layer, or a catalogue entry left
in English).

Each test keeps every version of the table message, the first player's DM, the panels opened
and the hand's result (:class:`tests.bot.look.Look`), written to pytest's temporary folder
and to /tmp/look/languages/<code>/ for the preview tool: the way to look at a language on a
phone before shipping it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from cogs.ui.custom_ids import TableButton
from i18n import LANGUAGES as SHIPPED
from i18n import resolve
from i18n.catalogues import read_catalogue
from i18n.extract import PACKAGES, ROOT
from tests.bot.by_id import find, play, scan_sent, sit_and_deal, table_message
from tests.bot.look import Look
from tests.emulator import Emulator, World
from tests.i18n.escaped import payload_texts

LANGUAGES = tuple(language.code for language in SHIPPED[1:])  # English first: not a translation

_PLACEHOLDER = re.compile(r"\{[^}]*\}")


@cache
def _english_left(code: str) -> frozenset[str]:
    """English sentences the language writes otherwise: each source text without placeholders,
    of three words or more, whose translation differs (a text found in a payload as it is
    in English was not translated)."""
    found: set[str] = set()
    for package in PACKAGES:
        catalogue = read_catalogue(ROOT / package.name / "locales" / f"{code}.po")
        for message in catalogue:
            if not message.id or message.pluralizable or _PLACEHOLDER.search(message.id):
                continue
            source = str(message.id)
            if len(source.split()) >= 3 and message.string and message.string != source:
                found.add(source)
    return frozenset(found)


def test_the_english_check_sees_an_untranslated_sentence() -> None:
    """The scan below would catch a German payload that kept an English sentence."""
    left = _english_left("de")
    assert left
    sentence = sorted(left)[0]
    texts = payload_texts({"embeds": [{"description": f"**Bob** · {sentence}"}]})
    assert any(s in text for text in texts for s in left)


@pytest.mark.parametrize("code", LANGUAGES)
async def test_a_hand_in_each_language(
    code: str, poker_bot: Any, emu: Emulator, world: World, tmp_path: Path
) -> None:
    language = resolve(code)
    assert language.code == code
    world.guild.locale = code
    for user in world.users:
        user.locale = code
    players = world.players[:3]
    bot = await poker_bot()
    bot.presenter.ping_after = 0
    look = Look(f"five-card draw in {code}: the table as it changes, a DM, panels, the result")

    lobby = await sit_and_deal(emu, world, players, "five-card-draw")
    look.add("#poker (the lobby)", emu.messages[lobby.id])
    first_dm = await emu.wait_for(lambda: (emu.dms(players[0]) or [None])[-1])
    look.add("DM", first_dm)
    table = table_message(emu, world)
    hand = find(table, TableButton, verb="hand")
    if hand is not None:
        opened = await emu.click(players[0], table, custom_id=hand["custom_id"])
        if opened.followups:
            look.add("#poker · only you", opened.followups[-1], ephemeral=True)
    await play(emu, world, bot, players, look)
    await emu.idle()
    for message in emu.channel_messages(world.channel)[-2:]:
        look.add("#poker (after the hand)", message)
    look.write(tmp_path, name=f"languages/{code}")

    left = _english_left(code)
    scan = scan_sent(emu, lambda text: [repr(s) for s in left if s in text])
    assert scan.sent > 15, scan.sent  # the hand really was played and shown
    assert not scan.too_long, scan.too_long
    assert not scan.found, "\n".join(scan.found)
