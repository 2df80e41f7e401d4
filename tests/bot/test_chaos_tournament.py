"""A tournament on several tables while its players do anything at random and Discord fails.

Up to ten players register (a few do not); the tournament opens its tables (in threads when
they need more than one). Then batches of one to three players act at once: they register
and unregister on the lobby, start or call off the tournament, ask its status, rebuy, buy
the add-on, sit out and come back, type table commands at its tables, play the turn waiting
for them, press anything on a table, a panel or a DM; the host moves chips meanwhile, the
clock jumps a level ahead now and then, and the tournament settles its tables. Discord
answers some calls with 5xx or 429s, and some players close their DMs.

Throughout: every interaction is answered within Discord's 3 seconds. Then, Discord well
again: nothing was logged as an error, Discord saw no error from a handler (closed DMs
aside), the chip audit holds, nobody sits at two tables, and the tournament plays on to its
end, paid out, no chip left in it. These seeds found a Register left unanswered while the
start waited on Discord for the tables' threads (cogs.kit.held_in_time), and a panel opened
on an old copy of a table whose webhook then edited the table message (refused by Discord).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Any

import pytest

import engine
from tests.bot.driver import act_once, find_table_message
from tests.bot.test_chaos import (
    CHOICES,
    at_random_while_discord_fails,
    came_through,
    press_somewhere,
)
from tests.emulator import Emulator, World
from tests.emulator.drivers import NoResponse, UserActionError

NAMES = ("erin", "frank", "grace", "heidi", "ivan", "judy")
ADMIN = ["chips grant", "chips remove", "chips set"]
LOBBY = ["Register", "Unregister"]
ORGANISER = [
    "poker tournament status",
    "poker tournament rebuy",
    "poker tournament addon",
    "poker tournament start",
    "poker tournament cancel",
]
AT_A_TABLE = [
    "poker sitout",
    "poker back",
    "poker leave",
    "poker table",
    "poker start",
    "poker join",
    "poker rebuy",
]


def _boldest(decision: engine.Decision, labels: list[str]) -> str:
    """All-in when offered, else a bet or a raise of one press (a fixed limit's), else call,
    else check: a tournament that ends soon (at a fixed limit, which has no All-in, calling
    and checking down let two players trade blinds for a thousand hands)."""
    for wanted in ("All-in", "Raise to ", "Bet ", "Call", "Check"):
        for label in labels:
            if label.startswith(wanted):
                return label
    return "Fold"


@pytest.mark.parametrize(("seed", "steps"), [(5, 300), (79, 400)])
async def test_a_tournament_while_its_players_do_anything_and_discord_fails(
    poker_bot,
    emu: Emulator,
    world: World,
    seed: int,
    steps: int,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR)
    rng = random.Random(seed)
    bot = await poker_bot()
    for name in NAMES[: rng.randint(3, 6)]:
        user = emu.add_user(name)
        emu.add_member(world.guild, user)
        world.players.append(user)
    users = [world.host, *world.players]
    settings: dict[str, Any] = {
        "buy_in": rng.choice([10, 50]),
        "levels": 8,
        "level_minutes": rng.choice([0.05, 0.2, 5.0]),
        "seats": rng.choice([3, 4]),
        "auto_deal": rng.choice([0, 1]),
        "timer": 60,
        "players": 10,
    }
    if rng.random() < 0.5:
        settings["variant"] = rng.choice([v.slug for v in engine.list_variants()])
    if rng.random() < 0.5:
        settings |= {"rebuys": 2, "rebuy_levels": 3, "addon": 30}
    if rng.random() < 0.5:
        settings["starting_stack"] = rng.choice([10, 20, 30])
    created = await emu.run_command(world.host, world.channel, "poker tournament create", settings)
    assert created.type == 4 and not created.ephemeral, created.content
    lobby = created.message
    cog = bot.get_cog("Tournaments")
    run = next(iter(cog.running.values()))
    ahead = [0.0]
    cog.clock = lambda: time.time() + ahead[0]
    panels: dict[int, Any] = {}
    for user in users:
        if rng.random() < 0.9:
            try:
                await emu.click(user, lobby, label="Register")
            except UserActionError:
                break  # full: it started, and the lobby has no buttons any more
    await emu.idle()

    def tables() -> list[Any]:
        return cog.tables_of(run)

    def places() -> dict[int, World]:
        found = {world.channel.id: world}
        for thread in emu.threads(world.channel):
            found[thread.id] = World(world.guild, thread, world.host, world.players)
        return found

    def any_choice(decision: engine.Decision, labels: list[str]) -> str:
        usable = [label for label in labels if label and label.split(" ")[0] in CHOICES]
        return rng.choice(usable) if usable else "Fold"

    async def someone_does_something() -> None:
        user = rng.choice(users)
        where = places()
        acting = [t for t in tables() if t.engine.in_hand and t.engine.pending]
        pick = rng.random()
        try:
            if pick < 0.06:
                await emu.click(user, lobby, label=rng.choice(LOBBY))
            elif pick < 0.12:
                place = rng.choice(list(where.values()))
                await emu.run_command(user, place.channel, rng.choice(ORGANISER), {})
            elif pick < 0.16:
                place = rng.choice(list(where.values()))
                await emu.run_command(user, place.channel, rng.choice(AT_A_TABLE), {})
            elif pick < 0.20:
                member = rng.choice(users)
                amount = rng.choice([1, 5, 100, 1000])
                await emu.run_command(
                    world.host,
                    world.channel,
                    rng.choice(ADMIN),
                    {"member": member, "amount": amount},
                )
            elif pick < 0.22:
                ahead[0] += rng.choice([30, 300])
            elif pick < 0.25:
                await cog.settle(run)
            elif pick < 0.80 and acting:
                table = rng.choice(acting)
                place = where.get(table.channel_id)
                if place is None or find_table_message(emu, place) is None:
                    return
                declare = rng.choice(["High", "Low", "Both ways"])
                decision = table.engine.pending[0]
                await act_once(
                    emu, place, bot, decision, policy=any_choice, rng=rng, declare=declare
                )
            else:
                spot = rng.random()
                place = rng.choice(list(where.values()))
                await press_somewhere(emu, rng, user, place, panels, spot)
        except NoResponse:
            raise
        except (UserActionError, AssertionError, TimeoutError, IndexError):
            # Refused, stale, or something a Discord client would not let them do: their
            # next try.
            pass

    await at_random_while_discord_fails(emu, rng, users, someone_does_something, steps, 3)
    await came_through(bot, emu, world, caplog)
    seated = [s.player_id for t in tables() for s in t.engine.seats if s is not None]
    assert len(seated) == len(set(seated)), "a player sits at two tables"
    if run.state.status == "running":
        await _play_to_the_end(emu, world, bot, run, tables)
    assert run.state.status in ("finished", "cancelled"), run.state.status
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok and audit.in_tournaments == 0, str(audit)
    await came_through(bot, emu, world, caplog)


async def _play_to_the_end(emu: Emulator, world: World, bot: Any, run: Any, tables: Any) -> None:
    """Everyone back in and pushing their chips in, until the tournament is over."""
    cog = bot.get_cog("Tournaments")
    users = [world.host, *world.players]
    for _ in range(4000):
        await emu.idle()
        live = tables()
        if not live or run.state.status != "running":
            return
        where = {t.id: t for t in emu.threads(world.channel)}
        where[world.channel.id] = world.channel
        acting = [t for t in live if t.engine.in_hand and t.engine.pending]
        if acting:
            table = acting[0]
            place = World(world.guild, where[table.channel_id], world.host, world.players)
            if find_table_message(emu, place) is not None:
                try:
                    await act_once(emu, place, bot, table.engine.pending[0], policy=_boldest)
                except (AssertionError, UserActionError):
                    # A table message one change behind (Discord failed its edit before it
                    # recovered): the press redraws it.
                    await asyncio.sleep(0.1)
                continue
        for table in live:
            for seat in table.engine.seats:
                if seat is not None and seat.sitting_out:
                    user = next(u for u in users if str(u.id) == seat.player_id)
                    await emu.run_command(user, where[table.channel_id], "poker back", {})
        for table in live:
            if not table.engine.in_hand:
                seated = [u for u in users if table.seated(u.id)]
                if seated:
                    await emu.run_command(seated[0], where[table.channel_id], "poker start", {})
        await cog.settle(run)
        await asyncio.sleep(0.05)
    raise AssertionError("the tournament did not end")
