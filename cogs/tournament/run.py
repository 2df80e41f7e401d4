"""A tournament this process runs: its record (:class:`Running`), its lobby message, and the
checks its commands share.

Kept apart from :mod:`cogs.tournament` (the cog, which carries the tournament out) and
:mod:`cogs.tournament.nights` (scheduled games); the rules are :mod:`engine.tournament`'s.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord
from babel.numbers import format_decimal

import engine
from cogs import kit
from cogs.languages import guild_language
from cogs.translator import _
from engine.timebank import DEFAULT_TIME_BANK
from engine.tournament import Level, Tournament
from i18n import Language, current_language
from i18n.engine_text import refusal
from i18n.engine_text import variant_name as engine_variant_name
from tables.errors import Refusal
from tables.live import LiveTable

if TYPE_CHECKING:
    from cogs.app import PokerBot  # noqa: F401  (named by the alias below)

Interaction = discord.Interaction["PokerBot"]


class TournamentProblem(Refusal):
    """A tournament request turned down, with the reason."""


@dataclass
class Running:
    """A tournament this process drives: its row, its engine value and its players' names."""

    tournament_id: int
    guild_id: int
    channel_id: int
    creator_id: int
    config: engine.TableConfig
    action_seconds: int
    auto_deal_seconds: int
    state: Tournament
    names: dict[str, str] = field(default_factory=dict)
    started_at: float | None = None
    message_id: int | None = None
    # Players between two tables: id -> (table id, stack), saved before they stand up.
    moving: dict[str, tuple[int, int]] = field(default_factory=dict)
    # Rebuys and add-ons paid for, their tournament chips added at the next deal.
    pending: dict[str, int] = field(default_factory=dict)
    # Players with no chips who may still rebuy: id -> when they are out if they have not
    # (wall-clock seconds, saved, so a restart keeps the time they were given).
    rebuy_until: dict[str, float] = field(default_factory=dict)
    # Each player's time bank at the tournament's tables, in seconds (0: none).
    time_bank: int = DEFAULT_TIME_BANK
    # Players told they wait for a seat (Discord refused a new table's thread), until they
    # are seated: one notice an outage, not one a retry, nor one a restart (it is saved).
    told_waiting: set[str] = field(default_factory=set)
    # Held for a change of the tournament (lock) or just of its saved state (state_lock,
    # taken with a table's lock held, never the other way round).
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    state_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def name_in_text(self, player_id: str) -> str:
        """A player's name as a message writes it (as they typed it: see kit.as_typed)."""
        return kit.as_typed(self.names.get(player_id, player_id))

    def state_json(
        self,
        state: Tournament | None = None,
        names: dict[str, str] | None = None,
        moving: dict[str, tuple[int, int]] | None = None,
        rebuy_until: dict[str, float] | None = None,
    ) -> str:
        value = self.state if state is None else state
        moves = self.moving if moving is None else moving
        return json.dumps(
            {
                "tournament": value.to_dict(),
                "names": self.names if names is None else names,
                "moving": {k: list(v) for k, v in moves.items()},
                "pending": self.pending,
                "told_waiting": sorted(self.told_waiting),
                "rebuy_until": self.rebuy_until if rebuy_until is None else rebuy_until,
            }
        )

    def config_json(self) -> str:
        return json.dumps(
            {
                "table": self.config.to_dict(),
                "action_seconds": self.action_seconds,
                "auto_deal_seconds": self.auto_deal_seconds,
                "time_bank": self.time_bank,
            }
        )

    def level(self, now: float) -> int:
        if self.started_at is None:
            return 0
        return self.state.settings.schedule.level_at(now - self.started_at)


def channel_language(guild_id: int) -> Language:
    """The language a tournament's or poker night's channel reads (lobby, table notes,
    announcements, results, events, polls): the server's (its choice, else its Discord
    locale), whoever pressed the button that caused the text.

    The one place that decides it for this package.
    """
    return guild_language(guild_id)


def engine_refusal(exc: Exception) -> str:
    """An engine refusal (a :class:`~engine.tournament.TournamentError`, a bad table
    config) in the reader's language."""
    return sentence(refusal(exc))


def variant_name(slug: str, language: Language | None = None) -> str:
    """A game's name from the catalogue, in ``language`` (default: the current one)."""
    return engine_variant_name(engine.get_variant(slug), language=language)


def chips(amount: int, language: Language | None = None) -> str:
    """``1,000 chips`` (bankroll chips), counted and written in ``language``'s way."""
    return _.plural("{count} chip", "{count} chips", count=amount, language=language)


