"""Events read back from their stored form, and masked for each seat.

The stored form (``to_dict``) is what the database keeps, so reading it back must be lossless:
``Event.from_dict(e.to_dict()).to_dict() == e.to_dict()`` for every event the engine makes, in
every game, and ``masked_for(seat)`` must show a seat exactly what ``visible_to`` allows.
"""

from __future__ import annotations

import dataclasses
import json
import random
import typing
from enum import Enum
from typing import Any

import pytest

from engine import ForcedBets, Split, TableOptions
from engine import events as ev
from engine.cards import Card, parse_cards
from engine.hands import HandValue
from engine.variants import VARIANTS
from tests.engine.engine_helpers import make_table, play_random_hand

SEATS = (None, 0, 1, 2, 3, 4, 5)


def _check(event: ev.Event) -> None:
    """Round trip through JSON text, and the mask for every seat."""
    stored = json.loads(json.dumps(event.to_dict()))
    back = ev.Event.from_dict(stored)
    assert type(back) is type(event)
    assert back.to_dict() == stored
    if not isinstance(event, ev.Shown):  # a read-back Shown keeps hand names, not values
        assert back == event
    for seat in SEATS:
        view = event.masked_for(seat)
        if event.visible_to(seat):
            assert view is event
            continue
        assert isinstance(view, ev.Masked) and view.kind is type(event)
        assert view.to_dict() == event.public_dict()
        for name in event._private:  # each hidden field is only counted
            assert name in view.counts and name not in view.shown
            assert isinstance(view.to_dict()[name], int)


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_every_event_of_random_hands_round_trips(slug: str) -> None:
    """Random hands of every game (2 to 5 players, short and deep stacks)."""
    rng = random.Random(f"events-{slug}")
    kinds: set[str] = set()
    for _ in range(6):
        players = rng.randint(2, min(5, VARIANTS[slug].max_players))
        stacks = [rng.choice([3, 40, 200]) for _ in range(players)]
        table = make_table([str(i) for i in range(players)], variant=slug, stacks=stacks)
        table.start_hand(rng)
        play_random_hand(rng, table, sum(stacks))
        for event in table.events:
            _check(event)
            kinds.add(event.type)
        _check_result(table.result)
    assert {"hand-started", "dealt", "hand-ended"} <= kinds


def _check_result(result: ev.HandResult | None) -> None:
    """A hand's whole result (kept for a result still to show after a restart) reads back
    as it was: values, their names and the cards they play, wild cards included."""
    assert result is not None
    back = ev.HandResult.from_state(json.loads(json.dumps(result.to_state())))
    assert back == result and back.to_dict() == result.to_dict()
    values = [v for s in result.shown for v in (s.high_value, s.low_value) if v is not None]
    again = [v for s in back.shown for v in (s.high_value, s.low_value) if v is not None]
    assert [(v.name, v.cards) for v in again] == [(v.name, v.cards) for v in values]


def test_dealers_choice_and_table_options_round_trip() -> None:
    """Dealer's choice (chosen games with modifiers) and the table options that add events."""
    rng = random.Random(11)
    kinds: set[str] = set()
    qualifiers: set[int | None] = set()
    options = [
        TableOptions(),
        *(dataclasses.replace(TableOptions(), **_on(name)) for name in _bool_options()),
    ]
    for i in range(60):
        table = make_table(
            ["a", "b", "c", "d"],
            dealers_choice=i % 2 == 0,
            options=options[i % len(options)],
            forced=ForcedBets.with_blinds(1, 2) if i % 3 == 0 else None,
        )
        table.start_hand(rng)
        play_random_hand(rng, table, 400)
        for event in table.events:
            _check(event)
            kinds.add(event.type)
        assert table.hand is not None and table.result is not None
        rules = table.hand.rules
        high_low = rules.split is Split.HIGH_LOW
        qualifiers.add(table.result.low_qualifier)
        # The result says how its own low qualified (the next deal may be another game).
        assert table.result.low_qualifier == (rules.low_qualifier if high_low else None)
        _check_result(table.result)
    assert "game-chosen" in kinds
    assert None in qualifiers and len(qualifiers) > 1, qualifiers


def _on(name: str) -> dict[str, Any]:
    return {name: True}


def _bool_options() -> list[str]:
    defaults = TableOptions()
    hints = typing.get_type_hints(TableOptions)
    return [
        name
        for name, hint in hints.items()
        if hint is bool and getattr(defaults, name, None) is False
    ]


