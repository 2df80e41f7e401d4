"""Queries about tournaments and seasons: prize pools, tournament tables, results, standings.

A tournament's prize pool holds bankroll chips: every buy-in, rebuy and add-on comes in and
every prize or refund goes out through :func:`data.accounts.move` with the tournament's id on
the ledger row, in the same transaction as the pool, so the audit can check each pool against
its ledger rows. Tournament chips are the stacks at its tables (rows of ``tables`` marked with
the tournament): seated and unseated without a bankroll, and worth nothing outside it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from data import accounts, tables
from data.core import Row, Tx, one, seconds
from data.errors import ChipsInPlay, ConstraintViolation, DataError, NotFound
from data.models import Table, TableSave

OPEN: Final = ("registering", "running")


class TournamentNotFound(NotFound):
    """No tournament with that id."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(f"tournament {tournament_id} does not exist")
        self.tournament_id = tournament_id


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament as stored: ``config`` (the table game, JSON) and ``state`` (the engine's
    :class:`engine.tournament.Tournament`, JSON) are opaque here."""

    tournament_id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: str
    config_json: str
    state_json: str
    prize_pool: int
    message_id: int | None
    started_at: float | None
    created_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A finisher's place, prize and season points."""

    tournament_id: int
    user_id: int
    place: int
    prize: int
    points: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A member's tournament history in one server."""

    played: int
    cashes: int
    wins: int
    best_finish: int | None
    winnings: int


@dataclass(frozen=True, slots=True)
class Season:
    """A named season; ``points`` are the points for first place, second, ... (JSON list)."""

    season_id: int
    guild_id: int
    name: str
    points: tuple[int, ...]
    started_at: float
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class Standing:
    """A member's line in a closed season's standings; ``balance`` is their chips as the
    season ended, bankroll and stacks at open cash tables."""

    rank: int
    user_id: int
    points: int
    balance: int


def _tournament(r: Row) -> TournamentRow:
    return TournamentRow(
        r["tournament_id"],
        r["guild_id"],
        r["channel_id"],
        r["creator_id"],
        r["status"],
        r["config"],
        r["state"],
        r["prize_pool"],
        r["message_id"],
        seconds(r["started_at"]),
        float(r["created_at"]),
        seconds(r["finished_at"]),
    )


def _season(r: Row) -> Season:
    return Season(
        r["season_id"],
        r["guild_id"],
        r["name"],
        tuple(int(p) for p in json.loads(r["points"])),
        float(r["started_at"]),
        seconds(r["ended_at"]),
    )


# ------------------------------------------------------------------------------ tournaments


async def create(
    tx: Tx,
    guild_id: int,
    channel_id: int,
    creator_id: int,
    config_json: str,
    state_json: str,
    now: float,
) -> TournamentRow:
    try:
        r = await one(
            tx,
            "INSERT INTO tournaments (guild_id, channel_id, creator_id, config, state, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
            (guild_id, channel_id, creator_id, config_json, state_json, now, now),
        )
    except ConstraintViolation as exc:
        raise DataError("there is already a tournament in this channel") from exc
    return _tournament(r)


async def get(tx: Tx, tournament_id: int) -> TournamentRow:
    r = await tx.fetch_one("SELECT * FROM tournaments WHERE tournament_id = ?", (tournament_id,))
    if r is None:
        raise TournamentNotFound(tournament_id)
    return _tournament(r)


async def open_tournaments(tx: Tx, guild_id: int | None) -> list[TournamentRow]:
    if guild_id is None:
        rows = await tx.fetch_all(
            "SELECT * FROM tournaments WHERE status IN (?, ?) ORDER BY tournament_id", OPEN
        )
    else:
        rows = await tx.fetch_all(
            "SELECT * FROM tournaments WHERE guild_id = ? AND status IN (?, ?) "
            "ORDER BY tournament_id",
            (guild_id, *OPEN),
        )
    return [_tournament(r) for r in rows]


async def _open_row(tx: Tx, tournament_id: int) -> TournamentRow:
    row = await get(tx, tournament_id)
    if row.status not in OPEN:
        raise DataError(f"the tournament is {row.status}")
    return row


