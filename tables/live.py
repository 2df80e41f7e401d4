"""One open table as the bot holds it: the engine's table plus the bot's own bookkeeping.

The table service (:mod:`tables.service`) changes it under the table's lock and saves it;
the presenter and the router read it. :meth:`LiveTable.state_json` is the snapshot saved
after every change: the engine's state, the table's settings, its :class:`Meta`, and the
presenter's own :class:`Presentation` (which messages show the table: Discord's business,
opaque here). The outcome of a change (:class:`Outcome`), the table's :class:`Version` and
the hooks a tournament and a presenter provide are declared here too.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import orjson

import engine
from engine import HandResult, Table
from engine.events import RoundStarted
from engine.habits import Habits
from engine.house import Level
from engine.seating import house_level
from engine.timebank import DEFAULT_TIME_BANK, TimeBank
from i18n import Language
from i18n.engine_text import say
from tables.languages import table_language
from tables.lock import TableLock
from tables.translator import _

__all__ = [
    "HOUSE_LEVELS",
    "HandInfo",
    "LiveTable",
    "Meta",
    "Note",
    "Outcome",
    "Presentation",
    "Presenter",
    "SavedPresentation",
    "TableSettings",
    "TimedOut",
    "TournamentHooks",
    "Version",
    "house_name",
    "note_text",
    "shown_names",
]

HOUSE_LEVELS = {
    # Translators: how well a house player plays, in its name ("🤖 House easy 1").
    Level.EASY: _.lazy("easy"),
    Level.NORMAL: _.lazy("normal"),
    Level.HARD: _.lazy("hard"),
}


def house_name(player_id: str, language: Language) -> str | None:
    """A house player's name in ``language`` ("🤖 House hard 1"), from its id (its level and
    number); None for a person. The name is the table's words, not a name someone chose: it
    reads in the table's language of the moment, and the player stays the same (its id)."""
    level = house_level(player_id)
    if level is None:
        return None
    # Translators: a house player's name; {level}: easy, normal or hard; {number}: 1, 2...
    return _(
        "🤖 House {level} {number}",
        level=HOUSE_LEVELS[level].render(language),
        number=str(int(player_id[1:]) % 100),
        language=language,
    )


def shown_names(names: dict[str, str], language: Language) -> dict[str, str]:
    """Player id -> the name a table shows: each person's as they sat down (``names``), each
    house player's in ``language`` (the table's).

    >>> from i18n import resolve
    >>> shown_names({"7": "Ann", "-301": "🤖 House hard 1"}, resolve("de"))
    {'7': 'Ann', '-301': '🤖 Haus schwer 1'}
    """
    if not any(house_level(pid) for pid in names):
        return names
    return {pid: house_name(pid, language) or name for pid, name in names.items()}


@dataclass(frozen=True, slots=True)
class Version:
    """A table's position: the hand number and how many events it has had.

    Buttons carry it, so a press on a table that has moved on (a stale or doubled press) is
    told apart from a fresh one.

    >>> Version.parse("12.7"), str(Version(12, 7))
    (Version(hand=12, events=7), '12.7')
    >>> Version.parse("12.07")
    Traceback (most recent call last):
    ...
    ValueError: malformed table version '12.07'
    """

    hand: int
    events: int

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(r"(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})")

    def encode(self) -> str:
        return f"{self.hand}.{self.events}"

    __str__ = encode

    @classmethod
    def parse(cls, text: str) -> Version:
        found = cls._PATTERN.fullmatch(text)
        if found is None:
            raise ValueError(f"malformed table version {text[:100]!r}")
        return cls(int(found[1]), int(found[2]))


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
    # Each player's reserve of seconds once the action timer runs out (0: none): see
    # engine.timebank. Snapshots written before it existed get the default.
    time_bank: int = DEFAULT_TIME_BANK

    @property
    def bank(self) -> TimeBank:
        """The table's time-bank rule (its size and refill)."""
        return TimeBank(self.time_bank)

    def describe(self, buy_in: bool = True) -> str:
        """The settings in one line, in the current language (each part a whole message:
        a language words each its own way); a buy-in range whose ends meet is one number.
        Without ``buy_in`` for a tournament's table (its players buy into the tournament).

        >>> TableSettings(40, 200, 30, 0, time_bank=0).describe()
        'Buy-in 40–200 · 30s to act · no time bank · manual deal'
        >>> TableSettings(200, 200, coach=True).describe()
        'Buy-in 200 · 60s to act · time bank 30s · next hand after 8s · coach on'
        """
        parts = []
        if buy_in:
            parts.append(
                # Translators: the one buy-in of a table whose smallest and largest are the same.
                _("Buy-in {amount}", amount=self.min_buy_in)
                if self.min_buy_in == self.max_buy_in
                else _("Buy-in {low}–{high}", low=self.min_buy_in, high=self.max_buy_in)
            )
        parts += [
            _("{seconds}s to act", seconds=self.action_seconds),
            _("time bank {seconds}s", seconds=self.time_bank)
            if self.time_bank
            else _("no time bank"),
            _("next hand after {seconds}s", seconds=self.auto_deal_seconds)
            if self.auto_deal_seconds
            else _("manual deal"),
        ]
        if self.coach:
            parts.append(_("coach on"))
        return " · ".join(parts)


