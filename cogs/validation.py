"""Every value a user can send the bot, checked once, at the door.

Discord's client enforces an option's ``Range`` and ``choices``, but a forged or stale request
is not bound by them: an integer option may arrive as a string, a float, ``True`` or 10**30,
and a text option may hold anything Unicode allows (``"²"`` passes ``str.isdigit()`` and then
fails ``int()``). So nothing from an interaction reaches the engine, the table service or the
database before one of the parsers below has accepted it; each refusal is an
:class:`InvalidInput` (a :class:`~tables.errors.Refusal`) whose text tells the user what is
accepted. One :class:`Setting` per option, shared by ``/poker create``, ``/poker settings`` and
``/server settings``, so a bound lives in exactly one place.

No Discord import: this module is pure and its examples run as doctests.

>>> parse_amount("1,250")
1250
>>> parse_amount("²")
Traceback (most recent call last):
...
cogs.validation.InvalidInput: “²” is not a number of chips: digits only, e.g. 1500 or 1,500.
>>> parse_blinds("1/2/4")
Blinds(small=1, big=2, straddle=4)
>>> TIMER.check(5)
Traceback (most recent call last):
...
cogs.validation.InvalidInput: The action timer must be a whole number from 10 to 600.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from cogs.translator import _
from engine.seating import ACTION_SECONDS, AUTO_DEAL_SECONDS
from engine.stakes import STRUCTURE_NAMES
from engine.timebank import TIME_BANK_SECONDS
from engine.variants import Variant, get_variant
from i18n import LazyString
from tables.errors import Refusal

__all__ = [
    "ADDON",
    "ANTE",
    "AUTO_DEAL",
    "BETTING",
    "BUY_IN",
    "CHIPS",
    "CHIPS_MOVED",
    "DAILY_AMOUNT",
    "DAILY_COOLDOWN_HOURS",
    "DIABLO_CAP",
    "LATE_REG_LEVELS",
    "LEVELS",
    "LEVEL_MINUTES",
    "MAX_AMOUNT",
    "MAX_BUY",
    "MAX_BUY_IN",
    "MAX_CHIPS",
    "MAX_TABLES_PER_PLAYER",
    "MIN_BUY_IN",
    "PLAYERS",
    "REBUY",
    "REBUYS",
    "REBUY_LEVELS",
    "SEATS",
    "STAKE",
    "STARTING_BANKROLL",
    "STARTING_STACK",
    "TIMER",
    "TIME_BANK",
    "Blinds",
    "InvalidInput",
    "Setting",
    "check_betting",
    "check_buy_ins",
    "check_choice",
    "check_flag",
    "check_id",
    "check_text",
    "check_variant_slug",
    "option",
    "parse_amount",
    "parse_blinds",
    "parse_seat",
    "parse_select_positions",
    "parse_select_values",
]

MAX_AMOUNT: Final = 1_000_000_000_000
"""No typed amount of chips is larger: far above any stack, far below SQLite's 2**63."""

MAX_ID: Final = 2**63 - 1
"""Discord snowflakes and the database's row ids both fit in a signed 64-bit integer."""

MAX_STAKE: Final = 1_000_000
"""The largest bet unit, blind or ante a table can be opened with."""

_PLAIN: Final = re.compile(r"[0-9]{1,13}")
# Groups of three, one separator style throughout: the comma, the dot, a space (plain, no-break
# or narrow, as Babel writes French), or an apostrophe: "1,500", "1.500", "12 000 000".
# Chips are whole, so a dot is never a decimal point here; but a number grouped after a zero
# ("0.500", "0,500", "01,000") is no grouping anyone writes: it reads as a fraction, refused.
_GROUPED: Final = re.compile(r"[1-9][0-9]{0,2}([,. \u00a0\u202f'])[0-9]{3}(?:\1[0-9]{3}){0,3}")
_SEPARATORS: Final = re.compile(r"[,. \u00a0\u202f']")
_SLUG: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,59}")


