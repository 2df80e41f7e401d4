"""Hands written as PHH, the poker hand history format of pokerkit (TOML, one file a hand).

PHH names a game with a variant code. Of its draw games, two can be dealt here: deuce-to-seven
single draw in no limit (``N2L1D``) and deuce-to-seven triple draw in fixed limit (``F2L3D``),
with two blinds (see :func:`phh_game`). A hand of such a game that PHH can hold is written with
its code, and pokerkit replays it to the same stacks.

Every other hand is written too, in the same fields with the same meanings (``antes``,
``blinds_or_straddles``, the bet sizes, ``starting_stacks``, ``actions``, ``players``,
``finishing_stacks``...) but without the ``variant`` code, since no code would describe the
game; PHH's user-defined fields (a leading underscore, which readers skip) say what was
played:

* ``_variant``: the game's slug in our catalogue (``"five-card-draw"``), always written;
* ``_options``: the game's options or dealer's-choice modifiers, when there are any;
* ``_structure``: the betting structure in words (``"2/4 fixed limit"``);
* ``_no_phh_code``: why PHH's codes don't fit this hand.

Events PHH has no action for (passing cards, declarations, a pot carried over...) become
commentary lines (``"# p2 declares high"``), which PHH allows in ``actions`` and readers treat
as doing nothing. Cards are written as the viewer saw them: other players' face-down cards are
``??`` unless shown at the showdown.

>>> from engine.cards import parse_cards
>>> from engine import events as ev
>>> from engine.table import TableConfig
>>> hand = [
...     ev.HandStarted(1, "Five-card draw", 1, ((0, "7", 20), (1, "8", 20))),
...     ev.ForcedBet(0, "ante", 1, False),
...     ev.ForcedBet(1, "ante", 1, False),
...     ev.Dealt(0, parse_cards("As Ad Kc 7h 2d"), False),
...     ev.Dealt(1, parse_cards("Qs Qd 9c 8h 3d"), False),
...     ev.RoundStarted("bet", 1, 0),
...     ev.BetPlaced(0, 2, 2, False),
...     ev.Folded(1),
...     ev.BetReturned(0, 2),
...     ev.PotAwarded(0, 2, ((0, 2, "all"),)),
...     ev.HandEnded(((0, 21), (1, 19)), 0),
... ]
>>> header = PhhHeader(hand_id=5, number=1, table_id=2, started_at=0.0, game_name="Draw")
>>> text = export_phh(TableConfig("five-card-draw"), hand, 0, header)
>>> print(text[: text.index("hand =")].strip())
antes = [1, 1]
blinds_or_straddles = [0, 0]
small_bet = 2
big_bet = 4
starting_stacks = [20, 20]
actions = [
  "d dh p1 AsAdKc7h2d",
  "d dh p2 ??????????",
  "p1 cbr 2",
  "p2 f",
]
>>> [line for line in text.splitlines() if line.startswith("_variant")]
['_variant = "five-card-draw"']
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine import events as ev
from engine.hands import Ranking
from engine.rules import Bet, BetStart, BetTier, Deal, DeckKind, Draw, DrawStart, GameRules, Split
from engine.stakes import FixedLimit, NoLimit, PotLimit
from engine.table import TableConfig
from engine.wording import say

__all__ = [
    "PHH_FIXED_LIMIT_CAP",
    "PHH_VARIANTS",
    "PhhHeader",
    "PhhUnsupported",
    "export_phh",
    "phh_actions",
    "phh_game",
]


class PhhUnsupported(Exception):
    """PHH's variant codes cannot describe the game or the hand; ``str(exc)`` says why."""


PHH_VARIANTS: Final = {
    "N2L1D": "no-limit deuce-to-seven single draw",
    "F2L3D": "fixed-limit deuce-to-seven triple draw",
}
"""The PHH draw variants the engine can deal (PHH's third, badugi, is a four-card game)."""

PHH_FIXED_LIMIT_CAP: Final = 4
"""pokerkit's fixed-limit games allow four completions, bets or raises per betting round."""


