"""Variants III: rollouts, spit in the ocean, anaconda and dealer's choice, walked through with
preset decks."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine import (
    Arrange,
    Bet,
    Call,
    Check,
    ChooseGame,
    DecisionKind,
    Discard,
    Fold,
    ForcedBets,
    IllegalAction,
    PassCards,
    Raise,
    SpreadLimit,
    Table,
    Timeout,
)
from engine import events as ev
from engine.cards import parse_cards
from engine.modifiers import apply_modifiers, check_rules
from engine.rules import Deal, Split
from engine.variants import get_variant
from tests.engine.engine_helpers import check_cards, deck_for, make_table, play

RNG = random.Random(47)


# -- shotgun -----------------------------------------------------------------------------------


def test_shotgun_order_is_fixed_then_revealed_card_by_card_with_a_round_after_each():
    hands = ["Ac Ad 7h 5s 2c", "Kc Kd 9s 8c 3d"]
    table = make_table(["a", "b"], variant="shotgun")
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("a", Discard()), ("b", Discard())])
    pending = table.pending
    assert {d.kind for d in pending} == {DecisionKind.ARRANGE} and len(pending) == 2
    with pytest.raises(IllegalAction, match="exactly 5"):
        table.act("a", Arrange(parse_cards("Ac Ad")))
    table.act("a", Arrange(parse_cards("2c 5s 7h Ad Ac")))
    assert [d.player_id for d in table.pending] == ["b"]
    with pytest.raises(IllegalAction, match="turn"):
        table.act("a", Arrange(parse_cards("Ac Ad 7h 5s 2c")))  # the order cannot change
    assert table.private_view("a").arranged == parse_cards("2c 5s 7h Ad Ac")
    events = table.act("b", Arrange(parse_cards("Kc Kd 9s 8c 3d")))
    revealed = [e for e in events if isinstance(e, ev.CardRevealed)]
    assert [(e.seat, e.index, str(e.card)) for e in revealed] == [(0, 0, "2c"), (1, 0, "Kc")]
    assert table.pending[0].kind is DecisionKind.BET
    faces = []
    for _ in range(4):
        faces.append([s.face_up for s in table.public_view().seats])
        play(table, [("a", Check()), ("b", Check())])
    assert faces[0] == [parse_cards("2c"), parse_cards("Kc")]
    assert faces[3] == [parse_cards("2c 5s 7h Ad"), parse_cards("Kc Kd 9s 8c")]
    assert table.result.pots[0].shares[0].seat == 0  # aces beat kings at the showdown


def test_skinny_minnie_splits_the_rollout_high_and_low():
    hands = ["Ac 2d 3h 4s 7c", "Kc Kd 9s 9c 3d"]
    table = make_table(["a", "b"], variant="skinny-minnie")
    table.start_hand(RNG, deck_for(hands))
    play(table, [("a", Bet(2)), ("b", Call()), ("a", Discard()), ("b", Discard())])
    table.act("a", Timeout())  # keeps the dealt order
    table.act("b", Timeout())
    assert table.private_view("a").arranged == parse_cards(hands[0])
    while table.in_hand:
        table.act(table.to_act[0], Check())
    shares = [(s.seat, s.amount, s.half) for s in table.result.pots[0].shares]
    assert shares == [(1, 3, "high"), (0, 3, "low")]


# -- spit in the ocean -------------------------------------------------------------------------


def test_spit_in_the_ocean_sample_deal_sixes_wild():
    bob, carol, david, alice = "Ah 8c 5d 3c", "Qc Qd 6c Jh", "Tc 9d 8h 5s", "Ks Js 9s 2h"
    deck = deck_for([bob, carol, david, alice], "6d 4h Th 2d 4d 7s")
    table = make_table(
        ["bob", "carol", "david", "alice"],
        variant="spit-in-the-ocean",
        structure=SpreadLimit(1, 2, 2, 6),
        forced=ForcedBets.antes(1),
    )
    events = table.start_hand(RNG, deck)
    assert ev.BoardDealt(parse_cards("6d"), 6) in events
    assert table.public_view().board == parse_cards("6d")
    assert len(table.private_view("bob").cards) == 4
    play(
        table,
        [
            ("bob", Bet(1)),
            ("carol", Raise(2)),
            ("david", Fold()),
            ("alice", Call()),
            ("bob", Call()),
            ("bob", Discard(parse_cards("8c 3c"))),
            ("carol", Discard(parse_cards("Jh"))),
            ("alice", Discard(parse_cards("2h"))),
        ],
    )
    assert table.private_view("carol").cards == parse_cards("Qc Qd 6c 4d")
    assert table.private_view("carol").high == "Four of a kind, queens"
    assert table.private_view("alice").high.startswith("Flush")
    check_cards(table)
    play(
        table,
        [
            ("bob", Check()),
            ("carol", Bet(2)),
            ("alice", Raise(4)),
            ("bob", Fold()),
            ("carol", Raise(6)),
            ("alice", Call()),
        ],
    )
    result = table.result
    assert [s.player_id for s in result.shown] == ["carol", "alice"]
    assert len(result.shown[0].cards) == 5  # four in hand and the spit card
    assert [(s.player_id, s.amount) for s in result.pots[0].shares] == [("carol", 22)]


# -- anaconda ----------------------------------------------------------------------------------


def anaconda_table(options=()):
    hands = ["Ac Ad Ah 2c 3d 4h 5s", "Kc Kd Kh 6c 7d 8h 9s", "Qc Qd Qh Tc Jd 9h 8s"]
    table = make_table(["a", "b", "c"], variant="anaconda", variant_options=options)
    table.start_hand(RNG, deck_for(hands))
    return table


def test_anaconda_passes_are_simultaneous_and_cards_are_conserved():
    table = anaconda_table()
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call())])
    pending = table.pending
    assert {d.kind for d in pending} == {DecisionKind.PASS} and len(pending) == 3
    assert {d.player_id: d.legal.to_seat for d in pending} == {"a": 1, "b": 2, "c": 0}
    assert table.act("a", PassCards(parse_cards("2c 3d 4h"))) == ()  # nothing moves yet
    assert len(table.private_view("a").cards) == 7
    assert len(table.private_view("b").cards) == 7
    with pytest.raises(IllegalAction, match="exactly 3"):
        table.act("b", PassCards(parse_cards("6c")))
    table.act("b", PassCards(parse_cards("6c 7d 8h")))
    events = table.act("c", PassCards(parse_cards("Tc Jd 9h")))
    passed = [(e.seat, e.to_seat) for e in events if isinstance(e, ev.CardsPassed)]
    assert passed == [(0, 1), (1, 2), (2, 0)]
    assert set(table.private_view("a").cards) == set(parse_cards("Ac Ad Ah 5s Tc Jd 9h"))
    assert events[0].public_dict()["cards"] == 3
    check_cards(table)
    play(table, [(p, Check()) for p in "abc"])
    assert {d.player_id: d.legal.to_seat for d in table.pending} == {"a": 2, "b": 0, "c": 1}
    assert all(d.legal.count == 2 for d in table.pending)
    for _ in range(3):
        table.act(table.pending[0].seat, Timeout())
    play(table, [(p, Check()) for p in "abc"])
    assert all(d.legal.count == 1 and d.legal.direction == "left" for d in table.pending)
    for _ in range(3):
        table.act(table.pending[0].seat, Timeout())
    play(table, [(p, Check()) for p in "abc"])
    assert not table.in_hand
    assert all(len(s.cards) == 7 for s in table.result.shown)


def test_anaconda_rounds_after_a_pass_begin_at_the_dealers_left_not_with_the_opener():
    # Only betting after a draw may begin with the opener (a table option); anaconda has no
    # draw, so every round after a pass begins with the first player on the dealer's left.
    table = anaconda_table()
    assert "second_round_from_opener" not in table.config.applicable_options()
    play(table, [("a", Check()), ("b", Bet(2)), ("c", Call()), ("a", Call())])
    for _ in range(3):
        table.act(table.pending[0].seat, Timeout())
    assert table.pending[0].player_id == "a"


def test_anaconda_options_drop_the_first_round_or_end_with_a_rollout():
    table = anaconda_table(("no-first-round",))
    assert table.pending[0].kind is DecisionKind.PASS
    table = anaconda_table(("rollout",))
    rules = table.config.rules()
    assert sum(1 for s in rules.steps if s.__class__.__name__ == "Bet") == 8
    while table.pending[0].kind is not DecisionKind.ARRANGE:
        decision = table.pending[0]
        table.act(decision.seat, Timeout())
    legal = table.pending[0].legal
    assert legal.size == 5 and len(legal.cards) == 7
    table.act(table.pending[0].seat, Arrange(legal.cards[2:7]))
    check_cards(table)


# -- dealer's choice ---------------------------------------------------------------------------


def test_dealers_choice_composes_a_named_game_from_modifiers():
    table = make_table(["a", "b", "c"], dealers_choice=True, forced=ForcedBets.with_blinds(1, 2))
    assert table.start_hand(RNG) == ()
    view = table.public_view()
    assert view.phase == "choose" and view.game == "Dealer's choice" and view.to_act == (2,)
    decision = table.pending[0]
    assert decision.kind is DecisionKind.CHOOSE_GAME and decision.player_id == "c"
    assert "q-ball" in decision.legal.slugs and "wild:13" in decision.legal.modifiers
    with pytest.raises(IllegalAction, match="dealer"):
        table.act("a", ChooseGame("five-card-draw"))
    events = table.act("c", ChooseGame("california-lowball", ("draws:3", "wild:13")))
    chosen = events[0]
    assert isinstance(chosen, ev.GameChosen)
    assert chosen.name == "Triple-draw California lowball, kings wild"
    assert table.public_view().game == chosen.name
    assert table.pending[0].kind is DecisionKind.BET


def test_dealers_choice_guidelines_warn_and_high_low_needs_a_qualifier_or_declaration():
    table = make_table(["a", "b"], dealers_choice=True)
    table.start_hand(RNG)
    before = table.to_dict()
    with pytest.raises(IllegalAction, match="at least five cards"):
        table.act("b", ChooseGame("five-card-draw", ("cards:3", "rollout")))
    with pytest.raises(IllegalAction, match="no game"):
        table.act("b", ChooseGame("tiddlywinks"))
    with pytest.raises(IllegalAction, match="no option 'wild:99'"):
        table.act("b", ChooseGame("five-card-draw", ("wild:99",)))
    assert table.to_dict() == before
    events = table.act("b", ChooseGame("five-card-draw", ("wild:2", "wild:3", "joker-wild")))
    assert events[0].warnings == ("9 wild cards make for many ties and some confusion",)
    plain = get_variant("five-card-draw").rules
    with pytest.raises(ValueError, match="qualifier for low or a declaration"):
        check_rules(replace(plain, split=Split.HIGH_LOW))
    # Any pair, no pair is a qualifier of its own: a pair for high, no pair for low.
    pair = apply_modifiers(plain, ["hilo:any"]).rules
    assert (pair.split, pair.low_qualifier, pair.high_needs_pair) == (Split.HIGH_LOW, 14, True)
    assert not apply_modifiers(plain, ["hilo:any", "hilo:8"]).rules.high_needs_pair
    assert not apply_modifiers(plain, ["hilo:any", "declare"]).rules.high_needs_pair
    modified = apply_modifiers(get_variant("anaconda").rules, ["wild:2"])
    assert modified.warnings == ()
    modified = apply_modifiers(
        get_variant("five-card-draw").rules, ["draws:3", "hilo:8", "rollout"]
    )
    assert any("betting rounds" in w for w in modified.warnings)


def test_a_hand_size_chosen_after_a_rollout_counts_the_cards_held_not_the_five_kept():
    """Eight-card hands with a rollout deal eight cards, whichever modifier comes first: a
    rollout keeps five of the cards held, and a size counted from those five dealt ten (more
    than a hand can be valued with: the first opening check raised, and the hand stalled)."""
    jacks_back = get_variant("jacks-back").rules
    for keys in (("cards:7", "rollout", "cards:8"), ("rollout", "cards:8"), ("cards:8", "rollout")):
        rules = apply_modifiers(jacks_back, keys).rules
        assert (rules.dealt_per_player, rules.held_size, rules.min_hand_size) == (8, 8, 5), keys
    table = make_table(["a", "b", "c", "d"], dealers_choice=True)
    total = table.chips()
    table.start_hand(random.Random(5))
    dealer = table.pending[0].player_id
    table.act(dealer, ChooseGame("jacks-back", ("cards:7", "rollout", "cards:8")))
    assert all(len(cards) == 8 for cards in table.held_cards().values())
    while table.in_hand:  # every decision left to the timeout: openers checked at each turn
        table.act(table.pending[0].seat, Timeout())
    assert table.chips() == total


def test_a_draws_extra_cards_count_in_how_many_players_the_pack_can_deal():
    """Four-before gives each player the fifth card at the draw, standing pat or not. Nine-card
    hands dealt that way are eight cards and one more: 53 cards serve five players, not the six
    that eight cards a player suggested (the sixth player's last card was not there, the draw
    offered no legal choice, and the hand stalled)."""
    rules = apply_modifiers(get_variant("four-before").rules, ["cards:9"]).rules
    assert (rules.dealt_per_player, rules.held_size, rules.max_players) == (8, 9, 5)
    with pytest.raises(ValueError, match="6 players need 54 cards"):
        check_rules(replace(rules, max_players=6))
    table = make_table([f"p{i}" for i in range(5)], dealers_choice=True)
    total = table.chips()
    table.start_hand(random.Random(9))
    table.act(table.pending[0].seat, ChooseGame("four-before", ("cards:9",)))
    while table.in_hand:  # everyone stands pat: the draw gives out the most cards it can
        table.act(table.pending[0].seat, Timeout())
    assert table.chips() == total


def test_rules_that_give_a_player_more_cards_than_a_hand_is_valued_with_are_refused():
    plain = get_variant("seven-card-draw").rules
    deal = next(step for step in plain.steps if isinstance(step, Deal))
    steps = tuple(replace(deal, count=10) if step is deal else step for step in plain.steps)
    with pytest.raises(ValueError, match="at most 9 cards, not 10"):
        check_rules(replace(plain, steps=steps, max_players=4))


def test_dealers_choice_timeout_deals_the_default_game():
    table = make_table(["a", "b"], dealers_choice=True, variant="jacks-or-better")
    table.start_hand(RNG)
    events = table.act("b", Timeout())
    assert events[0] == ev.GameChosen(1, "jacks-or-better", (), "Jacks or better", (), True)
    assert table.public_view().game == "Jacks or better"


def test_dealers_choice_snapshot_mid_choice_and_mid_hand():
    table = make_table(["a", "b", "c"], dealers_choice=True)
    table.start_hand(RNG)
    copy = Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert copy.pending == table.pending and copy.public_view() == table.public_view()
    table.act("c", ChooseGame("anaconda", ("no-first-round",)))
    copy.act("c", ChooseGame("anaconda", ("no-first-round",)))
    assert copy.events == table.events
    again = Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert again.events == table.events and again.private_view("a") == table.private_view("a")


def test_diablo_in_dealers_choice_goes_on_until_its_opener_wins():
    table = make_table(["a", "b", "c"], dealers_choice=True)
    first = ["3c 4d 6h 8s Tc", "Ac Ad Ah 9s 9c", "Kc Qd Jh 7s 5d"]
    table.start_hand(RNG, deck_for(first))
    table.act("c", ChooseGame("diablo"))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Fold())])  # a opens and loses
    play(table, [("a", Discard()), ("b", Discard()), ("a", Check()), ("b", Check())])
    assert table.dc_lock == ("diablo", (), 2)
    second = ["Kh Kd 9h 7c 4s", "8c 7d 5h 4c 3s", "Qh Js Td 6c 5c"]
    events = table.start_hand(RNG, deck_for(second))
    chosen = events[0]
    assert isinstance(chosen, ev.GameChosen) and chosen.continued and chosen.slug == "diablo"
    assert ev.ForcedBet(0, "diablo", 7, False) in events  # a builds a new pot
    assert table.public_view().button == 0
    play(table, [("b", Bet(2)), ("c", Fold()), ("a", Fold())])  # b opens and wins
    assert table.result.uncontested == 1 and table.dc_lock is None
    table.start_hand(RNG)
    # The choice passes to the left of the player who called Diablo (c, in seat 2): a.
    assert table.pending[0].player_id == "a"


@pytest.mark.parametrize(
    ("slug", "kind"),
    [("anaconda", "pass"), ("shotgun", "arrange"), ("high-low-declare", "declare")],
)
def test_everyone_else_leaving_during_a_simultaneous_choice_ends_the_hand(
    slug: str, kind: str
) -> None:
    """Regression: when all but one player leave while choices are being collected at once,
    the hand must end (it used to wait forever with nothing pending)."""
    import random as _random

    import engine as _engine

    table = _engine.Table(_engine.TableConfig(variant=slug))
    for pid in "abc":
        table.sit(pid, 100)
    total = table.chips()
    table.start_hand(_random.Random(5))
    for _ in range(100):
        pending = table.pending
        assert pending, "the hand stalled before the simultaneous step"
        if pending[0].kind.value == kind:
            break
        decision = pending[0]
        legal = decision.legal
        if isinstance(legal, _engine.BetOptions) and legal.is_bet and legal.min_to is not None:
            table.act(decision.seat, _engine.Bet(legal.min_to))  # open, so nobody passes out
        elif isinstance(legal, _engine.BetOptions):
            table.act(decision.seat, _engine.Call())
        else:
            table.act(decision.seat, _engine.Timeout())
    else:
        raise AssertionError(f"never reached a {kind} decision")
    first = table.pending[0]
    table.act(first.seat, _engine.Timeout())
    for decision in table.pending:
        table.leave(decision.player_id)
    assert not table.in_hand and table.result is not None
    assert table.chips() == total
