"""Variants I: jackpots and the high-hand draw games, each special rule walked through with
preset decks."""

from __future__ import annotations

import random

import pytest

from engine import (
    Bet,
    Call,
    Check,
    DecisionKind,
    Discard,
    FixedLimit,
    Fold,
    ForcedBets,
    IllegalAction,
    Keep,
    NoLimit,
    Raise,
    TableConfig,
    TableError,
    TableOptions,
    get_variant,
    list_variants,
)
from engine import events as ev
from engine.cards import parse_cards
from engine.commitment import cards_seen
from tests.engine.engine_helpers import check_cards, deck_for, make_table, play

RNG = random.Random(41)
NO_OPENERS = ["Kc Qd 9h 7s 2c", "Kd Qh 9s 7c 3d", "Kh Qs 9c 7d 4h"]


def check_around(table, names):
    for name in names:
        table.act(name, Check())


# -- jacks or better ---------------------------------------------------------------------------


def test_only_a_player_with_openers_may_open_then_anyone_may_call_or_raise():
    hands = ["Kc Qd 9h 7s 2c", "Jc Jh 9s 7c 3d", "Ah Ks Qc 8d 4h"]
    table = make_table(["a", "b", "c"], variant="jacks-or-better")
    table.start_hand(RNG, deck_for(hands))
    legal = table.pending[0].legal
    assert legal.min_to is None and legal.no_raise_reason == (
        "you need a pair of jacks or better to open"
    )
    with pytest.raises(IllegalAction, match="jacks or better"):
        table.act("a", Bet(2))
    table.act("a", Check())
    assert table.pending[0].legal.min_to == 2
    table.act("b", Bet(2))
    legal = table.pending[0].legal
    assert legal.min_to == 4  # c has no openers but may raise an opened pot
    table.act("c", Raise(4))
    table.act("a", Call())  # a checked before and may come in now
    assert table.public_view().opening_requirement == "a pair of jacks or better"


def test_with_blinds_the_blind_opens_the_pot_and_nobody_shows_openers():
    """A jackpot dealt with blinds: the big blind is the first bet, so there is no pot to open.
    The table said "jacks or better to open", and a raiser holding nines was made to show his
    whole hand as "openers" when the others folded."""
    hands = ["Kc Qd 9h 7s 2c", "Jc Jh 9s 7c 3d", "9d 9c Ah 8d 4h"]
    table = make_table(
        ["a", "b", "c"], variant="jacks-or-better", forced=ForcedBets.with_blinds(1, 2)
    )
    assert table.public_view().opening_requirement is None
    table.start_hand(RNG, deck_for(hands))
    assert table.public_view().opening_requirement is None
    table.act("c", Raise(4))  # after the blinds: nines, no openers needed
    table.act("a", Fold())
    events = table.act("b", Fold())
    assert not any(isinstance(e, ev.OpenersShown) for e in events), events
    result = table.result
    assert result is not None and result.openers == () and result.uncontested == 2


def test_two_small_pairs_open_but_tens_with_big_kickers_do_not():
    hands = ["5c 5d 3h 3s 6c", "Tc Td Ah Ks Qc"]
    table = make_table(["a", "b"], variant="jacks-or-better")
    table.start_hand(RNG, deck_for(hands))
    assert table.pending[0].legal.min_to == 2
    table.act("a", Check())
    assert table.pending[0].legal.min_to is None


def test_passed_out_jackpot_reantes_into_the_same_pot_and_the_deal_passes():
    table = make_table(["a", "b", "c"], variant="jacks-or-better")
    table.start_hand(RNG, deck_for(NO_OPENERS))
    check_around(table, "abc")
    assert table.result.passed_out and table.result.carried == 3
    table.start_hand(RNG)
    view = table.public_view()
    assert view.button == 0 and view.pot_total == 6


def test_a_jackpot_nobody_opened_is_not_won_by_the_last_player_left_without_openers():
    # a and b fold instead of checking: c, never asked, has no openers, so nobody opened
    # and the pot stays as when everyone checks.
    table = make_table(["a", "b", "c"], variant="jacks-or-better")
    table.start_hand(RNG, deck_for(NO_OPENERS))
    play(table, [("a", Fold()), ("b", Fold())])
    assert table.result.passed_out and table.result.carried == 3
    assert table.stack("c") == 99
    # With openers the last player left opens, wins the antes and shows the openers.
    table = make_table(["a", "b", "c"], variant="jacks-or-better")
    table.start_hand(RNG, deck_for([*NO_OPENERS[:2], "Jh Js 9c 7d 4h"]))
    events = table.act("a", Fold()) + table.act("b", Fold())
    assert not table.result.passed_out and table.stack("c") == 102
    assert ev.OpenersShown(2, parse_cards("Jh Js")) in events


