"""The safety valve: a hand whose end the database refuses is voided, and the table goes on.

The failure is injected for real, two ways: the nets handed to the data layer are made not to
add up, which its own checks refuse; and the database itself is given a constraint that the
hand's end breaks, on SQLite and on PostgreSQL (each backend reports that as the data layer's
``ConstraintViolation``, which the valve once missed). Before this valve, the table reloaded
the last snapshot and the same last action was refused forever. The voided hand gives every
chip back to where it was at the deal, the table message says so, the incident is logged with
the hand id, the chip audit stays clean and the next hand is dealt and recorded as usual.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from data import DataError
from tests.bot.driver import Policy, act_once, create_table, deal, live_table, opener, passive
from tests.emulator import Emulator, World
from tests.pg import PgServer, pg_server

__all__ = ["pg_server"]  # a fixture


def _corrupt_results(bot: Any) -> list[int]:
    """Make the bot hand the database nets that do not add up; returns the refused hand ids."""
    real = bot.db.record_hand_result
    refused: list[int] = []

    async def skewed(guild_id: int, table_id: int, hand_id: int, per_player: Any, **kw: Any):
        per_player = [per_player[0]._replace(net=per_player[0].net + 1), *per_player[1:]]
        try:
            return await real(guild_id, table_id, hand_id, per_player, **kw)
        except DataError:
            refused.append(hand_id)
            raise

    bot.db.record_hand_result = skewed
    return refused


async def _play_out(
    emu: Emulator, world: World, bot: Any, limit: int = 60, policy: Policy = passive
) -> None:
    live = live_table(bot, world)
    for _ in range(limit):
        await emu.idle()
        if not live.engine.in_hand:
            return
        await act_once(emu, world, bot, live.engine.pending[0], policy=policy)
        live = live_table(bot, world)
    raise AssertionError("the hand did not finish")


async def _bankrolls(bot: Any, world: World, users: list[Any]) -> dict[int, int]:
    return {u.id: await bot.db.balance(world.guild.id, u.id) for u in users}


async def test_a_refused_hand_end_voids_the_hand_and_the_table_goes_on(
    poker_bot, emu: Emulator, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    stacks_before = live.seat_stacks()
    bankrolls_before = await _bankrolls(bot, world, [alice, bob, carol])
    refused = _corrupt_results(bot)
    await deal(emu, world, alice)
    live = live_table(bot, world)
    number = live.engine.hand_number
    hand_id = live.meta.hand.hand_id
    # Carol stands up during the hand: her leave waits for the hand's end, then the void.
    r = await emu.run_command(carol, world.channel, "poker leave", {})
    assert r.ephemeral, r.content
    with caplog.at_level(logging.ERROR, logger="poker.tables"):
        await _play_out(emu, world, bot)
    assert refused == [hand_id], "the injected failure was hit exactly once"
    live = live_table(bot, world)
    assert not live.engine.in_hand and live.meta.hand is None

    # Every chip is back where it was at the deal; Carol's went back to her bankroll.
    assert live.seat_stacks() == {k: v for k, v in stacks_before.items() if k != carol.id}
    after = await _bankrolls(bot, world, [alice, bob, carol])
    assert after[alice.id] == bankrolls_before[alice.id]
    assert after[carol.id] == bankrolls_before[carol.id] + stacks_before[carol.id]
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok, audit

    # The hand is closed as void in the history, with no stats; the incident is logged.
    hand = await bot.db.get_hand(hand_id)
    assert hand.ended_at is not None and hand.pot == 0
    assert json.loads(hand.result_json or "{}").get("voided") is True
    assert any(
        str(hand_id) in rec.getMessage() and "voided" in rec.getMessage() for rec in caplog.records
    )
    stats = await bot.db.stats(world.guild.id, alice.id)
    assert stats.hands_played == 0

    # The history lists it and shows it as void (it read as a hand nobody won).
    listed = await emu.run_command(alice, world.channel, "poker history", {})
    assert "*void: every chip went back*" in listed.embeds[0]["description"], listed.embeds
    replay = await emu.run_command(alice, world.channel, "poker hand", {"hand": hand_id})
    assert "**Void.**" in replay.embeds[0]["description"], replay.embeds[0]["description"]

    # The table says so.
    await emu.idle()
    shown = [m.text for m in emu.channel_messages(world.channel)]
    assert any(f"Hand\u00a0#{number}" in text and "void" in text for text in shown), shown[-3:]

    # The next hand is dealt with a new number and recorded normally.
    bot.db.record_hand_result = type(bot.db).record_hand_result.__get__(bot.db)
    await deal(emu, world, alice)
    live = live_table(bot, world)
    assert live.engine.hand_number == number + 1
    await _play_out(emu, world, bot)
    latest = await bot.db.list_hands(live.id, limit=1)
    assert latest.items[0].number == number + 1 and latest.items[0].result_json
    assert "voided" not in latest.items[0].result_json
    assert (await bot.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()


async def test_a_table_asked_to_end_closes_when_its_hand_is_voided(
    poker_bot, emu: Emulator, world: World
) -> None:
    """/poker end during a hand closes the table when the hand ends, voided or not (a voided
    hand left the request pending until the next hand ended)."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    stacks_before = live_table(bot, world).seat_stacks()
    bankrolls_before = await _bankrolls(bot, world, [alice, bob, carol])
    refused = _corrupt_results(bot)
    await deal(emu, world, alice)
    live = live_table(bot, world)
    number, hand_id = live.engine.hand_number, live.meta.hand.hand_id
    r = await emu.run_command(alice, world.channel, "poker end", {})
    assert not r.ephemeral and "close as soon as it is over" in r.content, r.content
    for _ in range(60):
        await emu.idle()
        if not live.engine.in_hand:
            break
        await act_once(emu, world, bot, live.engine.pending[0], policy=passive)
    assert refused == [hand_id]
    await emu.idle()
    assert live.closed and live_table(bot, world) is None
    # Every stack as it was at the deal, back in its bankroll.
    after = await _bankrolls(bot, world, [alice, bob, carol])
    assert after == {u: bankrolls_before[u] + stacks_before[u] for u in after}
    assert (await bot.db.chip_audit(world.guild.id)).ok
    # The channel reads the table's last word, with the void.
    shown = emu.channel_messages(world.channel)
    closing = next(m for m in shown if m.text.startswith("Table closed"))
    assert f"Hand\u00a0#{number}" in closing.text and "void" in closing.text, closing.text
    emu.assert_clean()


