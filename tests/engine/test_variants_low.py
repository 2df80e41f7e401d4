"""Variants II: lowball, high-low split and several draws, each special rule walked through
with preset decks."""

from __future__ import annotations

import random

import pytest

from engine import (
    Bet,
    Call,
    Check,
    DecisionKind,
    Declare,
    Direction,
    Discard,
    FixedLimit,
    Fold,
    ForcedBets,
    IllegalAction,
    NoLimit,
    PotLimit,
    Raise,
    SpreadLimit,
    TableOptions,
    list_variants,
)
from engine import events as ev
from engine.cards import parse_cards
from engine.rules import Bet as BetStep
from engine.rules import BetStart
from engine.variants import get_variant
from tests.engine.engine_helpers import check_cards, deck_for, make_table, play

RNG = random.Random(43)


def heads_up(variant: str, hands, rest: str = "", **kwargs):
    """a in seat 0, b in seat 1 (the dealer, who posts the small blind heads-up)."""
    table = make_table(["a", "b"], variant=variant, **kwargs)
    table.start_hand(RNG, deck_for(hands, rest))
    return table


def shares(table):
    return [[(s.seat, s.amount, s.half) for s in pot.shares] for pot in table.result.pots]


# -- California lowball ------------------------------------------------------------------------


def test_seven_rule_a_checked_seven_cannot_win_what_is_bet_after_the_check():
    table = heads_up("california-lowball", ["7c 5d 4h 3s 2c", "Kc Qd Jh 9s 8c"])
    assert table.to_act == (1,)
    play(table, [("b", Call()), ("a", Check()), ("a", Discard()), ("b", Discard())])
    table.act("a", Check())  # a seven-high low checked after the draw
    table.act("b", Bet(4))
    table.act("a", Call())
    result = table.result
    assert [p.amount for p in result.pots] == [4, 8]
    assert shares(table) == [[(0, 4, "all")], [(1, 8, "all")]]
    assert result.final_stacks == {"a": 98, "b": 102}


def test_seven_rule_does_not_touch_an_eight_low_or_a_bet_seven():
    table = heads_up("california-lowball", ["8c 5d 4h 3s 2c", "Kc Qd Jh 9s 8d"])
    play(table, [("b", Call()), ("a", Check()), ("a", Discard()), ("b", Discard())])
    play(table, [("a", Check()), ("b", Bet(4)), ("a", Call())])
    assert shares(table) == [[(0, 12, "all")]]


def test_seven_rule_judges_the_hand_after_the_last_draw():
    """With two draws, a seven checked between them may still be drawn to or broken: the rule
    caps only a check after the last draw."""
    hands = ["7c 5d 4h 3s 2c", "Kc Qd Jh 9s 8c"]
    for checked_last in (False, True):
        table = heads_up("double-draw-lowball", hands, "Th 9d")
        play(table, [("b", Call()), ("a", Check()), ("a", Discard()), ("b", Discard())])
        if checked_last:
            play(table, [("a", Bet(2)), ("b", Call())])
        else:
            play(table, [("a", Check()), ("b", Check())])  # a seven checked between the draws
        play(table, [("a", Discard()), ("b", Discard(parse_cards("Kc Qd")))])
        if checked_last:
            play(table, [("a", Check()), ("b", Bet(4)), ("a", Call())])
            assert [p.amount for p in table.result.pots] == [8, 8]
        else:
            play(table, [("a", Bet(4)), ("b", Call())])
            assert shares(table) == [[(0, 12, "all")]]


