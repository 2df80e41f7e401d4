"""engine.tournament: the level clock, rebuys, add-ons, places, payouts and table balancing."""

from __future__ import annotations

import doctest
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.tournament
from engine.actions import Timeout
from engine.stakes import FixedLimit, ForcedBets, NoLimit
from engine.table import Table, TableConfig
from engine.tournament import (
    Level,
    Payouts,
    Schedule,
    TableSeats,
    Tournament,
    TournamentError,
    TournamentSettings,
    at_level,
    big_blind_order,
    default_schedule,
    plan_moves,
)


def test_doctests() -> None:
    failures, tried = doctest.testmod(engine.tournament)
    assert failures == 0 and tried > 10


# -- the level clock ----------------------------------------------------------------------------


def test_level_clock_is_a_function_of_elapsed_time() -> None:
    schedule = Schedule.parse("1:2, 2:4, 3:6", level_seconds=90)
    assert [schedule.level_at(t) for t in (-5, 0, 89.9, 90, 179, 180, 10_000)] == [
        0,
        0,
        0,
        1,
        1,
        2,
        2,
    ]
    assert schedule.remaining(0) == 90
    assert schedule.remaining(89.2) == 1
    assert schedule.remaining(90) == 90
    assert schedule.remaining(180) is None  # the last level stays
    assert schedule.level(100) == Level(2, (), 4)
    assert schedule.next_level(100) == Level(3, (), 6)
    assert schedule.next_level(200) is None


@given(st.floats(min_value=0, max_value=1e6), st.integers(1, 3600), st.integers(1, 12))
def test_clock_properties(elapsed: float, seconds: int, count: int) -> None:
    schedule = Schedule(tuple(Level(k + 1, (), k + 1) for k in range(count)), seconds)
    index = schedule.level_at(elapsed)
    assert 0 <= index < count
    remaining = schedule.remaining(elapsed)
    if remaining is not None:
        assert 0 <= remaining <= seconds
        assert schedule.level_at(elapsed + remaining) == index + 1


def test_levels_round_trip_and_refuse_nonsense() -> None:
    for text in ("1:2", "1-2:2", "5-10+1:10", "1-1-2:1"):
        assert Level.parse(text).encode() == text
    for bad in ("", "1", "a:b", "0:2", "1:0", "1-0:2", "-1:2"):
        with pytest.raises(TournamentError):
            Level.parse(bad)


def test_default_schedules_follow_the_game() -> None:
    antes = default_schedule(TableConfig("jacks-or-better"), levels=4)
    assert all(level.ante and not level.blinds for level in antes.levels)
    blinds = default_schedule(TableConfig("california-lowball"), levels=4)
    assert all(level.blinds and not level.ante for level in blinds.levels)
    qball = default_schedule(TableConfig("q-ball"), levels=2)
    assert qball.levels[0].blinds == (1, 1, 2)
    long = default_schedule(TableConfig("five-card-draw"), levels=20)
    bets = [level.bet for level in long.levels]
    assert bets == sorted(bets) and len(set(bets)) == 20


def test_at_level_changes_the_stakes_between_hands_only() -> None:
    table = Table(TableConfig("five-card-draw"))
    table.sit("a", 100)
    table.sit("b", 100)
    raised = at_level(table, Level(3, (), 6))
    assert raised.config.stakes == (FixedLimit(6, 12), ForcedBets(ante=3))
    assert [s.stack for s in raised.seats if s] == [100, 100]
    raised.start_hand(random.Random(4))
    with pytest.raises(TournamentError):
        at_level(raised, Level(4, (), 8))
    # after a hand: the stacks it left, not a replay of it at the new stakes
    while raised.in_hand:
        raised.act(raised.pending[0].seat, Timeout())
    stacks = [s.stack for s in raised.seats if s]
    again = at_level(raised, Level(5, (), 10))
    assert [s.stack for s in again.seats if s] == stacks
    assert again.chips() == raised.chips() == 200  # any carried pot stays too
    assert again.hand_number == raised.hand_number and again.button == raised.button
    nolimit = Table(TableConfig("seven-card-draw"))
    assert at_level(nolimit, Level(0, (5, 10), 10)).config.stakes[0] == NoLimit(10)


# -- payouts ------------------------------------------------------------------------------------


