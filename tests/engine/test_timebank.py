"""The time bank's arithmetic and what a pre-action plays (engine/timebank.py)."""

from __future__ import annotations

import pytest

from engine.actions import Call, Check, Fold
from engine.decisions import BetOptions
from engine.timebank import (
    DEFAULT_TIME_BANK,
    REFILL_SECONDS,
    TIME_BANK_SECONDS,
    PreAction,
    TimeBank,
    pre_action_move,
)


def options(*, can_check: bool, to_call: int, all_in: bool = False) -> BetOptions:
    return BetOptions(
        can_check=can_check,
        can_fold=True,
        to_call=to_call,
        call_all_in=all_in,
        min_to=None if all_in else 40,
        max_to=None if all_in else 100,
        all_in_to=100,
        can_all_in=True,
        is_bet=can_check,
        fixed_limit=False,
        raises_left=None,
        current_bet=to_call,
        player_bet=0,
        pot=30,
        stack=100,
    )


def test_defaults_are_within_the_bounds() -> None:
    low, high = TIME_BANK_SECONDS
    assert low == 0 and low <= DEFAULT_TIME_BANK <= high
    assert REFILL_SECONDS == 5


def test_a_new_player_has_a_full_bank_and_the_refill_stops_at_the_size() -> None:
    bank = TimeBank(30)
    assert bank.full == 30.0
    assert bank.refilled(0.0) == 5.0
    assert bank.refilled(24.5) == 29.5
    assert bank.refilled(26.0) == 30.0
    # The table shrank its bank: what a player holds is cut to the new size.
    assert TimeBank(10).refilled(30.0) == 10.0


def test_seconds_used_are_gone_until_refilled() -> None:
    bank = TimeBank(30)
    # Started at t=100 with 30 s: acting at t=112 keeps 18 s.
    assert bank.left(ends_at=130.0, now=112.0) == 18.0
    # Past its end nothing is left (never negative), and the bank does not start again.
    left = bank.left(ends_at=130.0, now=131.5)
    assert left == 0.0 and not bank.starts(left)
    assert bank.refilled(left) == 5.0 and bank.starts(bank.refilled(left))


@pytest.mark.parametrize("size", [0])
def test_a_bank_of_zero_is_off(size: int) -> None:
    bank = TimeBank(size)
    assert not bank.on
    assert not bank.starts(bank.full)
    assert not bank.starts(bank.refilled(0.0))


@pytest.mark.parametrize(
    ("pre", "legal", "move"),
    [
        (PreAction.CHECK_FOLD, options(can_check=True, to_call=0), Check()),
        (PreAction.CHECK_FOLD, options(can_check=False, to_call=20), Fold()),
        (PreAction.CALL_ANY, options(can_check=True, to_call=0), Check()),
        (PreAction.CALL_ANY, options(can_check=False, to_call=20), Call()),
        # A raise that puts the player all-in is still called: "any".
        (PreAction.CALL_ANY, options(can_check=False, to_call=100, all_in=True), Call()),
    ],
)
def test_pre_action_moves(pre: PreAction, legal: BetOptions, move: object) -> None:
    assert pre_action_move(pre, legal) == move


def test_pre_action_values_are_stable() -> None:
    # Saved in table snapshots and written in custom ids: they must not change.
    assert [p.value for p in PreAction] == ["checkfold", "callany"]
