"""Betting rules under each structure: limits, raise caps, pot-limit arithmetic, short
all-ins, uncalled bets and the bet options offered to a player."""

from __future__ import annotations

import random

import pytest

from engine import (
    AllIn,
    Bet,
    BetOptions,
    Call,
    Check,
    Discard,
    FixedLimit,
    Fold,
    ForcedBets,
    IllegalAction,
    NoLimit,
    PotLimit,
    Raise,
    SpreadLimit,
)
from engine import events as ev
from engine.stakes import TierLimits
from tests.engine.engine_helpers import make_table, play

RNG = random.Random(11)


def legal(table) -> BetOptions:
    options = table.pending[0].legal
    assert isinstance(options, BetOptions)
    return options


def test_structures_validate_and_describe_themselves():
    assert FixedLimit(2).big_bet == 4
    assert FixedLimit(2).limits(True) == TierLimits(4, 4, True, False, 4)
    assert SpreadLimit(1, 2, 2, 4).limits(True) == TierLimits(2, 4, False, False, 4)
    assert SpreadLimit(1, 5).label == "1-5 spread limit"
    assert PotLimit(2).limits(False).pot_limit
    assert NoLimit(2).limits(False).max_bet is None
    for bad in (lambda: FixedLimit(0), lambda: SpreadLimit(5, 1), lambda: NoLimit(-1)):
        with pytest.raises(ValueError):
            bad()
    with pytest.raises(ValueError):
        ForcedBets(blinds=(0, 2))
    assert ForcedBets.with_blinds(1, 2, ante=1).label == "blinds 1/2, ante 1"


def test_fixed_limit_small_bet_before_and_big_bet_after_the_draw_with_a_raise_cap():
    table = make_table(["a", "b", "c"], structure=FixedLimit(2))
    table.start_hand(RNG)
    options = legal(table)
    assert (options.min_to, options.max_to, options.fixed_limit) == (2, 2, True)
    play(table, [("a", Bet(2)), ("b", Raise(4)), ("c", Raise(6)), ("a", Raise(8))])
    assert legal(table).raises_left == 1
    table.act("b", Raise(10))  # the bet and four raises
    options = legal(table)
    assert options.min_to is None and "capped" in (options.no_raise_reason or "")
    with pytest.raises(IllegalAction, match="capped"):
        table.act("c", Raise(12))
    play(table, [("c", Call()), ("a", Call())])
    play(table, [(p, Discard()) for p in "abc"])
    options = legal(table)
    assert options.min_to == options.max_to == 4  # the big bet


def test_fixed_limit_cap_is_configurable():
    table = make_table(["a", "b"], structure=FixedLimit(1, max_raises=1))
    table.start_hand(RNG)
    play(table, [("a", Bet(1)), ("b", Raise(2))])
    assert legal(table).min_to is None


def test_spread_limit_any_amount_between_the_limits_different_after_the_draw():
    table = make_table(["a", "b"], structure=SpreadLimit(1, 2, 2, 4))
    table.start_hand(RNG)
    options = legal(table)
    assert (options.min_to, options.max_to) == (1, 2)
    with pytest.raises(IllegalAction, match="between 1 and 2"):
        table.act("a", Bet(3))
    table.act("a", Bet(2))
    options = legal(table)
    assert (options.min_to, options.max_to) == (4, 4)  # raise at least the bet, at most 2
    table.act("b", Call())
    play(table, [("a", Discard()), ("b", Discard())])
    options = legal(table)
    assert (options.min_to, options.max_to) == (2, 4)


def test_pot_limit_maximum_is_the_pot_after_calling():
    table = make_table(["a", "b", "c"], structure=PotLimit(1), forced=ForcedBets.antes(1))
    table.start_hand(RNG)
    options = legal(table)
    assert (options.min_to, options.max_to) == (1, 3)
    table.act("a", Bet(3))
    options = legal(table)
    # Pot 6 after the bet; calling 3 makes 9; the raise may add 9: to 12.
    assert (options.to_call, options.min_to, options.max_to) == (3, 6, 12)
    assert dict(options.quick_amounts()) == {"min": 6, "half pot": 7, "pot": 12}
    with pytest.raises(IllegalAction):
        table.act("b", Raise(13))
    table.act("b", Raise(12))
    options = legal(table)
    # Pot 18; c calls 12 (30) and may raise 30 more: to 42.
    assert (options.min_to, options.max_to) == (21, 42)


def test_pot_limit_all_in_only_within_the_limit():
    table = make_table(["a", "b"], structure=PotLimit(1), stacks=[100, 100])
    table.start_hand(RNG)
    assert not legal(table).can_all_in
    with pytest.raises(IllegalAction, match="most"):
        table.act("a", AllIn())


