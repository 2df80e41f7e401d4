"""Poker nights: ``/poker schedule`` sets a game for later as a Discord scheduled event, pings
the event's interested users ten minutes before, and opens the table or tournament on time
(also one that fell due while the bot was down).

A cog of its own, loaded with the tournament cog (:class:`cogs.tournament.Tournaments`),
whose poller calls :meth:`PokerNights.run_schedules`; a scheduled tournament opens through
the same path as ``/poker tournament create``.
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs import kit, validation
from cogs.tournament.run import (
    TournamentProblem,
    check_organiser_perms,
    lobby_embed,
    parse_when,
    sentence,
)
from engine.tournament import Payouts
from tables.errors import Refusal
from tables.live import TableSettings

if TYPE_CHECKING:
    from cogs.app import PokerBot
    from cogs.tournament.cog import Tournaments

log = logging.getLogger("poker.tournament")

Interaction = discord.Interaction["PokerBot"]

REMIND_BEFORE = 600.0
"""Seconds before a scheduled game at which the channel is reminded."""

MAX_PINGS = 60
"""At most this many interested users are pinged by name (a message holds 2,000 characters)."""


class PokerNights(commands.Cog):
    """Scheduled games of the servers this process serves."""

    def __init__(self, bot: PokerBot, tournaments: Tournaments) -> None:
        self.bot = bot
        # Opens the scheduled tournaments, and keeps the time (one clock for both cogs).
        self.tournaments = tournaments

    @app_commands.command(
        name="schedule", description="Set a poker night: a Discord event, then the game opens."
    )
    @app_commands.describe(
        when="in 90m, in 2h, in 1d, or a UTC time like 2026-11-27 20:00",
        kind="A tournament (sit-and-go) or a cash table",
        variant="The game",
        buy_in="Tournament buy-in, in bankroll chips",
        seats="Seats at the table",
        starting_stack="Tournament chips each player starts with",
        levels="How many levels the tournament's schedule has",
        level_minutes="Minutes each tournament level lasts",
        payouts="winner, 65/35, 50/30/20, or percentages like 40/30/20/10",
    )
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="Tournament", value="tournament"),
            app_commands.Choice(name="Cash table", value="table"),
        ]
    )
    @app_commands.autocomplete(variant=kit.variant_choices)
    async def schedule(
        self,
        interaction: Interaction,
        when: str,
        kind: str = "tournament",
        variant: str = "five-card-draw",
        buy_in: kit.BuyInOption = 100,
        seats: kit.SeatsOption = 6,
        starting_stack: kit.StartingStackOption = 1000,
        levels: kit.LevelsOption = 12,
        level_minutes: kit.LevelMinutesOption = 10.0,
        payouts: str = "65/35",
    ) -> None:
        if interaction.guild is None or interaction.channel_id is None:
            raise TournamentProblem("Poker nights are set in server channels.")
        check_organiser_perms(interaction)
        kind = validation.check_choice(kind, "kind", ("tournament", "table"))
        variant = validation.check_variant_slug(variant)
        validation.BUY_IN.check(buy_in)
        validation.SEATS.check(seats)
        validation.STARTING_STACK.check(starting_stack)
        validation.LEVELS.check(levels)
        level_minutes = validation.LEVEL_MINUTES.number(level_minutes)
        payouts = validation.check_text(payouts, "payouts", 100)
        try:
            Payouts.parse(payouts)
        except ValueError as exc:
            raise TournamentProblem(sentence(str(exc))) from exc
        if not isinstance(when, str):
            raise TournamentProblem("when is text, like “in 2h”.")
        now = self.tournaments.clock()
        starts = parse_when(when, now)
        try:
            name = engine.get_variant(variant).name
            engine.TableConfig(variant=variant, max_seats=seats)
        except ValueError as exc:
            raise TournamentProblem(sentence(str(exc))) from exc
        options = {
            "variant": variant,
            "buy_in": buy_in,
            "seats": seats,
            "starting_stack": starting_stack,
            "levels": levels,
            "level_minutes": level_minutes,
            "payouts": payouts,
        }
        game = await self.bot.db.schedule_game(
            interaction.guild.id,
            interaction.channel_id,
            interaction.user.id,
            kind,
            json.dumps(options),
            starts,
        )
        title = f"Poker night: {name} {'tournament' if kind == 'tournament' else 'cash game'}"
        channel_name = getattr(interaction.channel, "name", "the poker channel")
        event_id: int | None = None
        try:
            start_time = datetime.datetime.fromtimestamp(starts, datetime.UTC)
            event = await interaction.guild.create_scheduled_event(
                name=title[:100],
                start_time=start_time,
                end_time=start_time + datetime.timedelta(hours=3),
                entity_type=discord.EntityType.external,
                location=f"#{channel_name}",
                privacy_level=discord.PrivacyLevel.guild_only,
                description=f"Opens in #{channel_name} at the start time; buy-in {buy_in:,}.",
            )
            event_id = event.id
        except discord.HTTPException as exc:
            log.warning("schedule %s: no Discord event: %s", game.schedule_id, exc)
        if event_id is not None:
            await self.bot.db.update_schedule(game.schedule_id, event_id=event_id)
        await interaction.response.send_message(
            f"📅 {title} {kit.when(starts)} ({kit.when(starts, 'F')}) in this channel. "
            "Everyone here hears about it ten minutes before."
            + ("" if event_id is not None else " (The server event could not be made.)")
        )

    async def run_schedules(self) -> None:
        now = self.tournaments.clock()
        for game in await self.bot.db.pending_schedules(now + REMIND_BEFORE):
            if not self.bot.owns(game.guild_id):
                continue
            channel = self.bot.get_partial_messageable(game.channel_id)
            if game.starts_at > now:
                if not game.reminded:
                    await self.bot.db.update_schedule(game.schedule_id, reminded=True)
                    await self._remind(game, channel)
                continue
            options = json.loads(game.options_json)
            try:
                await self._open_scheduled(game.kind, game, options)
                status = "opened"
            except Refusal as exc:
                log.warning("schedule %s did not open: %s", game.schedule_id, exc)
                await channel.send(f"The poker night could not open: {exc}")
                status = "failed"
            await self.bot.db.update_schedule(game.schedule_id, reminded=True, status=status)

    async def _interested(self, game: Any) -> list[int]:
        """The users who marked the game's Discord event as interesting (none without one)."""
        guild = self.bot.get_guild(game.guild_id)
        if game.event_id is None or guild is None:
            return []
        try:
            event = guild.get_scheduled_event(game.event_id)
            if event is None:
                event = await guild.fetch_scheduled_event(game.event_id)
            return [user.id async for user in event.users(limit=MAX_PINGS)]
        except discord.HTTPException as exc:
            log.warning("schedule %s: interested users unknown: %s", game.schedule_id, exc)
            return []

    async def _remind(self, game: Any, channel: Any) -> None:
        # Only the people who asked to hear about it are pinged: no role, no @everyone.
        ids = list(dict.fromkeys([*(await self._interested(game)), game.creator_id]))
        await channel.send(
            f"⏰ Poker night in this channel {kit.when(game.starts_at)}: "
            + " ".join(f"<@{i}>" for i in ids),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(i) for i in ids]
            ),
        )

    async def _open_scheduled(self, kind: str, game: Any, options: dict[str, Any]) -> None:
        channel = self.bot.get_partial_messageable(game.channel_id)
        variant, seats = str(options["variant"]), int(options["seats"])
        if kind == "table":
            config = engine.TableConfig(variant=variant, max_seats=seats)
            unit = config.stakes[0].limits(False).min_bet
            live = await self.bot.tables.create(
                game.guild_id,
                game.channel_id,
                game.creator_id,
                config,
                TableSettings(unit * 20, unit * 100),
            )
            embed, view = self.bot.presenter.lobby_message(live)
            embed.title = f"Poker night: {embed.title}"
            message = await channel.send(embed=embed, view=view)
            await self.bot.presenter.message_posted(live, message.id)
            return
        run = await self.tournaments.new_tournament(
            game.guild_id,
            game.channel_id,
            game.creator_id,
            {
                "variant": variant,
                "buy_in": int(options["buy_in"]),
                # Games scheduled before these options existed take the defaults.
                "starting_stack": int(options.get("starting_stack", 1000)),
                "levels": int(options.get("levels", 12)),
                "level_minutes": float(options.get("level_minutes", 10.0)),
                "seats": seats,
                "players": seats,
                "payouts": str(options.get("payouts", "65/35")),
                "timer": 60,
                "auto_deal": 5,
            },
        )
        message = await channel.send(
            embed=lobby_embed(run, self.tournaments.clock()), view=self.tournaments.view
        )
        run.message_id = message.id
        await self.bot.db.set_tournament_message(run.tournament_id, message.id)
