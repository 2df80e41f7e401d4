"""Queries about a player's own preferences (turn pings, the four-colour deck).

Preferences belong to the Discord user, not to a server: a player who turns pings off does so
once for every table. A user without a row has the defaults.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from data.core import Tx, marks


@dataclass(frozen=True, slots=True)
class Preferences:
    """One player's preferences."""

    notify: bool
    """Ping the player (a message mentioning them) when the action passes to them."""
    four_colour: bool
    """Card pictures with four suit colours (clubs green, diamonds blue)."""


DEFAULT = Preferences(notify=True, four_colour=False)


async def get(tx: Tx, user_id: int) -> Preferences:
    row = await tx.fetch_one(
        "SELECT notify, four_colour FROM player_preferences WHERE user_id = ?", (user_id,)
    )
    if row is None:
        return DEFAULT
    return Preferences(notify=bool(row["notify"]), four_colour=bool(row["four_colour"]))


async def many(tx: Tx, user_ids: Iterable[int]) -> dict[int, Preferences]:
    """Every listed user's preferences (defaults for those never set), in one query."""
    wanted = sorted(set(user_ids))
    found = {user_id: DEFAULT for user_id in wanted}
    if not wanted:
        return found
    rows = await tx.fetch_all(
        "SELECT user_id, notify, four_colour FROM player_preferences "
        f"WHERE user_id IN ({marks(len(wanted))})",
        wanted,
    )
    for row in rows:
        found[row["user_id"]] = Preferences(bool(row["notify"]), bool(row["four_colour"]))
    return found


async def set_(
    tx: Tx, user_id: int, notify: bool | None, four_colour: bool | None, now: float
) -> Preferences:
    """Change the given preferences (None = unchanged); returns them all."""
    current = await get(tx, user_id)
    new = Preferences(
        notify=current.notify if notify is None else notify,
        four_colour=current.four_colour if four_colour is None else four_colour,
    )
    await tx.execute(
        "INSERT INTO player_preferences (user_id, notify, four_colour, updated_at) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
        "notify = excluded.notify, four_colour = excluded.four_colour, "
        "updated_at = excluded.updated_at",
        (user_id, int(new.notify), int(new.four_colour), now),
    )
    return new
