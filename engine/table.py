"""A poker table: seats, stacks, the dealer button, and the hands played at it.

>>> import random
>>> from engine.table import Table, TableConfig
>>> table = Table(TableConfig("five-card-draw"))
>>> table.sit("alice", 100)
0
>>> table.sit("bob", 100)
1
>>> table.can_start() is None
True
>>> _ = table.start_hand(random.Random(1))
>>> [d.player_id for d in table.pending]
['alice']

A table is between hands until :meth:`Table.start_hand` is called and again once the hand is
over. Chips are conserved: the stacks, the chips in the middle and the chips carried over from
earlier deals always add up to the same total, except when players sit down, leave or add
chips.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine import events as ev
from engine.actions import (
    Action,
    AllIn,
    Call,
    Check,
    ChooseGame,
    Fold,
    Muck,
    Show,
    Timeout,
    action_from_dict,
    action_to_dict,
)
from engine.cards import Card, parse_card, permuted
from engine.decisions import ChooseOptions, Decision, DecisionKind
from engine.errors import IllegalAction, TableError, reason_of
from engine.game import Hand, HandOptions, HandSetup, Player
from engine.pots import build_pots, split_amount
from engine.rules import Draw, DrawLimit, GameRules, Requirement, Split
from engine.scoring import qualifies_low
from engine.stakes import (
    FixedLimit,
    ForcedBets,
    NoLimit,
    PotLimit,
    SpreadLimit,
    Structure,
    structure_kind,
    structure_name,
)
from engine.views import LastAction, PotView, PrivateView, PublicView, SeatView
from engine.wording import Phrase, english

__all__ = ["NEWCOMER_RULES", "Table", "TableConfig", "TableOptions"]

NEWCOMER_RULES = ("play", "wait", "post")
"""The values of :attr:`TableOptions.newcomers`."""

_PROGRESSIVE = (11, 12, 13, 14, 13, 12)
_PROGRESSIVE_TO_ACES = (11, 12, 13, 14)
_RULES_CACHE: dict[tuple[str, tuple[str, ...] | None], GameRules] = {}
_Derived = tuple[int, tuple[Structure, ForcedBets], HandOptions, GameRules]
_DERIVED: dict[TableConfig, _Derived] = {}
# The same, by the identity of the configuration object (a bot reuses one per table, and
# hashing a configuration hashes every nested value): id -> (config, derived). Holding the
# config keeps its id from being reused while the entry lives.
_DERIVED_BY_ID: dict[int, tuple[TableConfig, _Derived]] = {}


@dataclass(frozen=True, slots=True)
class TableOptions:
    """House rules a table chooses.

    * ``pass_out_reante``: after a passed-out deal everyone antes again into the pot that stays
      (when false, the next deal is played for the same pot without new antes).
    * ``pass_out_deal_passes``: after a passed-out deal the deal passes left (when false, the
      same dealer deals again).
    * ``second_round_from_opener``: betting after a draw starts with the opener (or the next
      active player to the opener's left) in games without blinds; when false, with the first
      active player to the dealer's left. Rounds that follow no draw (anaconda's, after a
      pass) start at the dealer's left either way.
    * ``draw_limit``: how many cards a player may draw where the game leaves it to the table
      (``None``: three, or four when keeping an ace or a wild card).
    * ``diablo_cap``: the most a Diablo opener must put in a new pot (``None``: no cap).
    * ``newcomers``: how a player who sits down after the game has begun joins it:
      ``"play"`` (dealt into the next hand), ``"wait"`` (waits, seated, until the deal comes
      round to their seat, then deals and plays) or ``"post"`` (dealt into the next hand after
      putting a dead blind of the big blind, or of the smallest bet, in the pot). ``None``:
      ``"wait"`` under dealer's edge, ``"play"`` otherwise.
    * ``progressive_back_down``: with progressive jackpots, once aces were needed the
      requirement comes back down a step after each further deal nobody opens (kings,
      queens, jacks, then up again); when false it stays at aces until someone opens. Both
      are played at home tables.
    * ``no_five_in_a_row``: the casino rule that nobody is dealt five consecutive cards from
      the deck: a player drawing five (in a game that allows it) gets four in turn, and the
      fifth once the others have drawn, after a burn card if nobody drew in between.
    * ``muck_losers``: at the showdown, a player whose hand is already beaten by a hand face up
      (in every pot it could win) may muck it instead of showing it; the opener still shows.
      Off by default: every hand still in is shown and the cards speak.
    * ``blind_off_absent``: the tournament rule for a player sitting out: still dealt in, so
      their antes and blinds go in the pot, and their hand is folded at its first decision
      (checked through when folding is not allowed). Off: a player sitting out is not dealt.
    """

    pass_out_reante: bool = True
    pass_out_deal_passes: bool = True
    second_round_from_opener: bool = True
    draw_limit: DrawLimit | None = None
    diablo_cap: int | None = None
    newcomers: str | None = None
    no_five_in_a_row: bool = False
    progressive_back_down: bool = True
    muck_losers: bool = False
    blind_off_absent: bool = False

    def __post_init__(self) -> None:
        if self.newcomers is not None and self.newcomers not in NEWCOMER_RULES:
            known = ", ".join(NEWCOMER_RULES)
            raise ValueError(f"newcomers must be one of {known}, not {self.newcomers!r}")
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise ValueError(f"{f.name} is true or false, not {getattr(self, f.name)!r}")
        cap = self.diablo_cap
        if cap is not None and (cap.__class__ is not int or cap < 1):
            raise ValueError(f"diablo_cap must be a whole number of chips >= 1, not {cap!r}")
        if self.draw_limit is not None and not isinstance(self.draw_limit, DrawLimit):
            raise ValueError(f"draw_limit must be a DrawLimit, not {self.draw_limit!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        limit = self.draw_limit
        return {
            "pass_out_reante": self.pass_out_reante,
            "pass_out_deal_passes": self.pass_out_deal_passes,
            "second_round_from_opener": self.second_round_from_opener,
            "draw_limit": None if limit is None else [limit.most, limit.with_ace],
            "diablo_cap": self.diablo_cap,
            "newcomers": self.newcomers,
            "no_five_in_a_row": self.no_five_in_a_row,
            "progressive_back_down": self.progressive_back_down,
            "muck_losers": self.muck_losers,
            "blind_off_absent": self.blind_off_absent,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableOptions:
        """The options described by :meth:`to_dict`'s output."""
        limit = data.get("draw_limit")
        return cls(
            pass_out_reante=bool(data.get("pass_out_reante", True)),
            pass_out_deal_passes=bool(data.get("pass_out_deal_passes", True)),
            second_round_from_opener=bool(data.get("second_round_from_opener", True)),
            draw_limit=None if limit is None else DrawLimit(limit[0], limit[1]),
            diablo_cap=data.get("diablo_cap"),
            newcomers=data.get("newcomers"),
            no_five_in_a_row=bool(data.get("no_five_in_a_row", False)),
            progressive_back_down=bool(data.get("progressive_back_down", True)),
            muck_losers=bool(data.get("muck_losers", False)),
            blind_off_absent=bool(data.get("blind_off_absent", False)),
        )


def structure_to_dict(structure: Structure) -> dict[str, Any]:
    """A JSON-friendly form of a betting structure (``type``: its name, see
    :data:`engine.stakes.STRUCTURE_NAMES`)."""
    kind = structure_kind(structure)
    if isinstance(structure, FixedLimit):
        return {
            "type": kind,
            "small_bet": structure.small_bet,
            "big_bet": structure.big_bet,
            "max_raises": structure.max_raises,
        }
    if isinstance(structure, SpreadLimit):
        return {
            "type": kind,
            "min_bet": structure.min_bet,
            "max_bet": structure.max_bet,
            "min_bet_after": structure.min_bet_after,
            "max_bet_after": structure.max_bet_after,
            "max_raises": structure.max_raises,
        }
    return {"type": kind, "min_bet": structure.min_bet}


def structure_from_dict(data: dict[str, Any]) -> Structure:
    """The structure described by :func:`structure_to_dict`'s output (also under the older
    names ``fixed``, ``spread`` and ``pot`` of saved tables)."""
    kind = structure_name(data["type"])
    if kind == "fixed-limit":
        return FixedLimit(data["small_bet"], data["big_bet"], data["max_raises"])
    if kind == "spread-limit":
        return SpreadLimit(
            data["min_bet"],
            data["max_bet"],
            data["min_bet_after"],
            data["max_bet_after"],
            data["max_raises"],
        )
    if kind == "pot-limit":
        return PotLimit(data["min_bet"])
    return NoLimit(data["min_bet"])