async def pay_in(
    tx: Tx,
    tournament_id: int,
    user_id: int,
    amount: int,
    note: str,
    state_json: str,
    now: float,
) -> int:
    """A buy-in, rebuy or add-on: the member's bankroll into the pool, with the new state.
    Returns the member's balance after it."""
    row = await _open_row(tx, tournament_id)
    await accounts.account(tx, row.guild_id, user_id, now)
    entry = await accounts.move(
        tx,
        row.guild_id,
        user_id,
        -amount,
        "tournament_buy_in",
        now,
        note=note,
        tournament_id=tournament_id,
    )
    await tx.execute(
        "UPDATE tournaments SET prize_pool = prize_pool + ?, state = ?, updated_at = ? "
        "WHERE tournament_id = ?",
        (amount, state_json, now, tournament_id),
    )
    return entry.balance_after


async def refund(
    tx: Tx, tournament_id: int, user_id: int, amount: int, state_json: str, now: float
) -> int:
    """Give a member's buy-in back (unregistering before the start)."""
    row = await _open_row(tx, tournament_id)
    if amount > row.prize_pool:
        raise DataError("the prize pool does not hold that much")
    entry = await accounts.move(
        tx,
        row.guild_id,
        user_id,
        amount,
        "tournament_refund",
        now,
        note="unregistered",
        tournament_id=tournament_id,
    )
    await tx.execute(
        "UPDATE tournaments SET prize_pool = prize_pool - ?, state = ?, updated_at = ? "
        "WHERE tournament_id = ?",
        (amount, state_json, now, tournament_id),
    )
    return entry.balance_after


async def save(
    tx: Tx, tournament_id: int, status: str, state_json: str, started_at: float | None, now: float
) -> None:
    """The tournament's state (and, once, the moment its level clock started)."""
    await _open_row(tx, tournament_id)
    if status not in OPEN:
        raise DataError("a tournament ends through finish or cancel")
    await tx.execute(
        "UPDATE tournaments SET status = ?, state = ?, started_at = coalesce(started_at, ?), "
        "updated_at = ? WHERE tournament_id = ?",
        (status, state_json, started_at, now, tournament_id),
    )


async def set_message(tx: Tx, tournament_id: int, message_id: int, now: float) -> None:
    await tx.execute(
        "UPDATE tournaments SET message_id = ?, updated_at = ? WHERE tournament_id = ?",
        (message_id, now, tournament_id),
    )


# ------------------------------------------------------------------------------ its tables


async def create_table(
    tx: Tx, tournament_id: int, channel_id: int, config_json: str, state_json: str, now: float
) -> Table:
    """A poker table of the tournament (one open table per channel, as for cash tables)."""
    row = await _open_row(tx, tournament_id)
    return await tables.create_table(
        tx,
        row.guild_id,
        channel_id,
        row.creator_id,
        config_json,
        state_json,
        None,
        now,
        tournament_id,
    )


async def seat_table(tx: Tx, table_id: int, state: TableSave, now: float) -> None:
    """Seat or unseat players at a tournament table: its tournament chips change with no
    bankroll involved (they come from and go back to the tournament). A player may be seated
    during a hand (dealt in from the next one); nobody's stack leaves during one."""
    table = await tables.open_table(tx, table_id)
    if table.tournament_id is None:
        raise DataError(f"table {table_id} is not a tournament table")
    if table.current_hand_id is not None and state.chips < table.chips_on_table:
        raise DataError("players leave a tournament table between hands")
    await tables.write_state(tx, table, state, now)


async def close_table(tx: Tx, table_id: int, state_json: str, now: float) -> None:
    """Close an empty tournament table (its players were moved to the others)."""
    table = await tables.open_table(tx, table_id)
    if table.tournament_id is None:
        raise DataError(f"table {table_id} is not a tournament table")
    if table.current_hand_id is not None or table.chips_on_table:
        raise DataError("only an empty tournament table between hands can close")
    await tx.execute("DELETE FROM table_players WHERE table_id = ?", (table_id,))
    await tx.execute(
        "UPDATE tables SET status = 'closed', state = ?, updated_at = ?, closed_at = ? "
        "WHERE table_id = ?",
        (state_json, now, now, table_id),
    )


