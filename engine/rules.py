"""A game's rules as plain data.

A :class:`GameRules` value describes one poker game completely enough for the engine to deal it:
which deck, how hands are ranked and how the pot is split, which cards are wild, and the
sequence of *steps* (streets) a hand goes through. The engine runs any such sequence with one
small handler per step kind (see :mod:`engine.steps`), so a new variant is a new value of
:class:`GameRules` (see :mod:`engine.variants`), not a new game loop.

Step kinds:

* :class:`Deal` -- ``count`` cards to every player, one at a time from the dealer's left.
* :class:`DealBoard` -- cards face up in the centre (spit in the ocean, the wild widow).
* :class:`Bet` -- a betting round (who starts, which limit tier, whether checking is allowed).
* :class:`Draw` -- one drawing round (discard limits, four-before's extra card, the Bosnian
  exchange).
* :class:`DrawSeries` -- repeated draw-and-bet rounds while the stub lasts (all for one).
* :class:`Pass` -- every player passes cards to a neighbour at once (anaconda).
* :class:`Arrange` and :class:`Reveal` -- the rollout: hands are put in a fixed order, then
  revealed one card at a time.
* :class:`Declare` -- simultaneous high/low/both declarations.

The showdown always follows the last step.

>>> rules = GameRules("Plain draw", (Deal(5), Bet(), Draw(), Bet()))
>>> rules.min_hand_size, rules.split
(5, <Split.HIGH: 'high'>)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from engine.cards import DECK_32, DECK_52, DECK_53, Card
from engine.hands import MOST_CARDS, Ranking
from engine.stakes import ForcedBets
from engine.wording import Phrase, RankWord

__all__ = [
    "DRAW_FIVE",
    "DRAW_FOUR",
    "DRAW_FOUR_WITH_ACE",
    "DRAW_THREE",
    "Arrange",
    "Bet",
    "BetStart",
    "BetTier",
    "Deal",
    "DealBoard",
    "DeckKind",
    "Declare",
    "Direction",
    "Draw",
    "DrawLimit",
    "DrawSeries",
    "DrawStart",
    "GameRules",
    "Pass",
    "PassDirection",
    "Requirement",
    "Reveal",
    "Split",
    "Step",
    "WildCards",
    "cards_held",
]


class DeckKind(Enum):
    """The pack a game is dealt from."""

    STANDARD = 52
    """The standard 52-card pack."""
    WITH_JOKER = 53
    """52 cards and one joker (the bug, or the fitter in ace-to-five lowball)."""
    STRIPPED = 32
    """The 32-card pack, aces down to sevens."""

    def cards(self) -> tuple[Card, ...]:
        """The cards of this pack, in a fixed order."""
        if self is DeckKind.STANDARD:
            return tuple(DECK_52)
        if self is DeckKind.WITH_JOKER:
            return tuple(DECK_53)
        return tuple(DECK_32)


class Direction(Enum):
    """A high-low declaration."""

    HIGH = "high"
    LOW = "low"
    BOTH = "both"


class PassDirection(Enum):
    """Which neighbour receives passed cards."""

    LEFT = "left"
    RIGHT = "right"


class BetTier(Enum):
    """Which size of a betting structure a round uses (see :mod:`engine.stakes`)."""

    SMALL = "small"
    """Before the draw: the small bet of fixed limit, the first range of spread limit."""
    BIG = "big"
    """After the draw: the big bet of fixed limit, the second range of spread limit."""


class BetStart(Enum):
    """Who acts first in a betting round.

    Whatever the rule, the first player is the first one still able to act at or after the
    named seat, going left.
    """

    AUTO = "auto"
    """The usual rule: in the first round left of the last blind when there are blinds, else
    left of the dealer; in rounds after a draw the opener when there was one and the table
    plays that way, else left of the dealer (as in every other later round)."""
    DEALER_LEFT = "dealer-left"
    """The player to the dealer's left."""
    AFTER_BLINDS = "after-blinds"
    """The player to the left of the last (biggest) blind."""
    OPENER = "opener"
    """The player who opened the first betting round, or the next one to the opener's left."""


