"""Hands: commitments and hidden secrets, events, results, stats, history."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest

from data import (
    ChipsMismatch,
    Database,
    HandInProgress,
    HandNotFound,
    InvalidArgument,
    NoHandInProgress,
    PlayerHandResult,
    Table,
    TableSave,
    WrongGuild,
)

from .helpers import CHANNEL, GUILD, OTHER_GUILD, commitment, seat_players, start_hand, state


async def table_with_players(db: Database) -> tuple[Table, dict[int, int]]:
    table = await db.create_table(GUILD, CHANNEL, 5, "{}")
    stacks = await seat_players(db, table, {5: 100, 6: 100, 7: 100})
    return table, stacks


def results(*rows: tuple[int, int, bool, int, int | None, str | None]) -> list[PlayerHandResult]:
    return [PlayerHandResult(*row) for row in rows]


async def finish(
    db: Database,
    table: Table,
    hand_id: int,
    per_player: list[PlayerHandResult],
    stacks: dict[int, int],
    *,
    pot: int = 30,
    seq: int = 1,
    now: float = 40.0,
) -> None:
    await db.record_hand_result(
        GUILD,
        table.table_id,
        hand_id,
        per_player,
        result_json=json.dumps({"winners": [p.user_id for p in per_player if p.won]}),
        pot=pot,
        save=TableSave(
            state(stacks=stacks), 300, stacks, [(seq, json.dumps({"type": "showdown"}))]
        ),
        now=now,
    )


async def test_hand_lifecycle_and_secrets(db: Database) -> None:
    table, stacks = await table_with_players(db)
    hand = await start_hand(db, table, stacks, salt="s1", deck="2c 3d 4h", now=20)
    assert (hand.number, hand.variant, hand.variant_name, hand.in_progress) == (
        1,
        "five_card_draw",
        "Five-card draw",
        True,
    )
    assert hand.commitment == commitment("s1", "2c 3d 4h")
    assert (await db.get_table(table.table_id)).current_hand_id == hand.hand_id
    assert await db.get_hand(hand.hand_id) == hand

    # while the hand is played: no salt, no deck, no history
    with pytest.raises(HandInProgress, match="secret"):
        await db.hand_secrets(hand.hand_id)
    with pytest.raises(HandInProgress):
        await db.hand_events(hand.hand_id)
    assert len(await db.hand_events(hand.hand_id, allow_in_progress=True)) == 1
    # nor a second hand at the same table
    with pytest.raises(HandInProgress, match="already"):
        await start_hand(db, table, stacks)

    end = {5: 120, 6: 90, 7: 90}
    await finish(
        db,
        table,
        hand.hand_id,
        results((5, 20, True, 30, 700, "Two pair"), (6, -10, False, 0, 300, "Pair"),
                (7, -10, False, 0, None, None)),
        end,
    )  # fmt: skip
    done = await db.get_hand(hand.hand_id)
    assert (done.ended_at, done.pot, done.in_progress) == (40.0, 30, False)
    assert json.loads(done.result_json or "null") == {"winners": [5]}
    secrets = await db.hand_secrets(hand.hand_id)
    assert (secrets.salt, secrets.deck) == ("s1", "2c 3d 4h")
    check = hashlib.sha256(f"{secrets.salt}:{secrets.deck}".encode()).hexdigest()
    assert check == secrets.commitment == hand.commitment
    events = await db.hand_events(hand.hand_id)
    assert [e.seq for e in events] == [0, 1]
    current = await db.get_table(table.table_id)
    assert (current.current_hand_id, current.state_json) == (None, state(stacks=end))
    assert [p.stack for p in await db.table_players(table.table_id)] == [120, 90, 90]
    with pytest.raises(NoHandInProgress):  # events need a hand
        await db.save_table_state(table.table_id, TableSave(state(), 300, end, [(2, "{}")]))

    second = await start_hand(db, table, end, now=50)
    assert second.number == 2
    with pytest.raises(HandNotFound):
        await db.get_hand(999)
    with pytest.raises(HandNotFound):
        await db.hand_secrets(999)


async def test_stats_accumulate(db: Database) -> None:
    table, stacks = await table_with_players(db)
    assert (await db.stats(GUILD, 5)).hands_played == 0
    hand = await start_hand(db, table, stacks)
    s1 = {5: 120, 6: 90, 7: 90}
    await finish(
        db,
        table,
        hand.hand_id,
        results((5, 20, True, 30, 700, "Two pair"), (6, -10, False, 0, 300, "Pair"),
                (7, -10, False, 0, None, None)),
        s1,
    )  # fmt: skip
    hand2 = await start_hand(db, table, s1)
    s2 = {5: 60, 6: 170, 7: 70}
    await finish(
        db,
        table,
        hand2.hand_id,
        results((5, -60, False, 0, 500, "Pair"), (6, 80, True, 100, 900, "Flush"),
                (7, -20, False, 0, 100, "High card")),
        s2,
        pot=100,
    )  # fmt: skip
    hand3 = await start_hand(db, table, s2)
    await finish(  # a split pot between 5 and 7, 6 folded
        db,
        table,
        hand3.hand_id,
        results((5, 5, True, 15, 650, "Two pair"), (6, -10, False, 0, None, None),
                (7, 5, True, 15, 650, "Two pair")),
        {5: 65, 6: 160, 7: 75},
    )  # fmt: skip

    five = await db.stats(GUILD, 5)
    assert (five.hands_played, five.hands_won, five.net_chips, five.biggest_pot) == (3, 2, -35, 30)
    assert (five.best_hand_score, five.best_hand_name, five.best_hand_id) == (
        700,
        "Two pair",
        hand.hand_id,
    )
    six = await db.stats(GUILD, 6)
    assert (six.hands_played, six.hands_won, six.net_chips, six.biggest_pot) == (3, 1, 60, 100)
    assert (six.best_hand_score, six.best_hand_name, six.best_hand_id) == (
        900,
        "Flush",
        hand2.hand_id,
    )
    seven = await db.stats(GUILD, 7)
    assert (seven.best_hand_score, seven.best_hand_name, seven.best_hand_id) == (
        650,
        "Two pair",
        hand3.hand_id,
    )
    assert (await db.stats(OTHER_GUILD, 5)).hands_played == 0


async def test_record_hand_result_checks_change_nothing(db: Database) -> None:
    table, stacks = await table_with_players(db)
    hand = await start_hand(db, table, stacks)
    ok = results((5, 20, True, 30, 1, "x"), (6, -10, False, 0, None, None),
                 (7, -10, False, 0, None, None))  # fmt: skip
    tid, hid = table.table_id, hand.hand_id

    async def attempt(**overrides: object) -> None:
        args: dict[str, object] = dict(
            guild_id=GUILD,
            table_id=tid,
            hand_id=hid,
            per_player=ok,
            result_json="{}",
            pot=30,
            save=TableSave(state(), 300, stacks),
        )
        args.update(overrides)
        await db.record_hand_result(**args)  # type: ignore[arg-type]

    with pytest.raises(InvalidArgument, match="add up"):
        await attempt(per_player=results((5, 20, True, 30, 1, "x"), (6, -10, False, 0, 1, "y")))
    with pytest.raises(InvalidArgument, match="twice"):
        await attempt(per_player=results((5, 0, True, 0, 1, "x"), (5, 0, True, 0, 1, "x")))
    with pytest.raises(InvalidArgument, match="account"):
        await attempt(per_player=results((5, 10, True, 10, 1, "x"), (99, -10, False, 0, 1, "y")))
    with pytest.raises(NoHandInProgress):
        await attempt(hand_id=hid + 1)
    with pytest.raises(WrongGuild):
        await attempt(guild_id=OTHER_GUILD)
    with pytest.raises(ChipsMismatch):
        await attempt(save=TableSave(state(), 301, stacks))
    with pytest.raises(InvalidArgument, match="JSON"):
        await attempt(result_json="{")
    assert (await db.get_hand(hid)).in_progress
    assert (await db.stats(GUILD, 5)).hands_played == 0
    assert (await db.stats(GUILD, 99)).hands_played == 0
    await attempt()
    assert (await db.stats(GUILD, 5)).hands_played == 1
    with pytest.raises(NoHandInProgress):  # only once
        await attempt()


async def test_start_hand_checks(db: Database) -> None:
    table, stacks = await table_with_players(db)
    base: dict[str, object] = dict(
        variant="five_card_draw",
        variant_name="Five-card draw",
        commitment=commitment("a", "b"),
        salt="a",
        deck="b",
        save=TableSave(state(), 300, stacks),
    )
    for bad in (
        {"commitment": "ABC"},
        {"commitment": commitment("a", "b").upper()},
        {"salt": ""},
        {"variant": ""},
        {"save": TableSave(state(), 300, stacks, [(0, 1)])},  # type: ignore[list-item]
    ):
        with pytest.raises(InvalidArgument):
            await db.start_hand(table.table_id, **{**base, **bad})  # type: ignore[arg-type]
    with pytest.raises(ChipsMismatch):
        await db.start_hand(table.table_id, **{**base, "save": TableSave(state(), 301, stacks)})  # type: ignore[arg-type]
    assert (await db.list_hands(table.table_id)).total == 0
    assert (await db.get_table(table.table_id)).current_hand_id is None


async def test_list_hands_newest_first(db: Database) -> None:
    table, stacks = await table_with_players(db)
    for n in range(5):
        hand = await start_hand(db, table, stacks, now=100 + n)
        await finish(db, table, hand.hand_id, results((5, 0, True, 0, None, None)), stacks)
    page = await db.list_hands(table.table_id, limit=2)
    assert [h.number for h in page.items] == [5, 4]
    assert (page.total, page.has_next) == (5, True)
    last = await db.list_hands(table.table_id, offset=4, limit=2)
    assert [h.number for h in last.items] == [1]
    assert not last.has_next
    assert (await db.list_hands(999)).total == 0


async def test_history_is_tamper_proof_in_sqlite(file_db: Database) -> None:
    """Triggers keep the ledger, hand events and a hand's secrets append-only/frozen."""
    table, stacks = await table_with_players(file_db)
    hand = await start_hand(file_db, table, stacks)
    raw = sqlite3.connect(file_db.path)
    try:
        for sql in (
            "UPDATE ledger SET delta = delta + 1",
            "DELETE FROM ledger",
            "UPDATE hand_events SET event = '{}'",
            "DELETE FROM hand_events",
            f"UPDATE hands SET deck = 'Ah Ah Ah' WHERE hand_id = {hand.hand_id}",
            f"UPDATE hands SET salt = 'x' WHERE hand_id = {hand.hand_id}",
        ):
            with pytest.raises(sqlite3.IntegrityError):
                raw.execute(sql)
        raw.execute("UPDATE hands SET ended_at = 1, result = '{}'")
        with pytest.raises(sqlite3.IntegrityError, match="finished"):
            raw.execute("UPDATE hands SET pot = 5")
        raw.rollback()
    finally:
        raw.close()
    assert await file_db.check_integrity() == []


