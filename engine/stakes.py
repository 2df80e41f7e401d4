"""Betting structures and forced bets: the money side of a table.

Both are table settings rather than part of a game's rules, so the same variant can be played
for an ante and fixed limits at one table and with blinds and no limit at another.

A betting structure says how much may be bet or raised in each betting round. Rounds are tagged
with a *tier* by the game's rules (:class:`engine.rules.BetTier`): the small tier is used before
the draw and the big tier after it, as in the usual "1-2" limits.

* :class:`FixedLimit` -- every bet and raise is exactly the tier's amount.
* :class:`SpreadLimit` -- any amount from a minimum to a maximum, per tier.
* :class:`PotLimit` -- from the minimum bet up to the size of the pot.
* :class:`NoLimit` -- from the minimum bet up to the whole stack (table stakes).

In every structure a player may go all-in for less than the minimum.

>>> FixedLimit(2)
FixedLimit(small_bet=2, big_bet=4, max_raises=4)
>>> FixedLimit(2).label, ForcedBets.with_blinds(1, 2).label, ForcedBets.antes(1).label
('2/4 fixed limit', 'blinds 1/2', 'ante 1')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine._frozen import fast_init
from engine.wording import Phrase, english

_POT_LIMIT = Phrase("pot limit")
_NO_LIMIT = Phrase("no limit")

__all__ = [
    "STRUCTURE_NAMES",
    "FixedLimit",
    "ForcedBets",
    "NoLimit",
    "PotLimit",
    "SpreadLimit",
    "Structure",
    "TierLimits",
    "forced_bets_for",
    "structure_for",
    "structure_kind",
    "structure_unit",
]


@fast_init
@dataclass(frozen=True, slots=True)
class TierLimits:
    """The limits that apply to one betting round, resolved from a structure and a tier.

    ``min_bet`` is the smallest opening bet (and smallest raise increment); ``max_bet`` is the
    largest bet or raise increment, or ``None`` when only the stack (no limit) or the pot (pot
    limit) caps it. ``fixed`` is true when every bet and raise is exactly ``min_bet``.
    ``max_raises`` counts raises after the opening bet, ``None`` meaning no cap.
    """

    min_bet: int
    max_bet: int | None
    fixed: bool
    pot_limit: bool
    max_raises: int | None


def _check_positive(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{name} must be a positive whole number of chips, not {value!r}")


def _check_raises(value: int | None) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise ValueError(f"max_raises must be a whole number >= 0 or None, not {value!r}")


@dataclass(frozen=True, slots=True)
class FixedLimit:
    """Fixed limit: bets and raises of exactly ``small_bet`` in small-tier rounds and of exactly
    ``big_bet`` (twice the small bet unless given) in big-tier rounds.

    ``max_raises`` is the number of raises allowed after the opening bet in one round (four by
    default, "a bet and four raises"); ``None`` removes the cap.
    """

    small_bet: int
    big_bet: int = 0
    max_raises: int | None = 4

    def __post_init__(self) -> None:
        _check_positive("small_bet", self.small_bet)
        if self.big_bet == 0:
            object.__setattr__(self, "big_bet", 2 * self.small_bet)
        _check_positive("big_bet", self.big_bet)
        _check_raises(self.max_raises)

    def limits(self, big: bool, scale: int = 1) -> TierLimits:
        """The limits of a round of the given tier (``scale`` multiplies the amount)."""
        amount = (self.big_bet if big else self.small_bet) * scale
        return TierLimits(amount, amount, True, False, self.max_raises)

    @property
    def label(self) -> str:
        """A short description such as ``"2/4 fixed limit"``."""
        return Phrase("{small}/{big} fixed limit", small=self.small_bet, big=self.big_bet)


@dataclass(frozen=True, slots=True)
class SpreadLimit:
    """Spread limit: any bet or raise from ``min_bet`` to ``max_bet``; after the draw (big tier)
    from ``min_bet_after`` to ``max_bet_after``, which default to the values before the draw.

    The three-figure home limits come close: "1, 2 and 4" (bets of 1 before the draw, of 2
    or 4 after it) is ``SpreadLimit(1, 1, 2, 4)``, which also lets a bet of 3 through.
    A raise must also be at least the previous bet or raise of the round (capped at the maximum).
    """

    min_bet: int
    max_bet: int
    min_bet_after: int = 0
    max_bet_after: int = 0
    max_raises: int | None = 4

    def __post_init__(self) -> None:
        _check_positive("min_bet", self.min_bet)
        _check_positive("max_bet", self.max_bet)
        if self.min_bet_after == 0:
            object.__setattr__(self, "min_bet_after", self.min_bet)
        if self.max_bet_after == 0:
            object.__setattr__(self, "max_bet_after", self.max_bet)
        _check_positive("min_bet_after", self.min_bet_after)
        _check_positive("max_bet_after", self.max_bet_after)
        if self.max_bet < self.min_bet or self.max_bet_after < self.min_bet_after:
            raise ValueError("a spread limit's maximum cannot be below its minimum")
        _check_raises(self.max_raises)

    def limits(self, big: bool, scale: int = 1) -> TierLimits:
        """The limits of a round of the given tier (``scale`` multiplies both bounds)."""
        if big:
            return TierLimits(
                self.min_bet_after * scale,
                self.max_bet_after * scale,
                False,
                False,
                self.max_raises,
            )
        return TierLimits(self.min_bet * scale, self.max_bet * scale, False, False, self.max_raises)

    @property
    def label(self) -> str:
        """A short description such as ``"1-2 / 2-4 spread limit"``."""
        low, high = self.min_bet, self.max_bet
        low_after, high_after = self.min_bet_after, self.max_bet_after
        if (low, high) == (low_after, high_after):
            return Phrase("{low}-{high} spread limit", low=low, high=high)
        return Phrase(
            "{low}-{high} / {low_after}-{high_after} spread limit",
            low=low,
            high=high,
            low_after=low_after,
            high_after=high_after,
        )


@dataclass(frozen=True, slots=True)
class PotLimit:
    """Pot limit: a bet or raise is at least ``min_bet`` (and at least the previous bet or raise
    of the round) and at most the size of the pot after calling."""

    min_bet: int = 1

    def __post_init__(self) -> None:
        _check_positive("min_bet", self.min_bet)

    def limits(self, big: bool, scale: int = 1) -> TierLimits:
        """The limits of a round; the tier does not matter in pot limit."""
        return TierLimits(self.min_bet, None, False, True, None)

    @property
    def label(self) -> str:
        """A short description."""
        return _POT_LIMIT


@dataclass(frozen=True, slots=True)
class NoLimit:
    """No limit (table stakes): a bet or raise is at least ``min_bet`` (and at least the
    previous bet or raise of the round) and at most the player's whole stack."""

    min_bet: int = 1

    def __post_init__(self) -> None:
        _check_positive("min_bet", self.min_bet)

    def limits(self, big: bool, scale: int = 1) -> TierLimits:
        """The limits of a round; the tier does not matter in no limit."""
        return TierLimits(self.min_bet, None, False, False, None)

    @property
    def label(self) -> str:
        """A short description."""
        return _NO_LIMIT


