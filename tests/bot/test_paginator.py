"""cogs.ui.paginator: custom ids, owner-only paging, lists that shrink, builders that fail.

The leaderboard and admin-log tests in test_economy.py cover paging through commands; here a
test-only page kind is registered and its first page is posted by the bot directly.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest

from cogs import kit
from cogs.ui.paginator import (
    PageContent,
    PageRefused,
    custom_id,
    fitted_lines,
    page_view,
    register_pages,
)

ITEMS: dict[str, list[int]] = {}
"""The lists the test builder pages through, by key."""
FAIL: dict[str, BaseException] = {}


async def numbers_page(interaction: discord.Interaction[Any], key: str, offset: int) -> PageContent:
    if key in FAIL:
        raise FAIL[key]
    items = ITEMS[key]
    shown = items[offset : offset + 5]
    embed = discord.Embed(title=f"Numbers {key}", description=" ".join(map(str, shown)) or "-")
    return PageContent(embed, offset, 5, len(items))


register_pages("test_numbers", numbers_page)


async def post_first_page(bot: Any, world: Any, key: str, *, owner_id: int = 0) -> Any:
    """The bot posts page 1 of ``key`` in #poker (as send_paginated would after a command)."""
    items = ITEMS[key]
    embed = discord.Embed(title=f"Numbers {key}", description=" ".join(map(str, items[:5])))
    view = page_view("test_numbers", key, PageContent(embed, 0, 5, len(items)), owner_id=owner_id)
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return await channel.send(embed=embed, view=view)


def shown(emu: Any, message_id: int) -> str:
    return str(emu.get_message(message_id).embeds[0]["description"])


def test_custom_id_carries_the_page_and_is_validated() -> None:
    assert custom_id("history", 42, "1234", 20, "n") == "pg:history:42:1234:20:n"
    for bad in [
        lambda: custom_id("History", 0, "k", 0, "n"),  # kind: lowercase
        lambda: custom_id("a" * 21, 0, "k", 0, "n"),
        lambda: custom_id("history", 0, "a:b", 0, "n"),  # key: no colon
        lambda: custom_id("history", 0, "k" * 41, 0, "n"),
        lambda: custom_id("history", 0, "k", -1, "n"),
        lambda: custom_id("history", -1, "k", 0, "n"),
    ]:
        with pytest.raises(ValueError):
            bad()
    # The longest legal parts still fit Discord's 100 characters.
    longest = custom_id("k" * 20, 2**64 - 1, "x" * 40, 999_999_999, "p")
    assert len(longest) <= 100
    with pytest.raises(ValueError):
        register_pages("Bad Kind", numbers_page)


def test_page_content_numbers() -> None:
    embed = discord.Embed()
    page = PageContent(embed, 10, 5, 12)
    assert (page.page_number, page.page_count) == (3, 3)
    assert page.has_previous and not page.has_next
    assert (page.previous_offset, page.next_offset) == (5, 15)
    assert PageContent(embed, 0, 10, 10).single_page
    assert not PageContent(embed, 0, 10, 11).single_page
    assert PageContent(embed, 0, 10, 0).page_count == 1


async def test_a_page_too_long_for_a_message_is_shown_in_parts_each_line_once() -> None:
    """Pages of ten lines, cut into parts of at most 25 characters: walking Next from the
    start and Previous from the end shows every line exactly once, on the same parts; an
    offset between two parts (a press from another language's cut) starts a part there."""
    lines = [("x" * (n % 7 + 3)) + str(n) for n in range(23)]

    async def lines_at(offset: int, limit: int) -> tuple[list[str], int]:
        return lines[offset : offset + limit], len(lines)

    forward, offset = [], 0
    while offset < len(lines):
        part = await fitted_lines(lines_at, offset, 10, 25)
        assert part.offset == offset and len(part.text) <= 25 and part.shown >= 1
        forward.append(part)
        offset += part.shown
    assert "\n".join(p.text for p in forward).split("\n") == lines
    assert forward[0].parts > 1 and (forward[0].part, forward[-1].part) == (1, forward[-1].parts)
    backward = [forward[-1]]
    while backward[-1].offset > 0:
        backward.append(await fitted_lines(lines_at, backward[-1].previous, 10, 25))
    assert backward[::-1] == forward
    between = await fitted_lines(lines_at, forward[0].offset + 1, 10, 25)
    assert between.offset == 1 and between.previous == 0 and between.text.startswith(lines[1])
    empty = await fitted_lines(lines_at, 40, 10, 25)
    assert (empty.text, empty.shown, empty.total) == ("", 0, 23)