@dataclass(frozen=True, slots=True)
class PhhHeader:
    """What the event log does not hold: the hand's ids, when it was dealt (unix seconds), the
    names of the game and of the players (player id -> name; an unnamed player is written as
    the id), the deck commitment, the table's seat count, and the slug of the game the hand
    was recorded under (when the table has changed game since, the table's settings no
    longer describe the hand)."""

    hand_id: int
    number: int
    table_id: int
    started_at: float
    game_name: str
    commitment: str = ""
    seat_count: int | None = None
    variant: str | None = None
    names: Mapping[str, str] = field(default_factory=dict)


def _plain_bet(step: Any, tier: BetTier | None) -> bool:
    return (
        isinstance(step, Bet)
        and (tier is None or step.tier is tier)
        and step.scale == 1
        and step.start is BetStart.AUTO
        and step.checking
        and not step.double_min
        and not step.blind
    )


def _plain_draw(step: Any) -> bool:
    return (
        isinstance(step, Draw)
        and step.counts is None
        and step.extra == 0
        and step.start is DrawStart.DEALER_LEFT
        and not step.bosnian
        and (step.limit is None or step.limit.most <= 5)
    )


def _lowball_27(rules: GameRules) -> str | None:
    """Why the rules are not plain deuce-to-seven lowball, or None when they are."""
    if rules.deck is not DeckKind.STANDARD:
        return "PHH's draw games use the plain 52-card pack (no joker, no stripped deck)"
    if rules.wild:
        return "PHH has no wild cards"
    if not (
        rules.split is Split.LOW and rules.low is Ranking.DEUCE_TO_SEVEN and not rules.low_qualifier
    ):
        return (
            "PHH's only draw games are deuce-to-seven lowball (single draw no limit, triple draw "
            "fixed limit) and badugi; it has no five-card draw for high hands, no ace-to-five or "
            "ace-to-six lowball and no high-low split"
        )
    special = {
        "an opening requirement": rules.open_requirement is not None,
        "a progressive or jackpot rule": rules.progressive or rules.jackpot_limit,
        "a switch to another game": rules.switch_on_pass_out is not None,
        "a hand needed to win": rules.win_requirement is not None,
        "the Diablo rule": rules.opener_must_win,
        "the seven rule": rules.seven_rule,
    }
    named = [label for label, present in special.items() if present]
    if named:
        return f"PHH cannot describe {', '.join(named)}"
    return None


