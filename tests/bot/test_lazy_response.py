"""The lazy callback response (cogs.ui.components.LazyCallbackResponse) patches discord.py's
internals: these tests pin what it relies on, so a discord.py upgrade that changes it fails
here instead of slowing or breaking the bot silently."""

from __future__ import annotations

import hashlib
import inspect
import types
from typing import Any

import discord
import discord.interactions
from discord.enums import InteractionResponseType

from cogs.ui.components import LazyCallbackResponse, install_lazy_responses

# discord.py 2.7.1's InteractionCallbackResponse._update, which the lazy class feeds a payload
# without its message and calls again, message and all, when the message is asked for.
UPDATE_SHA256 = "5c7e486cbfa2f7a3a68d2df6cfc1a22ed08a413361801b1bd53900118959ab11"


def test_discord_py_still_builds_the_response_as_the_patch_expects() -> None:
    update = inspect.getsource(discord.InteractionCallbackResponse._update)
    assert hashlib.sha256(update.encode()).hexdigest() == UPDATE_SHA256, (
        "discord.py changed InteractionCallbackResponse._update: check LazyCallbackResponse "
        "(and whether discord.py now lets a bot skip the response's message) and update the hash"
    )
    # The answers make the response by the module-level name, which the patch replaces.
    answers = inspect.getsource(discord.interactions.InteractionResponse)
    assert answers.count("InteractionCallbackResponse(") >= 5
    # ``resource`` is a slot the lazy property stands in front of.
    slot = discord.InteractionCallbackResponse.__dict__["resource"]
    assert isinstance(slot, types.MemberDescriptorType)


def test_installed_the_answers_make_lazy_responses() -> None:
    install_lazy_responses()
    assert discord.interactions.InteractionCallbackResponse is LazyCallbackResponse
    # Callers that check the public class still recognise it.
    assert issubclass(LazyCallbackResponse, discord.InteractionCallbackResponse)


def _payload() -> Any:
    author = {"id": "10", "username": "bot", "discriminator": "0", "avatar": None, "bot": True}
    message = {
        "id": "5",
        "channel_id": "7",
        "author": author,
        "content": "",
        "embeds": [{"title": "Table 1", "description": "Hand #3"}],
        "attachments": [],
        "components": [],
        "type": 0,
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "flags": 0,
    }
    return {
        "interaction": {"id": "99", "type": 3, "response_message_id": "5"},
        "resource": {"type": 7, "message": message},
    }


def test_the_message_is_built_only_when_asked_for_and_as_discord_py_builds_it() -> None:
    state = discord.Client(intents=discord.Intents.none())._connection
    parent: Any = types.SimpleNamespace(channel=None, _state=state)
    kind = InteractionResponseType.message_update
    eager = discord.InteractionCallbackResponse(
        data=_payload(), parent=parent, state=state, type=kind
    )
    lazy = LazyCallbackResponse(data=_payload(), parent=parent, state=state, type=kind)
    assert lazy._message_data is not None, "not built at the answer"
    assert (lazy.id, lazy.type, lazy.message_id) == (eager.id, eager.type, eager.message_id)
    built, expected = lazy.resource, eager.resource
    assert isinstance(built, discord.InteractionMessage)
    assert isinstance(expected, discord.InteractionMessage)
    assert (built.id, built.embeds[0].title) == (expected.id, expected.embeds[0].title)
    assert lazy.resource is built, "built once"
    # A callback without a message (a modal, a deferral) has no resource, as before.
    bare: Any = {"interaction": {"id": "98", "type": 3}, "resource": {"type": 9}}
    assert LazyCallbackResponse(data=bare, parent=parent, state=state, type=kind).resource is None