def forced_to_dict(forced: ForcedBets) -> dict[str, Any]:
    """A JSON-friendly form of forced bets."""
    return {
        "ante": forced.ante,
        "blinds": list(forced.blinds),
        "dealer_edge": forced.dealer_edge,
        "blinds_from_dealer": forced.blinds_from_dealer,
    }


def forced_from_dict(data: dict[str, Any]) -> ForcedBets:
    """The forced bets described by :func:`forced_to_dict`'s output."""
    return ForcedBets(
        ante=data["ante"],
        blinds=tuple(data["blinds"]),
        dealer_edge=data["dealer_edge"],
        blinds_from_dealer=data["blinds_from_dealer"],
    )


@dataclass(frozen=True, slots=True)
class TableConfig:
    """How a table plays.

    * ``variant``: the slug of a game in :mod:`engine.variants`; ``variant_options``: the
      variant's optional rules switched on (``None``: the variant's defaults).
    * ``structure``/``forced_bets``: the stakes (``None``: the variant's recommendation).
      A game that prescribes its own forced bets (Q-Ball's blinds) uses those.
    * ``max_seats``: 2 to 10 (``None``: the variant's recommended number); never more than the
      game can deal to.
    * ``options``: house rules (:class:`TableOptions`).
    * ``dealers_choice``: before each deal the dealer picks the game from the catalogue,
      with modifiers (see :mod:`engine.modifiers`); ``variant`` and ``variant_options`` are
      then the default game, dealt when the dealer does not choose in time.
    """

    variant: str = "five-card-draw"
    structure: Structure | None = None
    forced_bets: ForcedBets | None = None
    max_seats: int | None = None
    variant_options: tuple[str, ...] | None = None
    options: TableOptions = field(default_factory=TableOptions)
    dealers_choice: bool = False

    def __post_init__(self) -> None:
        from engine.variants import get_variant

        variant = get_variant(self.variant)
        if self.variant_options is not None:
            object.__setattr__(self, "variant_options", tuple(self.variant_options))
        rules = self.rules()
        if self.max_seats is not None and not 2 <= self.max_seats <= rules.max_players:
            raise ValueError(
                f"{variant.name} seats 2 to {rules.max_players} players, not {self.max_seats}"
            )

    def rules(self) -> GameRules:
        """The game's rules with the chosen options."""
        key = (self.variant, self.variant_options)
        rules = _RULES_CACHE.get(key)
        if rules is None:
            from engine.variants import get_variant

            rules = get_variant(self.variant).build(self.variant_options)
            _RULES_CACHE[key] = rules
        return rules

    @property
    def seats(self) -> int:
        """The number of seats."""
        from engine.variants import get_variant

        if self.max_seats is not None:
            return self.max_seats
        return min(get_variant(self.variant).max_players, self.rules().max_players)

    @property
    def stakes(self) -> tuple[Structure, ForcedBets]:
        """The betting structure and forced bets in force."""
        from engine.variants import get_variant

        variant = get_variant(self.variant)
        return (
            self.structure if self.structure is not None else variant.structure,
            self.forced_bets if self.forced_bets is not None else variant.forced_bets,
        )

    def rules_notes(self) -> tuple[str, ...]:
        """Where the seeds offer two ways and this table's options pick one: a sentence for
        each that concerns this game, naming the table option that picks the other way (for
        the game's rules page)."""
        rules = self.rules()
        notes: list[str] = []
        forced = rules.forced_bets or self.stakes[1]
        options = self.options
        if not forced.blinds and rules.rounds_after_draw:
            if options.second_round_from_opener:
                notes.append(
                    Phrase(
                        "After the draw the opener bets first (or the next player still in to the "
                        "opener's left); switching off second_round_from_opener starts with the "
                        "player to the dealer's left."
                    )
                )
            else:
                notes.append(
                    Phrase(
                        "After the draw the first player still in to the dealer's left bets "
                        "first; second_round_from_opener makes the opener begin instead."
                    )
                )
        if rules.progressive:
            if options.progressive_back_down:
                notes.append(
                    Phrase(
                        "Progressive openers climb to aces, then step back down to jacks while "
                        "nobody opens; switching off progressive_back_down keeps aces until "
                        "someone opens."
                    )
                )
            else:
                notes.append(
                    Phrase(
                        "Progressive openers climb to aces and stay there until someone opens; "
                        "progressive_back_down brings them back down a step at a time."
                    )
                )
        return tuple(notes)

    def applicable_options(self) -> tuple[str, ...]:
        """The :class:`TableOptions` fields that change anything in this table's game (a
        settings screen can hide the others). Under dealer's choice every game may be dealt,
        so every option counts."""
        names = [f.name for f in fields(TableOptions)]
        if self.dealers_choice:
            return tuple(names)
        rules = self.rules()
        forced = rules.forced_bets or self.stakes[1]
        games = [rules] if rules.switch_on_pass_out is None else [rules, rules.switch_on_pass_out]
        # A blind is a bet: with blinds nobody can pass a deal out.
        passes_out = not forced.blinds and any(g.pass_out_on_checks for g in games)
        applies = {
            "pass_out_reante": passes_out,
            "pass_out_deal_passes": passes_out,
            "second_round_from_opener": not forced.blinds
            and any(g.rounds_after_draw for g in games),
            "draw_limit": any(
                isinstance(step, Draw) and step.limit is None and step.counts is None
                for g in games
                for step in g.steps
            ),
            "diablo_cap": rules.opener_must_win,
            "newcomers": True,
            "no_five_in_a_row": any(g.draws_five(self.options.draw_limit) for g in games),
            "progressive_back_down": rules.progressive,
        }
        return tuple(name for name in names if applies.get(name, True))

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "variant": self.variant,
            "structure": None if self.structure is None else structure_to_dict(self.structure),
            "forced_bets": None if self.forced_bets is None else forced_to_dict(self.forced_bets),
            "max_seats": self.max_seats,
            "variant_options": None if self.variant_options is None else list(self.variant_options),
            "options": self.options.to_dict(),
            "dealers_choice": self.dealers_choice,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        """The configuration described by :meth:`to_dict`'s output."""
        structure = data.get("structure")
        forced = data.get("forced_bets")
        options = data.get("variant_options")
        return cls(
            variant=data["variant"],
            structure=None if structure is None else structure_from_dict(structure),
            forced_bets=None if forced is None else forced_from_dict(forced),
            max_seats=data.get("max_seats"),
            variant_options=None if options is None else tuple(options),
            options=TableOptions.from_dict(data.get("options", {})),
            dealers_choice=bool(data.get("dealers_choice", False)),
        )


_PACKS: dict[object, frozenset[Card]] = {}


def _imperfect(rules: GameRules, deck: Sequence[Card]) -> str | None:
    """What is wrong with ``deck`` as the pack of ``rules`` (``None`` when it is exactly that
    pack): a deal restored from an old or damaged record can be."""
    kind = rules.deck
    pack = _PACKS.get(kind)
    if pack is None:
        pack = _PACKS[kind] = frozenset(kind.cards())
    if len(deck) == len(pack) and pack == frozenset(deck):
        return None
    if len(set(deck)) != len(deck):
        return Phrase("a card appears twice in the pack")
    if not pack.issuperset(deck):
        return Phrase("the pack holds cards that are not in the {size}-card pack", size=len(pack))
    return Phrase("the pack has {count} cards instead of {size}", count=len(deck), size=len(pack))


def _derive(config: TableConfig) -> _Derived:
    """What a table derives from its configuration (cached: configurations are immutable)."""
    derived = _DERIVED.get(config)
    if derived is None:
        options = config.options
        derived = _DERIVED[config] = (
            config.seats,
            config.stakes,
            HandOptions(
                second_round_from_opener=options.second_round_from_opener,
                draw_limit=options.draw_limit,
                diablo_cap=options.diablo_cap,
                no_five_in_a_row=options.no_five_in_a_row,
                muck_losers=options.muck_losers,
            ),
            config.rules(),
        )
    return derived


class _Seat:
    __slots__ = ("joining", "leaving", "player_id", "sitting_out", "stack")

    def __init__(self, player_id: str, stack: int) -> None:
        self.player_id = player_id
        self.stack = stack
        self.sitting_out = False
        self.leaving = False
        # A newcomer not dealt in yet: "wait" (for the deal to reach the seat) or "post".
        self.joining: str | None = None


_NOBODY: frozenset[str] = frozenset()
_SHARED_ACTIONS: dict[type, Action] = {
    cls: cls() for cls in (Fold, Check, Call, AllIn, Show, Muck, Timeout)
}


