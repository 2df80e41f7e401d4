"""A player sitting out at a table with ``blind_off_absent`` (tournaments) is still dealt in:
their forced bets go in the pot and their hand is folded by the table."""

from __future__ import annotations

import random

import pytest

from engine import Table, TableConfig, TableOptions
from engine import events as ev
from engine.actions import Timeout


def _table(blind_off: bool, variant: str = "five-card-draw") -> Table:
    table = Table(TableConfig(variant=variant, options=TableOptions(blind_off_absent=blind_off)))
    for name in ("a", "b", "c"):
        table.sit(name, 100)
    table.sit_out("c")
    return table


def _play_out(table: Table) -> None:
    for _ in range(200):
        if not table.in_hand:
            return
        decision = table.pending[0]
        assert decision.player_id != "c", "the table acts for a player sitting out"
        table.act(decision.player_id, Timeout())
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("variant", ["five-card-draw", "jacks-or-better", "triple-draw-27"])
def test_a_player_sitting_out_posts_and_is_folded(variant: str) -> None:
    table = _table(True, variant)
    seat_c = table.seat_of("c")
    posted = 0
    for hand in range(3):  # the deal goes round: c pays every forced bet in turn
        table.start_hand(random.Random(hand))
        started = table.events[0]
        assert isinstance(started, ev.HandStarted)
        assert any(seat == seat_c for seat, _, _ in started.seats)  # dealt in
        _play_out(table)
        mine = [e for e in table.events if getattr(e, "seat", None) == seat_c]
        posted += sum(1 for e in mine if isinstance(e, ev.ForcedBet))
        # Never a chip put in by choice: folded when facing a bet.
        assert not [e for e in mine if isinstance(e, ev.Called | ev.BetPlaced | ev.Raised)]
    assert posted >= 1
    assert table.chips() == 300


def test_without_the_option_a_player_sitting_out_is_not_dealt() -> None:
    table = _table(False)
    table.start_hand(random.Random(7))
    _play_out(table)
    assert table.stack("c") == 100


def test_the_snapshot_replays_the_folds() -> None:
    table = _table(True, "jacks-or-better")
    table.start_hand(random.Random(3))
    first = table.pending[0]
    table.act(first.player_id, Timeout())
    copy = Table.from_dict(table.to_dict())
    assert copy.events == table.events
    assert copy.to_dict() == table.to_dict()
    assert TableOptions.from_dict(TableOptions(blind_off_absent=True).to_dict()).blind_off_absent


def test_a_table_where_everyone_dealt_in_sits_out_waits() -> None:
    table = _table(True)
    table.sit_out("a")
    table.sit_out("b")
    assert table.can_start() == "everyone dealt in would be sitting out"