def test_the_deal_may_stay_after_a_passed_out_jackpot():
    options = TableOptions(pass_out_deal_passes=False)
    table = make_table(["a", "b", "c"], variant="jacks-or-better", options=options)
    table.start_hand(RNG, deck_for(NO_OPENERS))
    check_around(table, "abc")
    table.start_hand(RNG)
    assert table.public_view().button == 2


def test_progressive_openers_rise_to_aces_and_come_back_down():
    table = make_table(["a", "b", "c"], variant="jacks-or-better", variant_options=("progressive",))
    seen = []
    for _ in range(7):
        table.start_hand(RNG)
        seen.append(table.public_view().opening_requirement)
        names = [d.player_id for d in table.pending]
        while table.in_hand:
            table.act(table.pending[0].player_id, Check())
        assert names
    words = [s.split(" ")[3] for s in seen]
    assert words == ["jacks", "queens", "kings", "aces", "kings", "queens", "jacks"]
    # An opened deal resets the requirement to jacks.
    table.start_hand(RNG, deck_for(["Ac Ad 9h 7s 2c", "Kd Qh 9s 7c 3d", "Kh Qs 9c 7d 4h"]))
    while table.pending and table.pending[0].legal.min_to is None:
        table.act(table.pending[0].player_id, Check())
    table.act(table.pending[0].player_id, Bet(2))
    while table.in_hand:
        table.act(table.pending[0].player_id, Fold())
    assert table.public_view().opening_requirement == "a pair of jacks or better"


def test_splitting_openers_is_announced_kept_aside_and_shown_at_the_end():
    hands = ["Kc Jc 9c 7c Jh", "Ah Kd Qd 8s 3d"]
    table = make_table(["a", "b"], variant="jacks-or-better")
    table.start_hand(RNG, deck_for(hands, "2s 5c"))
    play(table, [("a", Bet(2)), ("b", Call())])
    events = table.act("a", Discard(parse_cards("Jh")))
    split = next(e for e in events if isinstance(e, ev.OpenersSplit))
    assert split.cards == parse_cards("Jh")
    assert split.public_dict()["cards"] == 1
    assert table.public_view().seats[0].split_openers
    assert table.private_view("a").split_openers == parse_cards("Jh")
    assert len(table.private_view("a").cards) == 5
    check_cards(table)
    table.act("b", Discard())
    table.act("a", Check())
    events = table.act("b", Check())
    shown = [e for e in events if isinstance(e, ev.OpenersShown)]
    assert shown and set(shown[0].cards) == set(parse_cards("Jc Jh"))
    assert table.result.openers == ((0, shown[0].cards),)


def test_split_openers_are_shown_even_when_the_opener_folds_after_the_draw():
    # The cards an opener split off are proof owed to the table when the pot is paid, won or
    # not; an opener who kept the openers and folds owes nothing.
    hands = ["Kc Jc 9c 7c Jh", "Ah Ad Qd 8s 3d"]
    table = make_table(["a", "b"], variant="jacks-or-better")
    table.start_hand(RNG, deck_for(hands, "2s 5h"))
    play(table, [("a", Bet(2)), ("b", Call()), ("a", Discard(parse_cards("Jh")))])
    play(table, [("b", Discard()), ("a", Check()), ("b", Bet(4))])
    events = table.act("a", Fold())
    assert ev.OpenersShown(0, parse_cards("Jc Jh")) in events
    assert table.result.openers == ((0, parse_cards("Jc Jh")),)
    assert table.result.uncontested == 1

    table = make_table(["a", "b"], variant="jacks-or-better")
    table.start_hand(RNG, deck_for(hands, "2s 5h"))
    play(table, [("a", Bet(2)), ("b", Call()), ("a", Discard(parse_cards("Kc")))])
    play(table, [("b", Discard()), ("a", Check()), ("b", Bet(4))])
    events = table.act("a", Fold())
    assert not any(isinstance(e, ev.OpenersShown) for e in events)


