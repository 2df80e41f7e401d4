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
from dataclasses import dataclass, replace

from engine.cards import ONE_EYED_JACKS as _ONE_EYED
from engine.hands import Ranking
from engine.modifiers import MODIFIER_KEYS, apply_modifier, apply_modifiers, rollout_steps
from engine.modifiers import game_name as _name
from engine.rules import (
    DRAW_FIVE,
    DRAW_FOUR,
    Bet,
    BetStart,
    BetTier,
    Deal,
    DealBoard,
    DeckKind,
    Declare,
    Draw,
    DrawLimit,
    DrawSeries,
    DrawStart,
    GameRules,
    Pass,
    PassDirection,
    Requirement,
    Split,
    WildCards,
)
from engine.stakes import FixedLimit, ForcedBets, NoLimit, Structure

__all__ = [
    "OPENER_FIRST",
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
        defaults). Besides the variant's own options, any modifier of
        :mod:`engine.modifiers` may be given (``"wild:13"`` for kings wild); the name then
        says so ("Five-card draw, kings wild").

        :raises ValueError: for an unknown option or one that does not fit the game.
        """
        own = {o.key: o for o in self.options}
        if enabled is None:
            chosen = [o.key for o in self.options if o.default]
        else:
            chosen = list(dict.fromkeys(enabled))
        for key in chosen:
            if key not in own and key not in MODIFIER_KEYS:
                known = ", ".join(own) or "none"
                raise ValueError(
                    f"{self.name} has no option {key!r} (its options: {known}; any modifier "
                    "of engine.modifiers also works)"
                )
        rules = self.base_rules
        for key in chosen:
            rules = own[key].apply(rules) if key in own else apply_modifier(rules, key)
        defaults = [o.key for o in self.options if o.default]
        if chosen == defaults:
            return replace(rules, name=self.rules.name)
        return apply_modifiers(rules, (), name=_name(self.rules.name, chosen)).rules

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
    if not (rules.forced_bets or forced_bets).blinds and rules.rounds_after_draw:
        description += " " + OPENER_FIRST
    return Variant(slug, name, description, rules, structure, forced_bets, max_players, options)


# The seeds differ on who begins the betting after the draw; every game where it matters says
# which way the table plays by default and which table option turns it round.
OPENER_FIRST = (
    "After the draw the opener bets first (or the next player still in on the opener's "
    "left); the table option second_round_from_opener, when off, has the first player left "
    "of the dealer begin instead."
)
"""The note that ends such a game's description (a paragraph of its own for translators)."""


def _option(key: str, label: str, description: str, default: bool = False) -> VariantOption:
    return VariantOption(key, label, description, lambda rules: apply_modifier(rules, key), default)


BUG = _option(
    "bug", "The bug", "A joker joins the pack; it counts as an ace or fills a straight or flush."
)
PROGRESSIVE = _option(
    "progressive",
    "Progressive jackpots",
    "After a deal nobody opens, the next one needs queens to open, then kings, then aces; "
    "further deals nobody opens bring it back down a step at a time to jacks. Sources differ "
    "here: with the table option progressive_back_down off, it stays at aces until someone "
    "opens.",
)
JACKPOT_LIMIT = _option(
    "jackpot-limit",
    "Jackpot limit",
    "After a deal nobody opens, bets may be as large as the pot that was carried over.",
)

_BIG = BetTier.BIG


def _draw_game(name: str, **fields: object) -> GameRules:
    steps = (Deal(5), Bet(), Draw(), Bet(tier=_BIG))
    return GameRules(name, steps, **fields)  # type: ignore[arg-type]


