"""The hand's event log and its result.

Every card movement, forced bet, action, pot award and the end of the hand is recorded as an
immutable event, appended in order to ``table.events``. ``to_dict()`` gives a JSON-friendly
dict (with a ``"type"`` key) that includes private cards; ``public_dict()`` gives the same
event as every player at the table may see it (face-down cards replaced by their number).
``visible_to(seat)`` says whether a given seat may see the full event, and ``masked_for(seat)``
gives the event as that seat sees it. ``Event.from_dict`` reads ``to_dict()``'s output back, so
a stored hand can be replayed as real events:

>>> from engine.cards import parse_cards
>>> dealt = Dealt(2, parse_cards("As Kd"), False)
>>> dealt.to_dict()
{'type': 'dealt', 'seat': 2, 'cards': ['As', 'Kd'], 'face_up': False}
>>> Event.from_dict(dealt.to_dict()) == dealt
True
>>> dealt.masked_for(2) is dealt
True
>>> dealt.masked_for(0).to_dict()
{'type': 'dealt', 'seat': 2, 'cards': 2, 'face_up': False}

At the end of a hand the engine also builds a :class:`HandResult`, a compact summary for the
showdown message.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from engine._frozen import fast_init
from engine.cards import Card, parse_card
from engine.hands import HandValue

__all__ = [
    "Arranged",
    "BetPlaced",
    "BetReturned",
    "BoardDealt",
    "BosnianKept",
    "BosnianOffer",
    "Burned",
    "Called",
    "CardRevealed",
    "CardsPassed",
    "Checked",
    "Dealt",
    "Declared",
    "Drew",
    "Event",
    "Folded",
    "ForcedBet",
    "GameChosen",
    "GameSwitched",
    "HandEnded",
    "HandResult",
    "HandStarted",
    "Masked",
    "Mucked",
    "OpenersShown",
    "OpenersSplit",
    "PassedOut",
    "PlayerLeft",
    "PotAwarded",
    "PotCarried",
    "PotResult",
    "PotShare",
    "Raised",
    "Reshuffled",
    "RoundStarted",
    "Shown",
    "ShownHand",
    "TimedOut",
    "plain",
]


def plain(value: Any) -> Any:
    """``value`` turned into JSON-friendly data: cards become strings like ``"As"``, hand values
    their names, enums their values, tuples lists, objects with a ``to_dict`` method and
    dataclasses dicts (dict keys become strings)."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, HandValue):
        return value.name
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list | frozenset | set):
        items = [plain(item) for item in value]
        if isinstance(value, frozenset | set):
            items.sort(key=str)
        return items
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        to_dict = getattr(value, "to_dict", None)
        if to_dict is not None:
            return to_dict()
        return fields_dict(value)
    return value


def fields_dict(value: Any) -> dict[str, Any]:
    """A dataclass's fields as a JSON-friendly dict (see :func:`plain`)."""
    return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}


_EVENT_TYPES: dict[str, type[Event]] = {}
"""Every event class by its ``type``, filled as the classes are defined."""

_HINTS: dict[type[Event], dict[str, Any]] = {}


