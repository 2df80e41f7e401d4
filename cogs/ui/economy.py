"""What the economy commands show: settings, stats, the chip audit, leaderboard and admin-log
lines. Pure formatting (data values in, embeds and text out), used by :mod:`cogs.economy`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

import discord
from babel.numbers import format_decimal, format_percent

from cogs.kit import BLUE, DESCRIPTION_LIMIT, GREEN, GREY, RED, as_typed, fit_lines, mention
from cogs.kit import when as timestamp
from cogs.languages import native_name
from cogs.translator import _
from cogs.ui.replay import stored_hand_name
from data import AdminLogEntry, ChipAudit, GuildSettings, LeaderboardEntry, PlayerStats
from i18n import LazyString, current_language, resolve

MAX_NOTE: Final = 200
"""Longest admin note kept (and shown), in characters."""

SETTING_NAMES: Final[dict[str, LazyString]] = {
    "starting_bankroll": _.lazy("Starting bankroll"),
    "daily_amount": _.lazy("Daily bonus"),
    "daily_cooldown": _.lazy("Daily cooldown"),
    "max_tables_per_player": _.lazy("Tables per member"),
}
LOG_LABELS: Final[dict[str, LazyString]] = {
    # Translators: the settings' names inside a line of the admin log ("... changed daily
    # cooldown 24 h → 12 h"), each written as your language writes it mid-sentence.
    "starting_bankroll": _.lazy("starting bankroll"),
    "daily_amount": _.lazy("daily bonus"),
    "daily_cooldown": _.lazy("daily cooldown"),
    "max_tables_per_player": _.lazy("tables per member"),
    "table_defaults": _.lazy("table defaults"),
    "language": _.lazy("server language"),
}


AUDIT_NAMED: Final = 20
"""The most members, tables or prize pools the chip audit names in one line."""


def fmt(amount: int) -> str:
    """A number in the current language's way (``1,000`` / ``1.000`` / ``1 000``)."""
    return format_decimal(amount, locale=current_language().locale)


def signed(amount: int) -> str:
    """A change of chips with its sign."""
    return f"+{fmt(amount)}" if amount > 0 else f"-{fmt(-amount)}" if amount < 0 else "0"


def hours(seconds: int) -> str:
    """``24 h``, ``1 h 30 min``, ``45 min``."""
    h, rest = divmod(seconds, 3600)
    m = rest // 60
    # Translators: durations (a cooldown), in the language's abbreviations.
    if h and m:
        return _("{hours}\u00a0h {minutes}\u00a0min", hours=h, minutes=m)
    if h:
        return _("{hours}\u00a0h", hours=h)
    return _("{minutes}\u00a0min", minutes=m) if m else _("{seconds}\u00a0s", seconds=seconds)


def setting_value(name: str, value: object) -> str:
    if name == "language":
        if isinstance(value, str):
            return native_name(resolve(value))
        # Translators: the server language setting's value when no language was chosen.
        return _("Discord's server language")
    if name == "daily_cooldown" and isinstance(value, int):
        return hours(value)
    if isinstance(value, int):
        return fmt(value)
    text = str(value)
    return text if len(text) <= 60 else text[:59] + "…"


def member_name(member: discord.abc.User) -> str:
    """A member's display name as they typed it: their text, not markdown or a mention."""
    return as_typed(member.display_name)


def note_text(note: str | None) -> str:
    return discord.utils.escape_markdown(note[:MAX_NOTE]) if note else ""


def settings_embed(settings: GuildSettings, guild_name: str) -> discord.Embed:
    title = _("Economy settings — {server}", server=guild_name)
    embed = discord.Embed(title=title[:256], colour=BLUE)
    embed.add_field(
        name=str(SETTING_NAMES["starting_bankroll"]), value=fmt(settings.starting_bankroll)
    )
    # Translators: the daily bonus when a server turned it off.
    daily = fmt(settings.daily_amount) if settings.daily_amount else _("off")
    embed.add_field(name=str(SETTING_NAMES["daily_amount"]), value=daily)
    embed.add_field(name=str(SETTING_NAMES["daily_cooldown"]), value=hours(settings.daily_cooldown))
    embed.add_field(
        name=str(SETTING_NAMES["max_tables_per_player"]), value=fmt(settings.max_tables_per_player)
    )
    if settings.updated_at is None:
        embed.set_footer(text=_("Defaults: never changed on this server."))
    elif settings.updated_by is not None:
        # Translators: {when}: a Discord timestamp ("3 days ago"); {member}: a mention.
        embed.description = _(
            "Last changed {when} by {member}.",
            when=timestamp(settings.updated_at),
            member=mention(settings.updated_by),
        )
    else:
        embed.description = _("Last changed {when}.", when=timestamp(settings.updated_at))
    return embed


