"""An answered interaction is freed by reference counting (cogs.memory.release_answered).

The release swaps discord.py's cached response for a stand-in: these tests pin the internals it
relies on, so that a discord.py upgrade that changes them fails here instead of silently
bringing the cycle back (or breaking the answers)."""

from __future__ import annotations

import asyncio
import gc
import inspect
import re
import weakref
from typing import Any

import discord
import discord.interactions
import pytest
from discord.enums import InteractionResponseType

from cogs.memory import AnsweredResponse, Trimmer, release_answered, tune_allocator

ANSWERS = ("defer", "pong", "send_message", "edit_message", "send_modal", "autocomplete")


def test_discord_py_still_caches_the_response_and_refuses_a_second_answer_first() -> None:
    # ``interaction.response`` is cached in the ``_cs_response`` slot the release replaces.
    prop = discord.Interaction.__dict__["response"]
    assert getattr(prop, "name", None) == "_cs_response"
    assert "_cs_response" in discord.Interaction.__slots__
    assert discord.InteractionResponse.__slots__ == ("_response_type", "_parent")
    assert "return self._response_type is not None" in inspect.getsource(
        discord.InteractionResponse.is_done
    )
    # Every answer refuses a second one before anything else, so an answered response needs
    # nothing but its type.
    for name in ANSWERS:
        source = inspect.getsource(getattr(discord.InteractionResponse, name))
        body = source.split('"""')[-1]
        first = re.search(r"^\s+(\S.*)$", body, re.MULTILINE)
        assert first is not None and first.group(1) == "if self._response_type:", name
        assert "raise InteractionResponded(self._parent)" in body, name
    # The answers the bot makes are all among those checked.
    public = {
        name
        for name, value in vars(discord.InteractionResponse).items()
        if inspect.iscoroutinefunction(value) and not name.startswith("_")
    }
    assert public <= set(ANSWERS) | {"launch_activity", "require_premium"}


def _interaction() -> discord.Interaction[Any]:
    state: Any = discord.Client(intents=discord.Intents.none())._connection
    data: Any = {
        "id": "99",
        "application_id": "1",
        "type": 3,
        "token": "t",
        "version": 1,
        "attachment_size_limit": 1000,
        "channel": {"id": "7", "type": 1},
        "user": {"id": "10", "username": "p", "discriminator": "0", "avatar": None},
        "data": {"custom_id": "pk:x", "component_type": 2},
        # The pressed message, its buttons and the member hang off the interaction too.
        "message": {
            "id": "5",
            "channel_id": "7",
            "author": {"id": "1", "username": "bot", "discriminator": "0", "avatar": None},
            "content": "",
            "embeds": [{"title": "Table 1"}],
            "attachments": [],
            "components": [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 1, "label": "Check", "custom_id": "pk:x"},
                        {"type": 2, "style": 4, "label": "Fold", "custom_id": "pk:y"},
                    ],
                }
            ],
            "type": 0,
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "flags": 0,
        },
    }
    return discord.Interaction(data=data, state=state)


class _Probe:
    pass


def test_an_answered_interaction_is_freed_without_the_garbage_collector() -> None:
    interaction = _interaction()
    response = interaction.response
    response._response_type = InteractionResponseType.deferred_message_update  # as defer() does
    probe = _Probe()
    interaction.extras["probe"] = probe
    ref = weakref.ref(probe)
    del probe, response
    gc.disable()
    try:
        release_answered(interaction)
        assert interaction.response.is_done()
        assert interaction.response.type is InteractionResponseType.deferred_message_update
        del interaction
        assert ref() is None, "freed by reference counting alone"
    finally:
        gc.enable()


def test_without_the_release_the_cycle_is_there() -> None:
    """The test above can fail: discord.py's response does keep its interaction in a cycle."""
    interaction = _interaction()
    interaction.response._response_type = InteractionResponseType.deferred_message_update
    probe = _Probe()
    interaction.extras["probe"] = probe
    ref = weakref.ref(probe)
    del probe
    gc.disable()
    try:
        del interaction
        assert ref() is not None
    finally:
        gc.enable()
        gc.collect()
    assert ref() is None


async def test_a_released_response_still_refuses_a_second_answer() -> None:
    interaction = _interaction()
    interaction.response._response_type = InteractionResponseType.channel_message
    release_answered(interaction)
    assert isinstance(interaction.response, AnsweredResponse)
    with pytest.raises(discord.InteractionResponded):
        await interaction.response.send_message("again")
    with pytest.raises(discord.InteractionResponded):
        await interaction.response.defer()


def test_an_unanswered_interaction_keeps_its_response() -> None:
    interaction = _interaction()
    release_answered(interaction)  # never asked for: nothing to do
    response = interaction.response
    release_answered(interaction)  # not answered yet: a later task may answer it
    assert interaction.response is response and not response.is_done()


def test_the_trimmer_runs_where_glibc_is_and_does_nothing_elsewhere() -> None:
    trimmer = Trimmer()
    trimmer.trim()
    assert trimmer.trims == (1 if trimmer.available else 0)


def test_the_allocator_is_tuned_where_glibc_is() -> None:
    assert tune_allocator() == Trimmer().available


async def test_the_trimmers_chores_run_before_each_timed_trim_even_without_glibc() -> None:
    trimmer = Trimmer(every=0.01)
    trimmer._libc = None  # as on macOS or musl: no trim, the chores all the same
    ran: list[int] = []

    def failing() -> None:
        raise RuntimeError("a broken chore does not stop the others")

    trimmer.chores += [failing, lambda: ran.append(trimmer.trims)]
    trimmer.start(asyncio.get_running_loop())
    try:
        await asyncio.sleep(0.1)
    finally:
        trimmer.stop()
    assert ran and ran[0] == 0