Structure = FixedLimit | SpreadLimit | PotLimit | NoLimit
"""Any betting structure."""


@dataclass(frozen=True, slots=True)
class ForcedBets:
    """The chips that go in before the cards are dealt.

    * ``ante``: paid by every player dealt in (or only by the dealer with ``dealer_edge``).
    * ``blinds``: live blind bets posted by the players to the dealer's left, in order: for
      example ``(1, 2)`` for a small and a big blind, ``(1, 2, 4)`` with a straddle. Blinds count
      as bets of the first betting round, which then starts left of the last blind, and the
      blinds may still raise when the action comes back to them.
    * ``blinds_from_dealer``: the first blind is posted by the dealer instead of the player to
      the dealer's left (Q-Ball's three blinds).

    With two players and at least two blinds the dealer posts the small blind, as usual
    heads-up. Use the class methods for the common shapes.
    """

    ante: int = 0
    blinds: tuple[int, ...] = ()
    dealer_edge: bool = False
    blinds_from_dealer: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.ante, bool) or not isinstance(self.ante, int) or self.ante < 0:
            raise ValueError(f"the ante must be a whole number >= 0, not {self.ante!r}")
        object.__setattr__(self, "blinds", tuple(self.blinds))
        for blind in self.blinds:
            _check_positive("a blind", blind)
        if self.dealer_edge and self.ante == 0:
            raise ValueError("dealer's edge needs an ante amount")

    @classmethod
    def antes(cls, ante: int) -> ForcedBets:
        """Everyone antes ``ante``."""
        _check_positive("the ante", ante)
        return cls(ante=ante)

    @classmethod
    def dealers_edge(cls, ante: int) -> ForcedBets:
        """Only the dealer antes ``ante``."""
        _check_positive("the ante", ante)
        return cls(ante=ante, dealer_edge=True)

    @classmethod
    def with_blinds(
        cls, small: int, big: int, straddle: int | None = None, ante: int = 0
    ) -> ForcedBets:
        """A small and a big blind, an optional straddle, and an optional ante from everyone."""
        blinds = (small, big) if straddle is None else (small, big, straddle)
        return cls(ante=ante, blinds=blinds)

    @property
    def has_blinds(self) -> bool:
        """Whether any blind is posted."""
        return bool(self.blinds)

    @property
    def label(self) -> str:
        """A short description such as ``"ante 1"`` or ``"blinds 1/2, ante 1"``."""
        blinds = "/".join(str(b) for b in self.blinds)
        if not self.ante:
            return Phrase("blinds {blinds}", blinds=blinds) if blinds else Phrase("no forced bets")
        if self.dealer_edge:
            if blinds:
                return Phrase(
                    "blinds {blinds}, dealer's edge {ante}", blinds=blinds, ante=self.ante
                )
            return Phrase("dealer's edge {ante}", ante=self.ante)
        if blinds:
            return Phrase("blinds {blinds}, ante {ante}", blinds=blinds, ante=self.ante)
        return Phrase("ante {ante}", ante=self.ante)


