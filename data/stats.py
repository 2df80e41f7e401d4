"""Queries that summarise: players' poker stats, their game over time, the leaderboard and the
chip audit."""

from __future__ import annotations

import json
from typing import Any, Final

from data import accounts
from data.core import Tx, one, scalar
from data.errors import ConstraintViolation, InvalidArgument
from data.models import (
    BankrollPoint,
    ChipAudit,
    GameNet,
    LeaderboardEntry,
    Page,
    PlayerHandResult,
    PlayerStats,
    StatsHistory,
)
from engine.seating import is_house

# A shown hand replaces the best one only when strictly stronger; an unshown hand (NULL score)
# never does. -1e308 stands below every score for a member who never showed a hand.
_STATS_UPSERT: Final = """
INSERT INTO player_stats (guild_id, user_id, hands_played, hands_won, net_chips, biggest_pot,
                          best_hand_score, best_hand_name, best_hand_id, updated_at)
VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, user_id) DO UPDATE SET
    hands_played = player_stats.hands_played + 1,
    hands_won = player_stats.hands_won + excluded.hands_won,
    net_chips = player_stats.net_chips + excluded.net_chips,
    biggest_pot = CASE WHEN excluded.biggest_pot > player_stats.biggest_pot
                  THEN excluded.biggest_pot ELSE player_stats.biggest_pot END,
    best_hand_score = CASE
        WHEN excluded.best_hand_score > coalesce(player_stats.best_hand_score, -1e308)
        THEN excluded.best_hand_score ELSE player_stats.best_hand_score END,
    best_hand_name = CASE
        WHEN excluded.best_hand_score > coalesce(player_stats.best_hand_score, -1e308)
        THEN excluded.best_hand_name ELSE player_stats.best_hand_name END,
    best_hand_id = CASE
        WHEN excluded.best_hand_score > coalesce(player_stats.best_hand_score, -1e308)
        THEN excluded.best_hand_id ELSE player_stats.best_hand_id END,
    updated_at = excluded.updated_at
"""


async def add_hand(
    tx: Tx, guild_id: int, hand_id: int, players: list[PlayerHandResult], now: float
) -> None:
    """Count one finished hand in the stats of every member dealt in."""
    # house seats have no account of their own to hang stats on: members only
    players = [p for p in players if not is_house(p.user_id)]
    if not players:
        return
    try:
        await tx.execute_many(
            _STATS_UPSERT,
            [
                (
                    guild_id,
                    p.user_id,
                    int(p.won),
                    p.net,
                    p.pot_won,
                    p.best_hand_score,
                    p.best_hand_name,
                    hand_id if p.best_hand_score is not None else None,
                    now,
                )
                for p in players
            ],
        )
    except ConstraintViolation as exc:
        raise InvalidArgument(
            f"every player in per_player needs an account in server {guild_id} ({exc})"
        ) from exc