def test_no_check_raise_after_the_draw_in_limit_games_only():
    hands = ["9c 8d 6h 3s 2c", "Kc Qd Jh 9s 8c"]
    # Fixed or spread limit: the rule is only left out at pot limit and no limit.
    for structure in (None, SpreadLimit(2, 4)):
        table = heads_up("california-lowball", hands, structure=structure)
        play(table, [("b", Call()), ("a", Check()), ("a", Discard()), ("b", Discard())])
        table.act("a", Check())
        table.act("b", Bet(4))
        legal = table.pending[0].legal
        assert legal.min_to is None and "checked" in legal.no_raise_reason
        with pytest.raises(IllegalAction, match="checked"):
            table.act("a", Raise(8))
    table = heads_up("california-lowball", hands, structure=PotLimit(2))
    play(table, [("b", Call()), ("a", Check()), ("a", Discard()), ("b", Discard())])
    play(table, [("a", Check()), ("b", Bet(4))])
    assert table.pending[0].legal.min_to == 8


def test_california_lowball_has_the_joker_as_fitter_and_no_checking_before_the_draw():
    table = heads_up(
        "california-lowball",
        ["JK 5d 4h 3s 2c", "Kc Qd Jh 9s 8c"],
        forced=ForcedBets.antes(1),
    )
    assert table.private_view("a").low == "Five-four low"
    legal = table.pending[0].legal  # antes only: the first player must open or fold
    assert not legal.can_check and legal.min_to == 2
    with pytest.raises(IllegalAction, match="bet or fold"):
        table.act("a", Check())


def test_kansas_city_and_ace_to_six_rank_lows_their_own_way():
    hands = ["7c 5d 4h 3s 2c", "5h 4d 3c 2h Ad"]
    table = heads_up("kansas-city-lowball", hands)
    assert table.config.rules().deck.value == 52 and not table.config.rules().seven_rule
    assert table.private_view("b").low.lower().startswith("ace")  # A-5-4-3-2 is ace high
    play(table, [("b", Call()), ("a", Check()), ("a", Discard()), ("b", Discard())])
    play(table, [("a", Check()), ("b", Check())])
    assert shares(table) == [[(0, 4, "all")]]
    table = heads_up("ace-to-six-lowball", ["6h 4c 3d 2s Ac", "5h 4d 3c 2h Ad"])
    play(table, [("b", Call()), ("a", Check()), ("a", Discard()), ("b", Discard())])
    play(table, [("a", Check()), ("b", Check())])
    assert shares(table) == [[(0, 4, "all")]]  # 5-4-3-2-A is a straight in ace-to-six


# -- Johnson and jacks back --------------------------------------------------------------------

BOB = "6c 5d 4h 3s 2c"


def johnson_table():
    return make_table(
        ["bob", "carol", "david", "alice"],
        variant="johnson",
        structure=SpreadLimit(1, 2, 2, 4),
        forced=ForcedBets.antes(1),
        options=TableOptions(second_round_from_opener=False),
    )


def test_johnson_first_deal_is_played_for_high():
    hands = [BOB, "Qh Qd 9c 8s 4d", "Kc Jd 9h 7c 3d", "Ah Ad Kd 7d 5s"]
    table = johnson_table()
    table.start_hand(RNG, deck_for(hands, "9d Jc Td 2d Ac Kh"))
    play(
        table,
        [
            ("bob", Check()),
            ("carol", Bet(1)),
            ("david", Fold()),
            ("alice", Raise(2)),
            ("bob", Raise(3)),
            ("carol", Call()),
            ("alice", Call()),
            ("bob", Discard()),
            ("carol", Discard(parse_cards("9c 8s 4d"))),
            ("alice", Discard(parse_cards("7d 5s"))),
            ("bob", Bet(2)),
            ("carol", Fold()),
            ("alice", Raise(4)),
            ("bob", Call()),
        ],
    )
    result = table.result
    assert [s.high for s in result.shown] == ["Full house, aces over kings", "Straight, six high"]
    assert shares(table) == [[(3, 21, "all")]]


