"""One initial response, callback types per interaction type, the 3-second deadline and the
15-minute token lifetime."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio

from tests.emulator import Emulator, NoResponse, World
from tests.emulator.example_bot import create_bot
from tests.emulator.models import InteractionRecord
from tests.emulator.plugin import StartBot


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def callback(
    emu: Emulator, http: aiohttp.ClientSession, rec: InteractionRecord, body: dict[str, Any]
) -> tuple[int, Any]:
    url = f"{emu.api_base}/interactions/{rec.id}/{rec.token}/callback?with_response=1"
    async with http.post(url, json=body) as resp:
        return resp.status, await resp.json()


async def webhook(
    emu: Emulator,
    http: aiohttp.ClientSession,
    rec: InteractionRecord,
    method: str,
    suffix: str = "",
    body: Any = None,
) -> tuple[int, Any]:
    url = f"{emu.api_base}/webhooks/{emu.application_id}/{rec.token}{suffix}"
    async with http.request(method, url, json=body, params={"wait": "1"}) as resp:
        data = await resp.json() if resp.status != 204 else None
        return resp.status, data


def command(emu: Emulator, world: World) -> InteractionRecord:
    return emu.build_interaction(2, world.players[0], world.channel, {"name": "poker"})


async def test_only_one_initial_response(
    emu: Emulator, world: World, http: aiohttp.ClientSession
) -> None:
    rec = command(emu, world)
    assert (await callback(emu, http, rec, {"type": 5}))[0] == 200
    status, body = await callback(emu, http, rec, {"type": 4, "data": {"content": "again"}})
    assert status == 400 and body["code"] == 40060
    assert body["message"] == "Interaction has already been acknowledged."


@pytest.mark.parametrize(
    ("itype", "ctype", "ok"),
    [
        (2, 9, True),  # modal in answer to a command
        (3, 9, True),  # ... or to a component
        (5, 9, False),  # never to a modal submit
        (2, 7, False),  # a command has no message to update
        (2, 6, False),
        (3, 7, True),
        (3, 6, True),
        (4, 4, False),  # autocomplete only takes choices
        (2, 8, False),
        (4, 8, True),
        (2, 1, False),  # PONG is for pings only
    ],
)
async def test_callback_type_rules(
    emu: Emulator, world: World, http: aiohttp.ClientSession, itype: int, ctype: int, ok: bool
) -> None:
    message = emu.new_message(
        world.channel,
        emu.bot_user,
        {
            "content": "table",
            "components": [
                {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "b", "label": "B"}]}
            ],
        },
    )
    data: dict[str, Any] = {"name": "poker"}
    if itype == 3:
        data = {"custom_id": "b", "component_type": 2}
    elif itype == 5:
        data = {"custom_id": "m", "components": []}
    rec = emu.build_interaction(
        itype, world.players[0], world.channel, data, message=message if itype == 3 else None
    )
    bodies = {
        9: {
            "custom_id": "m",
            "title": "Bet",
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 4, "custom_id": "a", "style": 1, "label": "Amount"}],
                }
            ],
        },
        8: {"choices": []},
        7: {"content": "updated"},
        4: {"content": "hi"},
    }
    body: dict[str, Any] = {"type": ctype}
    if ctype in bodies:
        body["data"] = bodies[ctype]
    status, answer = await callback(emu, http, rec, body)
    assert (status == 200) is ok, answer
    if not ok:
        assert answer["code"] == 50035 and "type" in answer["errors"]
        assert not rec.acknowledged


async def test_late_first_response_is_a_failure(
    emu: Emulator, world: World, http: aiohttp.ClientSession
) -> None:
    rec = command(emu, world)
    emu.clock.advance(3.01)
    status, body = await callback(emu, http, rec, {"type": 4, "data": {"content": "late"}})
    assert status == 404 and body["code"] == 10062 and body["message"] == "Unknown interaction"
    assert [f.kind for f in emu.failures] == ["late_response"]
    assert emu.failures[0].interaction_id == rec.id


async def test_response_just_inside_the_deadline(
    emu: Emulator, world: World, http: aiohttp.ClientSession
) -> None:
    rec = command(emu, world)
    emu.clock.advance(2.9)
    assert (await callback(emu, http, rec, {"type": 5}))[0] == 200
    assert emu.failures == []


async def test_bot_answering_late_sees_404_and_failure_is_recorded(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    bot = await start_bot(create_bot)
    task = asyncio.create_task(
        emu.run_command(world.players[0], world.channel, "poker slow", raise_on_failure=False)
    )
    await emu.wait_for(lambda: emu.interactions)
    emu.clock.advance(3.5)  # the emulator's clock: no real waiting
    bot.slow_gate.set()
    result = await task
    assert result.type is None
    assert result.failure is not None and result.failure.kind == "late_response"
    assert isinstance(bot.late_errors[0], discord.NotFound)
    assert bot.late_errors[0].code == 10062


async def test_no_response_raises_and_is_recorded(
    emu: Emulator, world: World, start_bot: StartBot
) -> None:
    bot = await start_bot(create_bot)
    with pytest.raises(NoResponse):
        await emu.run_command(world.players[0], world.channel, "poker slow", timeout=0.2)
    assert [f.kind for f in emu.failures] == ["no_response"]
    bot.slow_gate.set()


async def test_followups_need_an_acknowledged_interaction(
    emu: Emulator, world: World, http: aiohttp.ClientSession
) -> None:
    rec = command(emu, world)
    status, body = await webhook(emu, http, rec, "POST", body={"content": "too early"})
    assert status == 404 and body["code"] == 10015
    await callback(emu, http, rec, {"type": 5, "data": {"flags": 64}})
    status, body = await webhook(emu, http, rec, "POST", body={"content": "done"})
    assert status == 200
    # The first followup after a deferral fills in the "thinking" message (still ephemeral).
    assert body["id"] == str(rec.original_message_id) and body["flags"] & 64
    status, body = await webhook(emu, http, rec, "POST", body={"content": "more"})
    assert status == 200 and body["id"] != str(rec.original_message_id)
    assert not body["flags"] & 64


async def test_token_expires_after_15_minutes(
    emu: Emulator, world: World, http: aiohttp.ClientSession
) -> None:
    rec = command(emu, world)
    await callback(emu, http, rec, {"type": 4, "data": {"content": "hi"}})
    emu.clock.advance(14 * 60)
    status, _ = await webhook(
        emu, http, rec, "PATCH", "/messages/@original", {"content": "still fine"}
    )
    assert status == 200
    emu.clock.advance(61 + 1)
    status, body = await webhook(
        emu, http, rec, "PATCH", "/messages/@original", {"content": "too late"}
    )
    assert status == 401 and body["code"] == 50027
    status, body = await webhook(emu, http, rec, "POST", body={"content": "too late"})
    assert status == 401
    assert emu.get_message(rec.original_message_id).content == "still fine"  # type: ignore[arg-type]
    assert {f.kind for f in emu.failures} == {"expired_token"}


async def test_interaction_payload_is_what_discord_sends(emu: Emulator, world: World) -> None:
    rec = emu.build_interaction(2, world.host, world.channel, {"name": "poker"})
    p = rec.payload
    assert p["attachment_size_limit"] > 0 and p["version"] == 1
    assert p["guild_id"] == str(world.guild.id) and p["channel"]["id"] == str(world.channel.id)
    # The host holds Manage Server (0x20) in the default world; players do not.
    assert int(p["member"]["permissions"]) & 0x20
    player = emu.build_interaction(2, world.players[0], world.channel, {"name": "poker"}).payload
    assert not int(player["member"]["permissions"]) & 0x20
    # Snowflakes carry the emulator's time (discord.py derives expires_at from them).
    assert abs(discord.utils.snowflake_time(rec.id).timestamp() - emu.clock.now()) < 1
    dm = emu.build_interaction(
        2, world.players[0], emu.dm_channel(world.players[0]), {"name": "poker"}
    ).payload
    assert "member" not in dm and dm["user"]["id"] == str(world.players[0].id)
    assert dm["context"] == 1