class Event:
    """Base class of all events."""

    __slots__ = ()
    type: ClassVar[str] = "event"
    _private: ClassVar[tuple[str, ...]] = ()
    """Fields that only the owning seat may see (face-down cards)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Registering here (not in a hand-written table) lets an event class added later be
        # read back by from_dict with no other change. ``dataclass(slots=True)`` builds a
        # second class of the same name: it replaces the first.
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("type")
        if not isinstance(kind, str):
            return
        known = _EVENT_TYPES.get(kind)
        if known is not None and known.__qualname__ != cls.__qualname__:
            raise TypeError(f"{cls.__qualname__} reuses the event type {kind!r}")
        _EVENT_TYPES[kind] = cls

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """The event that :meth:`to_dict` turned into ``data``, of the class its ``"type"``
        names. A field missing from ``data`` takes its default, if it has one (an event
        stored before the field existed).

        >>> Event.from_dict({"type": "folded", "seat": 3})
        Folded(seat=3)
        >>> Event.from_dict({"type": "folded", "seat": "3"})
        Traceback (most recent call last):
        ...
        ValueError: folded.seat: expected a whole number, got '3'

        :raises ValueError: for an unknown type, a missing or unexpected field, or a value of
            the wrong kind (a card that is not a card, a seat that is not a number...).
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"an event is a mapping, got {type(data).__name__}")
        kind = data.get("type")
        target = _EVENT_TYPES.get(kind) if isinstance(kind, str) else None
        if target is None:
            raise ValueError(f"unknown event type {kind!r}")
        if not issubclass(target, cls):
            raise ValueError(f"a {kind!r} event is not a {cls.__name__}")
        return target._read(data)

    @classmethod
    def _read(cls, data: Mapping[str, Any]) -> Event:
        """``from_dict`` for this class: every field read by its annotation."""
        hints = _HINTS.get(cls)
        if hints is None:
            hints = _HINTS[cls] = typing.get_type_hints(cls)
        values: dict[str, Any] = {}
        names = {"type"}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if not f.init:
                continue
            names.add(f.name)
            if f.name in data:
                values[f.name] = _read_value(hints[f.name], data[f.name], f"{cls.type}.{f.name}")
            elif f.default is dataclasses.MISSING:
                raise ValueError(f"a {cls.type!r} event needs {f.name!r}")
        extra = sorted(str(key) for key in data if key not in names)
        if extra:
            raise ValueError(f"a {cls.type!r} event has no {', '.join(map(repr, extra))}")
        return cls(**values)

    def masked_for(self, seat: int | None) -> Event | Masked:
        """The event as ``seat`` (``None``: someone not dealt in) sees it: the event itself
        when the seat may see all of it, else a :class:`Masked` view that counts the cards of
        the private fields instead of naming them. ``masked_for(seat).to_dict()`` is what may
        be shown to that seat."""
        if self.visible_to(seat):
            return self
        shown: dict[str, Any] = {}
        counts: dict[str, int] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.name not in self._private:
                shown[f.name] = value
            elif isinstance(value, tuple):
                counts[f.name] = len(value)
            elif value is not None:
                counts[f.name] = 1
        return Masked(type(self), shown, counts)

    def to_dict(self) -> dict[str, Any]:
        """Everything in the event, JSON-friendly."""
        data: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            data[f.name] = plain(getattr(self, f.name))
        return data

    def public_dict(self) -> dict[str, Any]:
        """The event as everyone at the table may see it: private card fields are replaced by
        their count (``"cards": 3`` instead of the three cards)."""
        data = self.to_dict()
        for name in self._private:
            value = data.get(name)
            if isinstance(value, list):
                data[name] = len(value)
            elif value is not None:
                data[name] = 1
        return data

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for an observer) may see the private fields."""
        if not self._private:
            return True
        owner = getattr(self, "seat", None)
        return owner is not None and owner == seat


def _read_value(hint: Any, value: Any, where: str) -> Any:
    """``value`` (JSON data, as :func:`plain` wrote it) read back as the annotated type."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        if value is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        if len(options) == 1:
            return _read_value(options[0], value, where)
        raise ValueError(f"{where}: no reading for {hint}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ValueError(f"{where}: expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read_value(args[0], item, f"{where}[]") for item in value)
        if len(value) != len(args):
            raise ValueError(f"{where}: expected {len(args)} items, got {value!r}")
        return tuple(
            _read_value(arg, item, f"{where}[{i}]")
            for i, (arg, item) in enumerate(zip(args, value, strict=True))
        )
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f"{where}: expected true or false, got {value!r}")
        return value
    if hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{where}: expected a whole number, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise ValueError(f"{where}: expected text, got {value!r}")
        return value
    if hint is Card:
        if not isinstance(value, str):
            raise ValueError(f"{where}: expected a card, got {value!r}")
        try:
            return parse_card(value)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(value)
        except ValueError:
            raise ValueError(f"{where}: {value!r} is not a {hint.__name__}") from None
    raise ValueError(f"{where}: no reading for {hint}")