def test_the_opener_shows_openers_even_when_everyone_folds():
    hands = ["Qc Qd 9c 7c 2h", "Ah Kd Jd 8s 3d", "As Kh Js 8h 3c"]
    table = make_table(["a", "b", "c"], variant="jacks-or-better")
    table.start_hand(RNG, deck_for(hands))
    table.act("a", Bet(2))
    table.act("b", Fold())
    events = table.act("c", Fold())
    assert ev.OpenersShown(0, parse_cards("Qc Qd")) in events
    assert table.result.uncontested == 0


def test_jackpot_limit_lets_bets_reach_the_carried_pot():
    table = make_table(
        ["a", "b", "c"],
        variant="jacks-or-better",
        structure=FixedLimit(1),
        forced=ForcedBets.antes(5),
        variant_options=("jackpot-limit",),
    )
    table.start_hand(RNG, deck_for(NO_OPENERS))
    assert table.pending[0].legal.max_to is None  # a has no openers anyway
    check_around(table, "abc")
    table.start_hand(RNG, deck_for(["Qs Qh 9d 7h 2s", "Ad Jc 8s 6h 3c", "Ac Jd 8d 6c 3s"]))
    # b is on the dealer's left now; the pot carried over is 15.
    while table.pending[0].legal.min_to is None:
        table.act(table.pending[0].player_id, Check())
    legal = table.pending[0].legal
    assert (legal.min_to, legal.max_to) == (1, 15)


# -- trips to win ------------------------------------------------------------------------------


def test_trips_to_win_without_trips_the_pot_stays_for_the_players_still_in():
    hands = ["Qc Qd 9c 7c 2h", "Ah Kd Jd 8s 3d", "As Ks Js 8h 3c", "4c 5d 6h 8c Ts"]
    table = make_table(["a", "b", "c", "d"], variant="trips-to-win")
    table.start_hand(RNG, deck_for(hands, "2d 2s 3h 4h 5s 6c 7d 9s"))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call()), ("d", Fold())])
    play(table, [("a", Discard()), ("b", Discard()), ("c", Discard())])
    events = []
    for who in "abc":
        events += table.act(who, Check())
    result = table.result
    assert result.pots == () and result.carried == 10
    assert any(isinstance(e, ev.PotCarried) for e in events)
    table.start_hand(RNG)
    assert set(table.hand.by_pid) == {"a", "b", "c"}  # d folded and is out of this deal
    assert table.public_view().pot_total == 13


def test_trips_to_win_the_new_deal_passed_out_keeps_out_those_who_folded():
    # d folded before the draw of a deal nobody could win: d is out until the pot is won,
    # even when the new deal among a, b and c is passed out and dealt again.
    hands = ["Qc Qd 9c 7c 2h", "Ah Kd Jd 8s 3d", "As Ks Js 8h 3c", "4c 5d 6h 8c Ts"]
    table = make_table(["a", "b", "c", "d"], variant="trips-to-win")
    table.start_hand(RNG, deck_for(hands, "2d 2s 3h 4h 5s 6c 7d 9s"))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call()), ("d", Fold())])
    play(table, [("a", Discard()), ("b", Discard()), ("c", Discard())])
    for who in "abc":
        table.act(who, Check())
    table.start_hand(RNG, deck_for(["Kc Qh 9h 7d 2s", "Ad Kh Jc 8d 3s", "Ac Ks Jh 8c 3h"]))
    assert set(table.hand.by_pid) == {"a", "b", "c"}
    while table.in_hand:
        table.act(table.to_act[0], Check())
    assert table.result.passed_out
    table.start_hand(RNG)
    assert set(table.hand.by_pid) == {"a", "b", "c"}
    assert table.public_view().pot_total == 16  # 10, then three antes twice


def test_trips_to_win_a_player_left_alone_must_show_trips():
    hands = ["Qc Qd Qh 7c 2h", "Ah Kd Jd 8s 3d"]
    table = make_table(["a", "b"], variant="trips-to-win")
    table.start_hand(RNG, deck_for(hands))
    table.act("a", Bet(2))
    events = table.act("b", Fold())
    assert ev.OpenersShown(0, parse_cards("Qc Qd Qh")) in events
    assert table.result.final_stacks["a"] == 101
    hands = ["Jc Jd 9h 7c 2h", "Ah Kd Qd 8s 3d"]
    table = make_table(["a", "b"], variant="trips-to-win")
    table.start_hand(RNG, deck_for(hands))
    table.act("a", Bet(2))
    table.act("b", Fold())
    assert table.result.carried == 2  # the bet came back; the antes stay
    assert "could not show three of a kind" in table.result.note


