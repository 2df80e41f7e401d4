"""Show or muck at the showdown (``TableOptions.muck_losers``).

Each test names the rule it checks in a comment; the wording is ours."""

from __future__ import annotations

import random

import pytest

from engine import (
    Bet,
    BetOptions,
    Call,
    Check,
    DecisionKind,
    Discard,
    IllegalAction,
    Muck,
    Show,
    ShowOptions,
    Table,
    TableOptions,
    Timeout,
)
from engine import events as ev
from engine.actions import action_from_dict, action_to_dict
from tests.engine.engine_helpers import deck_for, make_table, play

MUCK = TableOptions(muck_losers=True)
# ann: three aces, bob: three kings (dealt one card at a time from ann).
HEADS_UP = deck_for(["As Ah Ad Qh 2c", "Kd Kc Ks Qd 3c"])


def _to_showdown(table: Table, bettor: str = "ann") -> None:
    """Open, call, stand pat, then ``bettor`` bets after the draw and is called."""
    other = "bob" if bettor == "ann" else "ann"
    table.start_hand(random.Random(1), deck=HEADS_UP)
    play(table, [("ann", Bet(2)), ("bob", Call()), ("ann", Discard(())), ("bob", Discard(()))])
    if bettor == "ann":
        play(table, [("ann", Bet(4)), ("bob", Call())])
    else:
        play(table, [("ann", Check()), ("bob", Bet(4)), ("ann", Call())])
    del other


def _events(table: Table, kind: type[ev.Event]) -> list[ev.Event]:
    return [e for e in table.events if isinstance(e, kind)]


def test_default_shows_every_hand() -> None:
    # Cards speak by default: every hand still in is laid down and no choice is offered.
    table = make_table(["ann", "bob"])
    _to_showdown(table)
    assert table.pending == ()
    assert table.result is not None
    assert [s.player_id for s in table.result.shown] == ["ann", "bob"]


def test_beaten_hand_is_offered_show_or_muck() -> None:
    # The called bettor shows first; a later hand already beaten may be thrown away.
    table = make_table(["ann", "bob"], options=MUCK)
    _to_showdown(table)
    (decision,) = table.pending
    assert decision.kind is DecisionKind.SHOW and decision.player_id == "bob"
    assert isinstance(decision.legal, ShowOptions)
    assert decision.legal.beaten_by == (0,)
    table.act("bob", Muck())
    result = table.result
    assert result is not None
    assert [s.player_id for s in result.shown] == ["ann"]
    assert result.final_stacks == {"ann": 107, "bob": 93}
    (mucked,) = _events(table, ev.Mucked)
    assert isinstance(mucked, ev.Mucked) and mucked.seat == 1
    # Nobody but bob ever sees the mucked cards.
    assert mucked.masked_for(1) is mucked
    hidden = mucked.masked_for(0)
    assert isinstance(hidden, ev.Masked) and hidden.counts == {"cards": 5}
    assert mucked.public_dict()["cards"] == 5
    assert [e.seat for e in _events(table, ev.Shown) if isinstance(e, ev.Shown)] == [0]


def test_show_anyway_and_timeout_mucks() -> None:
    table = make_table(["ann", "bob"], options=MUCK)
    _to_showdown(table)
    table.act("bob", Show())
    assert table.result is not None
    assert [s.player_id for s in table.result.shown] == ["ann", "bob"]
    assert table.result.final_stacks == {"ann": 107, "bob": 93}

    # Out of time: the beaten hand is mucked, so an absent player's cards stay private.
    table = make_table(["ann", "bob"], options=MUCK)
    _to_showdown(table)
    table.act("bob", Timeout())
    assert table.result is not None
    assert [s.player_id for s in table.result.shown] == ["ann"]
    assert len(_events(table, ev.Mucked)) == 1


def test_a_hand_not_beaten_shows_without_asking() -> None:
    # Bob bet last and is called, so he shows first; ann's better hand is not beaten.
    table = make_table(["ann", "bob"], options=MUCK)
    _to_showdown(table, bettor="bob")
    assert table.pending == ()
    assert table.result is not None
    assert [s.player_id for s in table.result.shown] == ["bob", "ann"]
    assert table.result.final_stacks == {"ann": 107, "bob": 93}


def test_only_show_or_muck_is_accepted() -> None:
    table = make_table(["ann", "bob"], options=MUCK)
    _to_showdown(table)
    with pytest.raises(IllegalAction):
        table.act("bob", Check())
    with pytest.raises(IllegalAction):
        table.act("ann", Muck())
    assert table.pending[0].player_id == "bob"


def test_opener_must_show_even_when_beaten() -> None:
    # Jacks or better: the opener's hand is always laid down, to prove the openers.
    table = make_table(["ann", "bob"], variant="jacks-or-better", options=MUCK)
    # ann opens with jacks; bob holds kings and bets after the draw, so he shows first.
    table.start_hand(random.Random(1), deck=deck_for(["Js Jh 9d 5h 2c", "Kd Kc 7s 6d 3c"]))
    play(table, [("ann", Bet(2)), ("bob", Call()), ("ann", Discard(())), ("bob", Discard(()))])
    play(table, [("ann", Check()), ("bob", Bet(4)), ("ann", Call())])
    assert table.pending == ()
    assert table.result is not None
    assert [s.player_id for s in table.result.shown] == ["bob", "ann"]