class DrawStart(Enum):
    """Who draws first in a drawing round."""

    DEALER_LEFT = "dealer-left"
    """The first active player to the dealer's left (the usual rule)."""
    AFTER_BLINDS = "after-blinds"
    """The first active player to the left of the big blind (seven-card draw)."""


class Split(Enum):
    """How a pot is divided at the showdown."""

    HIGH = "high"
    """The best high hand wins."""
    LOW = "low"
    """The best low hand wins."""
    HIGH_LOW = "high-low"
    """Half to the best (qualifying) high, half to the best (qualifying) low; the odd chip goes
    high."""
    DECLARE = "declare"
    """High-low with simultaneous declarations instead of a qualifier."""


_SPLIT_HIGH, _SPLIT_LOW = Split.HIGH, Split.LOW


@dataclass(frozen=True, slots=True)
class DrawLimit:
    """How many cards a player may discard in a draw.

    ``most`` is the usual maximum; ``with_ace`` (when given) is a higher maximum allowed only when
    the cards kept include an ace or a wild card (the "four with an ace" house rule).
    """

    most: int
    with_ace: int | None = None

    def __post_init__(self) -> None:
        if self.most < 0 or (self.with_ace is not None and self.with_ace <= self.most):
            raise ValueError("a draw limit needs most >= 0 and with_ace above most")

    @property
    def label(self) -> str:
        """A short description such as ``"up to 3 (4 keeping an ace or wild card)"``."""
        if self.with_ace is None:
            return Phrase("up to {most}", most=self.most)
        return Phrase(
            "up to {most} ({with_ace} keeping an ace or wild card)",
            most=self.most,
            with_ace=self.with_ace,
        )


DRAW_THREE = DrawLimit(3)
"""Zero to three cards."""
DRAW_FOUR_WITH_ACE = DrawLimit(3, 4)
"""Zero to three cards, or four when keeping an ace or a wild card."""
DRAW_FOUR = DrawLimit(4)
"""Zero to four cards."""
DRAW_FIVE = DrawLimit(5)
"""Zero to five cards."""


_NO_CARDS: frozenset[Card] = frozenset()


@dataclass(frozen=True, slots=True)
class WildCards:
    """Which cards are wild: whole ranks (2 = deuces), individual cards (one-eyed jacks), and the
    joker (when the joker is named wild it is fully wild instead of a bug or fitter)."""

    ranks: frozenset[int] = frozenset()
    cards: frozenset[Card] = frozenset()
    joker: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranks", frozenset(self.ranks))
        object.__setattr__(self, "cards", frozenset(self.cards))
        for rank in self.ranks:
            if not 2 <= rank <= 14:
                raise ValueError(f"a wild rank must be 2..14, not {rank!r}")

    def __bool__(self) -> bool:
        return bool(self.ranks or self.cards or self.joker)

    def resolve(self, deck: Iterable[Card], extra_ranks: Iterable[int] = ()) -> frozenset[Card]:
        """The wild cards of ``deck`` under this spec plus the ranks in ``extra_ranks``."""
        if not (self.ranks or self.cards or self.joker or extra_ranks):
            return _NO_CARDS  # most games: no set to build, once a hand
        ranks = self.ranks.union(extra_ranks)
        if not ranks and not self.cards and not self.joker:
            return _NO_CARDS
        return frozenset(
            card
            for card in deck
            if (card.is_joker and self.joker)
            or (not card.is_joker and (card.rank in ranks or card in self.cards))
        )

    @property
    def count(self) -> int:
        """How many cards of a 53-card pack are wild (for the "too many wild cards" warning)."""
        return len(self.resolve(DECK_53))


@dataclass(frozen=True, slots=True)
class Requirement:
    """A minimum hand: "a pair of ``rank`` or better" (``kind == "pair"``) or "three of a kind
    or better" (``kind == "trips"``). Used to open (jacks or better) and to win (trips to win).
    """

    kind: str = "pair"
    rank: int = 11

    def __post_init__(self) -> None:
        if self.kind not in ("pair", "trips") or not 2 <= self.rank <= 14:
            raise ValueError(f"unknown hand requirement {self.kind!r} {self.rank!r}")

    @classmethod
    def pair(cls, rank: int) -> Requirement:
        """A pair of ``rank`` or better."""
        return cls("pair", rank)

    @classmethod
    def trips(cls) -> Requirement:
        """Three of a kind or better."""
        return cls("trips", 2)

    @property
    def label(self) -> str:
        """How a player would say it: ``"a pair of jacks or better"``."""
        if self.kind == "trips":
            return Phrase("three of a kind or better")
        return Phrase(
            "a pair of {rank_plural} or better", rank_plural=RankWord(self.rank, plural=True)
        )


