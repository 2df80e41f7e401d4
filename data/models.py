"""Typed rows returned by :class:`data.Database`, and the values it takes whole. All are frozen;
times are unix seconds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, NamedTuple, TypeVar

T = TypeVar("T")

LedgerKind = Literal[
    "issue",
    "daily",
    "admin_grant",
    "admin_set",
    "admin_remove",
    "buy_in",
    "top_up",
    "cash_out",
    "tournament_buy_in",
    "tournament_prize",
    "tournament_refund",
    "season_reset",
    "house_fund",
    "house_merge",
]
"""Why a bankroll changed. issue/daily/admin_* create or destroy chips; the others move chips
between a bankroll and a table."""

AdminAction = Literal["grant", "set", "remove", "settings", "season_reset"]
TableStatus = Literal["open", "closed"]


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a longer list: ``items`` start at ``offset``; ``total`` counts all of them."""

    items: tuple[T, ...]
    total: int
    offset: int
    limit: int

    @property
    def has_previous(self) -> bool:
        return self.offset > 0

    @property
    def has_next(self) -> bool:
        return self.offset + len(self.items) < self.total


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's economy settings. ``updated_at`` is None while the server has all defaults."""

    guild_id: int
    starting_bankroll: int
    daily_amount: int
    daily_cooldown: int
    """Seconds between two daily bonuses."""
    table_defaults_json: str
    """Default table settings, opaque JSON owned by the bot."""
    updated_at: float | None
    updated_by: int | None
    max_tables_per_player: int = 4
    """How many of the server's tables one member may sit at at once."""


@dataclass(frozen=True, slots=True)
class Account:
    """A member's bankroll in one server (the chips not on a table)."""

    guild_id: int
    user_id: int
    balance: int
    last_daily_at: float | None
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One chip movement into or out of a bankroll; ``balance_after`` is the bankroll after it."""

    entry_id: int
    guild_id: int
    user_id: int
    delta: int
    balance_after: int
    kind: LedgerKind
    table_id: int | None
    hand_id: int | None
    actor_id: int | None
    note: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class AdminLogEntry:
    """An admin action. ``old_value``/``new_value`` are JSON: a balance for grant/set/remove, an
    object of the changed fields for settings."""

    log_id: int
    guild_id: int
    actor_id: int
    action: AdminAction
    target_id: int | None
    old_value: str
    new_value: str
    note: str | None
    entry_id: int | None
    created_at: float


@dataclass(frozen=True, slots=True)
class DailyClaim:
    """A successful daily bonus: ``amount`` credited, bankroll now ``balance``."""

    amount: int
    balance: int
    next_at: float
    entry: LedgerEntry


@dataclass(frozen=True, slots=True)
class Table:
    """A poker table. ``config_json`` and ``state_json`` are opaque to the data layer."""

    table_id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: TableStatus
    config_json: str
    state_json: str | None
    chips_on_table: int
    """Stacks plus pots, as last saved; changes only by buy-ins, top-ups and cash-outs."""
    message_id: int | None
    current_hand_id: int | None
    created_at: float
    updated_at: float
    closed_at: float | None
    tournament_id: int | None = None
    """Set for a tournament's table, whose chips are tournament chips (no bankroll value)."""


