"""A table restored by a newer version whose rules end, on replay, the hand its snapshot
saved in progress: the hand's end is recorded at the restore, as if it had just happened."""

from __future__ import annotations

import json

import pytest

import engine
from data import Database
from tables.live import TableSettings
from tables.service import TableService
from tests.saved import act_refused, game_retired, house_rule_retired, rewrite_table


class _Quiet:
    """A presenter that shows nothing (the table service alone, as after a restart)."""

    async def present(self, live: object, outcome: object) -> None:
        return None


async def test_a_hand_the_new_rules_end_on_replay_is_recorded_at_the_restore(tmp_path) -> None:
    """The version before let the last player left in a draw draw alone; this one ends the
    hand there. A table that version saved with two players just stood up during the draw
    replays here as a hand over: its end is recorded at the restore (the history, the pot to
    the one left, the leavers paid), and the next hand deals."""
    path = tmp_path / "poker.db"
    db = await Database.open(path)
    service = TableService(db, _Quiet())  # type: ignore[arg-type]
    live = await service.create(
        1, 2, 3, engine.TableConfig("ace-to-six-lowball"), TableSettings(40, 400)
    )
    for user_id in (3, 4, 5):
        await service.join(live, user_id, f"p{user_id}", 40)
    await service.start_hand(live)
    while live.engine.pending[0].kind is not engine.DecisionKind.DRAW:
        decision = live.engine.pending[0]
        legal = decision.legal
        assert isinstance(legal, engine.BetOptions)
        move = engine.Check() if legal.can_check else engine.Call()
        await service.act(live, int(decision.player_id), move)
    drawer = live.engine.pending[0].player_id
    (stays, *_) = [pid for pid in ("3", "4", "5") if pid != drawer]
    leavers = [pid for pid in ("3", "4", "5") if pid != stays]
    table_id, hand_number = live.id, live.engine.hand_number
    await service.shutdown()
    await db.close()

    # What the version before saved once two players stood up: the same snapshot, with
    # their leaving at the end of its journal.
    def stand_up(state: dict) -> None:
        state["engine"]["journal"] += [{"op": "leave", "player_id": pid} for pid in leavers]

    rewrite_table(path, stand_up, f"table_id = {table_id}")

    db = await Database.open(path)
    again = TableService(db, _Quiet())  # type: ignore[arg-type]
    [table] = await again.restore()
    assert not table.engine.in_hand and table.meta.hand is None
    result = table.engine.result
    assert result is not None and result.uncontested == table.engine.seat_of(stays)
    (hand,) = (await db.list_hands(table_id)).items
    assert hand.number == hand_number and hand.ended_at is not None and hand.result_json
    assert {s.player_id for s in table.engine.seats if s is not None} == {stays}
    for pid in leavers:
        ledger = await db.ledger(1, int(pid), limit=10)
        assert any(e.kind == "cash_out" for e in ledger.items), ledger.items
    assert (await db.chip_audit(1)).ok
    await again.join(table, 6, "p6", 40)
    await again.start_hand(table)
    assert table.engine.in_hand and table.meta.hand is not None and table.meta.hand.hand_id
    await again.shutdown()
    await db.close()


