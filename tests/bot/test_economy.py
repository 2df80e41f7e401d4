"""The economy cog through the emulator: the real bot, the real data layer, real interactions.

Every test drives slash commands and buttons as members would and checks what they see and what
the database holds afterwards. Seeding that belongs to other cogs (a table with seated players,
a finished hand) goes through the data layer's public API, as the poker cog will.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from cogs.economy import MAX_CHIPS, Economy, audit_embed
from cogs.translator import _
from cogs.ui.paginator import PageButton, custom_id
from data import ChipAudit, PlayerHandResult, TableSave
from i18n import resolve, speaking
from tests.bot.driver import create_table
from tests.emulator import InteractionResult, UserActionError

MANAGE_GUILD = 0x20
NOW = 1_750_000_000.0


# ------------------------------------------------------------------------------------ helpers


@pytest.fixture(autouse=True)
def _no_logged_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Refusals are answers, not errors: nothing the bot does here may log an error."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


def economy(bot: Any) -> Economy:
    # load_extension imports cogs.economy afresh, so compare by name, not by class identity.
    cog = bot.get_cog("Economy")
    assert type(cog).__name__ == "Economy"
    return cog  # type: ignore[no-any-return]


def freeze_clock(bot: Any, at: float = NOW) -> list[float]:
    """The cog's clock reads ``now[0]``; move it with ``now[0] += seconds``."""
    now = [at]
    economy(bot).clock = lambda: now[0]
    return now


async def bankroll(bot: Any, world: Any, user: Any) -> int:
    return await bot.db.balance(world.guild.id, user.id)


def field(result: InteractionResult, name: str) -> str:
    for embed in result.embeds:
        for f in embed.get("fields", []):
            if f["name"] == name:
                return str(f["value"])
    raise AssertionError(f"no field {name!r} in {result.embeds}")


def description(result: InteractionResult) -> str:
    return str(result.embeds[0].get("description", ""))


def refused(result: InteractionResult, *fragments: str) -> None:
    """An ephemeral text answer containing every fragment."""
    assert result.type == 4, result.type
    assert result.ephemeral, f"refusal was public: {result.content!r}"
    assert result.content, "refusal without a reason"
    for fragment in fragments:
        assert fragment in result.content, (fragment, result.content)


def no_pings(result: InteractionResult) -> None:
    body = result.interaction.response_data or {}
    assert body.get("allowed_mentions", {}).get("parse") == [], body.get("allowed_mentions")


def member_payload(emu: Any, world: Any, user: Any) -> dict[str, Any]:
    """``resolved`` for a user option, as Discord sends it."""
    member = world.guild.members[user.id].to_dict(permissions=emu.permissions(world.guild, user))
    member.pop("user")
    return {"users": {str(user.id): user.to_dict()}, "members": {str(user.id): member}}


async def crafted_command(
    emu: Any,
    user: Any,
    channel: Any,
    path: str,
    options: list[dict[str, Any]],
    resolved: dict[str, Any] | None = None,
) -> InteractionResult:
    """Send a slash command the way a modified client could: no client-side validation (the
    option ranges and default permissions are not checked by the emulator here)."""
    name, *subs = path.split()
    cmd = next(c for c in emu.commands() if c.name == name)
    node = options
    for sub in reversed(subs):
        node = [{"name": sub, "type": 1, "options": node}]
    data: dict[str, Any] = {"id": str(cmd.id), "name": name, "type": 1, "options": node}
    if resolved:
        data["resolved"] = resolved
    rec = emu.build_interaction(2, user, channel, data)
    emu.dispatch("INTERACTION_CREATE", rec.payload)
    return await emu.await_response(rec)


async def add_members(emu: Any, world: Any, count: int) -> list[Any]:
    users = []
    for i in range(count):
        user = emu.add_user(f"member{i:02d}")
        emu.add_member(world.guild, user)
        users.append(user)
    return users


async def seat_at_table(
    bot: Any, world: Any, buy_ins: dict[int, int]
) -> tuple[Any, dict[int, int]]:
    """What the poker cog does when members sit down: a table and a buy-in each."""
    db = bot.db
    table = await db.create_table(world.guild.id, world.channel.id, world.host.id, "{}")
    stacks: dict[int, int] = {}
    chips = 0
    for seat, (user_id, amount) in enumerate(buy_ins.items()):
        chips += amount
        stacks[user_id] = amount
        await db.buy_in(
            world.guild.id,
            user_id,
            table.table_id,
            amount,
            TableSave("{}", chips, dict(stacks)),
            seat=seat,
        )
    return table, stacks


async def play_hand(
    bot: Any, table: Any, stacks: dict[int, int], results: list[PlayerHandResult]
) -> None:
    """What the poker cog records when a hand ends (nets move chips between stacks)."""
    db = bot.db
    chips = (await db.get_table(table.table_id)).chips_on_table
    salt, deck = "salt", "As Kd Qh"
    hand = await db.start_hand(
        table.table_id,
        variant="five_card_draw",
        variant_name="Five-card draw",
        commitment=hashlib.sha256(f"{salt}:{deck}".encode()).hexdigest(),
        salt=salt,
        deck=deck,
        save=TableSave("{}", chips, stacks),
    )
    after = {user: stack for user, stack in stacks.items()}
    for r in results:
        after[r.user_id] += r.net
    pot = sum(r.pot_won for r in results)
    await db.record_hand_result(
        table.guild_id,
        table.table_id,
        hand.hand_id,
        results,
        result_json=json.dumps({"pot": pot}),
        pot=pot,
        save=TableSave("{}", chips, after),
    )
    stacks.update(after)


