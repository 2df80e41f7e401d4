"""Queries about members' chips outside the tables: server settings, bankrolls, the ledger, the
daily bonus and the admin log.

A bankroll changes only through :func:`move`, which writes the new balance and its ledger row in
the same transaction, so every bankroll is the sum of its ledger rows (:func:`data.stats.audit`
checks).

House players (seats the bot plays) have no bankroll of their own: :func:`holder` maps every
house seat to its server's one house account (:data:`HOUSE_ACCOUNT`), which pays their buy-ins
and takes back their chips. Each of those ledger rows names the seat in ``actor_id``.
"""

from __future__ import annotations

import json
from typing import Final, Literal, cast

from data.core import Row, Tx, one, scalar, seconds
from data.errors import Cooldown, DataError, InsufficientFunds, InvalidArgument
from data.models import (
    Account,
    AdminAction,
    AdminLogEntry,
    DailyClaim,
    GuildSettings,
    LedgerEntry,
    LedgerKind,
    Page,
)
from engine.seating import is_house

DEFAULT_STARTING_BANKROLL: Final = 1000
DEFAULT_DAILY_AMOUNT: Final = 100
DEFAULT_DAILY_COOLDOWN: Final = 24 * 60 * 60
DEFAULT_TABLE_DEFAULTS: Final = "{}"
DEFAULT_MAX_TABLES_PER_PLAYER: Final = 4

HOUSE_ACCOUNT: Final = -1
"""The user id of each server's house account. No Discord user has a negative id, and house
seats are numbered from -101 down, so it is nobody's seat; member-only views (leaderboard,
seasons, stats) leave out every negative id, this one included."""

AdminChange = Literal["grant", "set", "remove"]

_ADMIN_KINDS: Final[dict[AdminChange, LedgerKind]] = {
    "grant": "admin_grant",
    "set": "admin_set",
    "remove": "admin_remove",
}


def _account(r: Row) -> Account:
    return Account(
        r["guild_id"],
        r["user_id"],
        r["balance"],
        seconds(r["last_daily_at"]),
        float(r["created_at"]),
        float(r["updated_at"]),
    )


def _ledger_entry(r: Row) -> LedgerEntry:
    return LedgerEntry(
        r["entry_id"],
        r["guild_id"],
        r["user_id"],
        r["delta"],
        r["balance_after"],
        cast(LedgerKind, r["kind"]),
        r["table_id"],
        r["hand_id"],
        r["actor_id"],
        r["note"],
        float(r["created_at"]),
    )


def _admin_entry(r: Row) -> AdminLogEntry:
    return AdminLogEntry(
        r["log_id"],
        r["guild_id"],
        r["actor_id"],
        cast(AdminAction, r["action"]),
        r["target_id"],
        r["old_value"],
        r["new_value"],
        r["note"],
        r["entry_id"],
        float(r["created_at"]),
    )


# ------------------------------------------------------------------------------ settings


async def settings(tx: Tx, guild_id: int) -> GuildSettings:
    r = await tx.fetch_one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
    if r is None:
        return GuildSettings(
            guild_id,
            DEFAULT_STARTING_BANKROLL,
            DEFAULT_DAILY_AMOUNT,
            DEFAULT_DAILY_COOLDOWN,
            DEFAULT_TABLE_DEFAULTS,
            None,
            None,
            DEFAULT_MAX_TABLES_PER_PLAYER,
        )
    return GuildSettings(
        r["guild_id"],
        r["starting_bankroll"],
        r["daily_amount"],
        r["daily_cooldown"],
        r["table_defaults"],
        float(r["updated_at"]),
        r["updated_by"],
        r["max_tables_per_player"],
    )


async def update_settings(
    tx: Tx,
    guild_id: int,
    actor_id: int,
    changes: dict[str, int | str],
    note: str | None,
    now: float,
) -> GuildSettings:
    """``changes`` maps column names (already checked) to their new values."""
    old = await settings(tx, guild_id)
    old_values: dict[str, int | str] = {
        "starting_bankroll": old.starting_bankroll,
        "daily_amount": old.daily_amount,
        "daily_cooldown": old.daily_cooldown,
        "table_defaults": old.table_defaults_json,
        "max_tables_per_player": old.max_tables_per_player,
    }
    new_values = {**old_values, **changes}
    await tx.execute(
        "INSERT INTO guild_settings (guild_id, starting_bankroll, daily_amount, "
        "daily_cooldown, table_defaults, max_tables_per_player, updated_at, updated_by) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
        "starting_bankroll = excluded.starting_bankroll, "
        "daily_amount = excluded.daily_amount, daily_cooldown = excluded.daily_cooldown, "
        "table_defaults = excluded.table_defaults, "
        "max_tables_per_player = excluded.max_tables_per_player, "
        "updated_at = excluded.updated_at, updated_by = excluded.updated_by",
        (
            guild_id,
            new_values["starting_bankroll"],
            new_values["daily_amount"],
            new_values["daily_cooldown"],
            new_values["table_defaults"],
            new_values["max_tables_per_player"],
            now,
            actor_id,
        ),
    )
    await log_admin(
        tx,
        guild_id,
        actor_id,
        "settings",
        None,
        json.dumps({k: old_values[k] for k in changes}),
        json.dumps(changes),
        note,
        None,
        now,
    )
    return await settings(tx, guild_id)


