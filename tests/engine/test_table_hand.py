"""Scenario tests for a hand of five-card draw, played move by move with preset decks."""

from __future__ import annotations

import random

import pytest

from engine import (
    Bet,
    Call,
    Check,
    DecisionKind,
    Discard,
    Fold,
    ForcedBets,
    IllegalAction,
    NoLimit,
    Raise,
    SpreadLimit,
    TableOptions,
    Timeout,
)
from engine import events as ev
from engine.cards import parse_cards
from engine.rules import DRAW_FIVE, DRAW_THREE
from tests.engine.engine_helpers import deck_for, make_table, play

RNG = random.Random(7)

# The worked example of the rules: Alice deals; Bob is on her left, then Carol, then David.
BOB = "Kc Kd 7s 4h 2c"
CAROL = "6d 6h Ts 3c 2d"
DAVID = "Ah Jh 8h 5h Qs"
ALICE = "Qh Qd 9s 4c 3h"
EXAMPLE_DECK = deck_for([BOB, CAROL, DAVID, ALICE], "Kh 8c 5d 3s 2h 7c 7d Jd")


def example_table():
    table = make_table(
        ["bob", "carol", "david", "alice"],
        structure=SpreadLimit(1, 5),
        forced=ForcedBets.antes(1),
    )
    table.start_hand(RNG, EXAMPLE_DECK)
    return table


def test_worked_example_move_by_move():
    table = example_table()
    view = table.public_view()
    assert view.button == 3 and view.seats[3].player_id == "alice"
    assert view.pot_total == 4
    # Five cards each, dealt one at a time from the dealer's left.
    assert table.private_view("bob").cards == parse_cards(BOB)
    assert table.private_view("alice").cards == parse_cards(ALICE)
    assert [d.player_id for d in table.pending] == ["bob"]

    events = table.act("bob", Bet(1))
    assert events == (ev.BetPlaced(0, 1, 1, False),)
    table.act("carol", Fold())
    table.act("david", Call())
    events = table.act("alice", Call())
    assert events[-1] == ev.RoundStarted("draw", 1, 0)
    assert table.pending[0].kind is DecisionKind.DRAW

    events = table.act("bob", Discard(parse_cards("7s 4h 2c")))
    assert events == (
        ev.Burned(parse_cards("Kh")[0]),
        ev.Drew(0, parse_cards("7s 4h 2c"), parse_cards("8c 5d 3s")),
    )
    table.act("david", Discard(parse_cards("Qs")))
    table.act("alice", Discard(parse_cards("9s 4c 3h")))
    view = table.public_view()
    assert [s.draws for s in view.seats] == [(3,), (), (1,), (3,)]
    assert table.private_view("david").high == "Flush, ace high"
    assert table.private_view("alice").high == "Two pair, queens and sevens"

    # The opener, Bob, begins the second round.
    assert [d.player_id for d in table.pending] == ["bob"]
    table.act("bob", Check())
    table.act("david", Bet(3))
    table.act("alice", Call())
    events = table.act("bob", Fold())
    shown = [e for e in events if isinstance(e, ev.Shown)]
    assert [e.seat for e in shown] == [2, 3]  # David bet last, so he shows first
    assert shown[0].high == "Flush, ace high"
    result = table.result
    assert result is not None
    assert result.pots[0].amount == 13
    assert [(s.player_id, s.amount) for s in result.pots[0].shares] == [("david", 13)]
    assert result.final_stacks == {"bob": 98, "carol": 99, "david": 108, "alice": 95}
    assert not table.in_hand and table.pending == ()


def test_button_moves_left_each_hand_and_skips_sitting_out():
    table = make_table(["a", "b", "c", "d"])
    buttons = []
    for _ in range(3):
        table.start_hand(RNG)
        buttons.append(table.public_view().button)
        while table.in_hand:
            table.act(table.to_act[0], Timeout())
    assert buttons == [3, 0, 1]
    table.sit_out("c")
    table.start_hand(RNG)
    assert table.public_view().button == 3  # seat 2 sits out
    assert "c" not in table.hand.by_pid


def test_first_round_starts_left_of_dealer_with_antes():
    table = make_table(["a", "b", "c"])
    table.start_hand(RNG)
    assert table.to_act == (0,)


def test_all_check_first_round_passes_out_and_everyone_antes_again():
    table = make_table(["a", "b", "c"], forced=ForcedBets.antes(2))
    table.start_hand(RNG)
    events = []
    for who in ["a", "b", "c"]:
        events += table.act(who, Check())
    assert isinstance(events[-2], ev.PassedOut) and events[-2].pot == 6
    assert table.result.passed_out and table.result.carried == 6
    assert table.public_view().pot_total == 6
    assert table.chips() == 300
    table.start_hand(RNG)
    view = table.public_view()
    assert view.button == 0  # the deal passed left
    assert view.pot_total == 12  # the pot stayed and everyone anted again
    assert [s.stack for s in view.seats] == [96, 96, 96]
    assert any(isinstance(e, ev.PotCarried) and e.amount == 6 for e in table.events)


