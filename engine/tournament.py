"""Tournaments: the level clock, entries and eliminations, places, payouts and table balancing.

Everything here is a pure value or a pure function: time comes in as a number of seconds, the
tables come in as their seats and button, and every answer is a new value. The bot decides
nothing itself: it asks this module which level is in force, who finished where, what each
place is paid and which players change tables, then carries that out.

A schedule of levels, each level a line of stakes, raised by time:

>>> schedule = Schedule.parse("1:2 2:4 3:6", level_seconds=600)
>>> schedule.level_at(0), schedule.level_at(599), schedule.level_at(600), schedule.level_at(9999)
(0, 0, 1, 2)
>>> schedule.remaining(650)
550
>>> schedule.levels[1].label
'ante 2, bets 4'
>>> schedule.encode()
'1:2 2:4 3:6'

Payouts always add up to the prize pool (the chips rounding leaves go to the winner):

>>> Payouts.parse("50/30/20").amounts(101, entrants=8)
(51, 30, 20)
>>> Payouts.parse("65/35").amounts(100, entrants=2)
(65, 35)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from engine.errors import Refusal
from engine.stakes import FixedLimit, ForcedBets, NoLimit, PotLimit, SpreadLimit, Structure
from engine.table import Table, TableConfig, forced_to_dict, structure_to_dict
from engine.wording import Phrase, english

__all__ = [
    "DEFAULT_STEPS",
    "Entry",
    "Level",
    "Move",
    "Payouts",
    "Schedule",
    "TableSeats",
    "Tournament",
    "TournamentError",
    "TournamentSettings",
    "at_level",
    "before_moving",
    "big_blind_order",
    "default_schedule",
    "plan_moves",
]

DEFAULT_STEPS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)
"""How the default schedules grow: each level's stakes are the game's usual stakes times the
step (a little under doubling, so a level is never a shock)."""


class TournamentError(Refusal):
    """A tournament operation that the rules refuse, with the reason."""


# Whole sentences per setting, so that each reads naturally in every language.
_LEVEL_AMOUNTS: Final = {
    "ante": english("a level's ante must be a whole number >= 0, not {value}"),
    "bet": english("a level's bet must be a whole number >= 0, not {value}"),
    "blind": english("a level's blind must be a whole number >= 0, not {value}"),
}
_ABOVE_ZERO: Final = {
    "buy_in": english("buy in must be a whole number above 0"),
    "starting_stack": english("starting stack must be a whole number above 0"),
    "seats": english("seats must be a whole number above 0"),
    "max_players": english("max players must be a whole number above 0"),
}
_AT_LEAST_ZERO: Final = {
    "rebuys": english("rebuys must be a whole number >= 0"),
    "rebuy_levels": english("rebuy levels must be a whole number >= 0"),
    "addon_stack": english("addon stack must be a whole number >= 0"),
    "late_levels": english("late levels must be a whole number >= 0"),
}


# -- levels and the clock -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """The stakes of one level: an ante from everyone, blinds, and the size of a bet.

    ``bet`` is the small bet of a limit game (the big bet is twice it) or the smallest bet in
    pot and no limit. Text form ``"ante:bet"`` or ``"small-big:bet"``, with ``+ante`` after
    the blinds when both are posted:

    >>> Level.parse("1:2"), Level.parse("5-10:10"), Level.parse("5-10+1:10").encode()
    (Level(ante=1, blinds=(), bet=2), Level(ante=0, blinds=(5, 10), bet=10), '5-10+1:10')
    """

    ante: int = 0
    blinds: tuple[int, ...] = ()
    bet: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "blinds", tuple(self.blinds))
        for name, value in (
            ("ante", self.ante),
            ("bet", self.bet),
            *(("blind", b) for b in self.blinds),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise TournamentError(_LEVEL_AMOUNTS[name], value=repr(value))
        if self.bet < 1:
            raise TournamentError("a level's bet must be at least 1 chip")
        if 0 in self.blinds:
            raise TournamentError("a blind must be at least 1 chip")
        if not self.ante and not self.blinds:
            raise TournamentError("a level needs an ante or blinds, or nobody has to play")

    def encode(self) -> str:
        """The text form read by :meth:`parse`."""
        if not self.blinds:
            return f"{self.ante}:{self.bet}"
        blinds = "-".join(str(b) for b in self.blinds)
        return f"{blinds}+{self.ante}:{self.bet}" if self.ante else f"{blinds}:{self.bet}"

    @classmethod
    def parse(cls, text: str) -> Level:
        """The level written as :meth:`encode` writes it.

        :raises TournamentError: naming what is wrong with the text.
        """
        head, sep, bet = text.strip().partition(":")
        if not sep:
            raise TournamentError(
                "a level is written forced:bet, like 1:2 or 1-2:2, not {text}", text=repr(text)
            )
        try:
            if "-" in head:
                blinds, _, ante = head.partition("+")
                return cls(int(ante or 0), tuple(int(b) for b in blinds.split("-")), int(bet))
            return cls(int(head), (), int(bet))
        except ValueError as exc:
            if isinstance(exc, TournamentError):
                raise
            raise TournamentError(
                "a level's amounts must be whole numbers, not {text}", text=repr(text)
            ) from None

    @property
    def label(self) -> str:
        """A short description such as ``"blinds 1/2, bets 2"``."""
        blinds = "/".join(str(b) for b in self.blinds)
        if blinds and self.ante:
            return Phrase(
                "blinds {blinds}, ante {ante}, bets {bet}",
                blinds=blinds,
                ante=self.ante,
                bet=self.bet,
            )
        if blinds:
            return Phrase("blinds {blinds}, bets {bet}", blinds=blinds, bet=self.bet)
        if self.ante:
            return Phrase("ante {ante}, bets {bet}", ante=self.ante, bet=self.bet)
        return Phrase("bet {bet}", bet=self.bet)

    def stakes(self, structure: Structure) -> tuple[Structure, ForcedBets]:
        """The given structure's kind at this level's bet size, and this level's forced bets."""
        new: Structure
        if isinstance(structure, FixedLimit):
            new = FixedLimit(self.bet, 2 * self.bet, structure.max_raises)
        elif isinstance(structure, SpreadLimit):
            # The spread keeps its proportions: its minimum becomes the level's bet.
            ratio = structure.max_bet / structure.min_bet
            after = structure.max_bet_after / structure.min_bet
            low_after = structure.min_bet_after / structure.min_bet
            new = SpreadLimit(
                self.bet,
                max(self.bet, round(self.bet * ratio)),
                max(1, round(self.bet * low_after)),
                max(1, round(self.bet * after)),
                structure.max_raises,
            )
        elif isinstance(structure, PotLimit):
            new = PotLimit(self.bet)
        else:
            new = NoLimit(self.bet)
        return new, ForcedBets(ante=self.ante, blinds=self.blinds)


