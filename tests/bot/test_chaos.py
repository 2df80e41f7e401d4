"""Players pressing at random while Discord fails at random (5xx, 429s, closed DMs).

A random game of the catalogue is played for a few hundred steps: mostly the player to act
makes a random legal-looking choice through the table message and their panels, sometimes
anyone presses anything on the table, a panel or a DM, with any values. Meanwhile Discord
answers some calls with 500/502/503 or 429s and some players close their DMs.

Throughout: every interaction is answered within Discord's 3 seconds and no handler errs.
After Discord recovers: the table message catches up with the table by itself, a hand plays
to its end, the chip audit holds, and nothing was logged as an error. (Runs like this found the
presses left unanswered behind a change held up by Discord, and the table left behind by a
refused edit: see tests/bot/test_discord_faults.py; these seeds failed before.)
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import engine
from cogs.transport import ALREADY_ANSWERED
from tests.bot.driver import (
    act_once,
    create_table,
    find_table_message,
    live_table,
    nothing_logged_as_error,
    play_hand,
    shows_now,
)
from tests.emulator import Emulator, World
from tests.emulator.drivers import NoResponse, UserActionError

VARIANTS = [v.slug for v in engine.list_variants()]
STEPS = 200
TYPED = ["", "0", "1", "-3", "abc", "1e9", " 7 ", "9" * 25, "½", "10.5"]
CHOICES = ("Check", "Call", "Bet", "Raise", "Fold", "All-in", "Min", "Pot")
DMS_CLOSED = 50007


def _usable(message: Any) -> list[dict[str, Any]]:
    return [
        c
        for c in message.buttons + message.selects
        if not c.get("disabled") and "custom_id" in c and (c["type"] != 2 or c.get("label"))
    ]


def _form(rng: random.Random, modal: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for row in modal.get("components") or []:
        field = row["components"][0] if row.get("type") == 1 else row.get("component")
        if not field or "custom_id" not in field:
            continue
        if field.get("type") == 4:
            values[field["custom_id"]] = rng.choice([*TYPED, str(rng.randrange(400))])
        elif field.get("options"):
            options = [o["value"] for o in field["options"]]
            most = min(len(options), field.get("max_values", 1))
            values[field["custom_id"]] = rng.sample(options, rng.randint(1, most))
    return values


async def _press_anything(emu: Emulator, rng: random.Random, user: Any, message: Any) -> Any:
    usable = _usable(message)
    if not usable:
        return None
    component = rng.choice(usable)
    if component["type"] == 2:
        if component["label"].startswith(("Leave", "Stand")):
            return None  # a player leaving would end the game early
        answer = await emu.click(user, message, custom_id=component["custom_id"])
    else:
        options = [o["value"] for o in component.get("options") or []]
        if not options:
            return None
        most = max(1, min(len(options), component.get("max_values", 1)))
        picked = rng.sample(options, rng.randint(1, most))
        answer = await emu.select(user, message, component["custom_id"], picked)
    if answer.type == 9:
        answer = await emu.submit_modal(user, answer, _form(rng, answer.modal))
    return answer


def remember_panel(panels: dict[int, Any], user: Any, answer: Any) -> None:
    """Keep the private panel a press opened (a followup of a deferred press, or the press's
    own ephemeral answer), for the player's later presses on it."""
    if answer.type == 6 and answer.followups:
        panels[user.id] = answer.followups[-1]
    elif answer.message is not None and answer.message.ephemeral and _usable(answer.message):
        panels[user.id] = answer.message


def somewhere_to_press(
    emu: Emulator, place: World, user: Any, panels: dict[int, Any], spot: float
) -> Any:
    """A message ``user`` could press on, by ``spot`` (a random number): the table message
    of ``place`` (or its channel's newest message with components), their last panel, or
    their newest DM with components; None when there is none."""
    if spot < 0.5:
        message = find_table_message(emu, place)
        if message is None:
            messages = [m for m in emu.channel_messages(place.channel) if _usable(m)]
            message = messages[-1] if messages else None
        return message
    if spot < 0.8:
        return panels.get(user.id)
    dms = [m for m in emu.dms(user) if _usable(m)]
    return dms[-1] if dms else None


