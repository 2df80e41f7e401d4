"""Who sits at a table and with what: house players, buy-ins, timeouts, the first seat draw.

These are the table rules of the bot's cash games and tournaments that are not rules of a hand:
each lives here once, so the table service, the cogs and the data layer ask the same question
the same way.

House players are seated under negative ids (no Discord user has one), ``-(100 * code + n)``
with ``code`` 1, 2, 3 for easy, normal and hard, so the level survives a restart with the id:

>>> house_id(Level.HARD, 4), house_level("-304"), is_house("-304"), is_house(12)
(-304, <Level.HARD: 'hard'>, True, False)

A buy-in is within the table's range; a rebuy tops a stack up to at most the largest buy-in:

>>> BuyIns(100, 500).buy_in(None), BuyIns(100, 500).rebuy(40, None)
(100, 60)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import permuted
from engine.errors import Refusal
from engine.house import Level
from engine.stakes import ForcedBets, Structure, structure_unit

__all__ = [
    "ACTION_SECONDS",
    "AUTO_DEAL_SECONDS",
    "HOUSE_CODES",
    "TIMEOUTS_TO_SIT_OUT",
    "BuyIns",
    "SeatRefused",
    "default_buy_ins",
    "draw_seats",
    "house_id",
    "house_level",
    "is_house",
    "people_playing",
    "sits_out_after",
]


class SeatRefused(Refusal):
    """A buy-in or rebuy the table does not take; the message is meant for the player."""


# ------------------------------------------------------------------------------ house players

HOUSE_CODES: Final = {Level.EASY: 1, Level.NORMAL: 2, Level.HARD: 3}
"""The code of each level in a house player's id."""


def is_house(player_id: int | str) -> bool:
    """Whether ``player_id`` (as the engine's string or as the database's integer) is a house
    player: the one test of "a negative id is a house player".

    >>> is_house(-201), is_house("-201"), is_house("42"), is_house(0)
    (True, True, False, False)
    """
    if isinstance(player_id, str):
        return player_id.startswith("-")
    return player_id < 0


def house_id(level: Level, number: int) -> int:
    """The id of house player ``number`` (1 to 99) of ``level``.

    >>> house_id(Level.EASY, 1)
    -101
    """
    if not 1 <= number <= 99:
        raise ValueError(f"a house player's number is from 1 to 99, not {number}")
    return -(100 * HOUSE_CODES[level] + number)


def house_level(player_id: str) -> Level | None:
    """The level of a house player, or None for a person.

    >>> house_level("-205"), house_level("205"), house_level("-905")
    (<Level.NORMAL: 'normal'>, None, None)
    """
    if not is_house(player_id) or not player_id[1:].isdigit():
        return None
    code = int(player_id[1:]) // 100
    return next((level for level, c in HOUSE_CODES.items() if c == code), None)


def people_playing(seated: Iterable[tuple[str, int, bool]]) -> bool:
    """Whether a hand may be dealt at a cash table: house players don't play among
    themselves, so a person must be seated, in (not sitting out) and with chips.
    ``seated`` holds ``(player_id, stack, sitting_out)`` per occupied seat.

    >>> people_playing([("-101", 50, False), ("7", 50, True)])
    False
    >>> people_playing([("-101", 50, False), ("7", 50, False)])
    True
    """
    return any(stack > 0 and not out and not is_house(pid) for pid, stack, out in seated)


# ------------------------------------------------------------------------------ timeouts

ACTION_SECONDS: Final = (10, 600)
"""The shortest and longest action timer, in seconds, of a table or a tournament: a turn needs
a press's round trip and, on a draw, a panel opened and cards picked, which 10 s leaves."""

AUTO_DEAL_SECONDS: Final = (0, 120)
"""The shortest and longest pause between hands, in seconds (0: a player presses Deal)."""

TIMEOUTS_TO_SIT_OUT: Final = 2
"""Running out of time this many times in a row sits a player out from the next hand."""


def sits_out_after(misses: int) -> bool:
    """Whether a player who has run out of time ``misses`` times running sits out.

    >>> sits_out_after(1), sits_out_after(2)
    (False, True)
    """
    return misses >= TIMEOUTS_TO_SIT_OUT


# ------------------------------------------------------------------------------ buy-ins


def default_buy_ins(structure: Structure, forced: ForcedBets) -> tuple[int, int]:
    """A table's buy-in range when its creator gives none: 20 to 100 times its bet unit
    (the largest of the structure's bet, the blinds and the ante).

    >>> from engine.stakes import FixedLimit, NoLimit
    >>> default_buy_ins(FixedLimit(2), ForcedBets.antes(1))
    (40, 200)
    >>> default_buy_ins(NoLimit(1), ForcedBets.with_blinds(5, 10))
    (200, 1000)
    """
    unit = max(structure_unit(structure), max(forced.blinds, default=0), forced.ante, 1)
    return unit * 20, unit * 100


@dataclass(frozen=True, slots=True)
class BuyIns:
    """A cash table's buy-in range, in chips: the buy-in and rebuy policy."""

    low: int
    high: int

    def buy_in(self, asked: int | None) -> int:
        """The chips a player sits down with: ``asked``, or the smallest buy-in.

        >>> BuyIns(100, 500).buy_in(600)
        Traceback (most recent call last):
        ...
        engine.seating.SeatRefused: The buy-in here is 100 to 500 chips.
        """
        amount = self.low if asked is None else asked
        if not self.low <= amount <= self.high:
            raise SeatRefused(
                "The buy-in here is {low:,} to {high:,} chips.", low=self.low, high=self.high
            )
        return amount

    def rebuy(self, stack: int, asked: int | None) -> int:
        """The chips added to a ``stack`` between hands: ``asked``, or up to the smallest
        buy-in; the stack never goes past the largest buy-in.

        >>> BuyIns(100, 500).rebuy(150, None)
        Traceback (most recent call last):
        ...
        engine.seating.SeatRefused: You have 150 chips, at least the smallest buy-in: \
give an amount, up to 350.
        >>> BuyIns(100, 500).rebuy(450, 60)
        Traceback (most recent call last):
        ...
        engine.seating.SeatRefused: You can add 1 to 50 chips here.
        """
        room = self.high - stack
        if room <= 0:
            raise SeatRefused(
                "Your stack is already at the largest buy-in ({high:,}).", high=self.high
            )
        if asked is None:
            asked = self.low - stack
            if asked <= 0:
                raise SeatRefused(
                    "You have {stack:,} chips, at least the smallest buy-in: "
                    "give an amount, up to {room:,}.",
                    stack=stack,
                    room=room,
                )
        if not 0 < asked <= room:
            raise SeatRefused("You can add 1 to {room:,} chips here.", room=room)
        return asked


# ------------------------------------------------------------------------------ tournaments


def draw_seats(players: Sequence[str], rng: random.Random) -> list[str]:
    """The first seat draw of a tournament: the players in a random order, each in turn
    taking a seat at the emptiest table. Pass ``secrets.SystemRandom()`` in production.

    >>> sorted(draw_seats(["a", "b", "c"], random.Random(1)))
    ['a', 'b', 'c']
    """
    return list(permuted(players, rng))
