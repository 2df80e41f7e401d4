"""Poker nights that repeat, a game picked by a native Discord poll, a series cancelled or
moved in one command, and a tournament table that breaks up: all through the emulator."""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

from tests.bot.driver import (
    act_at_a_table,
    opener,
    two_table_tournament,
)
from tests.emulator import Emulator, World

SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4


def at(text: str) -> float:
    return datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.UTC).timestamp()


def starts(event: dict[str, Any]) -> float:
    return datetime.datetime.fromisoformat(event["scheduled_start_time"]).timestamp()


async def move_night(emu: Emulator, world: World, night: int, when: str) -> Any:
    """``/poker schedule move`` by the host."""
    return await emu.run_command(
        world.host, world.channel, "poker schedule move", {"night": night, "when": when}
    )


def set_clock(bot: Any, when: float) -> Any:
    cog = bot.get_cog("Tournaments")
    cog.clock = lambda: when
    return cog


async def weekly_night(emu: Emulator, world: World, bot: Any, kind: str) -> Any:
    """A weekly night of ``kind`` set at 18:00 for 20:00 on 30 January 2027; the
    Tournaments cog, its clock at 18:00."""
    cog = set_clock(bot, at("2027-01-30 18:00"))
    r = await emu.run_command(
        world.host,
        world.channel,
        "poker schedule create",
        {"when": "2027-01-30 20:00", "kind": kind, "repeat": "weekly"},
    )
    assert not r.ephemeral, r.content
    return cog