def test_trips_to_win_the_best_hand_with_trips_wins():
    hands = ["7c 7d 7h Kc 2h", "Ah Ad Jd 8s 3d"]
    table = make_table(["a", "b"], variant="trips-to-win")
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Check()), ("b", Bet(2)), ("a", Call())])
    play(table, [("a", Discard()), ("b", Discard()), ("b", Check()), ("a", Check())])
    shares = table.result.pots[0].shares
    assert [(s.seat, s.amount) for s in shares] == [(0, 6)]


def test_trips_to_win_a_side_pot_nobody_could_win_stays_with_those_who_put_it_in():
    # a, all-in for 5 with queens full... of trips, wins the main pot; b and c played a side
    # pot of 32 without trips, so it stays. It is theirs: in the new deal a (who had no claim
    # to it) plays for the antes only, and b and c each keep their 16 in it.
    hands = ["Qc Qd Qs 7c 2h", "Jh Jd 9s 8s 3d", "Ac Kd 8d 6s 3c"]
    table = make_table(
        ["a", "b", "c"], variant="trips-to-win", stacks=[5, 100, 100], structure=NoLimit(2)
    )
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(4)), ("b", Call()), ("c", Raise(20)), ("b", Call())])
    play(table, [(p, Discard()) for p in "abc"] + [("b", Check()), ("c", Check())])
    assert [
        (pot.amount, [(s.seat, s.amount) for s in pot.shares]) for pot in table.result.pots
    ] == [(15, [(0, 15)])]
    assert table.result.carried == 32
    assert table.carried_stakes == {"b": 16, "c": 16}
    table.start_hand(RNG)
    pots = [(p.amount, set(p.eligible)) for p in table.public_view().pots]
    assert pots == [(3, {0, 1, 2}), (32, {1, 2})]


# -- the bug and wild cards --------------------------------------------------------------------


def test_the_bug_makes_five_aces():
    hands = ["Ac Ad Ah As JK", "Kc Kd Kh Qs Jh"]
    table = make_table(["a", "b"], variant="jacks-or-better", variant_options=("bug",))
    assert table.config.rules().deck.value == 53
    table.start_hand(RNG, deck_for(hands))
    assert table.private_view("a").high == "Five aces"


def test_deuces_wild_and_a_chosen_rank_and_one_eyed_jacks():
    table = make_table(["a", "b"], variant="deuces-wild")
    table.start_hand(RNG, deck_for(["2c 2d Ac Ad 9h", "Kc Qd 9s 7c 3d"]))
    assert table.private_view("a").high.startswith("Four of a kind, aces")
    assert table.pending[0].legal.min_to == 2  # jacks or better to open, wild cards count
    table = make_table(["a", "b"], variant="five-card-draw", variant_options=("wild:13",))
    assert table.config.rules().name == "Five-card draw, kings wild"
    table.start_hand(RNG, deck_for(["Kc Kd Ac Ad As", "Kh Qd 9s 7c 3d"]))
    assert table.private_view("a").high == "Five aces"
    table = make_table(["a", "b"], variant="one-eyed-jacks")
    table.start_hand(RNG, deck_for(["Js Jh Kd 9c 9d", "Jc Qd 9s 7c 3d"]))
    assert table.private_view("a").high == "Four of a kind, nines"
    assert table.public_view().wild == "Jh Js"
    table = make_table(["a", "b"], variant="one-eyed-jacks", variant_options=("one-eyed-king",))
    table.start_hand(RNG, deck_for(["Js Jh Kd 9c 9d", "Jc Qd 9s 7c 3d"]))
    assert table.private_view("a").high == "Five nines"
    assert table.public_view().wild == "Jh Js Kd"


def test_wild_widow_turns_a_card_up_after_the_fourth_card():
    four = ["7c Kd Ac 3h", "9c Qs 2d 5h"]
    fifth = ["7d", "Jc"]
    deck = [c for r in range(4) for h in four for c in parse_cards(h)[r : r + 1]]
    deck += list(parse_cards("7h")) + [c for f in fifth for c in parse_cards(f)]
    table = make_table(["a", "b"], variant="wild-widow")
    events = table.start_hand(RNG, deck)
    board = next(e for e in events if isinstance(e, ev.BoardDealt))
    assert board.cards == parse_cards("7h") and board.wild_rank == 7
    assert table.private_view("a").cards == parse_cards("7c Kd Ac 3h 7d")
    assert table.private_view("a").high == "Three of a kind, aces"
    assert table.public_view().board == parse_cards("7h")
    check_cards(table)


