"""The interface every step handler implements.

Every handler is a :class:`Runner`, picked by :func:`engine.steps.make_runner`:

>>> from engine.steps.betting import BettingRound
>>> issubclass(BettingRound, Runner), BettingRound.kind != Runner.kind
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action
from engine.cards import Card
from engine.decisions import Decision

if TYPE_CHECKING:
    from engine.game import Hand, Player

__all__ = ["Runner"]


class Runner:
    """Runs one step of a hand.

    A runner is created when its step starts and :meth:`begin` is called at once. It is
    ``done`` when the step is over; until then :meth:`waiting` lists the players it needs a
    decision from. :meth:`act` must validate the whole action before changing anything and
    raise :class:`engine.errors.IllegalAction` when it is not legal.
    """

    # Subclasses that run in every hand declare slots too; the others have a dictionary.
    __slots__ = ("done", "hand", "number")

    kind: ClassVar[str] = "step"

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.done = False
        self.number = 0

    def begin(self) -> None:
        """Start the step (it may finish at once)."""
        raise NotImplementedError

    def waiting(self) -> list[Player]:
        """The players with a pending decision."""
        return []

    def waiting_seats(self) -> tuple[int, ...]:
        """The seats of the players with a pending decision."""
        return tuple([p.seat for p in self.waiting()])

    def is_waiting_for(self, p: Player) -> bool:
        """Whether ``p`` has a pending decision."""
        return p in self.waiting()

    def decisions(self) -> tuple[Decision, ...]:
        """The pending decisions with their legal options."""
        return ()

    def act(self, p: Player, action: Action) -> None:
        """Apply ``action`` for ``p`` (validated first)."""
        raise NotImplementedError

    def timeout_action(self, p: Player) -> Action:
        """The default action for ``p`` when time runs out (always legal)."""
        raise NotImplementedError

    def player_folded(self, p: Player) -> None:
        """``p`` folded out of turn (left the table)."""

    def held_cards(self) -> list[Card]:
        """Cards the step holds outside any hand (passes in flight, offers)."""
        return []

    def street(self) -> str:
        """A readable name of the step, such as ``"Betting round 2"``."""
        return self.kind

    @property
    def current_bet(self) -> int:
        """The largest bet of the current betting round (0 outside betting)."""
        return 0
