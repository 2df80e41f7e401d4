"""A tournament and a poker night in the pseudo-language ``en-XA``: every word they write goes
through the localisation layer (a plain English word left is a string that escaped it), and
every payload stays within Discord's limits with texts 40 % longer than English."""

from __future__ import annotations

import datetime
import re
from typing import Any

from babel.dates import format_skeleton

from cogs.tournament.nights import (
    POLL_ANSWER_LIMIT,
    POLL_QUESTION_LIMIT,
    event_description,
    night_choice,
    night_title,
    poll_question,
    set_text,
)
from cogs.tournament.run import variant_name
from cogs.translator import _
from i18n import PSEUDO
from tests.emulator import Emulator, World
from tests.emulator import limits as discord_limits

# Discord's markup carries no words: mentions, channel links, timestamps (<t:1:R>).
_MARKUP = re.compile(r"<[@#t][^>]*>")
_ENGLISH = re.compile(r"[A-Za-z]{2,}")


def escaped(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """The plain English words of ``text``, a text rendered in ``en-XA`` (whose letters are all
    accented): Discord's markup and the ``allowed`` words (players' names) aside."""
    text = _MARKUP.sub(" ", text)
    for word in allowed:
        text = text.replace(word, " ")
    return _ENGLISH.findall(text)


def message_texts(message: Any) -> list[str]:
    """Every text a message shows: content, embeds (title, description, fields, footer), labels."""
    texts = [message.content or ""]
    for embed in message.embeds:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts.append((embed.get("footer") or {}).get("text") or "")
        for field in embed.get("fields") or []:
            texts += [field.get("name") or "", field.get("value") or ""]
    texts += [label or "" for label in message.button_labels]
    return [text for text in texts if text]


def over_limits(message: Any) -> list[str]:
    """What of a message Discord would refuse as too long."""
    found = []
    if len(message.content or "") > discord_limits.MESSAGE_CONTENT:
        found.append("content")
    for embed in message.embeds:
        if len(embed.get("title") or "") > discord_limits.EMBED_TITLE:
            found.append(f"title {embed['title']!r}")
        if len(embed.get("description") or "") > discord_limits.EMBED_DESCRIPTION:
            found.append("description")
        if discord_limits.embed_size(embed) > discord_limits.EMBED_TOTAL:
            found.append("embed total")
        for field in embed.get("fields") or []:
            if len(field.get("name") or "") > discord_limits.EMBED_FIELD_NAME:
                found.append(f"field name {field['name']!r}")
            if len(field.get("value") or "") > discord_limits.EMBED_FIELD_VALUE:
                found.append(f"field value of {field['name']!r}")
    found += [
        f"label {label!r}"
        for label in message.button_labels
        if len(label or "") > discord_limits.BUTTON_LABEL
    ]
    return found


async def test_a_tournament_lobby_and_its_refusals_in_the_pseudo_language(
    poker_bot: Any, emu: Emulator, world: World
) -> None:
    await poker_bot()
    world.guild.locale = "en-XA"
    for user in world.users:
        user.locale = "en-XA"
    names = tuple(
        name for user in world.users for name in (user.username, user.global_name) if name
    )
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        # Every field of the lobby: late registration and dealer's choice ("Also").
        {"buy_in": 50, "seats": 3, "late_reg_levels": 2, "dealers_choice": True},
    )
    assert created.type == 4 and not created.ephemeral, created.content
    lobby = created.message
    assert lobby is not None
    register = _("Register", language=PSEUDO)
    assert register in lobby.button_labels, lobby.button_labels
    r = await emu.click(world.players[0], lobby, label=register)
    assert r.type == 7, r.content

    # A refusal of the cog (only the creator starts), one of the engine (not registered), and
    # the ephemeral status: each in the member's language.
    refused = await emu.click(world.players[1], lobby, label=_("Start", language=PSEUDO))
    assert refused.ephemeral and refused.content, refused.content
    engine_refused = await emu.click(
        world.players[1], lobby, label=_("Unregister", language=PSEUDO)
    )
    assert engine_refused.ephemeral and engine_refused.content, engine_refused.content
    status = await emu.run_command(world.players[0], world.channel, "poker tournament status", {})
    assert status.ephemeral and status.embeds, status.content

    lobby_id = lobby.id
    lobby = next(m for m in emu.channel_messages(world.channel) if m.id == lobby_id)
    shown = [lobby, refused.message, engine_refused.message, status.message]
    for message in shown:
        assert not over_limits(message), over_limits(message)
        for text in message_texts(message):
            assert not escaped(text, names), (escaped(text, names), text)
    fields = {f["name"] for f in lobby.embeds[0]["fields"]}
    assert len(fields) >= 7, fields  # buy-in, stack, pool, payouts, levels, also, players


