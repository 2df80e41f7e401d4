"""A table's life around /poker settings and the clock: changes between hands and during
one, time banks, pre-actions, leaving and rebuying mid-hand, dealer's choice abuse."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from cogs.ui.house_rules import DRAW_LIMITS
from tests.bot.driver import (
    create_table,
    deal,
    forged_press,
    live_table,
    play_hand,
    table_message,
)
from tests.emulator import Emulator, World


async def test_turning_the_auto_deal_on_or_off_between_hands_takes_effect_now(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    await emu.click(alice, lobby, label="Deal")
    await play_hand(emu, world, bot)
    await emu.idle()
    assert not live.engine.in_hand and live.engine.hand_number == 1
    # Manual deal -> one second: the next hand is dealt without anyone pressing Deal.
    r = await emu.run_command(alice, world.channel, "poker settings", {"auto_deal": 1})
    assert not r.ephemeral, r.content
    await emu.wait_for(lambda: live.engine.hand_number == 2, timeout=5)
    await play_hand(emu, world, bot)
    await emu.idle()
    # One second -> manual, while the next deal is already counted down: no deal comes.
    assert live.auto_deal is not None
    r = await emu.run_command(alice, world.channel, "poker settings", {"auto_deal": 0})
    assert not r.ephemeral, r.content
    assert live.auto_deal is None
    await emu.idle()
    assert live.engine.hand_number == 2 and not live.engine.in_hand


async def _choose_panel(emu: Emulator, world: World, dealer: Any) -> Any:
    opened = await emu.click(dealer, table_message(emu, world), label="Choose the game…")
    assert opened.type == 6, opened.content
    return (await emu.wait_for(lambda: opened.followups))[-1]


def _player(world: World, pid: str) -> Any:
    return next(p for p in world.players if str(p.id) == pid)


def _menu(panel: Any, kind: str) -> str:
    """The custom id of the dealer's-choice panel's menu ``kind`` (cg: the game, cw, cr, ch)."""
    return str(next(s["custom_id"] for s in panel.selects if f":{kind}:" in s["custom_id"]))


async def _a_dealer_choosing(
    bot: Any, emu: Emulator, world: World, players: list[Any]
) -> tuple[Any, Any]:
    """A dealer's choice table of ``players``, its first hand dealt: (the live table, the
    dealer choosing its game)."""
    await create_table(emu, world, players, dealers_choice=True, auto_deal=0)
    await deal(emu, world, players[0])
    live = live_table(bot, world)
    return live, _player(world, live.engine.pending[0].player_id)


async def test_dealers_choice_old_panels_timeouts_and_a_dealer_who_leaves(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    live, dealer = await _a_dealer_choosing(bot, emu, world, players)
    panel = await _choose_panel(emu, world, dealer)
    game = next(s for s in panel.selects if ":cg:" in s["custom_id"])
    old = (await emu.select(dealer, panel, game["custom_id"], ["california-lowball"])).message
    deal_it = next(c["custom_id"] for c in old.buttons if c.get("label") == "Deal it")
    menus = [(m["custom_id"], m["options"][1]["value"]) for m in old.selects]
    r = await emu.click(dealer, old, label="Deal it")
    assert r.type == 7, r.content
    await play_hand(emu, world, bot)
    # Next hands: the old panel's Deal it is refused whoever deals.
    for _ in range(3):
        await deal(emu, world, players[0])
        chooser = _player(world, live.engine.pending[0].player_id)
        events = len(live.engine.events)
        for custom_id, value in [(deal_it, None), *menus]:
            values = None if value is None else [value]
            r = await forged_press(emu, dealer, old, custom_id, values=values)
            assert r.ephemeral and r.content == "That choice is no longer valid: the hand is over."
        assert len(live.engine.events) == events and live.engine.pending[0].kind.value == (
            "choose-game"
        )
        if chooser is dealer:
            break
        r = await emu.click(chooser, await _choose_panel(emu, world, chooser), label="Deal it")
        assert r.type == 7, r.content
        await play_hand(emu, world, bot)
    emu.assert_clean()
    # The dealer stands up while choosing: the hand goes on without them (or ends).
    assert live.engine.pending[0].player_id == str(dealer.id)
    r = await emu.run_command(dealer, world.channel, "poker leave", {})
    assert r.ephemeral, r.content
    await emu.idle()
    assert "fold" in r.content and live.engine.pending[0].kind.value == "bet"
    await play_hand(emu, world, bot)
    await emu.idle()
    assert not live.seated(dealer.id)
    # The next dealer lets the clock run out, then their time bank: the timeout deals the
    # table's default game and the hand goes on.
    await deal(emu, world, players[0])
    chooser = live.engine.pending[0].player_id
    assert live.engine.pending[0].kind.value == "choose-game"
    base = time.time()
    for later in (1000, 2000):
        bot.tables.now = lambda later=later: base + later
        live.deadline = base
        await bot.tables.expire(live)
        await emu.idle()
    assert live.engine.in_hand and live.engine.pending[0].kind.value == "bet"
    assert live.engine.public_view().game == "Five-card draw"
    name = _player(world, chooser).global_name
    assert f"{name} ran out of time" in table_message(emu, world).text
    emu.assert_clean()


async def test_a_tournament_tables_clock_and_buy_ins_are_the_tournaments(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    options = {"buy_in": 10, "starting_stack": 200, "seats": 2, "auto_deal": 3, "timer": 60}
    created = await emu.run_command(world.host, world.channel, "poker tournament create", options)
    assert created.type == 4 and not created.ephemeral, created.content
    for player in world.players[:2]:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    live = await emu.wait_for(lambda: live_table(bot, world), timeout=10)
    before = (live.settings.action_seconds, live.settings.auto_deal_seconds)
    for change in ({"auto_deal": 0}, {"timer": 10}, {"max_buy_in": 5000}, {"time_bank": 0}):
        r = await emu.run_command(world.host, world.channel, "poker settings", change)
        assert r.ephemeral and "tournament" in r.content, (change, r.content)
    assert (live.settings.action_seconds, live.settings.auto_deal_seconds) == before
    # The language is the table's own to choose.
    r = await emu.run_command(world.host, world.channel, "poker settings", {"language": "de"})
    assert "Deutsch" in r.content and live.meta.language == "de", r.content


async def test_two_members_press_deal_or_sit_down_at_once(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    results = await asyncio.gather(
        emu.click(alice, lobby, label="Deal"), emu.click(bob, lobby, label="Deal")
    )
    assert sorted((r.type, r.content) for r in results) == [
        (4, "A hand is already being played."),
        (7, ""),
    ]
    assert live.engine.hand_number == 1
    await play_hand(emu, world, bot)
    await emu.idle()
    between = emu.channel_messages(world.channel)[-1]
    sit = next(c["custom_id"] for c in between.buttons if c["custom_id"].endswith(":sit"))
    dave = world.players[3]
    forms = await asyncio.gather(
        emu.click(carol, between, custom_id=sit), emu.click(dave, between, custom_id=sit)
    )
    results = await asyncio.gather(
        emu.submit_modal(carol, forms[0], {}), emu.submit_modal(dave, forms[1], {})
    )
    assert [r.type for r in results] == [7, 7], [r.content for r in results]
    assert live.seated(carol.id) and live.seated(dave.id)
    seats = [s.seat for s in live.engine.public_view().seats if s.player_id != "" and s.stack]
    assert len(set(seats)) == 4
    assert (await bot.db.chip_audit(world.guild.id)).ok


async def test_the_auto_deal_resumes_when_a_player_comes_back_or_sits_down(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=1)
    live = live_table(bot, world)
    await emu.click(alice, lobby, label="Deal")
    r = await emu.run_command(bob, world.channel, "poker sitout", {})
    assert r.ephemeral, r.content
    await play_hand(emu, world, bot)
    await emu.idle()
    # Alone: the table waits.
    assert live.auto_deal is None and live.engine.hand_number == 1
    r = await emu.run_command(bob, world.channel, "poker back", {})
    assert r.content == "Welcome back: you're in the next hand.", r.content
    await emu.wait_for(lambda: live.engine.hand_number == 2, timeout=5)
    # Bob stands up during the hand; Carol's seat brings the next deal.
    r = await emu.run_command(bob, world.channel, "poker leave", {})
    assert r.ephemeral, r.content
    await play_hand(emu, world, bot)
    await emu.idle()
    assert not live.seated(bob.id) and live.auto_deal is None
    between = emu.channel_messages(world.channel)[-1]
    sit = next(c["custom_id"] for c in between.buttons if c["custom_id"].endswith(":sit"))
    form = await emu.click(carol, between, custom_id=sit)
    r = await emu.submit_modal(carol, form, {})
    assert r.type == 7, r.content
    await emu.wait_for(lambda: live.engine.hand_number == 3, timeout=5)


async def test_a_time_bank_turned_on_is_full_at_the_next_deal(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0, time_bank=0)
    live = live_table(bot, world)
    await emu.click(alice, lobby, label="Deal")
    r = await emu.run_command(alice, world.channel, "poker settings", {"time_bank": 60})
    assert not r.ephemeral and "time bank 60s" in r.content, r.content
    await play_hand(emu, world, bot)
    await deal(emu, world, alice)
    assert live.meta.banks == {str(alice.id): 60, str(bob.id): 60}


async def test_a_player_leaving_while_the_dealer_chooses(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    live, dealer = await _a_dealer_choosing(bot, emu, world, players)
    other = next(p for p in players if p is not dealer)
    panel = await _choose_panel(emu, world, dealer)
    r = await emu.run_command(other, world.channel, "poker leave", {})
    assert "stands up with 40 chips" in r.content, r.content
    await emu.idle()
    # The table shows the seat empty at once (it showed them seated until the deal).
    seats = table_message(emu, world).embeds[0]
    assert other.global_name not in str(seats), seats
    assert dealer.global_name in str(seats)
    r = await emu.click(dealer, panel, label="Deal it")
    assert r.type == 7, r.content
    await emu.idle()
    assert live.engine.in_hand and not live.seated(other.id)
    assert (await bot.db.chip_audit(world.guild.id)).ok


async def test_stand_up_pressed_on_the_lobby_as_the_hand_is_dealt(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Carol (sitting out) presses Stand up on the lobby as Bob presses Deal on it: her
    press lands on the hand's message; she is paid and the hand's message stays the hand's."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    r = await emu.run_command(carol, world.channel, "poker sitout", {})
    assert r.ephemeral, r.content
    stand = next(c["custom_id"] for c in lobby.buttons if c["custom_id"].endswith(":stand"))
    r = await emu.click(bob, lobby, label="Deal")
    assert r.type == 7, r.content
    await emu.idle()
    r = await forged_press(emu, carol, lobby, stand)
    assert r.ephemeral, (r.type, r.content)
    await emu.idle()
    assert not live.seated(carol.id) and live.engine.in_hand
    table = table_message(emu, world)
    assert "Between hands" not in table.text and "Carol" not in table.text, table.text
    await play_hand(emu, world, bot)
    assert (await bot.db.chip_audit(world.guild.id)).ok


async def test_the_table_reposted_while_the_dealer_chooses(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    _live, dealer = await _a_dealer_choosing(bot, emu, world, players)
    panel = await _choose_panel(emu, world, dealer)
    old = table_message(emu, world)
    r = await emu.run_command(players[1], world.channel, "poker table", {})
    assert r.ephemeral, r.content
    await emu.idle()
    new = table_message(emu, world)
    assert new.id != old.id
    r = await emu.click(dealer, panel, label="Deal it")
    assert r.type == 7, r.content
    await emu.idle()
    table = table_message(emu, world)
    assert table.id == new.id and "First betting round" in table.text, table.text
    assert old.id not in [m.id for m in emu.channel_messages(world.channel)]
    await play_hand(emu, world, bot)
    emu.assert_clean()


async def test_two_managers_change_different_house_rules_at_once(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    flags, newcomers = (f"pks:r:{live.id}:{f}" for f in ("flags", "newcomers"))
    mine = await emu.click(alice, lobby, label="Settings")
    host = await emu.click(world.host, lobby, label="Settings")
    results = await asyncio.gather(
        emu.select(alice, mine.message, flags, ["pass_out_reante", "pass_out_deal_passes"]),
        emu.select(world.host, host.message, newcomers, ["post"]),
    )
    assert [r.type for r in results] == [7, 7], [r.content for r in results]
    options = live.engine.config.options
    # Both changes hold: the second was not built on the rules as they were before the first.
    assert options.newcomers == "post" and not options.second_round_from_opener, options

    # Again while the table is busy (another action holds it, its save not yet written): both
    # changes wait their turn, and the one served second builds on the first.
    draw = f"pks:r:{live.id}:draw"
    async with live.lock:
        pressed = [
            asyncio.create_task(emu.select(alice, mine.message, newcomers, ["wait"])),
            asyncio.create_task(emu.select(world.host, host.message, draw, ["4"])),
        ]
        await asyncio.sleep(0.3)
    results = await asyncio.gather(*pressed)
    await emu.idle()
    assert [r.type for r in results] == [7, 7], [r.content for r in results]
    options = live.engine.config.options
    assert options.newcomers == "wait" and options.draw_limit == DRAW_LIMITS["4"], options
    told = " ".join(f.content for r in results for f in r.followups)
    # Each manager's note says only their own change.
    assert [len(r.followups) for r in results] == [1, 1], told
    assert "Draw" not in results[0].followups[0].content, told
    assert "Newcomers" not in results[1].followups[0].content, told


async def test_a_dealers_choice_that_does_not_fit_is_refused_with_a_reason(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    live, dealer = await _a_dealer_choosing(bot, emu, world, players)
    panel = await _choose_panel(emu, world, dealer)
    game = _menu(panel, "cg")
    panel = (await emu.select(dealer, panel, game, ["anaconda"])).message
    shapes = _menu(panel, "cr")
    panel = (await emu.select(dealer, panel, shapes, ["draws=3"])).message
    r = await emu.click(dealer, panel, label="Deal it")
    assert r.ephemeral and r.content == "Anaconda has no single draw to repeat.", r.content
    assert live.engine.pending[0].kind.value == "choose-game"
    # The dealer picks another game; the refused rule goes with the one it did not fit.
    game = _menu(panel, "cg")
    panel = (await emu.select(dealer, panel, game, ["five-card-draw"])).message
    r = await emu.click(dealer, panel, label="Deal it")
    assert r.type == 7, r.content
    await emu.idle()
    assert live.engine.public_view().game == "Triple-draw five-card draw"
    await play_hand(emu, world, bot)
    emu.assert_clean()


async def test_leaving_then_joining_or_rebuying_in_the_same_hand(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    leaver = next(p for p in (alice, bob, carol) if str(p.id) != live.engine.pending[0].player_id)
    r = await emu.run_command(leaver, world.channel, "poker leave", {})
    assert r.content == "You fold and will stand up when this hand ends.", r.content
    # Sitting down again in that hand: they are told they stand up, not that they are seated.
    r = await emu.run_command(leaver, world.channel, "poker join", {})
    assert r.ephemeral and r.content == "You are standing up when this hand ends.", r.content
    r = await emu.run_command(leaver, world.channel, "poker rebuy", {"amount": 10})
    assert r.ephemeral and "between hands" in r.content, r.content
    await play_hand(emu, world, bot)
    await emu.idle()
    assert not live.seated(leaver.id)
    r = await emu.run_command(leaver, world.channel, "poker join", {})
    assert not r.ephemeral and live.seated(leaver.id), r.content
    assert (await bot.db.chip_audit(world.guild.id)).ok


async def test_the_lobby_footer_shows_settings_changed_between_hands(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    assert "Buy-in 40–200" in lobby.embeds[0]["footer"]["text"]
    r = await emu.run_command(
        alice, world.channel, "poker settings", {"max_buy_in": 300, "timer": 30, "auto_deal": 5}
    )
    assert not r.ephemeral, r.content
    await emu.idle()
    footer = emu.get_message(lobby.id).embeds[0]["footer"]["text"]
    assert "Buy-in 40–300" in footer and "30s to act" in footer, footer
    assert "next hand after 5s" in footer, footer
    assert not live.engine.in_hand


async def test_deal_it_pressed_after_the_dealers_clock_ran_out(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    await create_table(emu, world, players, dealers_choice=True, auto_deal=0, time_bank=0)
    await deal(emu, world, players[0])
    live = live_table(bot, world)
    dealer = _player(world, live.engine.pending[0].player_id)
    panel = await _choose_panel(emu, world, dealer)
    game = _menu(panel, "cg")
    panel = (await emu.select(dealer, panel, game, ["california-lowball"])).message
    base = time.time()
    bot.tables.now = lambda: base + 1000
    live.deadline = base
    await bot.tables.expire(live)
    await emu.idle()
    assert live.engine.public_view().game == "Five-card draw"
    events = len(live.engine.events)
    r = await emu.click(dealer, panel, label="Deal it")
    assert r.ephemeral and "no longer valid" in r.content, r.content
    assert len(live.engine.events) == events
    game = _menu(panel, "cg")
    r = await emu.select(dealer, panel, game, ["jacks-or-better"])
    assert r.ephemeral and "no longer valid" in r.content, r.content
    emu.assert_clean()


async def test_a_player_not_dealt_in_rebuys_during_the_hand(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A player left out of the hand (busted, sitting out) had only the seconds between two
    auto-deals to add chips: every /poker rebuy during a hand was refused. Their stack is not
    in play, so they add chips at once; a player dealt in still waits for the hand's end."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    r = await emu.run_command(carol, world.channel, "poker sitout", {})
    assert r.ephemeral, r.content
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    dealt = live.engine.stack(str(alice.id))
    r = await emu.run_command(alice, world.channel, "poker rebuy", {"amount": 10})
    assert r.ephemeral and "between hands" in r.content, r.content
    assert live.engine.stack(str(alice.id)) == dealt
    r = await emu.run_command(carol, world.channel, "poker rebuy", {"amount": 60})
    assert r.ephemeral and r.content == "You add 60 chips: your stack is 100.", r.content
    await emu.idle()
    seats = [f["value"] for f in table_message(emu, world).embeds[0]["fields"]]
    assert any("**Carol**\u00a0· 100\u00a0chips" in value for value in seats), seats
    assert (await bot.db.chip_audit(world.guild.id)).ok
    # A restart in the middle of the hand finds the chips where they were put.
    await bot.close()
    bot = await poker_bot()
    live = live_table(bot, world)
    assert live.engine.in_hand and live.engine.stack(str(carol.id)) == 100
    await play_hand(emu, world, bot)
    assert live.engine.stack(str(carol.id)) == 100
    assert (await bot.db.chip_audit(world.guild.id)).ok
