"""A tournament player left without chips while rebuys are open decides at the table: Rebuy
buys back in, No rebuy puts them out, and doing nothing puts them out once their time is up,
also across a restart. A heads-up table, which cannot deal while one of its two players has
no chips, no longer waits for the end of the rebuy period."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from tests.bot.driver import (
    act_at_a_table,
    current_table_message,
    custom_ids,
    delete_thread,
    live_table,
    opener,
    play_hand,
    two_table_tournament,
    until_someone_is_broke,
)
from tests.bot.look import Look
from tests.emulator import Emulator, World

TIMER = 30  # the tournament's action timer: under a minute, so the rebuy time is a minute


async def _heads_up_until_broke(
    emu: Emulator, world: World, bot: Any, at: float | None = None, **options: Any
) -> tuple[Any, Any, Any]:
    """A heads-up sit-and-go with one rebuy each (buy-in 10, 20 chips; ``options`` change
    it) played until one of the two has no chips, its clock stopped ``at`` seconds after the
    start if given: the tournament, the player without chips and the other."""
    alice, bob = world.players[:2]
    settings = {
        "buy_in": 10,
        "starting_stack": 20,
        "levels": 4,
        "level_minutes": 10.0,
        "seats": 2,
        "payouts": "winner",
        "rebuys": 1,
        "rebuy_levels": 2,
        "auto_deal": 0,
        "timer": TIMER,
    }
    created = await emu.run_command(
        world.host, world.channel, "poker tournament create", settings | options
    )
    assert created.type == 4, created.content
    for player in (alice, bob):
        assert (await emu.click(player, created.message, label="Register")).type == 7
    await emu.idle()
    cog = bot.get_cog("Tournaments")
    run = next(iter(cog.running.values()))
    if at is not None:
        cog.clock = functools.partial(float, run.started_at + at)
    loser = await until_someone_is_broke(emu, world, bot, [alice, bob])
    return run, loser, bob if loser is alice else alice


def _table_message_in(emu: Emulator, channel: Any) -> Any:
    """The newest message of ``channel`` with a tournament's Rebuy on it."""
    return next(
        m
        for m in reversed(emu.channel_messages(channel))
        if any(i.startswith("trn:rebuy:") for i in custom_ids(m))
    )


def _table_message(emu: Emulator, world: World, tid: int) -> Any:
    """The table message between hands: the one with the tournament's Rebuy on it."""
    return next(
        m
        for m in reversed(emu.channel_messages(world.channel))
        if f"trn:rebuy:{tid}" in custom_ids(m)
    )


async def test_a_player_without_chips_is_offered_a_rebuy_and_can_turn_it_down(
    poker_bot, emu: Emulator, world: World, tmp_path: Path
) -> None:
    bot = await poker_bot()
    cog = bot.get_cog("Tournaments")
    run, loser, winner = await _heads_up_until_broke(emu, world, bot)
    tid, pid = run.tournament_id, str(loser.id)
    # They are still in, for a minute: the table says what a rebuy costs and until when.
    assert not run.state.entry(pid).out
    assert 55 < run.rebuy_until[pid] - cog.clock() <= 60
    saved = await bot.db.get_tournament(tid)
    assert pid in saved.state_json and "rebuy_until" in saved.state_json
    table = _table_message(emu, world, tid)
    look = Look("a heads-up rebuy tournament: a player without chips decides")
    look.add("#poker", table)
    ids = custom_ids(table)
    assert f"trn:decline:{tid}" in ids
    # Nobody sits down or stands up at a tournament's table: those buttons are not offered.
    assert not any(i.endswith((":sit", ":stand")) for i in ids), ids
    embed = table.embeds[0]
    assert embed["description"] == "Between hands."
    note = "\n".join(f["value"] for f in embed["fields"] if f["name"] == "Note")
    assert "has no chips left" in note and "20 chips for the buy-in (10 chips)" in note, note
    assert f"<t:{int(run.rebuy_until[pid])}:R>" in note, note
    assert "Buy-in" not in embed["footer"]["text"]

    # The buttons are for the player without chips; the other is told what they are for
    # (and buys nothing by mistake).
    for label in ("No rebuy", "Rebuy"):
        r = await emu.click(winner, table, label=label)
        assert r.ephemeral and "for a player left without chips" in r.content, r.content
    assert run.state.status == "running"
    assert await bot.db.balance(world.guild.id, winner.id) == 990
    r = await emu.click(loser, table, label="No rebuy")
    assert not r.ephemeral and "does not rebuy" in r.content, r.content
    look.add("#poker", r.message)
    await emu.idle()
    # Heads-up, that is the end: the other player wins the pool at once.
    assert run.state.status == "finished"
    assert [(p.user_id, p.place, p.prize) for p in await bot.db.tournament_results(tid)] == [
        (winner.id, 1, 20),
        (loser.id, 2, 0),
    ]
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok and audit.in_tournaments == 0, str(audit)
    results = emu.channel_messages(world.channel)[-1]
    look.add("#poker", results)
    look.write(tmp_path, name="tournament-rebuy")


