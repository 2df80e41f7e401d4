"""The server economy: bankrolls, the daily bonus, the leaderboard, stats and admin tools.

A thin cog: each command turns an interaction into one or two :class:`data.Database` calls and the
result into an embed. Chips, cooldowns and the admin log live in :mod:`data`; no SQL here.

Who sees what (consistent for every command):

* Member commands (``/balance``, ``/stats``, ``/leaderboard``, a successful ``/daily``) answer
  publicly; ``/leaderboard`` pages with Previous/Next buttons that anyone may press.
* Admin *changes* (``/chips grant|set|remove``, ``/server settings`` with an option) answer
  publicly, so the table sees them. Admin *reads* (``/chips log``, ``/server settings`` with no
  option, ``/server audit``) answer ephemerally.
* Every refusal (bad input, missing permission, cooldown, not enough chips) is ephemeral, says
  why, and changes nothing.
* No reply pings anyone (members appear as mentions inside embeds, with no allowed mentions).

Admin commands need Manage Server twice: ``default_permissions`` hides them from other members in
Discord's client, and a run-time check refuses them if a server overrides that default.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Literal

import discord
from babel.numbers import format_decimal
from discord import app_commands
from discord.ext import commands

from cogs import kit, languages, validation
from cogs.kit import BLUE, GOLD, GREEN, NO_PINGS, RED
from cogs.kit import when as timestamp
from cogs.translator import _
from cogs.ui.economy import (
    MAX_NOTE,
    SETTING_NAMES,
    admin_log_line,
    audit_embed,
    leaderboard_line,
    member_name,
    note_text,
    setting_value,
    settings_embed,
    stats_embed,
)
from cogs.ui.paginator import (
    PageContent,
    PageRefused,
    fitted_lines,
    register_pages,
    send_paginated,
)
from cogs.ui.stats_chart import chart_file, has_chart, render_stats_chart, show_chart
from data import (
    ChipsInPlay,
    Cooldown,
    Database,
    DataError,
    GuildSettings,
    InsufficientFunds,
    LedgerEntry,
)
from i18n import Language, current_language, speaking
from tables.errors import Refusal

if TYPE_CHECKING:
    from cogs.app import PokerBot

Interaction = discord.Interaction["PokerBot"]

log = logging.getLogger("poker.economy")

# Translators: the first suggestion of /server settings' language option (at most 100
# characters): the server's channels take the language Discord reports for the server.
DISCORDS_LANGUAGE = _.lazy("Discord's server language")

MAX_CHIPS: Final = validation.MAX_CHIPS
"""Upper bound of any amount typed into a command (grant, set, remove, settings)."""

ChipsChange = Literal["grant", "set", "remove"]
"""What an admin's ``/chips`` command does to a bankroll."""
PAGE_SIZE: Final = 10
TABLE_LIMIT: Final = validation.MAX_TABLES_PER_PLAYER

LEADERBOARD_PAGES: Final = "leaderboard"
ADMIN_LOG_PAGES: Final = "adminlog"

MANAGE_SERVER: Final = discord.Permissions(manage_guild=True)


def fmt(amount: int, language: Language | None = None) -> str:
    """Chips as the reader's language writes numbers (``1,000``, ``1.000``, ``1 000``)."""
    return format_decimal(amount, locale=(language or current_language()).locale)


def signed(amount: int, language: Language | None = None) -> str:
    """A change of chips with its sign (``+1,200``, ``-300``, ``0``)."""
    return f"+{fmt(amount, language)}" if amount > 0 else fmt(amount, language)


def _place(place: int) -> str:
    """A finishing place as the reader's language writes it ("1st", "2nd", "3rd", "4th")."""
    # Translators: a finishing place (1st, 2nd, 3rd, 4th...): the four messages are English's
    # suffixes; write your language's ordinal of {place} in each (e.g. "{place}." in German).
    if place % 100 not in (11, 12, 13) and place % 10 == 1:
        return _("{place}st", place=place)
    if place % 100 not in (11, 12, 13) and place % 10 == 2:
        return _("{place}nd", place=place)
    if place % 100 not in (11, 12, 13) and place % 10 == 3:
        return _("{place}rd", place=place)
    return _("{place}th", place=place)


