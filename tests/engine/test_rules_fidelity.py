"""Issue 17, rules fidelity II: one test per point where the engine used to differ from the
seeds. Each test names, in a comment, the passage of the seeds it checks."""

from __future__ import annotations

import random

import pytest

from engine import (
    DRAW_FIVE,
    Bet,
    Call,
    Check,
    ChooseGame,
    Discard,
    Fold,
    ForcedBets,
    Table,
    TableConfig,
    TableOptions,
    Timeout,
)
from engine import events as ev
from engine.cards import parse_cards
from engine.hands import HandValue, Ranking, evaluate
from engine.modifiers import apply_modifiers
from engine.variants import get_variant
from tests.engine.engine_helpers import (
    check_cards,
    check_result,
    deck_for,
    make_table,
    play,
    play_random_hand,
)

RNG = random.Random(17)


def test_one_eyed_jacks_are_the_two_jacks_and_the_king_is_an_option() -> None:
    # Seeds, five-card draw with deuces wild: besides deuces a table may play other cards
    # wild, "one-eyed jacks" being the example given: the two jacks seen in profile.
    two = frozenset(parse_cards("Js Jh"))
    assert get_variant("one-eyed-jacks").rules.wild.cards == two
    base = get_variant("five-card-draw").rules
    assert apply_modifiers(base, ["one-eyed"]).rules.wild.cards == two
    with_king = get_variant("one-eyed-jacks").build(["one-eyed-king"])
    assert with_king.wild.cards == two | set(parse_cards("Kd"))
    table = make_table(["a", "b"], variant="one-eyed-jacks")
    table.start_hand(RNG, deck_for(["Js Kd 9s 9c 9h", "Jc Qd 8s 7c 3d"]))
    # The king of diamonds is a plain king: four nines with the wild jack, not five.
    assert table.private_view("a").high == "Four of a kind, nines"
    table = make_table(["a", "b"], variant="one-eyed-jacks", variant_options=("one-eyed-king",))
    table.start_hand(RNG, deck_for(["Js Kd 9s 9c 9h", "Jc Qd 8s 7c 3d"]))
    assert table.private_view("a").high == "Five nines"


def test_all_for_one_bets_after_every_drawing_round() -> None:
    # Seeds, all for one and one for all: each drawing round is followed by a betting round,
    # and only when fewer cards are left in the stub than active players does the drawing
    # stop for the showdown.
    table = make_table(["a", "b"], variant="all-for-one")
    table.start_hand(RNG)
    play(table, [("a", Bet(2)), ("b", Call()), ("a", Discard()), ("b", Discard())])
    # Nobody exchanged, and still the betting round is played.
    assert table.public_view().phase == "bet"
    play(table, [("a", Bet(4)), ("b", Call())])
    # A bet was made, so the drawing goes on, starting one seat further round.
    assert table.in_hand and table.public_view().phase == "draw"
    assert table.pending[0].player_id == "b"
    # Drain the stub with single-card exchanges and checks: the hand ends only once fewer
    # cards remain than players still in (the bottom card, never dealt, does not count; the
    # discards are never shuffled back to go on).
    while table.in_hand:
        decision = table.pending[0]
        if decision.kind.value == "draw":
            table.act(decision.seat, Discard(decision.legal.cards[:1]))
        else:
            table.act(decision.seat, Check())
    assert len(table.hand.stub) - 1 < 2
    assert not any(isinstance(e, ev.Reshuffled) for e in table.events)
    assert len(table.result.shown) == 2


def test_trips_to_win_keeps_players_who_folded_after_the_draw() -> None:
    # Seeds, trips to win: when no hand holds three of a kind the pot stays, players who
    # dropped before the draw are out of the game, and those who did not ante again for a new
    # deal among themselves.
    hands = ["Qc Qd 9c 7c 2h", "Ah Kd Jd 8s 3d", "As Ks Js 8h 3c", "4c 5d 6h 8c Ts"]
    table = make_table(["a", "b", "c", "d"], variant="trips-to-win")
    table.start_hand(RNG, deck_for(hands, "2d 2s 3h 4h 5s 6c 7d 9s"))
    play(table, [("a", Bet(2)), ("b", Call()), ("c", Call()), ("d", Fold())])
    play(table, [("a", Discard()), ("b", Discard()), ("c", Discard())])
    play(table, [("a", Bet(4)), ("b", Fold()), ("c", Call())])
    assert table.result.pots == () and table.result.carried == 18
    table.start_hand(RNG)
    # b folded after the draw and plays the new deal; d folded before it and does not.
    assert set(table.hand.by_pid) == {"a", "b", "c"}
    assert not any(isinstance(e, ev.PassedOut) for e in table.events)


def _pass_out(table: Table) -> None:
    while table.in_hand:
        table.act(table.pending[0].seat, Timeout())


