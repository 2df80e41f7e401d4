"""A night's ledger: per table, what each player brought, took away and still has.

Read from the rows the table queries already write (:mod:`data.tables`): ``buy_in`` (chips
onto a table for a player not seated there), ``top_up`` (more chips for a seated player, a
rebuy) and ``cash_out`` (chips back, on leaving or when the table closes), plus the seat
projection for the stacks of players still seated at an open table. A house seat's rows are
on the house account with the seat in ``actor_id`` (:func:`data.accounts.holder`); they are
listed under the seat, like a member.

A *night* is the games a table's players played together: of the server's cash-game tables
that ran within :data:`NIGHT_GAP` of this table (opened no later than that after its last
moment, and with their own last moment no earlier than that before it opened), the ones linked
to it by members who sat at both, table to table (:func:`linked`). A table's last moment is its
closing, or while open its last saved change (a table left open all week does not glue the
week's games together). It needs no schedule: friends who open a second table an hour later, or
in another channel, play the same night; last week's game does not, and neither does another
group's game on the same server the same evening (its settle-up would pair players who never
sat together). House seats link nothing: they are the server's, at every game. Tournament
tables are not counted: their chips are tournament chips, paid in and out by the tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from data import accounts
from data.core import Tx
from data.models import Table
from data.tables import get_table, table_row
from engine.seating import is_house

__all__ = [
    "NIGHT_GAP",
    "LedgerLine",
    "NightLedger",
    "TableLedger",
    "channel_night_ledger",
    "linked",
    "night_ledger",
    "table_ledger",
]

NIGHT_GAP: Final = 6 * 3600.0
"""Tables this close in time (seconds) to each other are the same poker night."""


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One player's session at one table."""

    player_id: int
    """The member's id, or a house seat's (negative) id."""
    buy_in: int
    """Chips brought by buying in (again, after leaving, counts here too)."""
    rebuys: int
    """Chips added while seated (top-ups: the rebuys of a home game)."""
    rebuy_count: int
    cashed_out: int
    """Chips taken back to the bankroll (leaving, or the table closing)."""
    stack: int
    """Chips in front of the player now: 0 once they left or the table closed."""
    seated: bool
    """Still seated at the (open) table."""
    started_at: float
    """The first buy-in."""
    ended_at: float | None
    """The last cash-out; None while seated."""

    @property
    def brought(self) -> int:
        return self.buy_in + self.rebuys

    @property
    def net(self) -> int:
        """Won (positive) or lost: what they took or still have, less what they brought."""
        return self.cashed_out + self.stack - self.brought


@dataclass(frozen=True, slots=True)
class TableLedger:
    table: Table
    lines: tuple[LedgerLine, ...]
    """By start of session, then player id."""

    @property
    def in_play(self) -> int:
        """Chips in the middle of a hand being played (in no stack): the nets sum to minus it,
        so the table settles up only between hands or once closed."""
        return -sum(line.net for line in self.lines)


@dataclass(frozen=True, slots=True)
class NightLedger:
    table: TableLedger
    """The table asked about."""
    night: tuple[TableLedger, ...]
    """Every table of its night (itself included), in the order they opened."""

    def nets(self) -> dict[int, int]:
        """Each player's net over the whole night."""
        totals: dict[int, int] = {}
        for ledger in self.night:
            for line in ledger.lines:
                totals[line.player_id] = totals.get(line.player_id, 0) + line.net
        return totals


async def table_ledger(tx: Tx, table: Table) -> TableLedger:
    rows = await tx.fetch_all(
        "SELECT player, kind, sum(delta), count(*), min(created_at), max(created_at) FROM ("
        "SELECT CASE WHEN user_id = ? THEN actor_id ELSE user_id END AS player, kind, delta, "
        "created_at FROM ledger WHERE table_id = ? AND kind IN ('buy_in', 'top_up', 'cash_out')"
        ") AS moves GROUP BY player, kind",
        (accounts.HOUSE_ACCOUNT, table.table_id),
    )
    stacks = {
        r[0]: int(r[1])
        for r in await tx.fetch_all(
            "SELECT user_id, stack FROM table_players WHERE table_id = ?", (table.table_id,)
        )
    }
    sums: dict[tuple[int, str], tuple[int, int, float, float]] = {}
    for r in rows:
        # PostgreSQL's sum of a BIGINT is a NUMERIC: back to int here.
        sums[int(r[0]), str(r[1])] = (int(r[2]), int(r[3]), float(r[4]), float(r[5]))
    players = sorted({player for player, _ in sums})
    lines = []
    for player in players:
        buy = sums.get((player, "buy_in"), (0, 0, float("inf"), 0.0))
        top = sums.get((player, "top_up"), (0, 0, float("inf"), 0.0))
        out = sums.get((player, "cash_out"), (0, 0, float("inf"), 0.0))
        seated = player in stacks
        lines.append(
            LedgerLine(
                player_id=player,
                buy_in=-buy[0],
                rebuys=-top[0],
                rebuy_count=top[1],
                cashed_out=out[0],
                stack=stacks.get(player, 0),
                seated=seated,
                started_at=min(buy[2], top[2]),
                ended_at=None if seated or not out[1] else out[3],
            )
        )
    lines.sort(key=lambda line: (line.started_at, line.player_id))
    return TableLedger(table, tuple(lines))


def last_moment(table: Table) -> float:
    return table.closed_at if table.closed_at is not None else table.updated_at


async def night_ledger(tx: Tx, table_id: int) -> NightLedger:
    """The ledger of ``table_id`` and of every table of its night (see the module's doc)."""
    table = await get_table(tx, table_id)
    rows = await tx.fetch_all(
        "SELECT * FROM tables WHERE guild_id = ? AND tournament_id IS NULL "
        "AND created_at <= ? AND coalesce(closed_at, updated_at) >= ? "
        "ORDER BY created_at, table_id",
        (table.guild_id, last_moment(table) + NIGHT_GAP, table.created_at - NIGHT_GAP),
    )
    window = [await table_ledger(tx, table_row(r)) for r in rows]
    this = next((t for t in window if t.table.table_id == table_id), None)
    if this is None:  # a tournament's table: its own ledger, alone
        this = await table_ledger(tx, table)
        return NightLedger(this, (this,))
    return NightLedger(this, linked(this, window))


def _members(ledger: TableLedger) -> frozenset[int]:
    return frozenset(line.player_id for line in ledger.lines if not is_house(line.player_id))


def linked(this: TableLedger, window: Sequence[TableLedger]) -> tuple[TableLedger, ...]:
    """The tables of ``window`` that ``this`` reaches through members who sat at both, table
    to table (``this`` included), in the window's order: a night's settle-up pairs only
    players of one game, however many tables it took."""
    members = {ledger.table.table_id: _members(ledger) for ledger in window}
    reached = {this.table.table_id}
    players = set(_members(this))
    grown = True
    while grown:
        grown = False
        for table_id, sat in members.items():
            if table_id not in reached and not players.isdisjoint(sat):
                reached.add(table_id)
                players |= sat
                grown = True
    return tuple(ledger for ledger in window if ledger.table.table_id in reached)


async def channel_night_ledger(tx: Tx, channel_id: int) -> NightLedger | None:
    """The night of the channel's table: the open one, else the last one closed (None if the
    channel never had a table)."""
    r = await tx.fetch_one(
        "SELECT table_id FROM tables WHERE channel_id = ? ORDER BY table_id DESC LIMIT 1",
        (channel_id,),
    )
    return None if r is None else await night_ledger(tx, int(r[0]))