def _standings_left_out(shown: int, count: int) -> str | None:
    """Says that the standings list only the first ``shown`` of ``count`` members (None when
    it lists every one)."""
    if count <= shown:
        return None
    # Translators: under a season's standings that list only the best {shown} members.
    return _.plural(
        "The top {shown} of {count} player.",
        "The top {shown} of {count} players.",
        count=count,
        shown=shown,
    )


def _standings_line(rank: int, user_id: int, points: int, balance: int) -> str:
    # Translators: a line of a season's standings; {member} is a mention, {points} "6 points"
    # and {chips} "1,200 chips".
    return _(
        "**{rank}.** {member} — {points} · {chips}",
        rank=rank,
        member=kit.mention(user_id),
        points=_.plural("{count} point", "{count} points", count=points),
        chips=_.plural("{count} chip", "{count} chips", count=balance),
    )


# ------------------------------------------------------------------------------------------
# Page builders (module-level: they reach the bot through the interaction, so paging keeps
# working across restarts and reloads)
# ------------------------------------------------------------------------------------------


def _db(interaction: Interaction) -> Database:
    return interaction.client.db


def _guild_key(interaction: Interaction, key: str) -> int:
    if interaction.guild_id is None or str(interaction.guild_id) != key:
        raise PageRefused(_("This list belongs to another server."))
    return interaction.guild_id


async def leaderboard_page(interaction: Interaction, key: str, offset: int) -> PageContent:
    guild_id = _guild_key(interaction, key)
    page = await _db(interaction).leaderboard(guild_id, offset=offset, limit=PAGE_SIZE)
    if interaction.guild is not None:
        title = _("🏆 Leaderboard — {server}", server=interaction.guild.name)
    else:
        title = _("🏆 Leaderboard")
    embed = discord.Embed(title=title, colour=GOLD)
    if page.items:
        embed.description = "\n".join(leaderboard_line(e) for e in page.items)
    else:
        embed.description = _("No one has any chips yet. Try `/daily` or `/balance`.")
    embed.set_footer(
        text=_.plural(
            "{count} player · bankroll + chips on tables",
            "{count} players · bankroll + chips on tables",
            count=page.total,
        )
    )
    return PageContent(embed, page.offset, page.limit, page.total)


async def admin_log_page(interaction: Interaction, key: str, offset: int) -> PageContent:
    guild_id = _guild_key(interaction, key)
    if not interaction.permissions.manage_guild:
        raise PageRefused(_("You need the Manage Server permission to read the admin log."))

    async def lines_at(at: int, limit: int) -> tuple[list[str], int]:
        page = await _db(interaction).admin_log(guild_id, offset=at, limit=limit)
        return [admin_log_line(e) for e in page.items], page.total

    # Long notes may not fit ten to a message: the page is shown in parts, none left out.
    fitted = await fitted_lines(lines_at, offset, PAGE_SIZE, kit.DESCRIPTION_LIMIT)
    embed = discord.Embed(title=_("Admin log"), colour=BLUE)
    embed.description = fitted.text or _("No admin changes yet.")
    embed.set_footer(
        text=_.plural(
            "{count} entry, newest first", "{count} entries, newest first", count=fitted.total
        )
    )
    return PageContent.of_lines(embed, fitted, PAGE_SIZE)


# ------------------------------------------------------------------------------------------
# The cog
# ------------------------------------------------------------------------------------------


def _member(
    user: discord.Member | discord.User, *, action: Literal["show", "change"]
) -> discord.Member:
    """A human member of this server (not a bot, not someone outside the server)."""
    if not isinstance(user, discord.Member):
        raise Refusal(_("{member} is not a member of this server.", member=member_name(user)))
    if user.bot:
        if action == "show":
            raise Refusal(
                _("{member} is a bot; bots have no bankroll to show.", member=member_name(user))
            )
        raise Refusal(
            _("{member} is a bot; bots have no bankroll to change.", member=member_name(user))
        )
    return user