@dataclass(frozen=True, slots=True)
class Schedule:
    """Levels raised every ``level_seconds``; the last level stays once reached.

    The clock is the caller's: ``elapsed`` is the playing time since the first level began
    (a bot keeps the moment it started, so after a restart the level and its remaining time
    come out the same).
    """

    levels: tuple[Level, ...]
    level_seconds: int = 600

    def __post_init__(self) -> None:
        object.__setattr__(self, "levels", tuple(self.levels))
        if not self.levels:
            raise TournamentError("a schedule needs at least one level")
        if isinstance(self.level_seconds, bool) or self.level_seconds < 1:
            raise TournamentError("a level lasts at least one second")

    def level_at(self, elapsed: float) -> int:
        """The index of the level in force ``elapsed`` seconds after the start."""
        if elapsed < 0:
            return 0
        return min(int(elapsed // self.level_seconds), len(self.levels) - 1)

    def level(self, elapsed: float) -> Level:
        """The level in force ``elapsed`` seconds after the start."""
        return self.levels[self.level_at(elapsed)]

    def next_level(self, elapsed: float) -> Level | None:
        """The level that follows the one in force (``None`` at the last level)."""
        index = self.level_at(elapsed) + 1
        return self.levels[index] if index < len(self.levels) else None

    def remaining(self, elapsed: float) -> int | None:
        """Whole seconds until the next level (``None`` at the last level, which stays)."""
        index = self.level_at(max(elapsed, 0))
        if index == len(self.levels) - 1:
            return None
        return max(0, math.ceil((index + 1) * self.level_seconds - max(elapsed, 0)))

    def encode(self) -> str:
        """The levels as text (the length of a level is kept apart)."""
        return " ".join(level.encode() for level in self.levels)

    @classmethod
    def parse(cls, text: str, level_seconds: int = 600) -> Schedule:
        """Levels separated by spaces or commas, like ``"1:2 2:4 3:6"``.

        :raises TournamentError: for a malformed level.
        """
        parts = [p for p in text.replace(",", " ").split() if p]
        return cls(tuple(Level.parse(p) for p in parts), level_seconds)


def default_schedule(
    config: TableConfig,
    levels: int = 10,
    level_seconds: int = 600,
    starting_stack: int | None = None,
) -> Schedule:
    """Levels for a table's game and stakes: the game's usual forced bets (antes where it
    antes, as jacks or better; blinds where it has blinds, as lowball), scaled up step by
    step (:data:`DEFAULT_STEPS`, then doubling). With ``starting_stack`` the first level is
    sized to it: a starting stack is worth about fifty of the first level's bets.

    >>> default_schedule(TableConfig("jacks-or-better"), levels=3).encode()
    '1:2 2:4 3:6'
    >>> default_schedule(TableConfig("triple-draw-27"), levels=3).encode()
    '1-2:2 2-4:4 3-6:6'
    >>> default_schedule(TableConfig("jacks-or-better"), levels=2, starting_stack=1000).encode()
    '10:20 20:40'
    """
    if levels < 1:
        raise TournamentError("a tournament needs at least one level")
    structure, forced = config.stakes
    rules = config.rules()
    if rules.forced_bets is not None:
        forced = rules.forced_bets
    base_bet = structure.limits(False).min_bet
    unit = 1 if starting_stack is None else max(1, starting_stack // (50 * base_bet))
    steps = [step * unit for step in DEFAULT_STEPS[:levels]]
    while len(steps) < levels:
        steps.append(steps[-1] * 2)
    ante = forced.ante if forced.ante or forced.blinds else 1
    return Schedule(
        tuple(
            Level(
                ante * step if ante else 0, tuple(b * step for b in forced.blinds), base_bet * step
            )
            for step in steps
        ),
        level_seconds,
    )


def at_level(table: Table, level: Level) -> Table:
    """The same table (seats, stacks, button) playing at ``level``'s stakes.

    Stakes are part of a table's configuration, which only changes between hands.

    :raises TournamentError: while a hand is being played.
    """
    if table.in_hand:
        raise TournamentError("the level changes between hands, not during one")
    base_structure = table.config.stakes[0]
    structure, forced = level.stakes(base_structure)
    if table.config.structure == structure and table.config.forced_bets == forced:
        return table
    config = table.config.to_dict()
    config["structure"] = structure_to_dict(structure)
    config["forced_bets"] = forced_to_dict(forced)
    # The state as it stands now, not the snapshot's "state when the last hand began plus its
    # operations": replaying that hand under the new stakes would not give the same stacks.
    state = table._state()
    return Table.from_dict({"version": 1, "config": config, "state": state, "journal": []})


# -- payouts ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Payouts:
    """How the prize pool is shared: percentages for first place, second, and so on.

    Named shapes: ``"winner"`` (winner takes all), ``"65/35"``, ``"50/30/20"``; or any list of
    whole percentages adding up to 100, like ``"40/25/20/15"``.

    >>> Payouts.parse("winner").shares, Payouts.parse("40 30 20 10").encode()
    ((100,), '40/30/20/10')
    """

    shares: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "shares", tuple(self.shares))
        if not self.shares or any(isinstance(s, bool) or s <= 0 for s in self.shares):
            raise TournamentError("payout shares are whole percentages above zero")
        if sum(self.shares) != 100:
            raise TournamentError(
                "payout shares must add up to 100, not {total}", total=sum(self.shares)
            )
        if list(self.shares) != sorted(self.shares, reverse=True):
            raise TournamentError("a lower place cannot be paid more than a higher one")

    def encode(self) -> str:
        """Text read back by :meth:`parse`."""
        return "winner" if self.shares == (100,) else "/".join(str(s) for s in self.shares)

    @classmethod
    def parse(cls, text: str) -> Payouts:
        """``"winner"``, ``"65/35"``, ``"50/30/20"`` or percentages separated by ``/``, commas
        or spaces.

        :raises TournamentError: naming the problem.
        """
        cleaned = text.strip().lower()
        if cleaned in ("winner", "wta", "winner-takes-all", "winner takes all", "100"):
            return cls((100,))
        parts = [p for p in cleaned.replace("/", " ").replace(",", " ").replace("%", " ").split()]
        try:
            return cls(tuple(int(p) for p in parts))
        except ValueError as exc:
            if isinstance(exc, TournamentError):
                raise
            raise TournamentError(
                "payouts are 'winner', '65/35', '50/30/20' or percentages like 40/30/20/10, "
                "not {text}",
                text=repr(text),
            ) from None

    def amounts(self, pool: int, entrants: int) -> tuple[int, ...]:
        """The chips paid to each place, first place first, adding up to ``pool`` exactly.

        No more places are paid than there were entrants; the shares of the places that
        cannot be paid are spread over the others in proportion. Each place gets its share
        rounded down, and the chips left over from rounding go to first place.
        """
        if pool < 0 or entrants < 1:
            raise TournamentError("a payout needs a prize pool and at least one entrant")
        shares = self.shares[: min(entrants, len(self.shares))]
        total = sum(shares)
        amounts = [pool * share // total for share in shares]
        amounts[0] += pool - sum(amounts)
        return tuple(amounts)


# -- entries and places -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One registered player: their buy-ins and, once out, the hand they busted in and the
    stack they began that hand with (which orders two players busted in the same hand).

    ``broke``: the same two numbers for a player left without chips while a rebuy was open to
    them, who is still in to decide: should they not rebuy, that is where they finish (the
    time they took to decide neither helps nor harms them)."""

    player_id: str
    rebuys: int = 0
    addon: bool = False
    busted_hand: int | None = None
    busted_stack: int = 0
    broke: tuple[int, int] | None = None

    @property
    def out(self) -> bool:
        """Whether the player is out of the tournament."""
        return self.busted_hand is not None


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """The terms of a tournament, fixed when it is created.

    * ``buy_in``: bankroll chips per entry, all into the prize pool; ``starting_stack``:
      tournament chips each entry (and each rebuy) is worth.
    * ``seats``: players per table; ``max_players``: the most who may register.
    * ``rebuys``: how many rebuys one player may make (0: none), while the level in force is
      below ``rebuy_levels``; a rebuy is open to a player who has busted or whose stack is at
      most the starting stack. ``addon_stack``: chips an add-on gives (0: no add-on), bought
      for the buy-in once, at the last rebuy level or at the break after it.
    * ``late_levels``: players may still register during the first ``late_levels`` levels.
    """

    buy_in: int
    starting_stack: int
    schedule: Schedule
    payouts: Payouts = Payouts((100,))
    seats: int = 6
    max_players: int = 6
    rebuys: int = 0
    rebuy_levels: int = 0
    addon_stack: int = 0
    late_levels: int = 0

    def __post_init__(self) -> None:
        for name in ("buy_in", "starting_stack", "seats", "max_players"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise TournamentError(_ABOVE_ZERO[name])
        for name in ("rebuys", "rebuy_levels", "addon_stack", "late_levels"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise TournamentError(_AT_LEAST_ZERO[name])
        if not 2 <= self.seats <= 10:
            raise TournamentError("a tournament table seats 2 to 10 players")
        if self.max_players < 2:
            raise TournamentError("a tournament needs room for at least two players")
        if self.rebuys and not self.rebuy_levels:
            raise TournamentError("rebuys need a rebuy period (rebuy_levels of 1 or more)")
        if self.addon_stack and not self.rebuy_levels:
            raise TournamentError("an add-on comes at the end of a rebuy period")

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "buy_in": self.buy_in,
            "starting_stack": self.starting_stack,
            "levels": self.schedule.encode(),
            "level_seconds": self.schedule.level_seconds,
            "payouts": self.payouts.encode(),
            "seats": self.seats,
            "max_players": self.max_players,
            "rebuys": self.rebuys,
            "rebuy_levels": self.rebuy_levels,
            "addon_stack": self.addon_stack,
            "late_levels": self.late_levels,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentSettings:
        """The settings described by :meth:`to_dict`'s output."""
        return cls(
            buy_in=int(data["buy_in"]),
            starting_stack=int(data["starting_stack"]),
            schedule=Schedule.parse(str(data["levels"]), int(data["level_seconds"])),
            payouts=Payouts.parse(str(data["payouts"])),
            seats=int(data["seats"]),
            max_players=int(data["max_players"]),
            rebuys=int(data.get("rebuys", 0)),
            rebuy_levels=int(data.get("rebuy_levels", 0)),
            addon_stack=int(data.get("addon_stack", 0)),
            late_levels=int(data.get("late_levels", 0)),
        )


REGISTERING = "registering"
RUNNING = "running"
FINISHED = "finished"
CANCELLED = "cancelled"

_STATUS_REFUSALS: Final = {
    RUNNING: english("the tournament is running"),
    FINISHED: english("the tournament is finished"),
    CANCELLED: english("the tournament is cancelled"),
}


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament's standing: who entered, who is out and in what order, and the pool.

    Every operation returns a new value and refuses a bad one with :class:`TournamentError`.

    >>> t = Tournament(TournamentSettings(10, 100, Schedule.parse("1:2"), max_players=3))
    >>> t = t.register("a").register("b").register("c").start()
    >>> t.prize_pool, t.status
    (30, 'running')
    >>> t = t.eliminate({"a": 0, "b": 150, "c": 150}, {"a": 40, "b": 130, "c": 130})
    >>> t = t.eliminate({"b": 0, "c": 300}, {"b": 100, "c": 200})
    >>> t.status, t.places()
    ('finished', (('c', 1), ('b', 2), ('a', 3)))
    >>> t.payout_table()
    (('c', 1, 30), ('b', 2, 0), ('a', 3, 0))
    """

    settings: TournamentSettings
    status: str = REGISTERING
    entries: tuple[Entry, ...] = ()
    hands: int = 0
    addon_closed: bool = False
    _index: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "entries", tuple(self.entries))
        object.__setattr__(self, "_index", {e.player_id: i for i, e in enumerate(self.entries)})

    # queries

    def entry(self, player_id: str) -> Entry:
        """The player's entry.

        :raises TournamentError: if they are not registered.
        """
        index = self._index.get(player_id)
        if index is None:
            raise TournamentError("that player is not registered in this tournament")
        return self.entries[index]

    def registered(self, player_id: str) -> bool:
        """Whether the player has an entry."""
        return player_id in self._index

    @property
    def alive(self) -> tuple[str, ...]:
        """The players still in, in registration order."""
        return tuple(e.player_id for e in self.entries if not e.out)

    @property
    def buy_ins(self) -> int:
        """Entries, rebuys and add-ons bought: each one a buy-in into the pool."""
        return sum(1 + e.rebuys + int(e.addon) for e in self.entries)

    @property
    def prize_pool(self) -> int:
        """Bankroll chips held for the prizes."""
        return self.buy_ins * self.settings.buy_in

    @property
    def chips_in_play(self) -> int:
        """Tournament chips that exist: every stack at every table adds up to this."""
        s = self.settings
        stacks = sum(1 + e.rebuys for e in self.entries) * s.starting_stack
        return stacks + sum(s.addon_stack for e in self.entries if e.addon)

    # registration

    def register(self, player_id: str, level: int = 0) -> Tournament:
        """Enter a player (before the start, or while late registration is open at ``level``).

        :raises TournamentError: when full, already registered, or registration is closed.
        """
        if self.status == RUNNING:
            if level >= self.settings.late_levels:
                raise TournamentError("registration is closed")
        elif self.status != REGISTERING:
            raise TournamentError("registration is closed")
        if player_id in self._index:
            raise TournamentError("you are already registered")
        if len(self.entries) >= self.settings.max_players:
            raise TournamentError(
                "the tournament is full ({count} players)", count=self.settings.max_players
            )
        return replace(self, entries=(*self.entries, Entry(player_id)))

    def unregister(self, player_id: str) -> Tournament:
        """Take a registration back before the start.

        :raises TournamentError: after the start or when not registered.
        """
        self.entry(player_id)
        if self.status != REGISTERING:
            raise TournamentError("you can only unregister before the tournament starts")
        return replace(self, entries=tuple(e for e in self.entries if e.player_id != player_id))

    def start(self) -> Tournament:
        """Close registration (except late registration) and play.

        :raises TournamentError: with fewer than two players, or when not registering.
        """
        if self.status != REGISTERING:
            raise TournamentError(_STATUS_REFUSALS[self.status])
        if len(self.entries) < 2:
            raise TournamentError("a tournament needs at least two registered players")
        return replace(self, status=RUNNING)

    def cancel(self) -> Tournament:
        """Call the tournament off before it starts (the buy-ins go back)."""
        if self.status != REGISTERING:
            raise TournamentError("only a tournament that has not started can be cancelled")
        return replace(self, status=CANCELLED)

    # rebuys and add-ons

    def rebuy_reason(self, player_id: str, level: int, stack: int) -> str | None:
        """Why the player may not rebuy now (``None``: they may)."""
        s = self.settings
        entry = self.entry(player_id)
        if self.status != RUNNING:
            return Phrase("the tournament is not running")
        if entry.out:
            return Phrase("you are out of the tournament")
        if not s.rebuys:
            return Phrase("this tournament has no rebuys")
        if level >= s.rebuy_levels:
            return Phrase("the rebuy period is over")
        if entry.rebuys >= s.rebuys:
            return Phrase.counted(
                "you have used your {count} rebuy",
                "you have used your {count} rebuys",
                count=s.rebuys,
            )
        if stack > s.starting_stack:
            return Phrase("you can rebuy when your stack is at most the starting stack")
        return None

    def rebuy(self, player_id: str, level: int, stack: int) -> Tournament:
        """Buy another starting stack (a busted player comes back in).

        :raises TournamentError: with the reason from :meth:`rebuy_reason`.
        """
        reason = self.rebuy_reason(player_id, level, stack)
        if reason is not None:
            raise TournamentError(reason)
        entry = self.entry(player_id)
        return self._put(
            replace(entry, rebuys=entry.rebuys + 1, busted_hand=None, busted_stack=0, broke=None)
        )

    def addon_reason(self, player_id: str, level: int) -> str | None:
        """Why the player may not take the add-on now (``None``: they may)."""
        s = self.settings
        entry = self.entry(player_id)
        if self.status != RUNNING:
            return Phrase("the tournament is not running")
        if not s.addon_stack:
            return Phrase("this tournament has no add-on")
        if entry.out:
            return Phrase("you are out of the tournament")
        if entry.addon:
            return Phrase("you already took the add-on")
        if self.addon_closed or level > s.rebuy_levels:
            return Phrase("the add-on is over")
        if level < s.rebuy_levels - 1:
            return Phrase("the add-on opens at the last rebuy level")
        return None

    def addon(self, player_id: str, level: int) -> Tournament:
        """Buy the add-on (once, at the last rebuy level or the level after it).

        :raises TournamentError: with the reason from :meth:`addon_reason`.
        """
        reason = self.addon_reason(player_id, level)
        if reason is not None:
            raise TournamentError(reason)
        return self._put(replace(self.entry(player_id), addon=True))

    def close_addon(self) -> Tournament:
        """End the add-on period (the first hand after the rebuy period was dealt)."""
        return self if self.addon_closed else replace(self, addon_closed=True)

    # eliminations

    def eliminate(
        self,
        stacks_after: Mapping[str, int],
        stacks_before: Mapping[str, int],
        level: int | None = None,
        in_pot: Collection[str] = (),
    ) -> Tournament:
        """Record a finished hand: every player it left without chips is out, unless a rebuy
        is still open to them at ``level`` (``None``: no rebuys now), in which case they stay
        in to decide. When one player is left the tournament is over.

        ``in_pot`` are the players with chips in a pot not won yet (a passed-out pot carried
        to the next deal, :attr:`engine.table.Table.carried_stakes`): a player with chips in
        a pot is live for that pot until it is won, so they are not out, with no stack.

        Hands are numbered across all the tournament's tables in the order they end (it
        orders eliminations); ``stacks_before`` are stacks at the start of the hand, which
        order two players out in the same hand: the bigger starting stack finishes higher.
        """
        if self.status != RUNNING:
            raise TournamentError("the tournament is not running")
        hand = self.hands + 1
        result = self
        for player_id, stack in stacks_after.items():
            if stack > 0 or player_id in in_pot or not result.registered(player_id):
                continue
            entry = result.entry(player_id)
            if entry.out:
                continue
            went_broke = entry.broke or (hand, stacks_before.get(player_id, 0))
            if level is not None and result.rebuy_reason(player_id, level, 0) is None:
                result = result._put(replace(entry, broke=went_broke))
                continue
            result = result._put(
                replace(entry, busted_hand=went_broke[0], busted_stack=went_broke[1], broke=None)
            )
        result = replace(result, hands=hand)
        if len(result.alive) <= 1:
            result = replace(result, status=FINISHED)
        return result

    def deciding(self, stacks: Mapping[str, int]) -> tuple[str, ...]:
        """The players of ``stacks`` (player id -> chips, a rebuy paid for included) who are
        still in with no chips: a rebuy was open to them when they busted, and they have not
        bought one nor turned it down (:meth:`decline`). Nothing can be dealt to them.

        >>> t = Tournament(TournamentSettings(10, 100, Schedule.parse("1:2"), rebuys=1,
        ...     rebuy_levels=1, max_players=3)).register("a").register("b").start()
        >>> t.eliminate({"a": 0, "b": 200}, {"a": 100, "b": 100}, level=0).deciding(
        ...     {"a": 0, "b": 200})
        ('a',)
        """
        return tuple(
            pid
            for pid, stack in stacks.items()
            if stack <= 0 and self.registered(pid) and not self.entry(pid).out
        )

    def decline_reason(self, player_id: str, stack: int) -> str | None:
        """Why the player may not turn their rebuy down and go out now (``None``: they may);
        ``stack`` is their chips, a rebuy paid for included."""
        entry = self.entry(player_id)
        if self.status != RUNNING:
            return Phrase("the tournament is not running")
        if entry.out:
            return Phrase("you are out of the tournament")
        if stack > 0:
            return Phrase("you still have chips: only a player with none can go out")
        return None

    def decline(self, player_id: str, stack: int) -> Tournament:
        """A player with no chips turns their rebuy down: they are out (see :meth:`bust`).

        :raises TournamentError: with the reason from :meth:`decline_reason`.
        """
        reason = self.decline_reason(player_id, stack)
        if reason is not None:
            raise TournamentError(reason)
        return self.bust(player_id)

    def bust(self, player_id: str) -> Tournament:
        """Put a player out who was waiting with no chips to rebuy (declined, or their time
        to decide ran out): placed as if out in the hand they went broke in (see
        :attr:`Entry.broke`; without it, the latest hand, with no stack).

        >>> t = Tournament(TournamentSettings(10, 100, Schedule.parse("1:2"), rebuys=1,
        ...     rebuy_levels=1, max_players=3)).register("a").register("b").register("c")
        >>> t = t.start().eliminate({"a": 0, "b": 150, "c": 150}, {"a": 50, "b": 125, "c": 125}, 0)
        >>> t = t.eliminate({"b": 0, "c": 300}, {"b": 150, "c": 150}, level=1)
        >>> t.bust("a").places()  # a went broke first: below b, though b went out later
        (('c', 1), ('b', 2), ('a', 3))
        """
        entry = self.entry(player_id)
        if entry.out:
            return self
        hand, stack = entry.broke or (self.hands, 0)
        result = self._put(replace(entry, busted_hand=hand, busted_stack=stack, broke=None))
        if result.status == RUNNING and len(result.alive) <= 1:
            result = replace(result, status=FINISHED)
        return result

    def stop(self, stacks: Mapping[str, int]) -> Tournament:
        """End the tournament early (it has nowhere left to be played): each player still
        in finishes by the chips they hold (``stacks``: every one of them), more chips
        higher, equal stacks sharing a place, all of them above those already out.

        :raises TournamentError: it is not running, or ``stacks`` are not the players in.
        """
        if self.status != RUNNING:
            raise TournamentError("the tournament is not running")
        if set(stacks) != set(self.alive):
            raise TournamentError("the stacks must be those each player still in holds")
        hand = self.hands + 1
        result = self
        for player_id in self.alive:
            entry = result.entry(player_id)
            result = result._put(replace(entry, busted_hand=hand, busted_stack=stacks[player_id]))
        return replace(result, hands=hand, status=FINISHED)

    def places(self) -> tuple[tuple[str, int], ...]:
        """Each player and their place, best first. Players still in share the top places by
        nothing yet (they are listed first, at place 1, until the end); out players are
        placed by when they busted, later is better, and within one hand by the stack they
        began it with. Equal on both counts: they share the place."""
        alive = [e for e in self.entries if not e.out]
        out = sorted(
            (e for e in self.entries if e.out),
            key=lambda e: (-(e.busted_hand or 0), -e.busted_stack),
        )
        placed: list[tuple[str, int]] = [(e.player_id, 1) for e in alive]
        position = len(alive) + 1
        previous: tuple[int | None, int] | None = None
        current = position
        for e in out:
            key = (e.busted_hand, e.busted_stack)
            if key != previous:
                current = position
                previous = key
            placed.append((e.player_id, current))
            position += 1
        return tuple(placed)

    def payout_table(self) -> tuple[tuple[str, int, int], ...]:
        """Each player, their place and their prize, best first; the prizes add up to the
        pool. Players sharing a place share the prizes of the places they cover equally
        (the odd chips to the first listed)."""
        amounts = self.settings.payouts.amounts(self.prize_pool, len(self.entries))
        places = self.places()
        groups: dict[int, list[str]] = {}
        for player_id, place in places:
            groups.setdefault(place, []).append(player_id)
        prize: dict[str, int] = {}
        for place, players in groups.items():
            covered = amounts[place - 1 : place - 1 + len(players)]
            total = sum(covered)
            for k, player_id in enumerate(players):
                prize[player_id] = total // len(players) + (1 if k < total % len(players) else 0)
        return tuple((p, place, prize[p]) for p, place in places)

    # persistence

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form, read back by :meth:`from_dict`."""
        return {
            "settings": self.settings.to_dict(),
            "status": self.status,
            "hands": self.hands,
            "addon_closed": self.addon_closed,
            "entries": [
                [
                    e.player_id,
                    e.rebuys,
                    e.addon,
                    e.busted_hand,
                    e.busted_stack,
                    None if e.broke is None else list(e.broke),
                ]
                for e in self.entries
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        """The tournament saved by :meth:`to_dict`."""
        return cls(
            TournamentSettings.from_dict(data["settings"]),
            status=str(data["status"]),
            entries=tuple(_entry(saved) for saved in data["entries"]),
            hands=int(data.get("hands", 0)),
            addon_closed=bool(data.get("addon_closed", False)),
        )

    def _put(self, entry: Entry) -> Tournament:
        index = self._index[entry.player_id]
        entries = list(self.entries)
        entries[index] = entry
        return replace(self, entries=tuple(entries))


def _entry(saved: Sequence[Any]) -> Entry:
    """An entry as :meth:`Tournament.to_dict` writes it (saves from before ``broke`` have five
    fields)."""
    player, rebuys, addon, hand, stack = saved[:5]
    broke = saved[5] if len(saved) > 5 else None
    return Entry(
        str(player),
        int(rebuys),
        bool(addon),
        None if hand is None else int(hand),
        int(stack),
        None if broke is None else (int(broke[0]), int(broke[1])),
    )


# -- tables: balancing and merging --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableSeats:
    """One tournament table as the balancer sees it: its seats (player or ``None``) and the
    dealer button's seat (``None`` before the first hand)."""

    table_id: str
    seats: tuple[str | None, ...]
    button: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))

    @property
    def players(self) -> tuple[str, ...]:
        """Seated players in seat order."""
        return tuple(p for p in self.seats if p is not None)

    @classmethod
    def of(cls, table_id: str, table: Table) -> TableSeats:
        """The seats of an engine table."""
        return cls(
            table_id,
            tuple(None if s is None else s.player_id for s in table.seats),
            table.button,
        )


def big_blind_order(table: TableSeats) -> tuple[str, ...]:
    """The table's players, starting with the one who would post the big blind in the next
    hand and going round clockwise (the order in which moving them costs them least).

    The next hand's button goes to the next seated player after the current button; the big
    blind is two players after that (heads-up: the player who is not on the button).

    >>> big_blind_order(TableSeats("t", ("a", "b", None, "c", "d"), button=0))
    ('d', 'a', 'b', 'c')
    """
    seated = [i for i, p in enumerate(table.seats) if p is not None]
    if not seated:
        return ()
    if table.button is None:
        button_pos = len(seated) - 1  # the first hand's button goes to the last seat taken
    else:
        after = [k for k, s in enumerate(seated) if s > table.button]
        button_pos = after[0] if after else 0
    big = (button_pos + (1 if len(seated) == 2 else 2)) % len(seated)
    order = seated[big:] + seated[:big]
    players = table.seats
    return tuple(p for s in order if (p := players[s]) is not None)


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``player_id`` from one table to another (any free seat there)."""

    player_id: str
    from_table: str
    to_table: str


def before_moving(table: Table) -> dict[str, int]:
    """What a table does between hands before a player leaves it for another table: a pot it
    carries (a passed-out deal) is not played for once its players are not all there, so it
    goes back to whoever put it in (:meth:`engine.table.Table.return_carried`). Returns what
    each player got back, for the table to say so; nothing when no pot is carried.

    Run before every move :func:`plan_moves` asks for, so a table broken up is left empty
    of chips, and a moving player takes their share of the pot with them.
    """
    return table.return_carried()


def plan_moves(tables: Sequence[TableSeats], seats: int) -> tuple[Move, ...]:
    """The fewest moves that leave the players on as few tables as they need, with no two
    tables more than one player apart, each table at most ``seats``.

    Tables are broken (all their players moved) only when fewer tables are enough, the
    smallest first (on equal size the one listed last), and their players go to the emptiest
    remaining tables. Then, while one table has two more players than another, the player
    at the fullest table who would be big blind next moves to the emptiest one. Once everybody
    fits at one table, that is the final table.

    >>> one = TableSeats("1", ("a", "b", "c", "d"), button=0)
    >>> plan_moves([one, TableSeats("2", ("e", "f", None, None))], 4)
    (Move(player_id='d', from_table='1', to_table='2'),)
    >>> two = TableSeats("2", ("e", None, None, None))
    >>> [m.to_table for m in plan_moves([TableSeats("1", ("a", "b", None, None)), two], 4)]
    ['1']
    """
    if seats < 2:
        raise TournamentError("a table seats at least two players")
    counts = {t.table_id: len(t.players) for t in tables}
    total = sum(counts.values())
    if len(counts) != len(tables):
        raise TournamentError("two tables with the same id")
    if total == 0:
        return ()
    needed = max(1, math.ceil(total / seats))
    order = {t.table_id: k for k, t in enumerate(tables)}
    queues = {t.table_id: list(big_blind_order(t)) for t in tables}
    moves: list[Move] = []

    def emptiest(exclude: Iterable[str]) -> str:
        skip = set(exclude)
        return min((t for t in counts if t not in skip), key=lambda t: (counts[t], order[t]))

    broken: list[str] = []
    while len(counts) - len(broken) > needed:
        victim = min((t for t in counts if t not in broken), key=lambda t: (counts[t], -order[t]))
        broken.append(victim)
    for victim in broken:
        for player in queues[victim]:
            target = emptiest(broken)
            moves.append(Move(player, victim, target))
            counts[target] += 1
            queues[target].append(player)
        counts[victim] = 0
        queues[victim] = []
    live = [t for t in counts if t not in broken]
    while True:
        fullest = max(live, key=lambda t: (counts[t], -order[t]))
        target = emptiest(broken)
        if counts[fullest] - counts[target] <= 1:
            break
        player = queues[fullest].pop(0)
        moves.append(Move(player, fullest, target))
        counts[fullest] -= 1
        counts[target] += 1
        queues[target].append(player)
    if any(counts[t] > seats for t in live):
        raise TournamentError("more players than the tables can seat")
    return tuple(moves)