# ------------------------------------------------------------------------------------ /balance


async def test_balance_shows_own_and_other_members_bankroll(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]

    r = await emu.run_command(alice, world.channel, "balance")
    assert r.type == 4 and not r.ephemeral
    assert "Alice" in r.embeds[0]["title"]
    assert field(r, "Bankroll") == "1,000"  # the default starting bankroll
    assert field(r, "On tables") == "0"
    assert field(r, "Total") == "**1,000**"
    # Beside the avatar, two columns and the total below them (three columns break words).
    assert [f["inline"] for f in r.embeds[0]["fields"]] == [True, True, False]
    no_pings(r)

    await bot.db.admin_grant(world.guild.id, world.host.id, bob.id, 1_234_567)
    r = await emu.run_command(alice, world.channel, "balance", {"member": bob})
    assert "Bob" in r.embeds[0]["title"] and f"<@{bob.id}>" in description(r)
    assert field(r, "Bankroll") == "1,235,567"
    emu.assert_clean()


async def test_balance_refuses_bots_and_non_members(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    alice = world.players[0]

    r = await emu.run_command(alice, world.channel, "balance", {"member": emu.bot_user})
    refused(r, "bot")
    stranger = emu.add_user("stranger")  # not in the server
    r = await emu.run_command(alice, world.channel, "balance", {"member": stranger})
    refused(r, "not a member")
    # Refusals create no account.
    assert (await bot.db.leaderboard(world.guild.id)).total == 0
    emu.assert_clean()


async def test_a_name_with_markdown_characters_reads_as_typed(poker_bot, emu, world) -> None:
    """A display name is the member's own text: ``__Al__ *x*`` read as an underlined "Al" and
    an italic "x" in the titles of /balance and /stats and in a refusal naming them."""
    bot = await poker_bot()
    alice = world.players[0]
    alice.global_name = "__Al__ *x*"
    shown = "\\_\\_Al\\_\\_ \\*x\\*"
    r = await emu.run_command(alice, world.channel, "balance")
    assert r.embeds[0]["title"] == f"Chips — {shown}"
    r = await emu.run_command(alice, world.channel, "stats")
    assert r.embeds[0]["title"] == f"Poker stats — {shown}"
    r = await emu.run_command(
        world.host, world.channel, "chips remove", {"member": alice, "amount": 5000}
    )
    refused(r, f"{shown}'s bankroll holds only 1,000 chips")
    assert await bankroll(bot, world, alice) == 1_000
    # Nor does a name written as a mention read as that member.
    bob = world.players[1]
    bob.global_name = f"<@{alice.id}>"
    r = await emu.run_command(
        world.host, world.channel, "chips remove", {"member": bob, "amount": 5000}
    )
    refused(r, f"<@\u200b{alice.id}>'s bankroll holds only")
    emu.assert_clean()


async def test_economy_commands_are_guild_only(poker_bot, emu, world) -> None:
    await poker_bot()
    alice = world.players[0]
    dm = emu.dm_channel(alice)
    with pytest.raises(UserActionError, match="not available in DMs"):
        await emu.run_command(alice, dm, "balance")
    # A DM interaction that reaches the bot anyway is refused by the cog itself.
    r = await crafted_command(emu, alice, dm, "daily", [])
    refused(r, "not in DMs")


async def test_chips_on_tables_count_in_balance_leaderboard_and_stats(
    poker_bot, emu, world
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    table, stacks = await seat_at_table(bot, world, {alice.id: 200, bob.id: 200})
    await play_hand(
        bot,
        table,
        stacks,
        [
            PlayerHandResult(alice.id, 50, True, 100, 123_456, "Two pair, kings and fives"),
            PlayerHandResult(bob.id, -50, False, 0, None, None),
        ],
    )

    r = await emu.run_command(alice, world.channel, "balance")
    assert field(r, "Bankroll") == "800"
    assert field(r, "On tables") == "250 (1 table)"
    assert field(r, "Total") == "**1,050**"

    r = await emu.run_command(carol, world.channel, "leaderboard")
    lines = description(r).splitlines()
    assert lines[0] == f"🥇 <@{alice.id}> — **1,050** (800 + 250 on tables)"
    assert lines[1] == f"🥈 <@{bob.id}> — **950** (800 + 150 on tables)"

    r = await emu.run_command(carol, world.channel, "stats", {"member": alice})
    assert r.type == 4 and not r.ephemeral
    assert field(r, "Hands played") == "1"
    assert field(r, "Hands won") == "1 (100.0%)"
    assert field(r, "Net chips") == "+50"
    assert field(r, "Biggest pot won") == "100"
    assert field(r, "Best hand") == "Two pair, kings and fives"
    r = await emu.run_command(bob, world.channel, "stats")
    assert field(r, "Hands won") == "0 (0.0%)"
    assert field(r, "Net chips") == "-50"
    assert field(r, "Best hand") == "—"
    emu.assert_clean()


# ------------------------------------------------------------------------------------ /stats


async def test_stats_of_someone_who_never_played(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    alice, dave = world.players[0], world.players[3]
    r = await emu.run_command(alice, world.channel, "stats", {"member": dave})
    assert r.type == 4 and not r.ephemeral
    assert "Dave" in r.embeds[0]["title"]
    assert "hasn't played a hand" in description(r)
    assert not r.embeds[0].get("fields")
    r = await emu.run_command(alice, world.channel, "stats", {"member": emu.bot_user})
    refused(r, "bot")
    assert (await bot.db.stats(world.guild.id, dave.id)).hands_played == 0


# ------------------------------------------------------------------------------------ /daily


async def test_daily_then_cooldown_then_again(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    now = freeze_clock(bot)
    alice = world.players[0]

    r = await emu.run_command(alice, world.channel, "daily")
    assert r.type == 4 and not r.ephemeral
    assert "**100**" in description(r)
    assert field(r, "Bankroll") == "1,100"
    next_at = int(NOW) + 24 * 3600
    assert field(r, "Next bonus") == f"<t:{next_at}:R>"

    now[0] += 3600  # an hour later: still on cooldown
    r = await emu.run_command(alice, world.channel, "daily")
    refused(r, "already claimed", f"<t:{next_at}:R>")
    assert await bankroll(bot, world, alice) == 1_100

    now[0] = next_at  # the cooldown is over
    r = await emu.run_command(alice, world.channel, "daily")
    assert not r.ephemeral and field(r, "Bankroll") == "1,200"
    emu.assert_clean()


async def test_daily_turned_off(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    alice = world.players[0]
    await emu.run_command(world.host, world.channel, "server settings", {"daily_amount": 0})
    r = await emu.run_command(alice, world.channel, "daily")
    refused(r, "turned off")
    assert (await bot.db.ledger(world.guild.id, alice.id)).total == 0


# ------------------------------------------------------------------------------------ /leaderboard


async def test_leaderboard_pages_with_next_and_previous(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    members = await add_members(emu, world, 12)
    for i, user in enumerate(members):  # member11 is richest
        r = await emu.run_command(
            world.host, world.channel, "chips grant", {"member": user, "amount": (i + 1) * 100}
        )
        assert r.type == 4 and not r.ephemeral
    ranked = list(reversed(members))

    alice, bob = world.players[:2]
    r = await emu.run_command(alice, world.channel, "leaderboard")
    assert r.type == 4 and not r.ephemeral
    message = r.message
    lines = description(r).splitlines()
    assert len(lines) == 10
    assert lines[0] == f"🥇 <@{ranked[0].id}> — **2,200**"
    assert lines[9] == f"**10.** <@{ranked[9].id}> — **1,300**"
    assert r.embeds[0]["footer"]["text"].startswith("Page 1 of 2 · 12 players")
    assert message.component(label="Previous")["disabled"] is True
    assert not message.component(label="Next").get("disabled")
    no_pings(r)

    # Anyone may page; the message is edited in place (response type 7).
    n = await emu.click(bob, message, label="Next")
    assert n.type == 7 and n.message.id == message.id
    assert message.embeds[0]["description"].splitlines() == [
        f"**11.** <@{ranked[10].id}> — **1,200**",
        f"**12.** <@{ranked[11].id}> — **1,100**",
    ]
    assert message.embeds[0]["footer"]["text"].startswith("Page 2 of 2")
    assert message.component(label="Next")["disabled"] is True

    p = await emu.click(alice, message, label="Previous")
    assert p.type == 7
    assert message.embeds[0]["description"].splitlines() == lines
    assert len(emu.channel_messages(world.channel)) == 12 + 1  # grants + one leaderboard
    emu.assert_clean()
    assert bot.is_ready()


async def test_a_leaderboard_page_stays_in_the_language_of_who_asked(poker_bot, emu, world) -> None:
    """/leaderboard answers in the asker's language, for all to see; a page turned by a
    member of another language turned the whole public message into theirs."""
    bot = await poker_bot()
    members = await add_members(emu, world, 11)
    for i, user in enumerate(members):
        await bot.db.admin_grant(world.guild.id, world.host.id, user.id, (i + 1) * 10)
    alice, bob = world.players[:2]
    alice.locale, bob.locale = "de", "en-US"
    german = resolve("de")
    r = await emu.run_command(alice, world.channel, "leaderboard")
    message = r.message
    first = _("Page {page} of {pages}", language=german, page=1, pages=2)
    assert message.embeds[0]["footer"]["text"].startswith(first)

    n = await emu.click(bob, message, custom_id=message.buttons[1]["custom_id"])
    assert n.type == 7
    second = _("Page {page} of {pages}", language=german, page=2, pages=2)
    assert message.embeds[0]["footer"]["text"].startswith(second), message.embeds[0]["footer"]
    assert message.embeds[0]["title"] == _(
        "🏆 Leaderboard — {server}", language=german, server=world.guild.name
    )
    assert message.buttons[0]["label"] == _("Previous", language=german)
    emu.assert_clean()


async def test_leaderboard_buttons_work_after_restart(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    members = await add_members(emu, world, 11)
    for i, user in enumerate(members):
        await bot.db.admin_grant(world.guild.id, world.host.id, user.id, (i + 1) * 10)
    r = await emu.run_command(world.players[0], world.channel, "leaderboard")
    message = r.message
    assert len(description(r).splitlines()) == 10

    await bot.close()  # the process goes away; the message and its buttons stay
    restarted = await poker_bot()
    assert restarted is not bot and restarted.is_ready()

    n = await emu.click(world.players[1], message, label="Next")
    assert n.type == 7
    assert message.embeds[0]["description"] == f"**11.** <@{members[0].id}> — **1,010**"
    p = await emu.click(world.players[2], message, label="Previous")
    assert p.type == 7 and len(message.embeds[0]["description"].splitlines()) == 10
    emu.assert_clean()


async def test_leaderboard_single_page_has_no_buttons_and_empty_server(
    poker_bot, emu, world
) -> None:
    await poker_bot()
    r = await emu.run_command(world.players[0], world.channel, "leaderboard")
    # /leaderboard itself does not create an account.
    assert "No one has any chips yet" in description(r)
    assert r.components == []
    await emu.run_command(world.players[1], world.channel, "balance")
    r = await emu.run_command(world.players[0], world.channel, "leaderboard")
    assert description(r) == f"🥇 <@{world.players[1].id}> — **1,000**"
    assert r.components == []


async def test_leaderboard_button_from_another_server_is_refused(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    for user in world.players:
        await bot.db.balance(world.guild.id, user.id)
    other = emu.add_guild("Other Game", owner=world.host)
    channel = emu.add_text_channel(other, "cards")
    emu.add_member(other, world.players[0])
    # A message in another server carrying a button keyed to this server's leaderboard.
    forged = bot.get_channel(channel.id) or await bot.fetch_channel(channel.id)
    view = discord.ui.View()
    view.add_item(PageButton("leaderboard", 0, str(world.guild.id), 10, "n"))
    sent = await forged.send("forged", view=view)
    r = await emu.click(
        world.players[0],
        sent.id,
        custom_id=custom_id("leaderboard", 0, str(world.guild.id), 10, "n"),
    )
    refused(r, "another server")
    assert emu.get_message(sent.id).content == "forged"


# ------------------------------------------------------------------------------------ /chips


async def test_chips_grant_set_remove(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    host, alice = world.host, world.players[0]

    r = await emu.run_command(
        host,
        world.channel,
        "chips grant",
        {"member": alice, "amount": 2500, "note": "won the raffle"},
    )
    assert r.type == 4 and not r.ephemeral  # public: the table sees it
    assert description(r) == f"<@{host.id}> granted **2,500** chips to <@{alice.id}>."
    assert field(r, "Bankroll") == "1,000 → **3,500**"
    assert field(r, "Note") == "won the raffle"
    no_pings(r)
    assert await bankroll(bot, world, alice) == 3_500

    r = await emu.run_command(host, world.channel, "chips set", {"member": alice, "amount": 0})
    assert not r.ephemeral
    assert field(r, "Before") == "3,500" and field(r, "Change") == "-3,500"
    assert await bankroll(bot, world, alice) == 0

    await emu.run_command(host, world.channel, "chips set", {"member": alice, "amount": 750})
    r = await emu.run_command(host, world.channel, "chips remove", {"member": alice, "amount": 700})
    assert not r.ephemeral
    assert field(r, "Bankroll") == "750 → **50**"
    assert await bankroll(bot, world, alice) == 50

    log = await bot.db.admin_log(world.guild.id)
    assert [e.action for e in log.items] == ["remove", "set", "set", "grant"]
    assert all(e.actor_id == host.id and e.target_id == alice.id for e in log.items)
    assert log.items[-1].note == "won the raffle"
    emu.assert_clean()


async def test_a_failed_reply_does_not_invite_a_second_grant(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    alice = world.players[0]
    emu.faults.error(
        "interaction_callback", status=400, code=50035, message="Invalid Form Body", count=1
    )
    r = await emu.run_command(
        world.host, world.channel, "chips grant", {"member": alice, "amount": 500}
    )
    refused(r, "Done", "Nothing needs repeating")
    assert await bankroll(bot, world, alice) == 1_500
    assert (await bot.db.admin_log(world.guild.id)).total == 1
    assert bot.is_ready()


async def test_chips_remove_more_than_bankroll_is_refused(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    alice = world.players[0]
    await seat_at_table(bot, world, {alice.id: 400})  # 600 left in the bankroll
    r = await emu.run_command(
        world.host, world.channel, "chips remove", {"member": alice, "amount": 601}
    )
    refused(r, "only 600", "601")
    assert await bankroll(bot, world, alice) == 600
    assert (await bot.db.admin_log(world.guild.id)).total == 0


async def test_chips_amounts_out_of_range(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    host, alice = world.host, world.players[0]
    await bot.db.balance(world.guild.id, alice.id)
    # Discord's client enforces the declared ranges ...
    for path, amount in [
        ("chips grant", 0),
        ("chips grant", MAX_CHIPS + 1),
        ("chips remove", 0),
        ("chips set", -1),
        ("chips set", MAX_CHIPS + 1),
    ]:
        with pytest.raises(UserActionError, match="amount"):
            await emu.run_command(host, world.channel, path, {"member": alice, "amount": amount})
    # ... and the bot refuses a request that skipped it.
    resolved = member_payload(emu, world, alice)
    for path, amount in [("chips grant", 0), ("chips set", -5), ("chips remove", MAX_CHIPS + 1)]:
        r = await crafted_command(
            emu,
            host,
            world.channel,
            path,
            [
                {"name": "member", "type": 6, "value": str(alice.id)},
                {"name": "amount", "type": 4, "value": amount},
            ],
            resolved,
        )
        refused(r, "must be a whole number")
    assert await bankroll(bot, world, alice) == 1_000
    assert (await bot.db.admin_log(world.guild.id)).total == 0


async def test_chips_for_bots_and_long_notes_are_refused(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    r = await emu.run_command(
        world.host, world.channel, "chips grant", {"member": emu.bot_user, "amount": 10}
    )
    refused(r, "bot")
    with pytest.raises(UserActionError, match="note"):
        await emu.run_command(
            world.host,
            world.channel,
            "chips grant",
            {"member": world.players[0], "amount": 10, "note": "x" * 201},
        )
    assert (await bot.db.admin_log(world.guild.id)).total == 0


async def test_admin_commands_are_hidden_from_members(poker_bot, emu, world) -> None:
    await poker_bot()
    alice, bob = world.players[:2]
    for path, options in [
        ("chips grant", {"member": bob, "amount": 10}),
        ("chips set", {"member": bob, "amount": 10}),
        ("chips remove", {"member": bob, "amount": 10}),
        ("chips log", {}),
        ("server settings", {}),
        ("server audit", {}),
    ]:
        with pytest.raises(UserActionError, match="lacks the permissions"):
            await emu.run_command(alice, world.channel, path, options)


async def test_admin_commands_check_manage_server_at_run_time(
    poker_bot, emu, world, monkeypatch
) -> None:
    """A server may let everyone see the admin commands (Integrations settings): the bot still
    refuses members without Manage Server."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    for cmd in emu.commands():
        if cmd.name in ("chips", "server"):
            monkeypatch.setitem(cmd.data, "default_member_permissions", None)
    await bot.db.balance(world.guild.id, bob.id)
    for path, options in [
        ("chips grant", {"member": bob, "amount": 10}),
        ("chips set", {"member": bob, "amount": 10}),
        ("chips remove", {"member": bob, "amount": 10}),
        ("chips log", {}),
        ("server settings", {"daily_amount": 5}),
        ("server settings", {}),
        ("server audit", {}),
    ]:
        r = await emu.run_command(alice, world.channel, path, options)
        refused(r, "Manage Server")
    assert await bankroll(bot, world, bob) == 1_000
    assert (await bot.db.admin_log(world.guild.id)).total == 0
    assert (await bot.db.get_settings(world.guild.id)).daily_amount == 100
    # A member given Manage Server may use them.
    mod = emu.add_user("mod")
    emu.add_member(world.guild, mod, permissions=MANAGE_GUILD)
    r = await emu.run_command(mod, world.channel, "chips grant", {"member": bob, "amount": 10})
    assert not r.ephemeral and await bankroll(bot, world, bob) == 1_010
    emu.assert_clean()


async def test_chips_log_is_ephemeral_and_paginated(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    mod = emu.add_user("mod")
    emu.add_member(world.guild, mod, permissions=MANAGE_GUILD)
    alice = world.players[0]
    for amount in range(1, 12):  # 11 grants
        await emu.run_command(
            mod, world.channel, "chips grant", {"member": alice, "amount": amount}
        )
    await emu.run_command(
        world.host, world.channel, "server settings", {"daily_cooldown_hours": 12}
    )

    r = await emu.run_command(mod, world.channel, "chips log")
    assert r.type == 4 and r.ephemeral
    lines = description(r).splitlines()
    assert len(lines) == 10
    assert f"<@{world.host.id}> changed daily cooldown 24\u00a0h → 12\u00a0h" in lines[0]
    assert f"<@{mod.id}> granted **11** to <@{alice.id}> (1,055 → 1,066)" in lines[1]
    assert r.embeds[0]["footer"]["text"].startswith("Page 1 of 2 · 12 entries")

    n = await emu.click(mod, r.message, label="Next")
    assert n.type == 7 and n.message.id == r.message.id
    page2 = r.message.embeds[0]["description"].splitlines()
    assert len(page2) == 2
    assert f"granted **2** to <@{alice.id}> (1,001 → 1,003)" in page2[0]
    assert f"granted **1** to <@{alice.id}> (1,000 → 1,001)" in page2[1]

    # Lose Manage Server: paging the admin log is refused and the message stays as it was.
    world.guild.members[mod.id].roles.clear()
    p = await emu.click(mod, r.message, label="Previous")
    refused(p, "Manage Server")
    assert r.message.embeds[0]["description"].splitlines() == page2
    assert bot.is_ready()
    emu.assert_clean()


async def test_the_admin_log_keeps_a_settings_name_as_its_language_writes_it(
    poker_bot, emu, world
) -> None:
    """The log lowercased the translated setting names: German read "wartezeit bonus" for
    the noun "Wartezeit Bonus". Each name has its own in-sentence form in the catalogue."""
    await poker_bot()
    host = world.host
    host.locale = "de"
    german = resolve("de")
    await emu.run_command(host, world.channel, "server settings", {"daily_cooldown_hours": 12})
    r = await emu.run_command(host, world.channel, "chips log")
    (line,) = description(r).splitlines()
    name = _("daily cooldown", language=german)
    old, new = (_("{hours}\u00a0h", language=german, hours=h) for h in (24, 12))
    change = _("{setting} {old} → {new}", language=german, setting=name, old=old, new=new)
    assert change in line, line
    assert name != "daily cooldown" and name[0].isupper(), name
    host.locale = "en-US"
    r = await emu.run_command(host, world.channel, "chips log")
    assert "changed daily cooldown 24\u00a0h → 12\u00a0h" in description(r)
    emu.assert_clean()


async def test_a_server_language_change_is_in_the_admin_log(poker_bot, emu, world) -> None:
    """``/server settings language:`` changed what every table speaks and left no line in
    ``/chips log``, where every other settings change is."""
    await poker_bot()
    host = world.host
    await emu.run_command(host, world.channel, "server settings", {"language": "de"})
    await emu.run_command(host, world.channel, "server settings", {"language": "de"})  # no change
    await emu.run_command(host, world.channel, "server settings", {"language": "auto"})
    r = await emu.run_command(host, world.channel, "chips log")
    lines = description(r).splitlines()
    assert len(lines) == 2, lines
    assert "changed server language Deutsch → Discord's server language" in lines[0], lines
    assert "changed server language Discord's server language → Deutsch" in lines[1], lines
    assert all(f"<@{host.id}>" in line for line in lines), lines
    emu.assert_clean()


# ------------------------------------------------------------------------------------ /server


async def test_server_settings_show_and_change(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    freeze_clock(bot)
    host, carol = world.host, world.players[2]

    r = await emu.run_command(host, world.channel, "server settings")
    assert r.type == 4 and r.ephemeral
    assert field(r, "Starting bankroll") == "1,000"
    assert field(r, "Daily bonus") == "100"
    assert field(r, "Daily cooldown") == "24\u00a0h"

    r = await emu.run_command(
        host,
        world.channel,
        "server settings",
        {"starting_bankroll": 5000, "daily_amount": 250, "daily_cooldown_hours": 12},
    )
    assert r.type == 4 and not r.ephemeral  # a change: public
    text = description(r)
    assert "Starting bankroll: 1,000 → **5,000**" in text
    assert "Daily bonus: 100 → **250**" in text
    assert "Daily cooldown: 24\u00a0h → **12\u00a0h**" in text
    no_pings(r)

    settings = await bot.db.get_settings(world.guild.id)
    assert (settings.starting_bankroll, settings.daily_amount, settings.daily_cooldown) == (
        5_000,
        250,
        12 * 3600,
    )
    r = await emu.run_command(carol, world.channel, "daily")
    assert field(r, "Bankroll") == "5,250"
    assert field(r, "Next bonus") == f"<t:{int(NOW) + 12 * 3600}:R>"

    r = await emu.run_command(host, world.channel, "server settings")
    assert r.ephemeral and field(r, "Daily cooldown") == "12\u00a0h"
    assert f"by <@{host.id}>" in description(r)
    emu.assert_clean()


async def test_a_language_changed_with_other_settings_is_in_the_public_note(
    poker_bot, emu, world
) -> None:
    """``language:`` with another option changed both, but the public note listed the daily
    bonus alone: the server was not told its tables now speak French."""
    bot = await poker_bot()
    french = resolve("fr")
    r = await emu.run_command(
        world.host, world.channel, "server settings", {"language": "fr", "daily_amount": 50}
    )
    assert r.type == 4 and not r.ephemeral
    lines = description(r).splitlines()
    daily = _("Daily bonus", language=french)
    assert (
        _("{setting}: {old} → **{new}**", language=french, setting=daily, old="100", new="50")
        in lines
    )
    assert any("Français" in line for line in lines), lines
    language = _("Language", language=french)
    assert language != "Language"
    change = _(
        "{setting}: {old} → **{new}**",
        language=french,
        setting=language,
        old="English",
        new="Français",
    )
    assert change in lines, lines
    assert (await bot.db.get_settings(world.guild.id)).daily_amount == 50
    # Asked for the language it already speaks: no line for a change that is none.
    r = await emu.run_command(
        world.host, world.channel, "server settings", {"language": "fr", "daily_amount": 60}
    )
    assert not any(line.startswith(language) for line in description(r).splitlines()), r.embeds
    emu.assert_clean()


async def test_server_settings_out_of_range(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    host = world.host
    for options in [
        {"daily_cooldown_hours": 0},
        {"daily_cooldown_hours": 721},
        {"starting_bankroll": -1},
        {"daily_amount": MAX_CHIPS + 1},
    ]:
        with pytest.raises(UserActionError):
            await emu.run_command(host, world.channel, "server settings", options)
    for option, value in [("daily_cooldown_hours", 0), ("starting_bankroll", MAX_CHIPS + 1)]:
        r = await crafted_command(
            emu,
            host,
            world.channel,
            "server settings",
            [{"name": option, "type": 4, "value": value}],
        )
        refused(r, "must be a whole number")
    settings = await bot.db.get_settings(world.guild.id)
    assert settings.updated_at is None  # never changed
    assert (await bot.db.admin_log(world.guild.id)).total == 0


async def test_season_points_in_other_digits_are_refused(poker_bot, emu, world) -> None:
    """A superscript is a digit to str.isdigit() but no number to int(): it was a bug answer
    and a traceback. Other scripts' digits are refused too, as for every typed amount."""
    bot = await poker_bot()
    for points in ("10,²", "٣,1", "5 𝟙"):
        r = await emu.run_command(
            world.host, world.channel, "server season start", {"name": "s", "points": points}
        )
        refused(r, "Points are whole numbers")
    assert await bot.db.seasons(world.guild.id) == []
    emu.assert_clean()


async def test_a_season_reset_waits_for_the_chips_on_tables(poker_bot, emu, world) -> None:
    """A reset set every bankroll back to the start but left the chips on tables alone: a
    member who sat down with their bankroll kept it all and got the starting amount on top
    (1,040 after the "reset" here). A reset is refused, changing nothing, while members'
    chips are on the server's tables; ended without a reset, or once the tables are closed, it
    goes through."""
    bot = await poker_bot()
    host, alice, bob = world.host, *world.players[:2]
    guild = world.guild.id
    r = await emu.run_command(host, world.channel, "server season start", {"name": "Winter"})
    assert not r.ephemeral
    await create_table(emu, world, [alice, bob], auto_deal=0)
    before = await bankroll(bot, world, alice)
    assert before < 1_000

    r = await emu.run_command(host, world.channel, "server season end", {"reset": True})
    refused(r, "2 members", "tables")
    assert await bankroll(bot, world, alice) == before
    assert (await bot.db.current_season(guild)) is not None

    ended = await emu.run_command(alice, world.channel, "poker end", {})
    assert not ended.ephemeral, ended.content
    await emu.idle()
    r = await emu.run_command(host, world.channel, "server season end", {"reset": True})
    assert not r.ephemeral, r.content
    assert await bankroll(bot, world, alice) == 1_000
    assert (await bot.db.chips_on_tables(guild, alice.id)) == (0, 0)
    assert (await bot.db.chip_audit(guild)).ok
    # The admin log names the reset (it was in no line of /chips log); the refused one is not.
    r = await emu.run_command(host, world.channel, "chips log")
    lines = description(r).splitlines()
    assert len(lines) == 1, lines
    members = len((await bot.db.season_standings(guild, "Winter"))[1])
    assert (
        f"<@{host.id}> ended season “Winter” and set {members} members' bankrolls back to "
        "**1,000**" in lines[0]
    ), lines
    emu.assert_clean()


async def test_a_seasons_final_standings_count_the_chips_on_tables(poker_bot, emu, world) -> None:
    """The final standings showed (and ranked by) the bankroll alone: a member seated when the
    season ended read 960 chips where /leaderboard says 1,000."""
    bot = await poker_bot()
    host, alice, bob = world.host, *world.players[:2]
    await emu.run_command(host, world.channel, "server season start", {"name": "Autumn"})
    # A season still running has no final standings yet (it showed an empty list).
    r = await emu.run_command(bob, world.channel, "leaderboard", {"season": "Autumn"})
    assert r.ephemeral and "no past season called “Autumn”" in r.content, r.content
    await create_table(emu, world, [alice], auto_deal=0)
    await emu.run_command(host, world.channel, "chips set", {"member": bob, "amount": 999})
    assert await bankroll(bot, world, alice) < 999
    r = await emu.run_command(host, world.channel, "server season end", {})
    assert description(r).splitlines() == [
        f"**1.** <@{alice.id}> — 0 points · 1,000 chips",
        f"**2.** <@{bob.id}> — 0 points · 999 chips",
    ]
    r = await emu.run_command(bob, world.channel, "leaderboard", {"season": "Autumn"})
    assert description(r).splitlines()[0] == f"**1.** <@{alice.id}> — 0 points · 1,000 chips"
    emu.assert_clean()


async def test_long_season_standings_say_how_many_they_leave_out(poker_bot, emu, world) -> None:
    """The season's end showed 10 lines and its final standings 20, with nothing to say that
    more members ranked: the 21st could not tell they were in it."""
    bot = await poker_bot()
    host = world.host
    members = await add_members(emu, world, 22)
    for i, user in enumerate(members):
        await bot.db.admin_grant(world.guild.id, host.id, user.id, i + 1)
    await emu.run_command(host, world.channel, "server season start", {"name": "Long"})
    r = await emu.run_command(host, world.channel, "server season end", {"reset": True})
    assert len(description(r).splitlines()) == 10
    footer = r.embeds[0]["footer"]["text"]
    assert "The top 10 of 22 players." in footer and "back to the starting amount" in footer
    r = await emu.run_command(host, world.channel, "leaderboard", {"season": "Long"})
    assert len(description(r).splitlines()) == 20
    assert r.embeds[0]["footer"]["text"] == "The top 20 of 22 players."
    emu.assert_clean()


async def test_a_season_line_counts_one_point_and_one_chip_in_the_singular(
    poker_bot, emu, world
) -> None:
    """Sixth place of the default scale scores 1: the standings read "1 points"."""
    bot = await poker_bot()
    host, alice, bob = world.host, *world.players[:2]
    guild = world.guild.id
    r = await emu.run_command(
        host, world.channel, "server season start", {"name": "Spring", "points": "3,1"}
    )
    assert not r.ephemeral, r.content
    tournament = await bot.db.create_tournament(guild, world.channel.id, host.id, "{}", "{}")
    for user in (alice, bob):
        await bot.db.tournament_pay_in(tournament.tournament_id, user.id, 100, "{}")
    await bot.db.finish_tournament(
        tournament.tournament_id, [(alice.id, 1, 200), (bob.id, 2, 0)], "{}"
    )
    await emu.run_command(host, world.channel, "chips set", {"member": bob, "amount": 1})
    r = await emu.run_command(host, world.channel, "server season end", {})
    assert description(r).splitlines() == [
        f"**1.** <@{alice.id}> — 3 points · 1,100 chips",
        f"**2.** <@{bob.id}> — 1 point · 1 chip",
    ]
    r = await emu.run_command(alice, world.channel, "leaderboard", {"season": "Spring"})
    assert description(r).splitlines()[1] == f"**2.** <@{bob.id}> — 1 point · 1 chip"
    emu.assert_clean()


async def test_a_forged_reset_option_is_refused_in_the_members_language(
    poker_bot, emu, world
) -> None:
    """``reset:"yes"`` from a modified client read "reset vaut true ou false." in French."""
    bot = await poker_bot()
    world.host.locale = "fr"
    french = resolve("fr")
    await emu.run_command(world.host, world.channel, "server season start", {"name": "Été"})
    r = await emu.run_forged_command(
        world.host, world.channel, "server season end", {"reset": "yes"}
    )
    what = _("The reset option", language=french)
    refused(r, _("{what} is either true or false.", language=french, what=what))
    assert what != "The reset option"
    assert (await bot.db.current_season(world.guild.id)) is not None
    emu.assert_clean()


async def test_audit_is_ok_after_a_series_of_operations(poker_bot, emu, world) -> None:
    bot = await poker_bot()
    host = world.host
    alice, bob, carol, dave = world.players
    now = freeze_clock(bot)
    steps: list[tuple[Any, str, dict[str, Any]]] = [
        (host, "chips grant", {"member": alice, "amount": 5000}),
        (host, "chips set", {"member": bob, "amount": 42}),
        (host, "chips remove", {"member": alice, "amount": 1234}),
        (carol, "daily", {}),
        (host, "server settings", {"starting_bankroll": 300, "daily_amount": 7}),
        (dave, "daily", {}),
        (bob, "balance", {}),
        (host, "chips grant", {"member": carol, "amount": 1}),
    ]
    for user, path, options in steps:
        r = await emu.run_command(user, world.channel, path, options)
        assert not r.ephemeral, (path, r.content)
    table, stacks = await seat_at_table(bot, world, {alice.id: 1000, dave.id: 300})
    await play_hand(
        bot,
        table,
        stacks,
        [
            PlayerHandResult(alice.id, -300, False, 0, None, None),
            PlayerHandResult(dave.id, 300, True, 600, 99, "Flush"),
        ],
    )
    now[0] += 86_400
    await emu.run_command(dave, world.channel, "daily")

    r = await emu.run_command(host, world.channel, "server audit")
    assert r.type == 5 and r.ephemeral  # deferred: the audit reads the whole ledger
    message = await emu.wait_for(lambda: r.message if r.message.embeds else None)
    embed = message.embeds[0]
    assert message.ephemeral
    assert embed["title"] == "Chip audit: OK"
    values = {f["name"]: f["value"] for f in embed["fields"]}
    # alice 1000+5000-1234-1000, bob 42, carol 1000+100+1, dave 300+7-300+7 (+ stacks)
    assert values["Bankrolls"] == fmt_n(3766 + 42 + 1101 + 14)
    assert values["On tables"] == "1,300"
    assert (
        values["In circulation"] == values["Held in total"] == fmt_n(3766 + 42 + 1101 + 14 + 1300)
    )
    assert (await bot.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()


def fmt_n(n: int) -> str:
    return f"{n:,}"


def test_audit_embed_shows_a_discrepancy() -> None:
    audit = ChipAudit(
        1,
        issued=5000,
        removed=1000,
        bankrolls=3500,
        on_tables=400,
        accounts_off=((1, 77),),
        tables_off=(3,),
    )
    embed = audit_embed(audit)
    assert embed.title == "Chip audit: DISCREPANCY"
    assert "**4,000** but bankrolls + tables hold **3,900** (difference -100)" in str(
        embed.description
    )
    assert "<@77>" in str(embed.description) and "#3" in str(embed.description)
    ok = audit_embed(ChipAudit(1, 5000, 1000, 3600, 400, (), ()))
    assert ok.title == "Chip audit: OK"


def test_the_audit_counts_the_tables_it_does_not_name() -> None:
    """Twenty tables were named and the others left out unsaid: "#1, …, #20" read as if
    twenty disagreed. In Polish, where 5 takes another plural form than 2."""
    audit = ChipAudit(1, 5000, 1000, 4000, 0, accounts_off=(), tables_off=tuple(range(1, 26)))
    with speaking(resolve("pl")):
        text = str(audit_embed(audit).description)
    assert "#20" in text and "#21" not in text, text
    more = _.plural(
        "Tables whose chips disagree with the ledger: {tables} and {count} more",
        "Tables whose chips disagree with the ledger: {tables} and {count} more",
        tables=", ".join(f"#{t}" for t in range(1, 21)),
        count=5,
        language=resolve("pl"),
    )
    assert text == more and more.endswith("i jeszcze 5"), text


async def test_a_chips_log_too_long_for_one_page_shows_every_entry_once(
    poker_bot, emu, world
) -> None:
    """Twelve grants with long notes full of markdown (escaped, so twice as long): the first
    page was cut at Discord's 4,096 characters and said "… and N more", but those entries were
    on no page (the next page began with the 11th). The page is cut into parts by what fits;
    paging forward, then back, shows each entry exactly once, whole. In German."""
    await poker_bot()
    host = world.host
    host.locale = "de"
    alice = world.players[0]
    note = "*_" * 100  # MAX_NOTE characters, each one escaped in the log
    for n in range(12):
        await emu.run_command(
            host, world.channel, "chips grant", {"member": alice, "amount": n + 1, "note": note}
        )
    r = await emu.run_command(host, world.channel, "chips log")
    pages: list[list[str]] = []
    footers: list[str] = []
    while True:
        embed = r.message.embeds[0] if pages else r.embeds[0]
        text = embed["description"]
        assert len(text) <= 4096 and "…" not in text, text  # no "… and N more"
        pages.append(text.splitlines())
        footers.append(embed["footer"]["text"])
        nexts = [b for b in r.message.buttons if b.get("label") == "Weiter"]
        if not nexts or nexts[0].get("disabled"):
            break
        n = await emu.click(host, r.message, label="Weiter")
        assert n.type == 7, n.content
        assert len(pages) < 20, pages
    shown = [line for page in pages for line in page]
    amounts = [int(re.search(r"\*\*(\d+)\*\*", line).group(1)) for line in shown]
    assert amounts == list(range(12, 0, -1)), amounts  # each entry once, newest first
    assert all(line.count("\\*\\_") == 100 for line in shown), shown  # whole lines
    assert len(pages) >= 3, footers
    assert footers[0].startswith("Seite 1 von 2, Teil 1 von "), footers
    # Back again: the same pages, in reverse
    back = []
    for _page in pages[:-1]:
        p = await emu.click(host, r.message, label="Zurück")
        assert p.type == 7, p.content
        back.append(r.message.embeds[0]["description"].splitlines())
    assert back == pages[-2::-1], (back, pages)
    emu.assert_clean()