async def test_carried_pot_between_deals(db: Database) -> None:
    """A passed-out deal leaves the antes in the middle; the next hand pays them out."""
    table, stacks = await table_with_players(db)
    hand = await start_hand(db, table, stacks)
    antes = {5: 95, 6: 95, 7: 95}  # 15 chips stay in the middle
    passed = results((5, -5, False, 0, None, None), (6, -5, False, 0, None, None),
                     (7, -5, False, 0, None, None))  # fmt: skip
    args: dict[str, object] = dict(result_json="{}", pot=0, save=TableSave(state(), 300, antes))
    with pytest.raises(InvalidArgument, match="add up to -15, not 0"):
        await db.record_hand_result(GUILD, table.table_id, hand.hand_id, passed, **args)  # type: ignore[arg-type]
    await db.record_hand_result(
        GUILD,
        table.table_id,
        hand.hand_id,
        passed,
        carried=15,
        **args,  # type: ignore[arg-type]
    )
    hand2 = await start_hand(db, table, antes)
    won = results((5, 25, True, 35, 10, "Pair"), (6, -5, False, 0, None, None),
                  (7, -5, False, 0, None, None))  # fmt: skip
    await db.record_hand_result(
        GUILD,
        table.table_id,
        hand2.hand_id,
        won,
        result_json="{}",
        pot=35,
        save=TableSave(state(), 300, {5: 125, 6: 90, 7: 85}),
        carried=-15,
    )
    assert (await db.stats(GUILD, 5)).net_chips == 20
    assert (await db.chip_audit()).ok