def test_johnson_second_deal_turns_to_lowball_and_bob_wins_with_six_high():
    hands = [BOB, "Qh Qd 9c 8s 4d", "7d 5h 4c 3d Kh", "Jc Jd 9h 8d 2h"]
    table = johnson_table()
    table.start_hand(RNG, deck_for(hands, "Ts Ah"))
    events = []
    for who in ("bob", "carol", "david", "alice"):
        events += table.act(who, Check())
    assert ev.GameSwitched("Johnson, turned to lowball") in events
    assert table.public_view().game == "Johnson, turned to lowball"
    assert table.pending[0].player_id == "bob"  # the dealer's left may open again, for low
    play(
        table,
        [
            ("bob", Bet(1)),
            ("carol", Fold()),
            ("david", Raise(2)),
            ("alice", Fold()),
            ("bob", Raise(3)),
            ("david", Call()),
            ("bob", Discard()),
            ("david", Discard(parse_cards("Kh"))),
            ("bob", Bet(2)),
            ("david", Call()),
        ],
    )
    result = table.result
    assert [s.low for s in result.shown] == ["Six-five low", "Seven-five low"]
    assert shares(table) == [[(0, 14, "all")]]


def test_johnson_passed_out_twice_everyone_antes_and_a_new_deal_follows():
    table = johnson_table()
    table.start_hand(RNG)
    for _ in range(2):
        for who in ("bob", "carol", "david", "alice"):
            table.act(who, Check())
    assert table.result.passed_out and table.result.carried == 4
    table.start_hand(RNG)
    assert table.public_view().pot_total == 8


def test_jacks_back_needs_jacks_for_high_then_turns_to_lowball_with_an_optional_blind():
    hands = ["Kc Qd 9h 7s 2c", "Kd Qh 9s 7c 3d", "Tc Td 8h 6s 4c"]
    table = make_table(["a", "b", "c"], variant="jacks-back", variant_options=("lowball-blind",))
    table.start_hand(RNG, deck_for(hands))
    assert table.pending[0].legal.min_to is None  # no jacks: no opening for high
    events = []
    for who in "abc":
        events += table.act(who, Check())
    assert any(isinstance(e, ev.GameSwitched) for e in events)
    assert ev.ForcedBet(0, "blind", 2, False) in events  # a, left of the dealer, posts a blind
    assert table.pending[0].player_id == "b"
    play(table, [("b", Call()), ("c", Call())])
    legal = table.pending[0].legal
    assert table.pending[0].player_id == "a" and legal.can_check and legal.min_to == 4


# -- high-low ----------------------------------------------------------------------------------


def test_california_high_low_unqualified_low_lets_high_take_all():
    table = heads_up("california-high-low", ["Kc Kd 9h 7s 2c", "Qc Qd 9s 8c 3d"])
    play(table, [("a", Bet(2)), ("b", Call()), ("a", Discard()), ("b", Discard())])
    play(table, [("a", Check()), ("b", Check())])
    assert shares(table) == [[(0, 6, "all")]]


def test_california_high_low_scoop_with_a_wheel_and_the_odd_chip_to_high():
    hands = ["Ac 2d 3h 4s 5c", "8c 7d 6h 4d 2h", "Kc Kd Ks 9d 9h"]
    table = make_table(["a", "b", "c"], variant="california-high-low")
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call())])
    play(table, [(p, Discard()) for p in "abc"] + [(p, Check()) for p in "abc"])
    assert table.result.shown[0].high == "Straight, five high"
    assert shares(table) == [[(2, 5, "high"), (0, 4, "low")]]  # kings full beat the wheel
    hands = ["Ac 2d 3h 4s 5c", "8c 7d 6h 4d 2h", "Kc Kd Qs 9d 7h"]
    table = make_table(["a", "b", "c"], variant="california-high-low")
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call())])
    play(table, [(p, Discard()) for p in "abc"] + [(p, Check()) for p in "abc"])
    assert shares(table) == [[(0, 5, "high"), (0, 4, "low")]]  # the wheel scoops