def phh_game(config: TableConfig) -> tuple[str, dict[str, Any]]:
    """The PHH variant code and its stake fields for a table's game.

    PHH has a code for deuce-to-seven lowball from a plain 52-card pack, no wild cards and no
    special rules, with exactly two blinds (the player left of the dealer posts the small one;
    antes from everyone allowed), dealt as

    * ``N2L1D``: five cards, a betting round, one draw of 0 to 5 cards, a betting round, in
      no limit (``min_bet`` is the table's minimum bet);
    * ``F2L3D``: five cards and three draws, small bet for the first two betting rounds and big
      bet for the last two, in fixed limit.

    >>> phh_game(TableConfig("five-card-draw"))
    Traceback (most recent call last):
    ...
    engine.notation.PhhUnsupported: PHH's only draw games are deuce-to-seven lowball (single \
draw no limit, triple draw fixed limit) and badugi; it has no five-card draw for high hands, no \
ace-to-five or ace-to-six lowball and no high-low split

    :raises PhhUnsupported: with the reason, for every other game.
    """
    try:
        rules = config.rules()
        structure, forced = config.stakes
    except (ValueError, KeyError) as exc:
        raise PhhUnsupported(f"the game is no longer known ({exc})") from exc
    if rules.forced_bets is not None:
        forced = rules.forced_bets
    reason = _lowball_27(rules)
    if reason is not None:
        raise PhhUnsupported(reason)
    if len(forced.blinds) != 2 or forced.blinds_from_dealer or forced.dealer_edge:
        raise PhhUnsupported(
            "PHH's lowball games are played with a small and a big blind (antes optional); "
            f"this table has {forced.label}"
        )
    steps = rules.steps
    big, small = BetTier.BIG, BetTier.SMALL
    first = len(steps) > 0 and steps[0] == Deal(5)
    single = (
        first
        and len(steps) == 4
        and _plain_bet(steps[1], None)
        and _plain_draw(steps[2])
        and _plain_bet(steps[3], None)
    )
    triple = (
        first
        and len(steps) == 8
        and all(_plain_draw(steps[i]) for i in (2, 4, 6))
        and all(_plain_bet(steps[i], small) for i in (1, 3))
        and all(_plain_bet(steps[i], big) for i in (5, 7))
    )
    stakes: dict[str, Any] = {"blinds_or_straddles": list(forced.blinds), "ante": forced.ante}
    if single and isinstance(structure, NoLimit):
        return "N2L1D", {**stakes, "min_bet": structure.min_bet}
    if triple and isinstance(structure, FixedLimit):
        return "F2L3D", {**stakes, "small_bet": structure.small_bet, "big_bet": structure.big_bet}
    if single or triple:
        wanted = "no limit" if single else "fixed limit"
        raise PhhUnsupported(f"PHH has this game only in {wanted}, not {structure.label}")
    raise PhhUnsupported(
        "PHH's lowball games are single draw (no limit) and triple draw (fixed limit); this "
        "game's streets are different"
    )


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return text.replace("\x7f", "\\u007f")
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def _cards(view: ev.Event | ev.Masked, name: str) -> str:
    """A card field as PHH writes it: the cards, or ``??`` for each one the viewer can't see."""
    if isinstance(view, ev.Masked):
        if name in view.counts:
            return "??" * view.counts[name]
        value = view.shown[name]
    else:
        value = getattr(view, name)
    cards = value if isinstance(value, tuple) else (value,)
    return "".join(str(card) for card in cards)


def _count(view: ev.Event | ev.Masked, name: str) -> int:
    if isinstance(view, ev.Masked):
        return view.counts.get(name, 0)
    value = getattr(view, name)
    return len(value) if isinstance(value, tuple) else 1


_UNWRITTEN: Final = (ev.HandStarted, ev.Burned, ev.BetReturned, ev.PotAwarded, ev.HandEnded)
"""Events PHH leaves out: the stacks and the pots follow from the actions."""


