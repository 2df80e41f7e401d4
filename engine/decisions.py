"""What the engine is waiting for: pending decisions and their legal options.

``table.pending`` is a tuple of :class:`Decision` values, usually one, several at once during
simultaneous steps (passing, declaring, arranging a rollout). Each decision's ``legal`` field
holds the options for its kind:

======================  ===============================
:class:`DecisionKind`   ``legal``
======================  ===============================
``BET``                 :class:`BetOptions`
``DRAW``                :class:`DrawOptions`
``KEEP``                :class:`KeepOptions`
``PASS``                :class:`PassOptions`
``ARRANGE``             :class:`ArrangeOptions`
``DECLARE``             :class:`DeclareOptions`
``CHOOSE_GAME``         :class:`ChooseOptions`
``SHOW``                :class:`ShowOptions`
======================  ===============================

>>> import random
>>> from engine import Table, TableConfig
>>> table = Table(TableConfig("five-card-draw"))
>>> _ = table.sit("ann", 100), table.sit("bob", 100)
>>> _ = table.start_hand(random.Random(7))
>>> decision = table.pending[0]
>>> decision.kind is DecisionKind.BET, decision.legal.can_check, decision.legal.min_to
(True, True, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine._frozen import fast_init
from engine.cards import Card
from engine.rules import Direction
from engine.wording import Phrase

__all__ = [
    "ArrangeOptions",
    "BetOptions",
    "ChooseOptions",
    "Decision",
    "DecisionKind",
    "DeclareOptions",
    "DrawOptions",
    "KeepOptions",
    "Options",
    "PassOptions",
    "ShowOptions",
]


class DecisionKind(Enum):
    """The kind of choice a player has to make."""

    BET = "bet"
    DRAW = "draw"
    KEEP = "keep"
    PASS = "pass"
    ARRANGE = "arrange"
    DECLARE = "declare"
    CHOOSE_GAME = "choose-game"
    SHOW = "show"


@fast_init
@dataclass(frozen=True, slots=True)
class BetOptions:
    """The legal betting actions of the player to act, with exact amounts.

    All ``*_to`` amounts are the player's total for the current round ("raise to").

    * ``can_check``: nothing is owed. ``to_call``: the chips a call puts in now (capped at the
      stack; 0 when checking is possible). ``call_all_in``: calling uses the whole stack.
    * ``min_to``/``max_to``: the range of a bet or raise, both ``None`` when the player may not
      bet or raise (``no_raise_reason`` says why). When the stack cannot reach the full
      minimum, both equal ``all_in_to``. In fixed limit they are equal.
    * ``all_in_to``: the round total when every chip goes in; ``can_all_in``: whether
      :class:`engine.actions.AllIn` is legal now (a call all-in, or a bet or raise within the
      limits).
    * ``is_bet``: true when nobody has bet yet in this round (the action is a bet, not a raise).
    * ``raises_left``: raises still allowed this round, ``None`` when uncapped.
    * ``current_bet``: the largest round total so far; ``player_bet``: this player's round total;
      ``pot``: every chip in the middle including this round's bets.
    """

    can_check: bool
    can_fold: bool
    to_call: int
    call_all_in: bool
    min_to: int | None
    max_to: int | None
    all_in_to: int
    can_all_in: bool
    is_bet: bool
    fixed_limit: bool
    raises_left: int | None
    current_bet: int
    player_bet: int
    pot: int
    stack: int
    no_raise_reason: str | None = None

    @property
    def can_raise(self) -> bool:
        """Whether any bet or raise is possible."""
        return self.min_to is not None

    def is_legal_to(self, to: int) -> bool:
        """Whether a bet or raise to ``to`` is legal."""
        return (
            self.min_to is not None
            and self.max_to is not None
            and (self.min_to <= to <= self.max_to)
        )

    def clamp(self, to: int) -> int | None:
        """``to`` moved into the legal bet/raise range, or ``None`` when no bet is possible."""
        if self.min_to is None or self.max_to is None:
            return None
        return max(self.min_to, min(self.max_to, to))

    def quick_amounts(self) -> tuple[tuple[str, int], ...]:
        """The shortcuts a UI offers: ``("min", to)``, ``("half pot", to)``, ``("pot", to)`` and
        ``("all-in", to)``, clamped to the legal range, duplicates dropped, in increasing order.
        Empty when no bet or raise is possible."""
        if self.min_to is None or self.max_to is None:
            return ()
        call = self.current_bet - self.player_bet
        pot_after_call = self.pot + call
        candidates = [
            ("min", self.min_to),
            ("half pot", self.current_bet + pot_after_call // 2),
            ("pot", self.current_bet + pot_after_call),
        ]
        labels: dict[int, str] = {}
        for label, to in candidates:
            amount = max(self.min_to, min(self.max_to, to))
            labels.setdefault(amount, label)
        if self.max_to == self.all_in_to:
            labels[self.all_in_to] = "all-in"
        result = sorted(((label, amount) for amount, label in labels.items()), key=lambda i: i[1])
        return tuple(result)


@fast_init
@dataclass(frozen=True, slots=True)
class DrawOptions:
    """The legal discards in a drawing round.

    * ``cards``: the player's cards.
    * ``counts``: the numbers of cards that may be discarded, in increasing order (0 = stand pat).
    * ``ace_count``: a count allowed only when the kept cards include an ace or a wild card
      (``None`` when there is no such count); ``condition`` says it in words.
    * ``extra``: cards received beyond the number discarded (four-before).
    * ``bosnian``: discarding four triggers the Bosnian exchange (a :class:`KeepOptions` choice).
    * ``ace_above``: discarding more than this many needs a card of ``unlocks`` kept (the
      player's aces and wild cards); ``None`` when no count needs one.

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("Kh Qd 7c 4s 2h")
    >>> options = DrawOptions(hand, (0, 1, 2, 3, 4), ace_count=4, ace_above=3)
    >>> options.most, options.refusal(hand[:4])
    (3, 'you may discard 4 only when keeping an ace or a wild card')
    >>> options.refusal(hand[:3]) is None
    True
    """

    cards: tuple[Card, ...]
    counts: tuple[int, ...]
    ace_count: int | None = None
    condition: str | None = None
    extra: int = 0
    bosnian: bool = False
    ace_above: int | None = None
    unlocks: tuple[Card, ...] = ()

    @property
    def most(self) -> int:
        """The most cards this hand may discard (an ace count only with an ace to keep)."""
        if self.ace_above is not None and not self.unlocks:
            return max((c for c in self.counts if c <= self.ace_above), default=0)
        return max(self.counts, default=0)

    def refusal(self, discards: tuple[Card, ...] | list[Card]) -> str | None:
        """Why discarding ``discards`` is refused, or None when it is legal (the cards are
        taken to be the player's own, each once). The draw applies this same check."""
        count = len(discards)
        if count not in self.counts:
            shown = ", ".join(str(c) for c in self.counts)
            return Phrase("you may discard {counts} cards, not {count}", counts=shown, count=count)
        needs_unlock = self.ace_above is not None and count > self.ace_above
        if needs_unlock and not any(card not in discards for card in self.unlocks):
            return Phrase(
                "you may discard {count} only when keeping an ace or a wild card", count=count
            )
        return None


@fast_init
@dataclass(frozen=True, slots=True)
class KeepOptions:
    """The Bosnian exchange: take the face-up card or the unseen face-down card as the fourth
    replacement (``engine.actions.Keep(face_up)`` or ``Keep(None)``)."""

    face_up: Card
    cards: tuple[Card, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class PassOptions:
    """Choose exactly ``count`` of ``cards`` to pass to the ``to_seat`` player."""

    cards: tuple[Card, ...]
    count: int
    to_seat: int
    direction: str


@fast_init
@dataclass(frozen=True, slots=True)
class ArrangeOptions:
    """Order ``size`` of ``cards`` for the rollout (the first is revealed first)."""

    cards: tuple[Card, ...]
    size: int


@fast_init
@dataclass(frozen=True, slots=True)
class DeclareOptions:
    """Declare one of ``directions``."""

    directions: tuple[Direction, ...] = (Direction.HIGH, Direction.LOW, Direction.BOTH)


@fast_init
@dataclass(frozen=True, slots=True)
class ChooseOptions:
    """Dealer's choice: pick one of ``slugs`` with any of ``modifiers`` (see
    :mod:`engine.modifiers`); ``default`` is dealt on a timeout."""

    slugs: tuple[str, ...]
    modifiers: tuple[str, ...]
    default: str


@fast_init
@dataclass(frozen=True, slots=True)
class ShowOptions:
    """A beaten hand at a showdown where the table lets losers muck: show ``cards`` anyway
    (``engine.actions.Show()``) or throw them away unseen (``Muck()``, also the timeout).
    ``beaten_by`` holds the seats of the shown hands that beat it."""

    cards: tuple[Card, ...]
    beaten_by: tuple[int, ...]


Options = (
    BetOptions
    | DrawOptions
    | KeepOptions
    | PassOptions
    | ArrangeOptions
    | DeclareOptions
    | ChooseOptions
    | ShowOptions
)
"""Any of the option types."""


@fast_init
@dataclass(frozen=True, slots=True)
class Decision:
    """A choice the engine is waiting for: ``player_id`` in ``seat`` must make a ``kind``
    decision among ``legal``."""

    seat: int
    player_id: str
    kind: DecisionKind
    legal: Options