AMOUNT: Final = _.lazy("The amount")
# Translators: the subject of "… is a positive whole number" (/poker hand, /poker verify).
HAND_ID: Final = _.lazy("A hand id")
# Translators: the subject of "… is a positive whole number" (/poker history, /poker ledger).
TABLE_ID: Final = _.lazy("A table id")
EACH_BLIND: Final = _.lazy("Each blind")


def option(name: str) -> str:
    """A slash command's option named in a refusal, in the current language: "The coach
    option". Option names are not translated in Discord's menu, so ``name`` is written as the
    menu shows it (``dealers_choice``); the words around it are translated."""
    # Translators: names a slash command's option in a refusal ("... is either true or false");
    # {option}: the option as the slash menu writes it (muck_losers).
    return _("The {option} option", option=name)


class InvalidInput(Refusal):
    """A value the bot does not accept; ``str(exc)`` says what would be accepted."""


def _shown(text: str) -> str:
    """A user's text quoted back to them, short and on one line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= 20 else flat[:19] + "…"


def parse_amount(
    text: object, *, what: str | LazyString = AMOUNT, low: int = 0, high: int = MAX_AMOUNT
) -> int:
    """A number of chips typed by a user: ASCII digits, optionally grouped by threes (with
    commas, dots, spaces or apostrophes, one style throughout).

    Spaces around it are ignored; signs, decimals, other digits or separators are not, nor
    is a grouped number that starts with a zero (``"0.500"`` looks like a half). A plain
    number may have leading zeros (``"040"`` is 40: nothing else it could mean).

    >>> parse_amount(" 40 "), parse_amount("12,000,000"), parse_amount("1.500"), parse_amount("040")
    (40, 12000000, 1500, 40)
    >>> parse_amount("0.500")
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: “0.500” is not a number of chips: digits only, e.g. 1500 or 1,500.
    >>> parse_amount("1,50")
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: “1,50” is not a number of chips: digits only, e.g. 1500 or 1,500.
    >>> parse_amount("0", low=1)
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: The amount must be from 1 to 1,000,000,000,000.
    """
    raw = text.strip() if isinstance(text, str) else ""
    if not (_PLAIN.fullmatch(raw) or _GROUPED.fullmatch(raw)):
        shown = _shown(text) if isinstance(text, str) else repr(text)[:20]
        raise InvalidInput(
            _(
                "“{text}” is not a number of chips: digits only, e.g. {plain} or {grouped}.",
                text=shown,
                plain="1500",
                grouped=1500,
            )
        )
    value = int(_SEPARATORS.sub("", raw))
    if not low <= value <= high:
        # Translators: {what} names the value, e.g. "The amount", "The buy-in".
        raise InvalidInput(_("{what} must be from {low} to {high}.", what=what, low=low, high=high))
    return value


_SEAT: Final = re.compile(r"[1-9][0-9]?")


def parse_seat(text: object, seats: int) -> int | None:
    """The seat a member typed (the Sit down form), as the engine counts seats (from 0), or
    ``None`` when left blank (the first free seat). A seat is written as the table numbers
    it: a plain number from 1 to ``seats``, ASCII digits with no leading zero, sign or other
    mark; spaces around it are ignored, as for every typed number.

    >>> parse_seat(" 3 ", 6), parse_seat("", 6), parse_seat("10", 10)
    (2, None, 9)
    >>> for typed in ("02", "+2", "２", "7"):
    ...     try:
    ...         parse_seat(typed, 6)
    ...     except InvalidInput as exc:
    ...         print(str(exc).split(":")[0])
    “02” is not a seat
    “+2” is not a seat
    “２” is not a seat
    “7” is not a seat
    """
    raw = text.strip() if isinstance(text, str) else None
    if raw == "":
        return None
    if raw is not None and _SEAT.fullmatch(raw) and int(raw) <= seats:
        return int(raw) - 1
    shown = _shown(text) if isinstance(text, str) else repr(text)[:20]
    raise InvalidInput(
        # Translators: a refusal of the Sit down form's seat; {text}: what the member typed.
        _(
            "“{text}” is not a seat: the seat is a number from 1 to {seats} (leave it blank "
            "for the first free one).",
            text=shown,
            seats=seats,
        )
    )


@dataclass(frozen=True, slots=True)
class Setting:
    """One number option and its bounds, declared once: read by the checks below and by the
    slash command's ``app_commands.Range`` (``kit.TimerOption``, in the Discord layer), so what
    Discord's client offers and what the bot accepts are the same. The one range checker."""

    what: str | LazyString
    """What the value is, as the start of a sentence ("The stake"): rendered in the
    language of the refusal."""
    low: int | float
    high: int | float

    def check(self, value: object) -> int:
        """``value`` as sent in an interaction: an ``int`` within bounds (``bool`` is not one).

        >>> SEATS.check(6)
        6
        >>> SEATS.check("6")
        Traceback (most recent call last):
        ...
        cogs.validation.InvalidInput: The number of seats must be a whole number from 2 to 10.
        """
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not self.low <= value <= self.high
        ):
            raise InvalidInput(
                # Translators: {what} names a setting, e.g. "The stake", "The number of seats".
                _(
                    "{what} must be a whole number from {low} to {high}.",
                    what=self.what,
                    low=self.low,
                    high=self.high,
                )
            )
        return value

    def optional(self, value: object) -> int | None:
        """:meth:`check`, with ``None`` (the option left out) passed through."""
        return None if value is None else self.check(value)

    def number(self, value: object) -> float:
        """``value`` as a number option, fractions allowed, within bounds.

        >>> LEVEL_MINUTES.number(0.5)
        0.5
        >>> LEVEL_MINUTES.number("5")
        Traceback (most recent call last):
        ...
        cogs.validation.InvalidInput: A level's length in minutes must be a number from 0.05 to 240.
        """
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not self.low <= value <= self.high
        ):
            raise InvalidInput(
                _(
                    "{what} must be a number from {low} to {high}.",
                    what=self.what,
                    low=self.low,
                    high=self.high,
                )
            )
        return float(value)


