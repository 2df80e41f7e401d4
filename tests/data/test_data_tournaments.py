"""Tournaments and seasons in the data layer: prize pools through the ledger, the audit,
saved tables, results and records, season standings and resets."""

from __future__ import annotations

import pytest

from data import ChipsInPlay, Database, DataError, InsufficientFunds, InvalidArgument, TableSave
from data.tournaments import TournamentNotFound

from .helpers import ADMIN, CHANNEL, GUILD, start_hand, state


async def _audit_ok(db: Database) -> None:
    audit = await db.chip_audit(GUILD)
    assert audit.ok, str(audit)


async def test_buy_ins_are_held_in_the_pool_and_audited(db: Database) -> None:
    t = await db.create_tournament(GUILD, CHANNEL, ADMIN, state(game="x"), state(n=0), now=1)
    assert (t.status, t.prize_pool) == ("registering", 0)
    with pytest.raises(DataError, match="already a tournament"):
        await db.create_tournament(GUILD, CHANNEL, ADMIN, state(), state(), now=1)
    for user in (1, 2, 3):
        await db.tournament_pay_in(t.tournament_id, user, 100, state(n=user), now=2)
    assert await db.balance(GUILD, 1) == 900
    audit = await db.chip_audit(GUILD)
    assert (audit.in_tournaments, audit.ok) == (300, True)
    row = await db.get_tournament(t.tournament_id)
    assert (row.prize_pool, row.state_json) == (300, state(n=3))
    kinds = [e.kind for e in (await db.ledger(GUILD, 1)).items]
    assert kinds == ["tournament_buy_in", "issue"]
    # unregistering gives the buy-in back
    assert await db.tournament_refund(t.tournament_id, 3, 100, state(n=2), now=3) == 1000
    await _audit_ok(db)


async def test_a_short_bankroll_changes_nothing(db: Database) -> None:
    await db.update_settings(GUILD, ADMIN, starting_bankroll=50)
    t = await db.create_tournament(GUILD, CHANNEL, ADMIN, state(), state(n=0), now=1)
    with pytest.raises(InsufficientFunds):
        await db.tournament_pay_in(t.tournament_id, 1, 100, state(n=1), now=2)
    row = await db.get_tournament(t.tournament_id)
    assert (row.prize_pool, row.state_json) == (0, state(n=0))
    await _audit_ok(db)


async def test_tournament_tables_hold_tournament_chips(db: Database) -> None:
    t = await db.create_tournament(GUILD, CHANNEL, ADMIN, state(), state(), now=1)
    tid = t.tournament_id
    for user in (1, 2):
        await db.tournament_pay_in(tid, user, 50, state(), now=2)
    await db.save_tournament(tid, "running", state(level=0), started_at=10, now=10)
    await db.save_tournament(tid, "running", state(level=1), started_at=99, now=20)
    row = await db.get_tournament(tid)
    assert (row.status, row.started_at, row.state_json) == ("running", 10.0, state(level=1))
    table = await db.create_tournament_table(tid, CHANNEL, state(game=1), state(seats=0), now=11)
    assert table.tournament_id == tid
    with pytest.raises(DataError):
        await db.create_table(GUILD, CHANNEL, ADMIN, state())  # the channel is taken
    with pytest.raises(InvalidArgument, match="no hand events"):  # seating is between hands
        await db.seat_tournament_table(
            table.table_id, TableSave(state(seats=2), 3000, {1: 1500, 2: 1500}, [(0, "{}")])
        )
    # seated from the tournament: 2 x 1500 chips, no bankroll touched
    await db.seat_tournament_table(
        table.table_id, TableSave(state(seats=2), 3000, {1: 1500, 2: 1500})
    )
    assert await db.balance(GUILD, 1) == 950
    assert await db.chips_on_tables(GUILD, 1) == (0, 0)  # tournament chips are no bankroll
    board = await db.leaderboard(GUILD)
    assert [(e.user_id, e.total) for e in board.items] == [(1, 950), (2, 950)]
    await _audit_ok(db)
    assert (await db.chip_audit(GUILD)).on_tables == 0
    with pytest.raises(DataError, match="not a tournament table"):
        cash = await db.create_table(GUILD, CHANNEL + 1, ADMIN, state())
        await db.seat_tournament_table(cash.table_id, TableSave(state(), 0, {}))
    assert [x.table_id for x in await db.tournament_tables(tid)] == [table.table_id]
    await db.finish_tournament(tid, [(1, 1, 100), (2, 2, 0)], state(), now=30)
    assert await db.tournament_tables(tid) == []
    assert (await db.get_table(table.table_id)).status == "closed"
    await _audit_ok(db)


