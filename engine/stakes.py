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

__all__ = [
    "FixedLimit",
    "ForcedBets",
    "NoLimit",
    "PotLimit",
    "SpreadLimit",
    "Structure",
    "TierLimits",
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
        return f"{self.small_bet}/{self.big_bet} fixed limit"


@dataclass(frozen=True, slots=True)
class SpreadLimit:
    """Spread limit: any bet or raise from ``min_bet`` to ``max_bet``; after the draw (big tier)
    from ``min_bet_after`` to ``max_bet_after``, which default to the values before the draw.

    This covers the three-figure home limits: "1, 2 and 4" is ``SpreadLimit(1, 2, 2, 4)``.
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
        before = f"{self.min_bet}-{self.max_bet}"
        after = f"{self.min_bet_after}-{self.max_bet_after}"
        return f"{before} spread limit" if before == after else f"{before} / {after} spread limit"


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
        return "pot limit"


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
        return "no limit"


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
        parts = []
        if self.blinds:
            parts.append("blinds " + "/".join(str(b) for b in self.blinds))
        if self.ante:
            parts.append(f"dealer's edge {self.ante}" if self.dealer_edge else f"ante {self.ante}")
        return ", ".join(parts) or "no forced bets"
