"""Seats and stacks: sitting down, leaving (also during a hand), sitting out, adding chips,
starting conditions, and snapshots of a table that rebuild a hand in progress exactly."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine import (
    Bet,
    Call,
    Check,
    Discard,
    ForcedBets,
    IllegalAction,
    NoLimit,
    Table,
    TableConfig,
    TableError,
    Timeout,
    get_variant,
    list_variants,
)
from engine import events as ev
from engine.rules import Draw, DrawSeries
from tests.engine.engine_helpers import make_table, play, play_random_hand, random_action

RNG = random.Random(5)


def test_sit_validates_and_fills_seats():
    table = Table(TableConfig("five-card-draw", max_seats=3))
    assert table.sit("a", 50) == 0
    assert table.sit("b", 50, seat=2) == 2
    for call, reason in [
        (lambda: table.sit("a", 10), "already seated"),
        (lambda: table.sit("c", 10, seat=2), "taken"),
        (lambda: table.sit("c", 10, seat=7), "no seat"),
        (lambda: table.sit("c", 0), "positive"),
        (lambda: table.sit("", 10), "player id"),
    ]:
        with pytest.raises(TableError, match=reason):
            call()
    table.sit("c", 10)
    with pytest.raises(TableError, match="full"):
        table.sit("d", 10)
    assert [s.player_id for s in table.public_view().seats] == ["a", "c", "b"]


def test_can_start_needs_two_players_with_chips():
    table = Table(TableConfig("five-card-draw", max_seats=4))
    assert table.can_start() is not None
    table.sit("a", 50)
    assert "two players" in table.can_start()
    table.sit("b", 50)
    assert table.can_start() is None
    table.sit_out("b")
    with pytest.raises(TableError, match="two players"):
        table.start_hand(RNG)
    table.sit_in("b")
    table.start_hand(RNG)
    assert table.can_start() == "a hand is already in progress"


def test_leave_between_hands_returns_the_stack():
    table = make_table(["a", "b", "c"])
    assert table.leave("b") == 100
    with pytest.raises(TableError, match="not seated"):
        table.leave("b")


def test_leaving_during_a_hand_folds_and_pays_out_at_the_end():
    table = make_table(["a", "b", "c"])
    table.start_hand(RNG)
    table.act("a", Bet(2))
    assert table.leave("b") is None
    assert table.public_view().seats[1].folded
    assert table.public_view().seats[1].leaving
    assert table.take_payouts() == {}
    events = table.act("c", Call())
    assert table.pending[0].player_id == "a"
    assert any(isinstance(e, ev.RoundStarted) for e in events)
    while table.in_hand:
        table.act(table.to_act[0], Timeout())
    assert table.take_payouts() == {"b": 99}
    assert table.take_payouts() == {}
    assert [s.player_id for s in table.public_view().seats] == ["a", "c"]
    assert table.chips() == 201


def test_a_player_leaving_during_a_hand_cannot_sit_out_or_back_in():
    """They stand up when the hand ends: no next hand to sit out of or come back to (the bot
    said "Welcome back: you're in the next hand" to a player about to be paid out)."""
    table = make_table(["a", "b", "c"])
    table.start_hand(RNG)
    assert table.may_sit_out_or_in("b")
    assert table.leave("b") is None
    assert not table.may_sit_out_or_in("b") and table.may_sit_out_or_in("a")
    for call in (table.sit_out, table.sit_in):
        with pytest.raises(TableError, match="b is standing up when this hand ends"):
            call("b")
    assert not table.public_view().seats[1].sitting_out
    # A snapshot written before the refusal, holding such a move, still reads.
    data = table.to_dict()
    data["journal"].append({"op": "sit_in", "player_id": "b"})
    restored = Table.from_dict(data)
    assert restored.public_view().seats[1].leaving
    while restored.in_hand:
        restored.act(restored.to_act[0], Timeout())
    assert list(restored.take_payouts()) == ["b"]


def test_leaving_when_it_is_your_turn_moves_the_action_on_and_can_end_the_hand():
    table = make_table(["a", "b"])
    table.start_hand(RNG)
    table.leave("a")
    assert not table.in_hand
    assert table.result.uncontested == 1
    assert table.take_payouts() == {"a": 99}


@pytest.mark.parametrize(
    "variant",
    [
        v.slug
        for v in list_variants()
        if any(isinstance(step, Draw | DrawSeries) for step in v.rules.steps)
    ],
)
def test_a_draw_with_one_player_left_ends_the_hand_at_once(variant: str) -> None:
    """Everyone but one stands up during a draw: the hand ends there, the pot theirs, as it
    does when the last opponent folds to a bet. (The last player had to draw, alone, for a
    pot nobody else could win.) Where the winner must show a hand to take the pot (trips to
    win), the draw stays theirs to make: the hand is judged after it."""
    rng = random.Random(11)
    must_show = get_variant(variant).rules.win_requirement is not None
    for leaving_first in ("drawer", "other"):
        table = make_table(["a", "b", "c"], variant=variant, forced=ForcedBets.with_blinds(1, 2))
        total = table.chips()
        table.start_hand(rng)
        while table.pending[0].kind.name != "DRAW":  # everyone calls or checks (or opens)
            seat = table.pending[0].seat
            for action in (Check(), Call(), Bet(table.pending[0].legal.min_to)):
                try:
                    table.act(seat, action)
                    break
                except IllegalAction:
                    continue
        drawer = table.pending[0].player_id
        others = [pid for pid in "abc" if pid != drawer]
        leavers = [drawer, others[0]] if leaving_first == "drawer" else others
        for pid in leavers:
            table.leave(pid)
        (stayed,) = set("abc") - set(leavers)
        if must_show:
            assert [d.player_id for d in table.pending] == [stayed]
            while table.in_hand:
                table.act(table.to_act[0], Timeout())
        else:
            assert not table.in_hand, table.pending
            assert table.result.uncontested == table.seat_of(stayed)
        paid = table.take_payouts()
        assert set(paid) == set(leavers) and table.chips() + sum(paid.values()) == total


def test_an_all_in_player_who_leaves_stays_in_and_draws_by_default():
    table = make_table(["a", "b", "c"], structure=NoLimit(1), stacks=[10, 100, 100])
    table.start_hand(RNG)
    play(table, [("a", Bet(9)), ("b", Call()), ("c", Call())])
    table.leave("a")
    assert table.pending[0].player_id == "b"
    play(table, [("b", Discard()), ("c", Discard()), ("b", Check()), ("c", Check())])
    assert not table.in_hand
    assert len(table.result.shown) == 3
    payout = table.take_payouts()
    assert set(payout) == {"a"}


def test_sitting_down_during_a_hand_waits_for_the_next_one():
    table = make_table(["a", "b"], seats=3)
    table.start_hand(RNG)
    table.sit("c", 40)
    assert "c" not in table.hand.by_pid
    with pytest.raises(IllegalAction, match="not playing"):
        table.act("c", Check())
    with pytest.raises(TableError, match="between hands"):
        table.add_chips("a", 10)
    while table.in_hand:
        table.act(table.to_act[0], Timeout())
    assert table.add_chips("c", 10) == 50
    table.start_hand(RNG)
    assert "c" in table.hand.by_pid


def test_snapshot_mid_hand_rebuilds_the_hand_exactly():
    rng = random.Random(99)
    for _ in range(30):
        table = make_table(["a", "b", "c", "d"], structure=NoLimit(2), stacks=[40, 80, 120, 160])
        table.start_hand(rng)
        steps = rng.randint(0, 12)
        for _ in range(steps):
            if not table.in_hand:
                break
            table.act(*random_action(rng, table))
        if rng.random() < 0.3 and table.in_hand:
            table.sit_out("d")
            table.leave("c")
        data = json.loads(json.dumps(table.to_dict()))
        copy = Table.from_dict(data)
        assert copy.events == table.events
        assert copy.public_view() == table.public_view()
        assert copy.pending == table.pending
        for seat in (0, 1):
            assert copy.private_view(seat) == table.private_view(seat)
        # Both copies continue identically.
        play_rng_a = random.Random(steps)
        play_rng_b = random.Random(steps)
        while table.in_hand:
            seat, action = random_action(play_rng_a, table)
            assert random_action(play_rng_b, copy) == (seat, action)
            assert table.act(seat, action) == copy.act(seat, action)
        assert copy.result == table.result
        assert copy.to_dict() == table.to_dict()


def test_snapshot_between_hands_keeps_seats_and_carried_pot():
    table = make_table(["a", "b", "c"])
    table.start_hand(RNG)
    for who in "abc":
        table.act(who, Check())
    table.add_chips("a", 5)
    data = json.loads(json.dumps(table.to_dict()))
    assert data["journal"] == []
    copy = Table.from_dict(data)
    # The finished hand itself is not part of a between-hands snapshot.
    assert copy.public_view() == replace(table.public_view(), last_action=None)
    assert copy.carried == 3 and copy.chips() == table.chips()
    with pytest.raises(ValueError):
        Table.from_dict({"version": 0})


def test_same_deck_and_actions_give_the_same_events():
    def run(seed: int) -> tuple[ev.Event, ...]:
        rng = random.Random(seed)
        table = make_table(["a", "b", "c", "d", "e", "f", "g", "h"], structure=NoLimit(2))
        table.start_hand(rng)
        play_random_hand(rng, table, table.chips())
        return table.events

    for seed in range(20):
        assert run(seed) == run(seed)
    assert run(1) != run(2)


def test_the_catalogue_lists_five_card_draw():
    slugs = [v.slug for v in list_variants()]
    assert "five-card-draw" in slugs
    variant = get_variant("five-card-draw")
    assert variant.name == "Five-card draw" and variant.description
    with pytest.raises(ValueError, match="no game"):
        get_variant("tiddlywinks")


def test_event_dicts_are_json_friendly_and_public_dicts_hide_private_cards():
    table = make_table(["a", "b"])
    table.start_hand(RNG)
    dealt = next(e for e in table.events if isinstance(e, ev.Dealt))
    assert dealt.public_dict()["cards"] == 5
    assert len(dealt.to_dict()["cards"]) == 5
    assert dealt.visible_to(dealt.seat) and not dealt.visible_to(None)
    json.dumps([e.to_dict() for e in table.events])
    while table.in_hand:
        table.act(table.to_act[0], Timeout())
    json.dumps(table.result.to_dict())


def test_closing_a_table_pays_every_chip_back_with_the_carried_pot_from_the_dealers_left():
    table = make_table(["a", "b", "c"], forced=ForcedBets.antes(3))
    table.start_hand(RNG)
    for who in "abc":
        table.act(who, Check())
    assert table.carried == 9
    table.start_hand(RNG)
    with pytest.raises(TableError, match="between hands"):
        table.close()
    while table.in_hand:
        table.act(table.to_act[0], Timeout())
    total = table.chips()
    carried = table.carried
    stacks = {p: table.stack(p) for p in "abc"}
    after_button = table.seats[(table.button + 1) % 3].player_id
    owed = table.close()
    assert sum(owed.values()) == total and table.chips() == 0 and table.carried == 0
    shares = {p: owed[p] - stacks[p] for p in "abc"}
    assert sum(shares.values()) == carried
    # 9 or more carried split three ways; any odd chip goes first to the dealer's left.
    assert shares[after_button] == max(shares.values())
    assert all(table.seats[i] is None for i in range(3))


def test_closing_a_table_replays_from_its_snapshot():
    table = make_table(["a", "b"])
    table.carried = 5
    table.button = 0
    owed = table.close()
    assert owed == {"b": 103, "a": 102}
    again = Table.from_dict(table.to_dict())
    assert again.chips() == 0 and all(s is None for s in again.seats)


def test_the_dealer_leaving_while_choosing_deals_the_default_game_first():
    table = make_table(["a", "b", "c"], dealers_choice=True)
    table.start_hand(RNG)
    assert table.pending[0].player_id == "c"
    assert table.leave("c") is None
    assert table.public_view().game == "Five-card draw"
    assert table.public_view().seats[2].folded
    table2 = make_table(["a", "b", "c"], dealers_choice=True)
    table2.start_hand(RNG)
    assert table2.leave("a") == 100  # not dealt yet: paid at once
    table2.act("c", Timeout())
    assert set(table2.hand.by_pid) == {"b", "c"}


def test_a_player_leaving_during_a_hand_is_told_so_when_sitting_down_again():
    table = make_table(["a", "b", "c"])
    table.start_hand(RNG)
    table.leave("b")
    with pytest.raises(TableError, match="standing up when this hand ends"):
        table.sit("b", 100)
    with pytest.raises(TableError, match="already seated"):
        table.sit("a", 100)


def test_chips_are_added_during_a_hand_only_to_a_stack_not_in_play():
    table = make_table(["a", "b", "c"])
    table.sit_out("c")
    table.start_hand(RNG)
    with pytest.raises(TableError, match="between hands"):
        table.add_chips("a", 10)
    before = table.chips()
    assert table.add_chips("c", 50) == 150
    assert table.chips() == before + 50
    restored = Table.from_dict(table.to_dict())
    assert restored.stack("c") == 150 and restored.chips() == table.chips()
    while table.in_hand:
        table.act(table.to_act[0], Timeout())
    assert table.stack("c") == 150