# -- Diablo ------------------------------------------------------------------------------------


def test_diablo_draw_limit_and_the_opener_builds_a_new_pot_until_an_opener_wins():
    hands = ["Kc Kd 9h 7s 4c", "Ac Ad 9s 7c 3d", "5h 6d 8c Ts Qh"]
    table = make_table(["a", "b", "c"], variant="diablo", forced=ForcedBets.antes(1))
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Fold())])
    assert table.pending[0].legal.counts == (0, 1, 2)
    play(table, [("a", Discard()), ("b", Discard()), ("a", Check()), ("b", Check())])
    result = table.result
    assert result.pots[0].shares[0].seat == 1 and result.pots[0].amount == 7
    assert "new pot of 7" in (result.note or "")
    events = table.start_hand(RNG)
    assert not any(isinstance(e, ev.ForcedBet) and e.kind == "ante" for e in events)
    assert ev.ForcedBet(0, "diablo", 7, False) in events
    view = table.public_view()
    assert view.button == 0 and view.pot_total == 7
    assert table.chips() == 300


def test_diablo_new_pot_can_be_capped():
    hands = ["Kc Kd 9h 7s 4c", "Ac Ad 9s 7c 3d"]
    table = make_table(["a", "b"], variant="diablo", options=TableOptions(diablo_cap=3))
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call())])
    play(table, [("a", Discard()), ("b", Discard()), ("a", Check()), ("b", Check())])
    events = table.start_hand(RNG)
    assert ev.ForcedBet(0, "diablo", 3, False) in events


def test_diablo_opener_gone_without_building_the_new_pot_means_antes_again():
    # The next deal goes without antes only because the opener builds its pot; an opener who
    # left the table (or has no chip left) builds nothing, so everyone antes as usual.
    hands = ["Kc Kd 9h 7s 4c", "Ac Ad 9s 7c 3d", "5h 6d 8c Ts Qh"]
    table = make_table(["a", "b", "c"], variant="diablo")
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Fold())])
    play(table, [("a", Discard()), ("b", Discard()), ("a", Check()), ("b", Check())])
    assert table.diablo == ("a", 7)
    table.leave("a")
    events = table.start_hand(RNG)
    antes = [e.seat for e in events if isinstance(e, ev.ForcedBet) and e.kind == "ante"]
    assert antes == [2, 1] and table.public_view().pot_total == 2


# -- all for one -------------------------------------------------------------------------------


def test_all_for_one_rounds_rotate_and_limit_full_exchanges():
    table = make_table(["a", "b", "c"], variant="all-for-one")
    table.start_hand(RNG)
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call())])
    decision = table.pending[0]
    assert decision.player_id == "a" and decision.legal.counts == (0, 1, 5)
    cards = decision.legal.cards
    table.act("a", Discard(cards))
    play(table, [("b", Discard(table.pending[0].legal.cards[:1])), ("c", Discard())])
    play(table, [("a", Check()), ("b", Check()), ("c", Check())])
    assert table.pending[0].player_id == "b"  # the next drawing round starts one seat left
    # Drain the stub with full exchanges until the limits bite.
    rounds = 0
    while table.in_hand:
        decision = table.pending[0]
        if decision.kind is DecisionKind.DRAW:
            counts = decision.legal.counts
            stub = len(table.hand.stub)
            later = len(table.hand.runner.sub.queue) - table.hand.runner.sub.pos - 1
            if 5 in counts:
                assert stub - 5 >= later
            elif stub >= 5:
                assert stub - 5 < later
            table.act(decision.seat, Discard(decision.legal.cards[: max(counts)]))
            check_cards(table)
        else:
            table.act(decision.seat, Check())
            rounds += 1
        assert rounds < 100
    assert len(table.hand.stub) < 3 or table.result.shown