def ordinal(place: int, language: Language | None = None) -> str:
    """A finishing place as a language writes it (``1st``, ``2nd``; ``1.`` in German)."""
    if place % 100 in (11, 12, 13) or place % 10 not in (1, 2, 3):
        # Translators: a finishing place in a tournament (4th, 11th, 25th...): write the
        # ordinal of the number {place} as your language does ("{place}." in German).
        return _("{place}th", place=place, language=language)
    if place % 10 == 1:
        # Translators: a finishing place ending in 1 (1st, 21st, 31st; not 11th).
        return _("{place}st", place=place, language=language)
    if place % 10 == 2:
        # Translators: a finishing place ending in 2 (2nd, 22nd; not 12th).
        return _("{place}nd", place=place, language=language)
    # Translators: a finishing place ending in 3 (3rd, 23rd; not 13th).
    return _("{place}rd", place=place, language=language)


def level_label(level: Level, language: Language | None = None) -> str:
    """A level's stakes in words: ``blinds 10/20, ante 5, bets 20``."""
    language = language or current_language()
    blinds = "/".join(format_decimal(b, locale=language.locale) for b in level.blinds)
    if level.blinds and level.ante:
        # Translators: a tournament level's stakes; {blinds} reads like 10/20.
        return _(
            "blinds {blinds}, ante {ante}, bets {bet}",
            blinds=blinds,
            ante=level.ante,
            bet=level.bet,
            language=language,
        )
    if level.blinds:
        # Translators: a tournament level's stakes; {blinds} reads like 10/20.
        return _("blinds {blinds}, bets {bet}", blinds=blinds, bet=level.bet, language=language)
    if level.ante:
        # Translators: a tournament level's stakes (a game with antes and no blinds).
        return _("ante {ante}, bets {bet}", ante=level.ante, bet=level.bet, language=language)
    # Translators: a tournament level's stakes (a game with neither blinds nor ante).
    return _("bet {bet}", bet=level.bet, language=language)


def payouts_title(shares: tuple[int, ...], language: Language) -> str:
    """The lobby's payouts field name: how the prize pool is split (``65/35``)."""
    if shares == (100,):
        return _("Payouts (winner)", language=language)
    # Translators: {split} is the prize pool's split in percentages, like 65/35.
    return _("Payouts ({split})", split="/".join(str(share) for share in shares), language=language)


def lobby_title(run: Running, language: Language) -> str:
    """The lobby's title: the game and where the tournament stands."""
    name = variant_name(run.config.variant, language)
    status = run.state.status
    if status == "running":
        return _("🏆 Sit-and-go: {game} (running)", game=name, language=language)
    if status == "finished":
        return _("🏆 Sit-and-go: {game} (finished)", game=name, language=language)
    if status == "cancelled":
        return _("🏆 Sit-and-go: {game} (cancelled)", game=name, language=language)
    return _("🏆 Sit-and-go: {game} (registration open)", game=name, language=language)