async def stats(tx: Tx, guild_id: int, user_id: int) -> PlayerStats:
    r = await tx.fetch_one(
        "SELECT * FROM player_stats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    if r is None:
        return PlayerStats(guild_id, user_id, 0, 0, 0, 0, None, None, None, None)
    return PlayerStats(
        r["guild_id"],
        r["user_id"],
        r["hands_played"],
        r["hands_won"],
        r["net_chips"],
        r["biggest_pot"],
        r["best_hand_score"],
        r["best_hand_name"],
        r["best_hand_id"],
        float(r["updated_at"]),
    )


async def bankroll_series(
    tx: Tx, guild_id: int, user_id: int, max_points: int
) -> tuple[BankrollPoint, ...]:
    """The member's bankroll after each ledger row, in order, thinned in SQL to at most
    ``max_points`` (every n-th row, the first and the latest always kept)."""
    if max_points < 2:
        raise InvalidArgument(f"a bankroll series needs at least 2 points, not {max_points}")
    total = await scalar(
        tx, "SELECT count(*) FROM ledger WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    # every step-th row from the first; with the latest added, at most max_points rows
    step = max(1, -(-(total - 1) // (max_points - 1)))
    rows = await tx.fetch_all(
        "SELECT created_at, balance_after FROM ("
        "  SELECT entry_id, created_at, balance_after, "
        "         row_number() OVER (ORDER BY entry_id) AS n "
        "  FROM ledger WHERE guild_id = ? AND user_id = ?) AS s "
        "WHERE (n - 1) % ? = 0 OR n = ? ORDER BY entry_id",
        (guild_id, user_id, step, total),
    )
    return tuple(BankrollPoint(float(r[0]), r[1]) for r in rows)


def _hand_net(user: str, started_json: str, result_json: str | None) -> int | None:
    """The member's net in one hand: their stack after it (the result's ``final_stacks``) minus
    their stack when it was dealt (the ``hand-started`` event's ``seats``, before any forced
    bet); None when the hand has no such figures (a voided hand) or did not deal them in.

    These two fields of the engine's JSON are the only ones read here; the rest stays opaque.
    """
    started: Any = json.loads(started_json)
    result: Any = json.loads(result_json or "{}")
    final = result.get("final_stacks") if isinstance(result, dict) else None
    if not isinstance(final, dict) or user not in final:
        return None
    for seat in started.get("seats", ()) if isinstance(started, dict) else ():
        if len(seat) == 3 and str(seat[1]) == user:
            return int(final[user]) - int(seat[2])
    return None


async def game_nets(
    tx: Tx, guild_id: int, user_id: int, max_hands: int
) -> tuple[tuple[GameNet, ...], int, bool]:
    """The member's net per game over their newest ``max_hands`` finished cash-game hands,
    biggest winner first; with the number of hands counted and whether older ones were left
    out. Tournament chips are not bankroll chips: their tables are not counted."""
    # The hands of the tables the member bought into, each with its hand-started event (the
    # first event, or the first after a dealer's choice) when it names them (their id is a
    # quoted string there), and not voided (a void's result has no stacks). The LIKEs narrow
    # the rows read, so that the LIMIT counts hands that count; the JSON decides.
    rows = await tx.fetch_all(
        "SELECT h.hand_id, h.variant, h.variant_name, h.result, e.event "
        "FROM hands AS h "
        "JOIN tables AS t ON t.table_id = h.table_id "
        "JOIN hand_events AS e ON e.hand_id = h.hand_id "
        "WHERE t.guild_id = ? AND t.tournament_id IS NULL AND h.ended_at IS NOT NULL "
        "AND h.table_id IN (SELECT table_id FROM ledger "
        "                   WHERE guild_id = ? AND user_id = ? AND kind = 'buy_in' "
        "                   AND table_id IS NOT NULL) "
        "AND h.result LIKE '%final_stacks%' "
        "AND e.seq < 4 AND e.event LIKE '%hand-started%' AND e.event LIKE ? "
        "ORDER BY h.hand_id DESC, e.seq LIMIT ?",
        (guild_id, guild_id, user_id, f'%"{user_id}"%', max_hands + 1),
    )
    user = str(user_id)
    # By the game dealt: a dealer's choice table's hands are kept under its table's variant,
    # with the name of the game chosen.
    per_game: dict[tuple[str, str], list[int]] = {}
    seen: set[int] = set()
    counted = 0
    capped = False
    for r in rows:
        if r["hand_id"] in seen:
            continue
        net = _hand_net(user, r["event"], r["result"])
        if net is None:
            continue
        seen.add(r["hand_id"])
        if counted == max_hands:
            capped = True
            break
        counted += 1
        game = per_game.setdefault((r["variant"], r["variant_name"]), [0, 0])
        game[0] += 1
        game[1] += net
    games = sorted(
        (GameNet(variant, name, hands, net) for (variant, name), (hands, net) in per_game.items()),
        key=lambda g: (-g.net, g.name),
    )
    return tuple(games), counted, capped


async def history(
    tx: Tx, guild_id: int, user_id: int, max_points: int, max_hands: int
) -> StatsHistory:
    games, hands, capped = await game_nets(tx, guild_id, user_id, max_hands)
    series = await bankroll_series(tx, guild_id, user_id, max_points)
    return StatsHistory(series, games, hands, capped)


async def leaderboard(tx: Tx, guild_id: int, offset: int, limit: int) -> Page[LeaderboardEntry]:
    # house players' bankrolls have negative user ids: members only here
    total = await scalar(
        tx, "SELECT count(*) FROM accounts WHERE guild_id = ? AND user_id >= 0", (guild_id,)
    )
    rows = await tx.fetch_all(
        "SELECT a.user_id, a.balance, coalesce(t.chips, 0) AS on_tables, "
        "a.balance + coalesce(t.chips, 0) AS total "
        "FROM accounts AS a LEFT JOIN ("
        "  SELECT p.user_id, sum(p.stack) AS chips FROM table_players AS p "
        "  JOIN tables AS s ON s.table_id = p.table_id "
        "  WHERE p.guild_id = ? AND s.tournament_id IS NULL "
        "  GROUP BY p.user_id) AS t ON t.user_id = a.user_id "
        "WHERE a.guild_id = ? AND a.user_id >= 0 ORDER BY total DESC, a.user_id LIMIT ? OFFSET ?",
        (guild_id, guild_id, limit, offset),
    )
    entries = tuple(
        LeaderboardEntry(offset + i + 1, r[0], r[1], r[2], r[3]) for i, r in enumerate(rows)
    )
    return Page(entries, total, offset, limit)


def _scope(column: str, guild_id: int | None) -> tuple[str, tuple[int, ...]]:
    """A filter on one server, or none (``1 = 1``): an untyped ``? IS NULL`` would not do on
    PostgreSQL, which must know every parameter's type."""
    if guild_id is None:
        return "1 = 1", ()
    return f"{column} = ?", (guild_id,)


async def audit(tx: Tx, guild_id: int | None) -> ChipAudit:
    where, scope = _scope("guild_id", guild_id)
    supply = await one(
        tx,
        "SELECT coalesce(sum(CASE WHEN delta > 0 THEN delta END), 0), "
        "       coalesce(-sum(CASE WHEN delta < 0 THEN delta END), 0) "
        f"FROM ledger WHERE {where} "
        "AND kind IN (SELECT kind FROM ledger_kinds WHERE supply = 1)",
        scope,
    )
    bankrolls = await scalar(
        tx, f"SELECT coalesce(sum(balance), 0) FROM accounts WHERE {where}", scope
    )
    on_tables = await scalar(
        tx,
        "SELECT coalesce(sum(chips_on_table), 0) FROM tables "
        f"WHERE {where} AND tournament_id IS NULL",
        scope,
    )
    # Each balance must be the sum of its ledger rows and its last row's balance_after.
    accounts_where, _ = _scope("a.guild_id", guild_id)
    accounts_off = await tx.fetch_all(
        "SELECT a.guild_id, a.user_id FROM accounts AS a "
        "LEFT JOIN (SELECT guild_id, user_id, sum(delta) AS total, "
        "                  max(entry_id) AS last_entry "
        f"           FROM ledger WHERE {where} "
        "           GROUP BY guild_id, user_id) AS l "
        "       ON l.guild_id = a.guild_id AND l.user_id = a.user_id "
        "LEFT JOIN ledger AS e ON e.entry_id = l.last_entry "
        f"WHERE {accounts_where} AND (l.total IS NULL "
        "       OR a.balance != l.total OR a.balance != e.balance_after) "
        "ORDER BY a.guild_id, a.user_id",
        scope * 2,
    )
    # Each table must hold its buy-ins and top-ups minus its cash-outs.
    tables_where, _ = _scope("t.guild_id", guild_id)
    tables_off = await tx.fetch_all(
        "SELECT t.table_id FROM tables AS t "
        "LEFT JOIN (SELECT table_id, -sum(delta) AS net FROM ledger "
        "           WHERE table_id IS NOT NULL "
        "           AND kind IN (SELECT kind FROM ledger_kinds WHERE supply = 0) "
        "           GROUP BY table_id) AS l ON l.table_id = t.table_id "
        f"WHERE {tables_where} AND t.tournament_id IS NULL "
        "AND t.chips_on_table != coalesce(l.net, 0) "
        "ORDER BY t.table_id",
        scope,
    )
    # A tournament's prize pool holds its buy-ins minus its prizes and refunds.
    in_tournaments = await scalar(
        tx, f"SELECT coalesce(sum(prize_pool), 0) FROM tournaments WHERE {where}", scope
    )
    tournaments_where, _ = _scope("t.guild_id", guild_id)
    tournaments_off = await tx.fetch_all(
        "SELECT t.tournament_id FROM tournaments AS t "
        "LEFT JOIN (SELECT tournament_id, -sum(delta) AS net FROM ledger "
        "           WHERE tournament_id IS NOT NULL GROUP BY tournament_id) AS l "
        "       ON l.tournament_id = t.tournament_id "
        f"WHERE {tournaments_where} AND t.prize_pool != coalesce(l.net, 0) "
        "ORDER BY t.tournament_id",
        scope,
    )
    house = await accounts.house_balance(tx, guild_id)
    return ChipAudit(
        guild_id,
        supply[0],
        supply[1],
        bankrolls,
        on_tables,
        tuple((r[0], r[1]) for r in accounts_off),
        tuple(r[0] for r in tables_off),
        in_tournaments,
        tuple(r[0] for r in tournaments_off),
        house,
    )