def _sample(hint: Any, depth: int = 0) -> Any:
    """A value of an annotated type, for event classes nobody plays in these tests."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        options = [a for a in args if a is not type(None)]
        return _sample(options[0], depth) if options[0] is not HandValue else None
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] is Card:
                return parse_cards("As Kd 7c")
            return (_sample(args[0], depth + 1), _sample(args[0], depth + 1))
        return tuple(_sample(a, depth + 1) for a in args)
    if hint is bool:
        return True
    if hint is int:
        return 1
    if hint is str:
        return "all"
    if hint is Card:
        return parse_cards("Qh")[0]
    if isinstance(hint, type) and issubclass(hint, Enum):
        return next(iter(hint))
    raise AssertionError(f"no sample for {hint}")


def test_every_event_class_round_trips_including_ones_added_later() -> None:
    """Every registered class, built from its annotations: a class added to the engine is
    read back with no change to from_dict."""
    classes = dict(ev._EVENT_TYPES)
    assert len(classes) >= 30
    for kind, cls in classes.items():
        hints = typing.get_type_hints(cls)
        fields = [f for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
        values = {f.name: _sample(hints[f.name]) for f in fields if f.name not in _SHOWN_EXTRA}
        event = cls(**values)
        assert event.type == kind
        _check(event)


_SHOWN_EXTRA = ("high_name", "low_name")


def test_malformed_stored_events_are_refused_with_a_reason() -> None:
    good = ev.Drew(1, parse_cards("As Kd"), parse_cards("2c 3c")).to_dict()
    cases: list[tuple[Any, str]] = [
        ({"type": "no-such-thing", "seat": 1}, "unknown event type 'no-such-thing'"),
        ({"seat": 1}, "unknown event type None"),
        (["folded", 1], "an event is a mapping"),
        ({"type": "folded"}, "needs 'seat'"),
        ({"type": "folded", "seat": 1, "extra": 2}, "has no 'extra'"),
        ({"type": "folded", "seat": True}, "folded.seat: expected a whole number"),
        ({**good, "discarded": ["As", "Zz"]}, "drew.discarded[]"),
        ({**good, "discarded": "As Kd"}, "drew.discarded: expected a list"),
        ({"type": "hand-ended", "stacks": [[0, 5, 1]], "carried": 0}, "expected 2 items"),
        ({"type": "shown", "seat": 1, "cards": ["As"], "high": 3, "low": None}, "shown.high"),
        ({"type": "shown", "seat": 1, "cards": ["As"]}, "needs 'high'"),
    ]
    for data, reason in cases:
        with pytest.raises(ValueError, match=reason.replace("[", r"\[").replace("]", r"\]")):
            ev.Event.from_dict(data)
    assert ev.Event.from_dict(good) == ev.Drew.from_dict(good)
    with pytest.raises(ValueError, match="not a Folded"):
        ev.Folded.from_dict(good)


def test_a_missing_field_with_a_default_takes_it() -> None:
    """An event stored before a field with a default existed still reads."""
    old = {"type": "game-chosen", "seat": 0, "slug": "five-card-draw", "modifiers": [], "name": "X"}
    chosen = ev.Event.from_dict(old)
    assert isinstance(chosen, ev.GameChosen) and chosen.warnings == () and not chosen.timed_out


def test_masks_follow_each_event_s_rule() -> None:
    cards = parse_cards("As Kd 7c")
    face_down = ev.Dealt(1, cards, False)
    assert face_down.masked_for(1) is face_down
    masked = face_down.masked_for(2)
    assert isinstance(masked, ev.Masked) and masked.counts == {"cards": 3}
    assert masked.shown == {"seat": 1, "face_up": False} and masked.type == "dealt"
    face_up = ev.Dealt(1, cards[:1], True)
    assert face_up.masked_for(None) is face_up
    passed = ev.CardsPassed(0, 2, cards)
    assert passed.masked_for(2) is passed and passed.masked_for(0) is passed
    assert isinstance(passed.masked_for(1), ev.Masked)
    offer = ev.BosnianOffer(1, cards[0], cards[1])
    view = offer.masked_for(1)  # not even the player sees the face-down card
    assert isinstance(view, ev.Masked)
    assert view.shown["face_up"] == cards[0] and view.counts == {"face_down": 1}
    burned = ev.Burned(cards[0])
    assert isinstance(burned.masked_for(0), ev.Masked)
    checked = ev.Checked(1)
    assert checked.masked_for(None) is checked


def test_a_duplicate_event_type_is_refused() -> None:
    with pytest.raises(TypeError, match="reuses the event type 'folded'"):

        class Other(ev.Event):
            type: typing.ClassVar[str] = "folded"