def lobby_embed(run: Running, now: float, language: Language | None = None) -> discord.Embed:
    """The tournament's message: terms, players, prize pool, and the level once it runs, in
    ``language`` (the channel's for the lobby, the reader's for ``/poker tournament status``)."""
    language = language or current_language()
    t = run.state
    s = t.settings
    embed = discord.Embed(title=lobby_title(run, language), colour=kit.GOLD)
    # Two fields a row: three are too narrow on a phone for words such as "toernooichips".
    embed.add_field(name=_("Buy-in", language=language), value=chips(s.buy_in, language))
    embed.add_field(name=_("Prize pool", language=language), value=chips(t.prize_pool, language))
    embed.add_field(
        name=_("Starting stack", language=language),
        value=_.plural(
            "{count} tournament chip",
            "{count} tournament chips",
            count=s.starting_stack,
            language=language,
        ),
        inline=False,
    )
    amounts = s.payouts.amounts(t.prize_pool, max(1, len(t.entries)))
    embed.add_field(
        name=payouts_title(s.payouts.shares, language),
        value=" · ".join(
            # Translators: one paid place in the lobby's payouts, like "1st: 650 chips".
            _(
                "{place}: {prize}",
                place=ordinal(k + 1, language),
                prize=chips(a, language),
                language=language,
            )
            for k, a in enumerate(amounts)
        ),
        inline=False,
    )
    schedule = s.schedule
    minutes = schedule.level_seconds / 60
    first = " → ".join(level_label(level, language) for level in schedule.levels[:3])
    count = len(schedule.levels)
    embed.add_field(
        # Translators: the lobby's field of the level schedule; {minutes} may be 7.5.
        name=_.plural(
            "{count} level, {minutes} minutes each",
            "{count} levels, {minutes} minutes each",
            count=count,
            minutes=minutes if minutes != int(minutes) else int(minutes),
            language=language,
        ),
        value=first + (" → …" if count > 3 else ""),
        inline=False,
    )
    extras = []
    if run.config.dealers_choice:
        extras.append(_("dealer's choice: each dealer picks the game", language=language))
    if s.late_levels:
        extras.append(
            _.plural(
                "late registration until the end of level {count}",
                "late registration until the end of level {count}",
                count=s.late_levels,
                language=language,
            )
        )
    if extras:
        embed.add_field(name=_("Also", language=language), value="; ".join(extras), inline=False)
    if t.status == "running" and run.started_at is not None:
        elapsed = now - run.started_at
        index = schedule.level_at(elapsed)
        remaining = schedule.remaining(elapsed)
        stakes = level_label(schedule.levels[index], language)
        if remaining is not None:
            line = _(
                "Level {number}: {stakes} · next {when}",
                number=index + 1,
                stakes=stakes,
                when=kit.when(now + remaining),
                language=language,
            )
        else:
            line = _("Level {number}: {stakes}", number=index + 1, stakes=stakes, language=language)
        embed.add_field(name=_("Now", language=language), value=line, inline=False)
    players = [
        _("{player} (out)", player=run.name_in_text(e.player_id), language=language)
        if e.out
        else run.name_in_text(e.player_id)
        for e in t.entries
    ]
    embed.add_field(
        name=_(
            "Players ({count}/{most})",
            count=len(t.entries),
            most=s.max_players,
            language=language,
        ),
        # Whole names, those that do not fit counted ("… and 4 more").
        value=kit.fit_lines(players, kit.FIELD_LIMIT, sep=", ", language=language)
        or _("nobody yet", language=language),
        inline=False,
    )
    embed.set_footer(
        text=_(
            "Two players out in the same hand: the one who began it with more chips "
            "finishes higher. It starts when full, or when its creator presses Start.",
            language=language,
        )
    )
    return embed


def open_for_entries(run: Running, now: float) -> bool:
    """Whether the lobby keeps its buttons: before the start, and while late entries last."""
    if run.state.status == "registering":
        return True
    late = run.state.settings.late_levels
    return run.state.status == "running" and late > 0 and run.level(now) < late


def table_size(live: LiveTable) -> tuple[int, int]:
    return (sum(1 for s in live.engine.seats if s is not None), live.id)


def parse_when(text: str, now: float) -> float:
    """When a scheduled game starts, in unix seconds: ``in 90m``, ``in 2h``, ``in 1d``,
    ``in 30s``, or a UTC date and time ``2026-11-27 20:00``; up to 60 days ahead
    (``now`` is the clock's reading).

    >>> parse_when("in 2h", 1000.0), parse_when("in 90m", 0.0)
    (8200.0, 5400.0)
    >>> parse_when("2030-01-01 20:00", 1893500000.0)
    1893528000.0
    """
    cleaned = text.strip().lower()
    match = re.fullmatch(r"in\s+(\d{1,6})\s*([smhd])", cleaned)
    if match:
        unit = {"s": 1, "m": 60, "h": 3600, "d": 86400}[match[2]]
        starts = now + int(match[1]) * unit
    else:
        try:
            moment = datetime.datetime.strptime(cleaned, "%Y-%m-%d %H:%M")
        except ValueError:
            raise TournamentProblem(
                # Translators: keep the examples as they are: the bot reads them in this form.
                _("Say when as “in 90m”, “in 2h”, “in 1d” or a UTC time like 2026-11-27 20:00.")
            ) from None
        starts = moment.replace(tzinfo=datetime.UTC).timestamp()
    if starts < now + 1:
        raise TournamentProblem(_("That time has passed."))
    if starts > now + 60 * 86400:
        raise TournamentProblem(_("A poker night is set at most 60 days ahead."))
    return starts


def check_organiser_perms(interaction: Interaction) -> None:
    if not interaction.permissions.manage_guild and not interaction.permissions.manage_events:
        raise TournamentProblem(_("Setting a poker night takes Manage Server or Manage Events."))


def check_organiser(run: Running, interaction: Interaction) -> None:
    perms = interaction.permissions
    if interaction.user.id != run.creator_id and not perms.manage_guild:
        raise TournamentProblem(_("Only the tournament's creator or a server manager can do that."))


def sentence(text: str) -> str:
    text = text.strip() or "That can't be done"
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."
