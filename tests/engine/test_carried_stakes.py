"""A carried pot belongs to whoever put it in: a player all-in for the ante of a passed-out
deal is dealt into the next one for the part of the pot they reached, stays in a tournament
while that pot is carried, and gets their chips back when the table gives the pot back."""

from __future__ import annotations

import random

import pytest

from engine.actions import Check, Timeout
from engine.errors import TableError
from engine.stakes import ForcedBets
from engine.table import Table
from engine.tournament import Level, Payouts, Schedule, Tournament, TournamentSettings
from tests.engine.engine_helpers import make_table

RNG = random.Random(7)


def passed_out(stacks: list[int], names: str = "abc") -> Table:
    """A table of ``names`` with ``stacks`` at ante 2 whose first deal everyone checks
    round (so it passes out, the short stacks all-in for what they had)."""
    table = make_table(list(names), forced=ForcedBets.antes(2), stacks=stacks)
    table.start_hand(RNG)
    while table.in_hand:
        table.act(table.to_act[0], Check())
    assert table.result is not None and table.result.passed_out
    return table


def stacks(table: Table) -> dict[str, int]:
    return {s.player_id: s.stack for s in table.seats if s is not None}


def test_the_carried_pot_knows_who_put_it_in() -> None:
    table = passed_out([100, 100, 1])
    assert table.carried == 5
    assert table.carried_stakes == {"a": 2, "b": 2, "c": 1}
    assert stacks(table) == {"a": 98, "b": 98, "c": 0}


def test_a_player_all_in_for_the_ante_is_dealt_into_the_pot_they_reached() -> None:
    table = passed_out([100, 100, 1])
    assert table.can_start() is None
    table.start_hand(RNG)
    hand = table.hand
    assert hand is not None and "c" in hand.by_pid  # live for the carried pot
    # a and b ante again (4 each in all); c's 1 chip reaches the first 3 chips of the pot only.
    pots = [(p.amount, set(p.eligible)) for p in table.public_view().pots]
    seat = {pid: table.seat_of(pid) for pid in "abc"}
    assert pots == [(3, {seat[p] for p in "abc"}), (6, {seat[p] for p in "ab"})]
    total = table.chips()
    while table.in_hand:
        table.act(table.to_act[0], Timeout())
    assert table.chips() == total == 201


def test_the_pot_carried_again_keeps_each_share() -> None:
    table = passed_out([100, 100, 1])
    table.start_hand(RNG)
    while table.in_hand:
        table.act(table.to_act[0], Check())
    assert table.result is not None and table.result.passed_out
    assert table.carried == 9 and table.carried_stakes == {"a": 4, "b": 4, "c": 1}


def test_a_player_who_leaves_gives_up_their_share() -> None:
    table = passed_out([100, 100, 1])
    table.leave("c")
    assert table.carried == 5 and table.carried_stakes == {"a": 2, "b": 2}


def test_return_carried_gives_each_share_back() -> None:
    table = passed_out([100, 100, 1])
    assert table.return_carried() == {"a": 2, "b": 2, "c": 1}
    assert table.carried == 0 and table.carried_stakes == {}
    assert stacks(table) == {"a": 100, "b": 100, "c": 1}
    assert table.chips() == 201
    assert table.return_carried() == {}  # nothing carried: nothing to give


def test_return_carried_shares_chips_nobody_seated_put_in() -> None:
    table = passed_out([100, 100, 1])
    table.leave("c")  # c's chip stays in the pot, nobody's now
    back = table.return_carried()
    assert sorted(back.values()) == [2, 3] and set(back) == {"a", "b"}
    assert table.carried == 0 and sum(stacks(table).values()) == 201


def test_return_carried_is_refused_during_a_hand() -> None:
    table = passed_out([100, 100, 1])
    table.start_hand(RNG)
    with pytest.raises(TableError):
        table.return_carried()


def test_close_gives_each_share_back_to_whoever_put_it_in() -> None:
    table = passed_out([100, 100, 1])
    assert table.close() == {"a": 100, "b": 100, "c": 1}


def test_stakes_survive_a_snapshot_between_and_during_hands() -> None:
    table = passed_out([100, 100, 1])
    again = Table.from_dict(table.to_dict())
    assert again.carried_stakes == table.carried_stakes
    table.start_hand(RNG)
    again = Table.from_dict(table.to_dict())
    assert again.to_dict() == table.to_dict()
    assert again.public_view() == table.public_view()


# -- the tournament bug (issue 25, 1b), reproduced at the engine level ---------------------------


def tournament(players: str) -> Tournament:
    settings = TournamentSettings(
        buy_in=10,
        starting_stack=100,
        schedule=Schedule((Level(2, (), 2),)),
        payouts=Payouts.parse("winner"),
        seats=len(players),
        max_players=len(players),
    )
    t = Tournament(settings)
    for pid in players:
        t = t.register(pid)
    return t.start()


def test_a_player_with_chips_in_a_carried_pot_is_not_out() -> None:
    """c all-in for one chip of a 2-chip ante, the deal passed out: c was counted out with
    their chip in the carried pot, which nobody then played for at a table that broke up."""
    table = passed_out([100, 100, 1])
    t = tournament("abc")
    start = {"a": 100, "b": 100, "c": 1}
    after = t.eliminate(stacks(table), start, in_pot=table.carried_stakes)
    assert after.status == "running" and not after.entry("c").out
    # The pot is played for: c is dealt in, and is out only once it is won without them.
    hands = 0
    while after.status == "running":
        start = stacks(table)
        table.start_hand(RNG)
        assert set(table.hand.by_pid) == set(start)  # type: ignore[union-attr]
        while table.in_hand:
            table.act(table.to_act[0], Timeout())
        after = after.eliminate(stacks(table), start, in_pot=table.carried_stakes)
        for pid in [p for p in start if after.entry(p).out]:
            assert stacks(table)[pid] == 0 and pid not in table.carried_stakes
            table.leave(pid)
        assert table.chips() == 201
        hands += 1
        assert hands < 500
    (winner,) = after.alive
    assert table.stack(winner) + table.carried == 201


def test_a_deal_only_one_player_could_open_is_played_out() -> None:
    """Passing out needs two players who could have opened: with the others all-in for the
    ante the hand goes on to the showdown (else it would pass out, and be carried, for ever)."""
    table = make_table(["a", "c"], forced=ForcedBets.antes(2), stacks=[100, 1])
    table.start_hand(RNG)
    while table.in_hand:
        table.act(table.to_act[0], Timeout())
    assert table.result is not None and not table.result.passed_out
    assert table.carried == 0 and sum(stacks(table).values()) == 101
    both = make_table(["a", "c"], forced=ForcedBets.antes(2), stacks=[1, 2])
    both.start_hand(RNG)
    while both.in_hand:  # the draw, then the showdown
        both.act(both.to_act[0], Timeout())
    assert both.result is not None and not both.result.passed_out
    assert both.carried == 0 and sum(stacks(both).values()) == 3