def test_all_for_one_rounds_start_left_of_the_last_starter_past_folded_seats():
    # Each drawing round is begun by the player left of whoever began the one before: with b
    # folded, a, then c (b's turn passed over), then d, then a again; c never begins twice.
    table = make_table(["a", "b", "c", "d"], variant="all-for-one")
    table.start_hand(RNG)
    play(table, [("a", Bet(2)), ("b", Fold()), ("c", Call()), ("d", Call())])
    events = []
    for _ in range(5 * 6):  # five drawing rounds of three exchanges, each with its bets
        decision = table.pending[0]
        if decision.kind is DecisionKind.DRAW:
            events += table.act(decision.seat, Discard(decision.legal.cards[:1]))
        else:
            events += table.act(decision.seat, Check())
    starts = [e.first_seat for e in events if isinstance(e, ev.RoundStarted) and e.kind == "draw"]
    assert starts[:5] == [2, 3, 0, 2, 3]  # the first round, begun by a, came before


def test_all_for_one_never_reshuffles_the_discards_to_go_on():
    # The series lasts while the stub does: exchanging one card a turn down to its end,
    # nothing thrown away ever comes back (the bottom card stays undealt, as in every draw).
    table = make_table(["a", "b"], variant="all-for-one")
    table.start_hand(RNG)
    play(table, [("a", Bet(2)), ("b", Call())])
    events = []
    while table.in_hand:
        decision = table.pending[0]
        if decision.kind is DecisionKind.DRAW:
            stub = len(table.hand.stub)
            assert (1 in decision.legal.counts) == (stub >= 2)
            events += table.act(decision.seat, Discard(decision.legal.cards[:1]))
            check_cards(table)
        else:
            events += table.act(decision.seat, Check())
    assert not any(isinstance(e, ev.Reshuffled) for e in events)
    # 41 cards could be dealt: twenty rounds of two, and the last one is fewer than two.
    drawn = sum(len(e.received) for e in events if isinstance(e, ev.Drew))
    assert drawn == 40 and len(table.hand.stub) == 2


def test_all_for_one_ends_after_a_round_with_no_exchange_and_no_bet():
    table = make_table(["a", "b"], variant="all-for-one")
    table.start_hand(RNG)
    play(table, [("a", Bet(2)), ("b", Call()), ("a", Discard()), ("b", Discard())])
    assert table.public_view().phase == "bet"  # the betting round follows even so
    play(table, [("a", Check()), ("b", Check())])
    assert not table.in_hand and len(table.result.shown) == 2


# -- 32-card poker -----------------------------------------------------------------------------


def test_stripped_deck_flush_beats_full_house_and_five_players_at_most():
    with pytest.raises(ValueError, match="2 to 5"):
        TableConfig("32-card-poker", max_seats=6)
    hands = ["Ah Jh 9h 8h 7h", "Kc Kd Ks 7c 7d"]
    table = make_table(["a", "b"], variant="32-card-poker")
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("a", Discard()), ("b", Discard())])
    play(table, [("a", Check()), ("b", Check())])
    assert table.result.pots[0].shares[0].seat == 0
    with pytest.raises(TableError, match="not in the 32-card pack"):
        make_table(["a", "b"], variant="32-card-poker").start_hand(RNG, parse_cards("2c"))


def test_bosnian_exchange_keeps_one_of_a_face_up_and_a_face_down_card():
    hands = ["Ah Kc Qd Jh 9s", "Kd Kh 8c 8d 7s"]
    rest = "7c 9h Tc Td As Ts"  # burn, three cards, face up, face down
    table = make_table(["a", "b"], variant="32-card-poker", variant_options=("bosnian",))
    table.start_hand(RNG, deck_for(hands, rest))
    play(table, [("a", Bet(2)), ("b", Call())])
    assert table.pending[0].legal.bosnian and 4 in table.pending[0].legal.counts
    events = table.act("a", Discard(parse_cards("Kc Qd Jh 9s")))
    offer = next(e for e in events if isinstance(e, ev.BosnianOffer))
    assert offer.face_up == parse_cards("As")[0] and offer.public_dict()["face_down"] == 1
    decision = table.pending[0]
    assert decision.kind is DecisionKind.KEEP and decision.legal.face_up == offer.face_up
    with pytest.raises(IllegalAction):
        table.act("a", Keep(parse_cards("Ts")[0]))
    events = table.act("a", Keep(offer.face_up))
    # The face-down card left behind goes to the discards unseen, by its player too.
    kept = next(e for e in events if isinstance(e, ev.BosnianKept))
    assert kept.masked_for(0).to_dict()["discarded"] == 1
    assert parse_cards("Ts")[0] not in cards_seen(table.events, 0)
    assert parse_cards("As")[0] in cards_seen(table.events, None)
    assert table.private_view("a").cards == parse_cards("Ah 9h Tc Td As")
    assert table.public_view().seats[0].face_up == parse_cards("As")
    assert table.public_view().seats[0].draws == (4,)
    check_cards(table)
    table2 = make_table(["a", "b"], variant="32-card-poker", variant_options=("bosnian",))
    table2.start_hand(RNG, deck_for(hands, rest))
    play(table2, [("a", Bet(2)), ("b", Call()), ("a", Discard(parse_cards("Kc Qd Jh 9s")))])
    table2.act("a", Keep(None))
    assert table2.private_view("a").cards == parse_cards("Ah 9h Tc Td Ts")


