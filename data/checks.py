"""Argument checks of :class:`data.db.Database`: pure, run before any SQL, so a refused call
has touched nothing. Each raises :class:`~data.errors.InvalidArgument` with the reason."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Final

from data.errors import InvalidArgument
from data.models import HandEventIn, PlayerHandResult, TableSave

MAX_PAGE: Final = 100


def clock(now: float | None) -> float:
    """``now`` as unix seconds; the current time when None (tests pass their own)."""
    if now is None:
        return time.time()
    if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
        raise InvalidArgument(f"now must be unix seconds, got {now!r}")
    return float(now)


def integer(name: str, value: object, minimum: int | None = None) -> int:
    # bool is an int to Python, never to a caller meaning a chip count or an id.
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name} must be an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise InvalidArgument(f"{name} must be at least {minimum}, got {value}")
    return value


def json_text(name: str, value: object) -> str:
    """A JSON blob is opaque here; the database checks that it parses."""
    if not isinstance(value, str):
        raise InvalidArgument(f"{name} must be a JSON string, got {type(value).__name__}")
    return value


def text(name: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidArgument(f"{name} must be a non-empty string")
    return value


def locale_code(name: str, value: object) -> str:
    """A language or locale code as Discord spells them (``de``, ``es-ES``): short, plain."""
    if (
        not isinstance(value, str)
        or not 0 < len(value) <= 16
        or not value.replace("-", "").replace("_", "").isascii()
        or not value.replace("-", "").replace("_", "").isalnum()
    ):
        raise InvalidArgument(f"{name} must be a locale code like 'de' or 'pt-BR', got {value!r}")
    return value


def page(offset: int, limit: int) -> tuple[int, int]:
    integer("offset", offset, 0)
    integer("limit", limit, 1)
    if limit > MAX_PAGE:
        raise InvalidArgument(f"limit must be at most {MAX_PAGE}, got {limit}")
    return offset, limit


def table_save(value: object, *, events_allowed: bool = True) -> TableSave:
    """``value`` checked, as a :class:`TableSave` of its own (a copy its caller can no longer
    change): the snapshot is a JSON string, the chips and stacks are counts whose stacks do not
    exceed the table, the events are ``(seq, event_json)`` pairs. ``events_allowed``: False
    where a change stores no events (a voided hand, seating at a tournament table)."""
    if not isinstance(value, TableSave):
        raise InvalidArgument(f"a table's save must be a TableSave, got {type(value).__name__}")
    state_json = json_text("save.state_json", value.state_json)
    chips = integer("save.chips", value.chips, 0)
    stacks = seats(value.seats, chips)
    new = events(value.events)
    if new and not events_allowed:
        raise InvalidArgument("this change stores no hand events: save.events must be empty")
    return TableSave(state_json, chips, stacks, new)


def seats(stacks: Mapping[int, int], chips: int) -> dict[int, int]:
    """The seat projection (user id -> stack); stacks cannot exceed the ``chips`` on the table."""
    if not isinstance(stacks, Mapping):
        raise InvalidArgument(f"save.seats must map user ids to stacks, got {stacks!r}")
    items: dict[int, int] = {}
    for user_id, stack in stacks.items():
        # The usual case (plain ints) without a call per value: this runs with every save.
        if type(user_id) is not int or type(stack) is not int or stack < 0:
            integer("save.seats user id", user_id)
            integer("save.seats stack", stack, 0)
        items[user_id] = stack
    seated = sum(items.values())
    if seated > chips:
        raise InvalidArgument(
            f"the seated stacks add up to {seated}, more than the {chips} chips on the table"
        )
    return items


def events(new_events: Sequence[HandEventIn]) -> tuple[HandEventIn, ...]:
    out: list[HandEventIn] = []
    for item in new_events:
        if not isinstance(item, tuple) or len(item) != 2:
            raise InvalidArgument(f"a hand event must be (seq, event_json), got {item!r}")
        seq, event = item
        if type(seq) is not int or seq < 0 or type(event) is not str:  # as in seats()
            integer("event seq", seq, 0)
            json_text("event", event)
        out.append((seq, event))
    return tuple(out)


def commitment(value: object) -> str:
    if (
        not isinstance(value, str)
        or len(value) != 64
        or any(c not in "0123456789abcdef" for c in value)
    ):
        raise InvalidArgument("commitment must be a SHA-256 digest in lowercase hex (64 chars)")
    return value


def hand_results(per_player: Sequence[PlayerHandResult], carried: int) -> list[PlayerHandResult]:
    """Everyone dealt in, once each; chips are neither made nor lost by a hand, so the nets
    balance the change in chips carried to the next deal."""
    players: list[PlayerHandResult] = []
    for p in per_player:
        p = PlayerHandResult(*p)
        integer("user_id", p.user_id)
        integer("net", p.net)
        integer("pot_won", p.pot_won, 0)
        if not isinstance(p.won, bool):
            raise InvalidArgument(f"won must be a bool, got {p.won!r}")
        if p.best_hand_score is not None:
            integer("best_hand_score", p.best_hand_score)
        players.append(p)
    if len({p.user_id for p in players}) != len(players):
        raise InvalidArgument("per_player lists a member twice")
    integer("carried", carried)
    if sum(p.net for p in players) != -carried:
        raise InvalidArgument(
            f"the players' nets add up to {sum(p.net for p in players)}, not {-carried} "
            f"(the change in chips carried between deals)"
        )
    return players
