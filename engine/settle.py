"""Settle-up: who pays whom at the end of a night, in as few transfers as possible.

Each player has a *net* (chips won, negative when lost); the nets of a night sum to zero. A
settle-up is a list of transfers from losers to winners that brings every net to zero. The
fewest transfers for ``n`` players with a non-zero net is ``n - g``, where ``g`` is the largest
number of groups the players can be split into with each group summing to zero on its own
(each group of ``k`` settles in ``k - 1`` transfers and never fewer). :func:`settle` finds
those groups exactly by a dynamic programme over subsets for up to :data:`EXACT_LIMIT`
players; beyond that the search is too slow and it pays the largest debt to the largest credit
instead (still never more than ``n - 1`` transfers).

>>> for t in settle({"Alice": 120, "Bob": -120, "Cleo": 30, "Dan": -30}):
...     print(t)
Bob -> Alice 120
Dan -> Cleo 30

Paying the largest debt to the largest credit would take four transfers here; the split into
{Bob, Cleo} and {Alice, Dan, Eve} takes three:

>>> for t in settle({"Alice": 4, "Bob": 3, "Cleo": -3, "Dan": -2, "Eve": -2}):
...     print(t)
Cleo -> Bob 3
Dan -> Alice 2
Eve -> Alice 2
>>> settle({"a": 1, "b": -2})
Traceback (most recent call last):
    ...
engine.settle.UnbalancedNets: the nets do not sum to zero (they sum to -1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

__all__ = ["EXACT_LIMIT", "Transfer", "UnbalancedNets", "minimum_transfers", "settle"]

EXACT_LIMIT: Final = 16
"""Up to this many players with a non-zero net, the settle-up is the exact minimum (the search
visits ``2**n`` subsets: about a tenth of a second at 16)."""


class UnbalancedNets(ValueError):
    """The nets given to :func:`settle` do not sum to zero, so no settle-up exists.

    Like the engine's other errors (:mod:`engine.errors`), a :class:`ValueError` whose message
    says why.
    """


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` gives ``amount`` (> 0) chips to ``payee``."""

    payer: str
    payee: str
    amount: int

    def __str__(self) -> str:
        return f"{self.payer} -> {self.payee} {self.amount}"


def settle(nets: Mapping[str, int]) -> tuple[Transfer, ...]:
    """The transfers that pay every net, fewest first-best; deterministic for the same nets.

    Transfers come largest amount first (ties by payer, then payee). Players whose net is zero
    take no part.

    >>> settle({})
    ()
    >>> settle({"x": 0, "y": 0})
    ()
    >>> [str(t) for t in settle({"Bob": -120, "Alice": 100, "Cleo": 20})]
    ['Bob -> Alice 100', 'Bob -> Cleo 20']
    """
    total = sum(nets.values())
    if total != 0:
        raise UnbalancedNets(f"the nets do not sum to zero (they sum to {total})")
    # Sorted by name: the result depends on the nets only, never on the mapping's order.
    players = sorted((name, net) for name, net in nets.items() if net != 0)
    groups = _zero_groups(players) if len(players) <= EXACT_LIMIT else [players]
    transfers = [t for group in groups for t in _greedy(group)]
    return tuple(sorted(transfers, key=lambda t: (-t.amount, t.payer, t.payee)))


def minimum_transfers(nets: Mapping[str, int]) -> int:
    """How many transfers :func:`settle` uses (the exact minimum up to :data:`EXACT_LIMIT`).

    >>> minimum_transfers({"a": 2, "b": -1, "c": -1})
    2
    """
    return len(settle(nets))


def _zero_groups(players: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Split ``players`` (nets summing to zero) into the most groups that each sum to zero.

    ``best[mask]`` is the most zero-sum groups that the players of ``mask`` fall into when
    taken one at a time in some order, closing a group each time the running sum is zero; a
    full split into ``g`` groups is such an order, so ``best[full]`` is the largest ``g``.
    """
    n = len(players)
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    last = [0] * (full + 1)  # the player added last on the way to best[mask]
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + players[low.bit_length() - 1][1]
        top, pick, rest = -1, 0, mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > top:
                top, pick = best[mask ^ bit], bit
        best[mask] = top + (1 if sums[mask] == 0 else 0)
        last[mask] = pick
    # Walk back: the groups end where the running sum is zero.
    groups: list[list[tuple[str, int]]] = []
    group: list[tuple[str, int]] = []
    mask = full
    while mask:
        if sums[mask] == 0 and group:
            groups.append(group)
            group = []
        bit = last[mask]
        group.append(players[bit.bit_length() - 1])
        mask ^= bit
    if group:
        groups.append(group)
    return groups


def _greedy(group: list[tuple[str, int]]) -> list[Transfer]:
    """Settle a zero-sum group by paying the largest debt to the largest credit, over and over.

    Each transfer clears one player at least, the last one two: ``len(group) - 1`` at most.
    """
    owed = {name: net for name, net in group}
    transfers: list[Transfer] = []
    while True:
        debtors = [(net, name) for name, net in owed.items() if net < 0]
        creditors = [(-net, name) for name, net in owed.items() if net > 0]
        if not debtors:
            return transfers
        debt, payer = min(debtors)
        credit, payee = min(creditors)
        amount = min(-debt, -credit)
        transfers.append(Transfer(payer, payee, amount))
        owed[payer] += amount
        owed[payee] -= amount
