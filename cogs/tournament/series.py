"""The rules of a poker night that repeats, and of the poll that picks its game: pure
functions (no Discord, no clock), used by :mod:`cogs.tournament.nights`.

All times are UTC: a weekly night keeps its UTC hour, as the start times people type do.
"""

from __future__ import annotations

import calendar
import datetime
from collections.abc import Sequence

REPEATS = ("none", "weekly", "fortnightly", "monthly")
"""How a series repeats: not at all, every week, every other week, every month."""

POLL_SIZE = (2, 5)
"""A game poll offers at least 2 and at most 5 games."""


def occurrence(first: datetime.datetime, repeat: str, n: int) -> datetime.datetime:
    """The ``n``-th night of a series counted from ``first`` (``n == 0`` is ``first``).

    A monthly night keeps the day of the month of ``first``; in a shorter month it is the
    month's last day, and the month after it is back on its own day (counted from ``first``,
    not from the shortened night).

    >>> jan31 = datetime.datetime(2027, 1, 31, 20, 0, tzinfo=datetime.UTC)
    >>> [occurrence(jan31, "monthly", n).date().isoformat() for n in range(4)]
    ['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']
    >>> occurrence(datetime.datetime(2027, 12, 31, 21, 0), "monthly", 2)
    datetime.datetime(2028, 2, 29, 21, 0)
    >>> occurrence(jan31, "weekly", 1).isoformat()
    '2027-02-07T20:00:00+00:00'
    >>> occurrence(jan31, "fortnightly", 2).date().isoformat()
    '2027-02-28'
    >>> occurrence(jan31, "none", 1)
    Traceback (most recent call last):
    ...
    ValueError: a night that does not repeat has no next date
    """
    if n < 0:
        raise ValueError("n counts nights from the first, from 0")
    if repeat == "weekly":
        return first + datetime.timedelta(weeks=n)
    if repeat == "fortnightly":
        return first + datetime.timedelta(weeks=2 * n)
    if repeat == "monthly":
        months = first.year * 12 + (first.month - 1) + n
        year, month = divmod(months, 12)
        last = calendar.monthrange(year, month + 1)[1]
        return first.replace(year=year, month=month + 1, day=min(first.day, last))
    if repeat == "none":
        raise ValueError("a night that does not repeat has no next date")
    raise ValueError(f"repeat is one of {', '.join(REPEATS)}, not {repeat!r}")


def next_night(first: float, repeat: str, after: float) -> float:
    """The first night of the series counted from ``first`` (a UTC timestamp) that starts
    strictly after ``after``: the next date to show once a night has begun, also when the bot
    was away for several of them (those are not held late).

    >>> first = datetime.datetime(2027, 1, 31, 20, 0, tzinfo=datetime.UTC).timestamp()
    >>> def day(t: float) -> str:
    ...     return datetime.datetime.fromtimestamp(t, datetime.UTC).strftime("%Y-%m-%d %H:%M")
    >>> day(next_night(first, "weekly", first))
    '2027-02-07 20:00'
    >>> day(next_night(first, "monthly", first + 1))
    '2027-02-28 20:00'
    >>> day(next_night(first, "monthly", first + 40 * 86400))
    '2027-03-31 20:00'
    >>> day(next_night(first, "fortnightly", first - 1))
    '2027-01-31 20:00'
    """
    start = datetime.datetime.fromtimestamp(first, datetime.UTC)
    if repeat == "monthly":
        # About 30 days a month: start just below the answer and step up.
        n = max(0, int((after - first) // (31 * 86400)))
    else:
        step = 7 * 86400 * (2 if repeat == "fortnightly" else 1)
        n = max(0, int((after - first) // step))
    while (when := occurrence(start, repeat, n).timestamp()) <= after:
        n += 1
    return when


def poll_winner(games: Sequence[str], votes: Sequence[int], default: str) -> str:
    """The game a poll picked: the most votes; a tie goes to the game listed first; a poll
    nobody answered leaves the night's own game (``default``).

    >>> poll_winner(["holdem", "omaha", "razz"], [2, 3, 1], "holdem")
    'omaha'
    >>> poll_winner(["holdem", "omaha", "razz"], [1, 3, 3], "holdem")
    'omaha'
    >>> poll_winner(["omaha", "razz"], [0, 0], "five-card-draw")
    'five-card-draw'
    """
    if len(games) != len(votes):
        raise ValueError("one vote count per game")
    best = max(votes, default=0)
    if best <= 0:
        return default
    return games[list(votes).index(best)]


def check_poll(games: Sequence[str]) -> tuple[str, ...]:
    """The poll's games in order, or the reason they cannot make a poll.

    >>> check_poll(["holdem", "omaha"])
    ('holdem', 'omaha')
    >>> check_poll(["holdem", "holdem"])
    Traceback (most recent call last):
    ...
    ValueError: a poll lists each game once
    >>> check_poll(["holdem"])
    Traceback (most recent call last):
    ...
    ValueError: a poll offers 2 to 5 games
    """
    low, high = POLL_SIZE
    if not low <= len(games) <= high:
        raise ValueError(f"a poll offers {low} to {high} games")
    if len(set(games)) != len(games):
        raise ValueError("a poll lists each game once")
    return tuple(games)