def test_dealers_edge_newcomer_waits_for_the_deal_and_other_tables_may_choose() -> None:
    # Seeds, the two kinds of ante in draw poker: under dealer's edge only the dealer antes,
    # and a player who joins the game is not dealt in before it is their own turn to deal.
    config = TableConfig("five-card-draw", forced_bets=ForcedBets.dealers_edge(1), max_seats=5)
    table = Table(config)
    for name, seat in (("a", 0), ("b", 2), ("c", 4)):
        table.sit(name, 100, seat)
    assert table.newcomer_rule == "wait"
    table.start_hand(RNG)
    assert table.button == 4
    table.sit("d", 100, 3)  # mid-hand: a newcomer
    _pass_out(table)
    view = {s.player_id: s for s in table.public_view().seats}
    assert view["d"].waiting and view["d"].waiting_reason is not None
    assert not view["a"].waiting and view["a"].waiting_reason is None
    table.start_hand(RNG)  # the deal passes to seat 0, not yet to d
    assert table.button == 0 and "d" not in table.hand.by_pid
    _pass_out(table)
    table.start_hand(RNG)
    assert table.button == 2 and "d" not in table.hand.by_pid
    _pass_out(table)
    events = table.start_hand(RNG)  # now the deal reaches d's seat: d deals and antes
    assert table.button == 3 and "d" in table.hand.by_pid
    assert ev.ForcedBet(3, "ante", 1, False) in events
    assert not any(s.waiting for s in table.public_view().seats)
    # The state survives a snapshot, and old snapshots without it still load.
    restored = Table.from_dict(table.to_dict())
    assert restored.public_view() == table.public_view()

    # Elsewhere newcomers play at once by default; a table may make them wait or post.
    table = make_table(["a", "b"], seats=3)
    table.start_hand(RNG)
    table.sit("c", 100)
    assert table.newcomer_rule == "play"
    assert not {s.player_id: s for s in table.public_view().seats}["c"].waiting
    options = TableOptions(newcomers="post")
    assert TableOptions.from_dict(options.to_dict()) == options
    assert TableOptions.from_dict({}).newcomers is None
    with pytest.raises(ValueError, match="newcomers"):
        TableOptions(newcomers="sometimes")
    table = make_table(["a", "b"], options=options, seats=3)
    table.start_hand(RNG)
    _pass_out(table)
    table.sit("c", 100)
    assert not {s.player_id: s for s in table.public_view().seats}["c"].waiting
    events = table.start_hand(RNG)
    assert "c" in table.hand.by_pid
    # c is not in the blinds of an ante game: c posts a dead blind of the smallest bet.
    assert ev.ForcedBet(2, "post", 2, False) in events
    table = make_table(["a", "b"], options=TableOptions(newcomers="wait"), seats=3)
    table.start_hand(RNG)
    table.sit("c", 100)
    assert {s.player_id: s for s in table.public_view().seats}["c"].waiting


def test_no_five_in_a_row_holds_back_the_fifth_card() -> None:
    # Seeds, the draw procedure: many casinos never deal one player five cards in a row;
    # a player replacing all five gets four in turn, the others draw, then the fifth comes
    # (after a burn card if no later player took a card).
    hands = ["Kh Kd Qh Qd Jh", "2c 3d 4h 5s 7c", "2d 3h 4s 5c 8d"]
    rest = "9s 9h 9d 9c 8s 8h 7s 6s 6h"
    options = TableOptions(no_five_in_a_row=True)
    assert TableOptions.from_dict(options.to_dict()) == options
    for b_draws in (True, False):
        table = make_table(["a", "b", "c"], variant="california-lowball", options=options)
        table.start_hand(RNG, deck_for(hands, rest))
        play(table, [("c", Call()), ("a", Call()), ("b", Check())])
        events = list(table.act("a", Discard(parse_cards(hands[0]))))
        assert table.private_view("a").cards == parse_cards("9h 9d 9c 8s")
        b_cards = parse_cards("7c") if b_draws else ()
        events += table.act("b", Discard(b_cards))
        events += table.act("c", Discard())
        last = [e for e in events if isinstance(e, ev.LastCardDealt)]
        burns = tuple(e.card for e in events if isinstance(e, ev.Burned))
        if b_draws:
            # b drew after a: the fifth card follows b's without a burn.
            assert burns == parse_cards("9s")
            assert table.private_view("b").cards[-1] == parse_cards("8h")[0]
            assert last == [ev.LastCardDealt(0, parse_cards("7s")[0])]
        else:
            assert burns == parse_cards("9s 8h")
            assert last == [ev.LastCardDealt(0, parse_cards("7s")[0])]
        assert len(table.private_view("a").cards) == 5
        assert table.public_view().phase == "bet"
    # Without the option the five come at once.
    table = make_table(["a", "b", "c"], variant="california-lowball")
    table.start_hand(RNG, deck_for(hands, rest))
    play(table, [("c", Call()), ("a", Call()), ("b", Check())])
    table.act("a", Discard(parse_cards(hands[0])))
    assert table.private_view("a").cards == parse_cards("9h 9d 9c 8s 8h")


