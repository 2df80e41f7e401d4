"""Faults on demand: closed DMs, 429s (per route and global), 5xx, dropped connections,
gateway drops and invalid sessions, each seen by a real discord.py bot."""

from __future__ import annotations

import time

import aiohttp
import discord
import pytest

from tests.emulator import Emulator, World
from tests.emulator.example_bot import create_bot
from tests.emulator.plugin import StartBot

MESSAGES = "POST /channels/{channel_id}/messages"


async def test_closed_dms_raise_forbidden_50007(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    bot = await start_bot(create_bot)
    alice = world.players[0]
    emu.faults.close_dms(alice)
    result = await emu.run_command(alice, world.channel, "poker hand")
    await emu.wait_for(lambda: result.message is not None and not result.message.loading)
    (error,) = bot.dm_errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert result.content == "I can't DM you (code 50007)."
    assert emu.dms(alice) == []
    assert [c.key for c in emu.errors] == [MESSAGES]


async def test_route_429_is_retried(emu: Emulator, world: World, start_bot: StartBot) -> None:
    await start_bot(create_bot)
    fault = emu.faults.rate_limit(MESSAGES, count=2, retry_after=0.1)
    t0 = time.perf_counter()
    await emu.run_command(world.players[0], world.channel, "poker say", {"text": "hi"})
    await emu.wait_for(lambda: (m := emu.latest(world.channel)) and m.content == "hi (edited)")
    assert time.perf_counter() - t0 >= 0.2  # discord.py slept retry_after twice
    statuses = [c.status for c in emu.calls if c.key == MESSAGES]
    assert statuses == [429, 429, 200]
    assert len(fault.hits) == 2 and emu.faults.pending == []
    assert len(emu.channel_messages(world.channel)) == 1  # posted once, not three times


async def test_global_429_is_retried(emu: Emulator, world: World, start_bot: StartBot) -> None:
    bot = await start_bot(create_bot)
    emu.faults.rate_limit(None, is_global=True, retry_after=0.05)
    channel = bot.get_channel(world.channel.id)
    message = await channel.send("after a global limit")
    assert emu.get_message(message.id).content == "after a global limit"
    assert [c.status for c in emu.calls[-2:]] == [429, 200]


async def test_429_on_interaction_callback_is_retried(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    await start_bot(create_bot)
    emu.faults.rate_limit("interaction_callback", retry_after=0.05)
    result = await emu.run_command(
        world.players[0], world.channel, "poker create", {"variant": "badugi"}
    )
    assert result.type == 4
    assert [c.status for c in emu.calls if c.kind == "interaction_callback"] == [429, 200]


async def test_5xx(emu: Emulator, world: World, start_bot: StartBot) -> None:
    bot = await start_bot(create_bot)
    channel = bot.get_channel(world.channel.id)
    emu.faults.server_error(MESSAGES, status=503)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("lost")
    emu.faults.server_error(MESSAGES, status=502)  # discord.py retries 502 after 1 s
    message = await channel.send("kept")
    assert emu.get_message(message.id).content == "kept"
    assert [c.status for c in emu.calls if c.key == MESSAGES] == [503, 502, 200]


async def test_a_dropped_connection_raises_what_aiohttp_raises_applied_or_not(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    bot = await start_bot(create_bot)
    channel = bot.get_channel(world.channel.id)
    emu.faults.disconnect(MESSAGES)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await channel.send("never sent")
    emu.faults.disconnect(MESSAGES, applied=True)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await channel.send("sent, its answer lost")
    assert [m.content for m in emu.channel_messages(world.channel)] == ["sent, its answer lost"]
    assert (await channel.send("and the next")).content == "and the next"


async def test_dropped_gateway_resumes_and_replays(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    bot = await start_bot(create_bot)
    alice = world.players[0]
    before = emu.user_message(alice, world.channel, "before")
    await emu.wait_for(lambda: before.id in bot.seen_messages)
    assert await emu.drop_gateway() == 1
    missed = emu.user_message(alice, world.channel, "while disconnected")
    await emu.wait_for(lambda: emu.resume_count == 1)
    await emu.wait_for(lambda: missed.id in bot.seen_messages)
    resumed = next(e for e in emu.gateway_events if e.kind == "resumed")
    assert resumed.detail["replayed"] >= 1 and resumed.detail["path"] == "/gateway-resume"
    assert emu.identify_count == 1
    result = await emu.run_command(alice, world.channel, "poker create", {"variant": "lowball"})
    assert result.type == 4
    assert bot.seen_messages.count(missed.id) == 1


async def test_interaction_sent_while_disconnected_is_delivered(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    await start_bot(create_bot)
    await emu.drop_gateway()
    result = await emu.run_command(
        world.players[0], world.channel, "poker create", {"variant": "lowball"}
    )
    assert result.type == 4 and emu.resume_count == 1


async def test_reconnect_request_resumes(emu: Emulator, world: World, start_bot: StartBot) -> None:
    bot = await start_bot(create_bot)
    await emu.request_reconnect()
    await emu.wait_for(lambda: emu.resume_count == 1)
    msg = emu.user_message(world.players[0], world.channel, "still here")
    await emu.wait_for(lambda: msg.id in bot.seen_messages)


async def test_invalid_session_makes_the_client_identify_again(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    bot = await start_bot(create_bot)
    await emu.invalidate_session(resumable=False)
    # discord.py waits 5 s (before_identify_hook) before identifying again; keep that real here.
    await emu.wait_for(lambda: emu.identify_count == 2, timeout=10)
    assert emu.resume_count == 0
    msg = emu.user_message(world.players[0], world.channel, "new session")
    await emu.wait_for(lambda: msg.id in bot.seen_messages)
    result = await emu.run_command(
        world.players[0], world.channel, "poker create", {"variant": "badugi"}
    )
    assert result.type == 4
    assert len([s for s in emu.sessions.values() if not s.invalid]) == 1


async def test_reidentify_delay_can_be_shortened(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    await start_bot(create_bot, reidentify_delay=0.05)
    t0 = time.perf_counter()
    await emu.invalidate_session()
    await emu.wait_for(lambda: emu.identify_count == 2, timeout=2)
    assert time.perf_counter() - t0 < 1.0
