"""Steps that need no decision: dealing to the players, dealing to the board, and turning up
rollout cards.

>>> import random
>>> from engine import Table, TableConfig
>>> table = Table(TableConfig("five-card-draw"))
>>> _ = table.sit("ann", 100), table.sit("bob", 100)
>>> [(e.type, getattr(e, "seat", None)) for e in table.start_hand(random.Random(1))][3:5]
[('dealt', 0), ('dealt', 1)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import events as ev
from engine.actions import Action
from engine.errors import IllegalAction
from engine.rules import Deal, DealBoard, Reveal
from engine.steps.base import Runner

if TYPE_CHECKING:
    from engine.game import Hand, Player

__all__ = ["BoardDealing", "Dealing", "Revealing"]


class _Instant(Runner):
    __slots__ = ()

    def act(self, p: Player, action: Action) -> None:
        raise IllegalAction("nothing to decide now")

    def timeout_action(self, p: Player) -> Action:
        raise IllegalAction("nothing to decide now")


class Dealing(_Instant):
    """Deal ``step.count`` cards one at a time, from the dealer's left, to every player still
    in the hand."""

    __slots__ = ("step",)

    kind = "deal"

    def __init__(self, hand: Hand, step: Deal) -> None:
        self.hand = hand  # Runner.__init__, inlined: a deal is made in every hand
        self.done = False
        self.number = 0
        self.step = step

    def begin(self) -> None:
        h = self.hand
        receivers = [p for p in h.players if not p.folded]
        stub = h.stub
        count = self.step.count
        face_up = self.step.face_up
        n = len(receivers)
        total = n * count
        # Dealt one at a time from the dealer's left: the k-th player gets every n-th card
        # from the top, starting with the k-th.
        sequence = tuple(stub[: -total - 1 : -1])  # the top ``total`` cards, top first
        del stub[-total:]
        events = h.events
        for k, p in enumerate(receivers):
            cards = sequence[k::n]
            p.cards.extend(cards)
            if face_up:
                p.turn_up(cards)
            events.append(ev.Dealt(p.seat, cards, face_up))
        self.done = True


class BoardDealing(_Instant):
    """Deal cards face up to the centre; their rank may become wild."""

    kind = "board"

    def __init__(self, hand: Hand, step: DealBoard) -> None:
        super().__init__(hand)
        self.step = step

    def begin(self) -> None:
        h = self.hand
        cards = tuple(h.stub.pop() for _ in range(self.step.count))
        h.board = (*h.board, *cards)
        wild_rank = None
        if self.step.wild_rank:
            for card in cards:
                if not card.is_joker:
                    h.extra_wild_ranks = h.extra_wild_ranks | {card.rank}
                    wild_rank = card.rank
        h.events.append(ev.BoardDealt(cards, wild_rank))
        self.done = True


class Revealing(_Instant):
    """Turn up card ``step.index`` of every arranged hand (rollout)."""

    kind = "reveal"

    def __init__(self, hand: Hand, step: Reveal) -> None:
        super().__init__(hand)
        self.step = step

    def begin(self) -> None:
        h = self.hand
        self.number = h.next_number("reveal")
        index = self.step.index
        for p in h.players:
            if not p.folded and index < len(p.cards):
                card = p.cards[index]
                p.turn_up((card,))
                h.events.append(ev.CardRevealed(p.seat, index, card))
        self.done = True
