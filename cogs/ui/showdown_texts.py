"""Every word a player reads in a showdown (the result's text and its picture), in one place.

Each entry is a message of the cogs' catalogue with named placeholders, filled with
:func:`say` in the current language or the one given (the channel's, for the result).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from cogs.translator import _
from i18n import Language, LazyString

__all__ = ["SHOWDOWN_TEXTS", "say"]

SHOWDOWN_TEXTS: Final[Mapping[str, LazyString]] = {
    # Translators: a line of the text showdown: who ({mark}: a trophy for a winner, or
    # nothing), {declared} (the declaration, or nothing), the cards as they play, the hand.
    "line": _.lazy("{mark}**{name}**{declared}: {cards} — {hand}"),
    "winner_mark": _.lazy("🏆 "),
    # Translators: after a player's name at the showdown of a declare game; {how}: high, low...
    "declared": _.lazy(" (declared {how})"),
    # Translators: the names of a high-low hand's two halves.
    "high_half": _.lazy("High: {hand}"),
    "low_half": _.lazy("Low: {hand}"),
    "no_low": _.lazy("no qualifying low"),
    # Translators: between the high and the low hand's names ("High: ... / Low: ...").
    "high_and_low": _.lazy("{high} / {low}"),
    # Translators: a wild card (or joker) written where it plays, with the card it stands for.
    "wild_as": _.lazy("{card}→{plays_as}"),
    # Translators: the cards that do not play, set apart after the ones that do.
    "idle": _.lazy("(not playing: {cards})"),
    # Translators: on the showdown picture, under a winner's name; {what}: the pots won.
    "picture_wins": _.lazy("wins {what}"),
    # Translators: on a wild card of the showdown picture (a few letters: it fits a card's width).
    "picture_wild": _.lazy("WILD"),
    # Translators: on a wild card's band, before the card it plays as ("as K♣"), very short.
    "picture_wild_as": _.lazy("as {card}"),
    # Translators: the joker's label on a card picture (fits a card's width: about 6 letters).
    "joker": _.lazy("JOKER"),
    # Translators: the showdown picture's alt text.
    "picture_description": _.lazy("Every hand shown, arranged by what it makes, winners first"),
}


def say(key: str, *, language: Language | None = None, **values: object) -> str:
    """The text ``key`` with its placeholders filled, in ``language`` (default: current).

    >>> say("wild_as", card="2♣", plays_as="K♣")
    '2♣→K♣'
    """
    return SHOWDOWN_TEXTS[key].render(language, **values)