def declare_table(hands, directions, low: str | None = None):
    options = () if low is None else (low,)
    names = [chr(ord("a") + i) for i in range(len(hands))]
    table = make_table(names, variant="high-low-declare", variant_options=options)
    table.start_hand(RNG, deck_for(hands))
    play(table, [(names[0], Bet(2))] + [(n, Call()) for n in names[1:]])
    play(table, [(n, Discard()) for n in names] + [(n, Check()) for n in names])
    assert {d.kind for d in table.pending} == {DecisionKind.DECLARE}
    assert len(table.pending) == len(names)  # everyone declares at once
    events = []
    for name, direction in zip(names, directions, strict=True):
        new = table.act(name, Declare(direction))
        if name != names[-1]:
            assert not any(isinstance(e, ev.Declared) for e in new)  # secret until all chose
        events += new
    declared = [e for e in events if isinstance(e, ev.Declared)]
    assert len(declared) == len(names)  # revealed together, after the last choice
    return table


def test_declare_both_and_tied_for_high_wins_nothing():
    hands = ["Ac 2d 3h 4s 6c", "Kc Kd 9h 9s 2c", "Kh Ks 9c 9d 2h", "8c 7d 6h 5d 3d"]
    table = declare_table(hands, [Direction.BOTH, Direction.HIGH, Direction.HIGH, Direction.LOW])
    # a's six-four is the best low, but a declared both and is not the best high: a wins
    # nothing; b and c tie for high and share that half; d is left to win low.
    assert shares(table) == [[(1, 3, "high"), (2, 3, "high"), (3, 6, "low")]]
    hands = ["Ac 2d 3h 4s 6c", "Kc Kd 9h 9s 2c", "Kh Ks 9c 9d 2h"]
    table = declare_table(hands, [Direction.LOW, Direction.BOTH, Direction.HIGH])
    # b ties c for high, so b's scoop fails; c takes high and a low.
    assert shares(table) == [[(2, 5, "high"), (0, 4, "low")]]


def test_declare_both_failed_in_the_main_pot_wins_no_side_pot_either():
    # a declares both: a's six-high straight is the best high, but c's six-four beats a's
    # six-five low in the main pot, so a wins nothing at all, the side pot that only a and b
    # contest included: b (high) takes it whole.
    hands = ["2c 3d 4h 5s 6c", "Kc Kd 9h 9s 7h", "Ad 2h 3c 4d 6d"]
    table = make_table(
        ["a", "b", "c"], variant="high-low-declare", stacks=[100, 100, 3], structure=NoLimit(2)
    )
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call())])
    play(table, [(p, Discard()) for p in "abc"] + [("a", Bet(10)), ("b", Call())])
    for name, direction in zip("abc", [Direction.BOTH, Direction.HIGH, Direction.LOW], strict=True):
        table.act(name, Declare(direction))
    assert shares(table) == [[(1, 5, "high"), (2, 4, "low")], [(1, 20, "all")]]


def test_declare_nobody_low_or_everybody_low_gives_the_whole_pot_one_way():
    hands = ["Ac 2d 3h 4s 6c", "Kc Kd 9h 9s 2c", "Qh Qs 9c 8d 3c"]
    table = declare_table(hands, [Direction.HIGH, Direction.HIGH, Direction.HIGH])
    assert shares(table) == [[(1, 9, "all")]]
    table = declare_table(hands, [Direction.LOW, Direction.LOW, Direction.LOW])
    assert shares(table) == [[(0, 9, "all")]]


def test_declare_a_clean_scoop_and_other_lows():
    hands = ["Ac Ad Ah As 2c", "Kc Kd 9h 9s 3c", "8c 7d 6h 5d 4h"]
    table = declare_table(hands, [Direction.BOTH, Direction.HIGH, Direction.HIGH], low="low:27")
    assert table.config.rules().low.value == "deuce-to-seven"
    # a's four aces win high outright, but a also needs the best low among those declaring low
    # or both, where a is alone: a scoops.
    assert shares(table) == [[(0, 9, "all")]]


