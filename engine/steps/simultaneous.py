"""Steps in which every player still in the hand decides at the same time: passing cards,
arranging a rollout, declaring high or low.

Choices are collected privately and take effect together once everyone has chosen, so nobody
learns anything from another player's choice before making their own.

In anaconda everyone passes three cards at once, so every player has a decision pending:

>>> import random
>>> from engine import Call, Check, Table, TableConfig
>>> table = Table(TableConfig("anaconda"))
>>> _ = [table.sit(name, 100) for name in ("ann", "bob", "cy")]
>>> _ = table.start_hand(random.Random(4))
>>> while table.pending[0].kind.name == "BET":
...     d = table.pending[0]
...     _ = table.act(d.player_id, Check() if d.legal.can_check else Call())
>>> [(d.player_id, d.kind.name, d.legal.count) for d in table.pending]
[('ann', 'PASS', 3), ('bob', 'PASS', 3), ('cy', 'PASS', 3)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import events as ev
from engine.actions import Action, Arrange, Declare, PassCards
from engine.cards import Card
from engine.decisions import (
    ArrangeOptions,
    Decision,
    DecisionKind,
    DeclareOptions,
    Options,
    PassOptions,
)
from engine.errors import IllegalAction
from engine.rules import Arrange as ArrangeStep
from engine.rules import Direction, Pass, PassDirection
from engine.steps.base import Runner
from engine.wording import VERBS, Phrase

if TYPE_CHECKING:
    from engine.game import Hand, Player

__all__ = ["Arranging", "Declaring", "Passing"]


class _Simultaneous(Runner):
    """Collects one choice from every player still in the hand."""

    decision_kind = DecisionKind.PASS

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.choices: dict[int, tuple[Card, ...] | Direction] = {}
        self.players: list[Player] = []

    def begin(self) -> None:
        h = self.hand
        self.number = h.next_number(self.kind)
        self.players = h.live_players_from(0)
        if len(self.players) < 2:
            self.done = True
            return
        h.events.append(ev.RoundStarted(self.kind, self.number, None))

    def waiting(self) -> list[Player]:
        if self.done:
            return []
        return [p for p in self.players if not p.folded and p.index not in self.choices]

    def is_waiting_for(self, p: Player) -> bool:
        return not self.done and not p.folded and p in self.players and p.index not in self.choices

    def decisions(self) -> tuple[Decision, ...]:
        return tuple(
            Decision(p.seat, p.pid, self.decision_kind, self.options(p)) for p in self.waiting()
        )

    def options(self, p: Player) -> Options:
        raise NotImplementedError

    def _chosen(self) -> None:
        if not self.waiting():
            self.resolve()
            self.done = True

    def resolve(self) -> None:
        """Apply every choice at once."""

    def player_folded(self, p: Player) -> None:
        self.choices.pop(p.index, None)
        if self.done:
            return
        if self.hand.live > 1:
            self._chosen()
        else:
            # One player left: there is nobody to exchange with, and the hand is theirs.
            self.done = True


class Passing(_Simultaneous):
    """Every player passes ``step.count`` cards to the next player in ``step.direction``."""

    kind = "pass"
    decision_kind = DecisionKind.PASS

    def __init__(self, hand: Hand, step: Pass) -> None:
        super().__init__(hand)
        self.step = step

    def street(self) -> str:
        if self.step.direction is PassDirection.LEFT:
            return Phrase.counted(
                "Pass {count} card to the left",
                "Pass {count} cards to the left",
                count=self.step.count,
            )
        return Phrase.counted(
            "Pass {count} card to the right",
            "Pass {count} cards to the right",
            count=self.step.count,
        )

    def _receiver(self, p: Player) -> Player:
        live = [q for q in self.players if not q.folded]
        k = live.index(p)
        step = 1 if self.step.direction is PassDirection.LEFT else -1
        return live[(k + step) % len(live)]

    def options(self, p: Player) -> PassOptions:
        return PassOptions(
            cards=tuple(p.cards),
            count=self.step.count,
            to_seat=self._receiver(p).seat,
            direction=self.step.direction.value,
        )

    def act(self, p: Player, action: Action) -> None:
        if not isinstance(action, PassCards):
            raise IllegalAction(
                Phrase.counted(
                    "choose {count} card to pass",
                    "choose {count} cards to pass",
                    count=self.step.count,
                )
            )
        cards = action.cards
        if len(cards) != self.step.count:
            raise IllegalAction(
                Phrase.counted(
                    "pass exactly {count} card, not {given}",
                    "pass exactly {count} cards, not {given}",
                    count=self.step.count,
                    given=len(cards),
                )
            )
        for card in cards:
            if not isinstance(card, Card) or card not in p.cards:
                raise IllegalAction("you do not hold {card}", card=str(card))
        if len(set(cards)) != len(cards):
            raise IllegalAction("a card is named twice")
        self.choices[p.index] = tuple(cards)
        self.hand.last_action = (p.seat, VERBS["choosing-cards"], None)
        self._chosen()

    def timeout_action(self, p: Player) -> Action:
        return PassCards(tuple(p.cards[: self.step.count]))

    def resolve(self) -> None:
        h = self.hand
        live = [q for q in self.players if not q.folded]
        moves = []
        for p in live:
            cards = self.choices[p.index]
            assert isinstance(cards, tuple)
            moves.append((p, self._receiver(p), cards))
        for p, _, cards in moves:
            p.cards = [c for c in p.cards if c not in cards]
        for p, receiver, cards in moves:
            receiver.cards.extend(cards)
            h.events.append(ev.CardsPassed(p.seat, receiver.seat, cards))
        h.last_action = (None, VERBS["cards-passed"], None)

    def held_cards(self) -> list[Card]:
        return []


class Arranging(_Simultaneous):
    """Every player fixes the order of ``step.size`` of their cards (the rest are discarded)."""

    kind = "arrange"
    decision_kind = DecisionKind.ARRANGE

    def __init__(self, hand: Hand, step: ArrangeStep) -> None:
        super().__init__(hand)
        self.step = step

    def street(self) -> str:
        return Phrase("Arranging the rollout")

    def options(self, p: Player) -> ArrangeOptions:
        return ArrangeOptions(tuple(p.cards), min(self.step.size, len(p.cards)))

    def act(self, p: Player, action: Action) -> None:
        if not isinstance(action, Arrange):
            raise IllegalAction("put your cards in the order they will be revealed")
        order = action.order
        size = min(self.step.size, len(p.cards))
        if len(order) != size:
            raise IllegalAction(
                Phrase.counted(
                    "order exactly {count} card, not {given}",
                    "order exactly {count} cards, not {given}",
                    count=size,
                    given=len(order),
                )
            )
        for card in order:
            if not isinstance(card, Card) or card not in p.cards:
                raise IllegalAction("you do not hold {card}", card=str(card))
        if len(set(order)) != len(order):
            raise IllegalAction("a card is named twice")
        h = self.hand
        rest = [c for c in p.cards if c not in order]
        p.cards = list(order)
        p.arranged = True
        h.discards.extend(rest)
        self.choices[p.index] = tuple(order)
        h.events.append(ev.Arranged(p.seat, tuple(order)))
        h.last_action = (p.seat, VERBS["arranging"], None)
        self._chosen()

    def timeout_action(self, p: Player) -> Action:
        return Arrange(tuple(p.cards[: self.step.size]))


class Declaring(_Simultaneous):
    """Every player declares high, low or both; all declarations are revealed together."""

    kind = "declare"
    decision_kind = DecisionKind.DECLARE

    def street(self) -> str:
        return Phrase("Declaration")

    def options(self, p: Player) -> DeclareOptions:
        return DeclareOptions()

    def act(self, p: Player, action: Action) -> None:
        if not isinstance(action, Declare) or not isinstance(action.direction, Direction):
            raise IllegalAction("declare high, low or both")
        self.choices[p.index] = action.direction
        self.hand.last_action = (p.seat, VERBS["declaring"], None)
        self._chosen()

    def timeout_action(self, p: Player) -> Action:
        return Declare(Direction.HIGH)

    def resolve(self) -> None:
        h = self.hand
        for p in self.players:
            choice = self.choices.get(p.index)
            if not p.folded and isinstance(choice, Direction):
                p.declared = choice.value
                h.events.append(ev.Declared(p.seat, choice.value))
        h.last_action = (None, VERBS["declarations-revealed"], None)