@given(
    st.sampled_from(["winner", "65/35", "50/30/20", "40/25/20/15", "30/20/20/10/10/10"]),
    st.integers(0, 10**9),
    st.integers(1, 40),
)
def test_payouts_sum_to_the_pool(shape: str, pool: int, entrants: int) -> None:
    amounts = Payouts.parse(shape).amounts(pool, entrants)
    assert sum(amounts) == pool
    assert len(amounts) == min(entrants, len(Payouts.parse(shape).shares))
    assert list(amounts) == sorted(amounts, reverse=True)


def test_odd_chips_go_to_the_winner_and_bad_shapes_are_refused() -> None:
    assert Payouts.parse("50/30/20").amounts(7, 5) == (4, 2, 1)
    assert Payouts.parse("65/35").amounts(100, 1) == (100,)
    for bad in ("", "60/30", "30/70", "50/50/0", "half"):
        with pytest.raises(TournamentError):
            Payouts.parse(bad)


# -- registration, rebuys, add-ons, places ------------------------------------------------------


def _settings(**kw: object) -> TournamentSettings:
    base: dict[str, object] = {
        "buy_in": 10,
        "starting_stack": 100,
        "schedule": Schedule.parse("1:2 2:4 3:6 4:8"),
        "payouts": Payouts.parse("65/35"),
        "max_players": 4,
    }
    base.update(kw)
    return TournamentSettings(**base)  # type: ignore[arg-type]


def test_registration_rules() -> None:
    t = Tournament(_settings())
    t = t.register("a")
    with pytest.raises(TournamentError, match="already"):
        t.register("a")
    with pytest.raises(TournamentError, match="two"):
        t.start()
    t = t.register("b").register("c").register("d")
    with pytest.raises(TournamentError, match="full"):
        t.register("e")
    t = t.unregister("d").start()
    with pytest.raises(TournamentError, match="closed"):
        t.register("d")
    late = Tournament(_settings(late_levels=2)).register("a").register("b").start()
    assert late.register("c", level=1).registered("c")
    with pytest.raises(TournamentError, match="closed"):
        late.register("c", level=2)


def test_rebuys_and_addon() -> None:
    t = Tournament(_settings(rebuys=1, rebuy_levels=2, addon_stack=150))
    t = t.register("a").register("b").register("c").start()
    # a busts at level 0 with a rebuy open: not out, may rebuy
    t = t.eliminate({"a": 0, "b": 200, "c": 100}, {"a": 100, "b": 100, "c": 100}, level=0)
    assert "a" in t.alive and t.status == "running"
    assert t.rebuy_reason("b", 0, 200) is not None  # above the starting stack
    t = t.rebuy("a", 0, 0)
    assert t.entry("a").rebuys == 1 and t.prize_pool == 40
    assert t.rebuy_reason("a", 0, 0) == "you have used your 1 rebuy"
    assert t.rebuy_reason("c", 2, 50) == "the rebuy period is over"
    assert t.addon_reason("a", 0) == "the add-on opens at the last rebuy level"
    t = t.addon("a", 1)
    with pytest.raises(TournamentError, match="already"):
        t.addon("a", 1)
    t = t.close_addon()
    assert t.addon_reason("b", 1) == "the add-on is over"
    assert t.prize_pool == 50
    assert t.chips_in_play == 4 * 100 + 150
    # a busts again after the period: out for good
    t = t.eliminate({"a": 0, "b": 300, "c": 250}, {"a": 100, "b": 200, "c": 250}, level=2)
    assert t.entry("a").out


def test_a_player_waiting_on_a_rebuy_can_turn_it_down() -> None:
    """A busted player with a rebuy open decides; turning it down puts them out at once,
    placed below those still in, and the last one left wins."""
    t = Tournament(_settings(rebuys=1, rebuy_levels=2))
    t = t.register("a").register("b").register("c").start()
    t = t.eliminate({"a": 0, "b": 200, "c": 100}, {"a": 100, "b": 100, "c": 100}, level=0)
    assert t.deciding({"a": 0, "b": 200, "c": 100}) == ("a",)
    # A rebuy bought and not dealt yet counts as chips: nothing to decide.
    assert t.deciding({"a": 100, "b": 200, "c": 100}) == ()
    assert t.decline_reason("b", 200) == "you still have chips: only a player with none can go out"
    assert t.decline_reason("a", 100) is not None
    t = t.decline("a", 0)
    assert t.entry("a").out and t.status == "running"
    assert t.decline_reason("a", 0) == "you are out of the tournament"
    assert t.deciding({"a": 0}) == ()
    t = t.eliminate({"b": 0, "c": 300}, {"b": 200, "c": 100}, level=0)
    t = t.decline("b", 0)
    assert t.status == "finished" and t.places() == (("c", 1), ("b", 2), ("a", 3))
    with pytest.raises(TournamentError, match="not running"):
        t.decline("c", 0)


