"""The emulator runs a real discord.py bot: login, sync, slash command, button, select, modal,
autocomplete, DMs with files, ephemerals, deferrals."""

from __future__ import annotations

import time

import discord
import pytest

from tests.emulator import Emulator, UserActionError, World
from tests.emulator.example_bot import create_bot
from tests.emulator.models import MANAGE_THREADS
from tests.emulator.plugin import StartBot
from tests.emulator.runner import running_bot


async def test_start_up_is_fast_and_syncs_commands(emu: Emulator) -> None:
    t0 = time.perf_counter()
    async with running_bot(emu, create_bot) as bot:
        elapsed = time.perf_counter() - t0
        assert bot.is_ready()
        assert bot.user is not None and bot.user.id == emu.bot_user.id
        assert {c.name for c in emu.commands()} == {"poker", "pokeradmin"}
        poker = next(c for c in emu.commands() if c.name == "poker")
        subs = {o["name"] for o in poker.data["options"]}
        assert {"create", "hand", "slow", "say"} <= subs
        assert bot.get_guild(emu.world.guild.id) is not None  # type: ignore[union-attr]
    assert elapsed < 2.0, f"emulator + bot start-up took {elapsed:.2f}s"
    # The bot's own start-up conversation went to the emulator and nowhere else.
    assert [c.key for c in emu.calls[:2]] == ["GET /users/@me", "GET /oauth2/applications/@me"]
    assert discord.http.Route.BASE.startswith("http://127.0.0.1:9/")  # restored (guard value)