def test_no_five_in_a_row_keeps_every_card_accounted_for_at_a_full_table() -> None:
    # The same rule at eight players drawing at random: the held-back card is reserved, so
    # later players can never take it, and the reshuffle still covers every draw.
    rng = random.Random(5)
    options = TableOptions(no_five_in_a_row=True)
    held_back = 0
    for variant in ("california-lowball", "four-before"):
        table = make_table([f"p{i}" for i in range(8)], variant=variant, options=options)
        total = table.chips()
        for _ in range(15):
            if table.can_start() is not None:
                break
            table.start_hand(rng)
            play_random_hand(rng, table, total)
            check_result(table)
            held_back += sum(isinstance(e, ev.LastCardDealt) for e in table.events)
    assert held_back > 0


def _check_down(table: Table) -> None:
    """Call or check every bet and stand pat in every draw until the hand ends."""
    while table.in_hand:
        decision = table.pending[0]
        if decision.kind.value == "bet":
            action = Check() if decision.legal.can_check else Call()
        else:
            action = Discard()
        table.act(decision.seat, action)


def test_fewer_cards_three_card_triple_draw_california_lowball_kings_wild() -> None:
    # Seeds, ad hoc variants: any game may be changed by players' whim, more or fewer cards
    # among the changes, and a game is announced by its name and its changes, the example
    # being a three-card triple-draw California lowball with kings wild.
    keys = ["cards:3", "draws:3", "wild:13"]
    modified = apply_modifiers(get_variant("california-lowball").rules, keys)
    rules = modified.rules
    assert rules.name == "Three-card triple-draw California lowball, kings wild"
    assert rules.min_hand_size == 3 and rules.draws == 3 and modified.warnings == ()
    table = make_table(["a", "b"], variant="california-lowball", variant_options=tuple(keys))
    table.start_hand(RNG, deck_for(["3c 2d Kh", "4c 4d 2h"]))
    # The wild king becomes the ace the hand lacks: three-two-ace, the best three-card low.
    assert table.private_view("a").low == "Three-two low"
    assert table.private_view("b").low == "Pair of fours"
    _check_down(table)
    assert [s.seat for s in table.result.pots[0].shares] == [0]
    assert all(len(shown.cards) == 3 for shown in table.result.shown)

    # Short hands rank by their groups only: no straight or flush in three cards.
    def high(cards: str) -> HandValue:
        return evaluate(parse_cards(cards), Ranking.HIGH)

    assert high("7h 6h 5h").name == "Seven-high"
    assert high("2c 2d 3s") > high("Ah Kh Qh")
    assert high("Kc Kd Ks") > high("Ac Ad Ks")
    assert evaluate(parse_cards("Ac 3d 2h"), Ranking.DEUCE_TO_SEVEN).name == "Ace-three low"
    # A jacks-or-better opening counts a short hand's pair with no kicker to compare.
    table = make_table(["a", "b"], variant="jacks-or-better", variant_options=("cards:3",))
    table.start_hand(RNG, deck_for(["Jc Jd 2h", "Tc Td As"]))
    assert table.pending[0].legal.min_to is not None  # a may open
    table.act("a", Check())
    assert table.pending[0].legal.min_to is None  # b, with tens, may not
    # The guideline warning on big hands, and what cannot be changed.
    assert apply_modifiers(get_variant("five-card-draw").rules, ["cards:9"]).warnings == (
        "9 cards per player usually make a poor game",
    )
    with pytest.raises(ValueError, match="rollout"):
        get_variant("shotgun").build(["cards:3"])


