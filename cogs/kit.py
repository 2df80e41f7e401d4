"""The Discord layer's shared toolkit: one palette, one chips formatter, one way to refuse.

Every cog and every renderer takes these from here instead of keeping its own copy::

    from cogs import kit
    from tables.errors import Refusal

    embed = discord.Embed(title="Chips", colour=kit.GOLD)
    embed.add_field(name="Bankroll", value=kit.chips(12345))          # "12,345"
    embed.add_field(name="Next bonus", value=kit.when(next_at))        # "in 3 hours"
    raise Refusal("The daily bonus is turned off on this server.")     # ephemeral answer
    await kit.reply(interaction, "Done.")                              # ephemeral, any time

Raising a :class:`~tables.errors.Refusal` (or a subclass such as
:class:`~tables.errors.TableProblem`) from a slash command is enough: the bot's one error
handler (:class:`cogs.app.PokerTree`) answers it. Component handlers routed by custom id use
:func:`reply` the same way. Nothing here pings anyone (:data:`NO_PINGS`).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any, Final

import discord
from discord import app_commands

import engine
from cogs import validation

log = logging.getLogger("poker.kit")

__all__ = [
    "BLUE",
    "GOLD",
    "GREEN",
    "GREY",
    "NO_PINGS",
    "RED",
    "chips",
    "reply",
    "signed",
    "when",
]

# One palette for every embed: the felt, the chips, the card backs and the red suits of the
# card pictures, so messages and pictures match.
GREEN: Final = discord.Colour.from_rgb(22, 120, 70)
"""A table in play, a success, a catalogue."""
GOLD: Final = discord.Colour.from_rgb(214, 170, 40)
"""Chips and cards: bankrolls, hands, showdowns, private panels."""
GREY: Final = discord.Colour.from_rgb(110, 110, 120)
"""Idle or over: a table between hands, a closed table, an empty list."""
RED: Final = discord.Colour.from_rgb(200, 30, 45)
"""Chips taken away, a failed check."""
BLUE: Final = discord.Colour.from_rgb(40, 70, 160)
"""Information: settings, stats, logs."""

NO_PINGS: Final = discord.AllowedMentions.none()

# ------------------------------------------------------------------------------ option ranges
# Each slash option's range, read from the bound its check uses (:mod:`cogs.validation`): what
# Discord's client offers is exactly what the bot accepts, declared once.
StakeOption = app_commands.Range[int, validation.STAKE.low, validation.STAKE.high]
AnteOption = app_commands.Range[int, validation.ANTE.low, validation.ANTE.high]
SeatsOption = app_commands.Range[int, validation.SEATS.low, validation.SEATS.high]
MinBuyInOption = app_commands.Range[int, validation.MIN_BUY_IN.low, validation.MIN_BUY_IN.high]
MaxBuyInOption = app_commands.Range[int, validation.MAX_BUY_IN.low, validation.MAX_BUY_IN.high]
BuyInOption = app_commands.Range[int, validation.BUY_IN.low, validation.BUY_IN.high]
RebuyOption = app_commands.Range[int, validation.REBUY.low, validation.REBUY.high]
TimerOption = app_commands.Range[int, validation.TIMER.low, validation.TIMER.high]
AutoDealOption = app_commands.Range[int, validation.AUTO_DEAL.low, validation.AUTO_DEAL.high]
DiabloCapOption = app_commands.Range[int, validation.DIABLO_CAP.low, validation.DIABLO_CAP.high]
StartingStackOption = app_commands.Range[
    int, validation.STARTING_STACK.low, validation.STARTING_STACK.high
]
LevelsOption = app_commands.Range[int, validation.LEVELS.low, validation.LEVELS.high]
LevelMinutesOption = app_commands.Range[
    float, validation.LEVEL_MINUTES.low, validation.LEVEL_MINUTES.high
]
PlayersOption = app_commands.Range[int, validation.PLAYERS.low, validation.PLAYERS.high]
RebuysOption = app_commands.Range[int, validation.REBUYS.low, validation.REBUYS.high]
RebuyLevelsOption = app_commands.Range[
    int, validation.REBUY_LEVELS.low, validation.REBUY_LEVELS.high
]
AddonOption = app_commands.Range[int, validation.ADDON.low, validation.ADDON.high]
LateRegLevelsOption = app_commands.Range[
    int, validation.LATE_REG_LEVELS.low, validation.LATE_REG_LEVELS.high
]
ChipsOption = app_commands.Range[int, validation.CHIPS.low, validation.CHIPS.high]
ChipsMovedOption = app_commands.Range[int, validation.CHIPS_MOVED.low, validation.CHIPS_MOVED.high]
StartingBankrollOption = app_commands.Range[
    int, validation.STARTING_BANKROLL.low, validation.STARTING_BANKROLL.high
]
DailyAmountOption = app_commands.Range[
    int, validation.DAILY_AMOUNT.low, validation.DAILY_AMOUNT.high
]
DailyCooldownHoursOption = app_commands.Range[
    int, validation.DAILY_COOLDOWN_HOURS.low, validation.DAILY_COOLDOWN_HOURS.high
]


def chips(amount: int) -> str:
    """Chips with thousands separators.

    >>> chips(12345)
    '12,345'
    """
    return f"{amount:,}"


def signed(amount: int) -> str:
    """A change of chips with its sign.

    >>> signed(1200), signed(-300), signed(0)
    ('+1,200', '-300', '0')
    """
    return f"+{amount:,}" if amount > 0 else f"{amount:,}"


def when(unix: float, style: discord.utils.TimestampStyle = "R") -> str:
    """A Discord timestamp, shown in each reader's own time zone and language.

    >>> when(0), when(90.5, "f")
    ('<t:0:R>', '<t:90:f>')
    """
    return discord.utils.format_dt(datetime.fromtimestamp(unix, tz=UTC), style)


async def reply(
    interaction: discord.Interaction[Any],
    text: str | None = None,
    *,
    embed: discord.Embed | None = None,
) -> bool:
    """Answer only the user who interacted, whether or not the interaction was answered already.

    Returns whether Discord took the answer: an expired interaction (a busy bot) is logged,
    not raised, since there is nobody left to tell.
    """
    kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": NO_PINGS}
    if embed is not None:
        kwargs["embed"] = embed
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text or "", **kwargs)
        else:
            await interaction.response.send_message(text, **kwargs)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
        return False
    return True


def runs_table(interaction: discord.Interaction[Any], creator_id: int) -> bool:
    """Whether the member may change a table's settings: its creator, or a server manager."""
    return interaction.user.id == creator_id or interaction.permissions.manage_guild


def ordinal(place: int) -> str:
    """A place as people write it: ``1st``, ``2nd``, ``3rd``, ``4th``... ``11th``, ``21st``."""
    if place % 100 in (11, 12, 13):
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


async def variant_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for every option naming a game: the catalogue's games whose name or slug
    contains what was typed (Discord shows at most 25)."""
    needle = current.lower()
    return [
        app_commands.Choice(name=v.name[:100], value=v.slug)
        for v in engine.list_variants()
        if needle in v.slug or needle in v.name.lower()
    ][:25]
