"""Main and side pots, and dividing a pot among tied winners.

Pots are built from what each player committed during the hand: every distinct all-in level
of a player still in the hand closes a pot, and a pot is open to the players still in the hand
who committed at least its level. Chips carried over from earlier deals join the main pot.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["build_pots", "contributions", "split_amount"]


def build_pots(
    committed: Sequence[int],
    live: Sequence[bool],
    carried: int = 0,
    caps: Sequence[int | None] | None = None,
) -> list[tuple[int, tuple[int, ...]]]:
    """The pots as ``(amount, eligible indices)``, main pot first.

    ``committed[i]`` is what player ``i`` put in during the hand and ``live[i]`` whether the
    player is still in it (not folded). Chips of folded players count in the pots they reach
    but give no claim. ``carried`` is added to the main pot. ``caps[i]``, when given and not
    ``None``, limits player ``i``'s claim to pots up to that committed level (lowball's seven
    rule); a pot nobody could claim because of caps goes to the capped players after all.
    Chips above the highest level of a live player (possible only when someone folded out of
    turn) join the last pot.

    >>> build_pots([10, 30, 30], [True, True, True])
    [(30, (0, 1, 2)), (40, (1, 2))]
    """
    if caps is None:
        # One pass: the players still in, the least and most they put in, the most anyone
        # put in, and the total.
        still_in: list[int] = []
        low = high = top = 0
        total = carried
        for i, (c, ok) in enumerate(zip(committed, live, strict=True)):
            total += c
            if c > top:
                top = c
            if ok:
                if not still_in or c < low:
                    low = c
                if not still_in or c > high:
                    high = c
                still_in.append(i)
        if still_in and low == high and top <= low:
            # Everyone still in put in the same amount: one pot.
            return [(total, tuple(still_in))] if total > 0 else []
        caps = [None] * len(committed)
    levels = _levels(committed, live, caps)
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in levels:
        amount = 0
        for c in committed:
            if c > previous:
                amount += (c if c < level else level) - previous
        claim = [
            alive and c >= level and (cap is None or level <= cap)
            for c, alive, cap in zip(committed, live, caps, strict=True)
        ]
        if not any(claim):
            claim = [alive and c >= level for c, alive in zip(committed, live, strict=True)]
        eligible = tuple(i for i, ok in enumerate(claim) if ok)
        pots.append((amount, eligible))
        previous = level
    extra = sum(c - previous for c in committed if c > previous)
    if not pots:
        eligible_all = tuple(i for i, alive in enumerate(live) if alive)
        return [(carried + extra, eligible_all)] if carried + extra > 0 else []
    if extra:
        amount, eligible = pots[-1]
        pots[-1] = (amount + extra, eligible)
    if carried:
        amount, eligible = pots[0]
        pots[0] = (amount + carried, eligible)
    return pots


def contributions(
    committed: Sequence[int], live: Sequence[bool], caps: Sequence[int | None] | None = None
) -> list[list[int]]:
    """What each player put into each pot that :func:`build_pots` makes of the same figures,
    main pot first (the carried dead money is nobody's; chips above the highest level of a
    player still in count in the last pot, as there).

    >>> contributions([10, 30, 30], [True, True, True])
    [[10, 10, 10], [0, 20, 20]]
    """
    if caps is None:
        caps = [None] * len(committed)
    levels = _levels(committed, live, caps) or [0]
    levels[-1] = max(levels[-1], *committed)
    shares: list[list[int]] = []
    previous = 0
    for level in levels:
        shares.append([max(0, min(c, level) - previous) for c in committed])
        previous = level
    return shares


def split_amount(amount: int, winners: int) -> list[int]:
    """``amount`` divided among ``winners`` as evenly as possible, the odd chips going one each
    to the first winners (the caller orders winners from the dealer's left).

    >>> split_amount(10, 3)
    [4, 3, 3]
    """
    share, odd = divmod(amount, winners)
    return [share + (1 if i < odd else 0) for i in range(winners)]


def _levels(
    committed: Sequence[int], live: Sequence[bool], caps: Sequence[int | None]
) -> list[int]:
    """The amounts at which a pot is cut, lowest first: what each player still in put in,
    and each cap below it."""
    levels = {c for c, alive in zip(committed, live, strict=True) if alive and c > 0}
    levels.update(
        cap
        for cap, alive, c in zip(caps, live, committed, strict=True)
        if alive and cap is not None and 0 < cap < c
    )
    return sorted(levels)