@dataclass
class HandInfo:
    """What the bot remembers about the hand in progress."""

    hand_id: int
    commitment: str
    start_stacks: dict[str, int]
    saved_events: int
    carried_before: int = 0


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A note the table shows until the next deal: ``who`` (a player id) ran out of time,
    and was sat out for it (``sat_out``, the second timeout running). Kept as what happened,
    not as words: it is worded when the table is drawn, in the table's language of the moment
    and with the player's name as the table shows it then."""

    who: str
    sat_out: bool = False


# A note on the table: words written once (a tournament's, a voided hand's), or a timeout.
Note = str | TimedOut


def _load_note(saved: Any) -> Note:
    """A note as saved in a snapshot (orjson writes a :class:`TimedOut` as its fields).

    >>> _load_note({"who": "7", "sat_out": True})
    TimedOut(who='7', sat_out=True)
    >>> _load_note("The last hand was void.")
    'The last hand was void.'
    """
    if isinstance(saved, dict):
        return TimedOut(str(saved["who"]), bool(saved.get("sat_out", False)))
    return str(saved)


def note_text(note: Note, name: Callable[[str], str], language: Language) -> str:
    """A note's words in ``language``; ``name`` writes a player's name (from their id) as
    the message shows it.

    >>> from i18n import ENGLISH
    >>> note_text(TimedOut("7"), lambda pid: "Ann", ENGLISH)
    '⏱ Ann ran out of time.'
    >>> note_text(TimedOut("7", sat_out=True), lambda pid: "Ann", ENGLISH).endswith("next hand.")
    True
    """
    if isinstance(note, str):
        return note  # written by whoever made it, names included
    timed_out = say("timed-out", who=name(note.who), language=language)
    if note.sat_out:
        # Translators: {timed_out}: "Ann ran out of time" (the engine's words).
        text = _(
            "{timed_out}. Timed out twice running: sitting out from the next hand.",
            timed_out=timed_out,
            language=language,
        )
    else:
        text = _("{timed_out}.", timed_out=timed_out, language=language)
    return f"⏱ {text}"