MAX_CHIPS: Final = 1_000_000_000
"""The most chips an admin or a server setting can name at once (grant, set, remove, bankroll)."""
MAX_BUY: Final = 100_000_000
"""The largest buy-in, rebuy or Diablo cap a table or tournament can be opened with."""

STAKE: Final = Setting(_.lazy("The stake"), 1, MAX_STAKE)
ANTE: Final = Setting(_.lazy("The ante"), 0, MAX_STAKE)
SEATS: Final = Setting(_.lazy("The number of seats"), 2, 10)
MIN_BUY_IN: Final = Setting(_.lazy("The smallest buy-in"), 1, MAX_BUY)
MAX_BUY_IN: Final = Setting(_.lazy("The largest buy-in"), 1, MAX_BUY)
BUY_IN: Final = Setting(_.lazy("The buy-in"), 1, MAX_BUY)
REBUY: Final = Setting(_.lazy("The rebuy"), 1, MAX_BUY)
# One timer for tables and tournaments alike (a tournament's once started at 5 s): see
# engine.seating.ACTION_SECONDS for why 10 s.
TIMER: Final = Setting(_.lazy("The action timer"), *ACTION_SECONDS)
AUTO_DEAL: Final = Setting(_.lazy("The pause between hands"), *AUTO_DEAL_SECONDS)
TIME_BANK: Final = Setting(_.lazy("The time bank"), *TIME_BANK_SECONDS)
STARTING_BANKROLL: Final = Setting(_.lazy("The starting bankroll"), 0, MAX_CHIPS)
DAILY_AMOUNT: Final = Setting(_.lazy("The daily bonus"), 0, MAX_CHIPS)
DAILY_COOLDOWN_HOURS: Final = Setting(_.lazy("The daily cooldown (hours)"), 1, 24 * 30)
MAX_TABLES_PER_PLAYER: Final = Setting(_.lazy("The most tables one member may sit at"), 1, 50)
CHIPS: Final = Setting(_.lazy("The amount"), 0, MAX_CHIPS)
"""A bankroll an admin sets."""
CHIPS_MOVED: Final = Setting(_.lazy("The amount"), 1, MAX_CHIPS)
"""Chips an admin grants or removes."""
DIABLO_CAP: Final = Setting(_.lazy("The Diablo cap"), 0, MAX_BUY)
STARTING_STACK: Final = Setting(_.lazy("The starting stack"), 10, 10_000_000)
LEVELS: Final = Setting(_.lazy("The number of levels"), 1, 40)
LEVEL_MINUTES: Final = Setting(_.lazy("A level's length in minutes"), 0.05, 240.0)
PLAYERS: Final = Setting(_.lazy("The number of players"), 2, 60)
REBUYS: Final = Setting(_.lazy("The number of rebuys"), 0, 10)
REBUY_LEVELS: Final = Setting(_.lazy("The rebuy levels"), 0, 40)
ADDON: Final = Setting(_.lazy("The add-on"), 0, 10_000_000)
LATE_REG_LEVELS: Final = Setting(_.lazy("The late registration levels"), 0, 40)