def stats_embed(member: discord.abc.User, stats: PlayerStats) -> discord.Embed:
    title = _("Poker stats — {member}", member=member_name(member))
    embed = discord.Embed(title=title[:256], colour=BLUE)
    if stats.hands_played == 0:
        embed.description = _(
            "{member} hasn't played a hand on this server yet.", member=member.mention
        )
        embed.colour = GREY
        return embed
    rate = format_percent(
        stats.hands_won / stats.hands_played, "#,##0.0%", locale=current_language().locale
    )
    embed.description = member.mention
    embed.add_field(name=_("Hands played"), value=fmt(stats.hands_played))
    # Translators: hands won and the share of hands played they are ({rate}: "12.5%").
    embed.add_field(
        name=_("Hands won"), value=_("{count} ({rate})", count=stats.hands_won, rate=rate)
    )
    embed.add_field(name=_("Net chips"), value=signed(stats.net_chips))
    embed.add_field(name=_("Biggest pot won"), value=fmt(stats.biggest_pot))
    best = stored_hand_name(stats.best_hand_name) if stats.best_hand_name else "—"
    embed.add_field(name=_("Best hand"), value=best)
    return embed


def _named_and_counted(
    items: list[str], all_named: Callable[[str], str], some_named: Callable[[str, int], str]
) -> str:
    """An audit line naming the first :data:`AUDIT_NAMED` of ``items`` and counting the rest
    (each line is a sentence of its own in the catalogue, whole or cut)."""
    named = ", ".join(items[:AUDIT_NAMED])
    more = len(items) - AUDIT_NAMED
    return some_named(named, more) if more > 0 else all_named(named)


def audit_embed(audit: ChipAudit) -> discord.Embed:
    """The ``/server audit`` answer: OK, or the discrepancy and where it is."""
    expected = audit.circulating
    held = audit.bankrolls + audit.on_tables + audit.in_tournaments
    if audit.ok:
        embed = discord.Embed(
            title=_("Chip audit: OK"),
            description=_("Every chip issued and not removed is in a bankroll or on a table."),
            colour=GREEN,
        )
    else:
        embed = discord.Embed(title=_("Chip audit: DISCREPANCY"), colour=RED)
        lines = []
        if expected != held:
            lines.append(
                _(
                    "Issued − removed is **{expected}** but bankrolls + tables hold **{held}** "
                    "(difference {difference}).",
                    expected=expected,
                    held=held,
                    difference=signed(held - expected),
                )
            )
        # Twenty of each are named; the others are counted.
        if audit.accounts_off:
            lines.append(
                _named_and_counted(
                    [mention(user) for _account, user in audit.accounts_off],
                    lambda members: _(
                        "Bankrolls that disagree with the ledger: {members}", members=members
                    ),
                    lambda members, more: _.plural(
                        "Bankrolls that disagree with the ledger: {members} and {count} more",
                        "Bankrolls that disagree with the ledger: {members} and {count} more",
                        members=members,
                        count=more,
                    ),
                )
            )
        if audit.tables_off:
            lines.append(
                _named_and_counted(
                    [f"#{t}" for t in audit.tables_off],
                    lambda tables: _(
                        "Tables whose chips disagree with the ledger: {tables}", tables=tables
                    ),
                    lambda tables, more: _.plural(
                        "Tables whose chips disagree with the ledger: {tables} and {count} more",
                        "Tables whose chips disagree with the ledger: {tables} and {count} more",
                        tables=tables,
                        count=more,
                    ),
                )
            )
        if audit.tournaments_off:
            lines.append(
                _named_and_counted(
                    [f"#{t}" for t in audit.tournaments_off],
                    lambda pools: _(
                        "Tournament prize pools that disagree with the ledger: {pools}",
                        pools=pools,
                    ),
                    lambda pools, more: _.plural(
                        "Tournament prize pools that disagree with the ledger: {pools} and "
                        "{count} more",
                        "Tournament prize pools that disagree with the ledger: {pools} and "
                        "{count} more",
                        pools=pools,
                        count=more,
                    ),
                )
            )
        embed.description = fit_lines(lines, DESCRIPTION_LIMIT)
    embed.add_field(name=_("Issued"), value=fmt(audit.issued))
    embed.add_field(name=_("Removed"), value=fmt(audit.removed))
    embed.add_field(name=_("In circulation"), value=fmt(expected))
    embed.add_field(name=_("Bankrolls"), value=fmt(audit.bankrolls))
    embed.add_field(name=_("Of which the house account"), value=fmt(audit.house))
    embed.add_field(name=_("On tables"), value=fmt(audit.on_tables))
    if audit.in_tournaments:
        embed.add_field(name=_("In prize pools"), value=fmt(audit.in_tournaments))
    embed.add_field(name=_("Held in total"), value=fmt(held))
    return embed


