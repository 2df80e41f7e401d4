"""Queries about the languages the bot writes in: each member's last seen client locale (for
their DMs) and each server's chosen language and last seen Discord locale.

Codes are stored as Discord spells them (``de``, ``es-ES``); turning one into a shipped
language (English for one the bot does not ship) is the localisation layer's part.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from data import accounts
from data.core import Tx, marks


@dataclass(frozen=True, slots=True)
class GuildLanguage:
    """A server's language row. ``language`` None: follow the server's Discord locale."""

    guild_id: int
    language: str | None
    guild_locale: str | None


async def member_locales(tx: Tx, user_ids: Iterable[int]) -> dict[int, str]:
    """The last seen locale of each listed member who has one, in one query."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    rows = await tx.fetch_all(
        f"SELECT user_id, locale FROM member_locales WHERE user_id IN ({marks(len(wanted))})",
        wanted,
    )
    return {int(row["user_id"]): str(row["locale"]) for row in rows}


async def set_member_locale(tx: Tx, user_id: int, locale: str, now: float) -> None:
    await tx.execute(
        "INSERT INTO member_locales (user_id, locale, seen_at) VALUES (?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, seen_at = excluded.seen_at",
        (user_id, locale, now),
    )


async def guild_languages(tx: Tx) -> list[GuildLanguage]:
    """Every server's row (one short row per server: read whole at start-up)."""
    rows = await tx.fetch_all("SELECT guild_id, language, guild_locale FROM guild_languages")
    return [GuildLanguage(int(r["guild_id"]), r["language"], r["guild_locale"]) for r in rows]


async def set_guild_language(
    tx: Tx, guild_id: int, language: str | None, actor_id: int, now: float
) -> None:
    """The server's chosen language (None: follow its Discord locale again). A change is
    written to the server's admin log, as a setting (``language``)."""
    row = await tx.fetch_one("SELECT language FROM guild_languages WHERE guild_id = ?", (guild_id,))
    old = None if row is None else row["language"]
    if old != language:
        await accounts.log_admin(
            tx,
            guild_id,
            actor_id,
            "settings",
            None,
            json.dumps({"language": old}),
            json.dumps({"language": language}),
            None,
            None,
            now,
        )
    await tx.execute(
        "INSERT INTO guild_languages (guild_id, language, updated_at, updated_by) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
        "language = excluded.language, updated_at = excluded.updated_at, "
        "updated_by = excluded.updated_by",
        (guild_id, language, now, actor_id),
    )


async def set_guild_locale(tx: Tx, guild_id: int, locale: str, now: float) -> None:
    """The server's Discord locale as last seen on an interaction."""
    await tx.execute(
        "INSERT INTO guild_languages (guild_id, guild_locale, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET guild_locale = excluded.guild_locale",
        (guild_id, locale, now),
    )
