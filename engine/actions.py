"""The actions a player can take, as small immutable values.

Amounts follow one convention: :class:`Bet` and :class:`Raise` carry the *total* a player will
have put in during the current betting round ("raise to"), never the increment. :class:`Call`
and :class:`AllIn` carry no amount; the engine works it out. ``Bet`` and ``Raise`` are accepted
interchangeably (the engine records whichever the situation makes it).

A :class:`Timeout` stands for a player who did not act in time; the engine turns it into the
default for the pending decision (see :meth:`engine.table.Table.act`).

Actions travel as plain dicts (the bot's journal stores them so):

>>> action_to_dict(Raise(6))
{'type': 'raise', 'to': 6}
>>> action_from_dict({"type": "raise", "to": 6})
Raise(to=6)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine._frozen import fast_init, fast_init_tuples
from engine.cards import Card
from engine.rules import Direction

__all__ = [
    "Action",
    "AllIn",
    "Arrange",
    "Bet",
    "Call",
    "Check",
    "ChooseGame",
    "Declare",
    "Discard",
    "Fold",
    "Keep",
    "Muck",
    "PassCards",
    "Raise",
    "Show",
    "Timeout",
    "action_from_dict",
    "action_to_dict",
]


@fast_init
@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand."""


@fast_init
@dataclass(frozen=True, slots=True)
class Check:
    """Pass without betting when nothing is owed."""


@fast_init
@dataclass(frozen=True, slots=True)
class Call:
    """Match the current bet (all-in for less when the stack is short)."""


@fast_init
@dataclass(frozen=True, slots=True)
class Bet:
    """Open the betting so that this round's total for the player is ``to`` chips."""

    to: int


@fast_init
@dataclass(frozen=True, slots=True)
class Raise:
    """Raise so that this round's total for the player is ``to`` chips."""

    to: int


@fast_init
@dataclass(frozen=True, slots=True)
class AllIn:
    """Put every remaining chip in (a call, bet or raise, whichever that amounts to)."""


@fast_init_tuples("cards")
@dataclass(frozen=True, slots=True)
class Discard:
    """Discard these cards and draw replacements; no cards means standing pat."""

    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if self.cards.__class__ is not tuple:
            object.__setattr__(self, "cards", tuple(self.cards))


@fast_init
@dataclass(frozen=True, slots=True)
class Keep:
    """The Bosnian exchange's choice: keep ``card`` (the face-up one), or the face-down card when
    ``card`` is ``None``."""

    card: Card | None = None


@fast_init_tuples("cards")
@dataclass(frozen=True, slots=True)
class PassCards:
    """Pass these cards to the neighbour."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))


@fast_init_tuples("order")
@dataclass(frozen=True, slots=True)
class Arrange:
    """Fix the order of the hand for a rollout, first card to be revealed first."""

    order: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", tuple(self.order))


@fast_init
@dataclass(frozen=True, slots=True)
class Declare:
    """Declare for the high half, the low half, or both."""

    direction: Direction


@fast_init_tuples("modifiers")
@dataclass(frozen=True, slots=True)
class ChooseGame:
    """Dealer's choice: deal this variant (``slug``) with these modifiers (see
    :mod:`engine.modifiers`)."""

    slug: str
    modifiers: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "modifiers", tuple(self.modifiers))


@fast_init
@dataclass(frozen=True, slots=True)
class Show:
    """At a showdown played with mucking allowed: show a beaten hand anyway."""


@fast_init
@dataclass(frozen=True, slots=True)
class Muck:
    """At a showdown played with mucking allowed: give up a beaten hand unseen (and with it
    any claim on the pots)."""


@fast_init
@dataclass(frozen=True, slots=True)
class Timeout:
    """The player ran out of time: check if possible, else fold; stand pat in a draw; pass the
    first cards in a pass; keep the dealt order in a rollout; declare high; deal the table's
    default game in dealer's choice; keep the face-up card in a Bosnian exchange; muck a beaten
    hand at the showdown."""


Action = (
    Fold
    | Check
    | Call
    | Bet
    | Raise
    | AllIn
    | Discard
    | Keep
    | PassCards
    | Arrange
    | Declare
    | ChooseGame
    | Show
    | Muck
    | Timeout
)
"""Any action."""


_NAMES: dict[type, str] = {
    Fold: "fold",
    Check: "check",
    Call: "call",
    Bet: "bet",
    Raise: "raise",
    AllIn: "all-in",
    Discard: "discard",
    Keep: "keep",
    PassCards: "pass",
    Arrange: "arrange",
    Declare: "declare",
    ChooseGame: "choose-game",
    Show: "show",
    Muck: "muck",
    Timeout: "timeout",
}


def action_to_dict(action: Action) -> dict[str, object]:
    """A JSON-friendly form of ``action``: ``{"type": "raise", "to": 6}``,
    ``{"type": "discard", "cards": ["As", "7d"]}``..."""
    data: dict[str, object] = {"type": _NAMES[type(action)]}
    if isinstance(action, Bet | Raise):
        data["to"] = action.to
    elif isinstance(action, Discard | PassCards):
        data["cards"] = [str(c) for c in action.cards]
    elif isinstance(action, Keep):
        data["card"] = None if action.card is None else str(action.card)
    elif isinstance(action, Arrange):
        data["order"] = [str(c) for c in action.order]
    elif isinstance(action, Declare):
        data["direction"] = action.direction.value
    elif isinstance(action, ChooseGame):
        data["slug"] = action.slug
        data["modifiers"] = list(action.modifiers)
    return data


def action_from_dict(data: dict[str, Any]) -> Action:
    """The action described by :func:`action_to_dict`'s output.

    :raises ValueError: if the data does not describe an action.
    """
    from engine.cards import parse_card

    kind = data.get("type")
    if kind == "fold":
        return Fold()
    if kind == "check":
        return Check()
    if kind == "call":
        return Call()
    if kind == "bet":
        return Bet(int(data["to"]))
    if kind == "raise":
        return Raise(int(data["to"]))
    if kind == "all-in":
        return AllIn()
    if kind == "discard":
        return Discard(tuple(parse_card(c) for c in data["cards"]))
    if kind == "keep":
        card = data.get("card")
        return Keep(None if card is None else parse_card(card))
    if kind == "pass":
        return PassCards(tuple(parse_card(c) for c in data["cards"]))
    if kind == "arrange":
        return Arrange(tuple(parse_card(c) for c in data["order"]))
    if kind == "declare":
        return Declare(Direction(data["direction"]))
    if kind == "choose-game":
        return ChooseGame(str(data["slug"]), tuple(data.get("modifiers", ())))
    if kind == "show":
        return Show()
    if kind == "muck":
        return Muck()
    if kind == "timeout":
        return Timeout()
    raise ValueError(f"not an action: {data!r}")
