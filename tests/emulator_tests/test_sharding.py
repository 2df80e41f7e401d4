"""Gateway sharding as Discord does it: IDENTIFY with ``[shard_id, shard_count]``, one session
and one READY per shard listing only that shard's servers, a server's events and interactions on
its shard's connection only, DMs on shard 0, and ``/gateway/bot``'s recommended count."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import discord
from discord import app_commands

from tests.emulator import Emulator, World
from tests.emulator.plugin import StartBot
from tests.emulator.server import shard_of


def _sharded_bot(shard_count: int | None = None, shard_ids: list[int] | None = None) -> Any:
    kwargs: dict[str, Any] = {"intents": discord.Intents.default()}
    if shard_count is not None:
        kwargs["shard_count"] = shard_count
    if shard_ids is not None:
        kwargs["shard_ids"] = shard_ids
    client = discord.AutoShardedClient(**kwargs)
    tree = app_commands.CommandTree(client)
    client.answered_by = []  # type: ignore[attr-defined]

    @tree.command(name="where", description="Which shard answered")
    async def where(interaction: discord.Interaction) -> None:
        client.answered_by.append(interaction.guild_id)  # type: ignore[attr-defined]
        await interaction.response.send_message(f"shard {interaction.guild.shard_id}")  # type: ignore[union-attr]

    async def setup_hook() -> None:
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


def _server(emu: Emulator, name: str, shard: tuple[int, int]) -> World:
    host = emu.add_user(f"{name}-host")
    guild = emu.add_guild(name, owner=host, shard=shard)
    emu.add_member(guild, host)
    channel = emu.add_text_channel(guild, "poker")
    return World(guild, channel, host, [])


def test_add_guild_lands_on_the_chosen_shard() -> None:
    emu = Emulator()
    for count in (1, 2, 3, 16):
        for shard_id in range(count):
            guild = emu.add_guild(f"g{count}-{shard_id}", shard=(shard_id, count))
            assert shard_of(guild.id, count) == shard_id
    assert len({g.id for g in emu.guilds.values()}) == len(emu.guilds)


async def test_one_session_and_ready_per_shard(emu: Emulator, start_bot: StartBot) -> None:
    zero = _server(emu, "Zero", (0, 2))
    one = _server(emu, "One", (1, 2))
    emu.recommended_shards = 2
    bot = await start_bot(_sharded_bot, reidentify_delay=0.01)
    await emu.wait_for(lambda: len(emu.shard_sessions()) == 2)
    assert bot.shard_count == 2
    shards = sorted(s.shard for s in emu.sessions.values())
    assert shards == [(0, 2), (1, 2)]
    for session in emu.sessions.values():
        assert session.shard is not None
        ready = next(p for _, p in session.buffer if p.get("t") == "READY")
        assert ready["d"]["shard"] == list(session.shard)
        listed = {int(g["id"]) for g in ready["d"]["guilds"]}
        assert listed == {g for g in emu.guilds if shard_of(g, 2) == session.shard[0]}
        created = {int(p["d"]["id"]) for _, p in session.buffer if p.get("t") == "GUILD_CREATE"}
        assert created == listed
    # Each server's interaction arrives on its own shard's connection, and only there.
    for world, shard_id in ((zero, 0), (one, 1)):
        r = await emu.run_command(world.host, world.channel, "where", {})
        assert r.content == f"shard {shard_id}"
        got = [
            s.shard
            for s in emu.sessions.values()
            for _, p in s.buffer
            if p.get("t") == "INTERACTION_CREATE" and p["d"]["id"] == str(r.interaction.id)
        ]
        assert got == [(shard_id, 2)]
    emu.assert_clean()


async def test_processes_split_the_shards(emu: Emulator) -> None:
    """Two clients, one shard each (as two processes would run): each hears only its servers,
    and a server added later reaches only its shard."""
    from tests.emulator.runner import running_bot

    zero = _server(emu, "Zero", (0, 2))
    one = _server(emu, "One", (1, 2))
    async with (
        running_bot(emu, lambda: _sharded_bot(2, [0])) as first,
        running_bot(emu, lambda: _sharded_bot(2, [1]), expect_sync=False) as second,
    ):
        assert {g.id for g in first.guilds} == {g for g in emu.guilds if shard_of(g, 2) == 0}
        assert {g.id for g in second.guilds} == {g for g in emu.guilds if shard_of(g, 2) == 1}
        assert (await emu.run_command(zero.host, zero.channel, "where", {})).content == "shard 0"
        assert (await emu.run_command(one.host, one.channel, "where", {})).content == "shard 1"
        assert first.answered_by == [zero.guild.id]
        assert second.answered_by == [one.guild.id]
        late = emu.add_guild("Late", shard=(1, 2))
        await emu.wait_for(lambda: second.get_guild(late.id) is not None)
        await asyncio.sleep(0.05)
        assert first.get_guild(late.id) is None
        # A dropped shard resumes on its own; the other shard's connection is left alone.
        assert await emu.drop_gateway(shard=1) == 1
        await emu.wait_for(lambda: emu.resume_count == 1)
        assert (await emu.run_command(one.host, one.channel, "where", {})).content == "shard 1"
    emu.assert_clean()


async def test_gateway_bot_recommends_and_identify_checks_the_shard(emu: Emulator) -> None:
    async with aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {emu.token}"}
        async with http.get(f"{emu.api_base}/gateway/bot", headers=headers) as resp:
            body = json.loads(await resp.text())
        assert body["shards"] == 1 and body["url"] == emu.gateway_url
        emu.recommended_shards = 4
        async with http.get(f"{emu.api_base}/gateway/bot", headers=headers) as resp:
            assert json.loads(await resp.text())["shards"] == 4
        for bad in ([2, 2], [0, 0], [-1, 2], [0], "0,1", [True, 2]):
            async with http.ws_connect(emu.gateway_url) as ws:
                hello = await ws.receive_json()
                assert hello["op"] == 10
                await ws.send_json(
                    {
                        "op": 2,
                        "d": {"token": emu.token, "intents": 1, "shard": bad, "properties": {}},
                    }
                )
                msg = await ws.receive()
                assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 4010, bad
    assert not emu.sessions
