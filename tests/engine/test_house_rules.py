"""House rules changed at a running table (``Table.set_options``): at once between hands,
from the next deal during one, refused where they mean nothing, and kept by snapshots."""

from __future__ import annotations

import random

import pytest

from engine import DrawLimit, Table, TableError, TableOptions
from tests.engine.engine_helpers import make_table, play_random_hand


def _waiting(table: Table) -> dict[str, bool]:
    return {s.player_id: s.waiting for s in table.public_view().seats}


def test_between_hands_the_new_rules_hold_at_once_and_waiting_newcomers_follow_them() -> None:
    rng = random.Random(1)
    table = make_table(["a", "b"], seats=4)
    table.start_hand(rng)
    play_random_hand(rng, table, 200)
    assert table.set_options(TableOptions(newcomers="wait"))
    assert table.config.options.newcomers == "wait" and table.pending_options is None
    table.sit("c", 100)
    assert _waiting(table)["c"]
    # Back to "play": c no longer waits for the deal to come round, and is dealt in.
    assert table.set_options(TableOptions(newcomers="play"))
    assert not _waiting(table)["c"]
    table.start_hand(rng)
    assert table.hand is not None and "c" in table.hand.by_pid


def test_during_a_hand_the_rules_wait_for_the_next_deal_and_survive_snapshots() -> None:
    rng = random.Random(2)
    table = make_table(["a", "b", "c"])
    table.start_hand(rng)
    muck = TableOptions(muck_losers=True)
    assert table.set_options(muck) is False
    assert table.pending_options == muck and not table.config.options.muck_losers
    # A snapshot taken now replays the hand under the old rules and keeps the change waiting.
    restored = Table.from_dict(table.to_dict())
    assert restored.pending_options == muck and not restored.config.options.muck_losers
    assert restored.public_view() == table.public_view()
    play_random_hand(rng, table, 300)
    # The hand is over and the next not dealt: still waiting, and still replayed the same.
    assert table.pending_options == muck
    restored = Table.from_dict(table.to_dict())
    assert restored.events == table.events and restored.pending_options == muck
    for t in (table, restored):
        t.start_hand(random.Random(3))
        assert t.config.options == muck and t.pending_options is None
    assert Table.from_dict(table.to_dict()).config.options == muck


def test_setting_the_rules_in_force_again_cancels_a_waiting_change() -> None:
    rng = random.Random(4)
    table = make_table(["a", "b"])
    table.start_hand(rng)
    table.set_options(TableOptions(newcomers="post"))
    assert table.pending_options is not None
    assert table.set_options(TableOptions()) is False
    assert table.pending_options is None
    play_random_hand(rng, table, 200)
    table.start_hand(rng)
    assert table.config.options == TableOptions()


def test_an_option_that_means_nothing_in_the_game_is_refused_and_nothing_changes() -> None:
    table = make_table(["a", "b"], variant="five-card-draw")
    before = table.to_dict()
    for options, name in (
        (TableOptions(progressive_back_down=False), "progressive_back_down"),
        (TableOptions(diablo_cap=20), "diablo_cap"),
        (TableOptions(no_five_in_a_row=True), "no_five_in_a_row"),
    ):
        with pytest.raises(TableError, match=f"{name} changes nothing in Five-card draw"):
            table.set_options(options)
    with pytest.raises(TableError, match="TableOptions"):
        table.set_options({"muck_losers": True})  # type: ignore[arg-type]
    assert table.to_dict() == before
    # Drawing five makes the no-five rule mean something: both together are accepted.
    assert table.set_options(TableOptions(draw_limit=DrawLimit(5), no_five_in_a_row=True))


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"muck_losers": "yes"}, "muck_losers is true or false"),
        ({"diablo_cap": 0}, "diablo_cap must be a whole number"),
        ({"diablo_cap": 2.5}, "diablo_cap must be a whole number"),
        ({"draw_limit": 4}, "draw_limit must be a DrawLimit"),
    ],
)
def test_house_rules_of_the_wrong_kind_are_refused(kwargs: dict[str, object], reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        TableOptions(**kwargs)  # type: ignore[arg-type]
