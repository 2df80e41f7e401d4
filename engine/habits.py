"""What house players remember of the people they play with: how often each one bets or
raises, before the draw and after it.

A bet from a player who seldom makes one says more than the same bet from a player who bets
half the hands they play. :class:`Habits` counts, for each player, the hands in which they
acted in a betting round before the first draw and those in which they bet or raised there
by choice (a blind is not a choice); and the same for the betting rounds after a draw.
:meth:`Habits.bets_before` and :meth:`Habits.bets_after` turn a count into the share of a
player's hands such a bet comes from. Until a few hands are seen, the count leans on a loose
guess, so a newcomer's bets are taken at face value.

It is a plain value, built from finished hands' events, so a table keeps one beside it and
hands it to :func:`engine.house.decide`; nothing is saved, and a restarted table starts over.

>>> from engine.events import BetPlaced, Folded, HandStarted, RoundStarted
>>> hand = (
...     HandStarted(1, "Five-card draw", 0, ((1, "ann", 100), (0, "bob", 100))),
...     RoundStarted("bet", 1, 1),
...     BetPlaced(1, 2, 2, False),
...     Folded(0),
... )
>>> habits = Habits().after_hand(hand)
>>> habits.before["ann"], habits.before["bob"], dict(habits.after)
((1, 1), (1, 0), {})
>>> round(habits.bets_before("bob"), 3), habits.bets_before("nobody")
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
"""The share of hands in which a loose player bets or raises in a round: a bet from a player
who bets this often (or more) says nothing about the hand."""

_GUESS_HANDS = 10
"""How many hands' worth of the loose guess every count starts with."""

_LEAST = 0.15
"""The smallest share of a player's hands a bet is taken to come from."""

_Counts = Mapping[str, tuple[int, int]]

_EMPTY: _Counts = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Habits:
    """Each player's ``(hands acted in, hands bet or raised in)``, in the betting rounds
    ``before`` the first draw and in those ``after`` a draw."""

    before: _Counts = field(default_factory=lambda: _EMPTY)
    after: _Counts = field(default_factory=lambda: _EMPTY)

    def after_hand(self, events: Iterable[Event]) -> Habits:
        """These habits with one more hand counted, from its events (a player counts in a
        part of the hand only if they acted in it)."""
        players: dict[int, str] = {}
        # for each part of the hand (0: before the draw, 1: after one), who acted and who bet
        acted: tuple[set[str], set[str]] = (set(), set())
        raised: tuple[set[str], set[str]] = (set(), set())
        part = 0
        for event in events:
            if isinstance(event, HandStarted):
                players = {seat: player for seat, player, _ in event.seats}
            elif isinstance(event, RoundStarted) and event.kind == "draw":
                part = 1
            elif isinstance(event, Checked | Called | Folded):
                acted[part].add(players.get(event.seat, ""))
            elif isinstance(event, BetPlaced | Raised):
                acted[part].add(players.get(event.seat, ""))
                raised[part].add(players.get(event.seat, ""))
        before = _counted(self.before, acted[0], raised[0])
        after = _counted(self.after, acted[1], raised[1])
        return self if before is self.before and after is self.after else Habits(before, after)

    def bets_before(self, player: str) -> float:
        """The share of ``player``'s hands (the best of them) a bet or raise before the draw
        is taken to come from: how often they make one, against how often a loose player
        does; 1 for a player who bets as often as that, or not seen yet.

        >>> round(Habits({"ann": (40, 4)}).bets_before("ann"), 3)
        0.4
        """
        return _share(self.before.get(player, (0, 0)))

    def bets_after(self, player: str) -> float:
        """The same as :meth:`bets_before`, for a bet or raise after a draw."""
        return _share(self.after.get(player, (0, 0)))


def _counted(counts: _Counts, acted: set[str], raised: set[str]) -> _Counts:
    acted.discard("")
    if not acted:
        return counts
    found = dict(counts)
    for player in acted:
        hands, bets = found.get(player, (0, 0))
        found[player] = (hands + 1, bets + (player in raised))
    return MappingProxyType(found)


def _share(counts: tuple[int, int]) -> float:
    hands, bets = counts
    rate = (bets + _LOOSE * _GUESS_HANDS) / (hands + _GUESS_HANDS)
    return min(1.0, max(_LEAST, rate / _LOOSE))
