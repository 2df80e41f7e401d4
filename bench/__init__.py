"""Benchmarks (run as scripts: ``.venv/bin/python bench/<name>.py``).

The argument types below let :mod:`argparse` refuse a bad figure with one line (``error:
argument --hands: ...``) rather than a traceback once the run is under way.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable


def positive(text: str) -> int:
    """A whole number of at least 1 (hands, passes, workers, tables).

    >>> positive("3")
    3
    >>> positive("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '0' is not a whole number of at least 1
    """
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def duration(text: str) -> float:
    """A number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def listed(item: Callable[[str], object] | Iterable[str]) -> Callable[[str], list[str]]:
    """A comma-separated list, each entry one of ``item`` (names) or read by ``item`` (a
    type such as :func:`positive`); returns the entries as written.

    >>> listed(["easy", "hard"])("easy,hard")
    ['easy', 'hard']
    >>> listed(positive)("10,x")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'x' is not a whole number of at least 1
    """
    if callable(item):
        check = item
    else:
        names = sorted(item)

        def check(entry: str) -> object:
            if entry not in names:
                raise argparse.ArgumentTypeError(f"{entry!r} is not one of {', '.join(names)}")
            return entry

    def read(text: str) -> list[str]:
        entries = [entry.strip() for entry in text.split(",")]
        for entry in entries:
            check(entry)
        return entries

    return read
