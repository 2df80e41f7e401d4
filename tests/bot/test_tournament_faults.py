"""A tournament under Discord's failures: a table's thread deleted by a moderator (its
players play on at another table, their chips with them), the bot killed at the moments a
tournament changes its seats, a long 429 on the answer that ends a hand."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from tests.bot.driver import (
    act_at_a_table,
    delete_thread,
    find_table_message,
    fold_press,
    table_message,
    two_table_tournament,
)
from tests.bot.look import Look
from tests.emulator import Emulator, World
from tests.emulator.models import MANAGE_THREADS

STACK = 100


def _seated(tables: list[Any]) -> dict[str, int]:
    return {s.player_id: s.stack for t in tables for s in t.engine.seats if s is not None}


async def _no_tournament_holds_chips(bot: Any, world: World) -> None:
    """Every chip accounted for, none left in a tournament, and no tournament open."""
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok and audit.in_tournaments == 0, str(audit)
    assert await bot.db.open_tournaments() == []


async def test_a_tournament_table_whose_thread_is_deleted_mid_hand_plays_on_elsewhere(
    poker_bot, emu: Emulator, world: World, tmp_path: Path
) -> None:
    """Nobody can play at a table in a deleted thread: its hand is void (every chip back
    where it was at the deal) and its players sit down at a new table of the tournament with
    their stacks, every tournament chip still in play, and the tournament goes on.

    Discord first refuses the new table's thread (twice): its players waited, unseated and
    untold, for the next check. The channel says once that they wait and why, and once they
    are seated, where they play on."""
    bot = await poker_bot()
    run, gone, dealt, refused = await _thread_deleted_and_refused(emu, world, bot, refusals=2)
    cog = bot.get_cog("Tournaments")
    thread_id = gone.channel_id
    assert len(refused.hits) == 1 and len(_seated(cog.tables_of(run))) == 4
    assert set(run.moving) == set(dealt)  # their stacks kept, saved with the tournament
    (notice,) = _waiting_notices(emu, world)
    assert all(f"<@{pid}>" in notice.text for pid in dealt), notice.text
    assert "20 seconds" in notice.text, notice.text
    await cog.settle(run)  # the next check (every 20 s): refused again, and unsaid
    assert len(refused.hits) == 2 and len(_waiting_notices(emu, world)) == 1
    await cog.settle(run)  # the one after: the thread opens
    await emu.wait_for(lambda: len(_seated(cog.tables_of(run))) == 8, timeout=7)
    await emu.idle()
    now = cog.tables_of(run)
    assert gone not in now and all(not t.closed for t in now)
    seated = _seated(now)
    # Each player of the deleted table has the stack he was dealt with (the hand is void).
    for pid, stack in dealt.items():
        assert seated[pid] == stack, (pid, seated[pid], stack)
    assert sum(t.engine.chips() for t in now) == 8 * STACK
    assert not run.moving and run.state.status == "running" and len(run.state.alive) == 8
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok, str(audit)
    rows = await bot.db.tournament_tables(run.tournament_id)
    assert sorted(r.table_id for r in rows) == sorted(t.id for t in now)
    # Their new table deals (auto-deal) and plays on.
    moved_to = next(t for t in now if set(dealt) & set(_seated([t])))
    assert moved_to.channel_id != thread_id
    await emu.wait_for(lambda: moved_to.engine.in_hand, timeout=7)
    # The lobby's channel says where they went (a link to their new table's thread).
    said = [m for m in emu.channel_messages(world.channel) if "✅" in m.text]
    assert len(said) == 1 and f"<#{moved_to.channel_id}>" in said[0].text, said[0].text
    assert len(_waiting_notices(emu, world)) == 1
    look = Look("a tournament table's replacement thread refused, then opened")
    look.add("tournament channel", notice)
    look.add("tournament channel", said[0])
    look.write(tmp_path, name="tournament-waiting-seat")


async def _thread_deleted_and_refused(
    emu: Emulator, world: World, bot: Any, refusals: int
) -> tuple[Any, Any, dict[str, int], Any]:
    """A two-table tournament whose table in a hand (chips in the middle) loses its thread,
    Discord refusing the next ``refusals`` new threads: the tournament, the closed table,
    the stacks its players were dealt with, and the refusal."""
    _, run = await two_table_tournament(
        emu, world, bot, ("erin", "frank", "grace", "heidi"), starting_stack=STACK, players=8
    )
    tables = bot.get_cog("Tournaments").tables_of(run)
    assert len(tables) == 2
    gone = next(t for t in tables if t.engine.in_hand)
    dealt = dict(gone.meta.hand.start_stacks)
    thread = next(t for t in emu.threads(world.channel) if t.id == gone.channel_id)
    threads = {t.id: t for t in emu.threads(world.channel)}
    # A bet or two at that table first, so that the hand has chips in the middle.
    for _ in range(3):
        await act_at_a_table(emu, world, bot, [gone], threads, list(world.players))
        await emu.idle()
    refused = _threads_refused(emu, count=refusals)
    delete_thread(emu, world, thread)
    await emu.wait_for(lambda: gone.closed, timeout=3)
    await emu.idle()
    return run, gone, dealt, refused


async def test_players_waiting_for_a_seat_are_not_told_again_after_a_restart(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The players of a deleted thread's table wait for a seat and are told so; the bot
    restarts during the outage: the new process knows they were told and says nothing,
    until the thread opens and it says where they play on."""
    bot = await poker_bot()
    run, _, dealt, _ = await _thread_deleted_and_refused(emu, world, bot, refusals=1000)
    assert len(_waiting_notices(emu, world)) == 1
    await bot.close()
    restarted = await poker_bot()
    cog = restarted.get_cog("Tournaments")
    again = cog.running[run.tournament_id]
    assert again.told_waiting == set(dealt)
    await cog.settle(again)  # still refused: the check after the restart
    await emu.idle()
    assert len(_waiting_notices(emu, world)) == 1
    emu.faults.clear()
    await cog.settle(again)
    await emu.wait_for(lambda: len(_seated(cog.tables_of(again))) == 8, timeout=7)
    await emu.idle()
    (said,) = [m for m in emu.channel_messages(world.channel) if "✅" in m.text]
    assert all(again.name_in_text(pid) in said.text for pid in dealt), said.text
    assert len(_waiting_notices(emu, world)) == 1 and not again.told_waiting