def test_two_out_in_one_hand_are_placed_by_starting_stack() -> None:
    t = Tournament(_settings(payouts=Payouts.parse("50/30/20")))
    t = t.register("a").register("b").register("c").register("d").start()
    t = t.eliminate({"a": 0, "b": 0, "c": 200, "d": 200}, {"a": 80, "b": 120, "c": 100, "d": 100})
    assert dict(t.places())["b"] == 3 and dict(t.places())["a"] == 4
    t = t.eliminate({"c": 0, "d": 400}, {"c": 200, "d": 200})
    assert t.status == "finished"
    assert t.places() == (("d", 1), ("c", 2), ("b", 3), ("a", 4))
    table = t.payout_table()
    assert [prize for _, _, prize in table] == [20, 12, 8, 0]
    assert sum(prize for _, _, prize in table) == t.prize_pool


def test_equal_stacks_share_a_place_and_its_prize() -> None:
    t = Tournament(_settings(payouts=Payouts.parse("50/30/20")))
    t = t.register("a").register("b").register("c").start()
    t = t.eliminate({"a": 0, "b": 0, "c": 300}, {"a": 100, "b": 100, "c": 100})
    assert t.places() == (("c", 1), ("a", 2), ("b", 2))
    prizes = {p: prize for p, _, prize in t.payout_table()}
    assert prizes == {"c": 15, "a": 8, "b": 7}  # 2nd and 3rd (9 + 6) shared, odd chip first
    assert sum(prizes.values()) == t.prize_pool


def test_round_trip() -> None:
    t = Tournament(_settings(rebuys=2, rebuy_levels=1, addon_stack=50, late_levels=1))
    t = t.register("a").register("b").start().rebuy("a", 0, 100)
    t = t.eliminate({"a": 0, "b": 300}, {"a": 100, "b": 200}, level=3)
    again = Tournament.from_dict(t.to_dict())
    assert again == t and again.places() == t.places()
    # A player deciding on a rebuy keeps the hand they went broke in; a save from before
    # that was kept (five fields an entry) still reads.
    deciding = Tournament(_settings(rebuys=1, rebuy_levels=1)).register("a").register("b")
    deciding = deciding.start().eliminate({"a": 0, "b": 200}, {"a": 60, "b": 140}, level=0)
    assert deciding.entry("a").broke == (1, 60)
    assert Tournament.from_dict(deciding.to_dict()) == deciding
    old = deciding.to_dict()
    old["entries"] = [entry[:5] for entry in old["entries"]]
    assert Tournament.from_dict(old).entry("a").broke is None


# -- balancing ----------------------------------------------------------------------------------


def test_big_blind_order() -> None:
    seats = TableSeats("t", ("a", None, "b", "c"), button=2)
    assert big_blind_order(seats) == ("b", "c", "a")  # c deals next, a small, b big
    heads_up = TableSeats("t", ("a", None, "b", None), button=0)
    assert big_blind_order(heads_up) == ("a", "b")  # b deals and posts small, a big


def test_breaking_a_table_moves_only_its_players() -> None:
    tables = [
        TableSeats("1", ("a", "b", "c", None, None, None), 0),
        TableSeats("2", ("d", "e", None, None, None, None), 0),
        TableSeats("3", ("f", "g", "h", "i", None, None), 0),
    ]
    moves = plan_moves(tables, 6)
    assert {m.from_table for m in moves} == {"2"}
    assert sorted(m.player_id for m in moves) == ["d", "e"]


def test_final_table() -> None:
    tables = [
        TableSeats("1", ("a", "b", "c", None), 1),
        TableSeats("2", ("d", None, None, None), 0),
    ]
    assert plan_moves(tables, 4) == (engine.tournament.Move("d", "2", "1"),)