class _Writer:
    """Turns one hand's events into PHH actions; ``strict`` is for a hand written with a PHH
    code (anything a PHH reader would replay differently raises :class:`PhhUnsupported`),
    otherwise PHH's missing actions become commentary."""

    def __init__(
        self, events: Sequence[ev.Event], viewer: int | None, *, fixed_limit: bool, strict: bool
    ) -> None:
        self.events = events
        self.viewer = viewer
        self.fixed_limit = fixed_limit
        self.strict = strict
        start = next((e for e in events if isinstance(e, ev.HandStarted)), None)
        end = next((e for e in events if isinstance(e, ev.HandEnded)), None)
        if start is None or end is None:
            raise PhhUnsupported("the hand did not finish")
        self.start = start
        self.order = [seat for seat, _pid, _stack in start.seats]
        self.index = {seat: i + 1 for i, seat in enumerate(self.order)}
        self.starting = [stack for _seat, _pid, stack in start.seats]
        final = dict(end.stacks)
        self.finishing = [final.get(seat, 0) for seat in self.order]
        self.actions: list[str] = []

    def player(self, seat: int | None) -> str:
        if seat is None or seat not in self.index:
            raise PhhUnsupported("an action of a player who was not dealt in")
        return f"p{self.index[seat]}"

    def note(self, text: str) -> None:
        """PHH has no action for this event: say it in a commentary (or refuse, strict)."""
        if self.strict:
            raise PhhUnsupported(text)
        self.actions.append(f"# {text}")

    def write(self) -> list[str]:
        deals: list[str] = []
        aggressions = 0
        short = False  # a fixed-limit all-in short of a full bet or raise, this round
        for event in self.events:
            # Fields that are not cards come from the event; cards from the viewer's mask.
            view = event.masked_for(self.viewer)
            if not isinstance(event, ev.Drew | ev.Burned | ev.Reshuffled) and deals:
                self.actions.extend(deals)  # replacement cards are dealt once everyone has drawn
                deals = []
            match event:
                case _ if isinstance(event, _UNWRITTEN):
                    pass
                case ev.RoundStarted():
                    aggressions = 0
                    short = False
                case ev.ForcedBet(seat=seat, kind=kind, amount=amount):
                    if kind not in ("ante", "blind", "straddle"):
                        self.note(f"{self.player(seat)} puts in {amount} ({kind})")
                case ev.TimedOut(seat=seat):
                    if not self.strict:
                        self.note(say("timed-out", who=self.player(seat)))
                case ev.Reshuffled(count=count):
                    if not self.strict:
                        self.note(say("reshuffled", cards=f"{count} cards"))
                case ev.Dealt(seat=seat, face_up=face_up):
                    if face_up and self.strict:
                        raise PhhUnsupported("PHH's draw games deal no face-up cards")
                    self.actions.append(f"d dh {self.player(seat)} {_cards(view, 'cards')}")
                case ev.BoardDealt():
                    if self.strict:
                        raise PhhUnsupported("PHH's draw games deal no cards to the board")
                    self.actions.append(f"d db {_cards(view, 'cards')}")
                case ev.Folded(seat=seat):
                    self.actions.append(f"{self.player(seat)} f")
                case ev.Checked(seat=seat) | ev.Called(seat=seat):
                    self.actions.append(f"{self.player(seat)} cc")
                case (
                    ev.BetPlaced(seat=seat, to=to, all_in=all_in)
                    | ev.Raised(seat=seat, to=to, all_in=all_in)
                ):
                    p = self.player(seat)
                    aggressions += 1
                    if self.strict and self.fixed_limit and aggressions > PHH_FIXED_LIMIT_CAP:
                        raise PhhUnsupported(
                            "a betting round had more bets and raises than PHH's fixed-limit cap "
                            f"of {PHH_FIXED_LIMIT_CAP}"
                        )
                    if self.strict and self.fixed_limit and short:
                        raise PhhUnsupported(
                            "a short all-in was raised in fixed limit, which pokerkit sizes "
                            "differently"
                        )
                    short = all_in and not (isinstance(event, ev.Raised) and event.full)
                    self.actions.append(f"{p} cbr {to}")
                case ev.Drew(seat=seat):
                    p = self.player(seat)
                    self.actions.append(f"{p} sd {_cards(view, 'discarded')}".rstrip())
                    received = _count(view, "received")
                    if self.strict and received != _count(view, "discarded"):
                        raise PhhUnsupported(
                            "a draw gave a different number of cards than discarded"
                        )
                    if received:
                        deals.append(f"d dh {p} {_cards(view, 'received')}")
                case ev.Shown(seat=seat):
                    self.actions.append(f"{self.player(seat)} sm {_cards(view, 'cards')}")
                case _ if self.strict:
                    raise PhhUnsupported(
                        f"PHH has no notation for this hand's “{event.type}” event"
                    )
                case ev.LastCardDealt(seat=seat):
                    # The no-five-in-a-row rule holds one replacement back: dealt after the
                    # others drew.
                    self.actions.append(f"d dh {self.player(seat)} {_cards(view, 'card')}")
                case ev.BosnianKept(seat=seat):
                    # The kept card joins the hand: for PHH, it is dealt.
                    self.note(self.describe(event, view))
                    self.actions.append(f"d dh {self.player(seat)} {_cards(view, 'kept')}")
                case _:
                    self.note(self.describe(event, view))
        self.actions.extend(deals)
        return self.actions

    def describe(self, event: ev.Event, view: ev.Event | ev.Masked) -> str:
        """A commentary for an event PHH has no action for, with only what the viewer saw."""
        seat = getattr(event, "seat", None)
        p = self.player(seat) if isinstance(seat, int) and seat in self.index else None
        match event:
            case ev.GameChosen(slug=slug, modifiers=modifiers):
                chosen = " + ".join((slug, *modifiers))
                return say("game-chosen", who=p or "the dealer", game=chosen)
            case ev.PotCarried(amount=amount, reason=reason):
                return say("pot-carried", amount=str(amount), reason=reason)
            case ev.PassedOut(pot=pot):
                return say("passed-out", amount=f"{pot} chips")
            case ev.GameSwitched(game=game):
                return say("game-switched", game=game)
            case ev.OpenersSplit():
                return say("openers-split", who=str(p), cards=_cards(view, "cards"))
            case ev.OpenersShown():
                return say("openers-shown", who=str(p), cards=_cards(view, "cards"))
            case ev.BosnianOffer():
                return say("bosnian-offer", who=str(p), card=_cards(view, "face_up"))
            case ev.BosnianKept(took_face_up=up):
                which = "face-up" if up else "face-down"
                return say("bosnian-kept", who=str(p), card=_cards(view, "kept"), which=which)
            case ev.CardsPassed(to_seat=to_seat):
                cards = _cards(view, "cards")
                return say("cards-passed", who=str(p), cards=cards, to=self.player(to_seat))
            case ev.Arranged():
                return say("arranged", who=str(p), cards=_cards(view, "order"))
            case ev.CardRevealed():
                return say("card-revealed", who=str(p), card=_cards(view, "card"))
            case ev.Declared(direction=direction):
                return say("declared", who=str(p), direction=direction)
            case ev.PlayerLeft():
                return say("player-left", who=str(p))
        # An event class added after this writer: its public form, cards hidden as the
        # viewer's mask says.
        data = view.to_dict()
        details = ", ".join(f"{k}: {v}" for k, v in data.items() if k not in ("type", "seat"))
        return f"{p + ' ' if p else ''}{data['type']}: {details}".rstrip(": ")