@dataclass
class Meta:
    """Persisted beside the engine snapshot: names, the hand's record, timers' bookkeeping."""

    names: dict[str, str] = field(default_factory=dict)
    hand: HandInfo | None = None
    misses: dict[str, int] = field(default_factory=dict)
    # Shown on the table until the next deal.
    notes: list[Note] = field(default_factory=list)
    # Stacks of players who left during a hand, taken from the engine but not yet paid into
    # their bankrolls: a restart pays them (see TableRecords.pay_leavers).
    owed: dict[str, int] = field(default_factory=dict)
    # The last hand number recorded in the database (a dealer's-choice deal is recorded only
    # once the game is chosen and the cards are dealt).
    recorded: int = 0
    # /poker end was asked during a hand (by this user id): the table closes when it is over.
    end_requested: int | None = None
    # The tournament this table belongs to: its stacks are tournament chips.
    tournament: int | None = None
    # Seconds left in each player's time bank (a player not listed has a full bank).
    banks: dict[str, float] = field(default_factory=dict)
    # Banks running now: when each runs out (wall-clock seconds, so a restart resumes it).
    bank_ends: dict[str, float] = field(default_factory=dict)
    # Pre-actions ticked for this hand (engine.timebank.PreAction values), by player.
    pre_actions: dict[str, str] = field(default_factory=dict)
    # The language the table's channel reads, chosen for this table (/poker create language:);
    # None follows the server (snapshots written before it existed load as None).
    language: str | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Meta:
        hand = data.get("hand")
        return cls(
            names=dict(data.get("names", {})),
            hand=HandInfo(**hand) if hand else None,
            misses=dict(data.get("misses", {})),
            notes=[_load_note(note) for note in data.get("notes", [])],
            owed={k: int(v) for k, v in data.get("owed", {}).items()},
            recorded=int(data.get("recorded", 0)),
            end_requested=data.get("end_requested"),
            tournament=data.get("tournament"),
            banks={k: float(v) for k, v in data.get("banks", {}).items()},
            bank_ends={k: float(v) for k, v in data.get("bank_ends", {}).items()},
            pre_actions={k: str(v) for k, v in data.get("pre_actions", {}).items()},
            language=data.get("language") or None,
        )


class Presentation(Protocol):
    """What the presenter keeps about how a table is shown (its message, a standing turn
    ping...): saved with every snapshot of the table so that a restart finds it, but read and
    changed only by the presenter. ``saved()`` is the JSON-ready value written: a new value
    each time, or one that is never changed in place."""

    def saved(self) -> dict[str, Any]: ...


class SavedPresentation:
    """A presentation as read from disk (or none yet), until the presenter takes it up."""

    __slots__ = ("data",)

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        self.data = dict(data or {})

    def saved(self) -> dict[str, Any]:
        return self.data

    # Snapshots written before the presenter kept its own state had these in the meta.
    LEGACY_KEYS: ClassVar[tuple[str, ...]] = ("message_id", "ping_id", "dm_closed")

    @classmethod
    def from_snapshot(cls, state: dict[str, Any]) -> SavedPresentation:
        """The presentation saved in ``state`` (a snapshot's JSON value).

        >>> SavedPresentation.from_snapshot({"presentation": {"message_id": 7}}).saved()
        {'message_id': 7}
        >>> old = {"meta": {"names": {}, "message_id": 7, "ping_id": 9}}  # before it had its own
        >>> SavedPresentation.from_snapshot(old).saved()
        {'message_id': 7, 'ping_id': 9}
        """
        if "presentation" in state:
            return cls(state["presentation"])
        meta = state.get("meta", {})
        return cls({key: meta[key] for key in cls.LEGACY_KEYS if key in meta})


@dataclass
class Outcome:
    """What one change did, for the presenter."""

    events: tuple[engine.Event, ...] = ()
    result: HandResult | None = None
    private_changed: tuple[str, ...] = ()
    new_hand: bool = False
    # Each dealt-in player's stack when the hand began (with a result: the nets it shows).
    start_stacks: dict[str, int] | None = None
    # The table closed as the hand ended (/poker end during it): what each player was paid.
    ended: dict[int, int] | None = None
    # With a result: the hand's id in the history (its Replay button names it).
    hand_id: int | None = None


class TournamentHooks(Protocol):
    """What a tournament does around each deal at its tables (:mod:`cogs.tournament`); called
    under the table's lock."""

    async def before_deal(self, live: LiveTable) -> list[str]:
        """Put the level in force on the table; the notes to show with the new hand."""
        ...

    async def after_hand(self, live: LiveTable, start_stacks: dict[str, int]) -> None:
        """Take busted players out, end the tournament when one is left (its notes go to the
        table's own)."""
        ...

    async def table_gone(self, live: LiveTable, why: str) -> None:
        """The table's channel is gone (not under its lock): its players play on elsewhere,
        with their chips (a hand in progress void)."""
        ...

    def holds_channel(self, channel_id: int) -> bool:
        """Whether a tournament taking entries or running has its lobby in the channel (no
        cash table opens there: the tournament's own table will need it)."""
        ...


