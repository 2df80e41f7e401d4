"""``/poker ledger``: who is up tonight, and who pays whom to settle up.

The ledger of a table (each player's buy-in, rebuys, cash-out or stack, and net, as the data
layer's ledger rows have them: :mod:`data.ledger`), the night's nets when several tables ran,
and the settle-up with the fewest transfers (:func:`engine.settle.settle`), as an embed with the
night's CSV in PokerNow's ledger columns (:mod:`cogs.ui.ledger`). Chips are play money: the
settle-up names chips, never money, and links to no payment.

Shown on demand (``/poker ledger [table] [share]``: for the asker alone unless shared) and when
a cash table closes (:func:`post_closing_ledger`, called by ``/poker end`` and by the
presenter when a table closes as a hand ends).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import history, kit, validation
from cogs.translator import _
from cogs.ui import ledger as texts
from data import Database, NotFound
from data.ledger import NightLedger, TableLedger
from i18n import Language, current_language
from tables.errors import TableProblem
from tables.languages import table_language

if TYPE_CHECKING:
    from cogs.app import PokerBot

Interaction = discord.Interaction["PokerBot"]

log = logging.getLogger("poker.ledger")


def names_of(night: NightLedger) -> dict[int, str]:
    """Player id -> display name, from the names every table of the night kept."""
    names: dict[int, str] = {}
    for ledger in night.night:
        # House players by the table's words, in its language (see tables.live.shown_names).
        for key, name in history.table_names(ledger.table).items():
            try:
                names[int(key)] = name
            except ValueError:
                continue  # a snapshot the bot did not write: its players show by id
    return names


async def load(
    db: Database, guild_id: int | None, channel_id: int | None, table_id: int | None
) -> NightLedger:
    """The night of the table asked about (or the channel's), refused with a reason."""
    if guild_id is None:
        raise TableProblem(
            _("The ledger is kept per server: use this command in a server channel.")
        )
    try:
        if table_id is not None:
            night = await db.night_ledger(table_id)
        else:
            night = await db.night_ledger(channel_id=channel_id or 0)
    except NotFound as exc:
        raise TableProblem(_no_such_table(table_id or 0)) from exc
    if night is None:
        raise TableProblem(_("This channel has had no table yet; give a table id."))
    if night.table.table.guild_id != guild_id:
        raise TableProblem(_no_such_table(night.table.table.table_id))
    if night.table.table.tournament_id is not None:
        raise TableProblem(
            _(
                "A tournament table has no cash ledger: its chips are tournament chips "
                "(see the tournament's results)."
            )
        )
    return night


def readable_night(interaction: Interaction, night: NightLedger) -> NightLedger:
    """The night as the asker may read it: refused if the table asked about plays in a channel
    they cannot see (and they did not play there), without the night's other tables that do.
    Each table's nets settle among its own players, so the settle-up of the rest still holds."""

    def readable(ledger: TableLedger) -> bool:
        players = {str(line.player_id) for line in ledger.lines}
        return history.may_read(interaction, ledger.table.channel_id, players)

    if not readable(night.table):
        raise TableProblem(
            _(
                "Table\u00a0#{table} plays in a channel you can't see: its ledger is for the "
                "members who can.",
                table=str(night.table.table.table_id),
            )
        )
    return _night_of(night, readable)


def _night_of(night: NightLedger, readable: Callable[[TableLedger], bool]) -> NightLedger:
    kept = tuple(ledger for ledger in night.night if readable(ledger))
    return night if len(kept) == len(night.night) else dataclasses.replace(night, night=kept)


def public_night(bot: PokerBot, night: NightLedger, here: int | None = None) -> NightLedger:
    """The night as a channel may read it (``here``; default the table's own, where its
    closing ledger goes): its own tables, and those in channels every member of the server
    can read (a table in another private channel is left out of a message its readers may
    not share)."""
    here = night.table.table.channel_id if here is None else here
    guild = bot.get_guild(night.table.table.guild_id)

    def readable(ledger: TableLedger) -> bool:
        channel_id = ledger.table.channel_id
        if channel_id == here:
            return True
        channel = None if guild is None else guild.get_channel_or_thread(channel_id)
        if channel is None or (isinstance(channel, discord.Thread) and channel.is_private()):
            return False
        assert guild is not None
        return channel.permissions_for(guild.default_role).view_channel

    night = _night_of(night, readable)
    if not readable(night.table):
        raise TableProblem(
            # Translators: {option} is the slash command's option as the menu writes it
            # (share: not translated).
            _(
                "Table\u00a0#{table} plays in a channel not everyone here can see, so its "
                "ledger is not posted here: leave {option} off to read it yourself.",
                table=str(night.table.table.table_id),
                option="share",
            )
        )
    return night


def channel_language_of(night: NightLedger) -> Language:
    """The language the table's channel reads (its own choice, kept in its snapshot, else
    its server's): a ledger posted when a table closes needs no live table to know it."""
    table = night.table.table
    try:
        chosen = json.loads(table.state_json or "{}").get("meta", {}).get("language")
    except (ValueError, AttributeError):
        chosen = None
    return table_language(chosen if isinstance(chosen, str) else None, table.guild_id)


def _no_such_table(table_id: int) -> str:
    # Translators: {table} is a table's number (its id); "#" introduces it.
    return _("There is no table\u00a0#{table} in this server.", table=str(table_id))


def message(
    night: NightLedger, language: Language | None = None
) -> tuple[discord.Embed, discord.File]:
    """The embed (in ``language``, default the current one) and the CSV (PokerNow's English
    columns and file name in every language: tools read them). Built off the event loop by
    the callers, so the language is passed, not read from the loop's context: the exact
    settle-up of 16 players takes about a tenth of a second, time the loop keeps for the
    tables."""
    names = names_of(night)
    embed = texts.ledger_embed(night, names, language=language or current_language())
    return embed, texts.ledger_file(night, names)


async def post_closing_ledger(
    bot: PokerBot, table_id: int, channel_id: int, interaction: Interaction | None = None
) -> None:
    """Post the closed table's ledger and settle-up in its channel (a follow-up of
    ``interaction`` when there is one), in the channel's language. A failure is logged: the
    table is closed regardless."""
    # The table's end, also for whatever else follows it (a poker night's Discord event).
    bot.dispatch("poker_game_ended", "table", table_id)
    try:
        night = await bot.db.night_ledger(table_id)
        if night is None or night.table.table.tournament_id is not None:
            return
        night = public_night(bot, night)
        embed, file = await asyncio.to_thread(message, night, channel_language_of(night))
        if interaction is not None:
            await interaction.followup.send(
                embed=embed, file=file, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            channel = bot.get_partial_messageable(channel_id)
            await channel.send(
                embed=embed, file=file, allowed_mentions=discord.AllowedMentions.none()
            )
    except (discord.HTTPException, NotFound) as exc:
        log.warning("table %s: could not post the closing ledger: %s", table_id, exc)


class Ledger(commands.Cog):
    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="ledger", description="Tonight's buy-ins, cash-outs and nets, and who pays whom."
    )
    @app_commands.describe(
        table="A table id (default: this channel's table, or its last one)",
        share="Post it for the whole channel (default: only you see it)",
    )
    async def ledger(
        self, interaction: Interaction, table: int | None = None, share: bool = False
    ) -> None:
        # A forged request can carry anything: a truthy non-boolean must not post it publicly.
        share = validation.check_flag(share, _.lazy("The share option"))
        if table is not None:
            table = validation.check_id(table, validation.TABLE_ID)
        night = await load(self.bot.db, interaction.guild_id, interaction.channel_id, table)
        night = readable_night(interaction, night)
        if share:  # (what the channel reads: none of the night's tables it may not see)
            night = public_night(self.bot, night, here=interaction.channel_id)
        # Shared, the channel reads it; otherwise only the asker, in their language.
        language = channel_language_of(night) if share else current_language()
        embed, file = await asyncio.to_thread(message, night, language)
        await interaction.response.send_message(
            embed=embed,
            file=file,
            ephemeral=not share,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: PokerBot) -> None:
    cog = Ledger(bot)
    await bot.add_cog(cog)
    kit.move_under_poker(bot, cog.ledger)


async def teardown(bot: PokerBot) -> None:
    kit.leave_poker(bot, "ledger")
