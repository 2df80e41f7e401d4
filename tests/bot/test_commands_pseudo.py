"""The commands' private answers in the pseudo-language: a member whose client reads ``en-XA``
gets /poker help, /poker rules (the list and a game's page), /balance and a refusal with no
plain English word left (any is a string that escaped the localisation layer).

``en-XA`` is made from the templates (``locales/messages.pot``): after a text changes, run
``python -m i18n extract`` before this test.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import engine
from i18n import PSEUDO, speaking
from i18n.engine_text import variant_name
from tests.bot.by_id import play, sit_and_deal
from tests.emulator import Emulator, World
from tests.emulator.models import Message

_CODE = re.compile(r"`[^`]*`")
"""Code spans: what is typed as it is (a game's slug, cards like `As Kd`)."""
_DISCORD = re.compile(r"<(?:@[!&]?|#|t:|a?:\w+:)[^>]*>")
"""Mentions, channels, timestamps and custom emoji: Discord writes them for the reader."""
_ENGLISH = re.compile(r"[A-Za-z]{2,}")
"""A plain ASCII word: a pseudo-translated one has every letter accented."""


def escaped(texts: Iterable[str], names: Iterable[str] = ()) -> list[str]:
    """The plain English words in ``texts`` (``names``: players' and servers' names, shown as
    they are in every language)."""
    found: list[str] = []
    for text in texts:
        text = _DISCORD.sub(" ", _CODE.sub(" ", text))
        for name in names:
            text = text.replace(name, " ")
        found += _ENGLISH.findall(text)
    return found


def texts_of(message: Message | None) -> list[str]:
    """Every text of a message a member reads: content, embeds' titles, descriptions, fields,
    footers and authors."""
    assert message is not None
    return message.text.split("\n")


async def test_help_rules_balance_and_a_refusal_in_the_pseudo_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    await poker_bot()
    alice = world.players[0]
    alice.locale = PSEUDO.code
    names = [world.guild.name, *(u.global_name or u.username for u in world.users)]

    r = await emu.run_command(alice, world.channel, "poker help", {})
    assert r.ephemeral and r.embeds
    assert not escaped(texts_of(r.message), names), r.message.text if r.message else None

    r = await emu.run_command(alice, world.channel, "poker rules", {})
    assert r.ephemeral and r.embeds
    listed = r.embeds[0]["description"]
    with speaking(PSEUDO):
        assert all(variant_name(v) in listed for v in engine.list_variants())
    assert not escaped(texts_of(r.message), names), r.message.text if r.message else None

    r = await emu.run_command(alice, world.channel, "poker rules", {"variant": "anaconda"})
    assert r.ephemeral and r.embeds
    with speaking(PSEUDO):
        assert r.embeds[0]["title"] == variant_name(engine.get_variant("anaconda"))
    # The page names the game's slug, typed as it is, outside a code span.
    page = escaped(texts_of(r.message), [*names, "anaconda"])
    assert not page, r.message.text if r.message else None

    r = await emu.run_command(alice, world.channel, "balance", {})
    assert r.embeds and len(r.embeds[0].get("fields") or []) == 3
    assert not escaped(texts_of(r.message), names), r.message.text if r.message else None

    # A refusal: no table in this channel yet.
    r = await emu.run_command(alice, world.channel, "poker join", {})
    assert r.ephemeral and r.content
    assert not escaped([r.content], names), r.content

    # The same refusal for a member whose client reads English is the source text.
    bob = world.players[1]
    r = await emu.run_command(bob, world.channel, "poker join", {})
    assert r.ephemeral and r.content and "There is no table in this channel" in r.content


def test_the_checker_finds_english_and_passes_pseudo_text() -> None:
    with speaking(PSEUDO):
        from cogs.translator import _

        pseudo = _("Games I deal")
    assert escaped(["Games I deal"]) == ["Games", "deal"]
    assert escaped([pseudo]) == [], pseudo
    assert escaped(["`five-card-draw` <@123> <t:5:R> Alice"], ["Alice"]) == []


async def test_what_a_command_posts_for_the_channel_is_in_the_channels_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A member reading en-XA sits down at a table of an English server: the channel reads
    the seat announcement in English, the member their own answers in en-XA."""
    await poker_bot()
    alice, bob = world.players[:2]
    alice.locale = PSEUDO.code
    r = await emu.run_command(bob, world.channel, "poker create", {})
    assert r.type == 4 and not r.ephemeral
    r = await emu.run_command(alice, world.channel, "poker join", {})
    assert not r.ephemeral and r.content
    assert r.content.startswith(f"<@{alice.id}> sits down in seat 1 with "), r.content
    r = await emu.run_command(alice, world.channel, "poker sitout", {})
    assert r.ephemeral and r.content and not escaped([r.content]), r.content
    r = await emu.run_command(alice, world.channel, "poker end", {})
    assert r.ephemeral and r.content and not escaped([r.content]), r.content


async def test_the_other_commands_after_a_hand_in_the_pseudo_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """After a hand at a table of a server that reads en-XA, every command's answer to a
    member reading en-XA too (the settings, the money, the history, the odds) has no English
    word left; nor has the ledger posted in the channel when the table closes."""
    bot = await poker_bot()
    bot.presenter.ping_after = 0
    world.guild.locale = PSEUDO.code
    players = world.players[:3]
    for user in players:
        user.locale = PSEUDO.code
    names = [world.guild.name, *(u.global_name or u.username for u in world.users)]
    await sit_and_deal(emu, world, players, "five-card-draw")
    await play(emu, world, bot, players, None)
    await emu.idle()
    for command, options in [
        ("poker settings", {}),
        ("leaderboard", {}),
        ("stats", {}),
        ("daily", {}),
        ("poker history", {}),
        ("poker ledger", {}),
        ("poker odds", {"cards": "As Ks Qs 2d 3c"}),
    ]:
        r = await emu.run_command(players[0], world.channel, command, options)
        await emu.idle()
        assert r.message is not None and r.embeds, (command, r.content)
        assert not escaped(texts_of(r.message), names), (command, r.message.text)
    r = await emu.run_command(players[0], world.channel, "poker start", {})
    assert r.ephemeral and not escaped([r.content or ""]), r.content
    await emu.idle()
    r = await emu.run_command(players[0], world.channel, "poker end", {})
    assert r.content and not escaped([r.content]), r.content
    await play(emu, world, bot, players, None)
    await emu.idle()
    # The last message without buttons: the night's ledger, posted as the table closed.
    ledger = [m for m in emu.channel_messages(world.channel) if m.embeds and not m.components]
    assert ledger and ledger[-1].attachments, [m.text for m in emu.channel_messages(world.channel)]
    assert not escaped(texts_of(ledger[-1]), names), ledger[-1].text