@st.composite
def _layouts(draw: st.DrawFn) -> tuple[list[TableSeats], int]:
    seats = draw(st.integers(2, 10))
    count = draw(st.integers(1, 6))
    names = iter(f"p{k}" for k in range(1000))
    tables = []
    for t in range(count):
        row: list[str | None] = [next(names) if draw(st.booleans()) else None for _ in range(seats)]
        occupied = [i for i, p in enumerate(row) if p]
        button: int | None = None
        wants_button: bool = draw(st.booleans())
        if occupied and wants_button:
            button = draw(st.sampled_from(occupied))
        tables.append(TableSeats(f"t{t}", tuple(row), button))
    return tables, seats


@settings(max_examples=300)
@given(_layouts())
def test_balancing_properties(layout: tuple[list[TableSeats], int]) -> None:
    tables, seats = layout
    moves = plan_moves(tables, seats)
    where = {p: t.table_id for t in tables for p in t.players}
    total = len(where)
    for move in moves:
        assert where[move.player_id] == move.from_table
        where[move.player_id] = move.to_table
    # nobody lost or duplicated
    assert sorted(where) == sorted(p for t in tables for p in t.players)
    counts: dict[str, int] = {}
    for table_id in where.values():
        counts[table_id] = counts.get(table_id, 0) + 1
    needed = max(1, -(-total // seats))
    if total:
        assert len(counts) == needed
        assert max(counts.values()) - min(counts.values()) <= 1
        assert max(counts.values()) <= seats
    # nobody moves twice, and no table both sends and receives
    assert len({m.player_id for m in moves}) == len(moves)
    assert not {m.from_table for m in moves} & {m.to_table for m in moves}
    # fewest moves: breaking tables moves their players; balancing moves only the excess
    assert plan_moves(_apply(tables, moves), seats) == ()


def _apply(tables: list[TableSeats], moves: tuple[engine.tournament.Move, ...]) -> list[TableSeats]:
    rows = {t.table_id: list(t.seats) for t in tables}
    for move in moves:
        row = rows[move.from_table]
        row[row.index(move.player_id)] = None
        target = rows[move.to_table]
        target[target.index(None)] = move.player_id
    return [
        TableSeats(t.table_id, tuple(rows[t.table_id]), t.button)
        for t in tables
        if any(rows[t.table_id])
    ]


@given(st.integers(2, 40), st.integers(2, 10), st.randoms(use_true_random=False))
def test_busting_down_to_one_table(players: int, seats: int, rnd: random.Random) -> None:
    """Players bust one at a time; after each bust the plan is carried out. The tables stay
    balanced and end as one final table."""
    count = -(-players // seats)
    names = [f"p{k}" for k in range(players)]
    tables = [
        TableSeats(f"t{t}", tuple(names[t::count] + [None] * (seats - len(names[t::count]))), 0)
        for t in range(count)
    ]
    tables = _apply(tables, plan_moves(tables, seats))
    while sum(len(t.players) for t in tables) > 1:
        victim = rnd.choice([p for t in tables for p in t.players])
        tables = [
            TableSeats(t.table_id, tuple(None if p == victim else p for p in t.seats), t.button)
            for t in tables
        ]
        tables = [t for t in tables if t.players]
        tables = _apply(tables, plan_moves(tables, seats))
        sizes = [len(t.players) for t in tables]
        assert max(sizes) - min(sizes) <= 1
        assert len(tables) == max(1, -(-sum(sizes) // seats))
    assert len(tables) == 1


def test_a_tournament_stopped_early_is_placed_by_chip_count() -> None:
    """Nowhere left to play (its channel deleted): the players still in are placed by the
    chips they hold, equal stacks sharing a place, below nobody already out; the prizes add
    up to the pool."""
    t = Tournament(_settings(payouts=Payouts.parse("50/30/20")))
    t = t.register("a").register("b").register("c").register("d").start()
    t = t.eliminate({"a": 0, "b": 150, "c": 150, "d": 100}, {"a": 50, "b": 100, "c": 100})
    stopped = t.stop({"b": 150, "c": 150, "d": 100})
    assert stopped.status == "finished"
    assert stopped.places() == (("b", 1), ("c", 1), ("d", 3), ("a", 4))
    prizes = {p: prize for p, _, prize in stopped.payout_table()}
    assert prizes == {"b": 16, "c": 16, "d": 8, "a": 0}
    assert sum(prizes.values()) == stopped.prize_pool
    with pytest.raises(TournamentError, match="holds"):
        t.stop({"b": 150, "c": 150})
    with pytest.raises(TournamentError, match="not running"):
        stopped.stop({})