def phh_actions(
    events: Sequence[ev.Event], viewer_seat: int | None, *, fixed_limit: bool, strict: bool = True
) -> tuple[list[str], list[int], list[int]]:
    """``(actions, starting stacks, finishing stacks)`` in PHH notation, players numbered
    from the dealer's left (the button last, as PHH does). Only ``viewer_seat``'s cards and
    the cards shown at the showdown are written; other cards are ``??``.

    :raises PhhUnsupported: when the hand did not finish, or (``strict``) when an event has no
        PHH action or would be replayed differently by a PHH reader.
    """
    writer = _Writer(events, viewer_seat, fixed_limit=fixed_limit, strict=strict)
    return writer.write(), writer.starting, writer.finishing


def _posted(events: Sequence[ev.Event], order: Sequence[int], kinds: tuple[str, ...]) -> list[int]:
    """The forced bets of ``kinds`` each player posted, in PHH's player order."""
    amounts = dict.fromkeys(order, 0)
    for event in events:
        if isinstance(event, ev.ForcedBet) and event.kind in kinds and event.seat in amounts:
            amounts[event.seat] += event.amount
    return [amounts[seat] for seat in order]


def _standard(
    config: TableConfig, events: Sequence[ev.Event], header: PhhHeader
) -> tuple[str, dict[str, Any]]:
    """The PHH code and stakes, when PHH can hold this hand of this game."""
    if header.variant is not None and header.variant != config.variant:
        raise PhhUnsupported("the hand was dealt as another game than the table's")
    code, stakes = phh_game(config)
    for event in events:
        if isinstance(event, ev.PassedOut | ev.PotCarried) or (
            isinstance(event, ev.HandEnded) and event.carried
        ):
            raise PhhUnsupported(
                "chips stayed in the middle for the next deal, which PHH can't hold"
            )
        if isinstance(event, ev.PlayerLeft | ev.GameChosen | ev.GameSwitched):
            raise PhhUnsupported(f"PHH has no notation for this hand's “{event.type}” event")
    return code, stakes


