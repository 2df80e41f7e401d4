"""Read-only snapshots of a table for display.

:meth:`engine.table.Table.public_view` returns a :class:`PublicView` with everything anyone at
the table may see; :meth:`engine.table.Table.private_view` returns a :class:`PrivateView` with
what one seat sees on top of that. Both are frozen and built on request; ``to_dict()`` gives
JSON-friendly data.

>>> import random
>>> from engine import Table, TableConfig, parse_cards
>>> table = Table(TableConfig("five-card-draw"))
>>> _ = table.sit("ann", 100), table.sit("bob", 100)
>>> _ = table.start_hand(random.Random(1), deck=parse_cards("As Kd Ah Kc Ad Ks Qh Qd 2c 3c"))
>>> table.public_view().street
'First betting round'
>>> " ".join(str(card) for card in table.private_view("ann").cards)
'As Ah Ad Qh 2c'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine._frozen import fast_init
from engine.cards import Card
from engine.decisions import Decision
from engine.events import fields_dict

__all__ = ["LastAction", "PotView", "PrivateView", "PublicView", "SeatView"]


@fast_init
@dataclass(frozen=True, slots=True)
class SeatView:
    """One occupied seat as everyone sees it.

    * ``stack``: chips behind (not counting this round's bet); ``bet``: chips put in during the
      current betting round; ``committed``: chips put in during the whole hand.
    * ``in_hand``: dealt into the current hand; ``folded``/``all_in``/``sitting_out``;
      ``leaving``: left during the hand and will be paid out at its end.
    * ``card_count``: cards held; ``face_up``: cards everyone can see; ``draws``: the number of
      cards drawn in each drawing round so far; ``declared``: the revealed declaration.
    * ``waiting``: a newcomer seated but not dealt in until the deal reaches their seat (see
      :attr:`engine.table.TableOptions.newcomers`); ``waiting_reason`` says why the seat is
      out of the next hand or how it joins, for display (``None`` for a seat that plays).
    """

    seat: int
    player_id: str
    stack: int
    bet: int
    committed: int
    in_hand: bool
    folded: bool
    all_in: bool
    sitting_out: bool
    leaving: bool
    card_count: int
    face_up: tuple[Card, ...]
    draws: tuple[int, ...]
    split_openers: bool = False
    declared: str | None = None
    is_button: bool = False
    to_act: bool = False
    waiting: bool = False
    waiting_reason: str | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class PotView:
    """A pot (index 0 is the main pot): its ``amount`` so far and the seats eligible to win it.
    Carried chips from earlier deals are part of the main pot."""

    index: int
    amount: int
    eligible: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class LastAction:
    """The latest thing that happened, for a status line: ``text`` uses the player id; use
    ``seat``/``verb``/``amount`` to build your own."""

    seat: int | None
    player_id: str | None
    verb: str
    amount: int | None
    text: str


@fast_init
@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything anyone at the table may see.

    * ``game``: the game's display name; ``phase``: ``"waiting"`` between hands, else the kind of
      the current step (``"bet"``, ``"draw"``, ``"pass"``, ``"arrange"``, ``"declare"``,
      ``"choose"``); ``street``: a readable name such as ``"Betting round 2"``.
    * ``button``: the dealer's seat; ``seats``: every occupied seat in seat order.
    * ``pots``: main and side pots; ``pot_total``: every chip in the middle, including this
      round's bets and carried chips; ``carried``: chips carried over from earlier deals.
    * ``board``: cards face up in the centre; ``wild``: a description of the wild cards.
    * ``to_act``: seats with a pending decision; ``to_call``: what the player to act owes.
    * ``opening_requirement``: e.g. ``"a pair of jacks or better"`` when one applies.
    * ``structure``/``forced_bets``: short descriptions of the stakes.
    * ``aggressors``: the seats that bet or raised in the betting round in play, in turn
      (forced bets such as blinds are not counted).
    """

    game: str
    hand_number: int
    phase: str
    street: str | None
    button: int | None
    seats: tuple[SeatView, ...]
    pots: tuple[PotView, ...]
    pot_total: int
    carried: int
    board: tuple[Card, ...]
    wild: str | None
    to_act: tuple[int, ...]
    to_call: int | None
    current_bet: int
    last_action: LastAction | None
    opening_requirement: str | None
    structure: str
    forced_bets: str
    aggressors: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return fields_dict(self)


@fast_init
@dataclass(frozen=True, slots=True)
class PrivateView:
    """What one seat sees on top of the public view: its cards (in hand order), the names of
    its hand (high and/or low as the game ranks them), the split openers kept aside, the
    rollout order if arranged, and its pending decision, if any."""

    seat: int
    player_id: str
    cards: tuple[Card, ...]
    high: str | None
    low: str | None
    split_openers: tuple[Card, ...]
    arranged: tuple[Card, ...]
    decision: Decision | None
    low_qualifies: bool = True
    """False when the game splits high-low with a qualifier and ``low`` falls short of it
    (the hand can then only win high)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return fields_dict(self)