BETTING: Final = tuple(STRUCTURE_NAMES)
"""The betting structures a table can be opened with, by option value (the engine's names)."""


def check_buy_ins(low: int, high: int) -> None:
    """The buy-in range of a table, once both ends are known.

    >>> check_buy_ins(500, 100)
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: The smallest buy-in (500) can't be larger than the largest (100).
    """
    if low > high:
        raise InvalidInput(
            _(
                "The smallest buy-in ({low}) can't be larger than the largest ({high}).",
                low=low,
                high=high,
            )
        )


def check_betting(value: object) -> str | None:
    """A betting structure option (``None``: the game's own).

    >>> check_betting("pot-limit")
    'pot-limit'
    >>> check_betting("any")
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: Betting is one of fixed-limit, spread-limit, pot-limit, no-limit.
    """
    if value is None:
        return None
    if not isinstance(value, str) or value not in BETTING:
        raise InvalidInput(_("Betting is one of {choices}.", choices=", ".join(BETTING)))
    return value


def check_variant_slug(value: object) -> str:
    """The shape of a game's slug (whether the game exists is the engine's to say).

    >>> check_variant_slug("five-card-draw")
    'five-card-draw'
    >>> check_variant_slug("Five Card\\x00")
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: I don't know the game “Five Card\x00”; see `/poker rules`.
    """
    if not isinstance(value, str) or not _SLUG.fullmatch(value):
        shown = _shown(value) if isinstance(value, str) else repr(value)[:20]
        raise InvalidInput(_("I don't know the game “{text}”; see `/poker rules`.", text=shown))
    return value


def known_variant(value: object) -> Variant:
    """The catalogue's game named by the slug ``value``.

    >>> known_variant("deuces-wild").slug
    'deuces-wild'
    >>> known_variant("nope")
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: I don't know the game “nope”. Try `/poker rules`.
    """
    slug = check_variant_slug(value)
    try:
        return get_variant(slug)
    except (KeyError, ValueError):
        raise InvalidInput(
            _("I don't know the game “{game}”. Try `/poker rules`.", game=slug)
        ) from None


def check_choice(value: object, what: str | LazyString, choices: tuple[str, ...]) -> str:
    """An option offered as a fixed list of choices: one of them, exactly.

    >>> check_choice("off", "The setting", ("on", "off"))
    'off'
    >>> check_choice(0, "The setting", ("on", "off"))
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: The setting is one of on, off.
    """
    if not isinstance(value, str) or value not in choices:
        raise InvalidInput(_("{what} is one of {choices}.", what=what, choices=", ".join(choices)))
    return value


def check_flag(value: object, what: str | LazyString) -> bool:
    """A yes/no option: only a real boolean.

    >>> check_flag("yes", "Dealer's choice")
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: Dealer's choice is either true or false.
    """
    if not isinstance(value, bool):
        raise InvalidInput(_("{what} is either true or false.", what=what))
    return value