async def test_finish_pays_the_whole_pool_and_records(db: Database) -> None:
    await db.start_season(GUILD, "spring", [10, 6, 3], now=0)
    t = await db.create_tournament(GUILD, CHANNEL, ADMIN, state(), state(), now=1)
    tid = t.tournament_id
    for user in (1, 2, 3, 4):
        await db.tournament_pay_in(tid, user, 25, state(), now=2)
    with pytest.raises(DataError, match="prize pool"):
        await db.finish_tournament(tid, [(1, 1, 60), (2, 2, 30)], state(), now=5)
    results = await db.finish_tournament(
        tid, [(1, 1, 65), (2, 2, 35), (3, 3, 0), (4, 4, 0)], state(done=True), now=5
    )
    assert [(r.user_id, r.place, r.prize, r.points) for r in results] == [
        (1, 1, 65, 10),
        (2, 2, 35, 6),
        (3, 3, 0, 3),
        (4, 4, 0, 0),
    ]
    row = await db.get_tournament(tid)
    assert (row.status, row.prize_pool) == ("finished", 0)
    assert await db.balance(GUILD, 1) == 1040
    record = await db.tournament_record(GUILD, 1)
    assert (record.played, record.cashes, record.wins, record.best_finish) == (1, 1, 1, 1)
    record = await db.tournament_record(GUILD, 4)
    assert (record.played, record.cashes, record.wins, record.best_finish) == (1, 0, 0, 4)
    with pytest.raises(DataError, match="finished"):
        await db.tournament_pay_in(tid, 5, 25, state(), now=6)
    await _audit_ok(db)
    # the channel is free for the next one
    await db.create_tournament(GUILD, CHANNEL, ADMIN, state(), state(), now=7)


async def test_cancel_refunds_everything(db: Database) -> None:
    t = await db.create_tournament(GUILD, CHANNEL, ADMIN, state(), state(), now=1)
    await db.tournament_pay_in(t.tournament_id, 1, 40, state(), now=2)
    await db.tournament_pay_in(t.tournament_id, 2, 40, state(), now=2)
    with pytest.raises(DataError, match="whole prize pool"):
        await db.cancel_tournament(t.tournament_id, [(1, 40)], state(), now=3)
    await db.cancel_tournament(t.tournament_id, [(1, 40), (2, 40)], state(), now=3)
    assert await db.balance(GUILD, 2) == 1000
    assert (await db.get_tournament(t.tournament_id)).status == "cancelled"
    with pytest.raises(TournamentNotFound):
        await db.get_tournament(t.tournament_id + 100)
    await _audit_ok(db)


async def test_a_tournament_called_off_as_void_pays_back_what_each_paid_in(db: Database) -> None:
    """The pool by member, from the ledger (buy-ins, rebuys and add-ons, less a refund), is
    what a tournament called off as void pays back; a hand in progress at its tables ends
    without a result, and only when asked for."""
    t = await db.create_tournament(GUILD, CHANNEL, ADMIN, state(), state(), now=1)
    tid = t.tournament_id
    for user, amount in ((1, 40), (2, 40), (3, 40), (1, 40), (2, 15)):
        await db.tournament_pay_in(tid, user, amount, state(), now=2)
    await db.tournament_refund(tid, 3, 40, state(), now=3)
    paid = await db.tournament_paid_in(tid)
    assert paid == {1: 80, 2: 55}
    # Running, with a hand in progress at its table: called off only with that hand void.
    await db.save_tournament(tid, "running", state(level=0), started_at=4, now=4)
    table = await db.create_tournament_table(tid, CHANNEL, state(game=1), state(seats=0), now=4)
    await db.seat_tournament_table(table.table_id, TableSave(state(), 3000, {1: 1500, 2: 1500}))
    hand = await start_hand(db, table, {1: 1500, 2: 1500}, now=5)
    with pytest.raises(DataError, match="between hands"):
        await db.cancel_tournament(tid, sorted(paid.items()), state(), now=6)
    await db.cancel_tournament(tid, sorted(paid.items()), state(), void_hands=True, now=6)
    assert [await db.balance(GUILD, user) for user in (1, 2, 3)] == [1000, 1000, 1000]
    assert await db.tournament_paid_in(tid) == {}
    closed = await db.get_table(table.table_id)
    assert (closed.status, closed.current_hand_id) == ("closed", None)
    (ended,) = (await db.list_hands(table.table_id)).items
    assert ended.hand_id == hand.hand_id and ended.ended_at == 6
    await _audit_ok(db)