def _clean_note(note: str | None) -> str | None:
    if note is None:
        return None
    note = validation.check_text(note, validation.option("note"), MAX_NOTE).strip()
    return note or None


def _chips_embed(
    how: ChipsChange, admin: str, who: str, amount: int, entry: LedgerEntry
) -> discord.Embed:
    """What an admin's ``/chips grant|set|remove`` did, in the current language."""
    old = entry.balance_after - entry.delta
    if how == "set":
        embed = discord.Embed(
            title=_("Bankroll set"),
            description=_(
                "{admin} set {member}'s bankroll to **{chips}**.",
                admin=admin,
                member=who,
                chips=entry.balance_after,
            ),
            colour=BLUE,
        )
        embed.add_field(name=_("Before"), value=fmt(old))
        embed.add_field(name=_("Change"), value=signed(entry.delta))
    elif how == "grant":
        embed = discord.Embed(
            title=_("Chips granted"),
            description=_.plural(
                "{admin} granted **{count}** chip to {member}.",
                "{admin} granted **{count}** chips to {member}.",
                count=amount,
                admin=admin,
                member=who,
            ),
            colour=GREEN,
        )
    else:
        embed = discord.Embed(
            title=_("Chips removed"),
            description=_.plural(
                "{admin} removed **{count}** chip from {member}.",
                "{admin} removed **{count}** chips from {member}.",
                count=amount,
                admin=admin,
                member=who,
            ),
            colour=RED,
        )
    if how != "set":
        embed.add_field(
            name=_("Bankroll"),
            value=_("{before} → **{after}**", before=old, after=entry.balance_after),
        )
    if entry.note:
        embed.add_field(name=_("Note"), value=note_text(entry.note), inline=False)
    return embed


def _settings_changed(
    before: GuildSettings,
    after: GuildSettings,
    server: str,
    admin: str,
    language: tuple[str, str] | None = None,
) -> discord.Embed:
    """The public note of an admin's change of the economy settings (and of the server's
    language, ``language`` its names before and after), in the current language."""
    embed = settings_embed(after, server)
    embed.title = _("Economy settings changed")
    changes = []
    if language is not None:
        # Translators: the setting of the language a server's tables speak.
        spoken = _("Language")
        changes.append(
            _("{setting}: {old} → **{new}**", setting=spoken, old=language[0], new=language[1])
        )
    for name, label in SETTING_NAMES.items():
        old, new = getattr(before, name), getattr(after, name)
        if old != new:
            changes.append(
                # Translators: one changed setting: its name, the old and the new value.
                _(
                    "{setting}: {old} → **{new}**",
                    setting=label,
                    old=setting_value(name, old),
                    new=setting_value(name, new),
                )
            )
    if changes:
        embed.description = _(
            "{admin} changed the settings.\n{changes}", admin=admin, changes="\n".join(changes)
        )
    else:
        embed.description = _("{admin} changed the settings.\nNo value changed.", admin=admin)
    embed.set_footer(text=_("Existing bankrolls are not changed."))
    return embed