@dataclass(frozen=True, slots=True)
class Masked:
    """An event as a seat that may not see all of it sees it (see :meth:`Event.masked_for`):
    ``kind`` is the event's class, ``shown`` its public fields (as values: seats, cards
    dealt face up...), ``counts`` the number of cards in each hidden field."""

    kind: type[Event]
    shown: Mapping[str, Any]
    counts: Mapping[str, int]

    @property
    def type(self) -> str:
        """The event's type, as in :meth:`Event.to_dict`."""
        return self.kind.type

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form, fields in the event's order, hidden ones as their count (the
        event's :meth:`Event.public_dict` when the seat is not the owner)."""
        data: dict[str, Any] = {"type": self.kind.type}
        for f in dataclasses.fields(self.kind):  # type: ignore[arg-type]
            if f.name in self.shown:
                data[f.name] = plain(self.shown[f.name])
            elif f.name in self.counts:
                data[f.name] = self.counts[f.name]
        return data


# -- the deal ---------------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand begins: ``seats`` holds ``(seat, player_id, stack)`` of each player dealt in,
    clockwise from the dealer's left; stacks are before any forced bet."""

    type: ClassVar[str] = "hand-started"
    hand_number: int
    game: str
    button: int
    seats: tuple[tuple[int, str, int], ...]


@fast_init
@dataclass(frozen=True, slots=True)
class GameChosen(Event):
    """Dealer's choice: the dealer in ``seat`` picked the game ``slug`` with ``modifiers``,
    named ``name``; ``warnings`` lists the home-game guidelines it breaks; ``timed_out`` is
    true when the table's default game was dealt because the dealer did not choose in time;
    ``continued`` when Diablo goes on without a new choice."""

    type: ClassVar[str] = "game-chosen"
    seat: int
    slug: str
    modifiers: tuple[str, ...]
    name: str
    warnings: tuple[str, ...] = ()
    timed_out: bool = False
    continued: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class PotCarried(Event):
    """Chips carried from earlier deals (a passed-out deal, Diablo, trips to win) are in the
    pot; ``reason`` says why."""

    type: ClassVar[str] = "pot-carried"
    amount: int
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class ForcedBet(Event):
    """A forced bet: ``kind`` is ``"ante"``, ``"blind"``, ``"straddle"`` or ``"diablo"`` (the
    Diablo opener building a new pot)."""

    type: ClassVar[str] = "forced-bet"
    seat: int
    kind: str
    amount: int
    all_in: bool


@fast_init
@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """``cards`` were dealt to ``seat`` in one dealing step (in the order received)."""

    type: ClassVar[str] = "dealt"
    _private: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    cards: tuple[Card, ...]
    face_up: bool

    def public_dict(self) -> dict[str, Any]:
        """Face-up cards stay visible; face-down ones become a count."""
        return self.to_dict() if self.face_up else Event.public_dict(self)

    def visible_to(self, seat: int | None) -> bool:
        """Face-up cards are seen by everyone."""
        return self.face_up or seat == self.seat


@fast_init
@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    """Cards dealt face up to the centre; ``wild_rank`` is the rank they made wild, if any."""

    type: ClassVar[str] = "board-dealt"
    cards: tuple[Card, ...]
    wild_rank: int | None


@fast_init
@dataclass(frozen=True, slots=True)
class Burned(Event):
    """A card was burned (face down; nobody sees it)."""

    type: ClassVar[str] = "burned"
    _private: ClassVar[tuple[str, ...]] = ("card",)
    card: Card

    def visible_to(self, seat: int | None) -> bool:
        """Nobody sees a burn card."""
        return False