async def test_season_standings_and_reset(db: Database) -> None:
    await db.start_season(GUILD, "one", [5, 2], now=0)
    with pytest.raises(DataError, match="already"):
        await db.start_season(GUILD, "two", [1], now=1)
    t = await db.create_tournament(GUILD, CHANNEL, ADMIN, state(), state(), now=1)
    for user in (1, 2):
        await db.tournament_pay_in(t.tournament_id, user, 100, state(), now=2)
    await db.finish_tournament(t.tournament_id, [(2, 1, 200), (1, 2, 0)], state(), now=3)
    await db.admin_grant(GUILD, ADMIN, 3, 500)
    await db.fund_house(GUILD, -201, 300, now=3)  # a house player's bankroll stays out of it
    season, table = await db.end_season(GUILD, ADMIN, reset=True, now=4)
    assert season.ended_at == 4.0
    assert [(s.rank, s.user_id, s.points, s.balance) for s in table] == [
        (1, 2, 5, 1100),
        (2, 1, 2, 900),
        (3, 3, 0, 1500),
    ]
    assert [await db.balance(GUILD, u) for u in (1, 2, 3)] == [1000, 1000, 1000]
    # Each reset is a ledger row of its member, written with the balance (by the admin).
    newest = [(await db.ledger(GUILD, u, limit=1)).items[0] for u in (1, 2, 3)]
    assert [(e.kind, e.delta, e.balance_after, e.actor_id, e.note) for e in newest] == [
        ("season_reset", 100, 1000, ADMIN, "season one ended"),
        ("season_reset", -100, 1000, ADMIN, "season one ended"),
        ("season_reset", -500, 1000, ADMIN, "season one ended"),
    ]
    assert await db.house_balance(GUILD) == 300
    again, same = await db.season_standings(GUILD, "one")
    assert same == table and again.name == "one"
    with pytest.raises(DataError, match="no season"):
        await db.end_season(GUILD, ADMIN, now=5)
    with pytest.raises(DataError, match="already a season called"):
        await db.start_season(GUILD, "one", [1], now=6)
    await _audit_ok(db)


async def test_a_season_reset_waits_for_every_member_seated_at_a_cash_table(
    db: Database,
) -> None:
    """An all-in member's stack is 0 (their chips are in the pot): still seated, they count,
    or the reset would go through and they would win the pot on top of a fresh bankroll."""
    await db.start_season(GUILD, "one", [5, 2], now=1)
    table = await db.create_table(GUILD, CHANNEL, ADMIN, "{}", now=1)
    await db.buy_in(GUILD, 1, table.table_id, 100, TableSave("{}", 100, {1: 100}), now=2)
    await db.buy_in(GUILD, 2, table.table_id, 100, TableSave("{}", 200, {1: 100, 2: 100}), now=2)
    await db.save_table_state(table.table_id, TableSave("{}", 200, {1: 0, 2: 50}), now=3)
    with pytest.raises(ChipsInPlay) as refused:
        await db.end_season(GUILD, ADMIN, reset=True, now=4)
    assert refused.value.members == 2
    assert [await db.balance(GUILD, u) for u in (1, 2)] == [900, 900]
    assert (await db.current_season(GUILD)) is not None
    season, _standings = await db.end_season(GUILD, ADMIN, now=5)  # no reset: it may end
    assert season.ended_at == 5.0
    await _audit_ok(db)