# ------------------------------------------------------------------------------ names and shapes

STRUCTURE_NAMES: dict[str, str] = {
    "fixed-limit": english("Fixed limit"),
    "spread-limit": english("Spread limit"),
    "pot-limit": english("Pot limit"),
    "no-limit": english("No limit"),
}
"""The betting structures by name, with the words a player reads: the one set of names (the
``/poker create`` option's values and a saved table's ``type``)."""

_ALIASES: dict[str, str] = {"fixed": "fixed-limit", "spread": "spread-limit", "pot": "pot-limit"}
# Saved tables from before the names were one set wrote these: they must still load.

_KINDS: dict[type, str] = {
    FixedLimit: "fixed-limit",
    SpreadLimit: "spread-limit",
    PotLimit: "pot-limit",
    NoLimit: "no-limit",
}

SPREAD_MULTIPLES: tuple[int, int] = (5, 10)
"""A spread limit opened from one stake goes from the stake to 5 times it before the draw and
to 10 times it after."""


def structure_name(name: str) -> str:
    """The one name of a betting structure, also from an older saved name.

    >>> structure_name("spread"), structure_name("no-limit")
    ('spread-limit', 'no-limit')
    """
    kind = _ALIASES.get(name, name)
    if kind not in STRUCTURE_NAMES:
        raise ValueError(f"unknown betting structure {name!r}")
    return kind


def structure_kind(structure: Structure) -> str:
    """The name of ``structure``'s kind.

    >>> structure_kind(SpreadLimit(1, 5))
    'spread-limit'
    """
    return _KINDS[type(structure)]


def structure_unit(structure: Structure) -> int:
    """The bet a structure is opened from: the small bet of fixed limit, else the minimum bet.

    >>> structure_unit(FixedLimit(2)), structure_unit(PotLimit(3))
    (2, 3)
    """
    if isinstance(structure, FixedLimit):
        return structure.small_bet
    return structure.min_bet


def structure_for(kind: str, unit: int) -> Structure:
    """The structure of kind ``kind`` opened from one stake ``unit`` (the shapes a table offers).

    >>> structure_for("spread-limit", 2).label
    '2-10 / 2-20 spread limit'
    >>> structure_for("fixed-limit", 2).label
    '2/4 fixed limit'
    """
    kind = structure_name(kind)
    if kind == "fixed-limit":
        return FixedLimit(small_bet=unit)
    if kind == "spread-limit":
        before, after = SPREAD_MULTIPLES
        return SpreadLimit(
            min_bet=unit, max_bet=unit * before, min_bet_after=unit, max_bet_after=unit * after
        )
    if kind == "pot-limit":
        return PotLimit(min_bet=unit)
    return NoLimit(min_bet=unit)


def forced_bets_for(
    ante: int | None, blinds: tuple[int, ...] | None, default: ForcedBets
) -> ForcedBets:
    """The forced bets a table is opened with: blinds (and an ante from everyone if given), or
    an ante alone, or ``default`` (the game's own) when neither is given. Without blinds the
    ante is at least one chip, or nothing would ever be in the pot.

    >>> forced_bets_for(2, None, ForcedBets.antes(1)).label
    'ante 2'
    >>> forced_bets_for(0, None, ForcedBets.antes(1))
    Traceback (most recent call last):
    ...
    ValueError: without blinds a table needs an ante of at least 1 chip
    """
    if blinds is not None:
        small, big, *straddle = blinds
        return ForcedBets.with_blinds(
            small, big, straddle=straddle[0] if straddle else None, ante=ante or 0
        )
    if ante == 0:
        raise ValueError("without blinds a table needs an ante of at least 1 chip")
    if ante is not None:
        return ForcedBets.antes(ante)
    return default