@dataclass(frozen=True, slots=True)
class TablePlayer:
    """A seated player of an open table, with the stack last saved by the runtime."""

    table_id: int
    user_id: int
    seat: int | None
    stack: int


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand's public record (never the salt or the deck: see :class:`HandSecrets`)."""

    hand_id: int
    table_id: int
    guild_id: int
    number: int
    """1, 2, 3, ... per table."""
    variant: str
    variant_name: str
    commitment: str
    """SHA-256 hex published when the hand was dealt."""
    started_at: float
    ended_at: float | None
    result_json: str | None
    """None while in progress, and for a hand aborted by closing its table."""
    pot: int | None
    config_json: str | None = None
    """The engine's table configuration the hand was dealt with (its stakes, house rules);
    None for hands recorded before it was kept."""

    @property
    def in_progress(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class HandSecrets:
    """What a finished hand reveals so anyone can check its commitment."""

    hand_id: int
    commitment: str
    salt: str
    deck: str


@dataclass(frozen=True, slots=True)
class HandEvent:
    hand_id: int
    seq: int
    event_json: str
    created_at: float


HandEventIn = tuple[int, str]
"""A new hand event: ``(seq, event_json)``; seq is unique per hand (0, 1, 2, ...)."""


@dataclass(frozen=True, slots=True)
class TableSave:
    """What is written with every change of a table, taken at one moment, for the
    :class:`data.Database` methods that change a table.

    ``state_json`` is the table's snapshot (opaque JSON), ``chips`` the chips on the table
    (including chips in the middle), ``seats`` each seated player's stack (user id -> stack) and
    ``events`` the current hand's events not yet stored. The Database checks the value once, when
    a method takes it; the four then travel together to the queries.
    """

    state_json: str
    chips: int
    seats: Mapping[int, int]
    events: Sequence[HandEventIn] = ()


class PlayerHandResult(NamedTuple):
    """One player's outcome of a hand, for :meth:`data.Database.record_hand_result`."""

    user_id: int
    net: int
    """Chips won minus chips put in (the nets of a hand add up to 0)."""
    won: bool
    pot_won: int
    """Chips collected from the pot(s); 0 if none."""
    best_hand_score: int | None
    """Comparable strength of the hand shown, HIGHER IS BETTER; None if not shown."""
    best_hand_name: str | None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    guild_id: int
    user_id: int
    hands_played: int
    hands_won: int
    net_chips: int
    biggest_pot: int
    best_hand_score: int | None
    best_hand_name: str | None
    best_hand_id: int | None
    updated_at: float | None


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    user_id: int
    bankroll: int
    on_tables: int
    """Sum of the member's stacks at open tables of the server (as last saved)."""
    total: int


@dataclass(frozen=True, slots=True)
class ChipAudit:
    """Conservation of chips, for one server or (``guild_id`` None) all of them.

    ``issued - removed`` (from the ledger) must equal ``bankrolls + on_tables``; besides, every
    bankroll must equal the sum of its ledger rows and every table's chips must equal its
    buy-ins and top-ups minus its cash-outs.
    """

    guild_id: int | None
    issued: int
    removed: int
    bankrolls: int
    on_tables: int
    accounts_off: tuple[tuple[int, int], ...]
    """(guild_id, user_id) whose balance disagrees with the ledger."""
    tables_off: tuple[int, ...]
    """table_ids whose chips_on_table disagrees with the ledger."""
    in_tournaments: int = 0
    """Bankroll chips held in tournaments' prize pools."""
    tournaments_off: tuple[int, ...] = ()
    """tournament_ids whose prize pool disagrees with the ledger."""
    house: int = 0
    """Of the bankrolls, the chips in the house account (house players' chips off the tables)."""

    @property
    def circulating(self) -> int:
        return self.issued - self.removed

    @property
    def ok(self) -> bool:
        return (
            self.circulating == self.bankrolls + self.on_tables + self.in_tournaments
            and not self.accounts_off
            and not self.tables_off
            and not self.tournaments_off
        )

    def __str__(self) -> str:
        scope = "all servers" if self.guild_id is None else f"server {self.guild_id}"
        verdict = "OK" if self.ok else "MISMATCH"
        return (
            f"chip audit ({scope}): {verdict}; issued {self.issued} - removed {self.removed} = "
            f"{self.circulating}; bankrolls {self.bankrolls} + on tables {self.on_tables} + "
            f"in tournaments {self.in_tournaments} = "
            f"{self.bankrolls + self.on_tables + self.in_tournaments}; "
            f"accounts off: {list(self.accounts_off)}; tables off: {list(self.tables_off)}; "
            f"tournaments off: {list(self.tournaments_off)}"
        )


@dataclass(frozen=True, slots=True)
class BankrollPoint:
    """The member's bankroll right after one ledger row (a buy-in, a cash-out, a bonus...)."""

    at: float
    balance: int


@dataclass(frozen=True, slots=True)
class GameNet:
    """What a member won or lost at one game (variant) over the hands counted."""

    variant: str
    name: str
    hands: int
    net: int


@dataclass(frozen=True, slots=True)
class StatsHistory:
    """A member's game over time, for the ``/stats`` chart (:meth:`data.Database.stats_history`).

    ``bankroll`` is in time order, at most the asked number of points (evenly picked ledger
    rows, the first and the latest always kept); ``games`` holds the net per game of the newest
    ``hands`` cash-game hands the member was dealt in, biggest winner first; ``capped`` says
    older hands were left out.
    """

    bankroll: tuple[BankrollPoint, ...]
    games: tuple[GameNet, ...]
    hands: int
    capped: bool