def test_pass_out_can_be_a_plain_new_deal_with_the_same_dealer():
    options = TableOptions(pass_out_reante=False, pass_out_deal_passes=False)
    table = make_table(["a", "b", "c"], forced=ForcedBets.antes(2), options=options)
    table.start_hand(RNG)
    for who in ["a", "b", "c"]:
        table.act(who, Check())
    table.start_hand(RNG)
    view = table.public_view()
    assert view.button == 2
    assert view.pot_total == 6
    assert [s.stack for s in view.seats] == [98, 98, 98]


def test_blinds_first_round_left_of_big_blind_and_big_blind_option():
    table = make_table(
        ["a", "b", "c", "d"], structure=NoLimit(2), forced=ForcedBets.with_blinds(1, 2)
    )
    table.start_hand(RNG)
    view = table.public_view()
    assert [s.bet for s in view.seats] == [1, 2, 0, 0]
    assert table.to_act == (2,)  # left of the big blind
    play(table, [("c", Call()), ("d", Call()), ("a", Call())])
    legal = table.pending[0].legal
    assert table.pending[0].player_id == "b" and legal.can_check and legal.min_to == 4
    table.act("b", Check())
    assert table.pending[0].kind is DecisionKind.DRAW
    assert table.pending[0].player_id == "a"


def test_blinds_heads_up_dealer_posts_the_small_blind():
    table = make_table(["a", "b"], structure=NoLimit(2), forced=ForcedBets.with_blinds(1, 2))
    table.start_hand(RNG)
    view = table.public_view()
    assert view.button == 1
    assert [s.bet for s in view.seats] == [2, 1]
    assert table.to_act == (1,)  # the dealer (small blind) acts first before the draw
    play(table, [("b", Call()), ("a", Check())])
    play(table, [("a", Discard()), ("b", Discard())])
    assert table.to_act == (0,)  # dealer's left after the draw


def test_straddle_moves_the_first_action_and_the_minimum_raise():
    table = make_table(
        ["a", "b", "c", "d", "e"],
        structure=NoLimit(2),
        forced=ForcedBets.with_blinds(1, 2, straddle=4),
    )
    table.start_hand(RNG)
    assert [s.bet for s in table.public_view().seats] == [1, 2, 4, 0, 0]
    assert table.to_act == (3,)
    legal = table.pending[0].legal
    assert legal.to_call == 4 and legal.min_to == 8


def test_ante_and_blinds_and_dealers_edge():
    table = make_table(
        ["a", "b", "c"], structure=NoLimit(2), forced=ForcedBets.with_blinds(1, 2, ante=1)
    )
    table.start_hand(RNG)
    view = table.public_view()
    assert view.pot_total == 6
    assert [s.stack for s in view.seats] == [98, 97, 99]
    table = make_table(["a", "b", "c"], forced=ForcedBets.dealers_edge(3))
    table.start_hand(RNG)
    assert [s.stack for s in table.public_view().seats] == [100, 100, 97]


def test_uncontested_pot_is_won_without_showing():
    table = make_table(["a", "b", "c"], forced=ForcedBets.antes(1))
    table.start_hand(RNG)
    table.act("a", Bet(2))
    table.act("b", Fold())
    events = table.act("c", Fold())
    assert not any(isinstance(e, ev.Shown) for e in events)
    assert ev.BetReturned(0, 2) in events
    result = table.result
    assert result.uncontested == 0 and result.shown == ()
    assert result.final_stacks == {"a": 102, "b": 99, "c": 99}
    # The next deal lets the last hand go, its result with it.
    table.start_hand(RNG)
    assert table.in_hand and table.result is None


def test_second_round_starts_with_next_active_player_left_of_a_folded_opener():
    table = make_table(["a", "b", "c", "d"])
    table.start_hand(RNG)
    play(table, [("a", Check()), ("b", Bet(2)), ("c", Call()), ("d", Call()), ("a", Call())])
    play(table, [(p, Discard()) for p in "abcd"])
    assert table.to_act == (1,)  # the opener b begins
    table2 = make_table(["a", "b", "c", "d"], options=TableOptions(second_round_from_opener=False))
    table2.start_hand(RNG)
    play(table2, [("a", Check()), ("b", Bet(2)), ("c", Call()), ("d", Call()), ("a", Call())])
    play(table2, [(p, Discard()) for p in "abcd"])
    assert table2.to_act == (0,)


