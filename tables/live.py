"""One open table as the bot holds it: the engine's table plus the bot's own bookkeeping.

Plain state with no behaviour beyond reading it: the table service
(:mod:`tables.service`) changes it under the table's lock and saves it; the presenter
and the router read it. ``state_json`` is the snapshot saved after every change.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import orjson

import engine
from engine import HandResult, Table

if TYPE_CHECKING:
    from cogs.ui.components import MessageEditor

__all__ = [
    "HandInfo",
    "LiveTable",
    "Meta",
    "Outcome",
    "Ping",
    "Presenter",
    "TableSettings",
    "TournamentHooks",
]


@dataclass
class TableSettings:
    """Bot-side settings of one table (the engine's :class:`TableConfig` holds the rules)."""

    min_buy_in: int
    max_buy_in: int
    action_seconds: int = 60
    auto_deal_seconds: int = 8
    # The draw panel shows each player the odds of their own draws (off: some games call it
    # cheating, so the table's creator decides).
    coach: bool = False

    def describe(self) -> str:
        deal = f"next hand after {self.auto_deal_seconds}s" if self.auto_deal_seconds else "manual"
        return (
            f"Buy-in {self.min_buy_in:,}–{self.max_buy_in:,} · {self.action_seconds}s to act"
            f" · {deal}" + (" · coach on" if self.coach else "")
        )


@dataclass
class HandInfo:
    """What the bot remembers about the hand in progress."""

    hand_id: int
    commitment: str
    start_stacks: dict[str, int]
    saved_events: int
    carried_before: int = 0


@dataclass
class Meta:
    """Persisted beside the engine snapshot: names, message ids, timers' bookkeeping."""

    names: dict[str, str] = field(default_factory=dict)
    message_id: int | None = None
    hand: HandInfo | None = None
    misses: dict[str, int] = field(default_factory=dict)
    dm_closed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Stacks of players who left during a hand, taken from the engine but not yet paid into
    # their bankrolls: a restart pays them (see TableService._pay_leavers).
    owed: dict[str, int] = field(default_factory=dict)
    # The last hand number recorded in the database (a dealer's-choice deal is recorded only
    # once the game is chosen and the cards are dealt).
    recorded: int = 0
    # /poker end was asked during a hand (by this user id): the table closes when it is over.
    end_requested: int | None = None
    # The tournament this table belongs to: its stacks are tournament chips.
    tournament: int | None = None
    # The turn ping standing in the channel as a message of its own: kept here so that a
    # restart can still delete it (the in-memory Ping is gone by then).
    ping_id: int | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Meta:
        hand = data.get("hand")
        return cls(
            names=dict(data.get("names", {})),
            message_id=data.get("message_id"),
            hand=HandInfo(**hand) if hand else None,
            misses=dict(data.get("misses", {})),
            dm_closed=list(data.get("dm_closed", [])),
            notes=list(data.get("notes", [])),
            owed={k: int(v) for k, v in data.get("owed", {}).items()},
            recorded=int(data.get("recorded", 0)),
            end_requested=data.get("end_requested"),
            tournament=data.get("tournament"),
            ping_id=data.get("ping_id"),
        )


@dataclass(frozen=True, slots=True)
class Ping:
    """The one turn ping of a table standing in the channel: a message that mentioned the
    players in ``players``. ``editor`` is the webhook it was sent through (deleting it
    there is not counted against the global rate limit); ``on_table`` means the ping is the
    content of the table message itself (cleared by the table's next edit, no delete).
    ``text`` is what it says, so that a change of street can reword it."""

    message_id: int
    players: frozenset[str]
    editor: MessageEditor | None = None
    on_table: bool = False
    text: str = ""


@dataclass
class Outcome:
    """What one change did, for the presenter."""

    events: tuple[engine.Event, ...] = ()
    result: HandResult | None = None
    private_changed: tuple[str, ...] = ()
    new_hand: bool = False
    notes: tuple[str, ...] = ()
    # Each dealt-in player's stack when the hand began (with a result: the nets it shows).
    start_stacks: dict[str, int] | None = None
    # The table closed as the hand ended (/poker end during it): what each player was paid.
    ended: dict[int, int] | None = None


class TournamentHooks(Protocol):
    """What a tournament does around each deal at its tables (:mod:`cogs.tournament`); called
    under the table's lock."""

    async def before_deal(self, live: LiveTable) -> list[str]:
        """Put the level in force on the table; the notes to show with the new hand."""
        ...

    async def after_hand(self, live: LiveTable, start_stacks: dict[str, int]) -> list[str]:
        """Take busted players out, end the tournament when one is left; notes to show."""
        ...


class Presenter(Protocol):
    """Shows outcomes in Discord; implemented by :class:`cogs.presenter.TablePresenter`."""

    async def present(self, live: LiveTable, outcome: Outcome) -> None: ...


class LiveTable:
    """One open table: the engine table plus what the bot keeps about it."""

    def __init__(
        self,
        table_id: int,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        table: Table,
        settings: TableSettings,
        meta: Meta,
    ) -> None:
        self.id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.creator_id = creator_id
        self.engine = table
        self.settings = settings
        self.meta = meta
        self.lock = asyncio.Lock()
        self.deadline: float | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.auto_deal: asyncio.Task[None] | None = None
        self.last_private: dict[str, tuple[engine.Card, ...]] = {}
        self.closed = False
        # Set by the presenter (a cogs.ui.components.MessageEditor): the token of a recent
        # interaction on the table message, so later updates can go through its webhook.
        self.editor: MessageEditor | None = None
        # Who the engine waited for when the table was last shown: a ping goes only to
        # players the action has just passed to.
        self.turn: frozenset[str] = frozenset()
        self.ping: Ping | None = None
        # The ping id in the last snapshot written, and the pending save of a newer one.
        self.saved_ping: int | None = meta.ping_id
        self.ping_save: asyncio.TimerHandle | None = None
        # Each player's DM of the hand in progress (hand number, DM channel, message): the
        # DM is edited as the cards change rather than a new one sent.
        self.dm_messages: dict[str, tuple[int, int, int]] = {}

    # -- derived --------------------------------------------------------------------------------

    def seated(self, user_id: int) -> bool:
        return any(s is not None and s.player_id == str(user_id) for s in self.engine.seats)

    def seat_stacks(self) -> dict[int, int]:
        return {int(s.player_id): s.stack for s in self.engine.seats if s is not None}

    def version(self) -> str:
        """Changes with every event of the hand: buttons carry it to detect stale presses."""
        return f"{self.engine.hand_number}.{len(self.engine.events)}"

    def state_json(self) -> str:
        # orjson writes the dataclasses itself: about 15 us against 115 us for asdict plus
        # json.dumps, and this runs after every action of every table.
        snapshot = {"engine": self.engine.to_dict(), "settings": self.settings, "meta": self.meta}
        self.saved_ping = self.meta.ping_id
        return orjson.dumps(snapshot).decode()
