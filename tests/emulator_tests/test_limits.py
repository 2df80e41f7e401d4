"""Every documented limit: accepted at the limit, rejected with Discord's 400 body beyond it.

The payloads go straight to the emulator over HTTP (discord.py refuses some of them client-side,
e.g. a View with a sixth row, so a bot could not even send them); one test at the end checks that
a real discord.py call surfaces the 400 as ``discord.HTTPException`` code 50035.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio

from tests.emulator import Emulator, World
from tests.emulator import limits as L
from tests.emulator.example_bot import create_bot
from tests.emulator.plugin import StartBot


def btn(cid: str = "b", label: str = "x", **kw: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": cid, "label": label, **kw}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def opts(n: int, **kw: Any) -> list[dict[str, Any]]:
    return [{"label": f"o{i}", "value": f"v{i}", **kw} for i in range(n)]


def sel(options: list[dict[str, Any]] | None = None, **kw: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": "s", "options": opts(3) if options is None else options, **kw}


def msg_rows(*rows: dict[str, Any]) -> dict[str, Any]:
    return {"components": list(rows)}


def text(n: int) -> str:
    return "a" * n


def ti(cid: str = "t", **kw: Any) -> dict[str, Any]:
    return {"type": 4, "custom_id": cid, "style": 1, "label": "Amount", **kw}


def modal(*components: dict[str, Any], title: str = "Bet", cid: str = "m") -> dict[str, Any]:
    return {"custom_id": cid, "title": title, "components": list(components)}


def v2(*components: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"flags": L.FLAG_COMPONENTS_V2, "components": list(components), **kw}


def td(n: int) -> dict[str, Any]:
    return {"type": 10, "content": text(n)}


@dataclass
class Limit:
    name: str
    target: str  # "message", "modal" (callback type 9), "autocomplete" (callback type 8)
    ok: Any
    bad: Any
    path: str  # where Discord reports the error in "errors"


LIMITS = [
    # messages
    Limit("content 2000", "message", {"content": text(2000)}, {"content": text(2001)}, "content"),
    Limit(
        "10 embeds",
        "message",
        {"embeds": [{"title": "t"}] * 10},
        {"embeds": [{"title": "t"}] * 11},
        "embeds",
    ),
    Limit(
        "embed title 256",
        "message",
        {"embeds": [{"title": text(256)}]},
        {"embeds": [{"title": text(257)}]},
        "embeds.0.title",
    ),
    Limit(
        "embed description 4096",
        "message",
        {"embeds": [{"description": text(4096)}]},
        {"embeds": [{"description": text(4097)}]},
        "embeds.0.description",
    ),
    Limit(
        "25 embed fields",
        "message",
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 25}]},
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
        "embeds.0.fields",
    ),
    Limit(
        "field name 256",
        "message",
        {"embeds": [{"fields": [{"name": text(256), "value": "v"}]}]},
        {"embeds": [{"fields": [{"name": text(257), "value": "v"}]}]},
        "embeds.0.fields.0.name",
    ),
    Limit(
        "field value 1024",
        "message",
        {"embeds": [{"fields": [{"name": "n", "value": text(1024)}]}]},
        {"embeds": [{"fields": [{"name": "n", "value": text(1025)}]}]},
        "embeds.0.fields.0.value",
    ),
    Limit(
        "footer 2048",
        "message",
        {"embeds": [{"footer": {"text": text(2048)}}]},
        {"embeds": [{"footer": {"text": text(2049)}}]},
        "embeds.0.footer.text",
    ),
    Limit(
        "author name 256",
        "message",
        {"embeds": [{"author": {"name": text(256)}}]},
        {"embeds": [{"author": {"name": text(257)}}]},
        "embeds.0.author.name",
    ),
    Limit(
        "embeds total 6000",
        "message",
        {"embeds": [{"description": text(4096)}, {"description": text(1904)}]},
        {"embeds": [{"description": text(4096)}, {"description": text(1905)}]},
        "embeds",
    ),
    # components on classic messages
    Limit(
        "5 action rows",
        "message",
        msg_rows(*[row(btn(f"b{i}")) for i in range(5)]),
        msg_rows(*[row(btn(f"b{i}")) for i in range(6)]),
        "components",
    ),
    Limit(
        "5 buttons per row",
        "message",
        msg_rows(row(*[btn(f"b{i}") for i in range(5)])),
        msg_rows(row(*[btn(f"b{i}") for i in range(6)])),
        "components.0.components",
    ),
    Limit(
        "custom_id 100",
        "message",
        msg_rows(row(btn(text(100)))),
        msg_rows(row(btn(text(101)))),
        "components.0.components.0.custom_id",
    ),
    Limit(
        "custom_id at least 1",
        "message",
        msg_rows(row(btn("b"))),
        msg_rows(row(btn(""))),
        "components.0.components.0.custom_id",
    ),
    Limit(
        "custom_id unique",
        "message",
        msg_rows(row(btn("a"), btn("b"))),
        msg_rows(row(btn("a"), btn("a"))),
        "components.0.components.1.custom_id",
    ),
    Limit(
        "custom_id unique across rows",
        "message",
        msg_rows(row(btn("a")), row(btn("b"))),
        msg_rows(row(btn("a")), row(btn("a"))),
        "components.1.components.0.custom_id",
    ),
    Limit(
        "button label 80",
        "message",
        msg_rows(row(btn(label=text(80)))),
        msg_rows(row(btn(label=text(81)))),
        "components.0.components.0.label",
    ),
    Limit(
        "one select per row",
        "message",
        msg_rows(row(sel())),
        msg_rows(row(sel(), btn())),
        "components.0.components",
    ),
    Limit(
        "25 select options",
        "message",
        msg_rows(row(sel(opts(25)))),
        msg_rows(row(sel(opts(26)))),
        "components.0.components.0.options",
    ),
    Limit(
        "select has an option",
        "message",
        msg_rows(row(sel(opts(1)))),
        msg_rows(row(sel([]))),
        "components.0.components.0.options",
    ),
    Limit(
        "select max_values 25",
        "message",
        msg_rows(row(sel(opts(25), max_values=25))),
        msg_rows(row(sel(opts(25), max_values=26))),
        "components.0.components.0.max_values",
    ),
    Limit(
        "select max_values <= options",
        "message",
        msg_rows(row(sel(opts(5), max_values=5))),
        msg_rows(row(sel(opts(4), max_values=5))),
        "components.0.components.0.max_values",
    ),
    Limit(
        "select min_values 0..25",
        "message",
        msg_rows(row(sel(opts(25), min_values=25, max_values=25))),
        msg_rows(row(sel(opts(25), min_values=26, max_values=25))),
        "components.0.components.0.min_values",
    ),
    Limit(
        "select min_values >= 0",
        "message",
        msg_rows(row(sel(min_values=0, max_values=3))),
        msg_rows(row(sel(min_values=-1, max_values=3))),
        "components.0.components.0.min_values",
    ),
    Limit(
        "select placeholder 150",
        "message",
        msg_rows(row(sel(placeholder=text(150)))),
        msg_rows(row(sel(placeholder=text(151)))),
        "components.0.components.0.placeholder",
    ),
    Limit(
        "option label 100",
        "message",
        msg_rows(row(sel([{"label": text(100), "value": "v"}]))),
        msg_rows(row(sel([{"label": text(101), "value": "v"}]))),
        "components.0.components.0.options.0.label",
    ),
    Limit(
        "option value 100",
        "message",
        msg_rows(row(sel([{"label": "l", "value": text(100)}]))),
        msg_rows(row(sel([{"label": "l", "value": text(101)}]))),
        "components.0.components.0.options.0.value",
    ),
    Limit(
        "option description 100",
        "message",
        msg_rows(row(sel(opts(1, description=text(100))))),
        msg_rows(row(sel(opts(1, description=text(101))))),
        "components.0.components.0.options.0.description",
    ),
    # Components V2
    Limit(
        "V2: 40 components",
        "message",
        v2(*[td(1) for _ in range(40)]),
        v2(*[td(1) for _ in range(41)]),
        "components",
    ),
    Limit(
        "V2: nested components count",
        "message",
        v2({"type": 17, "components": [td(1) for _ in range(39)]}),
        v2({"type": 17, "components": [td(1) for _ in range(40)]}),
        "components",
    ),
    Limit("V2: no content", "message", v2(td(5)), v2(td(5), content="hi"), "content"),
    Limit("V2: no embeds", "message", v2(td(5)), v2(td(5), embeds=[{"title": "t"}]), "embeds"),
    Limit(
        "V2: text 4000 in total",
        "message",
        v2(td(2000), td(2000)),
        v2(td(2000), td(2001)),
        "components",
    ),
    # modals
    Limit(
        "modal title 45",
        "modal",
        modal(row(ti()), title=text(45)),
        modal(row(ti()), title=text(46)),
        "data.title",
    ),
    Limit(
        "modal custom_id 100",
        "modal",
        modal(row(ti()), cid=text(100)),
        modal(row(ti()), cid=text(101)),
        "data.custom_id",
    ),
    Limit(
        "modal 5 components",
        "modal",
        modal(*[row(ti(f"t{i}")) for i in range(5)]),
        modal(*[row(ti(f"t{i}")) for i in range(6)]),
        "data.components",
    ),
    Limit("modal at least 1 component", "modal", modal(row(ti())), modal(), "data.components"),
    Limit(
        "text input label 45",
        "modal",
        modal(row(ti(label=text(45)))),
        modal(row(ti(label=text(46)))),
        "data.components.0.components.0.label",
    ),
    Limit(
        "text input max_length 4000",
        "modal",
        modal(row(ti(max_length=4000))),
        modal(row(ti(max_length=4001))),
        "data.components.0.components.0.max_length",
    ),
    Limit(
        "text input max_length >= 1",
        "modal",
        modal(row(ti(max_length=1))),
        modal(row(ti(max_length=0))),
        "data.components.0.components.0.max_length",
    ),
    Limit(
        "text input min_length 4000",
        "modal",
        modal(row(ti(min_length=4000))),
        modal(row(ti(min_length=4001))),
        "data.components.0.components.0.min_length",
    ),
    Limit(
        "text input placeholder 100",
        "modal",
        modal(row(ti(placeholder=text(100)))),
        modal(row(ti(placeholder=text(101)))),
        "data.components.0.components.0.placeholder",
    ),
    Limit(
        "text input value 4000",
        "modal",
        modal(row(ti(value=text(4000)))),
        modal(row(ti(value=text(4001)))),
        "data.components.0.components.0.value",
    ),
    Limit(
        "text input custom_id unique",
        "modal",
        modal(row(ti("a")), row(ti("b"))),
        modal(row(ti("a")), row(ti("a"))),
        "data.components.1.components.0.custom_id",
    ),
    Limit(
        "label 45",
        "modal",
        modal({"type": 18, "label": text(45), "component": {**ti(), "label": None}}),
        modal({"type": 18, "label": text(46), "component": {**ti(), "label": None}}),
        "data.components.0.label",
    ),
    # autocomplete
    Limit(
        "25 autocomplete choices",
        "autocomplete",
        {"choices": [{"name": f"c{i}", "value": f"c{i}"} for i in range(25)]},
        {"choices": [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]},
        "data.choices",
    ),
    Limit(
        "choice name 100",
        "autocomplete",
        {"choices": [{"name": text(100), "value": "v"}]},
        {"choices": [{"name": text(101), "value": "v"}]},
        "data.choices.0.name",
    ),
    Limit(
        "choice value 100",
        "autocomplete",
        {"choices": [{"name": "n", "value": text(100)}]},
        {"choices": [{"name": "n", "value": text(101)}]},
        "data.choices.0.value",
    ),
]


def has_error_at(errors: dict[str, Any], path: str) -> bool:
    node: Any = errors
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return isinstance(node, dict) and bool(node.get("_errors"))


@pytest_asyncio.fixture
async def http(emu: Emulator) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {emu.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        yield session


async def send(
    emu: Emulator, world: World, http: aiohttp.ClientSession, limit: Limit, payload: Any
) -> tuple[int, Any]:
    if limit.target == "message":
        url = f"{emu.api_base}/channels/{world.channel.id}/messages"
        async with http.post(url, json=payload) as resp:
            return resp.status, await resp.json()
    itype, ctype = (2, 9) if limit.target == "modal" else (4, 8)
    rec = emu.build_interaction(itype, world.players[0], world.channel, {"name": "poker"})
    url = f"{emu.api_base}/interactions/{rec.id}/{rec.token}/callback?with_response=1"
    async with http.post(url, json={"type": ctype, "data": payload}) as resp:
        return resp.status, await resp.json()


@pytest.mark.parametrize("limit", LIMITS, ids=[lim.name for lim in LIMITS])
async def test_limit(
    emu: Emulator, world: World, http: aiohttp.ClientSession, limit: Limit
) -> None:
    status, body = await send(emu, world, http, limit, limit.ok)
    assert status == 200, body
    status, body = await send(emu, world, http, limit, limit.bad)
    assert status == 400
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
    assert has_error_at(body["errors"], limit.path), body["errors"]


async def test_empty_message_is_rejected(
    emu: Emulator, world: World, http: aiohttp.ClientSession
) -> None:
    url = f"{emu.api_base}/channels/{world.channel.id}/messages"
    async with http.post(url, json={"content": ""}) as resp:
        assert resp.status == 400
        assert (await resp.json())["code"] == 50006
    async with http.post(url, json={"content": "x"}) as resp:
        assert resp.status == 200
        assert resp.headers["Content-Type"] == "application/json"


async def test_unauthorised_rest_call(emu: Emulator, world: World) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{emu.api_base}/users/@me", headers={"Authorization": "Bot wrong"}) as resp,
    ):
        assert resp.status == 401


async def test_discordpy_sees_the_400(emu: Emulator, world: World, start_bot: StartBot) -> None:
    bot = await start_bot(create_bot)
    channel = bot.get_channel(world.channel.id)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("x" * 2001)
    assert info.value.status == 400 and info.value.code == 50035
    assert "content" in info.value.text
    ok = await channel.send("x" * 2000)
    assert emu.get_message(ok.id).content == "x" * 2000
    assert [c.status for c in emu.errors] == [400]


async def test_callback_message_limits_apply(
    emu: Emulator, world: World, http: aiohttp.ClientSession
) -> None:
    rec = emu.build_interaction(2, world.players[0], world.channel, {"name": "poker"})
    url = f"{emu.api_base}/interactions/{rec.id}/{rec.token}/callback?with_response=1"
    async with http.post(url, json={"type": 4, "data": {"content": text(2001)}}) as resp:
        assert resp.status == 400
        assert has_error_at((await resp.json())["errors"], "content")
    # A rejected response does not count as the interaction's response.
    async with http.post(url, json={"type": 4, "data": {"content": "ok"}}) as resp:
        assert resp.status == 200
        body = await resp.json()
    assert body["resource"]["message"]["content"] == "ok"
    assert body["interaction"]["response_message_id"] == body["resource"]["message"]["id"]


@pytest.mark.parametrize(
    ("size", "status"), [(L.ATTACHMENT_SIZE_LIMIT, 200), (L.ATTACHMENT_SIZE_LIMIT + 1, 413)]
)
async def test_attachment_size_limit(
    emu: Emulator, world: World, http: aiohttp.ClientSession, size: int, status: int
) -> None:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", '{"attachments": [{"id": 0, "filename": "big.bin"}]}')
    form.add_field("files[0]", b"\0" * size, filename="big.bin")
    url = f"{emu.api_base}/channels/{world.channel.id}/messages"
    async with http.post(url, data=form) as resp:
        assert resp.status == status
        body = await resp.json()
    if status == 200:
        assert body["attachments"][0]["size"] == size
    else:
        assert body["code"] == 40005


def _command_of_size(longest_localization: int) -> dict[str, Any]:
    """A command counted at 7,900 + ``longest_localization`` characters: its description's
    German localization is longer than the default, so it is the one counted."""
    choices = [{"name": text(100), "value": text(100)} for _ in range(20)]
    return {
        "name": "big",
        "description": text(50),
        "description_localizations": {"de": text(longest_localization)},
        "options": [
            {"name": "a", "description": text(99), "type": 3, "choices": choices},
            {"name": "b", "description": text(99), "type": 3, "choices": choices[:18]},
            {"name": "c", "description": text(99), "type": 3},
        ],
    }


async def test_a_command_is_counted_at_its_longest_localizations(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    url = f"{emu.api_base}/applications/{emu.application_id}/commands"
    assert L.command_size(_command_of_size(97)) == L.COMMAND_SIZE
    async with http.put(url, json=[_command_of_size(97)]) as resp:
        assert resp.status == 200, await resp.json()
    async with http.put(url, json=[_command_of_size(98)]) as resp:
        body = await resp.json()
        assert resp.status == 400 and body["code"] == 50035, body
        (error,) = body["errors"]["0"]["_errors"]
        assert error["code"] == "APPLICATION_COMMAND_TOO_LARGE", error
