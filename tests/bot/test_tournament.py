"""Sit-and-go tournaments through the emulator: registration through the ledger, levels on
the table, eliminations, places and payouts checked against the ledger and the audit."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import pytest

from tests.bot.driver import (
    act_at_a_table,
    live_table,
    opener,
    play_hand,
    two_table_tournament,
    until_someone_is_broke,
)
from tests.emulator import Emulator, UserActionError, World


async def _create(emu: Emulator, world: World, user: Any, **options: Any) -> Any:
    created = await emu.run_command(user, world.channel, "poker tournament create", options)
    assert created.type == 4 and not created.ephemeral, created.content
    return created.message


async def _started_with_late_entries(emu: Emulator, world: World, bot: Any) -> tuple[Any, Any]:
    """A sit-and-go of two (buy-in 50, three seats, late entries for two levels) started and
    dealing: its lobby message as it is now, and its table."""
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {"buy_in": 50, "seats": 3, "late_reg_levels": 2, "auto_deal": 0, "timer": 30},
    )
    lobby = created.message
    for player in world.players[:2]:
        assert (await emu.click(player, lobby, label="Register")).type == 7
    assert (await emu.click(world.host, lobby, label="Start")).ephemeral
    # The tournament deals from a task of its own, which a loaded machine may run late.
    live = await emu.wait_for(
        lambda: (table := live_table(bot, world)) is not None and table.engine.in_hand and table
    )
    lobby = next(m for m in emu.channel_messages(world.channel) if m.id == lobby.id)
    return lobby, live


async def test_a_sit_and_go_is_played_to_the_end_and_paid(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    guild = world.guild.id
    players = world.players[:3]
    season = await emu.run_command(
        world.host, world.channel, "server season start", {"name": "spring", "points": "5,2"}
    )
    assert "spring" in season.embeds[0]["title"], season.content
    lobby = await _create(
        emu,
        world,
        world.host,
        buy_in=100,
        starting_stack=40,
        levels=6,
        level_minutes=0.05,
        seats=3,
        payouts="65/35",
        auto_deal=0,
        timer=30,
    )
    assert "Sit-and-go" in lobby.embeds[0]["title"]

    # Registering pays the buy-in into the prize pool; unregistering gives it back.
    r = await emu.click(players[0], lobby, label="Register")
    assert r.type == 7, r.content
    assert await bot.db.balance(guild, players[0].id) == 900
    r = await emu.click(players[0], lobby, label="Unregister")
    assert r.type == 7, r.content
    assert await bot.db.balance(guild, players[0].id) == 1000
    again = await emu.click(players[1], lobby, label="Unregister")
    assert again.ephemeral and "not registered" in again.content
    early = await emu.click(players[0], lobby, label="Start")
    assert early.ephemeral and "creator" in early.content
    for player in players:
        r = await emu.click(player, lobby, label="Register")
        assert r.type == 7, r.content
    late = await emu.click(world.players[3], lobby, label="Register")
    assert late.ephemeral and "closed" in late.content.lower(), late.content
    audit = await bot.db.chip_audit(guild)
    assert audit.ok and audit.in_tournaments == 300, str(audit)

    # Full: the table opens in the channel with everyone on 40 tournament chips, and deals.
    await emu.idle()
    live = live_table(bot, world)
    assert live is not None and live.meta.tournament is not None
    tid = live.meta.tournament
    assert sorted(s.stack for s in live.engine.seats if s) == [40, 40, 40]
    assert (await bot.db.chips_on_tables(guild, players[0].id)) == (0, 0)
    refused = await emu.run_command(players[0], world.channel, "poker leave", {})
    assert refused.ephemeral and "tournament table" in refused.content

    # Play until one player holds every chip, dealing each hand by hand. After the first
    # hand the tournament's clock is stopped 10.5 s after the start: level 4 from then on.
    cog = bot.get_cog("Tournaments")
    assert live.engine.config.forced_bets.ante == 1
    levels_seen = set()
    for _ in range(150):
        live = live_table(bot, world)
        if live is None:
            break
        if live.engine.in_hand:
            levels_seen.add(live.engine.config.forced_bets.ante)
            await play_hand(emu, world, bot, policy=opener)
            if live.engine.hand_number == 1:
                cog.clock = functools.partial(float, cog.running[tid].started_at + 10.5)
            continue
        dealer = next(p for p in players if live.seated(p.id))
        r = await emu.run_command(dealer, world.channel, "poker start", {})
        assert r.ephemeral, r.content
        await emu.idle()
    else:
        raise AssertionError("the tournament did not finish")
    await emu.idle()
    assert levels_seen == {1, 4}, levels_seen

    assert await bot.db.open_tournaments(guild) == []
    results = await bot.db.tournament_results(tid)
    places = [r.place for r in results]
    # Two out in the same hand with equal starting stacks share 2nd place and its prizes.
    assert places in ([1, 2, 3], [1, 2, 2]), places
    prizes = [195, 105, 0] if places == [1, 2, 3] else [195, 53, 52]
    assert sorted((r.prize for r in results), reverse=True) == prizes
    for r in results:
        assert await bot.db.balance(guild, r.user_id) == 900 + r.prize
    audit = await bot.db.chip_audit(guild)
    assert audit.ok and audit.in_tournaments == 0, str(audit)
    texts = [m.text for m in emu.channel_messages(world.channel)]
    assert any("Tournament over" in t for t in texts)
    # The table no longer plays: none of its messages offers a seat or a deal.
    for message in emu.channel_messages(world.channel):
        assert not {"Sit down", "Deal"} & set(message.button_labels), message.text
    assert any("is out in 2nd place" in t for t in texts)
    record = await bot.db.tournament_record(guild, results[0].user_id)
    assert (record.played, record.wins, record.cashes, record.best_finish) == (1, 1, 1, 1)
    # Register on the finished tournament's lobby, with another tournament open in the
    # channel: refused as over, and nothing is paid into the new one.
    from tests.bot.driver import forged_press

    await _create(emu, world, world.host, buy_in=10)
    (newer,) = cog.running.values()
    before = await bot.db.balance(guild, players[0].id)
    # (Its message no longer shows buttons: a client that still has them sends this id.)
    r = await forged_press(emu, players[0], lobby, f"trn:register:{tid}")
    assert r.ephemeral and r.content.startswith("That tournament is over;"), r.content
    assert newer.state.entries == () and await bot.db.balance(guild, players[0].id) == before
    r = await emu.run_command(world.host, world.channel, "poker tournament cancel", {})
    assert not r.ephemeral, r.content

    # /stats counts the tournament; the season's standings put the winner first.
    winner = next(p for p in players if p.id == results[0].user_id)
    stats = await emu.run_command(winner, world.channel, "stats", {})
    field = next(f for f in stats.embeds[0]["fields"] if f["name"] == "Tournaments")
    assert "1 played" in field["value"] and "1 won" in field["value"]
    ended = await emu.run_command(world.host, world.channel, "server season end", {"reset": True})
    assert ended.embeds[0]["description"].startswith(f"**1.** <@{winner.id}> — 5 points")
    for player in players:
        assert await bot.db.balance(guild, player.id) == 1000
    board = await emu.run_command(players[1], world.channel, "leaderboard", {"season": "spring"})
    assert f"<@{winner.id}> — 5 points" in board.embeds[0]["description"]
    unknown = await emu.run_command(players[1], world.channel, "leaderboard", {"season": "x"})
    assert unknown.ephemeral and "no past season" in unknown.content
    assert (await bot.db.chip_audit(guild)).ok


async def test_eight_players_on_two_tables_down_to_a_final_table(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Two tables of four in threads of the channel, balanced as players bust (nobody lost,
    nobody seated twice, tables within one player), merged into one, played out and paid."""
    bot = await poker_bot()
    guild = world.guild.id
    for name in ("erin", "frank", "grace", "heidi"):
        user = emu.add_user(name)
        emu.add_member(world.guild, user)
        world.players.append(user)  # the driver finds whoever acts among the world's users
    players = list(world.players)
    lobby = await _create(
        emu,
        world,
        world.host,
        buy_in=10,
        starting_stack=30,
        levels=8,
        level_minutes=0.05,
        seats=4,
        players=8,
        payouts="50/30/20",
        auto_deal=1,
        timer=30,
    )
    cog = bot.get_cog("Tournaments")
    run = next(iter(cog.running.values()))
    # eight entries on a table of four: registration takes twice the seats
    assert run.state.settings.max_players == 8
    for player in players:
        r = await emu.click(player, lobby, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    tid = run.tournament_id
    threads = {t.id: t for t in emu.threads(world.channel)}
    assert len(threads) == 2

    def tables() -> list[Any]:
        return [t for t in bot.tables.tables.values() if t.meta.tournament == tid]

    assert {t.channel_id for t in tables()} == set(threads)
    counts: list[int] = []
    for _ in range(3000):
        await emu.idle()
        live = tables()
        if not live:
            break
        seated = [s.player_id for t in live for s in t.engine.seats if s is not None]
        assert len(seated) == len(set(seated)), "a player sits at two tables"
        counts.append(len(live))
        await act_at_a_table(emu, world, bot, live, threads, players, policy=opener)
    else:
        raise AssertionError("the tournament did not finish")
    await emu.idle()
    assert counts[0] == 2 and counts[-1] == 1, "two tables merged into a final table"
    results = await bot.db.tournament_results(tid)
    assert len(results) == 8 and results[0].place == 1
    assert sum(r.prize for r in results) == 80
    for result in results:
        assert await bot.db.balance(guild, result.user_id) == 990 + result.prize
    audit = await bot.db.chip_audit(guild)
    assert audit.ok and audit.in_tournaments == 0, str(audit)


async def test_a_scheduled_poker_night(poker_bot, emu: Emulator, world: World) -> None:
    """/poker schedule makes a Discord event, reminds the channel, then opens the game
    at its time (a tournament here, a cash table in a second channel)."""
    bot = await poker_bot()
    cog = bot.get_cog("Tournaments")
    # One way to each thing: the commands live under /poker only.
    for gone in ("tournament", "schedule"):
        with pytest.raises(UserActionError):
            await emu.run_command(world.host, world.channel, f"{gone} status", {})
    alice = world.players[0]
    refused = await emu.run_command(
        alice, world.channel, "poker schedule create", {"when": "in 2h"}
    )
    assert refused.ephemeral and "Manage" in refused.content
    for bad, why in (("in 0s", "passed"), ("tomorrow", "Say when"), ("in 90d", "60 days")):
        r = await emu.run_command(world.host, world.channel, "poker schedule create", {"when": bad})
        assert r.ephemeral and why in r.content, (bad, r.content)
    r = await emu.run_forged_command(
        world.host, world.channel, "poker schedule create", {"when": "in 5m", "kind": "bingo"}
    )
    assert r.ephemeral and "The kind option is one of tournament, table" in r.content, r.content
    r = await emu.run_command(
        world.host,
        world.channel,
        "poker schedule create",
        {"when": "in 5m", "buy_in": 25, "starting_stack": 300, "payouts": "winner"},
    )
    assert not r.ephemeral and "Poker night" in r.content, r.content
    (event,) = emu.scheduled_events
    assert event["entity_type"] == 3 and event["entity_metadata"]["location"] == "#poker"
    assert "tournament" in event["name"]
    second = emu.add_text_channel(world.guild, "cash")
    r = await emu.run_command(
        world.host, second, "poker schedule create", {"when": "in 2h", "kind": "table"}
    )
    assert not r.ephemeral, r.content
    assert len(emu.scheduled_events) == 2

    # Within ten minutes: a reminder, once, pinging exactly the event's interested users
    # (and whoever set it up), not a role or everyone.
    fans = world.players[1:3]
    for fan in fans:
        emu.mark_interested(event, fan)
    await cog.nights.run_schedules()
    await cog.nights.run_schedules()
    reminders = [m for m in emu.channel_messages(world.channel) if "⏰" in m.text]
    assert len(reminders) == 1
    pinged = {world.host.id, *(fan.id for fan in fans)}
    assert all(f"<@{i}>" in reminders[0].text for i in pinged), reminders[0].text
    allowed = emu.allowed_mentions[reminders[0].id]
    assert sorted(int(i) for i in allowed["users"]) == sorted(pinged), allowed
    assert allowed["parse"] == [] and not allowed.get("roles"), allowed
    # At the time: the tournament's lobby opens with the scheduled buy-in.
    start = cog.clock()
    cog.clock = lambda: start + 301
    await cog.nights.run_schedules()
    await emu.idle()
    lobby = next(m for m in emu.channel_messages(world.channel) if "Register" in m.button_labels)
    assert "Sit-and-go" in lobby.embeds[0]["title"]
    fields = {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}
    assert fields["Starting stack"].startswith("300 ") and "Payouts (winner)" in fields, fields
    r = await emu.click(alice, lobby, label="Register")
    assert r.type == 7 and await bot.db.balance(world.guild.id, alice.id) == 975
    # Two hours on: the cash table opens in the second channel.
    cog.clock = lambda: start + 7201
    await cog.nights.run_schedules()
    await emu.idle()
    assert bot.tables.in_channel(second.id) is not None
    assert await bot.db.pending_schedules(start + 10**6) == []


async def test_rebuys_and_the_add_on(poker_bot, emu: Emulator, world: World) -> None:
    """A busted player stays in while rebuys are open and buys back in; the add-on comes at
    the last rebuy level; after the period a bust is final. Every buy goes into the pool."""
    bot = await poker_bot()
    guild = world.guild.id
    alice, bob = world.players[:2]
    lobby = await _create(
        emu,
        world,
        world.host,
        buy_in=10,
        starting_stack=20,
        levels=4,
        level_minutes=10.0,
        seats=2,
        payouts="winner",
        rebuys=1,
        rebuy_levels=2,
        addon=30,
        auto_deal=0,
    )
    for player in (alice, bob):
        await emu.click(player, lobby, label="Register")
    await emu.idle()
    cog = bot.get_cog("Tournaments")
    run = next(iter(cog.running.values()))
    tid, started = run.tournament_id, run.started_at
    early = await emu.run_command(alice, world.channel, "poker tournament addon", {})
    assert early.ephemeral and "last rebuy level" in early.content

    def play_until_someone_is_broke() -> Any:
        return until_someone_is_broke(emu, world, bot, [alice, bob])

    loser = await play_until_someone_is_broke()
    assert loser is not None and run.state.status == "running"
    assert not run.state.entry(str(loser.id)).out  # a rebuy is open to them
    r = await emu.run_command(loser, world.channel, "poker tournament rebuy", {})
    assert not r.ephemeral, r.content
    assert live_table(bot, world).engine.stack(str(loser.id)) == 20
    assert await bot.db.balance(guild, loser.id) == 980
    again = await emu.run_command(loser, world.channel, "poker tournament rebuy", {})
    assert again.ephemeral and "used your 1 rebuy" in again.content
    # The last rebuy level: the add-on.
    cog.clock = functools.partial(float, started + 601)
    winner = bob if loser is alice else alice
    r = await emu.run_command(winner, world.channel, "poker tournament addon", {})
    assert not r.ephemeral, r.content
    assert (await bot.db.get_tournament(tid)).prize_pool == 40
    # After the rebuy period a bust is final.
    cog.clock = functools.partial(float, started + 1201)
    for _ in range(60):
        if await play_until_someone_is_broke() is None:
            break
        await cog.settle(run)
        await emu.idle()
    assert run.state.status == "finished"
    results = await bot.db.tournament_results(tid)
    assert [r.prize for r in results] == [40, 0]
    audit = await bot.db.chip_audit(guild)
    assert audit.ok and audit.in_tournaments == 0, str(audit)


async def test_every_create_option_is_checked_and_late_entries_are_seated(
    poker_bot, emu: Emulator, world: World
) -> None:
    """/poker tournament create offers dealer's choice and late registration; a forged value
    of any option is refused with its reason; a late entry pays in and gets a seat."""
    bot = await poker_bot()
    guild = world.guild.id
    for wire, why in (
        ({"late_reg_levels": 41}, "late registration levels must be a whole number from 0 to 40"),
        ({"dealers_choice": "yes"}, "The dealers_choice option is either true or false"),
        ({"level_minutes": 0.01}, "A level's length in minutes must be a number from 0.05 to 240"),
        ({"seats": 1}, "The number of seats must be a whole number from 2 to 10"),
        ({"payouts": 65}, "payouts"),
    ):
        r = await emu.run_forged_command(world.host, world.channel, "poker tournament create", wire)
        assert r.ephemeral and why in r.content, (wire, r.content)
    assert await bot.db.open_tournaments(guild) == []

    lobby = await _create(
        emu, world, world.host, buy_in=50, seats=3, late_reg_levels=2, dealers_choice=True
    )
    also = {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}["Also"]
    assert "dealer's choice" in also and "until the end of level 2" in also, also
    cog = bot.get_cog("Tournaments")
    run = cog.running[next(iter(cog.running))]
    assert run.config.dealers_choice and run.state.settings.late_levels == 2
    r = await emu.run_command(world.host, world.channel, "poker tournament cancel", {})
    assert not r.ephemeral, r.content

    lobby, live = await _started_with_late_entries(emu, world, bot)
    late = world.players[2]
    # The lobby keeps its Register button while late entries last.
    assert "Register" in lobby.button_labels
    r = await emu.click(late, lobby, label="Register")
    assert r.type == 7, r.content
    assert await bot.db.balance(guild, late.id) == 950
    run = cog.running[live.meta.tournament]
    assert run.state.registered(str(late.id)) and run.state.prize_pool == 150
    # Seated at once with a starting stack, dealt in from the next hand (the seat is taken by
    # the tournament's own task: give a loaded machine a moment).
    for _ in range(100):
        if live.seated(late.id):
            break
        await asyncio.sleep(0.02)
    assert live.seated(late.id)
    await play_hand(emu, world, bot)
    await emu.idle()
    seat = next(s for s in live.engine.seats if s is not None and s.player_id == str(late.id))
    assert seat.stack == run.state.settings.starting_stack
    audit = await bot.db.chip_audit(guild)
    assert audit.ok and audit.in_tournaments == 150, str(audit)


async def test_a_player_sitting_out_of_a_tournament_is_blinded_off(
    poker_bot, emu: Emulator, world: World
) -> None:
    """At a tournament's table /poker sitout does not spare the antes: the player is dealt
    in, pays, and is folded by the table."""
    bot = await poker_bot()
    players = world.players[:3]
    lobby = await _create(
        emu, world, world.host, buy_in=10, starting_stack=200, seats=3, auto_deal=0, timer=30
    )
    for player in players:
        assert (await emu.click(player, lobby, label="Register")).type == 7
    await emu.idle()
    live = live_table(bot, world)
    assert live is not None and live.engine.config.options.blind_off_absent
    # The table plays by the tournament's settings: the coach (a cash table's helper) is
    # refused like its clock, and no buy-in is shown (its players bought into the tournament).
    r = await emu.run_command(world.host, world.channel, "poker settings", {"coach": True})
    assert r.ephemeral and "coach" in (r.content or "") and "cash" in r.content, r.content
    assert not live.settings.coach
    shown = await emu.run_command(players[0], world.channel, "poker settings", {})
    assert shown.ephemeral and "30s to act ·" in shown.message.text, shown.message.text
    assert "Buy-in" not in shown.message.text
    await play_hand(emu, world, bot)
    away = players[0]
    r = await emu.run_command(away, world.channel, "poker sitout", {})
    assert r.ephemeral, r.content
    before = live.engine.stack(str(away.id))
    dealer = next(p for p in players if p is not away)
    await emu.run_command(dealer, world.channel, "poker start", {})
    await emu.idle()
    assert live.engine.in_hand
    seat = live.engine.seat_of(str(away.id))
    assert any(s == seat for s, _, _ in live.engine.events[0].seats)
    assert all(d.player_id != str(away.id) for d in live.engine.pending)
    await play_hand(emu, world, bot)
    await emu.idle()
    # The ante went in; a player away never wins a showdown (folded at the first decision).
    assert live.engine.stack(str(away.id)) < before


async def test_no_cash_table_opens_in_a_tournaments_channel(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A cash table opened in a lobby's channel made the tournament's start fail ("This
    channel already has a table"): running, with no table and every buy-in held. The channel
    is the tournament's until it ends, and the start opens its table there."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await _create(emu, world, world.host, buy_in=10, seats=4, auto_deal=1)
    for player in (alice, bob):
        assert (await emu.click(player, lobby, label="Register")).type == 7
    r = await emu.run_command(alice, world.channel, "poker create", {"stake": 2})
    assert r.ephemeral and "holds a tournament" in (r.content or ""), r.content
    assert live_table(bot, world) is None
    r = await emu.run_command(world.host, world.channel, "poker tournament start", {})
    assert r.ephemeral and "Starting" in (r.content or ""), r.content
    await emu.idle()
    assert not [m.text for m in r.followups], "the start was refused"
    live = live_table(bot, world)
    assert live is not None and live.meta.tournament is not None
    await play_hand(emu, world, bot, policy=opener)
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok and audit.in_tournaments == 20, str(audit)
    emu.assert_clean()


async def test_a_player_at_a_table_in_a_thread_reaches_their_tournament(
    poker_bot, emu: Emulator, world: World
) -> None:
    """At a table in a thread, /poker tournament status and rebuy said there was no
    tournament in this channel: they reach the tournament whose table it is."""
    bot = await poker_bot()
    _, run = await two_table_tournament(
        emu, world, bot, ("erin", "frank", "gina", "hal"), players=8, rebuys=1, rebuy_levels=4
    )
    thread = emu.threads(world.channel)[0]
    live = bot.tables.in_channel(thread.id)
    player = next(p for p in world.players if live.seated(p.id))
    status = await emu.run_command(player, thread, "poker tournament status", {})
    assert status.ephemeral and status.embeds, status.content
    pool = run.state.prize_pool
    r = await emu.run_command(player, thread, "poker tournament rebuy", {})
    assert not r.ephemeral and "buys a rebuy" in (r.content or ""), r.content
    assert run.state.prize_pool == pool + 10
    # Still no tournament where none is played.
    elsewhere = emu.add_text_channel(world.guild, "elsewhere")
    r = await emu.run_command(player, elsewhere, "poker tournament status", {})
    assert r.ephemeral and "no tournament in this channel" in (r.content or ""), r.content
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok, str(audit)
    emu.assert_clean()


async def test_a_second_tournament_in_a_channel_is_refused_in_the_members_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The data layer's English sentence ("there is already a tournament in this channel")
    was the answer in every language."""
    from cogs.translator import _
    from i18n import resolve

    bot = await poker_bot()
    carol = world.players[2]
    carol.locale = "fr"
    await _create(emu, world, world.host, buy_in=10)
    r = await emu.run_command(carol, world.channel, "poker tournament create", {"buy_in": 10})
    said = "There is already a tournament in this channel."
    assert _(said, language=resolve("fr")) != said
    assert r.ephemeral and r.content == _(said, language=resolve("fr")), r.content
    assert len(await bot.db.open_tournaments()) == 1
    emu.assert_clean()


async def test_register_pressed_off_the_lobby_is_answered(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A Register press on another message of the channel (a forged or copied button)
    registered the member and edited the lobby, but never answered the press ("This
    interaction failed", after the buy-in was paid)."""
    from tests.bot.driver import forged_press

    bot = await poker_bot()
    alice = world.players[0]
    lobby = await _create(emu, world, world.host, buy_in=10)
    other = await emu.run_command(alice, world.channel, "balance", {})
    register = next(c["custom_id"] for c in lobby.buttons if c.get("label") == "Register")
    r = await forged_press(emu, alice, other.message, register)
    assert r.ephemeral and r.content == "Done.", r.content
    run = next(iter(bot.get_cog("Tournaments").running.values()))
    assert [e.player_id for e in run.state.entries] == [str(alice.id)]
    await emu.idle()
    assert (alice.global_name or alice.username) in emu.get_message(lobby.id).text
    r = await forged_press(emu, alice, other.message, register.replace("register", "unregister"))
    assert r.ephemeral and r.content == "Done.", r.content
    assert run.state.entries == ()
    assert (await bot.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()


async def test_a_tournament_for_more_than_one_table_is_not_opened_in_a_thread(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Created in a thread for more players than a table seats, the tournament took the
    buy-ins and, full, closed registration; its tables (threads of the channel) could not be
    opened from a thread, so it stayed running with no table, its buy-ins held and its
    channel taken, for good (no cancel after the start)."""
    bot = await poker_bot()
    thread = emu.add_thread(world.channel, "side games")
    options = {"buy_in": 10, "seats": 2, "players": 3}
    r = await emu.run_command(world.host, thread, "poker tournament create", options)
    assert r.ephemeral and r.content, r.content
    assert not await bot.db.open_tournaments()
    # One table's worth of players is a table in the thread itself, as before.
    r = await emu.run_command(world.host, thread, "poker tournament create", {"buy_in": 10})
    assert r.type == 4 and not r.ephemeral, r.content
    assert len(await bot.db.open_tournaments()) == 1
    assert (await bot.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()


async def test_a_late_entry_when_every_table_is_full_gets_a_new_table(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Late registration for more players than a table seats, started with one full table:
    a late entry paid the buy-in and was never seated (the only table had no free seat)."""
    bot = await poker_bot()
    guild = world.guild.id
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {
            "buy_in": 50,
            "seats": 2,
            "players": 4,
            "late_reg_levels": 3,
            "timer": 30,
            "rebuys": 1,
            "rebuy_levels": 1,
            "level_minutes": 10,
        },
    )
    lobby = created.message
    first, other, late, later = world.players[:4]
    for player in (first, other):
        assert (await emu.click(player, lobby, label="Register")).type == 7
    assert (await emu.click(world.host, lobby, label="Start")).ephemeral
    await emu.wait_for(lambda: (t := live_table(bot, world)) is not None and t.engine.in_hand)
    # Level 2 from now on: the rebuys are over, and the next first deal closes the add-on
    # (a save before the cards, during which another entry could try to deal the same table).
    cog = bot.get_cog("Tournaments")
    (run,) = cog.running.values()
    cog.clock = functools.partial(float, run.started_at + 601)
    lobby = next(m for m in emu.channel_messages(world.channel) if m.id == lobby.id)
    # Discord refuses the new table's thread (no permission to create threads, then an
    # outage): the late entry is told why at once, pays nothing and is not entered; it
    # left them entered, charged and seated nowhere, with a bare "something went wrong".
    for status, code in ((403, 50001), (503, 0)):
        emu.faults.error(
            "POST /channels/{channel_id}/threads", status=status, code=code, message="refused"
        )
        r = await emu.click(late, lobby, label="Register")
        await emu.idle()
        said = [m.content for m in r.followups if m.ephemeral]
        assert len(said) == 1 and "thread" in said[0] and "paid nothing" in said[0], said
        assert await bot.db.balance(guild, late.id) == 1000
        (run,) = bot.get_cog("Tournaments").running.values()
        assert not run.state.registered(str(late.id)) and run.state.prize_pool == 100
        assert len(bot.get_cog("Tournaments").tables_of(run)) == 1
        assert "Register" in emu.get_message(lobby.id).button_labels
    # Both register at once: each entry's settling dealt the new table's first hand, the
    # second found it dealt and was told "A hand is already being played" (entered and
    # charged all the same). It is dealt once, and both hear nothing but the lobby.
    pressed = await asyncio.gather(
        *(emu.click(player, lobby, label="Register") for player in (late, later))
    )
    await emu.idle()
    for r in pressed:
        # The lobby is updated (at once, or after a new table's thread: deferred).
        assert r.type in (6, 7) and not r.followups, [m.content for m in r.followups]
    assert run.state.registered(str(late.id)) and run.state.registered(str(later.id))
    text = emu.get_message(lobby.id).text
    assert "Players (4/4)" in text and "200 chips" in text, text
    # The two late entries play at a table of their own, in a thread of the channel.
    (thread,) = emu.threads(world.channel)
    added = await emu.wait_for(
        lambda: (t := bot.tables.in_channel(thread.id)) is not None and t.engine.in_hand and t
    )
    assert {s.player_id for s in added.engine.seats if s} == {str(late.id), str(later.id)}
    assert added.engine.hand_number == 1 and run.state.addon_closed
    assert emu.channel_messages(thread)
    seated = [
        s.player_id for live in cog.tables_of(run) for s in live.engine.seats if s is not None
    ]
    assert sorted(seated) == sorted(run.state.alive), (seated, run.state.alive)
    audit = await bot.db.chip_audit(guild)
    assert audit.ok and audit.in_tournaments == 200, str(audit)
    emu.assert_clean()


async def test_a_new_table_for_a_late_entry_deals_once_a_player_is_moved_to_it(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A late entry with every seat taken sat alone at a new table; the next balancing moved
    a player there, and nobody dealt its first hand (only a late entry's own settling did):
    the two waited for good. The table deals once it can, and once only, whoever seats the
    second player (the balancing, or another late entry registering at the same time)."""
    bot = await poker_bot()
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {"buy_in": 10, "seats": 3, "players": 5, "late_reg_levels": 2, "auto_deal": 1},
    )
    lobby = created.message
    *starters, late = world.players[:4]
    for player in starters:
        assert (await emu.click(player, lobby, label="Register")).type == 7
    assert (await emu.click(world.host, lobby, label="Start")).ephemeral
    first = await emu.wait_for(
        lambda: (t := live_table(bot, world)) is not None and t.engine.in_hand and t
    )
    lobby = emu.get_message(lobby.id)
    r = await emu.click(late, lobby, label="Register")
    assert r.type in (6, 7) and not r.followups, (r.content, r.followups)
    await emu.idle()
    cog = bot.get_cog("Tournaments")
    (run,) = cog.running.values()
    (thread,) = emu.threads(world.channel)
    added = bot.tables.in_channel(thread.id)
    assert [s.player_id for s in added.engine.seats if s] == [str(late.id)]
    # The first table's hand ends: one of its three players moves to the new table.
    await play_hand(emu, world, bot)
    await emu.idle()
    await emu.wait_for(lambda: added.engine.in_hand, timeout=3)
    assert added.engine.hand_number == 1
    assert sorted(len([s for s in t.engine.seats if s]) for t in cog.tables_of(run)) == [2, 2]
    assert first.engine.chips() + added.engine.chips() == 4 * run.state.settings.starting_stack
    emu.assert_clean()


async def test_a_start_whose_tables_discord_refuses_leaves_registration_open(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The bot may not create threads (a permission taken away): at the start of a tournament
    for two tables, registration closed, the threads were refused, and the tournament stayed
    running with no table, its buy-ins held and no way to call it off."""
    bot = await poker_bot()
    guild = world.guild.id
    lobby = await _create(emu, world, world.host, buy_in=10, seats=2, players=4)
    for player in world.players[:3]:
        assert (await emu.click(player, lobby, label="Register")).type == 7
    emu.faults.error(
        "POST /channels/{channel_id}/threads",
        status=403,
        code=50013,
        message="Missing Permissions",
        count=1000,
    )
    r = await emu.click(world.host, lobby, label="Start")
    await emu.idle()
    said = [m.content for m in r.followups]
    assert any("threads" in (text or "") for text in said), (r.content, said)
    run = next(iter(bot.get_cog("Tournaments").running.values()))
    assert run.state.status == "registering"
    assert not bot.get_cog("Tournaments").tables_of(run)
    assert "Register" in emu.get_message(lobby.id).button_labels
    r = await emu.run_command(world.host, world.channel, "poker tournament cancel", {})
    assert not r.ephemeral, r.content
    for player in world.players[:3]:
        assert await bot.db.balance(guild, player.id) == 1000
    audit = await bot.db.chip_audit(guild)
    assert audit.ok and audit.in_tournaments == 0, str(audit)


async def test_an_old_lobby_acts_on_its_own_tournament(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Register pressed on the lobby of a tournament called off (a client showing the buttons
    it had) registered the member in the tournament now open in the channel, paying its
    buy-in. A lobby's buttons act on their own tournament: once it is over or called off they
    are refused, in the member's language, and nothing changes."""
    from cogs.translator import _
    from i18n import resolve
    from tests.bot.driver import forged_press

    bot = await poker_bot()
    alice, carol = world.players[0], world.players[2]
    old = await _create(emu, world, world.host, buy_in=10)
    ids = {c.get("label"): c["custom_id"] for c in old.buttons}
    r = await emu.run_command(world.host, world.channel, "poker tournament cancel", {})
    assert not r.ephemeral, r.content
    new = await _create(emu, world, world.host, buy_in=20)
    (run,) = bot.get_cog("Tournaments").running.values()
    balance = await bot.db.balance(world.guild.id, alice.id)
    said = "That tournament was called off; the buttons of its message no longer work."
    carol.locale = "pl"
    for who, expected in ((alice, said), (carol, _(said, language=resolve("pl")))):
        for verb in ("Register", "Unregister", "Start"):
            r = await forged_press(emu, who, old, ids[verb])
            assert r.ephemeral and r.content == expected, (verb, r.content)
    assert expected != said
    assert run.state.entries == ()
    assert await bot.db.balance(world.guild.id, alice.id) == balance
    # A lobby posted before its buttons named their tournament acts on the message's own.
    r = await forged_press(emu, alice, old, "trn:register")
    assert r.ephemeral and r.content.startswith("That tournament is over;"), r.content
    assert run.state.entries == ()
    # Its own lobby still takes entries, by its buttons and by those of an older version.
    r = await emu.click(alice, new, label="Register")
    assert [e.player_id for e in run.state.entries] == [str(alice.id)], r.content
    carol.locale = "en-US"
    r = await forged_press(emu, carol, new, "trn:register")
    assert [e.player_id for e in run.state.entries] == [str(alice.id), str(carol.id)], r.content
    assert (await bot.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()


async def test_a_lobby_of_many_long_names_lists_whole_names_and_counts_the_rest(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Twenty players whose names are markdown (escaped, twice as long): the lobby's list was
    cut at 1,024 characters in the middle of a name, the other players unsaid. It lists
    whole names and says how many more are registered."""
    await poker_bot()
    lobby = await _create(emu, world, world.host, buy_in=1, players=30)
    for n in range(20):
        user = emu.add_user(f"p{n:02}" + "*_" * 14)
        user.global_name = user.username
        emu.add_member(world.guild, user)
        r = await emu.click(user, emu.get_message(lobby.id), label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    (embed,) = emu.get_message(lobby.id).embeds
    field = next(f for f in embed["fields"] if f["name"].startswith("Players (20/30)"))
    *names, more = field["value"].split(", ")
    assert len(field["value"]) <= 1024
    assert all(name.endswith("\\*\\_" * 14) for name in names), names  # whole names
    assert more == f"… and {20 - len(names)} more", more
    # Pressed by a member reading Polish, the lobby stays in the channel's language.
    user = emu.add_user("late" + "*_" * 14)
    user.locale = "pl"
    emu.add_member(world.guild, user)
    r = await emu.click(user, emu.get_message(lobby.id), label="Register")
    assert r.type == 7, r.content
    (embed,) = emu.get_message(lobby.id).embeds
    field = next(f for f in embed["fields"] if f["name"].startswith("Players (21/30)"))
    assert field["value"].endswith(f"… and {21 - len(names)} more"), field["value"]
    emu.assert_clean()


async def test_a_tournament_table_speaking_a_language_of_its_own_gets_its_notes_in_it(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A tournament's table may speak its own language (``/poker settings language:``): what
    the tournament writes on it (the level before each deal) is in that language, as the rest
    of the table message is."""
    bot = await poker_bot()
    players = world.players[:3]
    lobby = await _create(
        emu, world, world.host, buy_in=50, starting_stack=70, seats=3, payouts="winner"
    )
    for player in players:
        r = await emu.click(player, lobby, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    cog = bot.get_cog("Tournaments")
    (run,) = cog.running.values()
    (live,) = cog.tables_of(run)
    place = World(world.guild, emu.channels[live.channel_id], world.host, players)
    r = await emu.run_command(world.host, place.channel, "poker settings", {"language": "de"})
    assert "Deutsch" in r.content, r.content
    first = live.engine.hand_number
    await play_hand(emu, place, bot)
    await emu.wait_for(lambda: live.engine.hand_number > first and live.engine.in_hand, timeout=15)
    await emu.idle()
    table = next(m for m in reversed(emu.channel_messages(place.channel)) if m.button_labels)
    assert "Stufe 1" in table.text and "Level 1" not in table.text, table.text
    emu.assert_clean()


async def test_a_lobby_button_from_another_channel_is_refused(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A tournament's lobby is in its channel: Register forged in another channel of the
    server (where the member may not see the tournament's) pays no buy-in and enters nobody."""
    bot = await poker_bot()
    carol = world.players[2]
    lobby = await _create(emu, world, world.host, buy_in=50, starting_stack=70, seats=3)
    (run,) = bot.get_cog("Tournaments").running.values()
    before = await bot.db.balance(world.guild.id, carol.id)
    lounge = emu.add_text_channel(world.guild, "lounge")
    data = {"custom_id": f"trn:register:{run.tournament_id}", "component_type": 2}
    rec = emu.build_interaction(3, carol, lounge, data)
    emu.dispatch("INTERACTION_CREATE", rec.payload)
    r = await emu.await_response(rec)
    assert r.ephemeral and "no longer valid" in (r.content or ""), r.content
    assert not run.state.registered(str(carol.id))
    assert await bot.db.balance(world.guild.id, carol.id) == before
    # The same press on the lobby itself registers.
    r = await emu.click(carol, lobby, label="Register")
    assert r.type == 7 and run.state.registered(str(carol.id)), r.content
    emu.assert_clean()


async def test_a_late_entry_is_made_on_the_state_a_hand_ending_saves(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A late entry and a hand's end (a player out) both change the tournament's state. The
    entry was made on the state it read before paying in, and whichever was saved last undid
    the other: an entry charged but never seated (a prize pool that could not be paid), or a
    player out back in with a new stack. The entry now waits while a hand's end is saved, and
    is made on the state that end leaves."""
    bot = await poker_bot()
    guild = world.guild.id
    lobby, live = await _started_with_late_entries(emu, world, bot)
    late = world.players[2]
    run = bot.get_cog("Tournaments").running[live.meta.tournament]
    async with run.state_lock:  # as a hand's end holds it while it saves who went out
        pressed = asyncio.ensure_future(emu.click(late, lobby, label="Register"))
        await emu.idle()
        assert not run.state.registered(str(late.id))
        assert await bot.db.balance(guild, late.id) == 1000
    r = await pressed
    assert r.type in (6, 7), r.content
    await emu.idle()
    assert run.state.registered(str(late.id)) and run.state.prize_pool == 150
    assert await bot.db.balance(guild, late.id) == 950
    audit = await bot.db.chip_audit(guild)
    assert audit.ok and audit.in_tournaments == 150, str(audit)
    emu.assert_clean()