def test_a_poker_night_says_it_all_in_the_pseudo_language_within_discord_limits() -> None:
    """The night's event, poll and announcements (rendered without Discord: the night's own
    flow is in tests/bot/test_nights.py)."""
    starts = datetime.datetime(2027, 1, 29, 20, 0, tzinfo=datetime.UTC).timestamp()
    for kind in ("tournament", "table"):
        title = night_title(kind, "five-card-draw", PSEUDO)
        assert len(title) <= 100 and not escaped(title), title
    for repeat in ("none", "weekly", "fortnightly", "monthly"):
        description = event_description("poker", 1000, repeat, PSEUDO)
        assert len(description) <= 1000 and not escaped(description, ("poker",)), description
        text = set_text(title, starts, repeat, variant_name("anaconda", PSEUDO), False, PSEUDO)
        assert len(text) <= 2000 and not escaped(text), text
        with_choice = night_choice(12, title, "2027-01-29 20:00 UTC", repeat)
        assert len(with_choice) <= 100, with_choice
    # The day is Babel's, in the language's own words (en-XA's are English ones).
    day = format_skeleton(
        "MMMEd", datetime.datetime.fromtimestamp(starts, datetime.UTC), locale="en"
    )
    question = poll_question(starts, PSEUDO)
    assert len(question) <= POLL_QUESTION_LIMIT and not escaped(question, (day,)), question
    for slug in ("anaconda", "shotgun", "five-card-draw"):
        answer = variant_name(slug, PSEUDO)[:POLL_ANSWER_LIMIT]
        assert answer and not escaped(answer), answer


# A forged option the client never sends, refused in the member's language: the option's name
# inside the sentence is translated too. The values the bot lists as accepted are Discord's own
# choice values (sent as typed), so they may stay as they are.
FORGED_NIGHT: tuple[tuple[str, dict[str, Any]], ...] = (
    ("poker schedule create", {"when": "2027-01-30 20:00", "kind": "casino"}),
    ("poker schedule create", {"when": "2027-01-30 20:00", "repeat": "daily"}),
    ("poker schedule create", {"when": "2027-01-30 20:00", "poll": "anaconda\x01shotgun"}),
    ("poker schedule create", {"when": "2027-01-30 20:00", "payouts": "6" * 101}),
    ("poker schedule cancel", {"night": 0}),
    ("poker schedule move", {"night": 2**63, "when": "2027-01-30 20:00"}),
    ("poker tournament create", {"dealers_choice": "yes"}),
    ("poker tournament create", {"payouts": 65}),
    # A game not in the catalogue (the engine's own sentence was English).
    ("poker schedule create", {"when": "in 2h", "variant": "nope"}),
    ("poker tournament create", {"variant": "nope"}),
)
# What the member typed is quoted as typed.
CHOICE_VALUES = ("tournament", "table", "none", "weekly", "fortnightly", "monthly", "nope")
# Options are named as the slash menu writes them, in every language (validation.option).
OPTION_NAMES = ("kind", "repeat", "poll", "payouts", "night", "dealers_choice")


async def test_a_forged_night_or_tournament_option_is_refused_in_the_members_language(
    poker_bot: Any, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    world.guild.locale = "en-XA"
    world.host.locale = "en-XA"
    for command, options in FORGED_NIGHT:
        r = await emu.run_forged_command(world.host, world.channel, command, options)
        assert r.ephemeral and r.content, (command, options, r.content)
        found = escaped(r.content, CHOICE_VALUES + OPTION_NAMES)
        assert not found, (options, found, r.content)
        named = [name for name in options if name in OPTION_NAMES]
        if named:  # "The {option} option", translated around the menu's name
            assert f"{named[0]} öþŧîöñ" in r.content, (options, r.content)
    assert not await bot.db.pending_schedules(2**40)
    assert not emu.scheduled_events
    assert bot.tables.in_channel(world.channel.id) is None
    emu.assert_clean()