def _check_chips(amount: int, refusal: str) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise TableError(refusal, amount=repr(amount))


class Table:
    """A table (see the module docstring and :mod:`engine` for the whole interface)."""

    def __init__(self, config: TableConfig | None = None) -> None:
        self.config = config = config if config is not None else TableConfig()
        known = _DERIVED_BY_ID.get(id(config))
        if known is not None and known[0] is config:
            derived = known[1]
        else:
            derived = _derive(config)
            if len(_DERIVED_BY_ID) >= 256:
                _DERIVED_BY_ID.clear()
            _DERIVED_BY_ID[id(config)] = (config, derived)
        seats, self._stakes, self._hand_options, self._rules = derived
        self._pack = self._rules.deck.cards()
        self.seats: list[_Seat | None] = [None] * seats
        self.button: int | None = None
        self.hand_number = 0
        self.hand: Hand | None = None
        # What carries from one deal to the next.
        self.carried = 0
        self.carry_reason = ""
        # Who put the carried chips in, and how many each (see :attr:`carried_stakes`).
        self._shares: dict[str, int] = {}
        self.reante = True
        self.deal_passes = True
        self.restricted: tuple[str, ...] | None = None
        self.open_level = 0
        self.jackpot_cap: int | None = None
        self.diablo: tuple[str, int] | None = None
        self.payouts: dict[str, int] = {}
        # Dealer's choice: the pending choice (dealer's seat, deck and reshuffle seeds, preset
        # deck, players), the game of the current hand (slug, modifiers, chooser's seat), and a
        # Diablo game that goes on until its opener wins.
        self._choosing: tuple[int, tuple[int, int], tuple[Card, ...] | None, list[int]] | None = (
            None
        )
        # A misdeal found before the dealer chose again, told with the deal that follows.
        self._misdeal: ev.Misdeal | None = None
        self._current_choice: tuple[str, tuple[str, ...], int] | None = None
        self.dc_lock: tuple[str, tuple[str, ...], int] | None = None
        # Persistence: the state when the current hand began, and the operations since.
        # (The state is kept as :meth:`_snapshot` takes it, and made a dict when asked for.)
        self._base: tuple[Any, ...] | None = None
        self._journal: list[tuple[Any, ...]] = []
        # Players dealt in while sitting out (``blind_off_absent``): folded by the table. Set
        # at each deal from the seats, so a replayed snapshot folds the same hands.
        self._absent: frozenset[str] = frozenset()
        # House rules changed during a hand: in force from the next deal.
        self._pending_options: TableOptions | None = None

    # -- seats ----------------------------------------------------------------------------------

    def _seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.player_id == player_id:
                return index
        return None

    def seat_of(self, player_id: str) -> int:
        """The seat of ``player_id``.

        :raises TableError: if the player is not seated.
        """
        index = self._seat_of(player_id)
        if index is None:
            raise TableError("{player} is not seated at this table", player=player_id)
        return index

    @property
    def in_hand(self) -> bool:
        """Whether a hand is in progress (including a dealer choosing the game)."""
        return self._choosing is not None or (self.hand is not None and not self.hand.over)

    def _mutate(self, op: tuple[Any, ...]) -> None:
        """Record a table operation for persistence (see :meth:`to_dict`)."""
        hand = self.hand
        if self._choosing is not None or (hand is not None and not hand.over):
            self._journal.append(op)
        elif self._base is not None or self._journal:
            self._base = None
            self._journal = []

    def sit(self, player_id: str, stack: int, seat: int | None = None) -> int:
        """Seat ``player_id`` with ``stack`` chips, in ``seat`` or the first free seat; returns
        the seat. A player seated during a hand is dealt in from the next hand.

        :raises TableError: if the player is already seated, the seat is taken or does not
            exist, the table is full, or the stack is not a positive number of chips.
        """
        if not isinstance(player_id, str) or not player_id:
            raise TableError("a player id must be a non-empty string")
        if stack.__class__ is not int or stack <= 0:
            _check_chips(
                stack, english("the stack must be a positive whole number of chips, not {amount}")
            )
        seats = self.seats
        for s in seats:
            if s is not None and s.player_id == player_id:
                if s.leaving:  # left during the hand: the seat is theirs until it ends
                    raise TableError(
                        "{player} is standing up when this hand ends", player=player_id
                    )
                raise TableError("{player} is already seated", player=player_id)
        if seat is None:
            try:
                seat = seats.index(None)
            except ValueError:
                raise TableError("the table is full") from None
        elif (
            isinstance(seat, bool) or not isinstance(seat, int) or not (0 <= seat < len(self.seats))
        ):
            raise TableError(
                "there is no seat {seat} (seats are 0 to {last})",
                seat=repr(seat),
                last=len(self.seats) - 1,
            )
        elif self.seats[seat] is not None:
            raise TableError("that seat is taken")
        if self.hand is not None or self._choosing is not None or self._base or self._journal:
            self._mutate(("sit", player_id, stack, seat))  # (a fresh table has nothing to note)
        new = self.seats[seat] = _Seat(player_id, stack)
        if self.hand_number > 0:
            rule = self.newcomer_rule
            if rule != "play":
                new.joining = rule
        return seat

    @property
    def newcomer_rule(self) -> str:
        """How a player seated after the first deal joins (see :class:`TableOptions`)."""
        rule = self.config.options.newcomers
        if rule is not None:
            return rule
        forced = self._rules.forced_bets or self._stakes[1]
        return "wait" if forced.dealer_edge else "play"

    def leave(self, player_id: str) -> int | None:
        """``player_id`` stands up. Between hands (or when not dealt in) the stack is returned
        now. During a hand the player's hand is folded (unless all-in) and ``None`` is returned:
        the stack is paid out when the hand ends (see :meth:`take_payouts`).

        :raises TableError: if the player is not seated.
        """
        index = self.seat_of(player_id)
        seat = self.seats[index]
        assert seat is not None
        if self._choosing is not None:
            if self._choosing[0] == index:
                # The dealer leaves while choosing: the table's default game is dealt first.
                self._choose(index, Timeout())
            else:
                self._mutate(("leave", player_id))
                self._shares.pop(player_id, None)
                players = [s for s in self._choosing[3] if s != index]
                self._choosing = (*self._choosing[:3], players)
                self.seats[index] = None
                if len(players) < 2:
                    self._choosing = None
                    self._base = None
                    self._journal = []
                return seat.stack
        hand = self.hand
        if hand is not None and not hand.over and player_id in hand.by_pid:
            if seat.leaving:
                return None
            self._mutate(("leave", player_id))
            seat.leaving = True
            hand.leave(hand.by_pid[player_id])
            if hand.over:
                self._hand_over()
            return None
        self._mutate(("leave", player_id))
        self.seats[index] = None
        # Leaving gives up a share of the carried pot, as folding would: it stays in the pot.
        self._shares.pop(player_id, None)
        if self.restricted is not None:
            self.restricted = tuple(p for p in self.restricted if p != player_id)
        return seat.stack

    def take_payouts(self) -> dict[str, int]:
        """Stacks of players who left during a hand, paid out once that hand ended (and
        cleared by this call)."""
        payouts = self.payouts
        if payouts:
            self._mutate(("take_payouts",))
        self.payouts = {}
        return payouts

    def sit_out(self, player_id: str) -> None:
        """``player_id`` keeps the seat but is not dealt in from the next hand.

        :raises TableError: if the player is not seated, or stands up when this hand ends.
        """
        self._refuse_leaving(player_id)
        self._sit_out(player_id, True)

    def sit_in(self, player_id: str) -> None:
        """``player_id`` is dealt in again from the next hand.

        :raises TableError: if the player is not seated, or stands up when this hand ends.
        """
        self._refuse_leaving(player_id)
        self._sit_out(player_id, False)

    def may_sit_out_or_in(self, player_id: str) -> bool:
        """Whether :meth:`sit_out` and :meth:`sit_in` are open to ``player_id`` now: a seated
        player, unless they left during the hand (no next hand here to sit in or out of).

        :raises TableError: if the player is not seated.
        """
        seat = self.seats[self.seat_of(player_id)]
        return seat is not None and not seat.leaving

    def _refuse_leaving(self, player_id: str) -> None:
        """A player who left during the hand has no next hand to sit in or out of here."""
        if not self.may_sit_out_or_in(player_id):
            raise TableError("{player} is standing up when this hand ends", player=player_id)

    def _sit_out(self, player_id: str, out: bool) -> None:
        """Sit out or back in, unchecked: also replayed from snapshots written before a
        leaving player was refused (the flag goes with the seat at the hand's end)."""
        seat = self.seats[self.seat_of(player_id)]
        assert seat is not None
        self._mutate(("sit_out" if out else "sit_in", player_id))
        seat.sitting_out = out

    @property
    def pending_options(self) -> TableOptions | None:
        """House rules chosen during the hand in progress, in force from the next deal."""
        return self._pending_options

    @property
    def current_rules(self) -> GameRules:
        """The rules of the hand being dealt, or of the next hand between hands: public
        knowledge at the table (a dealer's choice table plays the chosen game while its hand
        lasts)."""
        hand = self.hand
        if hand is not None and not hand.over:
            return hand.rules
        return self.config.rules()

    @property
    def next_options(self) -> TableOptions:
        """The house rules the next deal is played under: a change waiting for it, or the
        rules in force."""
        return self._pending_options or self.config.options

    def set_options(self, options: TableOptions) -> bool:
        """Change the table's house rules; returns whether they are in force now.

        Between hands they are. During a hand they wait for the next deal (a hand is played
        to the end under the rules it was dealt with); setting them again before then
        replaces the wait, and setting the rules in force cancels it. Newcomers waiting to
        join follow the new ``newcomers`` rule once it is in force.

        >>> table = Table(TableConfig("jacks-or-better"))
        >>> table.set_options(TableOptions(newcomers="post"))
        True
        >>> table.set_options(TableOptions(diablo_cap=10))
        Traceback (most recent call last):
        ...
        engine.errors.TableError: diablo_cap changes nothing in Jacks or better

        :raises TableError: if ``options`` is not a :class:`TableOptions`, or changes an
            option that means nothing in this table's game (see
            :meth:`TableConfig.applicable_options`).
        """
        if not isinstance(options, TableOptions):
            raise TableError("house rules are TableOptions, not {options}", options=repr(options))
        current = self.config.options
        proposed = replace(self.config, options=options)
        applicable = proposed.applicable_options()
        for f in fields(TableOptions):
            name = f.name
            if name not in applicable and getattr(options, name) != getattr(current, name):
                from engine.variants import get_variant

                game = get_variant(self.config.variant).name
                raise TableError(
                    "{option} changes nothing in {game}", option=name, game=Phrase(game)
                )
        self._mutate(("options", options))
        if self.in_hand:
            self._pending_options = None if options == current else options
            return False
        self._apply_options(proposed)
        return True

    def _apply_options(self, config: TableConfig) -> None:
        self.config = config
        _, self._stakes, self._hand_options, self._rules = _derive(config)
        self._pack = self._rules.deck.cards()
        self._pending_options = None
        rule = self.newcomer_rule
        for seat in self.seats:
            if seat is not None and seat.joining is not None:
                seat.joining = None if rule == "play" else rule

    def add_chips(self, player_id: str, amount: int) -> int:
        """Add chips to ``player_id``'s stack between hands, or during a hand they were not
        dealt into (their stack is not in play); returns the new stack.

        :raises TableError: during a hand they play (or a dealer choosing the game), if the
            player is not seated, or for a bad amount.
        """
        index = self.seat_of(player_id)
        hand = self.hand
        if self._choosing is not None or (
            hand is not None and not hand.over and player_id in hand.by_pid
        ):
            raise TableError("chips can only be added between hands")
        _check_chips(
            amount, english("the amount must be a positive whole number of chips, not {amount}")
        )
        seat = self.seats[index]
        assert seat is not None
        self._mutate(("add_chips", player_id, amount))
        seat.stack += amount
        return seat.stack

    @property
    def carried_stakes(self) -> dict[str, int]:
        """The seated players who have chips in the carried pot, and how many each (a copy).

        A pot belongs to whoever put chips in it until it is won: these players are dealt
        into the next deal even without chips behind, and play for the part of the pot they
        reached. The carried chips nobody here put in (a player left, a pot nobody could
        win) are dead money for whoever wins the main pot.
        """
        return dict(self._shares)

    def _give_back_carried(self, owners: list[str]) -> dict[str, int]:
        """The carried pot split back: each share to whoever put it in, the dead money as
        evenly as possible among ``owners`` (the odd chips one each from the first)."""
        back = {pid: chips for pid, chips in self._shares.items() if chips}
        dead = self.carried - sum(back.values())
        if dead:
            if not owners:
                raise TableError("nobody is at the table to take the carried chips")
            for player_id, chips in zip(owners, split_amount(dead, len(owners)), strict=True):
                if chips:
                    back[player_id] = back.get(player_id, 0) + chips
        return back

    def _clear_carried(self) -> None:
        self.carried = 0
        self.carry_reason = ""
        self._shares = {}
        self.restricted = None
        self.jackpot_cap = None

    def _owners(self) -> tuple[list[int], list[str]]:
        """The occupied seats from the dealer's left, and who takes dead carried chips: the
        seated players in that order, or with nobody seated those who left, in order."""
        size = len(self.seats)
        start = (self.button or 0) + 1
        seated = sorted(
            (i for i, s in enumerate(self.seats) if s is not None),
            key=lambda i: (i - start) % size,
        )
        owners = [seat.player_id for i in seated if (seat := self.seats[i]) is not None]
        return seated, owners or list(self.payouts)

    def return_carried(self) -> dict[str, int]:
        """Give the carried pot back between hands, into the stacks: each player's share to
        them (:attr:`carried_stakes`), the dead money shared as :meth:`close` shares it.
        Returns what each seated player got back (nothing when no pot is carried).

        The rule for a game that breaks up (a tournament table that loses its players)
        while a pot is carried and will not be played for.

        :raises TableError: during a hand, or when dead chips have nobody seated to go to.
        """
        if self.in_hand:
            raise TableError("a carried pot can only be given back between hands")
        if not self.carried:
            return {}
        seated, owners = self._owners()
        seated_ids = {seat.player_id: seat for i in seated if (seat := self.seats[i]) is not None}
        back = self._give_back_carried([pid for pid in owners if pid in seated_ids])
        self._mutate(("return_carried",))
        for player_id, chips in back.items():
            seated_ids[player_id].stack += chips
        self._clear_carried()
        self.reante = True
        self.open_level = 0
        return back

    def close(self) -> dict[str, int]:
        """Close the table between hands: every chip at it goes back to a player, and the
        table is left empty. Returns what each player is owed, by player id.

        Each seated player gets their stack, and each player who left during the last hand
        the stack they left with (:attr:`payouts`). Chips carried over from earlier deals (a
        passed-out pot, a pot nobody could win) go back to whoever put them in
        (:attr:`carried_stakes`); the rest, put in by players no longer here, is shared as
        evenly as possible among the seated players, the odd chips going one each from the
        dealer's left; with nobody seated it goes to the players who left, in the order they
        left. This is the one rule for a carried pot when a game breaks up.

        >>> table = Table(TableConfig("five-card-draw"))
        >>> table.sit("alice", 100), table.sit("bob", 50)
        (0, 1)
        >>> table.carried = 3  # say, a passed-out pot
        >>> table.button = 1
        >>> table.close()
        {'alice': 102, 'bob': 51}
        >>> table.chips(), [s for s in table.seats if s is not None]
        (0, [])

        :raises TableError: during a hand, or when carried chips have nobody to go to.
        """
        if self.in_hand:
            raise TableError("a table can only be closed between hands")
        seated, owners = self._owners()
        back = self._give_back_carried(owners) if self.carried else {}
        self._mutate(("close",))
        owed: dict[str, int] = {}
        for index in seated:
            seat = self.seats[index]
            assert seat is not None
            owed[seat.player_id] = owed.get(seat.player_id, 0) + seat.stack
            self.seats[index] = None
        for player_id, amount in self.payouts.items():
            owed[player_id] = owed.get(player_id, 0) + amount
        for player_id, chips in back.items():
            owed[player_id] = owed.get(player_id, 0) + chips
        self.payouts = {}
        self._clear_carried()
        return owed

    def stack(self, player_id: str) -> int:
        """``player_id``'s current stack (during a hand, the chips not yet put in)."""
        seat = self.seats[self.seat_of(player_id)]
        assert seat is not None
        hand = self.hand
        if hand is not None and not hand.over:
            p = hand.by_pid.get(player_id)
            if p is not None:
                return p.stack
        return seat.stack

    # -- starting a hand ------------------------------------------------------------------------

    def _eligible(self) -> list[int]:
        absent_play = self.config.options.blind_off_absent
        return [
            i
            for i, s in enumerate(self.seats)
            if s is not None
            and (absent_play or not s.sitting_out)
            and not s.leaving
            and (s.stack > 0 or s.player_id in self._shares)
        ]

    def _participants(self) -> list[int]:
        eligible = self._eligible()
        if self.restricted is not None:
            chosen = [i for i in eligible if self.seats[i].player_id in self.restricted]  # type: ignore[union-attr]
            if len(chosen) >= 2:
                return chosen
        seats = self.seats
        waiting = [i for i in eligible if seats[i].joining == "wait"]  # type: ignore[union-attr]
        if not waiting:
            return eligible
        playing = [i for i in eligible if i not in waiting]
        if len(playing) < 2:
            return eligible  # nobody to wait for: everyone plays
        # The deal moves round every seat, a waiting one included; the newcomer whose seat it
        # reaches deals, and plays from that hand on.
        button = self._next_button(eligible)
        return sorted([*playing, button]) if button in waiting else playing

    def can_start(self) -> str | None:
        """Why a hand cannot start now, or ``None`` when it can."""
        if self.in_hand:
            return "a hand is already in progress"
        return self._start_reason(self._participants())

    def _start_reason(self, players: list[int]) -> str | None:
        if len(players) < 2:
            return Phrase("at least two players with chips must be sitting in")
        seats = self.seats
        for i in players:
            if not seats[i].sitting_out:  # type: ignore[union-attr]
                break
        else:
            return Phrase("everyone dealt in would be sitting out")
        rules = self._rules
        if len(players) > rules.max_players:
            return Phrase(
                "{game} can be dealt to at most {count} players",
                game=Phrase(rules.name),
                count=rules.max_players,
            )
        return None

    def _next_button(self, players: list[int]) -> int:
        if self.button is None:
            return players[-1]
        if not self.deal_passes and self.button in players:
            return self.button
        size = len(self.seats)
        for k in range(1, size + 1):
            seat = (self.button + k) % size
            if seat in players:
                return seat
        return players[0]

    def _complete_deck(
        self, rules: GameRules, deck: Sequence[Card] | None, rng: random.Random
    ) -> tuple[Card, ...]:
        pack = rules.deck.cards()
        if deck is None:
            return permuted(pack, rng)
        given = tuple(deck)
        known = set(pack)
        seen: set[Card] = set()
        for card in given:
            if card not in known:
                raise TableError(
                    "{card} is not in the {size}-card pack", card=str(card), size=rules.deck.value
                )
            if card in seen:
                raise TableError("{card} appears twice in the preset deck", card=str(card))
            seen.add(card)
        rest = [card for card in pack if card not in seen]
        return given + tuple(rest)

    def start_hand(
        self, rng: random.Random, deck: Sequence[Card] | None = None
    ) -> tuple[ev.Event, ...]:
        """Deal a new hand and return its first events.

        ``rng`` shuffles the deck and draws the hand's seed (which orders any reshuffle of
        discards, and nothing else: it may be revealed after the hand without revealing the
        deck); pass ``secrets.SystemRandom()`` in production. ``deck`` presets the order
        (top card first) for tests; a partial deck is completed with the remaining cards in
        pack order.

        :raises TableError: when :meth:`can_start` gives a reason, or for a bad preset deck.
        """
        if self.in_hand:
            raise TableError("a hand is already in progress")
        pending = self._pending_options
        if pending is not None:
            # Recorded as an operation between hands, so the snapshot of the hand just ended
            # (replayed under the old rules) is replaced by the state under the new ones.
            self._mutate(("options", pending))
            self._apply_options(replace(self.config, options=pending))
        players = self._participants()
        reason = self._start_reason(players)
        if reason is not None:
            raise TableError(reason)
        if self.config.dealers_choice:
            # The pack is known only once the game is chosen, so the deck comes from a seed of
            # its own, drawn now and never shown; the reshuffle seed is a second, independent
            # draw (the deck seed first, so a given generator deals the decks it always did).
            deck_seed = rng.getrandbits(62)
            seed = rng.getrandbits(62)
            preset = None if deck is None else tuple(deck)
            return self._start_choice((deck_seed, seed), preset)
        if deck is None:
            full_deck = permuted(self._pack, rng)  # self._complete_deck(...), its usual case
        else:
            full_deck = self._complete_deck(self._rules, deck, rng)
        seed = rng.getrandbits(62)
        return self._start(full_deck, seed, players, shuffled=deck is None)

    def _snapshot(self) -> tuple[Any, ...]:
        """The state as it is now, cheaply: immutable values, and copies of the rest (taken at
        every deal, it is read only when the table is saved; see :meth:`_state`)."""
        return (
            tuple(
                [
                    None if s is None else (s.player_id, s.stack, s.sitting_out, s.joining)
                    for s in self.seats
                ]
            ),
            self.button,
            self.hand_number,
            self.carried,
            self.carry_reason,
            dict(self._shares) if self._shares else None,
            self.reante,
            self.deal_passes,
            self.restricted,
            self.open_level,
            self.jackpot_cap,
            self.diablo,
            dict(self.payouts) if self.payouts else None,
            self.dc_lock,
            self._pending_options,
        )

    def _state(self, snapshot: tuple[Any, ...] | None = None) -> dict[str, Any]:
        """The state (now, or as ``snapshot`` took it) as JSON-compatible data."""
        (
            seats,
            button,
            hand_number,
            carried,
            carry_reason,
            shares,
            reante,
            deal_passes,
            restricted,
            open_level,
            jackpot_cap,
            diablo,
            payouts,
            dc_lock,
            pending_options,
        ) = self._snapshot() if snapshot is None else snapshot
        return {
            "seats": [
                None
                if s is None
                else {"player_id": s[0], "stack": s[1], "sitting_out": s[2], "joining": s[3]}
                for s in seats
            ],
            "button": button,
            "hand_number": hand_number,
            "carried": carried,
            "carry_reason": carry_reason,
            "stakes": {} if shares is None else dict(shares),
            "reante": reante,
            "deal_passes": deal_passes,
            "restricted": None if restricted is None else list(restricted),
            "open_level": open_level,
            "jackpot_cap": jackpot_cap,
            "diablo": None if diablo is None else list(diablo),
            "payouts": {} if payouts is None else dict(payouts),
            "dc_lock": None if dc_lock is None else [dc_lock[0], list(dc_lock[1]), dc_lock[2]],
            "pending_options": None if pending_options is None else pending_options.to_dict(),
        }

    def _load_state(self, state: dict[str, Any]) -> None:
        seats: list[_Seat | None] = []
        for s in state["seats"]:
            if s is None:
                seats.append(None)
            else:
                seat = _Seat(s["player_id"], s["stack"])
                seat.sitting_out = s["sitting_out"]
                seat.joining = s.get("joining")
                seats.append(seat)
        self.seats = seats
        self.button = state["button"]
        self.hand_number = state["hand_number"]
        self.carried = state["carried"]
        self.carry_reason = state["carry_reason"]
        self._shares = {str(k): int(v) for k, v in state.get("stakes", {}).items()}
        self.reante = state["reante"]
        self.deal_passes = state["deal_passes"]
        restricted = state["restricted"]
        self.restricted = None if restricted is None else tuple(restricted)
        self.open_level = state["open_level"]
        self.jackpot_cap = state["jackpot_cap"]
        diablo = state["diablo"]
        self.diablo = None if diablo is None else (diablo[0], diablo[1])
        self.payouts = dict(state["payouts"])
        lock = state.get("dc_lock")
        self.dc_lock = None if lock is None else (lock[0], tuple(lock[1]), lock[2])
        pending = state.get("pending_options")
        self._pending_options = None if pending is None else TableOptions.from_dict(pending)

    def _start(
        self,
        deck: tuple[Card, ...],
        seed: int,
        players: list[int] | None = None,
        *,
        shuffled: bool = False,
    ) -> tuple[ev.Event, ...]:
        """``shuffled``: ``deck`` is a fresh shuffle of the pack, so it needs no check."""
        if players is None:
            players = self._participants()
        self._base = self._snapshot()
        self._journal = [("start", deck, seed)]
        self.button = self._next_button(players)
        return self._deal(self._rules, deck, seed, players, shuffled=shuffled)

    def _deal(
        self,
        rules: GameRules,
        deck: tuple[Card, ...],
        seed: int,
        players: list[int],
        chosen: ev.GameChosen | None = None,
        *,
        shuffled: bool = False,
    ) -> tuple[ev.Event, ...]:
        button = self.button
        assert button is not None
        misdeal, self._misdeal = self._misdeal, None
        problem = None if shuffled else _imperfect(rules, deck)
        if problem is not None:
            # The seeds' imperfect pack: the deal is void and the same dealer deals again from
            # a new shuffle of a proper pack. It is derived from the faulty deck as well as the
            # seed, so a replay agrees, yet the seed (revealed after a reshuffle) does not give
            # it away.
            misdeal = ev.Misdeal(button, "imperfect-pack", problem)
            faulty = " ".join(str(card) for card in deck)
            deck = permuted(rules.deck.cards(), random.Random(f"{faulty}|{seed}"))
        # Clockwise from the dealer's left (``players`` lists seats in ascending order).
        left = bisect_right(players, button)
        order = players[left:] + players[:left]
        structure, forced = self._stakes
        if rules.forced_bets is not None:
            forced = rules.forced_bets
        requirement = self._opening_requirement(rules, forced)
        # One pass over the players dealt in: newcomers' posts, the players' (seat, id, stack),
        # the shares they hold in a carried pot, and who is dealt in while sitting out.
        posts: list[tuple[str, int]] = []
        dealt: list[tuple[int, str, int]] = []
        absent: list[str] = []
        shares = self._shares
        stakes: list[tuple[str, int]] = []
        seats = self.seats
        for s in order:
            seat = seats[s]
            if seat is None:
                continue
            pid = seat.player_id
            if seat.joining is not None:
                if seat.joining == "post":
                    posts.append((pid, self._post_amount(structure, forced)))
                seat.joining = None
            dealt.append((s, pid, seat.stack))
            if seat.sitting_out:
                absent.append(pid)
            if shares:
                # Shares of players not dealt in are given up: their chips are dead money now.
                chips = shares.get(pid, 0)
                if chips:
                    stakes.append((pid, chips))
        self.hand_number += 1
        # Positional: a keyword call matches each name against the parameters.
        setup = HandSetup(
            self.hand_number,
            rules,
            structure,
            forced,
            button,
            tuple(dealt),
            deck,
            seed,
            self._hand_options,
            self.carried,
            self.carry_reason,
            self.reante,
            requirement,
            self.jackpot_cap if rules.jackpot_limit else None,
            self.diablo,
            tuple(posts),
            tuple(stakes),
        )
        self.carried = 0
        self._shares = {}
        self.diablo = None
        hand = Hand(setup)
        self.hand = hand
        if misdeal is not None:
            hand.events.append(misdeal)
        if chosen is not None:
            hand.events.append(chosen)
        self._absent = frozenset(absent) if absent else _NOBODY
        hand.start()
        if absent:
            self._fold_absent(hand)
        if hand.over:
            self._hand_over()
        return tuple(hand.events)

    def _progressive_rank(self) -> int:
        """The pair needed to open after ``open_level`` deals in a row nobody opened."""
        if self.config.options.progressive_back_down:
            return _PROGRESSIVE[self.open_level % len(_PROGRESSIVE)]
        return _PROGRESSIVE_TO_ACES[min(self.open_level, len(_PROGRESSIVE_TO_ACES) - 1)]

    @staticmethod
    def _post_amount(structure: Structure, forced: ForcedBets) -> int:
        """What a newcomer posts to be dealt in at once: the big blind, or where there are no
        blinds the smallest bet of the first round."""
        if forced.blinds:
            return max(forced.blinds)
        return structure.limits(False).min_bet

    # -- dealer's choice ------------------------------------------------------------------------

    def _start_choice(
        self, seeds: tuple[int, int], preset: tuple[Card, ...] | None
    ) -> tuple[ev.Event, ...]:
        """``seeds``: the deck's (secret) and the reshuffles' (see :meth:`_deck_for`)."""
        players = self._participants()
        self._base = self._snapshot()
        self._journal = [("choose", seeds, preset)]
        seed = seeds[1]
        self.button = self._next_button(players)
        if self.dc_lock is not None:
            slug, modifiers, chooser = self.dc_lock
            try:
                rules: GameRules | None = self._compose(slug, modifiers)
            except ValueError as error:
                rules, reason = None, f"the game can no longer be dealt: {error}"
            else:
                assert rules is not None
                reason = f"{rules.name} can be dealt to at most {rules.max_players} players"
                if len(players) <= rules.max_players:
                    chosen = ev.GameChosen(chooser, slug, modifiers, rules.name, continued=True)
                    self._current_choice = self.dc_lock
                    deck = self._deck_for(rules, preset, seeds[0])
                    return self._deal(rules, deck, seed, players, chosen)
            # The game that goes on cannot be dealt to everyone now seated: a misdeal. The
            # pot it was played for stays, and the dealer chooses a game that can be dealt.
            self._misdeal = ev.Misdeal(self.button, "too-many-hands", reason)
            self.dc_lock = None
        self._choosing = (self.button, seeds, preset, players)
        return ()

    @staticmethod
    def _compose(slug: str, modifiers: tuple[str, ...]) -> GameRules:
        from engine.modifiers import check_rules
        from engine.variants import get_variant

        rules = get_variant(slug).build(modifiers)
        check_rules(rules)
        return rules

    def _deck_for(
        self, rules: GameRules, preset: tuple[Card, ...] | None, seed: int
    ) -> tuple[Card, ...]:
        # ``seed`` is the deck's own seed, never the reshuffle seed: that one is revealed after
        # some hands and must not give away the order of the whole deck.
        if preset is not None:
            return self._complete_deck(rules, preset, random.Random(seed))
        return permuted(rules.deck.cards(), random.Random(seed))

    def _choice_options(self) -> ChooseOptions:
        from engine.modifiers import MODIFIER_KEYS
        from engine.variants import VARIANTS

        return ChooseOptions(tuple(VARIANTS), MODIFIER_KEYS, self.config.variant)

    def _choose(self, seat: int, action: Action) -> tuple[ev.Event, ...]:
        from engine.modifiers import rules_warnings

        assert self._choosing is not None
        dealer, (deck_seed, seed), preset, players = self._choosing
        if seat != dealer:
            raise IllegalAction("the dealer is choosing the game")
        timed_out = isinstance(action, Timeout)
        if timed_out:
            slug = self.config.variant
            modifiers = tuple(self.config.variant_options or ())
        elif isinstance(action, ChooseGame):
            slug, modifiers = action.slug, tuple(action.modifiers)
        else:
            raise IllegalAction("choose the game to deal")
        try:
            rules = self._compose(slug, modifiers)
        except ValueError as error:
            raise IllegalAction(reason_of(error)) from None
        if len(players) > rules.max_players:
            raise IllegalAction(
                "{game} can be dealt to at most {count} players",
                game=Phrase(rules.name),
                count=rules.max_players,
            )
        if preset is not None:
            try:
                deck = self._deck_for(rules, preset, deck_seed)
            except TableError as error:
                raise IllegalAction(reason_of(error)) from None
        else:
            deck = self._deck_for(rules, None, deck_seed)
        self._choosing = None
        self._current_choice = (slug, modifiers, dealer)
        chosen = ev.GameChosen(
            dealer, slug, modifiers, rules.name, rules_warnings(rules), timed_out=timed_out
        )
        self._journal.append(("act", seat, action))
        return self._deal(rules, deck, seed, players, chosen)

    def _hand_over(self) -> None:
        hand = self.hand
        assert hand is not None and hand.over
        for p in hand.players:
            seat = self.seats[p.seat]
            if seat is None or seat.player_id != p.pid:
                continue
            seat.stack = p.stack
            if seat.leaving:
                self.payouts[p.pid] = self.payouts.get(p.pid, 0) + p.stack
                self.seats[p.seat] = None
        self.carried = hand.carry_out
        self.deal_passes = True
        self.reante = True
        self.carry_reason = ""
        restricted = self.restricted
        self.restricted = None
        self._shares = {}
        if hand.passed_out:
            if restricted is not None:
                # A new deal for a pot nobody could win (trips to win), passed out: the pot
                # still stays among the same players, and those left out stay out.
                self.restricted = restricted
            self._shares = self._carried_shares(hand, hand.players)
            self.carry_reason = english("passed out")
            self.reante = self.config.options.pass_out_reante
            self.deal_passes = self.config.options.pass_out_deal_passes
            self.open_level += 1
            self.jackpot_cap = self.carried
        else:
            self.open_level = 0
            self.jackpot_cap = None
            if hand.trips_failed:
                self.carry_reason = english("nobody could win")
                # Only folding before the draw costs a seat in the new deal: whoever
                # reached the draw (and folded after it, or is still in) plays on.
                self.restricted = tuple(p.pid for p in hand.players if not p.folded or p.draws)
                kept = set(self.restricted)
                if self.carried == hand.chips() - sum(p.stack for p in hand.players):
                    # The whole pot stays: each player who plays on keeps their share.
                    self._shares = self._carried_shares(
                        hand, [p for p in hand.players if p.pid in kept]
                    )
                elif hand.carry_shares is not None:
                    # Only some side pots stay: each belongs to those who put it in, and a
                    # player with no claim to it (the main pot's winner) plays for the antes.
                    for p in hand.players:
                        seat = self.seats[p.seat]
                        chips = hand.carry_shares[p.index]
                        if chips and p.pid in kept and seat is not None and seat.player_id == p.pid:
                            self._shares[p.pid] = chips
            if hand.diablo_owed is not None:
                self.diablo = hand.diablo_owed
                self.reante = False
                self.carry_reason = "Diablo"
        if self.config.dealers_choice and self._current_choice is not None:
            if hand.rules.opener_must_win and (hand.passed_out or hand.diablo_owed is not None):
                self.dc_lock = self._current_choice  # Diablo goes on until its opener wins
            elif self.dc_lock is not None:
                # Diablo is over: the choice passes to the left of whoever called it.
                self.button = self.dc_lock[2]
                self.dc_lock = None
                self.deal_passes = True

    def _carried_shares(self, hand: Hand, players: Sequence[Player]) -> dict[str, int]:
        """The shares in the pot ``hand`` carries over of ``players`` still seated: what
        they had in the pot it began with plus what they put in during it."""
        staked = hand.staked
        shares: dict[str, int] = {}
        for p in players:
            seat = self.seats[p.seat]
            if seat is None or seat.player_id != p.pid:
                continue  # left during the hand: their chips stay in, with no claim
            chips = p.committed + (staked[p.index] if staked is not None else 0)
            if chips:
                shares[p.pid] = chips
        return shares

    # -- playing --------------------------------------------------------------------------------

    @property
    def pending(self) -> tuple[Decision, ...]:
        """The decisions the table is waiting for: usually one, several in simultaneous steps,
        none between hands."""
        if self._choosing is not None:
            dealer = self._choosing[0]
            seat = self.seats[dealer]
            assert seat is not None
            return (
                Decision(dealer, seat.player_id, DecisionKind.CHOOSE_GAME, self._choice_options()),
            )
        hand = self.hand
        if hand is None or hand.over or hand.runner is None:
            return ()
        return hand.runner.decisions()  # hand.pending(), one call fewer

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats with a pending decision (cheaper than :attr:`pending`)."""
        if self._choosing is not None:
            return (self._choosing[0],)
        hand = self.hand
        if hand is None or hand.over or hand.runner is None:
            return ()
        return hand.runner.waiting_seats()

    def act(self, who: int | str, action: Action) -> tuple[ev.Event, ...]:
        """Apply ``action`` for the player in seat ``who`` (or with player id ``who``) and
        return the events it caused.

        A :class:`engine.actions.Timeout` applies the pending decision's default: check when
        legal, else fold; stand pat; pass the first cards; keep the dealt order; declare high;
        keep the face-up card of a Bosnian exchange.

        :raises IllegalAction: with the reason, when there is no hand, it is not this player's
            turn, or the action is not legal; nothing changes then.
        """
        if self._choosing is not None:
            seat = self._seat_of(who) if isinstance(who, str) else who
            if seat is None:
                raise IllegalAction("{player} is not seated at this table", player=who)
            return self._choose(seat, action)
        hand = self.hand
        if hand is None or hand.over:
            raise IllegalAction("no hand is in progress")
        found = hand.by_seat.get(who) if who.__class__ is int else hand.by_pid.get(who)  # type: ignore[arg-type]
        if found is None:
            if isinstance(who, str):
                raise IllegalAction("{player} is not playing this hand", player=who)
            raise IllegalAction("nobody in seat {seat} is playing this hand", seat=repr(who))
        p = found
        start = len(hand.events)
        hand.act_in_play(p, action)
        # A field-less action is kept as the one shared instance of its class (they are all
        # equal): a table keeps the last hand's journal, a dozen of them.
        self._journal.append(("act", p.seat, _SHARED_ACTIONS.get(action.__class__, action)))
        if self._absent:  # players dealt in while sitting out (rare): a call saved otherwise
            self._fold_absent(hand)
        if hand.over:
            self._hand_over()
        return tuple(hand.events[start:])

    def _fold_absent(self, hand: Hand) -> None:
        """Act for the players dealt in while sitting out: fold, or where folding is not
        allowed (nothing to call, a draw, a showdown choice) the timeout's default. Not
        journaled: the deal and the actions that lead here bring it about again on replay."""
        absent = self._absent
        while absent and not hand.over and hand.runner is not None:
            due = next((d for d in hand.runner.decisions() if d.player_id in absent), None)
            if due is None:
                return
            p = hand.by_pid[due.player_id]
            try:
                hand.act(p, Fold())
            except IllegalAction:
                hand.act(p, Timeout())

    @property
    def events(self) -> tuple[ev.Event, ...]:
        """The events of the current hand (or of the last one, between hands)."""
        return () if self.hand is None else tuple(self.hand.events)

    @property
    def result(self) -> ev.HandResult | None:
        """The result of the hand just played, between hands; None while a hand is in progress
        (it is read as the hand ends: keeping it through the next hand cost every table a few
        kilobytes)."""
        hand = self.hand
        return hand.result if hand is not None and hand.over else None

    def chips(self) -> int:
        """Every chip at the table: stacks, chips in the middle, carried pots, and payouts not
        yet taken."""
        total = self.carried + sum(self.payouts.values())
        hand = self.hand
        in_hand = hand.by_pid if hand is not None and not hand.over else {}
        for s in self.seats:
            if s is not None and s.player_id not in in_hand:
                total += s.stack
        if hand is not None and not hand.over:
            total += hand.chips()
        return total

    # -- views ----------------------------------------------------------------------------------

    def _opening_requirement(self, rules: GameRules, forced: ForcedBets) -> Requirement | None:
        """What a player needs to open the next deal's pot: none where a blind opens it (the
        first round begins with a bet, so nobody opens and nobody shows openers), else the
        game's requirement, raised by a progressive jackpot's pass-outs."""
        requirement = rules.open_requirement
        if requirement is None or forced.blinds or rules.opens_with_blind:
            return None
        if rules.progressive:
            return Requirement.pair(self._progressive_rank())
        return requirement

    def _requirement_label(self) -> str | None:
        """What opens the pot, as a player would say it (a phrase, so that the bot can say
        it in any language): ``"a pair of jacks or better"``."""
        hand = self.hand
        if hand is not None and not hand.over:
            req = hand.requirement
        else:
            rules = self.config.rules()
            forced = self._stakes[1] if rules.forced_bets is None else rules.forced_bets
            req = self._opening_requirement(rules, forced)
        return None if req is None else req.label

    def public_view(self) -> PublicView:
        """Everything anyone at the table may see (see :class:`engine.views.PublicView`)."""
        hand = self.hand if self.hand is not None and not self.hand.over else None
        structure, forced = self.config.stakes
        rules = self.current_rules
        if rules.forced_bets is not None:
            forced = rules.forced_bets
        waiting = hand.waiting() if hand is not None else []
        waiting_seats = {p.seat for p in waiting}
        seats: list[SeatView] = []
        for index, s in enumerate(self.seats):
            if s is None:
                continue
            p = hand.by_seat.get(index) if hand is not None else None
            if p is not None and p.pid == s.player_id:
                seats.append(
                    SeatView(
                        seat=index,
                        player_id=s.player_id,
                        stack=p.stack,
                        bet=p.bet,
                        committed=p.committed,
                        in_hand=True,
                        folded=p.folded,
                        all_in=p.all_in,
                        sitting_out=s.sitting_out,
                        leaving=s.leaving,
                        card_count=len(p.cards),
                        face_up=tuple(c for c in p.cards if c in p.up),
                        draws=p.draws,
                        split_openers=bool(p.aside),
                        declared=p.declared,
                        is_button=index == self.button,
                        to_act=index in waiting_seats,
                    )
                )
            else:
                joining = s.joining
                seats.append(
                    SeatView(
                        seat=index,
                        player_id=s.player_id,
                        stack=s.stack,
                        bet=0,
                        committed=0,
                        in_hand=False,
                        folded=False,
                        all_in=False,
                        sitting_out=s.sitting_out,
                        leaving=s.leaving,
                        card_count=0,
                        face_up=(),
                        draws=(),
                        is_button=index == self.button,
                        waiting=joining == "wait",
                        waiting_reason=_JOINING_REASONS.get(joining) if joining else None,
                    )
                )
        pots: tuple[PotView, ...] = ()
        pot_total = self.carried
        board: tuple[Card, ...] = ()
        phase = "waiting"
        street = None
        to_call = None
        current_bet = 0
        last = None
        wild = None
        aggressors: tuple[int, ...] = ()
        if hand is not None:
            players = hand.players
            collected, dead = hand.pot_inputs([p.committed - p.bet for p in players])
            built = build_pots(collected, [not p.folded for p in players], dead)
            pots = tuple(
                PotView(k, amount, tuple(players[i].seat for i in eligible))
                for k, (amount, eligible) in enumerate(built)
            )
            pot_total = hand.carried + sum(p.committed for p in players)
            board = tuple(hand.board)
            runner = hand.runner
            if runner is not None:
                phase = getattr(runner, "phase", runner.kind)
                street = runner.street()
                current_bet = runner.current_bet
                if len(waiting) == 1 and phase == "bet":
                    p = waiting[0]
                    to_call = min(current_bet - p.bet, p.stack)
                if phase == "bet":
                    aggressors = _round_aggressors(hand.events)
            last = self._last_action(hand)
            wild_cards = hand.wild_cards()
            if wild_cards:
                wild = " ".join(str(c) for c in sorted(wild_cards))
        elif self.hand is not None and self.hand.over:
            last = self._last_action(self.hand)
        game = rules.name
        if self._choosing is not None:
            game = "Dealer's choice"
            phase = "choose"
            street = "The dealer chooses the game"
            waiting_seats = {self._choosing[0]}
        return PublicView(
            game=game,
            hand_number=self.hand_number,
            phase=phase,
            street=street,
            button=self.button,
            seats=tuple(seats),
            pots=pots,
            pot_total=pot_total,
            carried=hand.carried if hand is not None else self.carried,
            board=board,
            wild=wild,
            to_act=tuple(sorted(waiting_seats)),
            to_call=to_call,
            current_bet=current_bet,
            last_action=last,
            opening_requirement=self._requirement_label(),
            structure=structure.label,
            forced_bets=forced.label,
            aggressors=aggressors,
        )

    @staticmethod
    def _last_action(hand: Hand) -> LastAction | None:
        last = hand.last_action
        if last is None:
            return None
        seat, verb, amount = last
        pid = None if seat is None else hand.by_seat[seat].pid
        text = verb if pid is None else f"{pid} {verb}"
        if amount is not None:
            text += f" {amount}"
        return LastAction(seat, pid, verb, amount, text)

    def private_view(self, seat: int | str) -> PrivateView:
        """What seat ``seat`` (or player id) sees of its own hand.

        :raises TableError: if nobody sits there.
        """
        index = self.seat_of(seat) if isinstance(seat, str) else seat
        if not isinstance(index, int) or not 0 <= index < len(self.seats):
            raise TableError("there is no seat {seat}", seat=repr(seat))
        s = self.seats[index]
        if s is None:
            raise TableError("nobody sits in seat {seat}", seat=index)
        hand = self.hand
        p: Player | None = None
        if hand is not None and index in hand.by_seat and hand.by_seat[index].pid == s.player_id:
            p = hand.by_seat[index]
        decision = next((d for d in self.pending if d.seat == index), None)
        if p is None or hand is None or self._choosing is not None:
            return PrivateView(index, s.player_id, (), None, None, (), (), decision)
        high = low = None
        low_ok = True
        if not p.folded and hand.complete(hand.playing_cards(p)):
            hv = hand.high_value(p)
            lv = hand.low_value(p)
            high = None if hv is None else hv.name
            low = None if lv is None else lv.name
            if lv is not None and hand.rules.split is Split.HIGH_LOW:
                low_ok = qualifies_low(lv, hand.rules.low_qualifier)
        return PrivateView(
            seat=index,
            player_id=s.player_id,
            cards=tuple(p.cards),
            high=high,
            low=low,
            split_openers=tuple(p.aside),
            arranged=tuple(p.cards) if p.arranged else (),
            decision=decision,
            low_qualifies=low_ok,
        )

    def held_cards(self) -> dict[str, tuple[Card, ...]]:
        """Each seated player's cards in the current hand, by player id: the ``cards`` of
        :meth:`private_view` for every seat at once, without naming the hands.

        Players with no cards (not dealt in, or a game still being chosen) are left out. This
        is the cheap way to notice whose cards changed after an action.
        """
        hand = self.hand
        if hand is None or self._choosing is not None:
            return {}
        held: dict[str, tuple[Card, ...]] = {}
        for index, s in enumerate(self.seats):
            if s is None:
                continue
            p = hand.by_seat.get(index)
            if p is not None and p.pid == s.player_id and p.cards:
                held[s.player_id] = tuple(p.cards)
        return held

    # -- persistence ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible snapshot of the whole table, including a hand in progress.

        The snapshot holds the table's state when the current hand began plus every operation
        since (the deal, each action, seats taken and left), so :meth:`from_dict` rebuilds the
        hand exactly, events included.
        """
        if self._base is None:
            state = self._state()
            journal: list[Any] = []
        else:
            state = self._state(self._base)
            journal = [_op_to_json(op) for op in self._journal]
        return {"version": 1, "config": self.config.to_dict(), "state": state, "journal": journal}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        """The table saved by :meth:`to_dict`.

        :raises ValueError: if the snapshot is not valid.
        """
        if data.get("version") != 1:
            raise ValueError("unknown table snapshot version")
        table = cls(TableConfig.from_dict(data["config"]))
        table._load_state(data["state"])
        for op in data["journal"]:
            table._replay(op)
        return table

    def _replay(self, op: dict[str, Any]) -> None:
        kind = op["op"]
        if kind == "start":
            self._start(tuple(parse_card(c) for c in op["deck"]), int(op["seed"]))
        elif kind == "choose":
            preset = op["deck"]
            # A snapshot from before the two seeds were separate used one seed for both.
            deck_seed = int(op["seed"])
            seeds = (deck_seed, int(op.get("reshuffle_seed", deck_seed)))
            self._start_choice(
                seeds, None if preset is None else tuple(parse_card(c) for c in preset)
            )
        elif kind == "act":
            self.act(int(op["seat"]), action_from_dict(op["action"]))
        elif kind == "sit":
            self.sit(op["player_id"], op["stack"], op["seat"])
        elif kind == "leave":
            self.leave(op["player_id"])
        elif kind == "sit_out":
            self._sit_out(op["player_id"], True)
        elif kind == "sit_in":
            self._sit_out(op["player_id"], False)
        elif kind == "add_chips":
            self.add_chips(op["player_id"], op["amount"])
        elif kind == "take_payouts":
            self.take_payouts()
        elif kind == "options":
            self.set_options(TableOptions.from_dict(op["options"]))
        elif kind == "close":
            self.close()
        elif kind == "return_carried":
            self.return_carried()
        else:
            raise ValueError(f"unknown operation {kind!r} in a table snapshot")