def test_a_declare_game_played_for_high_only_asks_nobody_to_declare():
    # The "high" modifier makes the game high only: a declaration would mean nothing, so
    # the hand goes from the last betting round straight to the showdown.
    table = make_table(["a", "b"], variant="high-low-declare", variant_options=("high",))
    assert table.config.rules().split.value == "high"
    table.start_hand(RNG, deck_for(["Kc Kd 9h 7s 2c", "Ac 2d 3h 4s 6c"]))
    play(table, [("a", Bet(2)), ("b", Call()), ("a", Discard()), ("b", Discard())])
    play(table, [("a", Check()), ("b", Check())])
    assert not table.in_hand and shares(table) == [[(0, 6, "all")]]


# -- several draws, four-before, Q-Ball --------------------------------------------------------


def test_triple_draw_has_three_draws_and_small_small_big_big_limits():
    table = make_table(["a", "b"], variant="triple-draw-27", structure=FixedLimit(2))
    table.start_hand(RNG)
    sizes = []
    draws = 0
    while table.in_hand:
        decision = table.pending[0]
        if decision.kind is DecisionKind.DRAW:
            draws += decision.player_id == "a"
            table.act(decision.seat, Discard(decision.legal.cards[:2]))
            check_cards(table)
        else:
            legal = decision.legal
            if legal.to_call == 0 and legal.min_to is not None:
                sizes.append(legal.min_to - legal.current_bet)
                table.act(decision.seat, Bet(legal.min_to))
            else:
                table.act(decision.seat, Call())
    assert draws == 3
    assert sizes[-3:] == [2, 4, 4] and table.result.shown
    assert [
        e.number for e in table.events if isinstance(e, ev.RoundStarted) and e.kind == "draw"
    ] == [
        1,
        2,
        3,
    ]


def test_four_before_deals_four_and_the_draw_gives_one_more_than_discarded():
    table = make_table(["a", "b"], variant="four-before")
    table.start_hand(RNG, deck_for(["Ac 2d 3h Ks", "Kc Qd Jh Ts"], "9s 4c 5c 6d"))
    assert len(table.private_view("a").cards) == 4
    play(table, [("b", Call()), ("a", Check())])
    legal = table.pending[0].legal
    assert legal.extra == 1
    events = table.act("a", Discard(parse_cards("Ks")))
    drew = next(e for e in events if isinstance(e, ev.Drew))
    assert drew.received == parse_cards("4c 5c")
    assert table.private_view("a").low == "Five-four low"
    table.act("b", Discard())
    assert len(table.private_view("b").cards) == 5
    check_cards(table)


def test_q_ball_streets_blinds_and_no_check_rounds():
    table = make_table(["a", "b", "c", "d"], variant="q-ball")
    events = table.start_hand(RNG)
    blinds = [(e.seat, e.amount) for e in events if isinstance(e, ev.ForcedBet)]
    assert blinds == [(3, 1), (0, 1), (1, 2)]  # the dealer, then the next two
    assert all(len(table.private_view(n).cards) == 3 for n in "abcd")
    assert table.to_act == (2,)  # after the big blind
    legal = table.pending[0].legal
    assert not legal.can_check and legal.to_call == 2
    play(table, [("c", Call()), ("d", Call()), ("a", Call()), ("b", Check())])
    assert all(len(table.private_view(n).cards) == 4 for n in "abcd")
    legal = table.pending[0].legal  # dealer's left must open or fold
    assert table.pending[0].player_id == "a" and not legal.can_check and legal.min_to == 2
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call()), ("d", Call())])
    assert all(len(table.private_view(n).cards) == 5 for n in "abcd")
    assert table.pending[0].legal.can_check  # checking allowed on the third round
    play(table, [(n, Check()) for n in "abcd"])
    play(table, [(n, Discard()) for n in "abcd"])
    legal = table.pending[0].legal
    assert legal.min_to == 4  # 1-2-2-4
    play(table, [("a", Bet(4)), ("b", Fold()), ("c", Fold()), ("d", Fold())])
    assert table.result.uncontested == 0