async def test_a_hand_the_new_rules_refuse_to_replay_is_voided_at_the_restore(tmp_path) -> None:
    """A saved hand whose journal holds an action this version refuses (a rule tightened
    since) cannot be rebuilt. The table comes back rather than staying dark with its chips:
    the hand is void, every stack is back to the deal, a player who stood up during it is
    paid, the table says why in its language, and the next hand deals."""
    path = tmp_path / "poker.db"
    db = await Database.open(path)
    service = TableService(db, _Quiet())  # type: ignore[arg-type]
    live = await service.create(
        1, 2, 3, engine.TableConfig("five-card-draw"), TableSettings(40, 400)
    )
    live.meta.language = "de"
    for user_id in (3, 4, 5):
        await service.join(live, user_id, f"p{user_id}", 40)
    await service.start_hand(live)
    dealt = dict(live.meta.hand.start_stacks) if live.meta.hand else {}
    decision = live.engine.pending[0]
    await service.act(live, int(decision.player_id), engine.Call())
    waiting = live.engine.pending[0].player_id
    leaver = next(pid for pid in ("3", "4", "5") if pid not in (waiting, decision.player_id))
    await service.leave(live, int(leaver))
    assert live.engine.in_hand
    table_id, hand_number, hand_id = live.id, live.engine.hand_number, live.meta.hand.hand_id
    await service.shutdown()
    await db.close()

    # The version before took one more action that this one refuses: a raise to 3 chips, where
    # the fixed limit allows only 2.
    rewrite_table(path, act_refused(live.engine.seat_of(waiting)), f"table_id = {table_id}")

    db = await Database.open(path)
    again = TableService(db, _Quiet())  # type: ignore[arg-type]
    [table] = await again.restore()
    assert table.id == table_id and not table.engine.in_hand and table.meta.hand is None
    stays = {pid: stack for pid, stack in dealt.items() if pid != leaver}
    assert {s.player_id: s.stack for s in table.engine.seats if s is not None} == stays
    assert table.engine.hand_number == hand_number  # the voided hand's number stays used
    (note,) = table.meta.notes
    assert f"#{hand_number}" in note and "Update" in note, note  # in the table's German
    (hand,) = (await db.list_hands(table_id)).items
    assert hand.hand_id == hand_id and hand.ended_at is not None
    assert json.loads(hand.result_json or "{}")["voided"] is True
    ledger = await db.ledger(1, int(leaver), limit=10)
    cash_out = [e for e in ledger.items if e.kind == "cash_out"]
    assert [e.delta for e in cash_out] == [dealt[leaver]], ledger.items
    assert (await db.chip_audit(1)).ok
    await again.start_hand(table)
    assert table.engine.in_hand and table.meta.hand is not None
    assert table.engine.hand_number == hand_number + 1
    await again.shutdown()
    await db.close()


@pytest.mark.parametrize("retire", [game_retired, house_rule_retired])
async def test_a_table_this_version_cannot_rebuild_is_closed_and_paid_at_the_restore(
    tmp_path, retire
) -> None:
    """A saved table whose game (or a house rule) this version no longer has cannot be
    rebuilt at all. Its chips are not left on it, nor its channel taken: the restore closes
    it, its hand void, every player paid what they had before the deal (one who stood up
    during it too)."""
    path = tmp_path / "poker.db"
    db = await Database.open(path)
    service = TableService(db, _Quiet())  # type: ignore[arg-type]
    live = await service.create(
        1, 2, 3, engine.TableConfig("five-card-draw"), TableSettings(40, 400)
    )
    bankrolls = {user_id: await db.balance(1, user_id) for user_id in (3, 4, 5)}
    for user_id in (3, 4, 5):
        await service.join(live, user_id, f"p{user_id}", 40)
    await service.start_hand(live)
    decision = live.engine.pending[0]
    await service.act(live, int(decision.player_id), engine.Call())
    leaver = next(pid for pid in ("3", "4", "5") if pid != live.engine.pending[0].player_id)
    await service.leave(live, int(leaver))
    table_id = live.id
    await service.shutdown()
    await db.close()

    rewrite_table(path, retire, f"table_id = {table_id}")

    db = await Database.open(path)
    again = TableService(db, _Quiet())  # type: ignore[arg-type]
    assert await again.restore() == []
    assert await db.open_tables() == []
    assert (await db.get_table(table_id)).status == "closed"
    for user_id, bankroll in bankrolls.items():
        assert await db.balance(1, user_id) == bankroll, user_id
    assert (await db.chip_audit(1)).ok
    # The channel is free for a new table.
    await again.create(1, 2, 3, engine.TableConfig("five-card-draw"), TableSettings(40, 400))
    await again.shutdown()
    await db.close()
