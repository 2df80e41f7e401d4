"""House players at a table through the emulator: /poker addbot and /poker removebot, a hand
of a person against two house players, chips in the ledger, no table of house players alone."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import engine
from data.accounts import HOUSE_ACCOUNT
from engine.habits import Habits
from tables import worker
from tables.errors import TableProblem
from tables.worker import in_worker
from tests.bot.driver import (
    act_once,
    create_table,
    custom_ids,
    deal,
    live_table,
    passive,
    table_message,
)
from tests.emulator import Emulator, World


async def test_a_person_plays_a_hand_against_two_house_players(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    bot.tables.clock.house_pause = 0.05
    alice = world.players[0]
    lobby = await create_table(emu, world, [alice])
    live = live_table(bot, world)
    r = await emu.run_command(alice, world.channel, "poker addbot", {"level": "hard"})
    assert r.type == 4 and "House hard 1" in r.content and "seat 2" in r.content, r.content
    r = await emu.run_command(alice, world.channel, "poker addbot", {"level": "easy"})
    assert "House easy 1" in r.content, r.content
    r = await emu.run_forged_command(alice, world.channel, "poker addbot", {"level": "expert"})
    assert r.ephemeral and "level" in r.content, r.content
    seats = live.engine.public_view().seats
    assert [s.player_id for s in seats] == [str(alice.id), "-301", "-101"]
    await emu.idle()
    # the table shows it as a bot
    assert "🤖 House hard 1" in emu.messages[lobby.id].text
    before = await bot.db.chip_audit()
    assert before.ok, before
    await deal(emu, world, alice)
    dms_before = len(emu.dms(alice))
    for _ in range(200):
        await emu.idle()
        if not live.engine.in_hand:
            break
        pending = live.engine.pending
        mine = [d for d in pending if d.player_id == str(alice.id)]
        if mine:
            # the house player may have just acted: wait for the table message of this moment
            version = f":{live.version()}:"
            await emu.wait_for(
                lambda v=version: any(v in cid for cid in custom_ids(table_message(emu, world))),
                timeout=10,
            )
            await act_once(emu, world, bot, mine[0], policy=passive)
        else:
            # a house player's turn: it acts by itself after its pause
            await emu.wait_for(
                lambda before=pending: live.engine.pending != before or not live.engine.in_hand,
                timeout=5,
            )
    assert not live.engine.in_hand
    result = live.engine.result
    assert result is not None
    # the house players remember how everyone bet before the draw
    assert live.habits.before and live.habits == Habits().after_hand(live.engine.events)
    assert len(emu.dms(alice)) >= dms_before
    audit = await bot.db.chip_audit()
    assert audit.ok, audit
    # the leaderboard is for members: house bankrolls stay out of it
    board = await bot.db.leaderboard(world.guild.id)
    assert all(entry.user_id >= 0 for entry in board.items)
    r = await emu.run_command(alice, world.channel, "poker removebot", {})
    assert "House easy 1 stands up with" in r.content, r.content
    assert "-101" not in {s.player_id for s in live.engine.public_view().seats}
    # its chips came from and went back to the server's house account, each row naming the seat
    ledger = await bot.db.ledger(world.guild.id, HOUSE_ACCOUNT, limit=100)
    kinds = [entry.kind for entry in ledger.items if entry.actor_id == -101]
    assert "house_fund" in kinds and "buy_in" in kinds and "cash_out" in kinds
    assert (await bot.db.ledger(world.guild.id, -101)).total == 0
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok and audit.house == await bot.db.house_balance(world.guild.id), audit


async def test_house_players_do_not_play_alone(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    alice = world.players[0]
    await create_table(emu, world, [alice])
    live = live_table(bot, world)
    await emu.run_command(alice, world.channel, "poker addbot", {})
    await emu.run_command(alice, world.channel, "poker addbot", {})
    r = await emu.run_command(alice, world.channel, "poker sitout", {})
    assert r.ephemeral
    with pytest.raises(TableProblem, match="among themselves"):
        await bot.tables.start_hand(live)
    assert not live.engine.in_hand and live.engine.hand_number == 0
    r = await emu.run_command(world.players[1], world.channel, "poker removebot", {})
    assert r.ephemeral and "seated" in r.content


async def test_closing_the_table_pays_house_seats_to_the_house_account(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice = world.players[0]
    guild = world.guild.id
    await create_table(emu, world, [alice])
    live = live_table(bot, world)
    buy_in = live.settings.min_buy_in
    for level in ("easy", "hard"):
        r = await emu.run_command(alice, world.channel, "poker addbot", {"level": level})
        assert not r.ephemeral, r.content
    # one account paid both seats: issued one buy-in at a time, only what it lacked
    assert await bot.db.house_balance(guild) == 0
    issued = await bot.db.ledger(guild, HOUSE_ACCOUNT, limit=100)
    funds = sorted((e.actor_id, e.delta) for e in issued.items if e.kind == "house_fund")
    assert funds == [(-301, buy_in), (-101, buy_in)], funds
    r = await emu.run_command(alice, world.channel, "poker end", {})
    assert not r.ephemeral, r.content
    assert await bot.db.house_balance(guild) == 2 * buy_in
    paid = await bot.db.ledger(guild, HOUSE_ACCOUNT, limit=100)
    assert sorted(e.actor_id for e in paid.items if e.kind == "cash_out") == [-301, -101]
    audit = await bot.db.chip_audit(guild)
    assert audit.ok and audit.house == 2 * buy_in, audit
    board = await bot.db.leaderboard(guild)
    assert [e.user_id for e in board.items] == [alice.id]
    r = await emu.run_command(world.host, world.channel, "server audit")
    message = await emu.wait_for(lambda: r.message if r.message.embeds else None)
    fields = {f["name"]: f["value"] for f in message.embeds[0]["fields"]}
    assert fields["Of which the house account"] == f"{2 * buy_in:,}", fields


def test_house_ids_name_their_level() -> None:
    from engine.seating import house_level

    assert house_level("-301") is engine.house.Level.HARD
    assert house_level("-102") is engine.house.Level.EASY
    assert house_level("1234") is None and house_level("-x") is None


class _Quiet:
    """A presenter that shows nothing (the table service alone, as after a restart)."""

    async def present(self, live: object, outcome: object) -> None:
        return None


async def test_a_house_turn_is_taken_again_after_a_restart(tmp_path) -> None:
    """The process stops while a house player is to act: the restored table schedules its
    turn again, and it acts."""
    import asyncio

    from data import Database
    from tables.live import TableSettings
    from tables.service import TableService

    path = tmp_path / "house.db"
    db = await Database.open(path)
    service = TableService(db, _Quiet())  # type: ignore[arg-type]
    service.clock.house_pause = 3600  # it will not act before the "crash"
    live = await service.create(
        1, 2, 3, engine.TableConfig("kansas-city-lowball"), TableSettings(40, 400)
    )
    await service.join(live, 3, "alice", 40)
    await service.add_house(live, engine.house.Level.NORMAL)
    await service.start_hand(live)
    # with blinds heads-up, play until the house player is the one to act
    for _ in range(10):
        decision = live.engine.pending[0]
        if decision.player_id.startswith("-"):
            break
        legal = decision.legal
        action = engine.Check() if getattr(legal, "can_check", False) else engine.Call()
        if decision.kind is not engine.DecisionKind.BET:
            action = engine.Discard(())
        await service.act(live, 3, action)
    waiting = live.engine.pending[0]
    assert waiting.player_id.startswith("-")
    events = len(live.engine.events)
    await service.shutdown()
    await db.close()

    db = await Database.open(path)
    again = TableService(db, _Quiet())  # type: ignore[arg-type]
    again.clock.house_pause = 0.01
    restored = await again.restore()
    assert len(restored) == 1
    table = restored[0]
    for _ in range(200):
        await asyncio.sleep(0.02)
        if len(table.engine.events) > events:
            break
    assert len(table.engine.events) > events, "the house player did not act after the restart"
    await again.shutdown()
    await db.close()


async def test_a_house_seat_that_left_mid_hand_is_paid_to_the_house_after_a_restart(
    tmp_path,
) -> None:
    """A house player stands up during a hand (its stack is owed until the hand ends) and the
    process stops: after the restart the hand ends and the stack goes to the house account."""
    from data import Database
    from tables.live import TableSettings
    from tables.service import TableService

    path = tmp_path / "house.db"
    db = await Database.open(path)
    service = TableService(db, _Quiet())  # type: ignore[arg-type]
    service.clock.house_pause = 3600  # the house player never acts by itself here
    live = await service.create(
        1, 2, 3, engine.TableConfig("five-card-draw"), TableSettings(40, 400)
    )
    await service.join(live, 3, "alice", 40)
    await service.join(live, 4, "bob", 40)
    await service.add_house(live, engine.house.Level.NORMAL)
    await service.start_hand(live)
    name, (paid, _outcome) = await service.remove_house(live)
    assert "House normal 1" in name and paid is None  # owed until the hand ends
    assert live.engine.in_hand
    await service.shutdown()
    await db.close()

    db = await Database.open(path)
    again = TableService(db, _Quiet())  # type: ignore[arg-type]
    [table] = await again.restore()
    for _ in range(50):
        if not table.engine.in_hand:
            break
        decision = table.engine.pending[0]
        await again.act(table, int(decision.player_id), engine.Timeout())
    assert not table.engine.in_hand
    ledger = await db.ledger(1, HOUSE_ACCOUNT, limit=100)
    back = [e for e in ledger.items if e.kind == "cash_out" and e.actor_id == -201]
    assert len(back) == 1 and back[0].delta > 0, ledger.items
    audit = await db.chip_audit(1)
    assert audit.ok and audit.house == back[0].balance_after, audit
    assert "-201" not in {s.player_id for s in table.engine.public_view().seats}
    await again.shutdown()
    await db.close()


async def test_removebot_during_a_hand_stands_up_one_more_house_player_each_time(
    poker_bot, emu: Emulator, world: World
) -> None:
    """/poker removebot twice during a hand stands two house players up (not the same one
    twice, announced again to the channel); once every one of them is leaving, it says so."""
    bot = await poker_bot()
    bot.tables.clock.house_pause = 30  # the house players wait: the hand stays in progress
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], auto_deal=0)
    live = live_table(bot, world)
    for level in ("easy", "hard"):
        r = await emu.run_command(alice, world.channel, "poker addbot", {"level": level})
        assert not r.ephemeral, r.content
    await deal(emu, world, alice)
    assert live.engine.in_hand
    said = []
    for _ in range(2):
        r = await emu.run_command(alice, world.channel, "poker removebot", {})
        assert not r.ephemeral, r.content
        said.append(r.content)
    assert said == [
        "🤖 House hard 1 folds and stands up when this hand ends.",
        "🤖 House easy 1 folds and stands up when this hand ends.",
    ], said
    r = await emu.run_command(alice, world.channel, "poker removebot", {})
    assert r.ephemeral and "already" in r.content, r.content
    leaving = {s.player_id for s in live.engine.public_view().seats if s.leaving}
    assert leaving == {"-101", "-301"}, leaving


async def _house_player_to_act(bot: Any, emu: Emulator, world: World) -> Any:
    """A heads-up hand of the first player against an easy house player, the house player to
    act and its turn not scheduled: the test starts it (``clock.schedule``)."""
    clock = bot.tables.clock
    clock.house_pause = 60  # the house player waits until the test lets it think
    alice = world.players[0]
    await create_table(emu, world, [alice], auto_deal=0)
    live = live_table(bot, world)
    await emu.run_command(alice, world.channel, "poker addbot", {"level": "easy"})
    await deal(emu, world, alice)
    if live.engine.pending[0].player_id == str(alice.id):
        await act_once(emu, world, bot, live.engine.pending[0], policy=passive)
    assert live.engine.pending[0].player_id == "-101"
    clock._house_turns.pop(live.id).cancel()
    return live


async def test_a_house_turn_waiting_for_the_odds_thread_does_not_hold_up_the_table(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A house player thinks in the odds thread, which every table's house players and
    coaches share: while it waits there, the people at its table are still answered within
    Discord's three seconds (a press out of turn, /poker sitout), and it acts once the thread
    is free."""
    bot = await poker_bot()
    clock = bot.tables.clock
    alice = world.players[0]
    live = await _house_player_to_act(bot, emu, world)
    before = live.version()
    release = threading.Event()
    busy = asyncio.ensure_future(in_worker(release.wait, 10))  # other tables' house players
    try:
        clock.house_pause = 0
        clock.schedule(live)  # its turn now: it asks the busy thread
        # it has asked: its question waits in the thread's queue behind the busy work
        await emu.wait_for(lambda: worker._WORKER._work_queue.qsize() or None, timeout=2)
        message = table_message(emu, world)
        fold = next(b for b in custom_ids(message) if b.endswith(":fold"))
        r = await emu.click(alice, message, custom_id=fold)
        assert r.ephemeral and "not your turn" in r.content, r.content
        r = await emu.run_command(alice, world.channel, "poker sitout", {})
        assert r.ephemeral, r.content
        assert live.version() == before  # the house player has not acted yet
    finally:
        release.set()
        await busy
    await emu.wait_for(lambda: live.version() != before or None, timeout=5)
    assert not live.engine.in_hand or live.engine.pending[0].player_id != "-101"