def test_showdown_order_when_everyone_checks_after_the_draw_starts_with_the_opener():
    table = make_table(["a", "b", "c"])
    table.start_hand(RNG)
    play(table, [("a", Check()), ("b", Bet(2)), ("c", Call()), ("a", Call())])
    play(table, [(p, Discard()) for p in "abc"])
    events = []
    for who in "bca":
        events += table.act(who, Check())
    assert [e.seat for e in events if isinstance(e, ev.Shown)] == [1, 2, 0]


def test_showdown_order_after_a_folded_opener_starts_left_of_the_opener():
    # b opens and folds to c's raise; after the draw the betting begins on b's left (c) and
    # everyone checks: the hands are shown from there too, as the opener would have begun.
    table = make_table(["a", "b", "c", "d"])
    table.start_hand(RNG)
    play(table, [("a", Check()), ("b", Bet(2)), ("c", Raise(4)), ("d", Call()), ("a", Call())])
    play(table, [("b", Fold())])
    play(table, [(p, Discard()) for p in "acd"])
    assert table.to_act == (2,)
    events = []
    for who in "cda":
        events += table.act(who, Check())
    assert [e.seat for e in events if isinstance(e, ev.Shown)] == [2, 3, 0]


def test_draw_limits_three_four_with_an_ace_and_five():
    hands = ["As Kd 7c 5h 2s", "Kh Qd 9c 6h 3s"]
    table = make_table(["a", "b"])
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call())])
    legal = table.pending[0].legal
    assert legal.counts == (0, 1, 2, 3, 4) and legal.ace_count == 4 and legal.condition
    with pytest.raises(IllegalAction, match="ace"):
        table.act("a", Discard(parse_cards("As Kd 7c 5h")))
    table.act("a", Discard(parse_cards("Kd 7c 5h 2s")))
    with pytest.raises(IllegalAction):
        table.act("b", Discard(parse_cards("Kh Qd 9c 6h")))  # no ace kept
    table = make_table(["a", "b"], options=TableOptions(draw_limit=DRAW_THREE))
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call())])
    assert table.pending[0].legal.counts == (0, 1, 2, 3)
    table = make_table(["a", "b"], options=TableOptions(draw_limit=DRAW_FIVE))
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call())])
    assert table.pending[0].legal.counts == (0, 1, 2, 3, 4, 5)
    table.act("a", Discard(parse_cards(hands[0])))
    assert len(table.private_view("a").cards) == 5


def nine_player_table():
    names = [f"p{i}" for i in range(9)]
    hands = [
        "2c 2d 2h 2s 3c",
        "3d 3h 3s 4c 4d",
        "4h 4s 5c 5d 5h",
        "5s 6c 6d 6h 6s",
        "7c 7d 7h 7s 8c",
        "8d 8h 8s 9c 9d",
        "9h 9s Tc Td Th",
        "Ts Jc Jd Jh Js",
        "Qc Qd Qh Qs Kc",
    ]
    deck = deck_for(hands, "Kd Kh Ks Ac Ad Ah As")
    table = make_table(names, options=TableOptions(draw_limit=DRAW_THREE))
    table.start_hand(random.Random(3), deck)
    play(table, [(names[0], Bet(2))] + [(n, Call()) for n in names[1:]])
    return table, names


def test_burn_card_bottom_card_and_reshuffle_of_earlier_discards():
    table, _ = nine_player_table()
    events = table.act("p0", Discard(parse_cards("2c 2d 2h")))
    assert events[0] == ev.Burned(parse_cards("Kd")[0])
    assert events[1].received == parse_cards("Kh Ks Ac")
    events = table.act("p1", Discard(parse_cards("3d 3h 3s")))
    # Two cards from the stub; the bottom card (As) is never dealt from it. Then the burn card,
    # the bottom card and p0's discards are reshuffled (never p1's own discards).
    reshuffle = next(e for e in events if isinstance(e, ev.Reshuffled))
    assert reshuffle.count == 5
    drew = next(e for e in events if isinstance(e, ev.Drew))
    assert drew.received[:2] == parse_cards("Ad Ah")
    assert drew.received[2] in parse_cards("Kd As 2c 2d 2h")
    assert not set(drew.received) & set(parse_cards("3d 3h 3s"))
    legal = table.pending[0].legal
    assert legal.counts == (0, 1, 2, 3)
    from tests.engine.engine_helpers import check_cards

    check_cards(table)


def test_draw_counts_never_exceed_what_can_be_supplied():
    table, names = nine_player_table()
    table.act("p0", Discard())
    table.act("p1", Discard(parse_cards("3d")))
    # p2 can draw from 4 stub cards plus p1's discard and the burn card.
    for name in names[2:]:
        legal = table.pending[0].legal
        assert max(legal.counts) <= table.hand.supply()
        table.act(name, Discard(tuple(legal.cards[: max(legal.counts)])))
    from tests.engine.engine_helpers import check_cards

    check_cards(table)
    assert table.pending[0].kind is DecisionKind.BET