# -- seven-card draw ---------------------------------------------------------------------------


def test_seven_card_draw_order_limits_and_the_doubled_minimum_bet():
    hands = [
        "Ac Ad Kc Kd 2h 3h 4s",
        "Qc Qd Jc Jd 5h 6h 8s",
        "Tc Td 9c 9d 5s 6s 8h",
    ]
    table = make_table(
        ["a", "b", "c"],
        variant="seven-card-draw",
        structure=NoLimit(2),
        forced=ForcedBets.with_blinds(1, 2),
    )
    table.start_hand(RNG, deck_for(hands))
    assert len(table.private_view("a").cards) == 7
    assert table.to_act == (2,)  # left of the big blind
    play(table, [("c", Raise(6)), ("a", Call()), ("b", Call())])
    decision = table.pending[0]
    assert decision.player_id == "c"  # the draw starts left of the big blind too
    assert decision.legal.counts == (0, 1, 2, 3, 4)
    play(table, [("c", Discard()), ("a", Discard()), ("b", Discard())])
    legal = table.pending[0].legal
    assert table.pending[0].player_id == "a"  # dealer's left
    assert legal.min_to == 12  # twice the last bet of the first round
    table.act("a", Check())
    table.act("b", Check())
    events = table.act("c", Check())
    shown = [e for e in events if isinstance(e, ev.Shown)]
    assert all(len(e.cards) == 7 for e in shown)
    assert table.result.pots[0].shares[0].seat == 0


def test_seven_card_draw_minimum_is_twice_the_big_blind_without_a_raise():
    table = make_table(
        ["a", "b", "c"],
        variant="seven-card-draw",
        structure=NoLimit(2),
        forced=ForcedBets.with_blinds(1, 2),
    )
    table.start_hand(RNG)
    play(table, [("c", Call()), ("a", Call()), ("b", Check())])
    for _ in range(3):
        table.act(table.pending[0].seat, Discard())
    assert table.pending[0].legal.min_to == 4


def test_catalogue_has_every_high_game_with_words_of_its_own():
    slugs = {v.slug for v in list_variants()}
    assert {
        "five-card-draw",
        "jacks-or-better",
        "trips-to-win",
        "deuces-wild",
        "one-eyed-jacks",
        "wild-widow",
        "diablo",
        "all-for-one",
        "32-card-poker",
        "seven-card-draw",
    } <= slugs
    for variant in list_variants():
        assert variant.description.count(".") >= 1 and len(variant.description) > 80
        assert get_variant(variant.slug) is variant


@pytest.mark.parametrize(
    ("modifiers", "without", "with_openers", "opened_with"),
    [
        (("four-before",), "Kc Qd 9h 7s", "Jc Jh 9s 7c", "Jc Jh"),
        (("four-before", "cards:3"), "Kc Qd", "Jc Jh", "Jc Jh"),
    ],
)
def test_four_before_jackpots_need_openers_among_the_cards_dealt(
    modifiers, without, with_openers, opened_with
):
    # Four-before deals a card short, so the first round is bet on four cards (two with
    # three-card hands): jacks or better must be there already, as in any jackpot.
    table = make_table(["a", "b"], variant="jacks-or-better", variant_options=modifiers)
    table.start_hand(RNG, deck_for([without, with_openers]))
    legal = table.pending[0].legal
    assert legal.min_to is None and "jacks" in legal.no_raise_reason
    with pytest.raises(IllegalAction, match="jacks or better"):
        table.act("a", Bet(2))
    table.act("a", Check())
    table.act("b", Bet(2))
    table.act("a", Fold())
    shown = [e for e in table.events if isinstance(e, ev.OpenersShown)]
    assert shown == [ev.OpenersShown(1, parse_cards(opened_with))]