async def _refuse_the_end_of(database: str, hand_id: int) -> None:
    """Make the database itself refuse to close ``hand_id`` with chips in its pot (a real
    result always has some here; a voided hand's pot is 0, so the void still goes through)."""
    if database.startswith("postgresql://"):
        import asyncpg

        conn = await asyncpg.connect(database)
        try:
            # NOT VALID: the rows already there are not checked, every new or changed one is.
            await conn.execute(
                "ALTER TABLE hands ADD CONSTRAINT test_refused_end "
                f"CHECK (hand_id <> {int(hand_id)} OR ended_at IS NULL OR pot = 0) NOT VALID"
            )
        finally:
            await conn.close()
        return
    # SQLite cannot add a CHECK to an existing table; a trigger's RAISE(ABORT) is its
    # constraint failure all the same (SQLITE_CONSTRAINT_TRIGGER).
    conn = sqlite3.connect(database, timeout=10)
    try:
        conn.execute(
            "CREATE TRIGGER test_refused_end BEFORE UPDATE OF ended_at ON hands "
            f"WHEN NEW.hand_id = {int(hand_id)} AND NEW.ended_at IS NOT NULL AND NEW.pot > 0 "
            "BEGIN SELECT RAISE(ABORT, 'test: this hand may not end with a pot'); END"
        )
        conn.commit()
    finally:
        conn.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, db_path: Path) -> str:
    """Where the bot keeps its data: the SQLite file, or a fresh PostgreSQL database (left
    for the throwaway server to take away: the bot still holds it when this fixture ends)."""
    if request.param == "sqlite":
        return str(db_path)
    server: PgServer = request.getfixturevalue("pg_server")
    return await server.create_database()


async def test_a_hand_end_the_database_refuses_is_voided(
    poker_bot, emu: Emulator, world: World, database: str, caplog: pytest.LogCaptureFixture
) -> None:
    on_server = database.startswith("postgresql://")
    bot = await poker_bot(database_url=database) if on_server else await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    stacks_before = live.seat_stacks()
    await deal(emu, world, alice)
    live = live_table(bot, world)
    number = live.engine.hand_number
    hand_id = live.meta.hand.hand_id
    await _refuse_the_end_of(database, hand_id)

    with caplog.at_level(logging.ERROR):
        # Someone opens, so the hand ends with chips in its pot (not passed out).
        await _play_out(emu, world, bot, policy=opener)  # act_once checks every answer
    live = live_table(bot, world)
    assert not live.engine.in_hand and live.meta.hand is None
    assert live.seat_stacks() == stacks_before
    assert (await bot.db.chip_audit(world.guild.id)).ok
    hand = await bot.db.get_hand(hand_id)
    assert hand.ended_at is not None and hand.pot == 0
    voided = json.loads(hand.result_json or "{}")
    assert voided.get("voided") is True and "ConstraintViolation" in voided["reason"], voided

    # Logged once, as the valve's incident; nothing else went wrong.
    errors = [rec.getMessage() for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert len(errors) == 1, errors
    assert str(hand_id) in errors[0] and "voided" in errors[0], errors

    await emu.idle()
    shown = [m.text for m in emu.channel_messages(world.channel)]
    assert any(f"Hand\u00a0#{number}" in text and "void" in text for text in shown), shown[-3:]

    # The constraint names that hand only: the next one is played and recorded as usual.
    await deal(emu, world, alice)
    live = live_table(bot, world)
    assert live.engine.hand_number == number + 1
    await _play_out(emu, world, bot, policy=opener)
    latest = await bot.db.list_hands(live.id, limit=1)
    assert latest.items[0].number == number + 1 and latest.items[0].pot > 0
    assert "voided" not in (latest.items[0].result_json or "")
    assert (await bot.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()
