"""What the economy commands show: settings, stats, the chip audit, leaderboard and admin-log
lines. Pure formatting (data values in, embeds and text out), used by :mod:`cogs.economy`."""

from __future__ import annotations

import json
from typing import Any, Final

import discord

from cogs.kit import BLUE, GREEN, GREY, RED, signed
from cogs.kit import chips as fmt
from cogs.kit import when as timestamp
from data import AdminLogEntry, ChipAudit, GuildSettings, LeaderboardEntry, PlayerStats

MAX_NOTE: Final = 200
"""Longest admin note kept (and shown), in characters."""

SETTING_NAMES: Final = {
    "starting_bankroll": "Starting bankroll",
    "daily_amount": "Daily bonus",
    "daily_cooldown": "Daily cooldown",
    "max_tables_per_player": "Tables per member",
}
LOG_LABELS: Final = {**SETTING_NAMES, "table_defaults": "Table defaults"}


def hours(seconds: int) -> str:
    """``24 h``, ``1 h 30 min``, ``45 min``."""
    h, rest = divmod(seconds, 3600)
    m = rest // 60
    if h and m:
        return f"{h} h {m} min"
    if h:
        return f"{h} h"
    return f"{m} min" if m else f"{seconds} s"


def setting_value(name: str, value: object) -> str:
    if name == "daily_cooldown" and isinstance(value, int):
        return hours(value)
    if isinstance(value, int):
        return fmt(value)
    text = str(value)
    return text if len(text) <= 60 else text[:59] + "…"


def note_text(note: str | None) -> str:
    return discord.utils.escape_markdown(note[:MAX_NOTE]) if note else ""


def settings_embed(settings: GuildSettings, guild_name: str) -> discord.Embed:
    embed = discord.Embed(title=f"Economy settings — {guild_name}", colour=BLUE)
    embed.add_field(name="Starting bankroll", value=fmt(settings.starting_bankroll))
    daily = fmt(settings.daily_amount) if settings.daily_amount else "off"
    embed.add_field(name="Daily bonus", value=daily)
    embed.add_field(name="Daily cooldown", value=hours(settings.daily_cooldown))
    embed.add_field(name="Tables per member", value=fmt(settings.max_tables_per_player))
    if settings.updated_at is None:
        embed.set_footer(text="Defaults: never changed on this server.")
    else:
        changed = f"Last changed {timestamp(settings.updated_at)}"
        if settings.updated_by is not None:
            changed += f" by <@{settings.updated_by}>"
        embed.description = changed + "."
    return embed


def stats_embed(member: discord.abc.User, stats: PlayerStats) -> discord.Embed:
    embed = discord.Embed(title=f"Poker stats — {member.display_name}", colour=BLUE)
    if stats.hands_played == 0:
        embed.description = f"{member.mention} hasn't played a hand on this server yet."
        embed.colour = GREY
        return embed
    rate = 100 * stats.hands_won / stats.hands_played
    embed.description = member.mention
    embed.add_field(name="Hands played", value=fmt(stats.hands_played))
    embed.add_field(name="Hands won", value=f"{fmt(stats.hands_won)} ({rate:.1f}%)")
    embed.add_field(name="Net chips", value=signed(stats.net_chips))
    embed.add_field(name="Biggest pot won", value=fmt(stats.biggest_pot))
    embed.add_field(name="Best hand", value=stats.best_hand_name or "—")
    return embed


def audit_embed(audit: ChipAudit) -> discord.Embed:
    """The ``/server audit`` answer: OK, or the discrepancy and where it is."""
    expected = audit.circulating
    held = audit.bankrolls + audit.on_tables + audit.in_tournaments
    if audit.ok:
        embed = discord.Embed(
            title="Chip audit: OK",
            description="Every chip issued and not removed is in a bankroll or on a table.",
            colour=GREEN,
        )
    else:
        embed = discord.Embed(title="Chip audit: DISCREPANCY", colour=RED)
        lines = []
        if expected != held:
            lines.append(
                f"Issued − removed is **{fmt(expected)}** but bankrolls + tables hold "
                f"**{fmt(held)}** (difference {signed(held - expected)})."
            )
        if audit.accounts_off:
            who = ", ".join(f"<@{user}>" for _, user in audit.accounts_off[:20])
            more = len(audit.accounts_off) - 20
            lines.append(
                f"Bankrolls that disagree with the ledger: {who}"
                + (f" and {more} more" if more > 0 else "")
            )
        if audit.tables_off:
            tables = ", ".join(f"#{t}" for t in audit.tables_off[:20])
            lines.append(f"Tables whose chips disagree with the ledger: {tables}")
        if audit.tournaments_off:
            pools = ", ".join(f"#{t}" for t in audit.tournaments_off[:20])
            lines.append(f"Tournament prize pools that disagree with the ledger: {pools}")
        embed.description = "\n".join(lines)
    embed.add_field(name="Issued", value=fmt(audit.issued))
    embed.add_field(name="Removed", value=fmt(audit.removed))
    embed.add_field(name="In circulation", value=fmt(expected))
    embed.add_field(name="Bankrolls", value=fmt(audit.bankrolls))
    embed.add_field(name="Of which the house account", value=fmt(audit.house))
    embed.add_field(name="On tables", value=fmt(audit.on_tables))
    if audit.in_tournaments:
        embed.add_field(name="In prize pools", value=fmt(audit.in_tournaments))
    embed.add_field(name="Held in total", value=fmt(held))
    return embed


def leaderboard_line(entry: LeaderboardEntry) -> str:
    medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(entry.rank, f"**{entry.rank}.**")
    line = f"{medal} <@{entry.user_id}> — **{fmt(entry.total)}**"
    if entry.on_tables:
        line += f" ({fmt(entry.bankroll)} + {fmt(entry.on_tables)} on tables)"
    return line


def _json_or_raw(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


def admin_log_line(entry: AdminLogEntry) -> str:
    """One line of ``/chips log``."""
    when = timestamp(entry.created_at, "f")
    actor = f"<@{entry.actor_id}>"
    target = f"<@{entry.target_id}>" if entry.target_id is not None else "?"
    old, new = _json_or_raw(entry.old_value), _json_or_raw(entry.new_value)
    if entry.action in ("grant", "set", "remove") and isinstance(old, int) and isinstance(new, int):
        change = f"{fmt(old)} → {fmt(new)}"
        if entry.action == "grant":
            what = f"granted **{fmt(new - old)}** to {target} ({change})"
        elif entry.action == "remove":
            what = f"removed **{fmt(old - new)}** from {target} ({change})"
        else:
            what = f"set {target}'s bankroll to **{fmt(new)}** (was {fmt(old)})"
    elif entry.action == "settings" and isinstance(old, dict) and isinstance(new, dict):
        parts = [
            f"{LOG_LABELS.get(str(k), str(k)).lower()} {setting_value(k, old.get(k))} → "
            f"{setting_value(k, v)}"
            for k, v in new.items()
        ]
        what = "changed " + ", ".join(parts)
    else:
        what = f"{entry.action}: {entry.old_value} → {entry.new_value}"
    line = f"{when} {actor} {what}"
    if entry.note:
        line += f" — “{note_text(entry.note)}”"
    return line