def _threads_refused(emu: Emulator, count: int) -> Any:
    """The next ``count`` threads the bot asks for refused (the server's active threads at
    Discord's maximum)."""
    return emu.faults.error(
        "POST /channels/{channel_id}/threads",
        status=400,
        code=160006,
        message="Maximum number of active threads reached",
        count=count,
    )


def _waiting_notices(emu: Emulator, world: World) -> list[Any]:
    return [m for m in emu.channel_messages(world.channel) if "⏳" in m.text]


async def _delete_channel(emu: Emulator, world: World) -> None:
    world.channel.deleted = True  # a moderator deletes the tournament's channel
    emu.dispatch("CHANNEL_DELETE", world.channel.to_dict())


async def test_a_tournament_whose_channel_is_deleted_mid_hand_ends_and_pays_by_chips(
    poker_bot, emu: Emulator, world: World, tmp_path: Path
) -> None:
    """Its lobby and its table are gone, with nowhere to play on: the hand in progress is
    void, the tournament ends there, its players placed by the chips they hold, and the
    whole prize pool is paid to the bankrolls. The results cannot be posted in the deleted
    channel: each player hears them by DM, in their own language (one with closed DMs is
    skipped)."""
    bot = await poker_bot()
    players = world.players[:3]
    alice, bob, carol = players
    bob.locale = "de"  # his client reads German
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {"buy_in": 10, "starting_stack": STACK, "seats": 3, "payouts": "65/35", "auto_deal": 0},
    )
    assert created.type == 4, created.content
    for player in players:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    cog = bot.get_cog("Tournaments")
    run = next(iter(cog.running.values()))
    (live,) = cog.tables_of(run)
    assert live.engine.in_hand
    dealt = dict(live.meta.hand.start_stacks)
    await act_at_a_table(emu, world, bot, [live], {world.channel.id: world.channel}, players)
    await emu.idle()
    carol.dms_open = False
    dealt_dms = {p.id: len(emu.dms(p)) for p in players}
    await _delete_channel(emu, world)
    await emu.wait_for(lambda: run.state.status == "finished", timeout=3)
    await emu.wait_for(lambda: len(emu.dms(bob)) > dealt_dms[bob.id], timeout=3)
    await emu.idle()
    assert live.closed and not cog.tables_of(run) and run.tournament_id not in cog.running
    results = {str(r.user_id): r for r in await bot.db.tournament_results(run.tournament_id)}
    # The hand is void: everyone holds what they were dealt with, and is placed by it.
    order = sorted(dealt, key=lambda pid: -dealt[pid])
    assert results[order[0]].place == 1
    assert sum(r.prize for r in results.values()) == 30
    for player in players:
        prize = results[str(player.id)].prize
        assert await bot.db.balance(world.guild.id, player.id) == 1000 - 10 + prize
    await _no_tournament_holds_chips(bot, world)
    # The result by DM: the player's own place and prize, and the standings.
    (told,) = emu.dms(alice)[dealt_dms[alice.id] :]
    mine = results[str(alice.id)]
    assert "ended early" in told.text and "channel was deleted" in told.text, told.text
    place = {1: "1st", 2: "2nd", 3: "3rd"}[mine.place]
    assert f"You finished **{place}**" in told.text, told.text
    assert (f"won {mine.prize} chips" in told.text) == (mine.prize > 0), told.text
    winner = next(r for r in results.values() if r.place == 1)
    shown = run.name_in_text(str(winner.user_id))
    assert f"**1st** {shown} wins {winner.prize} chips" in told.text, told.text
    (gesagt,) = emu.dms(bob)[dealt_dms[bob.id] :]
    assert "Turnier" in gesagt.text and "Kanal" in gesagt.text, gesagt.text
    assert f"{results[str(bob.id)].place}." in gesagt.text, gesagt.text
    assert len(emu.dms(carol)) == dealt_dms[carol.id]  # closed DMs: skipped, nothing broke
    look = Look("a tournament whose channel was deleted: the result by DM, English and German")
    look.add("DM (alice)", told)
    look.add("DM (bob, de)", gesagt)
    look.write(tmp_path, name="tournament-gone-dm")


