"""A player's time bank and pre-actions: the rules of "more time" and "act for me".

**The time bank.** Each player at a table owns a reserve of seconds (the table's bank size,
30 s unless the table says otherwise; 0 turns banks off). When the turn timer runs out on a
player with time left in the bank, the bank starts by itself: the player keeps the hand while
it runs down, and only when it is spent does the timeout act (and count toward sitting out).
Seconds used are gone; each hand dealt gives every seated player :data:`REFILL_SECONDS` back,
never past the bank's size. A new player starts with a full bank.

>>> bank = TimeBank(30)
>>> bank.full, bank.refilled(12.0), bank.refilled(28.0)
(30.0, 17.0, 30.0)
>>> bank.left(ends_at=110.0, now=104.5), bank.left(ends_at=110.0, now=111.0)
(5.5, 0.0)
>>> TimeBank(0).on
False

**Pre-actions.** A player may tick one before their turn: ``check/fold`` checks when nothing
is owed and folds otherwise; ``call any`` calls whatever is owed (all-in if it takes the stack)
and checks when nothing is. As in online rooms, both survive a bet or raise made before the
turn comes (that is what they are for: "check/fold" folds to a bet, "call any" calls a raise),
and each is used once, on the player's next betting turn of the hand, then cleared; acting by
hand clears it too, and so does the end of the hand.

>>> from engine.decisions import BetOptions
>>> bet = BetOptions(
...     can_check=False, can_fold=True, to_call=20, call_all_in=False, min_to=40, max_to=100,
...     all_in_to=100, can_all_in=True, is_bet=False, fixed_limit=False, raises_left=None,
...     current_bet=20, player_bet=0, pot=30, stack=100)
>>> pre_action_move(PreAction.CHECK_FOLD, bet), pre_action_move(PreAction.CALL_ANY, bet)
(Fold(), Call())
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from engine.actions import Action, Call, Check, Fold
from engine.decisions import BetOptions

__all__ = [
    "DEFAULT_TIME_BANK",
    "REFILL_SECONDS",
    "TIME_BANK_SECONDS",
    "PreAction",
    "TimeBank",
    "pre_action_move",
]

TIME_BANK_SECONDS: Final = (0, 300)
"""The smallest and largest time bank of a table or a tournament, in seconds (0: no bank)."""

DEFAULT_TIME_BANK: Final = 30
"""A table's time bank when its creator gives none, in seconds."""

REFILL_SECONDS: Final = 5
"""Seconds each hand dealt gives back to every seated player's bank (up to its size)."""


@dataclass(frozen=True, slots=True)
class TimeBank:
    """The bank arithmetic of a table whose banks hold ``size`` seconds (0: no banks)."""

    size: int
    refill: int = REFILL_SECONDS

    @property
    def on(self) -> bool:
        return self.size > 0

    @property
    def full(self) -> float:
        """What a player who just sat down has."""
        return float(self.size)

    def refilled(self, remaining: float) -> float:
        """What is left after a new hand's refill: ``remaining`` plus the refill, at most the
        size (a bank shrunk by the table's settings is cut down to its new size).

        >>> TimeBank(30).refilled(40.0), TimeBank(0).refilled(7.0)
        (30.0, 0.0)
        """
        return float(min(self.size, max(0.0, remaining) + self.refill))

    def left(self, *, ends_at: float, now: float) -> float:
        """What remains of a bank that started running and runs out at ``ends_at``."""
        return max(0.0, ends_at - now)

    def starts(self, remaining: float) -> bool:
        """Whether a player whose timer just ran out with ``remaining`` in the bank gets it
        (rather than timing out now).

        >>> TimeBank(30).starts(0.2), TimeBank(30).starts(0.0), TimeBank(0).starts(5.0)
        (True, False, False)
        """
        return self.on and remaining > 0


class PreAction(enum.Enum):
    """A choice ticked before one's turn, played at once when the turn comes."""

    CHECK_FOLD = "checkfold"
    CALL_ANY = "callany"


def pre_action_move(pre: PreAction, legal: BetOptions) -> Action:
    """The action ``pre`` plays on a betting turn whose legal options are ``legal``.

    >>> from engine.decisions import BetOptions
    >>> free = BetOptions(
    ...     can_check=True, can_fold=True, to_call=0, call_all_in=False, min_to=2, max_to=100,
    ...     all_in_to=100, can_all_in=True, is_bet=True, fixed_limit=False, raises_left=None,
    ...     current_bet=0, player_bet=0, pot=4, stack=100)
    >>> pre_action_move(PreAction.CHECK_FOLD, free), pre_action_move(PreAction.CALL_ANY, free)
    (Check(), Check())
    """
    if legal.can_check:
        return Check()
    if pre is PreAction.CALL_ANY and legal.to_call > 0:
        return Call()
    return Fold()
