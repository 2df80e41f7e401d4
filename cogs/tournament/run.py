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

import engine
from cogs import kit
from engine.timebank import DEFAULT_TIME_BANK
from engine.tournament import Tournament
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
    # Each player's time bank at the tournament's tables, in seconds (0: none).
    time_bank: int = DEFAULT_TIME_BANK
    # Held for a change of the tournament (lock) or just of its saved state (state_lock,
    # taken with a table's lock held, never the other way round).
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    state_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def state_json(
        self,
        state: Tournament | None = None,
        names: dict[str, str] | None = None,
        moving: dict[str, tuple[int, int]] | None = None,
    ) -> str:
        value = self.state if state is None else state
        moves = self.moving if moving is None else moving
        return json.dumps(
            {
                "tournament": value.to_dict(),
                "names": self.names if names is None else names,
                "moving": {k: list(v) for k, v in moves.items()},
                "pending": self.pending,
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


def lobby_embed(run: Running, now: float) -> discord.Embed:
    """The tournament's message: terms, players, prize pool, and the level once it runs."""
    t = run.state
    s = t.settings
    variant = engine.get_variant(run.config.variant)
    titles = {
        "registering": "registration open",
        "running": "running",
        "finished": "finished",
        "cancelled": "cancelled",
    }
    embed = discord.Embed(
        title=f"🏆 Sit-and-go: {variant.name} ({titles.get(t.status, t.status)})",
        colour=kit.GOLD,
    )
    embed.add_field(name="Buy-in", value=kit.chips(s.buy_in))
    embed.add_field(name="Starting stack", value=f"{s.starting_stack:,} tournament chips")
    embed.add_field(name="Prize pool", value=kit.chips(t.prize_pool))
    amounts = s.payouts.amounts(t.prize_pool, max(1, len(t.entries)))
    embed.add_field(
        name=f"Payouts ({s.payouts.encode()})",
        value=" · ".join(f"{kit.ordinal(k + 1)} {kit.chips(a)}" for k, a in enumerate(amounts)),
        inline=False,
    )
    schedule = s.schedule
    minutes = schedule.level_seconds / 60
    first = " → ".join(level.label for level in schedule.levels[:3])
    embed.add_field(
        name=f"Levels ({len(schedule.levels)}, {minutes:g} min each)",
        value=first + (" → …" if len(schedule.levels) > 3 else ""),
        inline=False,
    )
    extras = []
    if run.config.dealers_choice:
        extras.append("dealer's choice: each dealer picks the game")
    if s.late_levels:
        extras.append(f"late registration during the first {s.late_levels} level(s)")
    if extras:
        embed.add_field(name="Also", value="; ".join(extras), inline=False)
    if t.status == "running" and run.started_at is not None:
        elapsed = now - run.started_at
        index = schedule.level_at(elapsed)
        remaining = schedule.remaining(elapsed)
        line = f"Level {index + 1}: {schedule.levels[index].label}"
        if remaining is not None:
            line += f" · next {kit.when(now + remaining)}"
        embed.add_field(name="Now", value=line, inline=False)
    players = [
        f"{run.names.get(e.player_id, e.player_id)}{' (out)' if e.out else ''}" for e in t.entries
    ]
    embed.add_field(
        name=f"Players ({len(t.entries)}/{s.max_players})",
        value=", ".join(players) or "nobody yet",
        inline=False,
    )
    embed.set_footer(
        text="Two players out in the same hand: the one who began it with more chips "
        "finishes higher. It starts when full, or when its creator presses Start."
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
                "Say when as “in 90m”, “in 2h”, “in 1d” or a UTC time like 2026-11-27 20:00."
            ) from None
        starts = moment.replace(tzinfo=datetime.UTC).timestamp()
    if starts < now + 1:
        raise TournamentProblem("That time has passed.")
    if starts > now + 60 * 86400:
        raise TournamentProblem("A poker night is set at most 60 days ahead.")
    return starts


def check_organiser_perms(interaction: Interaction) -> None:
    if not interaction.permissions.manage_guild and not interaction.permissions.manage_events:
        raise TournamentProblem("Setting a poker night takes Manage Server or Manage Events.")


def check_organiser(run: Running, interaction: Interaction) -> None:
    perms = interaction.permissions
    if interaction.user.id != run.creator_id and not perms.manage_guild:
        raise TournamentProblem("Only the tournament's creator or a server manager can do that.")


def sentence(text: str) -> str:
    text = text.strip() or "That can't be done"
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."