def leaderboard_line(entry: LeaderboardEntry) -> str:
    medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(entry.rank, f"**{entry.rank}.**")
    line = f"{medal} <@{entry.user_id}> — **{fmt(entry.total)}**"
    if entry.on_tables:
        # Translators: a leaderboard line's total split into bankroll and chips on tables.
        line += " " + _(
            "({bankroll} + {on_tables} on tables)",
            bankroll=entry.bankroll,
            on_tables=entry.on_tables,
        )
    return line


def _json_or_raw(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


def admin_log_line(entry: AdminLogEntry) -> str:
    """One line of ``/chips log``."""
    when = timestamp(entry.created_at, "f")
    actor = mention(entry.actor_id)
    target = mention(entry.target_id) if entry.target_id is not None else "?"
    old, new = _json_or_raw(entry.old_value), _json_or_raw(entry.new_value)
    if entry.action in ("grant", "set", "remove") and isinstance(old, int) and isinstance(new, int):
        values: dict[str, Any] = {
            "when": when,
            "actor": actor,
            "target": target,
            "old": old,
            "new": new,
        }
        # Translators: a line of the chips admin log: {actor} changed {target}'s bankroll
        # from {old} to {new} chips; {when}: a Discord timestamp.
        if entry.action == "grant":
            what = _(
                "{when} {actor} granted **{amount}** to {target} ({old} → {new})",
                amount=new - old,
                **values,
            )
        elif entry.action == "remove":
            what = _(
                "{when} {actor} removed **{amount}** from {target} ({old} → {new})",
                amount=old - new,
                **values,
            )
        else:
            what = _("{when} {actor} set {target}'s bankroll to **{new}** (was {old})", **values)
    elif entry.action == "settings" and isinstance(old, dict) and isinstance(new, dict):
        parts = [
            _(
                "{setting} {old} → {new}",
                setting=str(LOG_LABELS[str(k)]) if str(k) in LOG_LABELS else str(k),
                old=setting_value(k, old.get(k)),
                new=setting_value(k, v),
            )
            for k, v in new.items()
        ]
        what = _(
            "{when} {actor} changed {settings}", when=when, actor=actor, settings=", ".join(parts)
        )
    elif (
        entry.action == "season_reset"
        and isinstance(old, dict)
        and isinstance(new, dict)
        and isinstance(new.get("bankroll"), int)
        and isinstance(new.get("members"), int)
    ):
        # Translators: a line of the chips admin log: {actor} ended the season {season} and
        # set the bankrolls of {count} members back to {amount} chips; {when}: a timestamp.
        what = _.plural(
            "{when} {actor} ended season “{season}” and set {count} member's bankroll back "
            "to **{amount}**",
            "{when} {actor} ended season “{season}” and set {count} members' bankrolls back "
            "to **{amount}**",
            count=new["members"],
            when=when,
            actor=actor,
            season=as_typed(str(old.get("season", "?"))),
            amount=new["bankroll"],
        )
    else:
        what = f"{when} {actor} {entry.action}: {entry.old_value} → {entry.new_value}"
    if entry.note:
        # Translators: an admin log line followed by the admin's note, quoted.
        return _("{line} — “{note}”", line=what, note=note_text(entry.note))
    return what