async def test_slash_command_button_select_modal(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    await start_bot(create_bot)
    alice, bob = world.players[:2]
    created = await emu.run_command(
        alice, world.channel, "poker create", {"variant": "lowball", "seats": 4}
    )
    assert created.type == 4 and not created.ephemeral
    assert created.content == "Table 1: lowball, 4 seats"
    assert created.message is not None
    assert created.message.button_labels == ["Discard", "Bet", "Deal", "Join"]
    assert created.latency is not None and created.latency < 1.0

    joined = await emu.click(bob, created.message, "table:1:join")
    assert joined.type == 7
    assert emu.get_message(created.message.id).content == "Table 1: 1 seated"

    discard = await emu.click(alice, created.message, label="Discard")
    assert discard.type == 4 and discard.ephemeral
    # Only alice sees the ephemeral menu.
    assert discard.message in emu.channel_messages(world.channel, as_user=alice)
    assert discard.message not in emu.channel_messages(world.channel, as_user=bob)
    assert discard.message not in emu.channel_messages(world.channel)
    chosen = await emu.select(alice, discard.message, "discard", ["0", "3"])
    assert chosen.type == 7 and chosen.content == "Discarding: 0,3" and chosen.components == []

    bet = await emu.click(alice, created.message, "table:bet")
    assert bet.type == 9 and bet.modal is not None and bet.modal["title"] == "Place a bet"
    submitted = await emu.submit_modal(alice, bet, {"amount": "50"})
    assert submitted.type == 7
    assert emu.get_message(created.message.id).content == "alice bets 50"

    choices = await emu.autocomplete(alice, world.channel, "poker create", "variant", "low")
    assert choices.type == 8 and choices.choices == [{"name": "lowball", "value": "lowball"}]
    emu.assert_clean()


async def test_modal_from_a_slash_command_context(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    await start_bot(create_bot)
    alice = world.players[0]
    created = await emu.run_command(alice, world.channel, "poker create", {"variant": "badugi"})
    bet = await emu.click(alice, created.message, "table:bet")
    answer = await emu.submit_modal(alice, bet, {"amount": "abc", "note": "hi"})
    assert answer.type == 4 and answer.ephemeral and answer.content == "Amount must be a number."


async def test_dm_with_embed_and_png(emu: Emulator, world: World, start_bot: StartBot) -> None:
    await start_bot(create_bot)
    alice = world.players[0]
    result = await emu.run_command(alice, world.channel, "poker hand")
    assert result.type == 5 and result.ephemeral
    await emu.wait_for(lambda: result.message is not None and not result.message.loading)
    assert result.content == "Check your DMs."
    dms = emu.dms(alice)
    assert len(dms) == 1
    assert dms[0].embeds[0]["title"] == "Your hand"
    (png,) = dms[0].attachments
    assert png.filename == "hand.png" and png.data.startswith(b"\x89PNG")
    assert emu.dms(world.players[1]) == []


async def test_deferred_update_then_followup_and_dm(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    await start_bot(create_bot)
    alice = world.players[0]
    created = await emu.run_command(alice, world.channel, "poker create", {"variant": "badugi"})
    mark = emu.mark()
    dealt = await emu.click(alice, created.message, "table:deal")
    assert dealt.type == 6
    await emu.wait_for(lambda: emu.dms(alice) and dealt.followups)
    (note,) = dealt.followups
    assert note.ephemeral and note.content == "Your cards are in your DMs"
    await emu.idle()
    counts = emu.count_calls(mark)
    assert counts == {"interaction_callback": 1, "interaction_webhook": 1, "rest": 2}
    assert emu.count_routes(mark)["POST /channels/{channel_id}/messages"] == 1


async def test_channel_messages_edit_and_visibility(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    await start_bot(create_bot)
    alice = world.players[0]
    await emu.run_command(alice, world.channel, "poker say", {"text": "hello"})
    await emu.wait_for(lambda: (m := emu.latest(world.channel)) and m.edited_at)
    latest = emu.latest(world.channel)
    assert latest is not None and latest.content == "hello (edited)"
    assert [r["content"] for r in latest.revisions] == ["hello"]
    # alice additionally sees her ephemeral acknowledgement.
    mine = emu.channel_messages(world.channel, as_user=alice)
    assert [m.content for m in mine] == ["posting", "hello (edited)"]


async def test_admin_command_needs_manage_server(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    await start_bot(create_bot)
    with pytest.raises(UserActionError, match="lacks the permissions"):
        await emu.run_command(world.players[0], world.channel, "pokeradmin reset")
    result = await emu.run_command(world.host, world.channel, "pokeradmin reset")
    assert result.content == "reset done" and result.ephemeral
    cmd = next(c for c in emu.commands() if c.name == "pokeradmin")
    assert cmd.to_dict()["default_member_permissions"] == str(0x20)


async def test_files_in_interaction_responses(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    await start_bot(create_bot)
    alice = world.players[0]
    result = await emu.run_command(alice, world.channel, "poker card")
    assert result.type == 4
    (att,) = result.attachments
    assert att.filename == "card.png" and att.data.startswith(b"\x89PNG")
    # attachment://card.png in the embed now points at the stored file.
    assert result.embeds[0]["image"]["url"] == att.url
    await emu.wait_for(lambda: result.followups)
    (other,) = result.followups
    assert other.ephemeral and other.attachments[0].filename == "other.png"


async def test_threads(emu: Emulator, world: World, start_bot: StartBot) -> None:
    bot = await start_bot(create_bot)
    alice = world.players[0]
    result = await emu.run_command(alice, world.channel, "poker thread", {"name": "hand-1"})
    await emu.wait_for(lambda: result.content and result.content.startswith("Opened"))
    (thread,) = emu.threads(world.channel)
    assert thread.name == "hand-1" and thread.is_thread
    assert [m.content for m in emu.channel_messages(thread)] == ["Hand hand-1 starts"]
    assert bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the bot
    # Commands work inside the thread too.
    inside = await emu.run_command(alice, thread, "poker create", {"variant": "badugi"})
    assert inside.message is not None and inside.message.channel_id == thread.id


async def test_archived_threads_as_discord_keeps_them(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    """Discord's rules (the Threads topic): a message sent to an archived thread unarchives
    it unless it is locked; no message in an archived thread can be edited; only Manage
    Threads unarchives a locked one; ``auto_archive_duration`` is 60, 1440, 4320 or 10080."""
    bot = await start_bot(create_bot)
    parent = bot.get_channel(world.channel.id)
    assert isinstance(parent, discord.TextChannel)
    made = await parent.create_thread(
        name="t", type=discord.ChannelType.public_thread, auto_archive_duration=10080
    )
    thread = emu.channels[made.id]
    assert thread.auto_archive_duration == 10080 and made.auto_archive_duration == 10080
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.edit_channel(thread.id, auto_archive_duration=30)
    assert refused.value.code == 50035
    sent = await made.send("first")
    emu.archive_thread(thread)
    with pytest.raises(discord.HTTPException) as refused:
        await sent.edit(content="edited")
    assert refused.value.code == 50083 and emu.get_message(sent.id).content == "first"
    await made.send("second")  # unarchives it
    assert not thread.archived
    await sent.edit(content="edited")
    emu.archive_thread(thread, locked=True)
    with pytest.raises(discord.HTTPException) as refused:
        await made.send("third")
    assert refused.value.code == 50083 and thread.archived
    role = world.guild.roles[world.guild.members[emu.bot_user.id].roles[0]]
    role.permissions &= ~MANAGE_THREADS
    with pytest.raises(discord.Forbidden):
        await bot.http.edit_channel(thread.id, archived=False)
    role.permissions |= MANAGE_THREADS
    await bot.http.edit_channel(thread.id, archived=False)
    assert not thread.archived and thread.locked
    await made.send("third")  # Manage Threads may post in a locked thread


async def test_components_v2_layout(emu: Emulator, world: World, start_bot: StartBot) -> None:
    await start_bot(create_bot)
    alice = world.players[0]
    result = await emu.run_command(alice, world.channel, "poker board")
    assert result.message is not None and result.message.flags & (1 << 15)
    assert "Pot: 40" in result.message.text
    assert result.component(label="Fold") is not None
    with pytest.raises(UserActionError):
        await emu.click(alice, result.message, "board:missing")


async def test_default_chunking_bot_starts_fast(emu: Emulator, world: World) -> None:
    from discord.ext import commands

    def factory() -> commands.Bot:
        intents = discord.Intents.default()
        intents.members = True
        return commands.Bot(command_prefix="!", intents=intents)

    t0 = time.perf_counter()
    async with running_bot(emu, factory, expect_sync=False) as bot:
        guild = bot.get_guild(world.guild.id)
        assert guild is not None and guild.chunked
        assert {m.id for m in guild.members} == {u.id for u in world.users} | {emu.bot_user.id}
        host = guild.get_member(world.host.id)
        assert host is not None and host.guild_permissions.manage_guild
    assert time.perf_counter() - t0 < 2.0


async def test_bot_side_message_calls(emu: Emulator, world: World, start_bot: StartBot) -> None:
    bot = await start_bot(create_bot)
    assert bot.latency < 1.0  # the first heartbeat was ACKed (inf otherwise)
    channel = bot.get_channel(world.channel.id)
    first = await channel.send("one")
    second = await channel.send("two", embed=discord.Embed(title="t"))
    await second.edit(content="two!")
    fetched = await channel.fetch_message(second.id)
    assert fetched.content == "two!" and fetched.embeds[0].title == "t"
    history = [m.content async for m in channel.history(limit=10)]
    assert history == ["two!", "one"]
    await first.delete()
    assert emu.get_message(first.id).deleted
    assert [m.content for m in emu.channel_messages(world.channel)] == ["two!"]
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(first.id)
    user = await bot.fetch_user(world.players[0].id)
    assert user.name == world.players[0].username
    counts = emu.count_routes()
    assert counts["POST /channels/{channel_id}/messages"] == 2
    assert counts["DELETE /channels/{channel_id}/messages/{message_id}"] == 1


async def test_commands_in_dms(emu: Emulator, world: World, start_bot: StartBot) -> None:
    await start_bot(create_bot)
    alice = world.players[0]
    dm = emu.dm_channel(alice)
    result = await emu.run_command(alice, dm, "poker create", {"variant": "badugi"})
    assert result.type == 4 and result.message is not None
    assert emu.dms(alice) == [result.message]
    joined = await emu.click(alice, result.message, "table:1:join")
    assert joined.content == "Table 1: 1 seated"
    with pytest.raises(UserActionError, match="not available in DMs"):
        await emu.run_command(alice, dm, "pokeradmin reset")


async def test_modal_with_labels_and_select(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    await start_bot(create_bot)
    alice = world.players[0]
    opened = await emu.run_command(alice, world.channel, "poker raise")
    assert opened.modal is not None and opened.modal["components"][0]["type"] == 18
    with pytest.raises(UserActionError, match="required"):
        await emu.submit_modal(alice, opened, {"speed": ["fast"]})
    with pytest.raises(UserActionError, match=r"takes 1\.\.1 values"):
        await emu.submit_modal(alice, opened, {"raise_amount": "5", "speed": []})
    with pytest.raises(UserActionError, match="only the user"):
        await emu.submit_modal(world.players[1], opened, {"raise_amount": "5", "speed": ["fast"]})
    answer = await emu.submit_modal(alice, opened, {"raise_amount": "25", "speed": ["fast"]})
    assert answer.type == 4 and answer.content == "raise 25 fast"


async def test_autosharded_bot_can_connect(emu: Emulator, world: World) -> None:
    from discord.ext import commands

    def factory() -> commands.AutoShardedBot:
        return commands.AutoShardedBot(command_prefix="!", intents=discord.Intents.default())

    async with running_bot(emu, factory, expect_sync=False) as bot:
        assert bot.shard_count == 1 and bot.get_guild(world.guild.id) is not None
    assert "GET /gateway/bot" in [c.key for c in emu.calls]