@fast_init
@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A new street: ``kind`` is ``"bet"``, ``"draw"``, ``"pass"``, ``"arrange"``,
    ``"reveal"`` or ``"declare"``; ``number`` counts rounds of that kind from 1; ``first_seat``
    is the seat to act first (``None`` for simultaneous steps)."""

    type: ClassVar[str] = "round-started"
    kind: str
    number: int
    first_seat: int | None


# -- betting ----------------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``seat`` ran out of time; the default action follows."""

    type: ClassVar[str] = "timed-out"
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class Folded(Event):
    """``seat`` folded."""

    type: ClassVar[str] = "folded"
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class Checked(Event):
    """``seat`` checked."""

    type: ClassVar[str] = "checked"
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class Called(Event):
    """``seat`` called, putting ``amount`` more chips in (round total ``to``)."""

    type: ClassVar[str] = "called"
    seat: int
    amount: int
    to: int
    all_in: bool


@fast_init
@dataclass(frozen=True, slots=True)
class BetPlaced(Event):
    """``seat`` opened the betting: round total ``to``, ``amount`` new chips."""

    type: ClassVar[str] = "bet"
    seat: int
    amount: int
    to: int
    all_in: bool


@fast_init
@dataclass(frozen=True, slots=True)
class Raised(Event):
    """``seat`` raised to ``to`` (``amount`` new chips); ``full`` is false for an all-in short
    of a full raise, which does not reopen the betting."""

    type: ClassVar[str] = "raised"
    seat: int
    amount: int
    to: int
    all_in: bool
    full: bool


@fast_init
@dataclass(frozen=True, slots=True)
class BetReturned(Event):
    """The uncalled part of a bet went back to ``seat``."""

    type: ClassVar[str] = "bet-returned"
    seat: int
    amount: int


@fast_init
@dataclass(frozen=True, slots=True)
class PassedOut(Event):
    """Nobody opened: the cards are thrown in, ``pot`` chips stay for the next deal."""

    type: ClassVar[str] = "passed-out"
    pot: int


@fast_init
@dataclass(frozen=True, slots=True)
class GameSwitched(Event):
    """Nobody opened and the hand goes on as another game (Johnson: lowball)."""

    type: ClassVar[str] = "game-switched"
    game: str