FIVE_CARD_DRAW = _draw_game("Five-card draw", max_players=10)
JACKS_OR_BETTER = _draw_game(
    "Jacks or better", max_players=10, open_requirement=Requirement.pair(11)
)
TRIPS_TO_WIN = _draw_game(
    "Trips to win",
    max_players=10,
    open_requirement=Requirement.pair(11),
    win_requirement=Requirement.trips(),
)
DEUCES_WILD = _draw_game(
    "Deuces wild",
    max_players=10,
    open_requirement=Requirement.pair(11),
    wild=WildCards(ranks=frozenset({2})),
)
ONE_EYED_JACKS = _draw_game("One-eyed jacks", max_players=10, wild=WildCards(cards=_ONE_EYED))
WILD_WIDOW = GameRules(
    "Wild widow",
    (Deal(4), DealBoard(wild_rank=True), Deal(1), Bet(), Draw(), Bet(tier=_BIG)),
    max_players=10,
)
DIABLO = GameRules(
    "Diablo",
    (Deal(5), Bet(), Draw(limit=DrawLimit(2)), Bet(tier=_BIG)),
    wild=WildCards(ranks=frozenset({2})),
    opener_must_win=True,
    max_players=10,
)
ALL_FOR_ONE = GameRules(
    "All for one", (Deal(5), Bet(), DrawSeries()), max_players=8, pass_out_on_checks=True
)
STRIPPED_DECK = GameRules(
    "32-card poker",
    (Deal(5), Bet(), Draw(), Bet(tier=_BIG)),
    deck=DeckKind.STRIPPED,
    high=Ranking.STRIPPED_HIGH,
    max_players=5,
)
SEVEN_CARD_DRAW = GameRules(
    "Seven-card draw",
    (
        Deal(7),
        Bet(),
        Draw(limit=DRAW_FOUR, start=DrawStart.AFTER_BLINDS),
        Bet(tier=_BIG, start=BetStart.DEALER_LEFT, double_min=True),
    ),
    max_players=6,
)

_LOWBALL_STEPS = (Deal(5), Bet(checking=False), Draw(limit=DRAW_FIVE), Bet(tier=_BIG))
CALIFORNIA_LOWBALL = GameRules(
    "California lowball",
    _LOWBALL_STEPS,
    deck=DeckKind.WITH_JOKER,
    split=Split.LOW,
    low=Ranking.ACE_TO_FIVE,
    seven_rule=True,
    no_check_raise=True,
)
KANSAS_CITY = GameRules(
    "Kansas City lowball", _LOWBALL_STEPS, split=Split.LOW, low=Ranking.DEUCE_TO_SEVEN
)
ACE_TO_SIX = GameRules(
    "Ace-to-six lowball", _LOWBALL_STEPS, split=Split.LOW, low=Ranking.ACE_TO_SIX
)
_TURNED_LOW_STEPS = (
    Deal(5),
    Bet(),
    Draw(limit=DRAW_FIVE),
    Bet(tier=_BIG, start=BetStart.DEALER_LEFT),
)
JOHNSON = GameRules(
    "Johnson",
    (Deal(5), Bet(), Draw(), Bet(tier=_BIG)),
    deck=DeckKind.WITH_JOKER,
    switch_on_pass_out=GameRules(
        "Johnson, turned to lowball",
        _TURNED_LOW_STEPS,
        deck=DeckKind.WITH_JOKER,
        split=Split.LOW,
        low=Ranking.ACE_TO_FIVE,
        seven_rule=True,
        no_check_raise=True,
    ),
)
JACKS_BACK = GameRules(
    "Jacks back",
    (Deal(5), Bet(), Draw(), Bet(tier=_BIG)),
    deck=DeckKind.WITH_JOKER,
    open_requirement=Requirement.pair(11),
    switch_on_pass_out=GameRules(
        "Jacks back, turned to lowball",
        _TURNED_LOW_STEPS,
        deck=DeckKind.WITH_JOKER,
        split=Split.LOW,
        low=Ranking.ACE_TO_FIVE,
    ),
)
CALIFORNIA_HIGH_LOW = _draw_game(
    "California high-low split",
    deck=DeckKind.WITH_JOKER,
    split=Split.HIGH_LOW,
    low=Ranking.ACE_TO_FIVE,
    low_qualifier=8,
)
HIGH_LOW_DECLARE = GameRules(
    "High-low declare",
    (Deal(5), Bet(), Draw(), Bet(tier=_BIG), Declare()),
    split=Split.DECLARE,
    low=Ranking.ACE_TO_FIVE,
)
DOUBLE_DRAW = apply_modifiers(
    CALIFORNIA_LOWBALL, ["draws:2"], name="Double-draw California lowball"
).rules
TRIPLE_DRAW = apply_modifiers(KANSAS_CITY, ["draws:3"], name="Deuce-to-seven triple draw").rules
FOUR_BEFORE = apply_modifiers(CALIFORNIA_LOWBALL, ["four-before"], name="Four-before lowball").rules
Q_BALL = GameRules(
    "Q-Ball",
    (
        Deal(3),
        Bet(checking=False),
        Deal(1),
        Bet(tier=_BIG, start=BetStart.DEALER_LEFT, checking=False),
        Deal(1),
        Bet(tier=_BIG, start=BetStart.DEALER_LEFT),
        Draw(limit=DRAW_FIVE),
        Bet(tier=_BIG, scale=2),
    ),
    deck=DeckKind.WITH_JOKER,
    split=Split.LOW,
    low=Ranking.ACE_TO_FIVE,
)
SHOTGUN = GameRules("Shotgun", (Deal(5), Bet(), Draw(), *rollout_steps()))
SKINNY_MINNIE = replace(
    SHOTGUN, name="Skinny Minnie", split=Split.HIGH_LOW, low=Ranking.ACE_TO_FIVE, low_qualifier=8
)
SPIT_IN_THE_OCEAN = GameRules(
    "Spit in the ocean",
    (Deal(4), DealBoard(wild_rank=True, plays=True), Bet(), Draw(), Bet(tier=_BIG)),
    max_players=10,
)
ANACONDA = GameRules(
    "Anaconda",
    (
        Deal(7),
        Bet(),
        Pass(3, PassDirection.LEFT),
        Bet(),
        Pass(2, PassDirection.RIGHT),
        Bet(tier=_BIG),
        Pass(1, PassDirection.LEFT),
        Bet(tier=_BIG),
    ),
    max_players=7,
    pass_out_on_checks=False,
)