class Presenter(Protocol):
    """Shows outcomes in Discord; implemented by :class:`cogs.presenter.TablePresenter`."""

    async def present(self, live: LiveTable, outcome: Outcome) -> None: ...


NO_HABITS = Habits()
"""Every table's habits until a hand ends with a house player seated (one shared value)."""


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
        presentation: Presentation | None = None,
    ) -> None:
        self.id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.creator_id = creator_id
        self.engine = table
        self.settings = settings
        self.meta = meta
        # The presenter's, saved with the table: see Presentation.
        self.presentation: Presentation = presentation or SavedPresentation()
        self.lock = TableLock()
        self.deadline: float | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.auto_deal: asyncio.Task[None] | None = None
        self.last_private: dict[str, tuple[engine.Card, ...]] = {}
        # What house players here have seen of everyone's bets (kept in memory only: a
        # restarted table starts over, as a newcomer to the table would).
        self.habits = NO_HABITS
        self.closed = False
        # The presentation in the last snapshot written, and the pending save of a newer one.
        self.saved_presentation: dict[str, Any] = dict(self.presentation.saved())
        self.presentation_save: asyncio.TimerHandle | None = None

    # -- derived --------------------------------------------------------------------------------

    def note_habits(self) -> None:
        """Count the hand just ended into :attr:`habits`, for the house players seated."""
        if any(s is not None and house_level(s.player_id) for s in self.engine.seats):
            self.habits = self.habits.after_hand(self.engine.events)

    def seated(self, user_id: int) -> bool:
        return any(s is not None and s.player_id == str(user_id) for s in self.engine.seats)

    def seat_stacks(self) -> dict[int, int]:
        return {int(s.player_id): s.stack for s in self.engine.seats if s is not None}

    def banking(self) -> list[str]:
        """The players to act who are using their time bank (none in the usual case, found
        without looking at the decisions)."""
        ends = self.meta.bank_ends
        return [d.player_id for d in self.engine.pending if d.player_id in ends] if ends else []

    @property
    def names(self) -> dict[str, str]:
        """Player id -> the name the table shows now (:func:`shown_names`): the names kept
        in :attr:`Meta.names`, house players' in the table's language."""
        return shown_names(self.meta.names, self.language)

    def shown_notes(self, as_typed: Callable[[str], str]) -> list[str]:
        """The notes the table shows, worded in its language of the moment, each name in them
        written by ``as_typed`` (the bot's way of writing a member's own text)."""
        names, language = self.names, self.language

        def name(player_id: str) -> str:
            return as_typed(names.get(player_id, player_id))

        return [note_text(note, name, language) for note in self.meta.notes]

    @property
    def language(self) -> Language:
        """The language everyone at the table reads (its message, pings, results): the
        table's own choice, else its server's (see :mod:`tables.languages`)."""
        return table_language(self.meta.language, self.guild_id)

    def street(self) -> int:
        """How many rounds (betting, draws, passes...) the hand has begun: a private panel
        carries it, so that a panel left open from one round cannot act in a later one."""
        return sum(isinstance(event, RoundStarted) for event in self.engine.events)

    def version(self) -> Version:
        """Changes with every event of the hand: buttons carry it to detect stale presses."""
        return Version(self.engine.hand_number, len(self.engine.events))

    def state_json(self) -> str:
        # orjson writes the dataclasses itself: about 15 us against 115 us for asdict plus
        # json.dumps, and this runs after every action of every table.
        presentation = self.presentation.saved()
        snapshot = {
            "engine": self.engine.to_dict(),
            "settings": self.settings,
            "meta": self.meta,
            "presentation": presentation,
        }
        self.saved_presentation = presentation  # a value of its own: nothing changes it
        return orjson.dumps(snapshot).decode()