def test_ties_split_with_the_odd_chip_to_the_first_winner_left_of_the_dealer():
    hands = ["As Ks Qd Jc 9h", "2c 3d 4h 5s 7c", "Ad Kh Qc Jd 9s"]
    table = make_table(["a", "b", "c"], forced=ForcedBets.antes(1))
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call())])
    play(table, [(p, Discard()) for p in "abc"])
    play(table, [("a", Check()), ("b", Check()), ("c", Check())])
    shares = table.result.pots[0].shares
    assert [(s.seat, s.amount) for s in shares] == [(0, 5), (2, 4)]


def test_side_pots_each_go_to_the_best_eligible_hand():
    hands = ["As Ad Ac 2d 3h", "Ks Kd Kc 4d 5h", "Qs Qd 7c 8d 9h"]
    table = make_table(
        ["a", "b", "c"], structure=NoLimit(1), forced=ForcedBets.antes(1), stacks=[20, 50, 100]
    )
    table.start_hand(RNG, deck_for(hands))
    table.act("a", Bet(19))  # all-in
    table.act("b", Bet(49))  # all-in raise
    table.act("c", Call())
    play(table, [(p, Discard()) for p in "abc"])  # all-in players still draw
    result = table.result
    assert result is not None
    assert [(p.amount, p.eligible) for p in result.pots] == [(60, (0, 1, 2)), (60, (1, 2))]
    assert [[(s.seat, s.amount) for s in p.shares] for p in result.pots] == [[(0, 60)], [(1, 60)]]
    assert result.final_stacks == {"a": 60, "b": 60, "c": 50}


def test_all_in_players_still_draw_and_betting_is_skipped():
    table = make_table(["a", "b"], structure=NoLimit(1), stacks=[10, 100])
    table.start_hand(RNG)
    table.act("a", Bet(9))
    table.act("b", Call())
    assert table.pending[0].kind is DecisionKind.DRAW
    table.act("a", Discard())
    table.act("b", Discard())
    assert not table.in_hand  # no betting after the draw: straight to the showdown
    assert len(table.result.shown) == 2


def test_timeout_checks_when_possible_else_folds_and_stands_pat_in_a_draw():
    table = make_table(["a", "b", "c"])
    table.start_hand(RNG)
    events = table.act("a", Timeout())
    assert events == (ev.TimedOut(0), ev.Checked(0))
    table.act("b", Bet(2))
    events = table.act("c", Timeout())
    assert events == (ev.TimedOut(2), ev.Folded(2))
    table.act("a", Call())
    events = table.act("a", Timeout())
    assert isinstance(events[1], ev.Drew) and events[1].discarded == ()


def test_illegal_actions_raise_and_change_nothing():
    table = make_table(["a", "b", "c"])
    table.start_hand(RNG)
    before = table.to_dict()
    events_before = table.events
    bad = [
        ("b", Check(), "turn"),
        ("a", Bet(3), "exactly 2"),
        ("a", Discard(), "betting"),
        ("z", Check(), "not playing"),
    ]
    for who, action, reason in bad:
        with pytest.raises(IllegalAction, match=reason):
            table.act(who, action)
    table.act("a", Bet(2))
    with pytest.raises(IllegalAction, match="to call"):
        table.act("b", Check())
    assert table.to_dict()["journal"][:1] == before["journal"][:1]
    assert table.events[: len(events_before)] == events_before
    table.act("b", Call())
    table.act("c", Call())
    with pytest.raises(IllegalAction, match="do not hold"):
        table.act("a", Discard(parse_cards("JK")))
    with pytest.raises(IllegalAction, match="twice"):
        card = table.private_view("a").cards[0]
        table.act("a", Discard((card, card)))
    assert isinstance(IllegalAction("x"), ValueError)


def test_public_and_private_views_during_a_hand():
    table = example_table()
    table.act("bob", Bet(1))
    view = table.public_view()
    assert view.phase == "bet" and view.street == "First betting round"
    assert view.to_act == (1,) and view.to_call == 1 and view.current_bet == 1
    assert view.last_action.text == "bob bets 1"
    assert view.pots[0].amount == 4 and view.pot_total == 5
    assert view.seats[0].bet == 1 and view.seats[0].card_count == 5
    private = table.private_view("carol")
    assert private.decision is not None and private.decision.legal.to_call == 1
    assert private.high == "Pair of sixes"
    assert view.to_dict()["seats"][0]["player_id"] == "bob"
    assert table.private_view("bob").decision is None