def test_side_pot_keeps_a_hand_alive() -> None:
    # A hand beaten for the main pot still shows when a side pot it may win is open.
    table = make_table(["ann", "bob", "cid"], options=MUCK, stacks=[100, 3, 100])
    # ann a pair of twos, bob (short) aces, cid kings.
    deck = deck_for(["2s 2h 5d 7h 9c", "As Ah Ad 8d 3c", "Ks Kh Kd Jh 4c"])
    table.start_hand(random.Random(1), deck=deck)
    # After his ante, bob's call of 2 is all he has.
    play(table, [("ann", Bet(2)), ("bob", Call()), ("cid", Call())])
    play(table, [("ann", Discard(())), ("bob", Discard(())), ("cid", Discard(()))])
    # ann bets and is called: she shows first, then bob, then cid.
    play(table, [("ann", Bet(4)), ("cid", Call())])
    assert table.pending == ()
    result = table.result
    assert result is not None
    assert [s.player_id for s in result.shown] == ["ann", "bob", "cid"]
    winners = [[share.player_id for share in pot.shares] for pot in result.pots]
    assert winners == [["bob"], ["cid"]]


def test_beaten_in_every_pot_may_muck() -> None:
    # The same deal with ann and cid's hands swapped: cid is beaten in both pots.
    table = make_table(["ann", "bob", "cid"], options=MUCK, stacks=[100, 3, 100])
    deck = deck_for(["Ks Kh Kd Jh 4c", "As Ah Ad 8d 3c", "2s 2h 5d 7h 9c"])
    table.start_hand(random.Random(1), deck=deck)
    play(table, [("ann", Bet(2)), ("bob", Call()), ("cid", Call())])
    play(table, [("ann", Discard(())), ("bob", Discard(())), ("cid", Discard(()))])
    play(table, [("ann", Bet(4)), ("cid", Call())])
    (decision,) = table.pending
    assert decision.player_id == "cid"
    assert isinstance(decision.legal, ShowOptions)
    assert decision.legal.beaten_by == (0, 1)
    table.act("cid", Muck())
    result = table.result
    assert result is not None
    assert [s.player_id for s in result.shown] == ["ann", "bob"]
    winners = [[share.player_id for share in pot.shares] for pot in result.pots]
    assert winners == [["bob"], ["ann"]]


def test_high_low_qualifying_low_is_not_beaten() -> None:
    # High-low split: a hand beaten for high shows when its qualifying low may still win.
    table = make_table(["ann", "bob"], variant="california-high-low", options=MUCK)
    deck = deck_for(["As Ah Ad 9h 9c", "2d 3c 4s 6d 7c"])
    table.start_hand(random.Random(1), deck=deck)
    opened = False
    while table.pending:
        decision = table.pending[0]
        legal = decision.legal
        if decision.kind is DecisionKind.DRAW:
            table.act(decision.player_id, Discard(()))
        elif isinstance(legal, BetOptions):
            if not opened and legal.min_to is not None:
                table.act(decision.player_id, Bet(legal.min_to))
                opened = True
            else:
                table.act(decision.player_id, Check() if legal.can_check else Call())
        else:
            raise AssertionError(f"unexpected decision {decision}")
    result = table.result
    assert result is not None
    assert {s.player_id for s in result.shown} == {"ann", "bob"}


def test_any_pair_no_pair_a_low_high_card_is_no_high_hand() -> None:
    # Any pair, no pair: ann's seven-low is face up; bob's queen high is worse for low and,
    # without a pair, plays for no high either, so bob may muck; cal's pair of threes is the
    # only high hand so far and shows.
    table = make_table(
        ["ann", "bob", "cal"], options=MUCK, variant="five-card-draw", variant_options=("hilo:any",)
    )
    deck = deck_for(["7c 6d 4h 3s 2c", "Qc Jd 9s 8c 5d", "3c 3d Ks 9h 5h"])
    table.start_hand(random.Random(1), deck=deck)
    play(table, [("ann", Bet(2)), ("bob", Call()), ("cal", Call())])
    play(table, [(p, Discard(())) for p in ("ann", "bob", "cal")])
    play(table, [("ann", Bet(4)), ("bob", Call()), ("cal", Call())])
    decision = table.pending[0]
    assert decision.player_id == "bob" and decision.kind is DecisionKind.SHOW
    assert decision.legal.beaten_by == (0,)
    table.act("bob", Muck())
    assert table.result is not None
    assert [s.player_id for s in table.result.shown] == ["ann", "cal"]


def test_options_and_actions_round_trip() -> None:
    # Snapshots written before the option existed load with it off.
    assert TableOptions.from_dict({}).muck_losers is False
    assert TableOptions.from_dict(MUCK.to_dict()) == MUCK
    for action in (Show(), Muck()):
        assert action_from_dict(action_to_dict(action)) == action


def test_snapshot_mid_choice_resumes() -> None:
    table = make_table(["ann", "bob"], options=MUCK)
    _to_showdown(table)
    copy = Table.from_dict(table.to_dict())
    assert copy.pending == table.pending
    copy.act("bob", Muck())
    assert copy.result is not None
    assert [s.player_id for s in copy.result.shown] == ["ann"]


def test_fairness_proof_opens_no_mucked_card() -> None:
    # The proof opens what the events let each seat see: a mucked hand only to its holder.
    from engine.commitment import cards_seen

    table = make_table(["ann", "bob"], options=MUCK)
    _to_showdown(table)
    table.act("bob", Muck())
    events = list(table.events)
    (mucked,) = [e for e in events if isinstance(e, ev.Mucked)]
    assert isinstance(mucked, ev.Mucked)
    for seat in (None, 0):
        assert not set(mucked.cards) & cards_seen(events, seat)
    assert set(mucked.cards) <= cards_seen(events, 1)