# ------------------------------------------------------------------------------ bankrolls


async def account(tx: Tx, guild_id: int, user_id: int, now: float) -> Account:
    """The member's account, created with the server's starting bankroll (an 'issue' ledger
    row) if it does not exist yet."""
    if is_house(user_id):
        # the house is funded by house_fund rows only (fund_house), never a starting bankroll
        raise InvalidArgument(f"{user_id} is a house seat: it has no bankroll of its own")
    r = await tx.fetch_one(
        "SELECT * FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    if r is not None:
        return _account(r)
    start = (await settings(tx, guild_id)).starting_bankroll
    await tx.execute(
        "INSERT INTO accounts (guild_id, user_id, balance, created_at, updated_at) "
        "VALUES (?, ?, 0, ?, ?)",
        (guild_id, user_id, now, now),
    )
    await move(tx, guild_id, user_id, start, "issue", now, note="starting bankroll")
    return Account(guild_id, user_id, start, None, now, now)


async def move(
    tx: Tx,
    guild_id: int,
    user_id: int,
    delta: int,
    kind: LedgerKind,
    now: float,
    *,
    table_id: int | None = None,
    hand_id: int | None = None,
    actor_id: int | None = None,
    note: str | None = None,
    tournament_id: int | None = None,
) -> LedgerEntry:
    """THE way a bankroll changes: update the balance and append its ledger row."""
    # The balance test is in the WHERE clause rather than left to the CHECK constraint: after
    # a refused statement PostgreSQL accepts nothing more in the transaction, not even the
    # SELECT that explains the refusal.
    r = await tx.fetch_one(
        "UPDATE accounts SET balance = balance + ?, updated_at = ? "
        "WHERE guild_id = ? AND user_id = ? AND balance + ? >= 0 RETURNING balance",
        (delta, now, guild_id, user_id, delta),
    )
    if r is None:
        have = await tx.fetch_one(
            "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        if have is None:
            raise DataError(f"member {user_id} has no account in server {guild_id}")
        raise InsufficientFunds(guild_id, user_id, have[0], -delta)
    entry = await one(
        tx,
        "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, table_id, "
        "hand_id, actor_id, note, created_at, tournament_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
        (
            guild_id,
            user_id,
            delta,
            r[0],
            kind,
            table_id,
            hand_id,
            actor_id,
            note,
            now,
            tournament_id,
        ),
    )
    return _ledger_entry(entry)


def holder(user_id: int) -> int:
    """The account that pays for ``user_id``'s seat and takes its chips back: a member's own
    bankroll, or for a house seat (a negative id) the server's house account."""
    return HOUSE_ACCOUNT if is_house(user_id) else user_id


def seat_actor(user_id: int) -> int | None:
    """What a seat's ledger row records in ``actor_id``: the house seat it was for (several
    seats share the house account), nothing for a member (the row's user is the member)."""
    return user_id if holder(user_id) != user_id else None


async def fund_house(tx: Tx, guild_id: int, user_id: int, amount: int, now: float) -> int:
    """Make sure the house account behind house seat ``user_id`` (a negative id) holds at least
    ``amount`` chips, issuing only what it lacks as a ``house_fund`` row; returns its balance."""
    if not is_house(user_id):
        raise DataError(f"house players have negative ids, not {user_id}")
    have = await open_house(tx, guild_id, now)
    if have >= amount:
        return have
    entry = await move(
        tx,
        guild_id,
        HOUSE_ACCOUNT,
        amount - have,
        "house_fund",
        now,
        actor_id=seat_actor(user_id),
    )
    return entry.balance_after


async def open_house(tx: Tx, guild_id: int, now: float) -> int:
    """The server's house account's balance, the account opened empty if need be: the caller
    writes a ledger row to it in the same transaction (the audit wants one for every account).
    No member's starting bankroll for the house: every chip it holds came from a house_fund
    row or from a house seat's cash-out."""
    # Two processes may open it at once (PostgreSQL): the second finds it made, not an error.
    await tx.execute(
        "INSERT INTO accounts (guild_id, user_id, balance, created_at, updated_at) "
        "VALUES (?, ?, 0, ?, ?) ON CONFLICT (guild_id, user_id) DO NOTHING",
        (guild_id, HOUSE_ACCOUNT, now, now),
    )
    r = await one(
        tx,
        "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?",
        (guild_id, HOUSE_ACCOUNT),
    )
    return int(r[0])


async def house_balance(tx: Tx, guild_id: int | None) -> int:
    """The chips in the house account of one server (0 before its first house player), or of
    every server."""
    if guild_id is None:
        return int(
            await scalar(
                tx,
                "SELECT coalesce(sum(balance), 0) FROM accounts WHERE user_id = ?",
                (HOUSE_ACCOUNT,),
            )
        )
    return int(
        await scalar(
            tx,
            "SELECT coalesce(sum(balance), 0) FROM accounts WHERE guild_id = ? AND user_id = ?",
            (guild_id, HOUSE_ACCOUNT),
        )
    )


async def claim_daily(tx: Tx, guild_id: int, user_id: int, now: float) -> DailyClaim:
    current = await settings(tx, guild_id)
    member = await account(tx, guild_id, user_id, now)
    if member.last_daily_at is not None:
        next_at = member.last_daily_at + current.daily_cooldown
        if now < next_at:
            raise Cooldown(next_at - now, next_at)
    entry = await move(
        tx, guild_id, user_id, current.daily_amount, "daily", now, note="daily bonus"
    )
    await tx.execute(
        "UPDATE accounts SET last_daily_at = ? WHERE guild_id = ? AND user_id = ?",
        (now, guild_id, user_id),
    )
    return DailyClaim(
        current.daily_amount, entry.balance_after, now + current.daily_cooldown, entry
    )


async def admin_change(
    tx: Tx,
    guild_id: int,
    actor_id: int,
    user_id: int,
    action: AdminChange,
    value: int,
    note: str | None,
    now: float,
) -> LedgerEntry:
    """An admin's grant, set or removal of chips: the ledger row and its admin-log line."""
    old = (await account(tx, guild_id, user_id, now)).balance
    delta = {"grant": value, "set": value - old, "remove": -value}[action]
    entry = await move(
        tx, guild_id, user_id, delta, _ADMIN_KINDS[action], now, actor_id=actor_id, note=note
    )
    await log_admin(
        tx,
        guild_id,
        actor_id,
        action,
        user_id,
        json.dumps(old),
        json.dumps(entry.balance_after),
        note,
        entry.entry_id,
        now,
    )
    return entry


# ------------------------------------------------------------------------------ history


async def ledger(
    tx: Tx, guild_id: int, user_id: int | None, offset: int, limit: int
) -> Page[LedgerEntry]:
    where, params = "guild_id = ?", [guild_id]
    if user_id is not None:
        where += " AND user_id = ?"
        params.append(user_id)
    total = await scalar(tx, f"SELECT count(*) FROM ledger WHERE {where}", params)
    rows = await tx.fetch_all(
        f"SELECT * FROM ledger WHERE {where} ORDER BY entry_id DESC LIMIT ? OFFSET ?",
        [*params, limit, offset],
    )
    return Page(tuple(_ledger_entry(r) for r in rows), total, offset, limit)


async def log_admin(
    tx: Tx,
    guild_id: int,
    actor_id: int,
    action: AdminAction,
    target_id: int | None,
    old_value: str,
    new_value: str,
    note: str | None,
    entry_id: int | None,
    now: float,
) -> None:
    await tx.execute(
        "INSERT INTO admin_log (guild_id, actor_id, action, target_id, old_value, "
        "new_value, note, entry_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, actor_id, action, target_id, old_value, new_value, note, entry_id, now),
    )


async def admin_log(tx: Tx, guild_id: int, offset: int, limit: int) -> Page[AdminLogEntry]:
    total = await scalar(tx, "SELECT count(*) FROM admin_log WHERE guild_id = ?", (guild_id,))
    rows = await tx.fetch_all(
        "SELECT * FROM admin_log WHERE guild_id = ? ORDER BY log_id DESC LIMIT ? OFFSET ?",
        (guild_id, limit, offset),
    )
    return Page(tuple(_admin_entry(r) for r in rows), total, offset, limit)