class Economy(commands.Cog):
    """Bankrolls, the daily bonus, leaderboard, stats; admin chips and server settings."""

    chips_group = app_commands.Group(
        name="chips",
        description="Grant, set or remove chips; read the admin log (Manage Server).",
        guild_only=True,
        default_permissions=MANAGE_SERVER,
    )
    server_group = app_commands.Group(
        name="server",
        description="This server's economy settings and chip audit (Manage Server).",
        guild_only=True,
        default_permissions=MANAGE_SERVER,
    )

    season_group = app_commands.Group(
        name="season", description="Seasons of standings (Manage Server).", parent=server_group
    )

    def __init__(self, bot: PokerBot, *, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self.clock = clock
        """Unix seconds for the daily bonus; tests may replace it."""

    @property
    def db(self) -> Database:
        return self.bot.db

    # ---------------------------------------------------------------- plumbing

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.guild is None:
            # A check must raise an AppCommandError to reach the bot's error handler.
            raise app_commands.NoPrivateMessage()
        return True

    async def _send(
        self,
        interaction: Interaction,
        embed: discord.Embed,
        *,
        ephemeral: bool = False,
        changed: bool = False,
        file: discord.File | None = None,
    ) -> None:
        """Answer with ``embed`` (and ``file``, a picture the embed shows). With ``changed`` the
        data call has already changed chips or settings, so a failed reply must not read as
        "try again" (an admin would grant twice): the member is told, if Discord still lets us,
        that the change was made."""
        extra: dict[str, Any] = {"file": file} if file is not None else {}
        try:
            if interaction.response.is_done():
                await interaction.followup.send(
                    embed=embed, ephemeral=ephemeral, allowed_mentions=NO_PINGS, **extra
                )
            else:
                await interaction.response.send_message(
                    embed=embed, ephemeral=ephemeral, allowed_mentions=NO_PINGS, **extra
                )
        except discord.HTTPException:
            log.warning("could not send the reply to interaction %s", interaction.id, exc_info=True)
            await kit.reply(
                interaction,
                _(
                    "Done, but Discord refused the reply. Nothing needs repeating: "
                    "check `/balance` or `/chips log`."
                )
                if changed
                else _("Discord refused the reply; please try again in a moment."),
            )

    @staticmethod
    def _guild(interaction: Interaction) -> discord.Guild:
        if interaction.guild is None:  # interaction_check already refused this
            raise Refusal(_("This command works in a server, not in DMs."))
        return interaction.guild

    async def on_tables(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """Chips the member has on this server's open tables, and at how many tables."""
        return await self.db.chips_on_tables(guild_id, user_id)

    # ---------------------------------------------------------------- member commands

    @app_commands.command(name="balance", description="Show a bankroll and the chips on tables.")
    @app_commands.describe(member="Whose chips to show (default: yours).")
    @app_commands.guild_only()
    async def balance(self, interaction: Interaction, member: discord.Member | None = None) -> None:
        """Public. Creates the member's account (with the starting bankroll) on first use."""
        guild = self._guild(interaction)
        target = _member(member or interaction.user, action="show")
        bankroll = await self.db.balance(guild.id, target.id, now=self.clock())
        on_tables, tables = await self.on_tables(guild.id, target.id)
        embed = discord.Embed(title=_("Chips — {member}", member=member_name(target)), colour=GOLD)
        embed.description = target.mention
        embed.add_field(name=_("Bankroll"), value=fmt(bankroll))
        if tables:
            # Translators: {chips} on the member's open tables, at {count} tables.
            where = _.plural(
                "{chips} ({count} table)", "{chips} ({count} tables)", count=tables, chips=on_tables
            )
        else:
            where = fmt(on_tables)
        embed.add_field(name=_("On tables"), value=where)
        # Two columns beside the avatar, the total below: three would break words on a phone.
        embed.add_field(name=_("Total"), value=f"**{fmt(bankroll + on_tables)}**", inline=False)
        embed.set_thumbnail(url=target.display_avatar.url)
        await self._send(interaction, embed)

    @app_commands.command(name="daily", description="Claim this server's daily chip bonus.")
    @app_commands.guild_only()
    async def daily(self, interaction: Interaction) -> None:
        """Public on success; the cooldown answer is ephemeral and says when to come back."""
        guild = self._guild(interaction)
        settings = await self.db.get_settings(guild.id)
        if settings.daily_amount <= 0:
            raise Refusal(_("The daily bonus is turned off on this server."))
        try:
            claim = await self.db.claim_daily(guild.id, interaction.user.id, now=self.clock())
        except Cooldown as exc:
            # Translators: {when} is "in 3 hours" and {date} the date and time, both written
            # by Discord in the reader's language.
            raise Refusal(
                _(
                    "You already claimed your daily bonus. The next one is ready {when} ({date}).",
                    when=timestamp(exc.next_at),
                    date=timestamp(exc.next_at, "f"),
                )
            ) from exc
        embed = discord.Embed(
            title=_("Daily bonus"),
            description=_.plural(
                "{member} claimed **{count}** chip.",
                "{member} claimed **{count}** chips.",
                count=claim.amount,
                member=interaction.user.mention,
            ),
            colour=GREEN,
        )
        embed.add_field(name=_("Bankroll"), value=fmt(claim.balance))
        embed.add_field(name=_("Next bonus"), value=timestamp(claim.next_at))
        await self._send(interaction, embed, changed=True)

    @app_commands.command(
        name="leaderboard", description="Top bankrolls plus chips on tables, 10 per page."
    )
    @app_commands.describe(season="A past season's final standings (default: the live board).")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction, season: str | None = None) -> None:
        """Public; anyone may press Previous/Next (the message is edited in place)."""
        guild = self._guild(interaction)
        if season is None:
            await send_paginated(interaction, LEADERBOARD_PAGES, str(guild.id))
            return
        if not isinstance(season, str) or not 0 < len(season) <= 50:
            raise Refusal(_("A season's name is 1 to 50 characters."))
        try:
            closed, standings = await self.db.season_standings(guild.id, season)
        except DataError as exc:
            raise Refusal(
                _("There is no past season called “{season}” here.", season=season)
            ) from exc
        embed = discord.Embed(
            title=_("🏆 Season {season} — final standings", season=closed.name), colour=GOLD
        )
        embed.description = "\n".join(
            _standings_line(s.rank, s.user_id, s.points, s.balance) for s in standings[:20]
        ) or _("Nobody played that season.")
        left_out = _standings_left_out(20, len(standings))
        if left_out is not None:
            embed.set_footer(text=left_out)
        await self._send(interaction, embed)

    @leaderboard.autocomplete("season")
    async def season_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        names = [s.name for s in await self.db.seasons(interaction.guild_id) if s.ended_at]
        return [
            app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()
        ][:25]

    @app_commands.command(
        name="stats", description="Hands played and won, net, biggest pot, best hand."
    )
    @app_commands.describe(member="Whose stats to show (default: yours).")
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction, member: discord.Member | None = None) -> None:
        """Public."""
        guild = self._guild(interaction)
        target = _member(member or interaction.user, action="show")
        # A member with years of hands is a long read and a picture: answered in time anyway.
        embed, chart = await kit.in_time(
            interaction, self._stats_answer(guild.id, target), public=True
        )
        await self._send(interaction, embed, file=chart)

    async def _stats_answer(
        self, guild_id: int, target: discord.Member | discord.User
    ) -> tuple[discord.Embed, discord.File | None]:
        """/stats's embed for ``target`` and the picture it shows (None: nothing to draw)."""
        stats = await self.db.stats(guild_id, target.id)
        embed = stats_embed(target, stats)
        record = await self.db.tournament_record(guild_id, target.id)
        if record.played:
            best = record.best_finish or 0
            embed.add_field(
                name=_("Tournaments"),
                # Translators: {place} is the best finishing place, "1st", "2nd"... in English.
                value=_(
                    "{played} played · {cashes} cashed · {wins} won · best finish {place} · "
                    "{prizes} in prizes",
                    played=record.played,
                    cashes=record.cashes,
                    wins=record.wins,
                    place=_place(best),
                    prizes=record.winnings,
                ),
                inline=False,
            )
        chart = await self._stats_chart(guild_id, target.id, embed) if stats.hands_played else None
        return embed, chart

    async def _stats_chart(
        self, guild_id: int, user_id: int, embed: discord.Embed
    ) -> discord.File | None:
        """The member's game over time as a picture the embed shows, and its nets per game as
        text under it; None when there is nothing to draw (no bankroll change to speak of)."""
        history = await self.db.stats_history(guild_id, user_id)
        if not has_chart(history):
            return None
        # Drawing takes tens of milliseconds of CPU: off the event loop.
        png = await asyncio.to_thread(render_stats_chart, history)
        show_chart(embed, history)
        return chart_file(png, history)

    # ---------------------------------------------------------------- /chips (admin)

    @chips_group.command(name="grant", description="Give new chips to a member's bankroll.")
    @app_commands.describe(
        member="Who receives the chips.",
        amount=f"How many chips to add (1 to {MAX_CHIPS:,}).",
        note="Why (kept in the admin log).",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def chips_grant(
        self,
        interaction: Interaction,
        member: discord.Member,
        amount: kit.ChipsMovedOption,
        note: app_commands.Range[str, 1, MAX_NOTE] | None = None,
    ) -> None:
        """Public: the table sees grants. Logged in the admin log by the data layer."""
        await self._change_chips(interaction, "grant", member, amount, note)

    @chips_group.command(name="set", description="Set a member's bankroll to an exact amount.")
    @app_commands.describe(
        member="Whose bankroll to set.",
        amount=f"The new bankroll (0 to {MAX_CHIPS:,}); chips on tables are not touched.",
        note="Why (kept in the admin log).",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def chips_set(
        self,
        interaction: Interaction,
        member: discord.Member,
        amount: kit.ChipsOption,
        note: app_commands.Range[str, 1, MAX_NOTE] | None = None,
    ) -> None:
        """Public: the table sees it. Logged in the admin log by the data layer."""
        await self._change_chips(interaction, "set", member, amount, note)

    @chips_group.command(name="remove", description="Take chips out of a member's bankroll.")
    @app_commands.describe(
        member="Whose bankroll loses the chips.",
        amount=f"How many chips to remove (1 to {MAX_CHIPS:,}); at most their bankroll.",
        note="Why (kept in the admin log).",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def chips_remove(
        self,
        interaction: Interaction,
        member: discord.Member,
        amount: kit.ChipsMovedOption,
        note: app_commands.Range[str, 1, MAX_NOTE] | None = None,
    ) -> None:
        """Public: the table sees it. Refused if the bankroll holds less than ``amount``."""
        await self._change_chips(interaction, "remove", member, amount, note)

    async def _change_chips(
        self,
        interaction: Interaction,
        how: ChipsChange,
        member: discord.Member,
        amount: int,
        note: str | None,
    ) -> None:
        """The one body of ``/chips grant|set|remove``: check, change (ledger and admin log in
        the data layer), and show the bankroll before and after, publicly."""
        guild = self._guild(interaction)
        target = _member(member, action="change")
        amount = (validation.CHIPS if how == "set" else validation.CHIPS_MOVED).check(amount)
        change = {
            "grant": self.db.admin_grant,
            "set": self.db.admin_set,
            "remove": self.db.admin_remove,
        }[how]
        try:
            entry = await change(
                guild.id,
                interaction.user.id,
                target.id,
                amount,
                note=_clean_note(note),
                now=self.clock(),
            )
        except InsufficientFunds as exc:  # only a removal takes chips a bankroll may lack
            raise Refusal(
                _.plural(
                    "{member}'s bankroll holds only {count} chip, so {amount} cannot be removed "
                    "(chips on tables are not touched).",
                    "{member}'s bankroll holds only {count} chips, so {amount} cannot be removed "
                    "(chips on tables are not touched).",
                    count=exc.balance,
                    member=member_name(target),
                    amount=amount,
                )
            ) from exc
        # Posted for everyone at the table: in the channel's language.
        with speaking(languages.guild_language(guild.id)):
            embed = _chips_embed(how, interaction.user.mention, target.mention, amount, entry)
        await self._send(interaction, embed, changed=True)

    @chips_group.command(name="log", description="Recent admin changes (grants, sets, settings).")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def chips_log(self, interaction: Interaction) -> None:
        """Ephemeral, paginated; only the admin who opened it can page."""
        guild = self._guild(interaction)
        await send_paginated(
            interaction,
            ADMIN_LOG_PAGES,
            str(guild.id),
            ephemeral=True,
            owner_id=interaction.user.id,
        )

    # ---------------------------------------------------------------- /server (admin)

    @server_group.command(
        name="settings",
        description="Show or change the starting bankroll, the daily bonus and the table limit.",
    )
    @app_commands.describe(
        starting_bankroll=f"Chips a member starts with (0 to {MAX_CHIPS:,}); new members only.",
        daily_amount=f"Chips per /daily (0 turns the bonus off; at most {MAX_CHIPS:,}).",
        daily_cooldown_hours=(
            "Hours between two /daily claims "
            f"({validation.DAILY_COOLDOWN_HOURS.low} to {validation.DAILY_COOLDOWN_HOURS.high})."
        ),
        max_tables_per_player=(
            "How many of this server's tables one member may sit at at once "
            f"({TABLE_LIMIT.low} to {TABLE_LIMIT.high})."
        ),
        language="The language of the tables, lobbies and announcements in this server.",
    )
    @app_commands.autocomplete(language=languages.language_autocomplete(DISCORDS_LANGUAGE))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def server_settings(
        self,
        interaction: Interaction,
        starting_bankroll: kit.StartingBankrollOption | None = None,
        daily_amount: kit.DailyAmountOption | None = None,
        daily_cooldown_hours: kit.DailyCooldownHoursOption | None = None,
        max_tables_per_player: kit.TablesPerPlayerOption | None = None,
        language: str | None = None,
    ) -> None:
        """No option: the current settings, ephemerally. Options: change them, publicly
        (logged in the admin log by the data layer)."""
        guild = self._guild(interaction)
        spoken = languages.native_name(languages.guild_language(guild.id))
        options = (starting_bankroll, daily_amount, daily_cooldown_hours, max_tables_per_player)
        # Every option is checked before anything changes: a refused one changes nothing.
        starting_bankroll = validation.STARTING_BANKROLL.optional(starting_bankroll)
        daily_amount = validation.DAILY_AMOUNT.optional(daily_amount)
        daily_cooldown_hours = validation.DAILY_COOLDOWN_HOURS.optional(daily_cooldown_hours)
        max_tables_per_player = TABLE_LIMIT.optional(max_tables_per_player)
        if language is not None:
            code = languages.check_language(language)
            await languages.set_guild_language(self.db, guild.id, code, interaction.user.id)
            # The tables that follow the server are redrawn in its new language.
            presenter = self.bot.presenter
            for live in self.bot.tables.in_guild(guild.id):
                if live.meta.language is None:
                    presenter.spawn(presenter.refresh(live))
            if all(option is None for option in options):
                chosen = languages.native_name(languages.guild_language(guild.id))
                await kit.reply(
                    interaction,
                    _("This server's tables now speak {name}.", name=chosen)
                    if code is not None
                    else _(
                        "This server's tables follow Discord's server language ({name}).",
                        name=chosen,
                    ),
                )
                return
        if all(option is None for option in options):
            settings = await self.db.get_settings(guild.id)
            await self._send(interaction, settings_embed(settings, guild.name), ephemeral=True)
            return
        before = await self.db.get_settings(guild.id)
        after = await self.db.update_settings(
            guild.id,
            interaction.user.id,
            starting_bankroll=starting_bankroll,
            daily_amount=daily_amount,
            daily_cooldown=None if daily_cooldown_hours is None else daily_cooldown_hours * 3600,
            max_tables_per_player=max_tables_per_player,
            now=self.clock(),
        )
        # Posted for everyone: in the channel's language.
        now_spoken = languages.native_name(languages.guild_language(guild.id))
        language_change = None if language is None or spoken == now_spoken else (spoken, now_spoken)
        with speaking(languages.guild_language(guild.id)):
            embed = _settings_changed(
                before, after, guild.name, interaction.user.mention, language_change
            )
        await self._send(interaction, embed, changed=True)

    @server_group.command(
        name="audit", description="Check that every chip issued is in a bankroll or on a table."
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def server_audit(self, interaction: Interaction) -> None:
        """Ephemeral. Reads the whole ledger, so it defers first."""
        guild = self._guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        audit = await self.db.chip_audit(guild.id)
        await self._send(interaction, audit_embed(audit), ephemeral=True)

    @season_group.command(name="start", description="Open a named season of standings.")
    @app_commands.describe(
        name="The season's name", points="Points for 1st, 2nd, ... place in tournaments"
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def season_start(
        self, interaction: Interaction, name: str, points: str = "10,6,4,3,2,1"
    ) -> None:
        guild = self._guild(interaction)
        if not isinstance(name, str) or not 0 < len(name.strip()) <= 50:
            raise Refusal(_("A season's name is 1 to 50 characters."))
        if not isinstance(points, str):
            raise Refusal(_("Points are text, like 10,6,4,3,2,1."))
        scale = parse_points(points)
        try:
            season = await self.db.start_season(guild.id, name.strip(), scale)
        except DataError as exc:
            # The data layer refuses a second running season, or a name already used.
            if any(s.ended_at is None for s in await self.db.seasons(guild.id)):
                raise Refusal(
                    _("A season is already running in this server: end it first.")
                ) from exc
            raise Refusal(
                _("There was already a season called “{season}” here.", season=name.strip())
            ) from exc
        with speaking(languages.guild_language(guild.id)):
            embed = discord.Embed(
                title=_("Season {season} has begun", season=season.name), colour=GREEN
            )
            embed.add_field(
                name=_("Points by place"), value=" · ".join(fmt(p) for p in season.points)
            )
        await self._send(interaction, embed, changed=True)

    @season_group.command(
        name="end", description="Close the season: snapshot the standings, maybe reset bankrolls."
    )
    @app_commands.describe(reset="Set every bankroll back to the starting amount")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def season_end(self, interaction: Interaction, reset: bool = False) -> None:
        guild = self._guild(interaction)
        reset = validation.check_flag(reset, _.lazy("The reset option"))
        try:
            season, standings = await self.db.end_season(guild.id, interaction.user.id, reset=reset)
        except ChipsInPlay as exc:
            raise Refusal(
                _.plural(
                    "{count} member still has chips at this server's tables or in its "
                    "tournaments, where a reset cannot reach them: end those games first, or "
                    "end the season without a reset. The season is still running.",
                    "{count} members still have chips at this server's tables or in its "
                    "tournaments, where a reset cannot reach them: end those games first, or "
                    "end the season without a reset. The season is still running.",
                    count=exc.members,
                )
            ) from exc
        except DataError as exc:  # the only other one: no season is running
            raise Refusal(_("No season is running in this server.")) from exc
        with speaking(languages.guild_language(guild.id)):
            embed = discord.Embed(
                title=_("Season {season} is over", season=season.name), colour=GOLD
            )
            embed.description = "\n".join(
                _standings_line(s.rank, s.user_id, s.points, s.balance) for s in standings[:10]
            ) or _("Nobody played.")
            notes = [_standings_left_out(10, len(standings))]
            if reset:
                notes.append(_("Every bankroll is back to the starting amount."))
            if any(notes):
                embed.set_footer(text=" · ".join(note for note in notes if note))
        await self._send(interaction, embed, changed=True)


def parse_points(text: str) -> tuple[int, ...]:
    """Season points by place, best first: ``"10,6,4,3,2,1"``.

    >>> parse_points("10, 6 4")
    (10, 6, 4)

    Only ASCII digits: ``"²"`` is a digit to :meth:`str.isdigit` but no number to :func:`int`,
    and ``"٣"`` is not how points are written here.

    >>> parse_points("10,²")
    Traceback (most recent call last):
    ...
    tables.errors.Refusal: Points are whole numbers for 1st, 2nd, ... place, like 10,6,4,3,2,1.
    """
    parts = text.replace(",", " ").split()
    if not parts or len(parts) > 50 or not all(_ascii_number(p) for p in parts):
        raise Refusal(_("Points are whole numbers for 1st, 2nd, ... place, like 10,6,4,3,2,1."))
    return tuple(int(p) for p in parts)


def _ascii_number(part: str) -> bool:
    return part.isascii() and part.isdigit() and len(part) <= 6


async def setup(bot: PokerBot) -> None:
    register_pages(LEADERBOARD_PAGES, leaderboard_page)
    register_pages(ADMIN_LOG_PAGES, admin_log_page)
    await bot.add_cog(Economy(bot))