def export_phh(
    config: TableConfig, events: Sequence[ev.Event], viewer_seat: int | None, header: PhhHeader
) -> str:
    """The hand in PHH as ``viewer_seat`` (``None``: someone not dealt in) may see it: with a
    PHH variant code when PHH can hold it, else with our ``_variant`` field (see the module
    docstring).

    :raises PhhUnsupported: only for a hand that did not finish.
    """
    try:
        code: str | None
        code, stakes = _standard(config, events, header)
        fixed = code.startswith("F")
        actions, starting, finishing = phh_actions(events, viewer_seat, fixed_limit=fixed)
        reason = None
    except PhhUnsupported as exc:
        code, reason = None, str(exc)
        actions, starting, finishing = phh_actions(
            events, viewer_seat, fixed_limit=False, strict=False
        )
    start = next(e for e in events if isinstance(e, ev.HandStarted))
    order = [seat for seat, _pid, _stack in start.seats]
    players = len(order)
    lines: list[str] = []
    if code is not None:
        blinds = stakes["blinds_or_straddles"] + [0] * max(0, players - 2)
        lines += [
            f"variant = {_toml(code)}",
            f"antes = {_toml([stakes['ante']] * players)}",
            f"blinds_or_straddles = {_toml(blinds[:players])}",
        ]
        for key in ("min_bet", "small_bet", "big_bet"):
            if key in stakes:
                lines.append(f"{key} = {_toml(int(stakes[key]))}")
    else:
        lines += [
            f"antes = {_toml(_posted(events, order, ('ante',)))}",
            f"blinds_or_straddles = {_toml(_posted(events, order, ('blind', 'straddle')))}",
        ]
        structure = config.stakes[0] if header.variant in (None, config.variant) else None
        if isinstance(structure, NoLimit | PotLimit):
            lines.append(f"min_bet = {structure.min_bet}")
        elif isinstance(structure, FixedLimit):
            lines += [f"small_bet = {structure.small_bet}", f"big_bet = {structure.big_bet}"]
    lines.append(f"starting_stacks = {_toml(starting)}")
    lines.append("actions = [")
    lines.extend(f"  {_toml(action)}," for action in actions)
    lines.append("]")
    when = dt.datetime.fromtimestamp(header.started_at, tz=dt.UTC)
    names = [header.names.get(pid, pid) for _seat, pid, _stack in start.seats]
    lines += [
        f"hand = {header.number}",
        f"table = {header.table_id}",
        f"seats = {_toml([seat + 1 for seat in order])}",
    ]
    if header.seat_count is not None:
        lines.append(f"seat_count = {header.seat_count}")
    lines += [
        f"players = {_toml(names)}",
        f"finishing_stacks = {_toml(finishing)}",
        f"time = {when:%H:%M:%S}",
        "time_zone = 'UTC'",
        f"day = {when.day}",
        f"month = {when.month}",
        f"year = {when.year}",
        f"_hand_id = {header.hand_id}",
        f"_game = {_toml(header.game_name)}",
        f"_commitment = {_toml(header.commitment)}",
    ]
    chosen = next((e for e in events if isinstance(e, ev.GameChosen)), None)
    if chosen is not None:
        slug, options = chosen.slug, chosen.modifiers
    else:
        slug = header.variant if header.variant is not None else config.variant
        options = (config.variant_options or ()) if slug == config.variant else ()
    lines.append(f"_variant = {_toml(slug)}")
    if options:
        lines.append(f"_options = {_toml(list(options))}")
    if code is None:
        if header.variant in (None, config.variant):
            lines.append(f"_structure = {_toml(config.stakes[0].label)}")
        lines.append(f"_no_phh_code = {_toml(reason)}")
    return "\n".join(lines) + "\n"
