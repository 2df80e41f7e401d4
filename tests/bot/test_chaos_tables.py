"""Players at several tables at once, doing anything at random, together, while an admin
moves chips and Discord fails at random.

Three channels each hold a table (opened, ended and opened again at random). Batches of one
to four players act at once: they create tables, sit down with any buy-in, leave, rebuy, sit
out and come back, deal, play the turn waiting for them, press anything on a table, a panel
or a DM, claim the daily bonus; the host grants, sets and removes chips meanwhile. Discord
answers some calls with 5xx or 429s, and some players close their DMs.

One run does it with each member speaking a language of their own and the server another; one
of those also drops connections to Discord now and then, before or after Discord carried out
the request (cogs/transport.py).

Throughout: every interaction is answered within Discord's 3 seconds (but a press whose answer
the connection dropped twice: the bot sends an answer again once). At the end: nothing
was logged as an error, Discord saw no error from a handler (closed DMs aside), and the chip
audit of the server holds. These seeds found a refused change right after a deal that left
its table refusing every action (tables/records.saved_meta), /poker leave unanswered while
Discord held up the table, a Deal unanswered when the table had moved to a new message
while the press waited, and a panel drawn for a player who had stood up meanwhile; the
run in languages found My hand drawn for a player who stood up while it read their deck's
colours.
"""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

import engine
from i18n import LANGUAGES
from tests.bot.driver import act_once, find_table_message
from tests.bot.test_chaos import (
    CHOICES,
    answer_dropped,
    at_random_while_discord_fails,
    came_through,
    forgive_drops,
    press_somewhere,
)
from tests.emulator import Emulator, World
from tests.emulator.drivers import NoResponse, UserActionError

STEPS = 300
BUY_INS = [1, 20, 40, 100, 200, 1000, 10**6]
REBUYS = [1, 10, 50, 400, 10**6]
ADMIN = ["chips grant", "chips remove", "chips set"]


# Each member's client in a language (Korean: one the bot does not ship), the server in
# another: every text drawn in every language while Discord fails.
LOCALES = [language.code for language in LANGUAGES[1:]] + ["en-US", "ko"]
SERVER_LANGUAGES = [language.code for language in LANGUAGES[1:]]


@pytest.mark.parametrize(
    ("seed", "languages", "drops"),
    [(3, False, False), (45, False, False), (54, False, False), (44, True, False), (8, True, True)],
)
async def test_players_at_several_tables_at_once_while_discord_fails(
    poker_bot,
    emu: Emulator,
    world: World,
    seed: int,
    languages: bool,
    drops: bool,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR)
    rng = random.Random(seed)
    bot = await poker_bot()
    channels = [world.channel] + [emu.add_text_channel(world.guild, f"t{k}") for k in range(2)]
    places = {c.id: World(world.guild, c, world.host, world.players) for c in channels}
    users = [world.host, *world.players]
    if languages:
        for user in users:
            user.locale = rng.choice(LOCALES)
        language = rng.choice(SERVER_LANGUAGES)
        await emu.run_command(world.host, world.channel, "server settings", {"language": language})
    variants = [v.slug for v in engine.list_variants()]
    panels: dict[int, Any] = {}

    def any_choice(decision: engine.Decision, labels: list[str]) -> str:
        usable = [label for label in labels if label and label.split(" ")[0] in CHOICES]
        return rng.choice(usable) if usable else "Fold"

    async def someone_does_something() -> None:
        user = rng.choice(users)
        acting = [
            c
            for c in channels
            if (t := bot.tables.in_channel(c.id)) is not None and t.engine.pending
        ]
        channel = rng.choice(acting) if acting and rng.random() < 0.6 else rng.choice(channels)
        place = places[channel.id]
        live = bot.tables.in_channel(channel.id)
        pick = rng.random()
        if live is not None and rng.random() < 0.8:
            seated = [u for u in users if live.seated(u.id)]
            if seated and pick >= 0.20:
                user = rng.choice(seated)
        try:
            if live is None or pick < 0.05:
                options: dict[str, Any] = {"variant": rng.choice(variants)}
                if rng.random() < 0.5:
                    options["auto_deal"] = rng.choice([0, 1])
                if rng.random() < 0.3:
                    options["stake"] = rng.choice([1, 2, 5, 50])
                await emu.run_command(user, channel, "poker create", options)
            elif pick < 0.20:
                options = {}
                if rng.random() < 0.5:
                    options["buy_in"] = rng.choice(BUY_INS)
                await emu.run_command(user, channel, "poker join", options)
            elif pick < 0.24:
                await emu.run_command(user, channel, "poker leave", {})
            elif pick < 0.30:
                options = {}
                if rng.random() < 0.5:
                    options["amount"] = rng.choice(REBUYS)
                await emu.run_command(user, channel, "poker rebuy", options)
            elif pick < 0.33:
                await emu.run_command(user, channel, rng.choice(["poker sitout", "poker back"]), {})
            elif pick < 0.40:
                await emu.run_command(user, channel, "poker start", {})
            elif pick < 0.41:
                await emu.run_command(world.host, channel, "poker end", {})
            elif pick < 0.50:
                member = rng.choice(users)
                command = rng.choice(ADMIN)
                amount = rng.choice([1, 5, 100, 1000, 5000])
                await emu.run_command(
                    world.host, channel, command, {"member": member, "amount": amount}
                )
            elif pick < 0.53:
                await emu.run_command(user, channel, rng.choice(["balance", "daily"]), {})
            elif pick < 0.85 or (live.engine.pending and rng.random() < 0.7):
                pending = live.engine.pending
                if not pending or find_table_message(emu, place) is None:
                    return
                declare = rng.choice(["High", "Low", "Both ways"])
                await act_once(
                    emu, place, bot, pending[0], policy=any_choice, rng=rng, declare=declare
                )
            else:
                await press_somewhere(emu, rng, user, place, panels, rng.random())
        except NoResponse:
            raise
        except (UserActionError, AssertionError, TimeoutError, IndexError):
            # Refused, stale, or something a Discord client would not let them do (the
            # driver's own look at a table that moved on meanwhile): their next try.
            pass

    async def or_a_connection_drops() -> None:
        if rng.random() < 0.03:
            kind = rng.choice(["rest", "rest", "interaction_webhook", "interaction_callback"])
            emu.faults.disconnect(kind, count=rng.randint(1, 2), applied=rng.random() < 0.5)
        try:
            await someone_does_something()
        except NoResponse:
            if not answer_dropped(emu):
                raise

    step = or_a_connection_drops if drops else someone_does_something
    await at_random_while_discord_fails(emu, rng, users, step, STEPS, 4)
    forgive_drops(emu)
    await came_through(bot, emu, world, caplog)