# -- drawing, passing, rollouts, declarations -------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class Drew(Event):
    """``seat`` discarded ``discarded`` and received ``received`` (equal in number, except in
    four-before). Everyone may know the counts."""

    type: ClassVar[str] = "drew"
    _private: ClassVar[tuple[str, ...]] = ("discarded", "received")
    seat: int
    discarded: tuple[Card, ...]
    received: tuple[Card, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The stub ran short: ``count`` cards (burn cards, the bottom card, earlier discards) were
    shuffled into a new stub."""

    type: ClassVar[str] = "reshuffled"
    count: int


@fast_init
@dataclass(frozen=True, slots=True)
class OpenersSplit(Event):
    """The opener discarded part of the openers; the cards are kept aside to be shown."""

    type: ClassVar[str] = "openers-split"
    _private: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    cards: tuple[Card, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class BosnianOffer(Event):
    """The Bosnian exchange: ``face_up`` is shown, ``face_down`` is not (not even to the
    player)."""

    type: ClassVar[str] = "bosnian-offer"
    _private: ClassVar[tuple[str, ...]] = ("face_down",)
    seat: int
    face_up: Card
    face_down: Card

    def visible_to(self, seat: int | None) -> bool:
        """The face-down card stays unseen by everyone."""
        return False


@fast_init
@dataclass(frozen=True, slots=True)
class BosnianKept(Event):
    """The Bosnian choice: ``seat`` took the face-up card (``took_face_up``) or the face-down
    one; the other went to the discards."""

    type: ClassVar[str] = "bosnian-kept"
    _private: ClassVar[tuple[str, ...]] = ("kept", "discarded")
    seat: int
    took_face_up: bool
    kept: Card
    discarded: Card

    def visible_to(self, seat: int | None) -> bool:
        """Only the player sees the cards, and not even they when they kept the face-up card:
        the face-down one then goes to the discards unseen (the kept one was shown to all
        in the offer)."""
        return seat == self.seat and not self.took_face_up


@fast_init
@dataclass(frozen=True, slots=True)
class CardsPassed(Event):
    """``seat`` passed ``cards`` to ``to_seat``."""

    type: ClassVar[str] = "cards-passed"
    _private: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    to_seat: int
    cards: tuple[Card, ...]

    def visible_to(self, seat: int | None) -> bool:
        """The giver and the receiver both know the cards."""
        return seat is not None and seat in (self.seat, self.to_seat)


@fast_init
@dataclass(frozen=True, slots=True)
class Arranged(Event):
    """``seat`` fixed the order of its rollout hand."""

    type: ClassVar[str] = "arranged"
    _private: ClassVar[tuple[str, ...]] = ("order",)
    seat: int
    order: tuple[Card, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    """Card number ``index`` of ``seat``'s arranged hand was turned up."""

    type: ClassVar[str] = "card-revealed"
    seat: int
    index: int
    card: Card


@fast_init
@dataclass(frozen=True, slots=True)
class Declared(Event):
    """``seat`` declared ``direction`` (all declarations are logged together once everyone has
    chosen)."""

    type: ClassVar[str] = "declared"
    seat: int
    direction: str


# -- the end ----------------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class Shown(Event):
    """``seat`` showed ``cards`` at the showdown; ``high``/``low`` name the hands (from the
    values ``high_value``/``low_value``, named on demand)."""

    type: ClassVar[str] = "shown"
    seat: int
    cards: tuple[Card, ...]
    high_value: HandValue | None
    low_value: HandValue | None
    # A value needs the game's ranking and wild cards, which the stored form does not hold:
    # an event read back by from_dict keeps the names alone.
    high_name: str | None = field(default=None, compare=False, repr=False)
    low_name: str | None = field(default=None, compare=False, repr=False)

    @property
    def high(self) -> str | None:
        """The name of the high hand, if high hands count."""
        return self.high_name if self.high_value is None else self.high_value.name

    @property
    def low(self) -> str | None:
        """The name of the low hand, if low hands count."""
        return self.low_name if self.low_value is None else self.low_value.name

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form with the hand names."""
        return {
            "type": self.type,
            "seat": self.seat,
            "cards": plain(self.cards),
            "high": self.high,
            "low": self.low,
        }

    @classmethod
    def _read(cls, data: Mapping[str, Any]) -> Event:
        """The stored form names the hands (``high``, ``low``) instead of holding values.

        >>> shown = Event.from_dict(
        ...     {"type": "shown", "seat": 1, "cards": ["As", "Ad"], "high": "A pair", "low": None}
        ... )
        >>> shown.high, shown.to_dict()["cards"]
        ('A pair', ['As', 'Ad'])
        """
        extra = sorted(
            str(key) for key in data if key not in ("type", "seat", "cards", "high", "low")
        )
        if extra:
            raise ValueError(f"a 'shown' event has no {', '.join(map(repr, extra))}")
        missing = [key for key in ("seat", "cards", "high", "low") if key not in data]
        if missing:
            raise ValueError(f"a 'shown' event needs {missing[0]!r}")
        seat = _read_value(int, data["seat"], "shown.seat")
        cards = _read_value(tuple[Card, ...], data["cards"], "shown.cards")
        high = _read_value(str | None, data["high"], "shown.high")
        low = _read_value(str | None, data["low"], "shown.low")
        return cls(seat, cards, None, None, high_name=high, low_name=low)


@fast_init
@dataclass(frozen=True, slots=True)
class Mucked(Event):
    """``seat`` threw a beaten hand away at the showdown without showing it (a table option).
    The cards stay private: only the player who held them may ever see them again."""

    type: ClassVar[str] = "mucked"
    _private: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    cards: tuple[Card, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class OpenersShown(Event):
    """The opener showed ``cards`` to prove the openers (split openers included)."""

    type: ClassVar[str] = "openers-shown"
    seat: int
    cards: tuple[Card, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """Pot number ``pot`` (0 = main pot) of ``amount`` chips was paid out: ``shares`` holds
    ``(seat, chips, half)`` with ``half`` one of ``"all"``, ``"high"``, ``"low"``."""

    type: ClassVar[str] = "pot-awarded"
    pot: int
    amount: int
    shares: tuple[tuple[int, int, str], ...]


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    """``player_id`` left ``seat`` during the hand (folding if still in)."""

    type: ClassVar[str] = "player-left"
    seat: int
    player_id: str


@fast_init
@dataclass(frozen=True, slots=True)
class LastCardDealt(Event):
    """The no-five-in-a-row rule: ``seat`` drew five, was dealt four in turn, and gets the
    last one, ``card``, only now that every later player has drawn."""

    type: ClassVar[str] = "last-card-dealt"
    _private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    card: Card


@fast_init
@dataclass(frozen=True, slots=True)
class Misdeal(Event):
    """The deal had to be abandoned before any card or chip moved, and the same ``dealer``
    deals again from a fresh shuffle; forced bets are paid once, by the new deal. ``case``:
    ``"imperfect-pack"`` (the cards to deal were not exactly the game's pack) or
    ``"too-many-hands"`` (the game cannot be dealt to this many players); ``reason`` says
    what was wrong."""

    type: ClassVar[str] = "misdeal"
    dealer: int
    case: str
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over; ``stacks`` holds ``(seat, stack)`` for every player dealt in, and
    ``carried`` the chips left in the middle for the next deal."""

    type: ClassVar[str] = "hand-ended"
    stacks: tuple[tuple[int, int], ...]
    carried: int


# -- the result -------------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class PotShare:
    """What one player won from one pot: ``half`` is ``"all"``, ``"high"`` or ``"low"``;
    ``hand`` names the winning hand (``None`` when won uncontested), from ``value``."""

    seat: int
    player_id: str
    amount: int
    half: str
    value: HandValue | None

    @property
    def hand(self) -> str | None:
        """The name of the winning hand."""
        return None if self.value is None else self.value.name

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "seat": self.seat,
            "player_id": self.player_id,
            "amount": self.amount,
            "half": self.half,
            "hand": self.hand,
        }


@fast_init
@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot: its ``amount``, the seats ``eligible`` to win it, and the ``shares`` paid."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[PotShare, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at the showdown, in showdown order, with the names of its high and low
    values (``high``/``low``)."""

    seat: int
    player_id: str
    cards: tuple[Card, ...]
    high_value: HandValue | None
    low_value: HandValue | None
    declared: str | None = None

    @property
    def high(self) -> str | None:
        """The name of the high hand, if high hands count."""
        return None if self.high_value is None else self.high_value.name

    @property
    def low(self) -> str | None:
        """The name of the low hand, if low hands count."""
        return None if self.low_value is None else self.low_value.name

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "seat": self.seat,
            "player_id": self.player_id,
            "cards": plain(self.cards),
            "high": self.high,
            "low": self.low,
            "declared": self.declared,
        }


@fast_init
@dataclass(frozen=True, slots=True)
class HandResult:
    """The summary of a finished hand.

    * ``pots``: every pot with its winners (empty when passed out or carried over).
    * ``shown``: the hands shown, in showdown order (empty when uncontested).
    * ``uncontested``: the seat that won without a showdown, if any.
    * ``openers``: ``(seat, cards)`` when the opener had to show the openers.
    * ``passed_out``: nobody opened; ``carried``: chips left in the middle for the next deal
      (passed out, trips not reached, Diablo's new pot).
    * ``returned``: uncalled bets given back, ``(seat, chips)``.
    * ``final_stacks``: every dealt-in player's stack after the hand.
    * ``note``: a sentence for special endings (trips not reached, the opener must match...).
    * ``low_qualifier``: in a high-low game with a qualifier, the highest card a low may have
      to win (None otherwise): the result says how its own low qualified, whatever game the
      table deals next (dealer's choice).
    """

    hand_number: int
    game: str
    pots: tuple[PotResult, ...]
    shown: tuple[ShownHand, ...]
    uncontested: int | None
    openers: tuple[tuple[int, tuple[Card, ...]], ...]
    passed_out: bool
    carried: int
    returned: tuple[tuple[int, int], ...]
    final_stacks: dict[str, int]
    note: str | None = None
    low_qualifier: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return fields_dict(self)

    def to_state(self) -> dict[str, Any]:
        """The whole result as JSON-friendly data, hand values included, that
        :meth:`from_state` makes again (:meth:`to_dict` keeps the hands' names only). For
        the bot's own snapshots: a result still to be shown after a restart."""

        def value(v: HandValue | None) -> dict[str, Any] | None:
            return None if v is None else v.to_state()

        return {
            "hand_number": self.hand_number,
            "game": self.game,
            "pots": [
                {
                    "index": pot.index,
                    "amount": pot.amount,
                    "eligible": list(pot.eligible),
                    "shares": [
                        [s.seat, s.player_id, s.amount, s.half, value(s.value)] for s in pot.shares
                    ],
                }
                for pot in self.pots
            ],
            "shown": [
                [
                    s.seat,
                    s.player_id,
                    plain(s.cards),
                    value(s.high_value),
                    value(s.low_value),
                    s.declared,
                ]
                for s in self.shown
            ],
            "uncontested": self.uncontested,
            "openers": [[seat, plain(cards)] for seat, cards in self.openers],
            "passed_out": self.passed_out,
            "carried": self.carried,
            "returned": [list(pair) for pair in self.returned],
            "final_stacks": dict(self.final_stacks),
            "note": self.note,
            "low_qualifier": self.low_qualifier,
        }

    @classmethod
    def from_state(cls, data: Mapping[str, Any]) -> HandResult:
        """The result saved by :meth:`to_state`.

        :raises ValueError: if ``data`` is not such a result.
        """

        def value(v: Any) -> HandValue | None:
            return None if v is None else HandValue.from_state(v)

        def cards(texts: Any) -> tuple[Card, ...]:
            return tuple(parse_card(str(text)) for text in texts)

        try:
            return cls(
                int(data["hand_number"]),
                str(data["game"]),
                tuple(
                    PotResult(
                        int(pot["index"]),
                        int(pot["amount"]),
                        tuple(int(seat) for seat in pot["eligible"]),
                        tuple(
                            PotShare(int(seat), str(pid), int(amount), str(half), value(v))
                            for seat, pid, amount, half, v in pot["shares"]
                        ),
                    )
                    for pot in data["pots"]
                ),
                tuple(
                    ShownHand(int(seat), str(pid), cards(held), value(high), value(low), declared)
                    for seat, pid, held, high, low, declared in data["shown"]
                ),
                data["uncontested"],
                tuple((int(seat), cards(held)) for seat, held in data["openers"]),
                bool(data["passed_out"]),
                int(data["carried"]),
                tuple((int(seat), int(chips)) for seat, chips in data["returned"]),
                {str(pid): int(stack) for pid, stack in data["final_stacks"].items()},
                data["note"],
                None if data.get("low_qualifier") is None else int(data["low_qualifier"]),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a hand result: {exc}") from exc