def test_no_limit_minimum_raise_is_the_previous_raise_and_maximum_the_stack():
    table = make_table(["a", "b", "c"], structure=NoLimit(2), stacks=[100, 100, 100])
    table.start_hand(RNG)
    options = legal(table)
    assert (options.min_to, options.max_to, options.all_in_to) == (2, 99, 99)
    table.act("a", Bet(10))
    assert legal(table).min_to == 20
    table.act("b", Raise(35))
    assert legal(table).min_to == 60
    assert legal(table).quick_amounts()[-1] == ("all-in", 99)


def test_all_in_for_less_is_always_allowed():
    table = make_table(["a", "b"], structure=FixedLimit(10), stacks=[100, 6])
    table.start_hand(RNG)
    table.act("a", Bet(10))
    options = legal(table)
    assert options.call_all_in and options.to_call == 5 and options.can_all_in
    events = table.act("b", AllIn())
    assert events[0] == ev.Called(1, 5, 5, True)
    assert ev.BetReturned(0, 5) in events


def test_short_all_in_does_not_reopen_the_betting_for_players_who_acted():
    table = make_table(["a", "b", "c", "d"], structure=NoLimit(10), stacks=[200, 200, 16, 200])
    table.start_hand(RNG)
    play(table, [("a", Bet(10)), ("b", Call())])
    events = table.act("c", AllIn())  # 15: five more, short of a full raise of 10
    assert events[0] == ev.Raised(2, 15, 15, True, False)
    options = legal(table)  # d has not acted yet: may raise, by at least a full raise
    assert options.min_to == 25
    table.act("d", Call())
    options = legal(table)  # a acted before the short all-in: call or fold only
    assert options.to_call == 5 and options.min_to is None
    assert "reopen" in (options.no_raise_reason or "")
    with pytest.raises(IllegalAction, match="reopen"):
        table.act("a", Raise(40))
    table.act("a", Call())
    assert legal(table).min_to is None  # b too
    table.act("b", Call())
    assert table.pending[0].kind.value == "draw"


def test_a_full_raise_after_a_short_all_in_lets_earlier_players_raise_again():
    table = make_table(["a", "b", "c", "d"], structure=NoLimit(10), stacks=[200, 200, 16, 200])
    table.start_hand(RNG)
    play(table, [("a", Bet(10)), ("b", Call()), ("c", AllIn()), ("d", Raise(25))])
    assert legal(table).min_to == 35


def test_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting():
    table = make_table(["a", "b", "c", "d"], structure=NoLimit(10), stacks=[200, 31, 42, 200])
    table.start_hand(RNG)
    play(table, [("a", Bet(20)), ("b", AllIn()), ("c", AllIn())])  # 30 then 41: +21 in all
    table.act("d", Call())
    assert legal(table).min_to == 61  # a may raise again


def test_raising_is_refused_when_nobody_could_call():
    table = make_table(["a", "b"], structure=NoLimit(1), stacks=[100, 10])
    table.start_hand(RNG)
    table.act("a", Bet(50))
    table.act("b", AllIn())
    assert not table.in_hand or table.pending[0].kind.value == "draw"


def test_uncalled_part_of_a_bet_goes_back():
    table = make_table(["a", "b"], structure=NoLimit(1), stacks=[100, 30])
    table.start_hand(RNG)
    table.act("a", Bet(80))
    events = table.act("b", Call())
    assert ev.BetReturned(0, 51) in events
    assert table.public_view().seats[0].stack == 70


def test_open_or_fold_round_and_live_blind_option():
    from engine.rules import Bet as BetStep
    from engine.rules import Deal, GameRules

    rules = GameRules("Test", (Deal(5), BetStep(checking=False)))
    table = make_table(["a", "b"])
    table.config.__class__  # noqa: B018 (the table only needs a hand built from rules here)
    from engine.game import Hand, HandSetup

    hand = Hand(
        HandSetup(
            1,
            rules,
            FixedLimit(2),
            ForcedBets.antes(1),
            1,
            ((0, "a", 50), (1, "b", 50)),
            tuple(table.config.rules().deck.cards()),
            5,
        )
    )
    hand.start()
    options = hand.runner.options(hand.players[0])
    assert not options.can_check and options.min_to == 2
    with pytest.raises(IllegalAction, match="bet or fold"):
        hand.act(hand.players[0], Check())
    hand.act(hand.players[0], Fold())
    assert hand.over


def test_bet_and_raise_are_interchangeable_and_call_with_nothing_owed_checks():
    table = make_table(["a", "b"], structure=NoLimit(2))
    table.start_hand(RNG)
    events = table.act("a", Raise(4))
    assert isinstance(events[0], ev.BetPlaced)
    events = table.act("b", Bet(8))
    assert isinstance(events[0], ev.Raised)
    table2 = make_table(["a", "b"], structure=NoLimit(2))
    table2.start_hand(RNG)
    assert table2.act("a", Call()) == (ev.Checked(0),)
    with pytest.raises(IllegalAction, match="whole number"):
        table2.act("b", Bet("5"))  # type: ignore[arg-type]
