"""Saved rows rewritten as an older version of the bot might have written them: what the
restore tests start from (SQLite only; the bot must be stopped)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

Change = Callable[[dict[str, Any]], None]


def rewrite(db_path: Path, table: str, column: str, key: str, change: Change, where: str) -> int:
    """Apply ``change`` to the JSON ``column`` of the one row of ``table`` matched by
    ``where``; returns that row's ``key``."""
    with sqlite3.connect(db_path) as conn:
        (row_id, text) = conn.execute(
            f"SELECT {key}, {column} FROM {table} WHERE {where}"
        ).fetchone()
        value = json.loads(text)
        change(value)
        conn.execute(
            f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (json.dumps(value), row_id)
        )
    return int(row_id)


def rewrite_table(db_path: Path, change: Change, where: str = "1 = 1") -> int:
    """Rewrite a table's saved state (its snapshot: engine, meta...); returns its id."""
    return rewrite(db_path, "tables", "state", "table_id", change, where)


def rewrite_tournament(db_path: Path, change: Change) -> int:
    """Rewrite the one tournament's saved config; returns its id."""
    return rewrite(db_path, "tournaments", "config", "tournament_id", change, "1 = 1")


def act_refused(seat: int) -> Change:
    """A raise to 3 by ``seat`` appended to the hand: a move that the test's fixed limit of 2
    refuses, as a rule tightened since would."""

    def change(state: dict[str, Any]) -> None:
        state["engine"]["journal"].append(
            {"op": "act", "seat": seat, "action": {"type": "raise", "to": 3}}
        )

    return change


RETIRED_GAME = "a-game-since-retired"


def game_retired(state: dict[str, Any]) -> None:
    """The table's game is one this version no longer has."""
    state["engine"]["config"]["variant"] = RETIRED_GAME


def tournament_game_retired(config: dict[str, Any]) -> None:
    """The tournament's game (in its config) is one this version no longer has."""
    config["table"]["variant"] = RETIRED_GAME


def house_rule_retired(state: dict[str, Any]) -> None:
    """A house rule's value this version no longer has, in the table's rules and in a change
    of them waiting for the next deal."""
    options = {**state["engine"]["config"]["options"], "newcomers": "a-rule-since-retired"}
    state["engine"]["config"]["options"] = options
    state["engine"]["journal"].append({"op": "options", "options": options})