async def press_somewhere(
    emu: Emulator,
    rng: random.Random,
    user: Any,
    place: World,
    panels: dict[int, Any],
    spot: float,
) -> None:
    """``user`` presses anything on a message of :func:`somewhere_to_press` (``spot``),
    with any values; a panel it opens is kept in ``panels``."""
    message = somewhere_to_press(emu, place, user, panels, spot)
    if message is None or message.deleted:
        return
    answer = await _press_anything(emu, rng, user, message)
    if answer is not None:
        remember_panel(panels, user, answer)


async def at_random_while_discord_fails(
    emu: Emulator,
    rng: random.Random,
    users: list[Any],
    someone_does_something: Callable[[], Awaitable[None]],
    steps: int,
    most: int,
) -> None:
    """``steps`` times, one to ``most`` players do something at once while Discord fails at
    random now and then; then Discord recovers (every DM open again)."""
    for _ in range(steps):
        if rng.random() < 0.04:
            _fail_something(emu, rng, users)
        await asyncio.gather(*(someone_does_something() for _ in range(rng.randint(1, most))))
        if rng.random() < 0.3:
            await emu.idle()
    emu.faults.clear()
    for user in users:
        emu.faults.open_dms(user)
    await emu.idle()


def _fail_something(emu: Emulator, rng: random.Random, seated: list[Any]) -> None:
    kind = rng.choice(["rest", "rest", "interaction_webhook"])
    pick = rng.random()
    if pick < 0.4:
        emu.faults.server_error(kind, count=rng.randint(1, 3), status=rng.choice([500, 502, 503]))
    elif pick < 0.8:
        retry = rng.choice([0.05, 0.5, 2.0])
        emu.faults.rate_limit(kind, count=rng.randint(1, 2), retry_after=retry)
    elif pick < 0.9:
        emu.faults.close_dms(rng.choice(seated))
    else:
        for user in seated:
            emu.faults.open_dms(user)


