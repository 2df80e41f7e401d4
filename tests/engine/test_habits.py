"""What house players remember of the table (engine.habits), and the public view's record of
who bet or raised in the round in play, which it reads."""

from __future__ import annotations

import random

from engine.actions import Bet, Call, Check, Discard, Fold, Raise
from engine.decisions import BetOptions
from engine.habits import Habits
from engine.table import Table
from tests.engine.engine_helpers import make_table


def _bet_options(table: Table) -> BetOptions:
    legal = table.pending[0].legal
    assert isinstance(legal, BetOptions)
    return legal


def _raise(table: Table) -> None:
    legal = _bet_options(table)
    assert legal.min_to is not None
    table.act(table.pending[0].seat, Bet(legal.min_to) if legal.is_bet else Raise(legal.min_to))


def test_a_hand_counts_who_bet_or_raised_before_the_draw_and_after_it() -> None:
    table = make_table(["ann", "bob", "cat"], stacks=200)
    table.start_hand(random.Random(4))
    assert table.public_view().aggressors == ()
    _raise(table)  # ann opens
    _raise(table)  # bob raises
    assert table.public_view().aggressors == (0, 1)
    table.act(2, Fold())
    table.act(0, Call())
    for seat in (0, 1):
        table.act(seat, Discard(()))
    assert table.public_view().aggressors == ()  # a new round
    _raise(table)  # ann bets after the draw
    assert table.public_view().aggressors == (0,)
    table.act(1, Fold())
    assert not table.in_hand

    habits = Habits().after_hand(table.events)
    assert dict(habits.before) == {"ann": (1, 1), "bob": (1, 1), "cat": (1, 0)}
    assert dict(habits.after) == {"ann": (1, 1), "bob": (1, 0)}  # cat folded before it
    # the next hand adds to the count
    table.start_hand(random.Random(5))
    while table.in_hand and _bet_options(table).can_check:
        table.act(table.pending[0].seat, Check())
    habits = habits.after_hand(table.events)
    assert dict(habits.before) == {"ann": (2, 1), "bob": (2, 1), "cat": (2, 0)}
    assert dict(habits.after) == {"ann": (1, 1), "bob": (1, 0)}  # passed out before the draw


def test_a_blind_is_no_bet() -> None:
    table = make_table(["ann", "bob", "cat"], variant="kansas-city-lowball", stacks=200)
    table.start_hand(random.Random(2))
    assert _bet_options(table).to_call > 0  # facing the blind
    assert table.public_view().aggressors == ()
    while table.in_hand and table.public_view().phase == "bet":
        legal = _bet_options(table)
        table.act(table.pending[0].seat, Check() if legal.can_check else Call())
    habits = Habits().after_hand(table.events)
    assert set(habits.before) == {"ann", "bob", "cat"}
    assert all(bets == 0 for _, bets in habits.before.values())
    assert Habits({"ann": (5, 0)}).after_hand(table.events).before["ann"] == (6, 0)


def test_a_bet_says_more_the_more_seldom_its_player_bets() -> None:
    unknown = Habits().bets_before("ann")
    assert unknown == 1.0  # taken at face value, as before anything is seen
    loose = Habits({"ann": (100, 50)}).bets_before("ann")
    fair = Habits({"ann": (100, 20)}).bets_before("ann")
    tight = Habits({"ann": (100, 5)}).bets_before("ann")
    never = Habits({"ann": (1000, 0)}).bets_before("ann")
    assert loose == 1.0
    assert 1.0 > fair > tight > never
    assert never == 0.15  # never less than the best 15 % of hands
    # a few hands move the guess only a little
    assert Habits({"ann": (3, 0)}).bets_before("ann") > 0.7
