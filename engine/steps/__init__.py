"""Step handlers: one small class per kind of step in :mod:`engine.rules`.

:func:`make_runner` maps a step value to its handler. Adding a step kind means adding a
dataclass to :mod:`engine.rules` and a handler here; the hand's loop does not change.

>>> import random
>>> from engine import Table, TableConfig
>>> from engine.rules import Bet, Deal
>>> table = Table(TableConfig("five-card-draw"))
>>> _ = table.sit("ann", 100), table.sit("bob", 100)
>>> _ = table.start_hand(random.Random(1))
>>> [type(make_runner(table.hand, step)).__name__ for step in (Deal(5), Bet())]
['Dealing', 'BettingRound']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.rules import (
    Arrange,
    Bet,
    Deal,
    DealBoard,
    Declare,
    Draw,
    DrawSeries,
    Pass,
    Reveal,
    Step,
)
from engine.steps.base import Runner
from engine.steps.betting import BettingRound
from engine.steps.dealing import BoardDealing, Dealing, Revealing
from engine.steps.drawing import DrawRound, DrawSeriesRunner
from engine.steps.simultaneous import Arranging, Declaring, Passing

if TYPE_CHECKING:
    from engine.game import Hand

__all__ = ["RUNNERS", "Runner", "make_runner"]

RUNNERS: dict[type, Callable[[Hand, Any], Runner]] = {
    Deal: Dealing,
    DealBoard: BoardDealing,
    Bet: BettingRound,
    Draw: DrawRound,
    DrawSeries: DrawSeriesRunner,
    Pass: Passing,
    Arrange: Arranging,
    Reveal: Revealing,
    Declare: lambda hand, step: Declaring(hand),
}
"""The handler of each step kind."""


def make_runner(hand: Hand, step: Step) -> Runner:
    """The handler for ``step`` in ``hand`` (not yet begun)."""
    return RUNNERS[type(step)](hand, step)