async def open_tables(tx: Tx, tournament_id: int) -> list[Table]:
    rows = await tx.fetch_all(
        "SELECT * FROM tables WHERE tournament_id = ? AND status = 'open' ORDER BY table_id",
        (tournament_id,),
    )
    return [tables.table_row(r) for r in rows]


async def _close_tables(
    tx: Tx, tournament_id: int, now: float, *, void_hands: bool = False
) -> None:
    for table in await open_tables(tx, tournament_id):
        if table.current_hand_id is not None:
            if not void_hands:
                raise DataError("a tournament ends between hands")
            await tables.end_unfinished_hand(tx, table.current_hand_id, now)
        await tx.execute("DELETE FROM table_players WHERE table_id = ?", (table.table_id,))
    await tx.execute(
        "UPDATE tables SET status = 'closed', chips_on_table = 0, current_hand_id = NULL, "
        "updated_at = ?, closed_at = ? WHERE tournament_id = ? AND status = 'open'",
        (now, now, tournament_id),
    )


async def finish(
    tx: Tx,
    tournament_id: int,
    places: list[tuple[int, int, int]],
    state_json: str,
    now: float,
) -> list[TournamentResult]:
    """Pay each ``(user_id, place, prize)`` from the pool into bankrolls, which empties it;
    record the places with the open season's points; drop the tables."""
    row = await _open_row(tx, tournament_id)
    if sum(prize for _, _, prize in places) != row.prize_pool:
        raise DataError(
            f"the prizes add up to {sum(p for _, _, p in places)}, not the prize pool of "
            f"{row.prize_pool}"
        )
    season = await current_season(tx, row.guild_id)
    scale = season.points if season is not None else ()
    results: list[TournamentResult] = []
    for user_id, place, prize in places:
        if prize:
            await accounts.move(
                tx,
                row.guild_id,
                user_id,
                prize,
                "tournament_prize",
                now,
                note=f"place {place}",
                tournament_id=tournament_id,
            )
        points = scale[place - 1] if place <= len(scale) else 0
        results.append(TournamentResult(tournament_id, user_id, place, prize, points, now))
    await tx.execute_many(
        "INSERT INTO tournament_results (tournament_id, guild_id, user_id, place, prize, "
        "points, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (tournament_id, row.guild_id, r.user_id, r.place, r.prize, r.points, now)
            for r in results
        ],
    )
    await tx.execute(
        "UPDATE tournaments SET status = 'finished', prize_pool = 0, state = ?, "
        "updated_at = ?, finished_at = ? WHERE tournament_id = ?",
        (state_json, now, now, tournament_id),
    )
    await _close_tables(tx, tournament_id, now)
    return results


async def paid_in(tx: Tx, tournament_id: int) -> dict[int, int]:
    """What each member has in the tournament's pool: buy-ins, rebuys and add-ons, less what
    came back before the start (user id -> chips; nobody with nothing in)."""
    rows = await tx.fetch_all(
        "SELECT user_id, -sum(delta) FROM ledger WHERE tournament_id = ? "
        "AND kind IN ('tournament_buy_in', 'tournament_refund') GROUP BY user_id",
        (tournament_id,),
    )
    return {int(r[0]): int(r[1]) for r in rows if r[1]}


async def cancel(
    tx: Tx,
    tournament_id: int,
    refunds: list[tuple[int, int]],
    state_json: str,
    now: float,
    *,
    void_hands: bool = False,
) -> None:
    """Call the tournament off: each ``(user_id, amount)`` back, which empties the pool.
    ``void_hands``: a hand in progress at one of its tables ends without a result (else a
    tournament is only called off between hands)."""
    row = await _open_row(tx, tournament_id)
    if sum(amount for _, amount in refunds) != row.prize_pool:
        raise DataError("the refunds must return the whole prize pool")
    for user_id, amount in refunds:
        if amount:
            await accounts.move(
                tx,
                row.guild_id,
                user_id,
                amount,
                "tournament_refund",
                now,
                note="tournament cancelled",
                tournament_id=tournament_id,
            )
    await tx.execute(
        "UPDATE tournaments SET status = 'cancelled', prize_pool = 0, state = ?, "
        "updated_at = ?, finished_at = ? WHERE tournament_id = ?",
        (state_json, now, now, tournament_id),
    )
    await _close_tables(tx, tournament_id, now, void_hands=void_hands)


