"""The catalogue of games a table can deal.

Each :class:`Variant` pairs a :class:`engine.rules.GameRules` value with what a table needs to
offer it: a stable ``slug``, a display ``name``, a one-paragraph ``description``, the stakes
and number of players that suit it, and the optional rules a table may switch on
(:class:`VariantOption`). Every game here is data; none has code of its own.

>>> get_variant("five-card-draw").name
'Five-card draw'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.rules import Bet, BetTier, Deal, Draw, GameRules
from engine.stakes import FixedLimit, ForcedBets, Structure

__all__ = [
    "VARIANTS",
    "Variant",
    "VariantOption",
    "get_variant",
    "list_variants",
]


@dataclass(frozen=True, slots=True)
class VariantOption:
    """A rule a table may switch on or off for one variant: ``key`` is stable, ``label`` and
    ``description`` are for people, ``default`` says whether it is on unless the table says
    otherwise, and ``apply`` turns the variant's rules into the rules with the option."""

    key: str
    label: str
    description: str
    apply: Callable[[GameRules], GameRules]
    default: bool = False


@dataclass(frozen=True, slots=True)
class Variant:
    """One game of the catalogue.

    * ``slug``: stable identifier (``"jacks-or-better"``); ``name``: display name;
      ``description``: one paragraph in plain words.
    * ``rules``: the game's rules with every option at its default.
    * ``structure``/``forced_bets``/``max_players``: what the game is usually played with
      (a table may choose otherwise, up to ``rules.max_players``).
    * ``options``: the optional rules a table may switch on or off.
    """

    slug: str
    name: str
    description: str
    rules: GameRules
    structure: Structure
    forced_bets: ForcedBets
    max_players: int
    options: tuple[VariantOption, ...] = ()

    def option(self, key: str) -> VariantOption:
        """The option ``key``.

        :raises ValueError: if the variant has no such option.
        """
        for option in self.options:
            if option.key == key:
                return option
        known = ", ".join(o.key for o in self.options) or "none"
        raise ValueError(f"{self.name} has no option {key!r} (options: {known})")

    def build(self, enabled: Iterable[str] | None = None) -> GameRules:
        """The rules with the options in ``enabled`` on and the others off (``None``: the
        defaults).

        :raises ValueError: for an unknown option.
        """
        chosen = {o.key for o in self.options if o.default} if enabled is None else set(enabled)
        for key in chosen:
            self.option(key)
        rules = self.base_rules
        for option in self.options:
            if option.key in chosen:
                rules = option.apply(rules)
        return rules

    @property
    def base_rules(self) -> GameRules:
        """The rules with every option off."""
        return _BASES.get(self.slug, self.rules)


_BASES: dict[str, GameRules] = {}


def _variant(
    slug: str,
    name: str,
    description: str,
    base: GameRules,
    structure: Structure,
    forced_bets: ForcedBets,
    max_players: int,
    options: tuple[VariantOption, ...] = (),
) -> Variant:
    _BASES[slug] = base
    rules = base
    for option in options:
        if option.default:
            rules = option.apply(rules)
    return Variant(slug, name, description, rules, structure, forced_bets, max_players, options)


FIVE_CARD_DRAW_STEPS = (Deal(5), Bet(), Draw(), Bet(tier=BetTier.BIG))
"""Five cards, a betting round, one draw, a betting round at the big tier."""

FIVE_CARD_DRAW = GameRules("Five-card draw", FIVE_CARD_DRAW_STEPS, max_players=10)

_CATALOGUE: tuple[Variant, ...] = (
    _variant(
        "five-card-draw",
        "Five-card draw",
        "The plain home game, also called guts or California draw. Everyone antes and gets five "
        "cards face down; anyone may open the betting with any hand. Players still in then "
        "swap up to three cards (four when keeping an ace) for new ones, bet once more, and the "
        "best poker hand takes the pot. If nobody bets before the draw, the deal moves on and "
        "the antes stay for the next hand.",
        FIVE_CARD_DRAW,
        FixedLimit(2),
        ForcedBets.antes(1),
        6,
    ),
)

VARIANTS: dict[str, Variant] = {v.slug: v for v in _CATALOGUE}
"""Every variant by slug, in catalogue order."""


def get_variant(slug: str) -> Variant:
    """The variant with this slug.

    :raises ValueError: naming the slug when there is no such variant.
    """
    try:
        return VARIANTS[slug]
    except (KeyError, TypeError):
        raise ValueError(f"no game called {slug!r}") from None


def list_variants() -> tuple[Variant, ...]:
    """Every variant, in catalogue order."""
    return tuple(VARIANTS.values())