# ---------------------------------------------------------------------------------------------
# Steps


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal ``count`` cards to every player in the hand, one at a time from the dealer's left;
    face up when ``face_up``."""

    count: int
    face_up: bool = False

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("a deal gives at least one card")


@dataclass(frozen=True, slots=True)
class DealBoard:
    """Deal ``count`` cards face up to the centre of the table.

    ``wild_rank``: every card of the board card's rank is wild from now on (spit in the ocean;
    the wild widow, whose other three cards of the rank are wild). ``plays``: the board cards
    count as cards of every player's hand at the showdown (spit in the ocean).
    """

    count: int = 1
    wild_rank: bool = True
    plays: bool = False


@dataclass(frozen=True, slots=True)
class Bet:
    """A betting round.

    * ``tier``/``scale``: which size of the betting structure applies (``scale`` multiplies it,
      e.g. the last round of Q-Ball's 1-2-2-4).
    * ``start``: who acts first (:class:`BetStart`).
    * ``checking``: when false, a player facing no bet must bet or fold (a live blind may still
      check its option).
    * ``double_min``: the minimum bet is twice the last bet of the previous betting round
      (seven-card draw).
    * ``blind``: the first player to the dealer's left posts a live blind of the round's minimum
      bet at the start of the round (the lowball half of jacks back).
    """

    tier: BetTier = BetTier.SMALL
    scale: int = 1
    start: BetStart = BetStart.AUTO
    checking: bool = True
    double_min: bool = False
    blind: bool = False


@dataclass(frozen=True, slots=True)
class Draw:
    """One drawing round: each active player in turn discards and is dealt replacements.

    * ``limit``: the :class:`DrawLimit`, or ``None`` for the table's setting.
    * ``counts``: an explicit set of allowed discard counts (all for one's 0, 1 or 5); overrides
      ``limit``.
    * ``extra``: cards received beyond the number discarded (four-before: one).
    * ``start``: who draws first (:class:`DrawStart`).
    * ``bosnian``: a player discarding four receives three cards, then one face up and one face
      down, and keeps one of the two.
    """

    limit: DrawLimit | None = None
    counts: frozenset[int] | None = None
    extra: int = 0
    start: DrawStart = DrawStart.DEALER_LEFT
    bosnian: bool = False


@dataclass(frozen=True, slots=True)
class DrawSeries:
    """All for one: drawing rounds, each followed by a betting round, for as long as the stub
    holds at least one card per active player. Each player stands pat or exchanges one card or
    all of them (``counts``), each round is begun by the first active player left of whoever
    began the previous one, and a full exchange is refused when it would leave too few cards
    for the rest of the round to exchange one each.
    """

    counts: frozenset[int] = frozenset({0, 1, 5})
    tier: BetTier = BetTier.BIG


@dataclass(frozen=True, slots=True)
class Pass:
    """Every active player picks ``count`` cards at the same time and passes them to the next
    active player in ``direction``; nobody sees what they receive before choosing."""

    count: int
    direction: PassDirection = PassDirection.LEFT


@dataclass(frozen=True, slots=True)
class Arrange:
    """Every active player privately orders ``size`` of their cards face down (the rollout);
    the order cannot change afterwards and other cards are discarded."""

    size: int = 5


@dataclass(frozen=True, slots=True)
class Reveal:
    """Turn up card number ``index`` (0-based) of every arranged hand."""

    index: int


@dataclass(frozen=True, slots=True)
class Declare:
    """Every active player declares high, low or both, secretly and at the same time."""


Step = Deal | DealBoard | Bet | Draw | DrawSeries | Pass | Arrange | Reveal | Declare
"""Any step of a game."""


def cards_held(steps: Iterable[Step]) -> int:
    """Cards each player holds once ``steps`` have dealt and drawn every card (a draw's extra
    cards come to every player, standing pat or not), before a rollout keeps five."""
    held = 0
    for step in steps:
        if isinstance(step, Deal):
            held += step.count
        elif isinstance(step, Draw):
            held += step.extra
    return held


@dataclass(frozen=True, slots=True)
class GameRules:
    """Everything the engine needs to deal one game.

    Cards and ranking:

    * ``deck``: the pack (:class:`DeckKind`).
    * ``split``: how pots are divided (:class:`Split`); ``high`` and ``low`` are the rankings used
      for high and low hands, ``low_qualifier`` the highest card a low may have to win
      (8 = "eight or better"; 14 = any hand without a pair; ``None`` = no qualifier);
      ``high_needs_pair``: a high hand needs a pair or better to win the high half (with
      ``low_qualifier=14``, the "any pair, no pair" way to qualify).
    * ``wild``: the wild cards (:class:`WildCards`).

    The hand:

    * ``steps``: the streets in order; the showdown follows the last one.
    * ``max_players``: the most players the game can be dealt to.

    Openers and special pots:

    * ``open_requirement``: the hand needed to open the first betting round (jacks or better);
      ``progressive``: after a passed-out deal it rises to queens, kings, aces, then back down;
      ``jackpot_limit``: after a passed-out deal, bets may be as large as the pot.
    * ``pass_out_on_checks``: if every player checks the first betting round (and there are no
      blinds), the deal is passed out.
    * ``switch_on_pass_out``: instead of passing out, the hand continues under these rules
      (Johnson's switch to lowball) from their first betting round, with the same cards.
    * ``win_requirement``: the hand needed to win (trips to win).
    * ``opener_must_win``: Diablo: an opener who does not win the pot builds a new pot as large,
      played for without antes (an opener gone from the table or out of chips builds none, and
      everyone antes as usual).
    * ``seven_rule``: a player holding seven-high or better who checks after the last draw
      cannot win money put in after that check (California lowball).
    * ``no_check_raise``: at fixed or spread limit (not pot limit or no limit), a player who
      checked a round after the draw may not raise in it.
    * ``forced_bets``: forced bets the game itself prescribes, used instead of the table's;
      ``None`` (every game of the catalogue) to use the table's. A game's usual forced bets
      (Q-Ball's three blinds) are its variant's recommendation for a new table instead, so
      they follow the table's stakes.
    """

    name: str
    steps: tuple[Step, ...]
    deck: DeckKind = DeckKind.STANDARD
    split: Split = Split.HIGH
    high: Ranking = Ranking.HIGH
    low: Ranking = Ranking.ACE_TO_FIVE
    low_qualifier: int | None = None
    high_needs_pair: bool = False
    wild: WildCards = field(default_factory=WildCards)
    max_players: int = 8
    open_requirement: Requirement | None = None
    progressive: bool = False
    jackpot_limit: bool = False
    pass_out_on_checks: bool = True
    switch_on_pass_out: GameRules | None = None
    win_requirement: Requirement | None = None
    opener_must_win: bool = False
    seven_rule: bool = False
    no_check_raise: bool = False
    forced_bets: ForcedBets | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(self.steps))
        problem = self.problem()
        if problem is not None:
            raise ValueError(f"{self.name}: {problem}")

    def problem(self) -> str | None:
        """Why these rules cannot be dealt, or ``None`` when they can."""
        if not self.name:
            return Phrase("a game needs a name")
        if not any(isinstance(step, Deal) for step in self.steps):
            return Phrase("a game deals at least one card")
        if not any(isinstance(step, Bet | DrawSeries) for step in self.steps):
            return Phrase("a game has at least one betting round")
        if not 2 <= self.max_players <= 10:
            return Phrase("a game is for 2 to 10 players")
        if self.min_hand_size < 5 and not self.board_plays:
            if self.min_hand_size < 3 or not self.short_hands_fit:
                return Phrase(
                    "every player must end up with at least five cards (or three or four)"
                )
            if self.deck is DeckKind.STRIPPED:
                return Phrase("the 32-card game ranks five-card hands only")
        valued = self.held_size + (self.board_cards if self.board_plays else 0)
        if valued > MOST_CARDS:
            # A hand is valued (for openers, the coach, the showdown) as a whole.
            return Phrase(
                "a player may hold at most {most} cards, not {count}",
                most=MOST_CARDS,
                count=valued,
            )
        # The extra cards of a draw come to players who stand pat too: from the pack.
        needed = self.max_players * self.held_size + self.board_cards
        if needed > self.deck.value:
            return Phrase(
                "{players} players need {needed} cards for the deal, "
                "more than the {pack} in the pack",
                players=self.max_players,
                needed=needed,
                pack=self.deck.value,
            )
        if self.split is Split.DECLARE and not any(isinstance(s, Declare) for s in self.steps):
            return Phrase("a declare game needs a Declare step")
        return None

    # -- derived facts --------------------------------------------------------------------

    @property
    def opens_with_blind(self) -> bool:
        """Whether the first betting round itself begins with a live blind (no pot to open)."""
        first = next((step for step in self.steps if isinstance(step, Bet)), None)
        return first is not None and first.blind

    @property
    def dealt_per_player(self) -> int:
        """Cards dealt to each player before any draw."""
        return sum(step.count for step in self.steps if isinstance(step, Deal))

    @property
    def min_hand_size(self) -> int:
        """Cards each player holds at the showdown, before choosing the best five."""
        size = self.dealt_per_player
        for step in self.steps:
            if isinstance(step, Draw):
                size += step.extra
            if isinstance(step, Arrange):
                size = min(size, step.size)
        return size

    @property
    def held_size(self) -> int:
        """Cards each player holds once every card is dealt and drawn, before a rollout keeps
        five of them."""
        return cards_held(self.steps)

    def draws_five(self, table_limit: DrawLimit | None = None) -> bool:
        """Whether a player can be dealt five cards or more in one draw of this game, with
        ``table_limit`` for the draws that leave the limit to the table (all for one's full
        exchange is part of its own rules and does not count)."""
        for step in self.steps:
            if not isinstance(step, Draw):
                continue
            limit = step.limit or table_limit or DRAW_FOUR_WITH_ACE
            if step.counts is not None:
                most = max(step.counts)
            else:
                most = limit.most if limit.with_ace is None else limit.with_ace
            if min(most, self.min_hand_size) + step.extra >= 5:
                return True
        return False

    @property
    def rounds_after_draw(self) -> bool:
        """Whether a betting round in the usual order follows a draw: the rounds that the
        opener begins at a table that plays that way (see ``BetStart.AUTO``)."""
        drawn = False
        for step in self.steps:
            if isinstance(step, DrawSeries):
                return True
            if isinstance(step, Draw):
                drawn = True
            elif drawn and isinstance(step, Bet) and step.start is BetStart.AUTO:
                return True
        return False

    @property
    def short_hands_fit(self) -> bool:
        """Whether a game of three- or four-card hands keeps that size to the showdown: every
        player holds the same number of cards throughout (no pass, no rollout of five)."""
        size = self.min_hand_size
        return not any(
            isinstance(step, Pass) or (isinstance(step, Arrange) and step.size != size)
            for step in self.steps
        )

    @property
    def board_cards(self) -> int:
        """Cards dealt to the centre of the table."""
        return sum(step.count for step in self.steps if isinstance(step, DealBoard))

    @property
    def board_plays(self) -> bool:
        """Whether centre cards count in every hand."""
        return any(isinstance(step, DealBoard) and step.plays for step in self.steps)

    @property
    def uses_high(self) -> bool:
        """Whether high hands can win (part of) the pot."""
        return self.split is not _SPLIT_LOW

    @property
    def uses_low(self) -> bool:
        """Whether low hands can win (part of) the pot."""
        return self.split is not _SPLIT_HIGH

    @property
    def betting_rounds(self) -> int:
        """The number of fixed betting rounds (a draw series adds a variable number)."""
        return sum(1 for step in self.steps if isinstance(step, Bet))

    @property
    def draws(self) -> int:
        """The number of drawing rounds (a draw series counts as one)."""
        return sum(1 for step in self.steps if isinstance(step, Draw | DrawSeries))

    def with_(self, **changes: object) -> GameRules:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)  # type: ignore[arg-type]
