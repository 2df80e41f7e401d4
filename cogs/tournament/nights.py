"""Poker nights: ``/poker schedule create`` sets a game for later as a Discord scheduled event,
pings the event's interested users ten minutes before, and opens the table or tournament on
time (also one that fell due while the bot was down). A night can repeat (weekly, every other
week, monthly): when one opens, the next one and its Discord event are made at once, so the
server's event list always shows the next date. A night can ask the channel, with a native
Discord poll opened a day before, which game to play. ``/poker schedule move`` and
``/poker schedule cancel`` change a whole series.

The dates and the poll's verdict are :mod:`cogs.tournament.series`'s pure rules. A cog of its own,
loaded with the tournament cog (:class:`cogs.tournament.Tournaments`), whose poller calls
:meth:`PokerNights.run_schedules`; a scheduled tournament opens through the same path as
``/poker tournament create``.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import math
from typing import TYPE_CHECKING, Any

import discord
from babel.dates import format_skeleton
from discord import app_commands
from discord.ext import commands

import engine
from cogs import kit, validation
from cogs.ledger import post_closing_ledger
from cogs.tournament.run import (
    TournamentProblem,
    channel_language,
    check_organiser_perms,
    chips,
    engine_refusal,
    lobby_embed,
    parse_when,
    variant_name,
)
from cogs.tournament.series import REPEATS, check_poll, next_night, poll_winner
from cogs.translator import _
from engine.seating import is_house
from engine.tournament import Payouts
from i18n import Language, current_language, speaking
from tables.errors import Refusal
from tables.live import TableSettings

if TYPE_CHECKING:
    from cogs.app import PokerBot
    from cogs.tournament.cog import Tournaments

log = logging.getLogger("poker.tournament")

Interaction = discord.Interaction["PokerBot"]

REMIND_BEFORE = 600.0
"""Seconds before a scheduled game at which the channel is reminded."""

POLL_BEFORE = 86400.0
"""Seconds before a night at which its game poll opens (a day)."""

POLL_SHORTEST = 3600.0
"""A night with a poll is at least this far ahead (Discord's shortest poll is an hour)."""

EVENT_HOURS = 3
"""How long a night's Discord event says it lasts."""

NOT_POSTED = _.lazy("Discord refused its message in this channel.")
"""Why a night did not open when its table's or lobby's message could not be posted."""

MAX_PINGS = 60
"""At most this many interested users are pinged by name (a message holds 2,000 characters)."""

REPEAT_CHOICES = (
    ("Once", "none"),
    ("Every week", "weekly"),
    ("Every other week", "fortnightly"),
    ("Every month", "monthly"),
)

EVENT_NAME_LIMIT = 100
"""Discord's limit on a scheduled event's name."""

EVENT_DESCRIPTION_LIMIT = 1000
"""Discord's limit on a scheduled event's description."""

POLL_QUESTION_LIMIT = 300
"""Discord's limit on a poll's question."""

POLL_ANSWER_LIMIT = 55
"""Discord's limit on a poll answer's text."""


def night_title(kind: str, variant: str, language: Language | None = None) -> str:
    """A night's name: its Discord event's, and how its messages call it."""
    game = variant_name(variant, language)
    if kind == "table":
        # Translators: a Discord event's name (at most 100 characters).
        title = _("Poker night: {game} cash game", game=game, language=language)
    else:
        # Translators: a Discord event's name (at most 100 characters).
        title = _("Poker night: {game} tournament", game=game, language=language)
    return title[:EVENT_NAME_LIMIT]


def event_description(
    channel: str, buy_in: int, repeat: str, language: Language | None = None
) -> str:
    """The text of a night's Discord event (at most 1,000 characters)."""
    # Translators: a Discord event's description; {channel} is a channel's name.
    text = _(
        "Opens in\u00a0#{channel} at the start time; buy-in {buy_in}.",
        channel=channel,
        buy_in=chips(buy_in, language),
        language=language,
    )
    if repeat == "weekly":
        text += " " + _("Repeats every week.", language=language)
    elif repeat == "fortnightly":
        text += " " + _("Repeats every other week.", language=language)
    elif repeat == "monthly":
        text += " " + _("Repeats every month.", language=language)
    return text[:EVENT_DESCRIPTION_LIMIT]


def set_text(
    title: str, starts: float, repeat: str, poll: str, made: bool, language: Language
) -> str:
    """The channel's message when a night is set (``poll``: the games of its poll, or "")."""
    # Translators: {when} reads "in 2 hours", {date} a full date (Discord timestamps).
    sentences = [
        _(
            "📅 {title} {when} ({date}) in this channel. "
            "Everyone here hears about it ten minutes before.",
            title=title,
            when=kit.when(starts),
            date=kit.when(starts, "F"),
            language=language,
        )
    ]
    if repeat == "weekly":
        sentences.append(
            _(
                "It repeats every week: the next date shows as soon as a night begins.",
                language=language,
            )
        )
    elif repeat == "fortnightly":
        sentences.append(
            _(
                "It repeats every other week: the next date shows as soon as a night begins.",
                language=language,
            )
        )
    elif repeat == "monthly":
        sentences.append(
            _(
                "It repeats every month: the next date shows as soon as a night begins.",
                language=language,
            )
        )
    if poll:
        sentences.append(
            _(
                "A day before, a poll here picks the game among {games}.",
                games=poll,
                language=language,
            )
        )
    if not made:
        sentences.append(_("(The server event could not be made.)", language=language))
    return " ".join(sentences)


def night_choice(night: int, title: str, date: str, repeat: str) -> str:
    """A night as ``/poker schedule cancel`` and ``move`` offer it (at most 100 characters)."""
    if repeat == "weekly":
        # Translators: a choice in a menu (at most 100 characters); {date} is numeric.
        text = _("#{night} {title}, {date} (every week)", night=night, title=title, date=date)
    elif repeat == "fortnightly":
        text = _("#{night} {title}, {date} (every other week)", night=night, title=title, date=date)
    elif repeat == "monthly":
        text = _("#{night} {title}, {date} (every month)", night=night, title=title, date=date)
    else:
        text = _("#{night} {title}, {date}", night=night, title=title, date=date)
    return text[:100]


def poll_question(starts: float, language: Language) -> str:
    """The game poll's question; a poll shows no Discord timestamp, so the day is written
    out in the channel's language (UTC, as the start times people type)."""
    day = format_skeleton("MMMEd", utc(starts), tzinfo=datetime.UTC, locale=language.locale)
    # Translators: a Discord poll's question (at most 300 characters); {day} reads "Fri, Nov 27".
    return _("Which game for the poker night {day}?", day=day, language=language)[
        :POLL_QUESTION_LIMIT
    ]


def check_poll_lead(games: tuple[str, ...], starts: float, now: float) -> None:
    """A night with a game poll (``games``) starts at least :data:`POLL_SHORTEST` from now,
    when it is set and whenever it is moved."""
    if games and starts - now < POLL_SHORTEST:
        raise TournamentProblem(
            _("A night with a poll starts an hour from now or later, so people can vote.")
        )


def parse_poll(text: str) -> tuple[str, ...]:
    """The games of a ``poll:`` option (slugs separated by commas or spaces), each from the
    catalogue, 2 to 5 of them, each once."""
    slugs = [part for part in text.replace(",", " ").split() if part]
    for slug in slugs:
        try:
            engine.get_variant(validation.check_variant_slug(slug))
        except (ValueError, validation.InvalidInput):
            raise TournamentProblem(
                _(
                    "The poll lists games by name from `/poker rules`: I don't know “{slug}”.",
                    slug=slug[:40],
                )
            ) from None
    try:
        return check_poll(slugs)
    except ValueError:
        raise TournamentProblem(
            _("A poll offers 2 to 5 different games, separated by commas.")
        ) from None


def utc(unix: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(unix, datetime.UTC)


class PokerNights(commands.Cog):
    """Scheduled games of the servers this process serves."""

    schedule = app_commands.Group(
        name="schedule", description="Poker nights: set one, move it or cancel it."
    )

    def __init__(self, bot: PokerBot, tournaments: Tournaments) -> None:
        self.bot = bot
        # Opens the scheduled tournaments, and keeps the time (one clock for both cogs).
        self.tournaments = tournaments
        # Held while a night is read and changed: by the poller (a poll, a reminder, an
        # opening, each waiting on Discord) and by the commands that set, move or cancel one,
        # so that none of them writes back a night as it was before another's change.
        self.lock = asyncio.Lock()

    @schedule.command(
        name="create", description="Set a poker night: a Discord event, then the game opens."
    )
    @app_commands.describe(
        when="in 90m, in 2h, in 1d, or a UTC time like 2026-11-27 20:00",
        kind="A tournament (sit-and-go) or a cash table",
        variant="The game (with a poll: the game if nobody votes)",
        buy_in="Tournament buy-in, in bankroll chips",
        seats="Seats at the table",
        starting_stack="Tournament chips each player starts with",
        levels="How many levels the tournament's schedule has",
        level_minutes="Minutes each tournament level lasts",
        payouts="winner, 65/35, 50/30/20, or percentages like 40/30/20/10",
        repeat="Hold it again every week, every other week or every month",
        poll="2 to 5 games for a poll a day before, like: anaconda, shotgun, q-ball",
    )
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="Tournament", value="tournament"),
            app_commands.Choice(name="Cash table", value="table"),
        ],
        repeat=[app_commands.Choice(name=name, value=value) for name, value in REPEAT_CHOICES],
    )
    @app_commands.autocomplete(variant=kit.variant_choices)
    async def create(
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
        repeat: str = "none",
        poll: str | None = None,
    ) -> None:
        if interaction.guild is None or interaction.channel_id is None:
            raise TournamentProblem(_("Poker nights are set in server channels."))
        check_organiser_perms(interaction)
        kind = validation.check_choice(kind, validation.option("kind"), ("tournament", "table"))
        variant = validation.known_variant(variant).slug
        repeat = validation.check_choice(repeat, validation.option("repeat"), REPEATS)
        validation.BUY_IN.check(buy_in)
        validation.SEATS.check(seats)
        validation.STARTING_STACK.check(starting_stack)
        validation.LEVELS.check(levels)
        level_minutes = validation.LEVEL_MINUTES.number(level_minutes)
        payouts = validation.check_text(payouts, validation.option("payouts"), 100)
        poll = validation.check_text(poll, validation.option("poll"), 200) if poll else None
        games = parse_poll(poll) if poll else ()
        try:
            Payouts.parse(payouts)
        except ValueError as exc:
            raise TournamentProblem(engine_refusal(exc)) from exc
        if not isinstance(when, str):
            raise TournamentProblem(_("when is text, like “in 2h”."))
        now = self.tournaments.clock()
        starts = parse_when(when, now)
        check_poll_lead(games, starts, now)
        try:
            for slug in (variant, *games):
                engine.TableConfig(variant=slug, max_seats=seats)
        except ValueError as exc:
            raise TournamentProblem(engine_refusal(exc)) from exc
        options = {
            "variant": variant,
            "buy_in": buy_in,
            "seats": seats,
            "starting_stack": starting_stack,
            "levels": levels,
            "level_minutes": level_minutes,
            "payouts": payouts,
        }
        language = channel_language(interaction.guild.id)
        channel_name = getattr(interaction.channel, "name", None) or _(
            "the poker channel", language=language
        )
        async with kit.held_in_time(self.lock, interaction):
            game = await self.bot.db.schedule_game(
                interaction.guild.id,
                interaction.channel_id,
                interaction.user.id,
                kind,
                json.dumps(options),
                starts,
                repeat=repeat,
                poll_games=games,
            )
            # Discord may hold the event up (a 429): the night is saved, and the command is
            # acknowledged in time meanwhile.
            making = self._make_event(interaction.guild, game, channel_name)
            event_id = await kit.in_time(interaction, making)
        names = ", ".join(variant_name(g, language) for g in games)
        text = set_text(
            night_title(kind, variant, language),
            starts,
            repeat,
            names,
            event_id is not None,
            language,
        )
        await kit.announce(interaction, text)

    async def _make_event(self, guild: discord.Guild, game: Any, channel_name: str) -> int | None:
        """The night's Discord scheduled event (recorded on its row), or None if Discord
        refused it (the night still opens, only unseen in the events list)."""
        options = json.loads(game.options_json)
        language = channel_language(guild.id)
        description = event_description(channel_name, int(options["buy_in"]), game.repeat, language)
        try:
            start_time = utc(game.starts_at)
            event = await guild.create_scheduled_event(
                name=night_title(game.kind, str(options["variant"]), language),
                start_time=start_time,
                end_time=start_time + datetime.timedelta(hours=EVENT_HOURS),
                entity_type=discord.EntityType.external,
                location=f"#{channel_name}",
                privacy_level=discord.PrivacyLevel.guild_only,
                description=description,
            )
        except discord.HTTPException as exc:
            log.warning("schedule %s: no Discord event: %s", game.schedule_id, exc)
            return None
        await self.bot.db.update_schedule(
            game.schedule_id, event_id=event.id, reminded=game.reminded, status=game.status
        )
        return event.id

    async def _event(self, game: Any) -> discord.ScheduledEvent | None:
        guild = self.bot.get_guild(game.guild_id)
        if game.event_id is None or guild is None:
            return None
        try:
            return guild.get_scheduled_event(game.event_id) or (
                await guild.fetch_scheduled_event(game.event_id)
            )
        except discord.HTTPException as exc:
            log.warning("schedule %s: its event is gone: %s", game.schedule_id, exc)
            return None

    async def _event_status(self, game: Any, status: str) -> None:
        """Mark the night's Discord event active, completed or cancelled (as Discord allows:
        scheduled -> active -> completed, or scheduled -> cancelled)."""
        event = await self._event(game)
        if event is None:
            return
        try:
            if status == "active" and event.status is discord.EventStatus.scheduled:
                await event.start()
            elif status == "completed" and event.status is discord.EventStatus.active:
                await event.end()
            elif status == "cancelled" and event.status is discord.EventStatus.scheduled:
                await event.cancel()
        except (discord.HTTPException, ValueError) as exc:
            log.warning("schedule %s: event not marked %s: %s", game.schedule_id, status, exc)

    # -- changing a series -------------------------------------------------------------------

    async def night_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """Autocomplete: the server's nights still to come."""
        if interaction.guild_id is None:
            return []
        found = []
        for game in await self.bot.db.guild_schedules(interaction.guild_id):
            options = json.loads(game.options_json)
            # Numeric: a choice's name shows no Discord timestamp.
            day = utc(game.starts_at).strftime("%Y-%m-%d %H:%M UTC")
            name = night_choice(
                game.schedule_id,
                night_title(game.kind, str(options["variant"])),
                day,
                game.repeat,
            )
            if current.lower() in name.lower():
                found.append(app_commands.Choice(name=name, value=game.schedule_id))
        return found[:25]

    async def _pending(self, interaction: Interaction, night: int) -> Any:
        if interaction.guild is None:
            raise TournamentProblem(_("Poker nights are set in server channels."))
        check_organiser_perms(interaction)
        game = await self.bot.db.schedule(validation.check_id(night, validation.option("night")))
        if game is None or game.guild_id != interaction.guild.id or game.status != "pending":
            raise TournamentProblem(
                _("There is no poker night\u00a0#{night} to come in this server.", night=night)
            )
        return game

    @schedule.command(name="cancel", description="Cancel a poker night and the rest of its series.")
    @app_commands.describe(night="The night (its series' later nights are cancelled too)")
    @app_commands.autocomplete(night=night_choices)
    async def cancel(self, interaction: Interaction, night: int) -> None:
        async with kit.held_in_time(self.lock, interaction):
            await self._cancel(interaction, night)

    async def _cancel(self, interaction: Interaction, night: int) -> None:
        game = await self._pending(interaction, night)
        # The pending night is the series' only row to come: cancelling it ends the series.
        await self.bot.db.update_schedule(
            game.schedule_id, reminded=game.reminded, status="cancelled"
        )
        language = channel_language(game.guild_id)
        when = kit.when(game.starts_at, "F")
        if game.repeat != "none":
            text = _(
                "🚫 The poker night {when} is cancelled, with every later night of its series.",
                when=when,
                language=language,
            )
        else:
            text = _("🚫 The poker night {when} is cancelled.", when=when, language=language)
        await kit.announce(interaction, text)
        await self._event_status(game, "cancelled")
        if game.poll_message_id is not None:
            await self._end_poll(game)

    @schedule.command(name="move", description="Move a poker night; its series follows.")
    @app_commands.describe(
        night="The night to move",
        when="in 90m, in 2h, in 1d, or a UTC time like 2026-11-27 20:00",
    )
    @app_commands.autocomplete(night=night_choices)
    async def move(self, interaction: Interaction, night: int, when: str) -> None:
        async with kit.held_in_time(self.lock, interaction):
            await self._move(interaction, night, when)

    async def _move(self, interaction: Interaction, night: int, when: str) -> None:
        game = await self._pending(interaction, night)
        if not isinstance(when, str):
            raise TournamentProblem(_("when is text, like “in 2h”."))
        now = self.tournaments.clock()
        starts = parse_when(when, now)
        check_poll_lead(game.poll_games, starts, now)
        await self.bot.db.move_schedule(game.schedule_id, starts)
        language = channel_language(game.guild_id)
        if game.repeat != "none":
            text = _(
                "📅 The poker night moved to {when} ({date}); "
                "the later nights of its series follow from there.",
                when=kit.when(starts),
                date=kit.when(starts, "F"),
                language=language,
            )
        else:
            text = _(
                "📅 The poker night moved to {when} ({date}).",
                when=kit.when(starts),
                date=kit.when(starts, "F"),
                language=language,
            )
        if game.poll_message_id is not None:
            # A Discord poll can't be edited: the one open keeps its question's day and its
            # votes, which still decide (read when the night begins).
            text += "\n" + _(
                "🗳️ The game poll already posted still names the old day: "
                "its votes pick this night's game all the same.",
                language=language,
            )
        await kit.announce(interaction, text)
        event = await self._event(game)
        if event is not None:
            try:
                start_time = utc(starts)
                await event.edit(
                    start_time=start_time,
                    end_time=start_time + datetime.timedelta(hours=EVENT_HOURS),
                )
            except (discord.HTTPException, ValueError, TypeError) as exc:
                log.warning("schedule %s: event not moved: %s", game.schedule_id, exc)

    # -- the poller ------------------------------------------------------------------------------

    async def run_schedules(self) -> None:
        now = self.tournaments.clock()
        for listed in await self.bot.db.pending_schedules(now + POLL_BEFORE):
            if not self.bot.owns(listed.guild_id):
                continue
            async with self.lock:
                # As it is now: a command may have moved or cancelled it since the list.
                game = await self.bot.db.schedule(listed.schedule_id)
                if game is None or game.status != "pending" or game.starts_at > now + POLL_BEFORE:
                    continue
                # Everything a night says goes to its channel, refusals included.
                with speaking(channel_language(game.guild_id)):
                    await self._run_night(game, now)

    async def _run_night(self, game: Any, now: float) -> None:
        """One pending night: its poll, its reminder, or its opening when due."""
        channel = self.bot.get_partial_messageable(game.channel_id)
        if game.poll_games and game.poll_message_id is None:
            game = await self._open_poll(game, channel, now)
        if game.starts_at > now + REMIND_BEFORE:
            return
        if game.starts_at > now:
            if not game.reminded:
                await self.bot.db.update_schedule(game.schedule_id, reminded=True)
                await self._remind(game, channel)
            return
        options = json.loads(game.options_json)
        if game.poll_games:
            options["variant"] = await self._poll_verdict(game, channel, options)
        game_id: int | None = None
        try:
            game_id = await self._open_scheduled(game.kind, game, options)
            status = "opened"
        except Refusal as exc:
            log.warning("schedule %s did not open: %s", game.schedule_id, exc)
            try:
                await channel.send(_("The poker night could not open: {reason}", reason=str(exc)))
            except discord.HTTPException as failed:
                log.warning("schedule %s: failure not posted: %s", game.schedule_id, failed)
            status = "failed"
        await self.bot.db.update_schedule(
            game.schedule_id, reminded=True, status=status, game_id=game_id
        )
        await self._event_status(game, "active" if status == "opened" else "cancelled")
        if game.repeat != "none":
            await self._next_night(game, now)

    async def _next_night(self, game: Any, now: float) -> None:
        """The series' next night and its Discord event, made as soon as this one begins."""
        starts = next_night(game.repeat_from, game.repeat, max(now, game.starts_at))
        following = await self.bot.db.schedule_game(
            game.guild_id,
            game.channel_id,
            game.creator_id,
            game.kind,
            game.options_json,
            starts,
            repeat=game.repeat,
            poll_games=game.poll_games,
            series_id=game.series_id,
            repeat_from=game.repeat_from,
        )
        guild = self.bot.get_guild(game.guild_id)
        if guild is None:
            return
        channel = guild.get_channel(game.channel_id)
        await self._make_event(
            guild, following, getattr(channel, "name", None) or _("the poker channel")
        )

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel's nights to come are cancelled (they would open nowhere, week
        after week), with their Discord events."""
        await self._cancel_nights(channel.guild.id, channel.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self._cancel_nights(guild.id, None)

    async def _cancel_nights(self, guild_id: int, channel_id: int | None) -> None:
        """Cancel the nights to come of ``channel_id`` (None: of the whole server)."""
        try:
            async with self.lock:
                for game in await self.bot.db.guild_schedules(guild_id):
                    if channel_id is not None and game.channel_id != channel_id:
                        continue
                    await self.bot.db.update_schedule(
                        game.schedule_id, reminded=game.reminded, status="cancelled"
                    )
                    log.info("schedule %s cancelled: its place is gone", game.schedule_id)
                    if channel_id is not None:
                        await self._event_status(game, "cancelled")
        except Exception:
            log.exception("the nights of %s / %s were not cancelled", guild_id, channel_id)

    @commands.Cog.listener()
    async def on_poker_game_ended(self, kind: str, game_id: int) -> None:
        """A table or tournament closed: if a night opened it, its event is completed."""
        try:
            game = await self.bot.db.opened_schedule(kind, game_id)
            if game is None:
                return
            await self.bot.db.update_schedule(game.schedule_id, reminded=True, status="ended")
            await self._event_status(game, "completed")
        except Exception:
            log.exception("%s %s: its poker night was not closed", kind, game_id)

    # -- the game poll -----------------------------------------------------------------------

    async def _open_poll(self, game: Any, channel: Any, now: float) -> Any:
        """Open the night's game poll (once, a day before or at once if the night is nearer),
        open until the night begins; returns the night as it now stands."""
        hours = max(1, min(768, math.ceil((game.starts_at - now) / 3600)))
        language = current_language()  # the channel's (see run_schedules)
        poll = discord.Poll(
            question=poll_question(game.starts_at, language),
            duration=datetime.timedelta(hours=hours),
        )
        for slug in game.poll_games:
            poll.add_answer(text=variant_name(slug, language)[:POLL_ANSWER_LIMIT])
        try:
            message = await channel.send(
                _(
                    "🗳️ Vote for the game of the poker night {when}: the most votes wins.",
                    when=kit.when(game.starts_at),
                ),
                poll=poll,
            )
        except discord.HTTPException as exc:
            log.warning("schedule %s: no poll: %s", game.schedule_id, exc)
            return game
        await self.bot.db.update_schedule(
            game.schedule_id,
            reminded=game.reminded,
            status=game.status,
            poll_message_id=message.id,
        )
        return await self.bot.db.schedule(game.schedule_id) or game

    async def _end_poll(self, game: Any) -> list[int] | None:
        """End the night's poll (if still open) and return its votes per game, in the poll's
        order; None if Discord cannot tell."""
        channel = self.bot.get_partial_messageable(game.channel_id)
        try:
            message = await channel.fetch_message(game.poll_message_id)
            poll = message.poll
            if poll is not None and not poll.is_finalised():
                poll = (await message.end_poll()).poll
        except discord.HTTPException as exc:
            log.warning("schedule %s: poll unread: %s", game.schedule_id, exc)
            return None
        if poll is None:
            return None
        counts = {answer.id: answer.vote_count for answer in poll.answers}
        return [counts.get(i, 0) for i in range(1, len(game.poll_games) + 1)]

    async def _poll_verdict(self, game: Any, channel: Any, options: dict[str, Any]) -> str:
        """Tonight's game: the poll's winner, or the night's own game if nobody voted."""
        default = str(options["variant"])
        votes = await self._end_poll(game) if game.poll_message_id is not None else None
        if votes is None:
            return default
        picked = poll_winner(game.poll_games, votes, default)
        total = sum(votes)
        name = variant_name(picked)
        if total:
            text = _.plural(
                "🗳️ The poll picked {game} ({votes} of {count} vote).",
                "🗳️ The poll picked {game} ({votes} of {count} votes).",
                count=total,
                game=name,
                votes=max(votes),
            )
        else:
            text = _("🗳️ Nobody voted: tonight's game stays {game}.", game=name)
        try:
            await channel.send(text)
        except discord.HTTPException as exc:
            log.warning("schedule %s: verdict not posted: %s", game.schedule_id, exc)
        return picked

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
        try:
            await self._send_reminder(game, channel, ids)
        except discord.HTTPException as exc:
            log.warning("schedule %s: no reminder: %s", game.schedule_id, exc)

    @staticmethod
    async def _send_reminder(game: Any, channel: Any, ids: list[int]) -> None:
        await channel.send(
            _(
                "⏰ Poker night in this channel {when}: {pings}",
                when=kit.when(game.starts_at),
                pings=" ".join(kit.mention(i) for i in ids),
            ),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(i) for i in ids]
            ),
        )

    async def _close_idle_game(self, channel_id: int) -> None:
        """The game a night before left open in the channel with nobody in it (last week's
        cash table everyone stood up from, a lobby nobody registered in) closes, as
        ``/poker end`` or ``/poker tournament cancel`` would, so that tonight's can open. A
        game with someone in it stays: the night then says why it could not open."""
        live = self.bot.tables.in_channel(channel_id)
        if (
            live is not None
            and live.meta.tournament is None
            and not live.engine.in_hand
            and all(is_house(s.player_id) for s in live.engine.seats if s is not None)
        ):
            await self.bot.tables.end(live)  # (house players' stacks go back to the house)
            await self.bot.presenter.retire_closed(live)
            await post_closing_ledger(self.bot, live.id, live.channel_id)
            return
        run = self.tournaments.running.get(self.tournaments.by_channel.get(channel_id, 0))
        if run is not None and run.state.status == "registering" and not run.state.entries:
            await self.tournaments.call_off(run)
            await self.tournaments.refresh_lobby(run)
            self.bot.dispatch("poker_game_ended", "tournament", run.tournament_id)

    async def _open_scheduled(self, kind: str, game: Any, options: dict[str, Any]) -> int:
        """Open the night's game; its table's or tournament's id."""
        channel = self.bot.get_partial_messageable(game.channel_id)
        variant, seats = str(options["variant"]), int(options["seats"])
        await self._close_idle_game(game.channel_id)
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
            # Translators: {title} is the table's own title.
            embed.title = _("Poker night: {title}", title=embed.title)[:256]
            try:
                message = await channel.send(embed=embed, view=view)
            except discord.HTTPException as exc:
                # Nobody can sit at a table nobody sees: it closes (empty: no chip moves),
                # and the night is over rather than opened again every round.
                await self.bot.tables.end(live)
                raise Refusal(NOT_POSTED.render()) from exc
            await self.bot.presenter.message_posted(live, message.id)
            return live.id
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
        language = channel_language(game.guild_id)
        try:
            message = await channel.send(
                embed=lobby_embed(run, self.tournaments.clock(), language),
                view=self.tournaments.lobby_buttons(run, language),
            )
        except discord.HTTPException as exc:
            # Nobody can register without the lobby: called off (nobody has paid yet).
            await self.tournaments.call_off(run)
            raise Refusal(NOT_POSTED.render()) from exc
        run.message_id = message.id
        await self.bot.db.set_tournament_message(run.tournament_id, message.id)
        return run.tournament_id
