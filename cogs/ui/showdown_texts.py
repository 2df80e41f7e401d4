"""Every word a player reads in a showdown (the result's text and its picture), in one place.

Each entry is a template with named placeholders, filled with :func:`say`; a translation
replaces the templates and keeps the placeholder names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["SHOWDOWN_TEXTS", "say"]

SHOWDOWN_TEXTS: Final[Mapping[str, str]] = {
    # A line of the text showdown: who, the cards as they play, the hand's name.
    "line": "{mark}**{name}**{declared}: {cards} — {hand}",
    "winner_mark": "🏆 ",
    "declared": " (declared {how})",
    # The names of a high-low hand's two halves.
    "high_half": "High: {hand}",
    "low_half": "Low: {hand}",
    "no_low": "no qualifying low",
    "halves_joiner": " / ",
    # A wild card (or joker) written where it plays, with the card it stands for.
    "wild_as": "{card}→{plays_as}",
    # The cards that do not play, set apart after the ones that do.
    "idle": "(not playing: {cards})",
    # The picture.
    "picture_wins": "wins {what}",
    "picture_wild": "WILD",
    "picture_wild_as": "as",
    "picture_description": "Every hand shown, arranged by what it makes, winners first",
}


def say(key: str, **values: object) -> str:
    """The text ``key`` with its placeholders filled.

    >>> say("wild_as", card="2♣", plays_as="K♣")
    '2♣→K♣'
    """
    return SHOWDOWN_TEXTS[key].format(**values)
