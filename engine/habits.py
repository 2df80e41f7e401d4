"""What house players remember of the people they play with: how often each one bets or
raises before the draw.

A bet before the draw from a player who seldom makes one says more than the same bet from a
player who bets half the hands they are dealt. :class:`Habits` counts, for each player, the
hands in which they acted before the first draw and those in which they bet or raised there
by choice (a blind is not a choice); :meth:`Habits.bets_from` turns that into the share of a
player's hands such a bet comes from. Until a few hands are seen, the count leans on a
loose guess, so a newcomer's bets are taken at face value as before.

It is a plain value, built from a finished hand's events, so a table keeps one beside it and
hands it to :func:`engine.house.decide`; nothing is saved, and a restarted table starts over.

>>> from engine.events import BetPlaced, Folded, HandStarted, RoundStarted
>>> hand = (
...     HandStarted(1, "Five-card draw", 0, ((1, "ann", 100), (0, "bob", 100))),
...     RoundStarted("bet", 1, 1),
...     BetPlaced(1, 2, 2, False),
...     Folded(0),
... )
>>> habits = Habits().after_hand(hand)
>>> habits.seen["ann"], habits.seen["bob"]
((1, 1), (1, 0))
>>> round(habits.bets_from("bob"), 3), habits.bets_from("nobody")
(0.909, 1.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.events import (
    BetPlaced,
    Called,
    Checked,
    Event,
    Folded,
    HandStarted,
    Raised,
    RoundStarted,
)

__all__ = ["Habits"]

_LOOSE = 0.4
"""The share of hands in which a loose player bets or raises before the draw: a bet from a
player who bets this often (or more) says nothing about the hand."""

_GUESS_HANDS = 10
"""How many hands' worth of the loose guess every count starts with."""

_LEAST = 0.15
"""The smallest share of a player's hands a bet is taken to come from."""

_EMPTY: Mapping[str, tuple[int, int]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Habits:
    """Each player's ``(hands acted in before the draw, hands bet or raised in then)``."""

    seen: Mapping[str, tuple[int, int]] = field(default_factory=lambda: _EMPTY)

    def after_hand(self, events: Iterable[Event]) -> Habits:
        """These habits with one more hand counted, from its events (a hand dealt without a
        draw, or cut short before anyone acted, counts for nobody)."""
        players: dict[int, str] = {}
        acted: set[str] = set()
        raised: set[str] = set()
        before_draw = False
        for event in events:
            if isinstance(event, HandStarted):
                players = {seat: player for seat, player, _ in event.seats}
                before_draw = True
            elif isinstance(event, RoundStarted) and event.kind == "draw":
                before_draw = False
            elif before_draw and isinstance(event, Checked | Called | Folded):
                acted.add(players.get(event.seat, ""))
            elif before_draw and isinstance(event, BetPlaced | Raised):
                acted.add(players.get(event.seat, ""))
                raised.add(players.get(event.seat, ""))
        acted.discard("")
        if not acted:
            return self
        seen = dict(self.seen)
        for player in acted:
            hands, bets = seen.get(player, (0, 0))
            seen[player] = (hands + 1, bets + (player in raised))
        return Habits(MappingProxyType(seen))

    def bets_from(self, player: str) -> float:
        """The share of ``player``'s hands (the best of them) a bet or raise before the draw
        is taken to come from: how often they make one, against how often a loose player
        does; 1 for a player who bets as often as that, or not seen yet.

        >>> tight = Habits({"ann": (40, 4)})
        >>> round(tight.bets_from("ann"), 3)
        0.4
        """
        hands, bets = self.seen.get(player, (0, 0))
        rate = (bets + _LOOSE * _GUESS_HANDS) / (hands + _GUESS_HANDS)
        return min(1.0, max(_LEAST, rate / _LOOSE))