async def test_a_season_reset_waits_for_the_entries_in_an_open_tournament(db: Database) -> None:
    """Chips paid into a tournament not yet over come back as a refund or a prize after the
    reset: a member who registered with their whole bankroll kept it and got the start too."""
    await db.start_season(GUILD, "one", [5, 2], now=1)
    t = await db.create_tournament(GUILD, CHANNEL, ADMIN, state(), state(), now=1)
    await db.tournament_pay_in(t.tournament_id, 1, 1000, state(), now=2)
    await db.tournament_pay_in(t.tournament_id, 2, 100, state(), now=2)
    await db.tournament_refund(t.tournament_id, 2, 100, state(), now=3)  # 2 unregistered
    with pytest.raises(ChipsInPlay) as refused:
        await db.end_season(GUILD, ADMIN, reset=True, now=4)
    assert refused.value.members == 1
    assert await db.balance(GUILD, 1) == 0
    assert (await db.current_season(GUILD)) is not None
    await db.tournament_refund(t.tournament_id, 1, 1000, state(), now=5)
    await db.end_season(GUILD, ADMIN, reset=True, now=6)
    assert [await db.balance(GUILD, u) for u in (1, 2)] == [1000, 1000]
    await _audit_ok(db)


async def test_scheduled_games(db: Database) -> None:
    later = await db.schedule_game(GUILD, CHANNEL, ADMIN, "tournament", state(buy_in=5), 500, now=1)
    soon = await db.schedule_game(GUILD, CHANNEL, ADMIN, "table", state(), 100, now=1)
    with pytest.raises(DataError):
        await db.schedule_game(GUILD, CHANNEL, ADMIN, "bingo", state(), 100, now=1)
    assert [g.schedule_id for g in await db.pending_schedules(600)] == [
        soon.schedule_id,
        later.schedule_id,
    ]
    await db.update_schedule(soon.schedule_id, event_id=77, reminded=True)
    (game,) = [g for g in await db.pending_schedules(600) if g.schedule_id == soon.schedule_id]
    assert (game.event_id, game.reminded, game.status) == (77, True, "pending")
    await db.update_schedule(soon.schedule_id, reminded=True, status="opened")
    assert [g.schedule_id for g in await db.pending_schedules(600)] == [later.schedule_id]
    assert await db.pending_schedules(99) == []


async def test_a_series_of_nights(db: Database) -> None:
    first = await db.schedule_game(
        GUILD,
        CHANNEL,
        ADMIN,
        "table",
        state(),
        1000,
        now=1,
        repeat="monthly",
        poll_games=("anaconda", "shotgun"),
    )
    # The first night names its series and counts the series from its own start.
    assert (first.series_id, first.repeat, first.repeat_from) == (
        first.schedule_id,
        "monthly",
        1000,
    )
    assert first.poll_games == ("anaconda", "shotgun") and first.poll_message_id is None
    with pytest.raises(DataError):
        await db.schedule_game(GUILD, CHANNEL, ADMIN, "table", state(), 9, now=1, repeat="daily")
    await db.move_schedule(first.schedule_id, 1500)
    moved = await db.schedule(first.schedule_id)
    assert moved is not None and (moved.starts_at, moved.repeat_from) == (1500, 1500)
    await db.update_schedule(first.schedule_id, status="opened", poll_message_id=5, game_id=42)
    assert await db.opened_schedule("table", 42) == await db.schedule(first.schedule_id)
    assert await db.opened_schedule("tournament", 42) is None
    following = await db.schedule_game(
        GUILD,
        CHANNEL,
        ADMIN,
        "table",
        state(),
        4000,
        now=2,
        repeat="monthly",
        poll_games=first.poll_games,
        series_id=first.series_id,
        repeat_from=1500,
    )
    assert following.series_id == first.series_id and following.repeat_from == 1500
    assert [g.schedule_id for g in await db.guild_schedules(GUILD)] == [following.schedule_id]
    await db.update_schedule(following.schedule_id, status="cancelled")
    await db.update_schedule(first.schedule_id, status="ended")
    assert await db.guild_schedules(GUILD) == []
    assert await db.opened_schedule("table", 42) is None