def test_extra_draws_keep_each_games_own_betting_rounds():
    # Q-Ball with two draws: its 1-2-2 rounds before the draw stay, the round between the
    # draws is a big one and the last round keeps its four units.
    table = make_table(["a", "b", "c"], variant="q-ball", variant_options=("draws:2",))
    table.start_hand(RNG)
    sizes = []
    while table.in_hand:
        decision = table.pending[0]
        legal = decision.legal
        if decision.kind is DecisionKind.DRAW:
            table.act(decision.seat, Discard())
        elif legal.to_call == 0 and legal.min_to is not None and legal.is_bet:
            sizes.append(legal.min_to)
            table.act(decision.seat, Bet(legal.min_to))
        else:
            table.act(decision.seat, Call())
    assert sizes == [2, 2, 2, 4]
    # A single draw changes nothing, even where no betting round follows the draw (the
    # shotgun's rollout takes its place); Johnson's lowball rounds still begin at the
    # dealer's left after each draw.
    shotgun = get_variant("shotgun")
    assert shotgun.build(["draws:1"]).steps == shotgun.rules.steps
    low = get_variant("johnson").build(["draws:2"]).switch_on_pass_out
    assert low is not None
    starts = [s.start for s in low.steps[3:] if isinstance(s, BetStep)]
    assert starts == [BetStart.DEALER_LEFT, BetStart.DEALER_LEFT]


def test_the_catalogue_has_every_low_and_split_game():
    slugs = {v.slug for v in list_variants()}
    assert {
        "california-lowball",
        "kansas-city-lowball",
        "ace-to-six-lowball",
        "johnson",
        "jacks-back",
        "california-high-low",
        "high-low-declare",
        "double-draw-lowball",
        "triple-draw-27",
        "four-before",
        "q-ball",
    } <= slugs


def test_a_triple_draw_game_can_be_composed_from_modifiers():
    table = make_table(
        ["a", "b"],
        variant="california-lowball",
        variant_options=("draws:3", "wild:13"),
        structure=NoLimit(2),
    )
    assert table.config.rules().name == "Triple-draw California lowball, kings wild"
    assert table.config.rules().draws == 3


def test_high_low_any_pair_no_pair_needs_a_pair_for_high_and_no_pair_for_low():
    # The rules' third way to qualify: a pair or better to win high, no pair to win low.
    hands = ["6c 4d 3h 2s Ac", "Kc Kd 9h 7s 2c", "Qc Jd 9s 8c 3d"]
    table = make_table(["a", "b", "c"], variant="five-card-draw", variant_options=("hilo:any",))
    assert table.config.rules().name == (
        "Five-card draw, high-low split, a pair or better for high, no pair for low"
    )
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call())])
    play(table, [(p, Discard()) for p in "abc"] + [(p, Check()) for p in "abc"])
    assert shares(table) == [[(1, 5, "high"), (0, 4, "low")]]
    # Nobody holds a pair: no high qualifies, and the best low takes the whole pot (the
    # queen-high c would have won high at a table without the qualifier).
    hands = ["6c 4d 3h 2s Ac", "Kc Qd 9h 7s 2c", "Qc Jd 9s 8c 3d"]
    table = make_table(["a", "b", "c"], variant="five-card-draw", variant_options=("hilo:any",))
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call())])
    play(table, [(p, Discard()) for p in "abc"] + [(p, Check()) for p in "abc"])
    assert shares(table) == [[(0, 9, "all")]]
    # A pair never wins low, however low it is; a straight is no pair and wins both ways.
    hands = ["5c 4d 3h 2s Ac", "2c 2d 3c 4s 5d", "Kc Kh 9s 8c 3d"]
    table = make_table(["a", "b", "c"], variant="five-card-draw", variant_options=("hilo:any",))
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call())])
    play(table, [(p, Discard()) for p in "abc"] + [(p, Check()) for p in "abc"])
    assert shares(table) == [[(0, 5, "high"), (0, 4, "low")]]