async def results(tx: Tx, tournament_id: int) -> list[TournamentResult]:
    rows = await tx.fetch_all(
        "SELECT * FROM tournament_results WHERE tournament_id = ? ORDER BY place, user_id",
        (tournament_id,),
    )
    return [
        TournamentResult(
            r["tournament_id"],
            r["user_id"],
            r["place"],
            r["prize"],
            r["points"],
            float(r["finished_at"]),
        )
        for r in rows
    ]


async def record(tx: Tx, guild_id: int, user_id: int) -> TournamentRecord:
    r = await one(
        tx,
        "SELECT count(*), coalesce(sum(CASE WHEN prize > 0 THEN 1 ELSE 0 END), 0), "
        "coalesce(sum(CASE WHEN place = 1 THEN 1 ELSE 0 END), 0), min(place), "
        "coalesce(sum(prize), 0) FROM tournament_results WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return TournamentRecord(int(r[0]), int(r[1]), int(r[2]), r[3], int(r[4]))


# ------------------------------------------------------------------------------ seasons


async def current_season(tx: Tx, guild_id: int) -> Season | None:
    r = await tx.fetch_one(
        "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
    )
    return None if r is None else _season(r)


async def start_season(
    tx: Tx, guild_id: int, name: str, points: tuple[int, ...], now: float
) -> Season:
    if await current_season(tx, guild_id) is not None:
        raise DataError("a season is already running in this server: end it first")
    try:
        r = await one(
            tx,
            "INSERT INTO seasons (guild_id, name, points, started_at) VALUES (?, ?, ?, ?) "
            "RETURNING *",
            (guild_id, name, json.dumps(list(points)), now),
        )
    except ConstraintViolation as exc:
        raise DataError(f"there was already a season called {name!r} here") from exc
    return _season(r)


async def members_in_play(tx: Tx, guild_id: int) -> int:
    """How many members (house seats aside) have chips where a bankroll reset cannot reach
    them: seated at an open cash table (a stack of 0 too: an all-in member's chips are in the
    pot), or paid into a tournament not over yet (a refund or a prize brings them back)."""
    r = await one(
        tx,
        "SELECT count(*) FROM ("
        "  SELECT p.user_id FROM table_players AS p "
        "  JOIN tables AS t ON t.table_id = p.table_id "
        "  WHERE p.guild_id = ? AND p.user_id >= 0 AND t.status = 'open' "
        "  AND t.tournament_id IS NULL "
        "  UNION "
        "  SELECT l.user_id FROM ledger AS l "
        "  JOIN tournaments AS o ON o.tournament_id = l.tournament_id "
        "  WHERE o.guild_id = ? AND o.status IN (?, ?) AND l.user_id >= 0 "
        "  GROUP BY l.user_id, l.tournament_id HAVING sum(l.delta) < 0"
        ") AS m",
        (guild_id, guild_id, *OPEN),
    )
    return int(r[0])


async def end_season(
    tx: Tx, guild_id: int, reset: bool, actor_id: int, now: float
) -> tuple[Season, list[Standing]]:
    """Close the open season: snapshot every member's chips (bankroll and stacks at open cash
    tables) and the points they scored in tournaments finished during it; with ``reset``, set
    every bankroll back to the server's starting amount (a ledger row each). A reset raises
    :class:`ChipsInPlay`, changing nothing, while members have chips it could not reach
    (:func:`members_in_play`)."""
    season = await current_season(tx, guild_id)
    if season is None:
        raise DataError("no season is running in this server")
    if reset:
        playing = await members_in_play(tx, guild_id)
        if playing:
            raise ChipsInPlay(guild_id, playing)
    # A member's chips are their bankroll and their stacks at open cash tables, as on the
    # leaderboard (a member seated as the season ends has not lost what is in front of them).
    rows = await tx.fetch_all(
        "SELECT a.user_id, a.balance, a.balance + coalesce(t.chips, 0) AS chips, "
        "coalesce(p.points, 0) AS points FROM accounts AS a "
        "LEFT JOIN (SELECT user_id, sum(points) AS points FROM tournament_results "
        "           WHERE guild_id = ? AND finished_at >= ? GROUP BY user_id) AS p "
        "       ON p.user_id = a.user_id "
        "LEFT JOIN (SELECT s.user_id, sum(s.stack) AS chips FROM table_players AS s "
        "           JOIN tables AS o ON o.table_id = s.table_id "
        "           WHERE s.guild_id = ? AND o.status = 'open' AND o.tournament_id IS NULL "
        "           GROUP BY s.user_id) AS t ON t.user_id = a.user_id "
        # house players (negative ids) neither rank in a season nor have their bankroll reset
        "WHERE a.guild_id = ? AND a.user_id >= 0 ORDER BY points DESC, chips DESC, a.user_id",
        (guild_id, season.started_at, guild_id, guild_id),
    )
    standings = [
        Standing(rank, int(r["user_id"]), int(r["points"]), int(r["chips"]))
        for rank, r in enumerate(rows, start=1)
    ]
    bankrolls = {int(r["user_id"]): int(r["balance"]) for r in rows}
    await tx.execute_many(
        "INSERT INTO season_standings (season_id, user_id, rank, balance, points) "
        "VALUES (?, ?, ?, ?, ?)",
        [(season.season_id, s.user_id, s.rank, s.balance, s.points) for s in standings],
    )
    await tx.execute("UPDATE seasons SET ended_at = ? WHERE season_id = ?", (now, season.season_id))
    if reset:
        start = (await accounts.settings(tx, guild_id)).starting_bankroll
        await accounts.log_admin(
            tx,
            guild_id,
            actor_id,
            "season_reset",
            None,
            json.dumps({"season": season.name}),
            json.dumps({"bankroll": start, "members": len(standings)}),
            None,
            None,
            now,
        )
        for s in standings:
            if bankrolls[s.user_id] != start:
                await accounts.move(
                    tx,
                    guild_id,
                    s.user_id,
                    start - bankrolls[s.user_id],
                    "season_reset",
                    now,
                    actor_id=actor_id,
                    note=f"season {season.name} ended",
                )
    closed = Season(season.season_id, guild_id, season.name, season.points, season.started_at, now)
    return closed, standings


async def seasons(tx: Tx, guild_id: int) -> list[Season]:
    rows = await tx.fetch_all(
        "SELECT * FROM seasons WHERE guild_id = ? ORDER BY season_id DESC", (guild_id,)
    )
    return [_season(r) for r in rows]


async def standings(tx: Tx, guild_id: int, name: str) -> tuple[Season, list[Standing]]:
    """A season's final standings: it must be over (a running one has none yet)."""
    r = await tx.fetch_one(
        "SELECT * FROM seasons WHERE guild_id = ? AND name = ? AND ended_at IS NOT NULL",
        (guild_id, name),
    )
    if r is None:
        raise NotFound(f"no past season called {name!r} in this server")
    season = _season(r)
    rows = await tx.fetch_all(
        "SELECT * FROM season_standings WHERE season_id = ? ORDER BY rank",
        (season.season_id,),
    )
    return season, [Standing(r["rank"], r["user_id"], r["points"], r["balance"]) for r in rows]


# ------------------------------------------------------------------------------ schedules


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    """A game set for later: a ``kind`` of 'tournament' or 'table' with its options (JSON)."""

    schedule_id: int
    guild_id: int
    channel_id: int
    creator_id: int
    kind: str
    options_json: str
    starts_at: float
    event_id: int | None
    reminded: bool
    status: str
    series_id: int
    """The schedule_id of the series' first night (its own for a night that does not repeat)."""
    repeat: str
    """'none', 'weekly', 'fortnightly' or 'monthly'."""
    repeat_from: float
    """The start the series counts its nights from (its first night, or where it was moved)."""
    poll_games: tuple[str, ...]
    """The games the night's poll offers (none: no poll)."""
    poll_message_id: int | None
    game_id: int | None
    """The tournament or table the night opened."""


SCHEDULE_STATUSES = ("pending", "opened", "failed", "cancelled", "ended")


def _scheduled(r: Row) -> ScheduledGame:
    return ScheduledGame(
        r["schedule_id"],
        r["guild_id"],
        r["channel_id"],
        r["creator_id"],
        r["kind"],
        r["options"],
        float(r["starts_at"]),
        r["event_id"],
        bool(r["reminded"]),
        r["status"],
        r["series_id"] if r["series_id"] is not None else r["schedule_id"],
        r["repeat"],
        float(r["repeat_from"] if r["repeat_from"] is not None else r["starts_at"]),
        tuple(json.loads(r["poll_games"])) if r["poll_games"] else (),
        r["poll_message_id"],
        r["game_id"],
    )


async def add_schedule(
    tx: Tx,
    guild_id: int,
    channel_id: int,
    creator_id: int,
    kind: str,
    options_json: str,
    starts_at: float,
    now: float,
    repeat: str = "none",
    poll_games: tuple[str, ...] = (),
    series_id: int | None = None,
    repeat_from: float | None = None,
) -> ScheduledGame:
    r = await one(
        tx,
        "INSERT INTO scheduled_games (guild_id, channel_id, creator_id, kind, options, "
        "starts_at, created_at, repeat, poll_games, series_id, repeat_from) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
        (
            guild_id,
            channel_id,
            creator_id,
            kind,
            options_json,
            starts_at,
            now,
            repeat,
            json.dumps(list(poll_games)) if poll_games else None,
            series_id,
            starts_at if repeat_from is None else repeat_from,
        ),
    )
    if series_id is None:
        # The first night of a series names it.
        r = await one(
            tx,
            "UPDATE scheduled_games SET series_id = schedule_id WHERE schedule_id = ? RETURNING *",
            (r["schedule_id"],),
        )
    return _scheduled(r)


async def pending_schedules(tx: Tx, until: float) -> list[ScheduledGame]:
    rows = await tx.fetch_all(
        "SELECT * FROM scheduled_games WHERE status = 'pending' AND starts_at <= ? "
        "ORDER BY starts_at, schedule_id",
        (until,),
    )
    return [_scheduled(r) for r in rows]


async def update_schedule(
    tx: Tx,
    schedule_id: int,
    event_id: int | None,
    reminded: bool,
    status: str,
    poll_message_id: int | None = None,
    game_id: int | None = None,
) -> None:
    if status not in SCHEDULE_STATUSES:
        raise DataError(f"no schedule status {status!r}")
    await tx.execute(
        "UPDATE scheduled_games SET event_id = coalesce(?, event_id), reminded = ?, "
        "status = ?, poll_message_id = coalesce(?, poll_message_id), "
        "game_id = coalesce(?, game_id) WHERE schedule_id = ?",
        (event_id, int(reminded), status, poll_message_id, game_id, schedule_id),
    )


async def get_schedule(tx: Tx, schedule_id: int) -> ScheduledGame | None:
    r = await tx.fetch_one("SELECT * FROM scheduled_games WHERE schedule_id = ?", (schedule_id,))
    return None if r is None else _scheduled(r)


async def guild_schedules(tx: Tx, guild_id: int) -> list[ScheduledGame]:
    """The server's nights still to come, soonest first."""
    rows = await tx.fetch_all(
        "SELECT * FROM scheduled_games WHERE guild_id = ? AND status = 'pending' "
        "ORDER BY starts_at, schedule_id",
        (guild_id,),
    )
    return [_scheduled(r) for r in rows]


async def opened_schedule(tx: Tx, kind: str, game_id: int) -> ScheduledGame | None:
    """The night that opened this tournament or table and has not ended."""
    r = await tx.fetch_one(
        "SELECT * FROM scheduled_games WHERE kind = ? AND game_id = ? AND status = 'opened' "
        "ORDER BY schedule_id DESC LIMIT 1",
        (kind, game_id),
    )
    return None if r is None else _scheduled(r)


async def move_schedule(tx: Tx, schedule_id: int, starts_at: float) -> None:
    """Move a pending night (the series then counts from there); its reminder is owed again."""
    await tx.execute(
        "UPDATE scheduled_games SET starts_at = ?, repeat_from = ?, reminded = 0 "
        "WHERE schedule_id = ? AND status = 'pending'",
        (starts_at, starts_at, schedule_id),
    )