async def test_a_weekly_night_opens_ends_and_the_next_one_is_on_the_calendar(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    cog = set_clock(bot, at("2027-01-30 18:00"))
    r = await emu.run_command(
        world.host,
        world.channel,
        "poker schedule create",
        {"when": "2027-01-30 20:00", "kind": "table", "repeat": "weekly"},
    )
    assert not r.ephemeral and "every week" in r.content, r.content
    (first,) = emu.scheduled_events
    assert starts(first) == at("2027-01-30 20:00") and first["status"] == SCHEDULED
    assert "Repeats every week" in first["description"]

    # Its time: the table opens, the event is live, and next week's night is already listed.
    set_clock(bot, at("2027-01-30 20:00") + 30)
    await cog.nights.run_schedules()
    await emu.idle()
    live = bot.tables.in_channel(world.channel.id)
    assert live is not None
    assert first["status"] == ACTIVE
    assert len(emu.scheduled_events) == 2
    following = emu.scheduled_events[1]
    assert starts(following) == at("2027-02-06 20:00") and following["status"] == SCHEDULED
    (pending,) = await bot.db.pending_schedules(at("2027-03-01 00:00"))
    assert pending.starts_at == at("2027-02-06 20:00") and pending.repeat == "weekly"

    # The table closes: tonight's event is completed, next week's stays.
    r = await emu.run_command(world.host, world.channel, "poker end", {})
    assert not r.ephemeral, r.content
    await emu.wait_for(lambda: first["status"] == COMPLETED, timeout=5)
    assert following["status"] == SCHEDULED
    # Running the poller again makes no second copy of next week.
    await cog.nights.run_schedules()
    assert len(emu.scheduled_events) == 2


async def test_a_poll_a_day_before_picks_the_game(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    cog = set_clock(bot, at("2027-03-01 12:00"))
    for poll, why in (
        ("anaconda", "2 to 5"),
        ("anaconda, anaconda", "2 to 5"),
        ("anaconda, bingo", "“bingo”"),
        ("anaconda shotgun q-ball diablo johnson four-before", "2 to 5"),
    ):
        r = await emu.run_command(
            world.host, world.channel, "poker schedule create", {"when": "in 2d", "poll": poll}
        )
        assert r.ephemeral and why in r.content, (poll, r.content)
    r = await emu.run_command(
        world.host,
        world.channel,
        "poker schedule create",
        {"when": "in 30m", "poll": "anaconda, shotgun"},
    )
    assert r.ephemeral and "an hour from now" in r.content, r.content
    assert emu.scheduled_events == []
    r = await emu.run_command(
        world.host,
        world.channel,
        "poker schedule create",
        {"when": "in 2d", "kind": "table", "poll": "anaconda, shotgun"},
    )
    assert not r.ephemeral and "poll" in r.content, r.content
    night = at("2027-03-03 12:00")
    # Moving it keeps the hour people need to vote, as setting it does.
    (pending,) = await bot.db.pending_schedules(night + 1)
    r = await move_night(emu, world, pending.schedule_id, "in 30m")
    assert r.ephemeral and "an hour from now" in r.content, r.content
    assert (await bot.db.schedule(pending.schedule_id)).starts_at == night

    def polls() -> list[Any]:
        return [m for m in emu.channel_messages(world.channel) if m.poll is not None]

    # Two days ahead: no poll yet. A day ahead: the poll, listing the games in order.
    await cog.nights.run_schedules()
    assert polls() == []
    set_clock(bot, night - 86400 + 60)
    await cog.nights.run_schedules()
    await cog.nights.run_schedules()
    (message,) = polls()
    answers = [a["poll_media"]["text"] for a in message.poll["answers"]]
    assert answers == ["Anaconda (pass the trash)", "Shotgun (roll 'em out)"], answers
    alice, bob, carol = world.players[:3]
    emu.vote(alice, message, 2)
    emu.vote(bob, message, 2)
    emu.vote(carol, message, 1)

    # Moved two hours later once the poll is up: a poll can't be edited, so the move says
    # the poll still decides, and no second poll opens.
    r = await move_night(emu, world, pending.schedule_id, "in 26h")
    assert not r.ephemeral and "still names the old day" in r.content, r.content
    old, night = night, night + 2 * 3600 + 60
    await cog.nights.run_schedules()
    assert polls() == [message]
    set_clock(bot, old + 30)
    await cog.nights.run_schedules()
    assert bot.tables.in_channel(world.channel.id) is None

    # The night: the poll is closed and its winner is the game on the table.
    set_clock(bot, night + 30)
    await cog.nights.run_schedules()
    await emu.idle()
    assert message.poll_finalized
    live = bot.tables.in_channel(world.channel.id)
    assert live is not None and live.engine.config.variant == "shotgun"
    texts = [m.text for m in emu.channel_messages(world.channel)]
    assert any("picked Shotgun (roll 'em out) (2 of 3 votes)" in t for t in texts), texts


async def test_a_poll_nobody_answers_keeps_the_nights_game(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    cog = set_clock(bot, at("2027-03-01 12:00"))
    r = await emu.run_command(
        world.host,
        world.channel,
        "poker schedule create",
        {"when": "in 3h", "kind": "table", "variant": "q-ball", "poll": "anaconda shotgun"},
    )
    assert not r.ephemeral, r.content
    # Less than a day ahead: the poll opens at once.
    await cog.nights.run_schedules()
    assert any(m.poll is not None for m in emu.channel_messages(world.channel))
    set_clock(bot, at("2027-03-01 15:00") + 1)
    await cog.nights.run_schedules()
    await emu.idle()
    live = bot.tables.in_channel(world.channel.id)
    assert live is not None and live.engine.config.variant == "q-ball"


async def test_a_series_is_moved_then_cancelled(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    cog = set_clock(bot, at("2027-01-20 12:00"))
    r = await emu.run_command(
        world.host,
        world.channel,
        "poker schedule create",
        {"when": "2027-01-25 20:00", "repeat": "monthly"},
    )
    assert not r.ephemeral, r.content
    (night,) = await bot.db.guild_schedules(world.guild.id)
    (event,) = emu.scheduled_events
    # The night option lists the server's nights to come.
    listed = await emu.autocomplete(
        world.host, world.channel, "poker schedule cancel", focused="night", value=""
    )
    assert [c["value"] for c in listed.choices] == [night.schedule_id], listed.choices
    assert "2027-01-25 20:00 UTC (every month)" in listed.choices[0]["name"]
    alice = world.players[0]
    for command, options in (
        ("poker schedule move", {"night": night.schedule_id, "when": "in 2d"}),
        ("poker schedule cancel", {"night": night.schedule_id}),
    ):
        refused = await emu.run_command(alice, world.channel, command, options)
        assert refused.ephemeral and "Manage" in refused.content, refused.content
    unknown = await emu.run_command(
        world.host, world.channel, "poker schedule cancel", {"night": night.schedule_id + 99}
    )
    assert unknown.ephemeral and "no poker night" in unknown.content, unknown.content

    # Moved to the 31st: the event moves, and the series counts its months from there.
    r = await move_night(emu, world, night.schedule_id, "2027-01-31 20:00")
    assert not r.ephemeral and "moved" in r.content, r.content
    await emu.idle()
    assert starts(event) == at("2027-01-31 20:00") and event["status"] == SCHEDULED
    (moved,) = await bot.db.guild_schedules(world.guild.id)
    assert moved.starts_at == at("2027-01-31 20:00")
    set_clock(bot, at("2027-01-31 20:00") + 5)
    await cog.nights.run_schedules()
    await emu.idle()
    assert event["status"] == ACTIVE
    # February has no 31st: the next night is its last day.
    (following,) = await bot.db.guild_schedules(world.guild.id)
    assert following.starts_at == at("2027-02-28 20:00")
    assert following.series_id == night.series_id
    next_event = emu.scheduled_events[-1]
    assert starts(next_event) == at("2027-02-28 20:00")

    # Cancelled: its event is cancelled and nothing comes after it.
    r = await emu.run_command(
        world.host, world.channel, "poker schedule cancel", {"night": following.schedule_id}
    )
    assert not r.ephemeral and "cancelled" in r.content, r.content
    await emu.idle()
    assert next_event["status"] == CANCELED
    assert await bot.db.guild_schedules(world.guild.id) == []
    count = len(emu.scheduled_events)
    set_clock(bot, at("2027-02-28 20:00") + 5)
    await cog.nights.run_schedules()
    assert len(emu.scheduled_events) == count
    again = await emu.run_command(
        world.host, world.channel, "poker schedule cancel", {"night": following.schedule_id}
    )
    assert again.ephemeral and "no poker night" in again.content


async def test_a_broken_up_table_says_where_everyone_went_and_is_archived(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    _, run = await two_table_tournament(
        emu, world, bot, ("erin",), starting_stack=20, players=5, payouts="winner"
    )
    players = list(world.players)  # five: a table of three and a table of two
    tid = run.tournament_id
    threads = {t.id: t for t in emu.threads(world.channel)}

    def tables() -> list[Any]:
        return [t for t in bot.tables.tables.values() if t.meta.tournament == tid]

    # Play until one table is left (the other broke up), then look at the one that went.
    for _ in range(3000):
        await emu.idle()
        live = tables()
        if len(live) == 1 or run.state.status != "running":
            break
        await act_at_a_table(emu, world, bot, live, threads, players, policy=opener)
    else:
        raise AssertionError("no table broke up")
    await emu.idle()
    await asyncio.sleep(0.1)
    await emu.idle()
    (left,) = tables()
    gone = next(t for t in threads.values() if t.id != left.channel_id)
    said = [m.text for m in emu.channel_messages(gone) if "breaks up" in m.text]
    assert len(said) == 1, [m.text for m in emu.channel_messages(gone)]
    moved = [s.player_id for s in left.engine.seats if s is not None]
    names = {str(p.id): p for p in players}
    lines = said[0].splitlines()[1:]
    # Everyone who moved has a line with a link to the table they went to.
    assert lines and all(line.endswith(f"<#{left.channel_id}>") for line in lines), lines
    shown = {pid: names[pid].global_name or names[pid].username for pid in moved}
    movers = [pid for pid in moved if any(shown[pid] in line for line in lines)]
    assert len(movers) == len(lines), (lines, moved)
    assert gone.archived
    assert not threads[left.channel_id].archived


async def test_a_scheduled_tournament_called_off_completes_its_event(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    cog = set_clock(bot, at("2027-05-01 19:00"))
    r = await emu.run_command(
        world.host,
        world.channel,
        "poker schedule create",
        {"when": "2027-05-01 20:00", "repeat": "fortnightly"},
    )
    assert not r.ephemeral and "every other week" in r.content, r.content
    set_clock(bot, at("2027-05-01 20:00") + 1)
    await cog.nights.run_schedules()
    await emu.idle()
    first, following = emu.scheduled_events
    assert first["status"] == ACTIVE
    assert starts(following) == at("2027-05-15 20:00")
    r = await emu.run_command(world.host, world.channel, "poker tournament cancel", {})
    assert not r.ephemeral, r.content
    await emu.wait_for(lambda: first["status"] == COMPLETED, timeout=5)
    assert following["status"] == SCHEDULED


async def test_a_night_whose_message_discord_refuses_ends_failed_and_opens_nothing(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The channel refuses the bot's messages (permissions taken away): the night opened its
    game, the post failed, and the night stayed pending, its round failing every 20 seconds
    with the game left open unseen (a lobby nobody could register at). Now the reminder's
    failure is only logged, and the game that cannot be shown is closed again: the night
    ends failed, its event cancelled, and the next round has nothing to do."""
    bot = await poker_bot()
    cog = set_clock(bot, at("2027-01-30 18:00"))
    for when, kind in (("2027-01-30 20:00", "tournament"), ("2027-01-30 21:00", "table")):
        r = await emu.run_command(
            world.host, world.channel, "poker schedule create", {"when": when, "kind": kind}
        )
        assert not r.ephemeral, r.content
    emu.faults.error(
        "POST /channels/{channel_id}/messages",
        status=403,
        code=50013,
        message="Missing Permissions",
        count=1000,
    )
    set_clock(bot, at("2027-01-30 19:55"))
    await cog.nights.run_schedules()  # the reminder fails: logged, the round goes on
    for hour in ("20:00", "21:00"):
        set_clock(bot, at(f"2027-01-30 {hour}") + 30)
        await cog.nights.run_schedules()
        await cog.nights.run_schedules()  # a second round finds nothing left to open
        await emu.idle()
    assert await bot.db.pending_schedules(at("2027-03-01 00:00")) == []
    for night in (1, 2):
        game = await bot.db.schedule(night)
        assert game is not None and game.status == "failed", game
    assert [e["status"] for e in emu.scheduled_events] == [CANCELED, CANCELED]
    assert await bot.db.open_tournaments() == [] and not cog.running
    assert bot.tables.in_channel(world.channel.id) is None
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok, str(audit)


async def test_a_weekly_night_closes_last_weeks_empty_table_and_opens_its_own(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Nobody ended last week's table, and everyone stood up from it: this week's night
    closes it (its event completed) and opens its own. With someone still seated, it is
    left alone, and the night says why it could not open."""
    bot = await poker_bot()
    cog = await weekly_night(emu, world, bot, "table")
    set_clock(bot, at("2027-01-30 20:00") + 30)
    await cog.nights.run_schedules()
    await emu.idle()
    first_table = bot.tables.in_channel(world.channel.id)
    alice = world.players[0]
    r = await emu.run_command(alice, world.channel, "poker join", {})
    r = await emu.run_command(alice, world.channel, "poker leave", {})
    assert await bot.db.balance(world.guild.id, alice.id) == 1000

    set_clock(bot, at("2027-02-06 20:00") + 30)
    await cog.nights.run_schedules()
    await emu.idle()
    second_table = bot.tables.in_channel(world.channel.id)
    assert second_table is not None and second_table.id != first_table.id
    assert first_table.closed
    first, second, third = emu.scheduled_events
    assert (first["status"], second["status"], third["status"]) == (COMPLETED, ACTIVE, SCHEDULED)
    assert not any("could not open" in m.text for m in emu.channel_messages(world.channel))

    # Someone still sits at it a week later: the table stays, the night does not open.
    r = await emu.run_command(alice, world.channel, "poker join", {})
    assert second_table.seated(alice.id), r.content
    set_clock(bot, at("2027-02-13 20:00") + 30)
    await cog.nights.run_schedules()
    await emu.idle()
    assert bot.tables.in_channel(world.channel.id) is second_table and not second_table.closed
    assert third["status"] == CANCELED and second["status"] == ACTIVE
    said = [m.text for m in emu.channel_messages(world.channel) if "could not open" in m.text]
    assert len(said) == 1 and "already has a table" in said[0], said


async def test_a_night_whose_event_discord_holds_up_is_answered_in_time(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Discord holds the night's Discord event up for 3.5 s (a 429): the command is
    acknowledged within its 3 seconds, the night is set once, and the channel hears it."""
    bot = await poker_bot()
    set_clock(bot, at("2027-01-30 18:00"))
    emu.faults.rate_limit("POST /guilds/{guild_id}/scheduled-events", count=1, retry_after=3.5)
    r = await emu.run_command(
        world.host,
        world.channel,
        "poker schedule create",
        {"when": "2027-01-30 20:00", "kind": "table"},
    )
    assert r.deferred and r.ephemeral
    said = await emu.wait_for(
        lambda: next((m for m in r.followups if not m.ephemeral), None), timeout=10
    )
    assert "Poker night" in said.text, said.text
    (night,) = await bot.db.pending_schedules(at("2027-03-01 00:00"))
    assert night.event_id is not None and len(emu.scheduled_events) == 1


async def test_a_weekly_tournament_night_calls_off_last_weeks_empty_lobby(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Nobody registered for last week's tournament: this week's night calls that lobby off
    (its event completed) and opens its own."""
    bot = await poker_bot()
    cog = await weekly_night(emu, world, bot, "tournament")
    set_clock(bot, at("2027-01-30 20:00") + 30)
    await cog.nights.run_schedules()
    await emu.idle()
    (old,) = cog.running.values()
    set_clock(bot, at("2027-02-06 20:00") + 30)
    await cog.nights.run_schedules()
    await emu.idle()
    (new,) = cog.running.values()
    assert new.tournament_id != old.tournament_id and old.state.status == "cancelled"
    first, second, _third = emu.scheduled_events
    assert (first["status"], second["status"]) == (COMPLETED, ACTIVE)


async def test_a_night_cancelled_while_it_opens_is_not_undone(
    poker_bot, emu: Emulator, world: World
) -> None:
    """An admin cancels a weekly night while the bot is opening it (Discord slow to take the
    lobby): the cancel waits for the opening, then says the night is no longer to come, and
    the series' next night, made by the opening, is there to cancel (before, the admin was
    told it was cancelled while the night opened and the series went on)."""
    bot = await poker_bot()
    cog = await weekly_night(emu, world, bot, "tournament")
    (night,) = await bot.db.guild_schedules(world.guild.id)
    set_clock(bot, at("2027-01-30 20:00") + 1)
    emu.faults.rate_limit("POST /channels/{channel_id}/messages", count=1, retry_after=1.0)
    poller = asyncio.ensure_future(cog.nights.run_schedules())
    await asyncio.sleep(0.3)
    r = await emu.run_command(
        world.host, world.channel, "poker schedule cancel", {"night": night.schedule_id}
    )
    await poller
    await emu.idle()
    said = [m.text for m in r.followups] or [r.content]
    assert any(f"no poker night\u00a0#{night.schedule_id} to come" in t for t in said), said
    assert (await bot.db.schedule(night.schedule_id)).status == "opened"
    (following,) = await bot.db.guild_schedules(world.guild.id)
    r = await emu.run_command(
        world.host, world.channel, "poker schedule cancel", {"night": following.schedule_id}
    )
    assert "cancelled" in r.content, r.content
    assert await bot.db.guild_schedules(world.guild.id) == []


async def test_the_nights_of_a_deleted_channel_are_cancelled(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A moderator deletes the channel of a weekly night: its nights to come are cancelled,
    with their Discord event (they opened nowhere, a new event every week)."""
    bot = await poker_bot()
    await weekly_night(emu, world, bot, "table")
    (event,) = emu.scheduled_events
    world.channel.deleted = True
    emu.dispatch("CHANNEL_DELETE", world.channel.to_dict())
    await emu.wait_for(lambda: event["status"] == CANCELED, timeout=5)
    assert await bot.db.guild_schedules(world.guild.id) == []