@pytest.mark.parametrize("seed", [2004, 2075])
async def test_random_play_while_discord_fails_at_random(
    poker_bot, emu: Emulator, world: World, seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    rng = random.Random(seed)
    bot = await poker_bot()
    players = list(world.players)
    rng.shuffle(players)
    seated = players[: rng.randint(2, len(players))]
    options: dict[str, Any] = {"variant": rng.choice(VARIANTS), "auto_deal": 1}
    if rng.random() < 0.5:
        options["betting"] = rng.choice(["no-limit", "pot-limit", "fixed-limit"])
    options["coach"] = rng.random() < 0.3
    options["dealers_choice"] = rng.random() < 0.3
    await create_table(emu, world, seated, **options)
    await emu.run_command(seated[0], world.channel, "poker start", {})
    live = live_table(bot, world)
    panels: dict[int, Any] = {}
    for _ in range(STEPS):
        if rng.random() < 0.05:
            _fail_something(emu, rng, seated)
        await emu.idle()
        pending = live.engine.pending
        if not live.engine.in_hand and not pending:
            if rng.random() < 0.3:
                await emu.run_command(rng.choice(seated), world.channel, "poker start", {})
            continue
        if pending and find_table_message(emu, world) is not None and rng.random() < 0.6:

            def any_choice(decision: engine.Decision, labels: list[str]) -> str:
                usable = [label for label in labels if label and label.split(" ")[0] in CHOICES]
                return rng.choice(usable) if usable else "Fold"

            try:
                await act_once(
                    emu,
                    world,
                    bot,
                    pending[0],
                    policy=any_choice,
                    rng=rng,
                    declare=rng.choice(["High", "Low", "Both ways"]),
                )
            except NoResponse:
                raise
            except (UserActionError, AssertionError, TimeoutError):
                # Refused (a stale table while Discord is failing, a choice out of range) or
                # a panel whose followup Discord is still holding: a player's next try.
                pass
            continue
        user = rng.choice(world.players)
        where = rng.random()
        if where < 0.6:
            message = find_table_message(emu, world)
        elif where < 0.9:
            message = panels.get(user.id)
        else:
            dms = [m for m in emu.dms(user) if _usable(m)]
            message = dms[-1] if dms else None
        if message is None or message.deleted:
            continue
        try:
            answer = await _press_anything(emu, rng, user, message)
        except UserActionError:
            continue  # something the Discord client would not let them do
        if answer is not None:
            remember_panel(panels, user, answer)

    # Discord recovers: the table catches up by itself, and a hand plays to its end.
    emu.faults.clear()
    for user in seated:
        emu.faults.open_dms(user)
    await emu.idle()
    if live.engine.in_hand and live.engine.pending:
        await emu.wait_for(
            lambda: shows_now(find_table_message(emu, world), live),
            timeout=45,
            message="the table message stayed behind",
        )
        await play_hand(emu, world, bot)
    await emu.idle()
    await came_through(bot, emu, world, caplog)


def answer_dropped(emu: Emulator) -> bool:
    """Whether every interaction left unanswered had its answer fail twice (a connection
    dropped, a 5xx): the bot sends an answer again once, and Discord takes none after 3 s."""
    unanswered = {f.interaction_id for f in emu.failures if f.kind == "no_response"}
    return bool(unanswered) and unanswered <= _failed_answers(emu, 2)


def _failed_answers(emu: Emulator, times: int = 1) -> set[int]:
    """The interactions whose answer Discord failed at least ``times`` times."""
    failed = Counter(
        c.interaction_id
        for c in emu.calls
        if c.fault in ("disconnect", "server_error") and c.kind == "interaction_callback"
    )
    return {i for i, n in failed.items() if i is not None and n >= times}


def forgive_drops(emu: Emulator) -> None:
    """Take out of the emulator's record what Discord failing the bot leaves as Discord would:
    presses whose answer failed twice (dropped, or a 5xx), and the refusals of a second answer
    (40060) or a second deletion (404) after a first carried out without its reply. A second
    deletion may take the channel's route after the interaction's webhook said the message was
    unknown (an answer that cannot tell "gone" from "not this interaction's"), so deletions
    are matched by the message's id."""
    answers = _failed_answers(emu)
    deleted = {
        c.path.rsplit("/", 1)[-1]
        for c in emu.calls
        if c.fault == "disconnect" and c.method == "DELETE"
    }

    def forgiven(call: Any) -> bool:
        code = call.response.get("code") if isinstance(call.response, dict) else None
        if call.interaction_id in answers and code == ALREADY_ANSWERED:
            return True
        gone = call.path.rsplit("/", 1)[-1] in deleted
        return call.method == "DELETE" and gone and call.status == 404

    twice = _failed_answers(emu, 2)
    emu.failures[:] = [f for f in emu.failures if f.interaction_id not in twice]
    emu.errors[:] = [c for c in emu.errors if not forgiven(c)]


async def came_through(
    bot: Any, emu: Emulator, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Every interaction was answered in time, no handler answered Discord an error (a DM
    to closed DMs aside), the server's chip audit holds, and nothing was logged as an
    error."""
    problems = [f"{f.kind}: {f.detail}" for f in emu.failures]
    problems += [
        f"{call.status} {call.key}: {call.response}"
        for call in emu.errors
        if not (isinstance(call.response, dict) and call.response.get("code") == DMS_CLOSED)
    ]
    assert not problems, problems
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok, str(audit)
    nothing_logged_as_error(caplog)