async def test_void_hand_ends_it_without_a_result_and_stores_no_events(db: Database) -> None:
    """The safety valve: the hand ends, its stacks are back as dealt, and no stats count it."""
    table, stacks = await table_with_players(db)
    hand = await start_hand(db, table, stacks)
    await db.save_table_state(table.table_id, TableSave(state(), 300, {5: 90, 6: 100, 7: 100}))
    reason = json.dumps({"voided": True})
    with pytest.raises(InvalidArgument, match="no hand events"):
        await db.void_hand(
            GUILD,
            table.table_id,
            hand.hand_id,
            reason_json=reason,
            save=TableSave(state(), 300, stacks, [(1, "{}")]),
        )
    with pytest.raises(ChipsMismatch):
        await db.void_hand(
            GUILD,
            table.table_id,
            hand.hand_id,
            reason_json=reason,
            save=TableSave(state(), 299, {5: 99, 6: 100, 7: 100}),
        )
    assert (await db.get_hand(hand.hand_id)).in_progress
    voided = await db.void_hand(
        GUILD,
        table.table_id,
        hand.hand_id,
        reason_json=reason,
        save=TableSave(state(voided=1), 300, stacks),
        now=40,
    )
    assert (voided.ended_at, voided.result_json, voided.pot) == (40.0, reason, 0)
    current = await db.get_table(table.table_id)
    assert (current.current_hand_id, current.state_json) == (None, state(voided=1))
    assert {p.user_id: p.stack for p in await db.table_players(table.table_id)} == stacks
    assert (await db.stats(GUILD, 5)).hands_played == 0
    assert [e.seq for e in await db.hand_events(hand.hand_id)] == [0]
    assert (await db.chip_audit()).ok


async def test_games_chosen_reads_each_hands_dealers_choice(db: Database) -> None:
    """The first events of the hands asked for that name a game chosen, and no other."""
    table, stacks = await table_with_players(db)
    plain = await start_hand(db, table, stacks)
    await finish(db, table, plain.hand_id, results((5, 0, True, 0, None, None)), stacks)
    chosen = await start_hand(db, table, stacks, now=50)
    event = json.dumps({"type": "game-chosen", "slug": "deuces-wild", "modifiers": []})
    await db.save_table_state(
        table.table_id, TableSave(state(stacks=stacks, hand=True), 300, stacks, [(1, event)])
    )
    found = await db.games_chosen([plain.hand_id, chosen.hand_id])
    assert [(e.hand_id, e.seq, e.event_json) for e in found] == [(chosen.hand_id, 1, event)]
    assert await db.games_chosen([plain.hand_id]) == []
    assert await db.games_chosen([]) == []
    with pytest.raises(InvalidArgument):
        await db.games_chosen(["1"])  # type: ignore[list-item]