async def test_a_tournament_whose_channel_is_deleted_before_it_starts_pays_back(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:2]
    created = await emu.run_command(
        world.host, world.channel, "poker tournament create", {"buy_in": 10, "seats": 3}
    )
    for player in players:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    await _delete_channel(emu, world)
    await emu.wait_for(lambda: not bot.get_cog("Tournaments").running, timeout=3)
    await emu.idle()
    for player in players:
        assert await bot.db.balance(world.guild.id, player.id) == 1000
        # Nobody reads the deleted channel: each player hears of it by DM.
        (told,) = emu.dms(player)
        assert "called off" in told.text and "10 chips" in told.text, told.text
    await _no_tournament_holds_chips(bot, world)


async def test_a_long_429_on_the_answer_that_ends_a_tournament_hand_holds_nothing_up(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Discord rate-limits the answer to the fold that ends a hand for over 3 s (past the
    interaction's life): the hand is over all the same, the tournament's bookkeeping done,
    the table shows the result and the next hand is dealt on time."""
    bot = await poker_bot()
    players = world.players[:3]
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {"buy_in": 10, "starting_stack": STACK, "seats": 3, "auto_deal": 1},
    )
    for player in players:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    cog = bot.get_cog("Tournaments")
    run = next(iter(cog.running.values()))
    (live,) = cog.tables_of(run)
    by_id = {str(p.id): p for p in players}

    for k in range(2):
        await emu.idle()  # the table message as the last fold left it
        decision = live.engine.pending[0]
        message = table_message(emu, world)
        user = by_id[decision.player_id]
        where = await fold_press(emu, user, message)
        assert where is not None
        message, label = where
        if k == 1:
            fault = emu.faults.rate_limit("interaction_callback", retry_after=3.5)
            clicked = asyncio.ensure_future(
                emu.click(user, message, label=label, timeout=10, raise_on_failure=False)
            )
            break
        r = await emu.click(user, message, label=label)
        assert r.type == 7, r.content
    start = time.monotonic()
    # The hand's end does not wait for Discord: the next hand is dealt about a second later.
    await emu.wait_for(lambda: live.engine.hand_number == 2 and live.engine.in_hand, timeout=4)
    assert time.monotonic() - start < 3.5
    message = await emu.wait_for(lambda: find_table_message(emu, world), timeout=3)
    assert message is not None
    await clicked
    assert fault.hits, "the 429 was not served"
    assert live.engine.chips() == 3 * STACK
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok, str(audit)


async def test_a_tournament_thread_deleted_while_the_bot_was_away_moves_its_players(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    _, run = await two_table_tournament(
        emu, world, bot, ("erin", "frank", "grace", "heidi"), starting_stack=STACK, players=8
    )
    gone = bot.get_cog("Tournaments").tables_of(run)[0]
    thread = next(t for t in emu.threads(world.channel) if t.id == gone.channel_id)
    await emu.idle()
    await bot.close()
    thread.deleted = True  # nobody hears of it
    # Discord refuses the new table's thread, and the lobby's channel refuses the notice
    # (the bot may no longer write there): its players hear by DM that they wait.
    moved = {int(s.player_id) for s in gone.engine.seats if s is not None}
    dms = {user.id: len(emu.dms(user)) for user in world.players}
    refused = _threads_refused(emu, count=1)
    emu.faults.error(
        lambda c: (
            c.key == "POST /channels/{channel_id}/messages" and str(world.channel.id) in c.path
        ),
        status=403,
        code=50013,
        message="Missing Permissions",
    )
    bot2 = await poker_bot()
    cog = bot2.get_cog("Tournaments")
    run2 = cog.running[run.tournament_id]

    def waiting_dms(user: Any) -> list[str]:
        return [m.text for m in emu.dms(user)[dms[user.id] :] if "⏳" in m.text]

    await emu.wait_for(lambda: refused.hits and len(run2.moving) == 4, timeout=7)
    await emu.wait_for(lambda: all(waiting_dms(u) for u in world.players if u.id in moved))
    await emu.idle()
    for user in world.players:
        assert len(waiting_dms(user)) == (user.id in moved), (user.username, waiting_dms(user))

    def settled() -> bool:
        now = cog.tables_of(run2)
        return len(_seated(now)) == 8 and all(t.channel_id != thread.id for t in now)

    await cog.settle(run2)  # the next check (every 20 s): the thread opens
    await emu.wait_for(settled, timeout=7)
    await emu.idle()
    now = cog.tables_of(run2)
    assert sum(t.engine.chips() for t in now) == 8 * STACK and not run2.moving
    audit = await bot2.db.chip_audit(world.guild.id)
    assert audit.ok, str(audit)
    rows = await bot2.db.tournament_tables(run.tournament_id)
    assert sorted(r.table_id for r in rows) == sorted(t.id for t in now)


async def test_a_tournament_channel_deleted_while_the_bot_was_away_ends_it(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Its lobby channel (and the threads in it) deleted while the bot was stopped: nobody
    told the new process, and the tournament kept its buy-ins or its prize pool for good. At
    the start, one taking entries is called off (buy-ins back) and a running one ends, paid
    by the chips its players hold."""
    bot = await poker_bot()
    _, run = await two_table_tournament(
        emu, world, bot, ("erin", "frank", "grace", "heidi"), starting_stack=STACK, players=8
    )
    other = emu.add_text_channel(world.guild, "later")
    created = await emu.run_command(
        world.host, other, "poker tournament create", {"buy_in": 10, "seats": 3}
    )
    alice = world.players[0]
    r = await emu.click(alice, created.message, label="Register")
    assert r.type == 7, r.content
    await emu.idle()
    before = await bot.db.balance(world.guild.id, alice.id)
    dealt_dms = len(emu.dms(alice))
    await bot.close()
    for channel in (world.channel, other, *emu.threads(world.channel)):
        channel.deleted = True  # nobody hears of it
    bot2 = await poker_bot()
    cog = bot2.get_cog("Tournaments")
    await emu.wait_for(lambda: not cog.running, timeout=7)
    await emu.idle()
    assert await bot2.db.open_tables() == []
    results = {r.user_id: r for r in await bot2.db.tournament_results(run.tournament_id)}
    assert len(results) == 8 and sum(r.prize for r in results.values()) == 80
    # Alice: the second buy-in back, the first tournament's prize of her place.
    after = await bot2.db.balance(world.guild.id, alice.id)
    assert after == before + 10 + results[alice.id].prize, (before, after)
    await _no_tournament_holds_chips(bot2, world)
    # Nobody can read either channel: she hears of both by DM.
    told = sorted(m.text for m in emu.dms(alice)[dealt_dms:])
    assert len(told) == 2, told
    assert "called off" in told[0] and "ended early" in told[1], told


def _ping_refused_as_archived(emu: Emulator) -> Any:
    """The next follow-up the bot sends (a turn ping) refused as Discord refuses a send to an
    archived thread."""
    return emu.faults.error(
        lambda c: c.method == "POST" and c.kind == "interaction_webhook",
        status=400,
        code=50083,
        message="Thread is archived",
    )


async def test_a_tournament_table_whose_thread_discord_archived_plays_on(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Discord archives a thread left quiet for its auto-archive time (the bot away for a
    day): nothing the bot sent or edited there went through any more (400 50083, a turn ping
    refused), and the table could not be played. The bot unarchives the thread and tries
    once more; its tables' threads ask for the longest auto-archive Discord allows."""
    bot = await poker_bot()
    _, run = await two_table_tournament(
        emu, world, bot, ("erin", "frank", "grace", "heidi"), starting_stack=STACK, players=8
    )
    threads = {t.id: t for t in emu.threads(world.channel)}
    assert {t.auto_archive_duration for t in threads.values()} == {10080}
    cog = bot.get_cog("Tournaments")
    quiet = threads[cog.tables_of(run)[0].channel_id]
    await emu.idle()
    await bot.close()
    emu.archive_thread(quiet)
    mark = emu.mark()
    bot2 = await poker_bot()
    bot2.presenter.ping_after = 0  # at once: the ping is what this test follows
    cog2 = bot2.get_cog("Tournaments")
    run2 = cog2.running[run.tournament_id]
    await emu.wait_for(lambda: not quiet.archived, timeout=7)
    await emu.idle()
    # The restored table's message was redrawn: refused once, then edited in the reopened thread.
    edits = [
        c.status
        for c in emu.calls_since(mark)
        if c.key == "PATCH /channels/{channel_id}/messages/{message_id}" and str(quiet.id) in c.path
    ]
    assert edits[:2] == [400, 200], edits
    # Archived again, and the turn ping after a player's action is refused as reported.
    emu.archive_thread(quiet)
    live = next(t for t in cog2.tables_of(run2) if t.channel_id == quiet.id)
    place = World(world.guild, quiet, world.host, list(world.players))
    pinged = len([m for m in emu.channel_messages(quiet) if "🔔" in (m.content or "")])
    fault = _ping_refused_as_archived(emu)
    await act_at_a_table(emu, world, bot2, [live], {quiet.id: quiet}, list(world.players))
    await emu.idle()
    assert fault.hits and not quiet.archived
    pings = [m for m in emu.channel_messages(quiet) if "🔔" in (m.content or "")]
    assert len(pings) == pinged + 1, [m.content for m in pings]
    assert find_table_message(emu, place) is not None and live.engine.chips() > 0
    # A moderator archives and locks it, and the bot may not manage threads: nobody can play
    # there any more, so its players play on at the tournament's other tables.
    role = world.guild.roles[world.guild.members[emu.bot_user.id].roles[0]]
    role.permissions &= ~MANAGE_THREADS
    emu.archive_thread(quiet, locked=True)
    while not live.closed and live.engine.in_hand:
        _ping_refused_as_archived(emu)
        await act_at_a_table(emu, world, bot2, [live], {quiet.id: quiet}, list(world.players))
        await emu.idle()
    await emu.wait_for(lambda: live.closed, timeout=3)
    await emu.wait_for(lambda: len(_seated(cog2.tables_of(run2))) == 8, timeout=7)
    await emu.idle()
    assert all(t.channel_id != quiet.id for t in cog2.tables_of(run2))
    assert sum(t.engine.chips() for t in cog2.tables_of(run2)) == 8 * STACK
    said = [m.text for m in emu.channel_messages(world.channel) if "locked" in m.text]
    assert said and "<#" in said[-1], said
    audit = await bot2.db.chip_audit(world.guild.id)
    assert audit.ok, str(audit)


async def _lobby_of_three(emu: Emulator, world: World) -> Any:
    """A lobby for two tables of two (four players at most), three of them registered."""
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {"buy_in": 10, "seats": 2, "players": 4, "auto_deal": 0},
    )
    assert created.type == 4 and not created.ephemeral, created.content
    for player in world.players[:3]:
        assert (await emu.click(player, created.message, label="Register")).type == 7
    return created.message


THREADS = "POST /channels/{channel_id}/threads"


async def test_a_register_press_waiting_for_a_start_slow_to_open_its_tables_is_answered(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The start holds the tournament while Discord opens its tables' threads; Discord
    rate-limits the first for 3.5 s. A Register pressed meanwhile waited for it without a
    word, past Discord's 3 seconds (a random run found it). It is acknowledged in time, and
    told once the start is through that registration has closed."""
    bot = await poker_bot()
    lobby = await _lobby_of_three(emu, world)
    late = emu.add_user("erin")
    emu.add_member(world.guild, late)
    slow = emu.faults.rate_limit(THREADS, retry_after=3.5)
    start = asyncio.ensure_future(emu.click(world.host, lobby, label="Start"))
    await emu.wait_for(lambda: slow.hits, timeout=3)
    r = await emu.click(late, lobby, label="Register")  # raises if unanswered in 3 s
    assert r.type == 6, r.type
    assert (await start).type == 4
    (said,) = await emu.wait_for(lambda: r.followups, timeout=7)
    assert said.ephemeral and "Registration is closed" in said.content, said.content
    run = next(iter(bot.get_cog("Tournaments").running.values()))
    assert run.state.status == "running" and len(run.state.entries) == 3
    assert await bot.db.balance(world.guild.id, late.id) == 1000


async def test_a_cancel_waiting_for_a_start_that_discord_refuses_calls_it_off_in_the_channel(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The start waits 3.5 s on Discord for a thread, which is then refused: registration stays
    open. The organiser's /poker tournament cancel, waiting behind it, is acknowledged
    privately in time, then calls the tournament off: told "Done." privately, the channel
    reads that it is called off, and every buy-in is back."""
    bot = await poker_bot()
    lobby = await _lobby_of_three(emu, world)
    slow = emu.faults.rate_limit(THREADS, retry_after=3.5)
    emu.faults.error(THREADS, status=403, code=50013, message="Missing Permissions")
    start = asyncio.ensure_future(emu.click(world.host, lobby, label="Start"))
    await emu.wait_for(lambda: slow.hits, timeout=3)
    r = await emu.run_command(world.host, world.channel, "poker tournament cancel", {})
    assert r.type == 5 and r.ephemeral, (r.type, r.ephemeral)
    await start
    await emu.wait_for(lambda: len(r.followups) == 2, timeout=7)
    done, said = r.followups
    assert done.ephemeral and done.content == "Done.", done.content
    assert not said.ephemeral and "called off; 3 buy-ins went back" in said.content, said.content
    for player in world.players[:3]:
        assert await bot.db.balance(world.guild.id, player.id) == 1000
    assert await bot.db.open_tournaments() == []


async def test_a_start_whose_threads_discord_fails_says_to_try_again_not_permissions(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Discord answers the thread of a starting tournament with a 503: the organiser was told
    the bot needs permission to create threads, which it has. They are told to try again,
    and registration is still open."""
    bot = await poker_bot()
    lobby = await _lobby_of_three(emu, world)
    emu.faults.server_error(THREADS, status=503)
    r = await emu.click(world.host, lobby, label="Start")
    await emu.idle()
    said = " ".join(m.content or "" for m in r.followups)
    assert "try again in a moment" in said and "permission" not in said, said
    run = next(iter(bot.get_cog("Tournaments").running.values()))
    assert run.state.status == "registering"
    assert "Register" in emu.get_message(lobby.id).button_labels