async def test_a_house_player_thinks_during_its_pause(
    poker_bot, emu: Emulator, world: World
) -> None:
    """How long a house player thinks (a hand's odds can take a while to count) must not show
    at the table: it asks the odds thread as its pause begins, and acts when the pause ends
    even when it was answered at once."""
    bot = await poker_bot()
    clock = bot.tables.clock
    live = await _house_player_to_act(bot, emu, world)
    before = live.version()
    loop = asyncio.get_running_loop()
    release = threading.Event()
    busy = asyncio.ensure_future(in_worker(release.wait, 10))
    try:
        clock.house_pause = 1.5
        started = loop.time()
        clock.schedule(live)
        await emu.wait_for(lambda: worker._WORKER._work_queue.qsize() or None, timeout=0.75)
    finally:
        release.set()
        await busy
    assert live.version() == before
    await emu.wait_for(lambda: live.version() != before or None, timeout=5)
    assert loop.time() - started >= 1.5


async def test_a_house_players_name_follows_the_tables_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A house player was named once, in the language of the table when it sat down: a table
    switched to German still showed "🤖 House hard 1". Its name is the table's words, in the
    table's language now; it stays the same player (its id, its ledger rows)."""
    bot = await poker_bot()
    alice = world.players[0]
    lobby = await create_table(emu, world, [alice], auto_deal=0)

    async def shown() -> str:
        await emu.idle()
        return str(emu.messages[lobby.id].text)

    live = live_table(bot, world)
    r = await emu.run_command(alice, world.channel, "poker addbot", {"level": "hard"})
    assert "🤖 House hard 1" in r.content, r.content
    assert "🤖 House hard 1" in await shown()
    # The server's language, followed by the table
    r = await emu.run_command(world.host, world.channel, "server settings", {"language": "pl"})
    r = await emu.run_command(alice, world.channel, "poker addbot", {"level": "easy"})
    assert "🤖 Bot łatwy 1" in r.content, r.content
    text = await shown()
    assert "🤖 Bot trudny 1" in text and "House" not in text, text
    # The table's own language
    r = await emu.run_command(alice, world.channel, "poker settings", {"language": "de"})
    assert r.ephemeral, r.content
    text = await shown()
    assert "🤖 Haus schwer 1" in text and "🤖 Haus leicht 1" in text, text
    r = await emu.run_command(alice, world.channel, "poker removebot", {})
    assert "🤖 Haus leicht 1" in r.content, r.content
    # The same players all along
    assert [s.player_id for s in live.engine.public_view().seats] == [str(alice.id), "-301"]
    assert (await bot.db.chip_audit()).ok
    emu.assert_clean()