def check_id(value: object, what: str | LazyString) -> int:
    """A hand or table id typed as an option: a positive 64-bit integer.

    >>> check_id(-3, "A hand id")
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: A hand id is a positive whole number.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID:
        raise InvalidInput(_("{what} is a positive whole number.", what=what))
    return value


def check_text(value: object, what: str | LazyString, longest: int) -> str:
    """A free-text option: a string of at most ``longest`` characters, without control
    characters other than line breaks."""
    if not isinstance(value, str):
        raise InvalidInput(_("{what} must be text.", what=what))
    if len(value) > longest:
        raise InvalidInput(
            _(
                "{what} is too long ({length} characters; at most {longest}).",
                what=what,
                length=len(value),
                longest=longest,
            )
        )
    if any(ord(c) < 32 and c not in "\n\t" for c in value):
        raise InvalidInput(_("{what} contains control characters.", what=what))
    return value


@dataclass(frozen=True, slots=True)
class Blinds:
    """Blinds as typed: small, big, and an optional straddle."""

    small: int
    big: int
    straddle: int | None = None

    @property
    def amounts(self) -> tuple[int, ...]:
        """The blinds in posting order, as the engine takes them."""
        return (
            (self.small, self.big)
            if self.straddle is None
            else (self.small, self.big, self.straddle)
        )


def parse_blinds(text: object) -> Blinds:
    """``small/big`` or ``small/big/straddle``: each from 1 to 1,000,000, small at most big,
    a straddle at least the big blind.

    >>> parse_blinds(" 5 / 10 ")
    Blinds(small=5, big=10, straddle=None)
    >>> parse_blinds("2/1")
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: The small blind (2) can't be larger than the big blind (1).
    >>> parse_blinds("0/0")
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: Each blind must be from 1 to 1,000,000.
    """
    usage = _("Blinds look like `1/2`, or `1/2/4` with a straddle.")
    if not isinstance(text, str) or len(text) > 40:
        raise InvalidInput(usage)
    parts = [part.strip() for part in text.split("/")]
    if not 2 <= len(parts) <= 3:
        raise InvalidInput(usage)
    if not all(_PLAIN.fullmatch(part) or _GROUPED.fullmatch(part) for part in parts):
        raise InvalidInput(usage)
    values = [parse_amount(p, what=EACH_BLIND, low=1, high=MAX_STAKE) for p in parts]
    small, big, *rest = values
    if small > big:
        raise InvalidInput(
            _(
                "The small blind ({small}) can't be larger than the big blind ({big}).",
                small=small,
                big=big,
            )
        )
    straddle = rest[0] if rest else None
    if straddle is not None and straddle < big:
        raise InvalidInput(
            _(
                "A straddle ({straddle}) is at least the big blind ({big}).",
                straddle=straddle,
                big=big,
            )
        )
    return Blinds(small, big, straddle)


def parse_select_positions(values: object, options: int) -> tuple[int, ...]:
    """A select's values as card positions: each one of the ``options`` offered, none twice.

    >>> parse_select_positions(["0", "3"], 5)
    (0, 3)
    >>> parse_select_positions(["-1"], 5)
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: That choice is no longer valid.
    """
    refused = InvalidInput(_("That choice is no longer valid."))
    if not isinstance(values, list | tuple) or len(values) > options:
        raise refused
    picks: list[int] = []
    for value in values:
        if not isinstance(value, str) or not re.fullmatch(r"0|[1-9][0-9]?", value):
            raise refused
        picks.append(int(value))
    if len(set(picks)) != len(picks) or any(p >= options for p in picks):
        raise refused
    return tuple(picks)


def parse_select_values(
    values: object, offered: tuple[str, ...], *, exactly: int | None = None
) -> tuple[str, ...]:
    """A select's values as the option values offered: each one of them, none twice (exactly
    ``exactly`` of them when given).

    >>> parse_select_values(["wait"], ("play", "wait", "post"), exactly=1)
    ('wait',)
    >>> parse_select_values(["wait", "wait"], ("play", "wait", "post"))
    Traceback (most recent call last):
    ...
    cogs.validation.InvalidInput: That choice is no longer valid.
    """
    if (
        not isinstance(values, list | tuple)
        or any(not isinstance(v, str) or v not in offered for v in values)
        or len(set(values)) != len(values)
        or (exactly is not None and len(values) != exactly)
    ):
        raise InvalidInput(_("That choice is no longer valid."))
    return tuple(values)