async def test_the_rebuy_button_buys_back_in_and_the_table_deals_again(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    run, loser, _winner = await _heads_up_until_broke(emu, world, bot)
    tid, pid = run.tournament_id, str(loser.id)
    r = await emu.click(loser, _table_message(emu, world, tid), label="Rebuy")
    assert not r.ephemeral and "buys a rebuy: 20 more chips" in r.content, r.content
    await emu.idle()
    live = live_table(bot, world)
    assert live.engine.stack(pid) == 20
    assert pid not in run.rebuy_until
    assert pid not in (await bot.db.get_tournament(tid)).state_json.split('"rebuy_until"')[1]
    assert await bot.db.balance(world.guild.id, loser.id) == 980
    # The table message lost its Rebuy and No rebuy: nobody is left without chips.
    await emu.idle()
    newest = next(
        m
        for m in reversed(emu.channel_messages(world.channel))
        if any(i.startswith(f"pk:l:{live.id}:") for i in custom_ids(m))
    )
    assert not any(i.startswith("trn:") for i in custom_ids(newest)), custom_ids(newest)


async def test_a_player_who_does_nothing_is_out_when_the_time_is_up_even_after_a_restart(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    run, loser, winner = await _heads_up_until_broke(emu, world, bot)
    tid, pid = run.tournament_id, str(loser.id)
    until = run.rebuy_until[pid]
    await bot.close()
    bot = await poker_bot()
    cog = bot.get_cog("Tournaments")
    run = cog.running[tid]
    assert run.rebuy_until == {pid: until} and not run.state.entry(pid).out
    # Within the time, settling (the poll's round) leaves them in...
    cog.clock = functools.partial(float, until - 1)
    await cog.settle(run)
    assert run.state.status == "running" and not run.state.entry(pid).out
    # ...and once it is over, they are out, and the tournament (heads-up) is won.
    cog.clock = functools.partial(float, until + 1)
    await cog.settle(run)
    await emu.idle()
    assert run.state.status == "finished"
    results = await bot.db.tournament_results(tid)
    assert [(p.user_id, p.prize) for p in results] == [(winner.id, 20), (loser.id, 0)]
    # The Rebuy of the old table message is refused with a reason, and changes nothing.
    r = await emu.click(loser, _table_message(emu, world, tid), label="Rebuy")
    assert r.ephemeral and "over" in r.content, r.content
    assert await bot.db.balance(world.guild.id, loser.id) == 990


async def test_the_others_play_on_while_a_player_decides_and_the_time_runs_out_in_a_hand(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Three at a table: one is left without chips; the two others are dealt the next hands
    (each says who is deciding), and a time that runs out during a hand puts its player out
    when that hand ends."""
    bot = await poker_bot()
    cog = bot.get_cog("Tournaments")
    players = world.players[:3]
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {
            "buy_in": 10,
            "starting_stack": 20,
            "levels": 4,
            "level_minutes": 10.0,
            "seats": 3,
            "payouts": "winner",
            "rebuys": 1,
            "rebuy_levels": 2,
            "auto_deal": 0,
            "timer": TIMER,
        },
    )
    for player in players:
        assert (await emu.click(player, created.message, label="Register")).type == 7
    await emu.idle()
    run = next(iter(cog.running.values()))
    for _ in range(120):
        live = live_table(bot, world)
        broke = [s.player_id for s in live.engine.seats if s is not None and s.stack == 0]
        if not live.engine.in_hand and broke:
            break
        if not live.engine.in_hand:
            dealer = next(p for p in players if live.seated(p.id))
            assert (await emu.run_command(dealer, world.channel, "poker start", {})).ephemeral
            await emu.idle()
        await play_hand(emu, world, bot, policy=opener)
    else:
        raise AssertionError("nobody went broke")
    if len(broke) == 2:  # both out in one hand: one of them buys back in
        buyer = next(p for p in players if str(p.id) == broke[0])
        r = await emu.click(buyer, _table_message(emu, world, run.tournament_id), label="Rebuy")
        assert "buys a rebuy" in r.content, r.content
        await emu.idle()
    (pid,) = [s.player_id for s in live.engine.seats if s is not None and s.stack == 0]
    until = run.rebuy_until[pid]
    dealer = next(p for p in players if str(p.id) != pid)
    assert (await emu.run_command(dealer, world.channel, "poker start", {})).ephemeral
    await emu.idle()
    # The two others play; the table says who decides, and until when.
    assert live.engine.in_hand and pid not in [d.player_id for d in live.engine.pending]
    notes = "\n".join(live.shown_notes(str))
    assert "has no chips left" in notes and f"<t:{int(until)}:R>" in notes, notes
    # Rebuy and No rebuy stay under the table while the others play.
    playing = await current_table_message(emu, world)
    assert f"trn:decline:{run.tournament_id}" in custom_ids(playing), custom_ids(playing)
    cog.clock = functools.partial(float, until + 1)
    await cog.settle(run)  # (its table is in a hand: nothing yet)
    assert not run.state.entry(pid).out
    await play_hand(emu, world, bot, policy=opener)
    await emu.idle()
    # Out, below the player the cards may also have put out in that hand (who began it
    # with chips), and standing up unless that ended the tournament.
    assert run.state.entry(pid).out and pid not in run.rebuy_until
    assert dict(run.state.places())[pid] == 3
    assert run.state.status == "finished" or not live.seated(int(pid))
    name = live.meta.names[pid]
    assert f"💀 {name} is out in 3rd place." in live.shown_notes(str)


class TwoTables:
    """Five players at two tables of four (a rebuy tournament, 40 chips), played until a
    player at the table of two is left without chips and decides on a rebuy."""

    def __init__(self, emu: Emulator, world: World, bot: Any) -> None:
        self.emu, self.world, self.bot = emu, world, bot
        self.cog = bot.get_cog("Tournaments")

    async def start(self) -> None:
        emu, world, cog = self.emu, self.world, self.cog
        _, self.run = await two_table_tournament(
            emu,
            world,
            self.bot,
            ("erin",),
            players=5,
            starting_stack=40,
            level_minutes=10.0,
            rebuys=2,
            rebuy_levels=4,
            auto_deal=0,
            timer=TIMER,
        )
        self.by_id = {str(p.id): p for p in world.players}
        self.threads = {t.id: t for t in emu.threads(world.channel)}
        await self.hands_over()  # the first deals, at both tables
        for live in cog.tables_of(self.run):
            for pid in self.broke_at(live):  # (with 40 chips, it happens) back in
                message = _table_message_in(emu, self.threads[live.channel_id])
                r = await emu.click(self.by_id[pid], message, label="Rebuy")
                assert "buys a rebuy" in r.content, r.content
        await emu.idle()
        # The seating alternates, so the table of two is the one listed last: of two
        # tables of two, the one balancing breaks up.
        self.big, self.small = cog.tables_of(self.run)
        assert (len(self.big.seat_stacks()), len(self.small.seat_stacks())) == (3, 2)
        self.deciding = await self.deal_until_broke(self.small)  # heads-up: one, surely
        assert self.deciding in self.run.rebuy_until

    async def hands_over(self) -> None:
        tables = self.cog.tables_of
        for _ in range(400):
            await self.emu.idle()
            if not any(t.engine.in_hand for t in tables(self.run)):
                return
            await act_at_a_table(
                self.emu, self.world, self.bot, tables(self.run), self.threads, self.world.players
            )
        raise AssertionError("a hand did not end")

    @staticmethod
    def broke_at(live: Any) -> list[str]:
        return [s.player_id for s in live.engine.seats if s is not None and s.stack == 0]

    async def deal_until_broke(self, live: Any) -> str:
        for _ in range(100):
            if self.broke_at(live):
                return self.broke_at(live)[0]
            dealer = next(p for p in self.world.players if live.seated(p.id))
            where = self.threads[live.channel_id]
            r = await self.emu.run_command(dealer, where, "poker start", {})
            assert r.ephemeral, r.content
            await self.hands_over()
        raise AssertionError("nobody went broke")


async def test_a_table_where_a_player_decides_is_not_broken_up_until_the_decision(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Five players at two tables of four: when the players left fit at one table, a table
    where someone decides on a rebuy keeps them (a player without chips cannot sit down
    elsewhere); once the decision is made, the tables merge."""
    bot = await poker_bot()
    two = TwoTables(emu, world, bot)
    await two.start()
    cog, run, big, small, deciding = two.cog, two.run, two.big, two.small, two.deciding
    threads, by_id = two.threads, two.by_id
    going = await two.deal_until_broke(big)
    r = await emu.click(
        by_id[going], _table_message_in(emu, threads[big.channel_id]), label="No rebuy"
    )
    assert "does not rebuy" in r.content, r.content
    await emu.idle()
    await cog.settle(run)
    await emu.idle()
    # Four players left, who would fit at one table: the one where a player decides stays.
    seated = {s.player_id: t.id for t in cog.tables_of(run) for s in t.engine.seats if s}
    assert seated[deciding] == small.id and not small.closed
    assert all(stack > 0 for _, stack in run.moving.values()), run.moving
    assert set(run.state.alive) <= set(seated) | set(run.moving)
    # Their time runs out: they are out, and the players left sit at one table.
    cog.clock = functools.partial(float, max(run.rebuy_until.values()) + 1)
    await cog.settle(run)
    await emu.idle()
    await cog.settle(run)
    await emu.idle()
    assert run.state.entry(deciding).out
    tables = cog.tables_of(run)
    assert len(tables) == 1 and not run.moving
    assert sorted(s.player_id for s in tables[0].engine.seats if s) == sorted(run.state.alive)
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok, str(audit)


async def test_the_time_to_decide_ends_with_the_rebuy_period(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Half a minute before the rebuy period ends, a player without chips has that half
    minute to decide, not a whole one: the table says so."""
    bot = await poker_bot()
    run, loser, _winner = await _heads_up_until_broke(
        emu, world, bot, at=30, level_minutes=1.0, rebuy_levels=1
    )
    until = run.rebuy_until[str(loser.id)]
    assert until == run.started_at + 60
    note = "\n".join(live_table(bot, world).shown_notes(str))
    assert f"<t:{int(until)}:R>" in note, note


async def test_a_player_deciding_at_a_table_whose_thread_is_deleted_is_out(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A moderator deletes the thread of a table where a player decides on a rebuy: that
    player has nothing to sit down elsewhere with, so they are out (placed where they went
    broke); the other player there moves with their chips, and the tournament plays on."""
    bot = await poker_bot()
    two = TwoTables(emu, world, bot)
    await two.start()
    run, small = two.run, two.small
    other = next(s.player_id for s in small.engine.seats if s and s.player_id != two.deciding)
    chips = small.engine.stack(other)
    delete_thread(emu, world, two.threads[small.channel_id])
    await emu.wait_for(lambda: small.closed, timeout=3)
    await emu.idle()
    assert run.state.entry(two.deciding).out and two.deciding not in run.rebuy_until
    assert dict(run.state.places())[two.deciding] == 5
    (table,) = two.cog.tables_of(run)
    assert table.engine.stack(other) == chips and not run.moving
    assert run.state.status == "running"
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok, str(audit)