_ANTE = ForcedBets.antes(1)
_BLINDS = ForcedBets.with_blinds(1, 2)
_LIMIT = FixedLimit(2)

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
        _LIMIT,
        _ANTE,
        6,
        (BUG,),
    ),
    _variant(
        "jacks-or-better",
        "Jacks or better",
        "Jackpots: five-card draw in which nobody may open the first round without a pair of "
        "jacks or better (two small pairs do too). Once someone opens, anyone may call or "
        "raise. A deal nobody opens is thrown in and everyone antes again into the same pot. "
        "An opener who breaks the openers to chase a better hand keeps the discarded ones "
        "aside, and the openers are shown when the pot is paid, even without a showdown.",
        JACKS_OR_BETTER,
        _LIMIT,
        _ANTE,
        7,
        (PROGRESSIVE, JACKPOT_LIMIT, BUG),
    ),
    _variant(
        "trips-to-win",
        "Jacks or better, trips to win",
        "Jacks or better to open, and three of a kind or better to win. A player left alone "
        "must still show trips to take the pot. When nobody holds trips after the draw, the "
        "pot stays: those who folded before the draw are out, the others ante again and play "
        "a new deal for it among themselves.",
        TRIPS_TO_WIN,
        _LIMIT,
        _ANTE,
        7,
        (PROGRESSIVE, BUG),
    ),
    _variant(
        "deuces-wild",
        "Deuces wild",
        "Jacks or better with the four deuces wild: a deuce becomes whatever card helps most, "
        "so five of a kind is possible and beats a straight flush. A deuce never copies a card "
        "already in the hand, except to make five of a kind.",
        DEUCES_WILD,
        _LIMIT,
        _ANTE,
        7,
        (PROGRESSIVE, BUG),
    ),
    _variant(
        "one-eyed-jacks",
        "One-eyed jacks",
        "Five-card draw with two wild cards: the jacks seen in profile, showing one eye (the "
        "jack of spades and the jack of hearts). Some tables add the king of diamonds, the "
        "other court card drawn in profile: that is the one-eyed king option. Any rank can be "
        "made wild too, with a table option.",
        ONE_EYED_JACKS,
        _LIMIT,
        _ANTE,
        7,
        (
            _option(
                "one-eyed-king",
                "One-eyed king",
                "The king of diamonds is wild too, making three wild cards.",
            ),
            BUG,
        ),
    ),
    _variant(
        "wild-widow",
        "Wild widow",
        "Five-card draw where the wild rank is decided during the deal: after everyone has "
        "four cards, one card goes face up in the middle, and the other three cards of its "
        "rank are wild for everybody. Then the fifth card, a betting round, the draw, a last "
        "round and the showdown.",
        WILD_WIDOW,
        _LIMIT,
        _ANTE,
        7,
        (BUG,),
    ),
    _variant(
        "diablo",
        "Diablo",
        "Deuces wild, and nobody may draw more than two cards. Whoever opens had better win: "
        "if anyone else takes the pot, the opener pays a new pot as large as the one just won, "
        "and the next deal is played for it with no antes. This goes on until an opener wins. "
        "A table may cap the size of that new pot. An opener who has left the table or has no "
        "chips left builds no pot, and everyone antes as usual for the next deal.",
        DIABLO,
        _LIMIT,
        _ANTE,
        7,
    ),
    _variant(
        "all-for-one",
        "All for one and one for all",
        "Five cards and a betting round, then round after round of drawing and betting while "
        "the stub lasts. In each drawing round a player stands pat, swaps one card, or throws "
        "in all five for a fresh hand; each round is begun by the first player still in to "
        "the left of whoever began the round before. A full swap is refused when the stub "
        "could not then give every later player one card. Every drawing round has its betting "
        "round after it; once fewer cards remain in the stub than players still in, the "
        "showdown follows. A round in which nobody swaps and nobody bets also ends it, since "
        "another one would change nothing.",
        ALL_FOR_ONE,
        _LIMIT,
        _ANTE,
        6,
    ),
    _variant(
        "32-card-poker",
        "32-card poker",
        "Five-card draw with the short pack, aces down to sevens, for up to five players. A "
        "flush beats a full house, the ace also plays below the seven in a straight (A-7-8-9-10), "
        "and otherwise equal hands are settled by the suit of their best card: hearts, then "
        "diamonds, clubs, spades. With the Bosnian exchange, a player drawing four gets three "
        "cards, then one face up and one face down, and keeps one of those two; keeping the "
        "face-up card sends the face-down one to the discards unseen, even by that player.",
        STRIPPED_DECK,
        _LIMIT,
        _ANTE,
        4,
        (_option("bosnian", "Bosnian exchange", "The Bosnian choice on a four-card draw."),),
    ),
    _variant(
        "seven-card-draw",
        "Seven-card draw",
        "Seven cards each after a small and a big blind. The first round starts left of the "
        "big blind, then each player, from the left of the big blind, may swap up to four "
        "cards. In the second round, led from the dealer's left, a bet must be at least twice "
        "the last bet of the first round. The best five of the seven cards win. Best for four "
        "players; six can play.",
        SEVEN_CARD_DRAW,
        NoLimit(2),
        _BLINDS,
        4,
    ),
    _variant(
        "california-lowball",
        "California lowball",
        "The lowest hand wins, counted ace-to-five: straights and flushes do not count, so "
        "5-4-3-2-A is the best hand. A joker in the pack fills in as the lowest card the hand "
        "is missing. Blinds instead of antes, no checking before the draw, and two house "
        "rules: whoever checks a seven-high or better after the draw cannot win what is bet "
        "after that check, and at fixed or spread limit a player who checks after the draw "
        "may not raise in that round.",
        CALIFORNIA_LOWBALL,
        _LIMIT,
        _BLINDS,
        8,
    ),
    _variant(
        "kansas-city-lowball",
        "Kansas City lowball",
        "Deuce-to-seven lowball with one draw: aces are high, straights and flushes count "
        "against you, and 7-5-4-3-2 of mixed suits is the best hand. No joker and no special "
        "house rules.",
        KANSAS_CITY,
        _LIMIT,
        _BLINDS,
        8,
    ),
    _variant(
        "ace-to-six-lowball",
        "Ace-to-six lowball",
        "Lowball as played in the eastern United States and Britain: aces are low, but "
        "straights and flushes count against you, so 6-4-3-2-A is the best hand.",
        ACE_TO_SIX,
        _LIMIT,
        _BLINDS,
        8,
    ),
    _variant(
        "johnson",
        "Johnson",
        "Antes and five cards, with a joker. Anyone may open the first round with anything, "
        "and then it is five-card draw for high, the joker playing as the bug. If nobody "
        "opens, the players keep their cards and the game turns into California lowball: the "
        "player on the dealer's left may open again, now for low. If that round is passed too, "
        "everyone antes and a new deal follows.",
        JOHNSON,
        _LIMIT,
        _ANTE,
        6,
    ),
    _variant(
        "jacks-back",
        "Jacks back",
        "Johnson with jacks or better needed to open the high round. If nobody opens, the same "
        "cards are played for low, from the dealer's left; if that is passed too, the cards "
        "are thrown in. Optional: the player left of the dealer posts a blind when the game "
        "turns to lowball, and the seven rule and no check-raise apply to the lowball part.",
        JACKS_BACK,
        _LIMIT,
        _ANTE,
        5,
        (
            _option(
                "lowball-blind",
                "Blind in the lowball round",
                "When the game turns to lowball the player left of the dealer posts a blind.",
            ),
            _option("seven-rule", "Seven rule", "California lowball's seven rule when low."),
            _option(
                "no-check-raise",
                "No check-raise",
                "No check-raise after the draw in the lowball part, at fixed or spread limit.",
            ),
        ),
    ),
    _variant(
        "california-high-low",
        "California high-low split",
        "Five-card draw with a joker in which the best high hand and the best ace-to-five low "
        "share the pot. A low needs eight-high or better; if nobody has one, high takes it "
        "all. Cards speak, and one hand can win both ways (a wheel is a straight and the best "
        "low). An odd chip goes to the high half.",
        CALIFORNIA_HIGH_LOW,
        _LIMIT,
        _ANTE,
        8,
    ),
    _variant(
        "high-low-declare",
        "High-low declare",
        "After the last betting round everyone still in declares, secretly and at once, for "
        "high, low or both. High hands compete among those who declared high (or both), low "
        "hands among those who declared low (or both), with no qualifier. If nobody declares "
        "one way, the whole pot goes the other way. Declaring both means winning both outright "
        "with no tie, or winning nothing.",
        HIGH_LOW_DECLARE,
        _LIMIT,
        _ANTE,
        8,
        (
            _option("low:27", "Deuce-to-seven lows", "Lows counted deuce-to-seven."),
            _option("low:a6", "Ace-to-six lows", "Lows counted ace-to-six."),
        ),
    ),
    _variant(
        "double-draw-lowball",
        "Double-draw California lowball",
        "California lowball with two draws and three betting rounds: more chances to make a "
        "smooth low, and more rounds to bet it.",
        DOUBLE_DRAW,
        _LIMIT,
        _BLINDS,
        6,
    ),
    _variant(
        "triple-draw-27",
        "Deuce-to-seven triple draw",
        "Deuce-to-seven lowball with three draws and four betting rounds, at fixed limit: the "
        "small bet in the first two rounds and the big bet in the last two.",
        TRIPLE_DRAW,
        _LIMIT,
        _BLINDS,
        6,
    ),
    _variant(
        "four-before",
        "Four-before lowball",
        "Lowball in which everyone is dealt four cards. After the first betting round each "
        "player draws one card more than they discard, making five, so nobody starts with a "
        "complete hand. Then the last round and the showdown.",
        FOUR_BEFORE,
        _LIMIT,
        _BLINDS,
        8,
    ),
    _variant(
        "q-ball",
        "Q-Ball",
        "Ace-to-five lowball with a joker and three blinds: one from the dealer, one from the "
        "next player, two from the one after. Three cards each and a round with no checking, "
        "a fourth card and another round in which the first player must open or fold, a fifth "
        "card and a round where checking is allowed, then a draw and a final round. Best at "
        "fixed limit 1-2-2-4.",
        Q_BALL,
        FixedLimit(1, 2),
        ForcedBets(blinds=(1, 1, 2), blinds_from_dealer=True),
        6,
    ),
    _variant(
        "shotgun",
        "Shotgun (roll 'em out)",
        "Five cards, a betting round and a draw, then a rollout: each player lays the five "
        "cards face down in an order that cannot change, and the first card of every hand is "
        "turned up, followed by a betting round; then the second card, the third and the "
        "fourth, each with its own round, before the showdown. Played for high here; low and "
        "high-low are table options.",
        SHOTGUN,
        _LIMIT,
        _ANTE,
        7,
        (
            _option("low:a5", "For low", "Play the rollout for ace-to-five low."),
            _option("hilo:8", "High-low", "Split high and low, eight or better for low."),
        ),
    ),
    _variant(
        "skinny-minnie",
        "Skinny Minnie",
        "Shotgun played high-low: the rollout decides both halves, and a low needs eight or "
        "better. With the declare option, players declare instead of needing a qualifier.",
        SKINNY_MINNIE,
        _LIMIT,
        _ANTE,
        7,
        (_option("declare", "Declare", "Declare high, low or both instead of a qualifier."),),
    ),
    _variant(
        "spit-in-the-ocean",
        "Spit in the ocean",
        "Four cards each and one card face up in the middle that counts as the fifth card of "
        "every hand. That card, and every card of its rank, is wild. A betting round, a draw "
        "that keeps hands at four cards, a last round and the showdown, for high.",
        SPIT_IN_THE_OCEAN,
        _LIMIT,
        _ANTE,
        7,
    ),
    _variant(
        "anaconda",
        "Anaconda (pass the trash)",
        "Seven cards each. After a betting round, everyone picks three cards to pass to the "
        "left, all at once and before seeing what comes from the right; another round, then "
        "two cards to the right, another round, one card to the left, and a last round. The "
        "best five of the seven cards win. Tables may drop the first betting round or finish "
        "with a rollout.",
        ANACONDA,
        _LIMIT,
        _ANTE,
        6,
        (
            _option("no-first-round", "No first round", "No betting before the first pass."),
            _option("rollout", "Rollout", "Finish with a rollout of five of the seven cards."),
        ),
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