_JOINING_REASONS = {
    "wait": english("new at the table: plays from the hand they deal"),
    "post": english("new at the table: posts a blind to play the next hand"),
}


def _op_to_json(op: tuple[Any, ...]) -> dict[str, Any]:
    kind = op[0]
    if kind == "start":
        return {"op": "start", "deck": [str(c) for c in op[1]], "seed": op[2]}
    if kind == "choose":
        preset = None if op[2] is None else [str(c) for c in op[2]]
        deck_seed, reshuffle_seed = op[1]
        return {"op": "choose", "seed": deck_seed, "deck": preset, "reshuffle_seed": reshuffle_seed}
    if kind == "act":
        return {"op": "act", "seat": op[1], "action": action_to_dict(op[2])}
    if kind == "sit":
        return {"op": "sit", "player_id": op[1], "stack": op[2], "seat": op[3]}
    if kind == "add_chips":
        return {"op": "add_chips", "player_id": op[1], "amount": op[2]}
    if kind == "options":
        return {"op": "options", "options": op[1].to_dict()}
    if kind in ("take_payouts", "close", "return_carried"):
        return {"op": kind}
    return {"op": kind, "player_id": op[1]}


def _round_aggressors(events: Sequence[ev.Event]) -> tuple[int, ...]:
    """The seats that bet or raised since the betting round in play began, in turn."""
    found: list[int] = []
    for event in reversed(events):
        if isinstance(event, ev.RoundStarted):
            break
        if isinstance(event, ev.BetPlaced | ev.Raised):
            found.append(event.seat)
    return tuple(reversed(found))