def test_misdeals_that_can_happen_online_void_the_deal_and_the_dealer_deals_again() -> None:
    # Seeds, misdeals: after a misdeal the cards are shuffled anew and the same dealer deals
    # again. Among the cases: a faulty pack (a card missing or doubled) and the wrong number
    # of hands dealt. A program cannot expose or miscount cards, but a deal restored from a
    # damaged record can hold a faulty pack, and a game carried on can meet more players
    # than it can be dealt to.
    table = make_table(["a", "b"])
    table.start_hand(RNG)
    snapshot = table.to_dict()
    deck = snapshot["journal"][0]["deck"]
    for damage, reason in (
        ([deck[0], *deck[:-1]], "a card appears twice"),
        (deck[:-1], "51 cards instead of 52"),
    ):
        snapshot["journal"][0]["deck"] = damage
        restored = Table.from_dict(snapshot)
        misdeal = restored.events[0]
        assert isinstance(misdeal, ev.Misdeal) and misdeal.case == "imperfect-pack"
        assert reason in misdeal.reason and misdeal.dealer == table.button
        assert restored.button == table.button  # the same dealer deals again
        assert sorted(restored.hand.setup.deck) == sorted(table.hand.setup.deck)
        antes = [e for e in restored.events if isinstance(e, ev.ForcedBet)]
        assert [e.amount for e in antes] == [1, 1]  # the antes are paid once
        assert restored.chips() == table.chips()
        check_cards(restored)

    # A dealer's-choice game that goes on (Diablo, until its opener wins) cannot be dealt to
    # a player who sat down meanwhile: seven cards each leave room for seven players only.
    names = [f"p{i}" for i in range(7)]
    table = make_table(names, dealers_choice=True, seats=8)
    table.start_hand(RNG)
    table.act(table.pending[0].seat, ChooseGame("diablo", ("cards:7",)))
    assert table.hand.rules.max_players == 7
    _pass_out(table)
    assert table.dc_lock is not None and table.carried > 0
    carried = table.carried
    table.sit("late", 100)
    events = table.start_hand(RNG)
    assert events == () and table.dc_lock is None
    decision = table.pending[0]
    assert decision.kind.value == "choose-game"
    events = table.act(decision.seat, ChooseGame("five-card-draw", ()))
    misdeal = next(e for e in events if isinstance(e, ev.Misdeal))
    assert misdeal.case == "too-many-hands" and "at most 7 players" in misdeal.reason
    assert misdeal.dealer == decision.seat == table.button
    assert len(table.hand.players) == 8 and table.hand.carried >= carried


def test_where_the_seeds_differ_the_rules_text_names_the_choice_and_the_option() -> None:
    # Seeds: progressive jackpots rise to queens, kings and aces after deals nobody opens;
    # one text brings the requirement back down from aces, another simply ends at aces. And
    # the first to bet after the draw: the opener in the detailed rules, while other
    # passages begin the later rounds at the dealer's left.
    assert (
        "progressive_back_down" in get_variant("jacks-or-better").option("progressive").description
    )
    assert "second_round_from_opener" in get_variant("five-card-draw").description
    assert "second_round_from_opener" not in get_variant("california-lowball").description
    config = TableConfig("jacks-or-better", variant_options=("progressive",))
    assert len(config.rules_notes()) == 2
    stay = TableOptions(progressive_back_down=False, second_round_from_opener=False)
    assert TableOptions.from_dict(stay.to_dict()) == stay
    assert TableOptions.from_dict({}).progressive_back_down
    notes = TableConfig("jacks-or-better", variant_options=("progressive",), options=stay)
    assert "stay there" in notes.rules_notes()[1] and "dealer's left" in notes.rules_notes()[0]

    def requirements(options: TableOptions) -> list[str | None]:
        table = Table(
            TableConfig(
                "jacks-or-better",
                variant_options=("progressive",),
                options=options,
                max_seats=2,
            )
        )
        table.sit("a", 100)
        table.sit("b", 100)
        seen = []
        for _ in range(6):
            table.start_hand(RNG)
            seen.append(table.public_view().opening_requirement)
            _pass_out(table)
        return seen

    ranks = ["jacks", "queens", "kings", "aces"]
    back = [f"a pair of {r} or better" for r in [*ranks, "kings", "queens"]]
    assert requirements(TableOptions()) == back
    stays = [f"a pair of {r} or better" for r in [*ranks, "aces", "aces"]]
    assert requirements(TableOptions(progressive_back_down=False)) == stays


def test_the_no_five_rule_and_other_options_are_offered_where_they_apply() -> None:
    # Seeds, the draw procedure: the rule against five cards in a row only means something
    # where a player may draw five; a settings screen asks the engine which options matter.
    assert "no_five_in_a_row" in TableConfig("california-lowball").applicable_options()
    assert "no_five_in_a_row" in TableConfig("four-before").applicable_options()
    assert "no_five_in_a_row" not in TableConfig("five-card-draw").applicable_options()
    assert "no_five_in_a_row" not in TableConfig("seven-card-draw").applicable_options()
    five = TableConfig("five-card-draw", options=TableOptions(draw_limit=DRAW_FIVE))
    assert "no_five_in_a_row" in five.applicable_options()
    assert "progressive_back_down" not in TableConfig("jacks-or-better").applicable_options()
    progressive = TableConfig("jacks-or-better", variant_options=("progressive",))
    assert "progressive_back_down" in progressive.applicable_options()
    assert "second_round_from_opener" not in TableConfig("kansas-city-lowball").applicable_options()
    assert "newcomers" in TableConfig("kansas-city-lowball").applicable_options()
    assert len(TableConfig(dealers_choice=True).applicable_options()) == len(
        TableOptions().to_dict()
    )