async def test_only_the_owner_pages_an_owned_list(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    ITEMS["owned"] = list(range(12))
    message = await post_first_page(bot, world, "owned", owner_id=alice.id)
    assert shown(emu, message.id) == "0 1 2 3 4"

    r = await emu.click(bob, message.id, label="Next")
    assert r.type == 4 and r.ephemeral and "Only the member who opened" in (r.content or "")
    assert shown(emu, message.id) == "0 1 2 3 4"

    r = await emu.click(alice, message.id, label="Next")
    assert r.type == 7 and shown(emu, message.id) == "5 6 7 8 9"
    assert emu.get_message(message.id).embeds[0]["footer"]["text"] == "Page 2 of 3"
    r = await emu.click(alice, message.id, label="Next")
    assert shown(emu, message.id) == "10 11"
    assert emu.get_message(message.id).component(label="Next")["disabled"] is True
    emu.assert_clean()


async def test_a_list_that_shrank_shows_its_last_page(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    ITEMS["shrinks"] = list(range(30))
    message = await post_first_page(bot, world, "shrinks")
    await emu.click(world.players[0], message.id, label="Next")
    await emu.click(world.players[0], message.id, label="Next")
    assert shown(emu, message.id) == "10 11 12 13 14"
    ITEMS["shrinks"] = list(range(7))  # Next now points past the end
    r = await emu.click(world.players[0], message.id, label="Next")
    assert r.type == 7 and shown(emu, message.id) == "5 6"
    msg = emu.get_message(message.id)
    assert msg.embeds[0]["footer"]["text"] == "Page 2 of 2"
    ITEMS["shrinks"] = [1]  # one page left: the buttons go away
    await emu.click(world.players[0], msg.id, label="Previous")
    assert shown(emu, message.id) == "1" and emu.get_message(message.id).components == []
    emu.assert_clean()


async def test_refusing_or_failing_builders_leave_the_message_alone(
    poker_bot, emu, world, caplog
) -> None:
    bot = await poker_bot()
    ITEMS["fails"] = list(range(12))
    message = await post_first_page(bot, world, "fails")

    FAIL["fails"] = PageRefused("Not for you.")
    r = await emu.click(world.players[0], message.id, label="Next")
    assert r.type == 4 and r.ephemeral and r.content == "Not for you."

    FAIL["fails"] = RuntimeError("database on fire")
    r = await emu.click(world.players[0], message.id, label="Next")
    assert r.type == 4 and r.ephemeral and r.content == str(kit.UNEXPECTED)
    assert "database on fire" in caplog.text  # logged for the operator, not shown to members
    del FAIL["fails"]

    assert shown(emu, message.id) == "0 1 2 3 4"
    r = await emu.click(world.players[0], message.id, label="Next")
    assert r.type == 7 and shown(emu, message.id) == "5 6 7 8 9"
    emu.assert_clean()


async def test_a_button_of_an_unknown_kind_says_so(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    ITEMS["gone"] = list(range(12))
    embed = discord.Embed(description="old")
    view = page_view("test_retired", "gone", PageContent(embed, 0, 5, 12))
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send(embed=embed, view=view)
    r = await emu.click(world.players[0], message.id, label="Next")
    assert r.type == 4 and r.ephemeral and "no longer available" in (r.content or "")
    assert shown(emu, message.id) == "old"


async def test_a_page_button_forged_onto_a_table_leaves_the_table_alone(
    poker_bot, emu, world, caplog
) -> None:
    """A page button turns only the list it is on: forged onto a table's message (an owned
    history list's with the presser as owner, or the leaderboard's), it replaced the table
    with the list. A history list keyed by no table id said Python's own error (or answered
    a bug) where it now says there is no such table."""
    from cogs.history import HAND_PAGES
    from tests.bot.driver import create_table, forged_press, live_table

    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, auto_deal=0)
    live = live_table(bot, world)
    before = emu.get_message(lobby.id).to_dict()
    for forged in (
        custom_id(HAND_PAGES, alice.id, str(live.id), 0, "n"),
        custom_id("leaderboard", 0, str(world.guild.id), 0, "n"),
    ):
        r = await forged_press(emu, alice, emu.get_message(lobby.id), forged)
        assert r.type == 4 and r.ephemeral and "no longer valid" in (r.content or ""), r.content
    assert emu.get_message(lobby.id).to_dict() == before
    # A list of the bot's carrying keys it never writes.
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    for key in ("abc", "9" * 20):
        embed = discord.Embed(description="old")
        view = page_view(HAND_PAGES, key, PageContent(embed, 0, 5, 12))
        message = await channel.send(embed=embed, view=view)
        r = await emu.click(alice, message.id, label="Next")
        assert r.type == 4 and r.ephemeral, r.content
        assert r.content == f"There is no table\u00a0#{key}.", r.content
        assert shown(emu, message.id) == "old"
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    emu.assert_clean()
