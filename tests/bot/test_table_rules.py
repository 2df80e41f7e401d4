"""Bad input never breaks a table; Discord failures are survived; the action timer works."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.driver import create_table, current_table_message, live_table
from tests.emulator import Emulator, World


async def _actor(bot: Any, world: World) -> Any:
    live = live_table(bot, world)
    pid = live.engine.pending[0].player_id
    return next(p for p in world.players if str(p.id) == pid)


async def test_bad_inputs_get_ephemeral_reasons_and_change_nothing(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    guild = world.guild.id

    # Table commands with no table in the channel.
    r = await emu.run_command(alice, world.channel, "poker join", {})
    assert r.ephemeral and "no table" in r.content.lower()

    lobby = await create_table(emu, world, [alice], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    # A second table in the same channel.
    r = await emu.run_command(bob, world.channel, "poker create", {})
    assert r.ephemeral and "already has a table" in r.content
    # Joining twice.
    r = await emu.click(alice, lobby, label="Sit down")
    assert r.ephemeral and "already seated" in r.content
    # A buy-in outside the table's range, and more than the bankroll.
    r = await emu.run_command(bob, world.channel, "poker join", {"buy_in": 5})
    assert r.ephemeral and "buy-in" in r.content.lower()
    assert not live.seated(bob.id)
    await bot.db.admin_set(guild, world.host.id, carol.id, 30)
    r = await emu.run_command(carol, world.channel, "poker join", {"buy_in": 100})
    assert r.ephemeral and not live.seated(carol.id)
    assert await bot.db.balance(guild, carol.id) == 30
    # Starting with one player.
    r = await emu.click(alice, lobby, label="Deal")
    assert r.ephemeral and "can't deal" in r.content.lower()
    assert not live.engine.in_hand
    # Acting when not seated: a stale table button from the lobby message.
    r = await emu.click(bob, lobby, label="Stand up")
    assert r.ephemeral and "not seated" in r.content
    # Ending someone else's table without Manage Server.
    r = await emu.run_command(bob, world.channel, "poker end", {})
    assert r.ephemeral and live_table(bot, world) is live
    # Table commands in DMs are refused by Discord itself (guild-only commands).
    audit = await bot.db.chip_audit(guild)
    assert audit.ok
    emu.assert_clean()


async def test_bet_modal_and_out_of_turn(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(
        emu, world, [alice, bob], betting="no-limit", stake=2, ante=1, auto_deal=0
    )
    await emu.click(alice, lobby, label="Deal")
    table = await current_table_message(emu, world)
    actor = await _actor(bot, world)
    other = bob if actor is alice else alice
    # Out of turn.
    r = await emu.click(other, table, label="Fold")
    assert r.ephemeral and "not your turn" in r.content
    # The amount modal: not a number, out of range, then a legal bet.
    opened = await emu.click(actor, table, label="Bet…")
    assert opened.type == 9
    r = await emu.submit_modal(actor, opened, {"amount": "lots"})
    assert r.ephemeral and "not a number" in r.content
    r = await emu.submit_modal(actor, opened, {"amount": "100000"})
    # The engine's reason, numbers written the reader's way (English: 100,000).
    assert r.ephemeral and "between" in r.content and "100,000" in r.content, r.content
    live = live_table(bot, world)
    assert live.engine.public_view().current_bet == 0
    r = await emu.submit_modal(actor, opened, {"amount": "5"})
    assert r.type == 7, r.content
    assert live.engine.public_view().current_bet == 5
    # The modal is single-use: submitting it again is refused and changes nothing.
    events = len(live.engine.events)
    r = await emu.submit_modal(actor, opened, {"amount": "9"})
    assert r.ephemeral and ("no longer valid" in r.content or "not your turn" in r.content)
    assert len(live.engine.events) == events
    emu.assert_clean()


async def test_closed_dms_and_rate_limited_dms(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    carol.dms_open = False
    emu.faults.rate_limit("POST /channels/{channel_id}/messages", count=2, retry_after=0.05)
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    # The 429s are retried: alice and bob still get their cards.
    await emu.wait_for(lambda: emu.dms(alice) and emu.dms(bob), timeout=10)
    assert not emu.dms(carol)
    table = await emu.wait_for(
        lambda: next(
            (m for m in emu.channel_messages(world.channel) if "can't DM Carol" in m.text), None
        ),
        timeout=5,
    )
    assert table is not None
    # "My hand" still works for carol, ephemerally, with her cards.
    r = await emu.click(carol, table, label="My hand")
    assert r.ephemeral and "Your hand" in r.embeds[0]["title"]
    assert r.attachments
    live = live_table(bot, world)
    held = live.engine.private_view(str(carol.id)).cards
    assert held[0].display in r.embeds[0]["description"]


async def test_a_timeout_note_writes_the_name_as_typed(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The note of a timeout writes the player's name as they typed it, as every message
    does: no markdown, and a name typed as a mention does not show that member."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    alice.global_name = f"__Al__ <@{carol.id}>"
    bob.global_name = f"**Bo** <@{carol.id}>"
    typed = {
        f"\\_\\_Al\\_\\_ <@\u200b{carol.id}>",
        f"\\*\\*Bo\\*\\* <@\u200b{carol.id}>",
    }
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0, time_bank=0)
    live = live_table(bot, world)
    live.settings.action_seconds = 0.3
    await emu.click(alice, lobby, label="Deal")
    await emu.wait_for(lambda: not live.engine.in_hand, timeout=5)
    await emu.idle()
    notes = [
        line
        for m in emu.channel_messages(world.channel)
        for line in m.text.splitlines()
        if "ran out of time" in line
    ]
    assert notes and all(any(f"{name} ran out of time" in n for name in typed) for n in notes)
    assert not any(f"<@{carol.id}>" in n for n in notes), notes
    emu.assert_clean()


async def test_timer_expiry_checks_or_folds_and_sits_out_after_two(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    # No time bank: the timeout acts as soon as the timer runs out (test_time_bank.py).
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0, time_bank=0)
    live = live_table(bot, world)
    live.settings.action_seconds = 0.3
    await emu.click(alice, lobby, label="Deal")
    first = live.engine.pending[0].player_id
    # Nobody acts: the first player checks on time-out, then the second too: passed out.
    await emu.wait_for(lambda: not live.engine.in_hand, timeout=5)
    await emu.idle()
    texts = " ".join(m.text for m in emu.channel_messages(world.channel))
    assert "ran out of time" in texts
    assert live.engine.result is not None and live.engine.result.passed_out
    assert live.meta.misses.get(first) == 1
    # A second hand timed out again: that player sits out.
    r = await emu.run_command(alice, world.channel, "poker start", {})
    assert r.ephemeral
    await emu.wait_for(lambda: not live.engine.in_hand, timeout=5)
    await emu.idle()
    sat_out = [s.player_id for s in live.engine.seats if s is not None and s.sitting_out]
    assert sat_out, "a player who timed out twice running is sat out"
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok


async def test_an_action_restarts_the_timer_for_the_next_player(
    poker_bot, emu: Emulator, world: World
) -> None:
    import asyncio

    bot = await poker_bot()
    alice, bob = world.players[:2]
    # No time bank: the timeout acts as soon as the timer runs out (test_time_bank.py).
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0, time_bank=0)
    live = live_table(bot, world)
    live.settings.action_seconds = 2
    await emu.click(alice, lobby, label="Deal")
    await asyncio.sleep(1)
    first = live.engine.pending[0].player_id
    actor = alice if first == str(alice.id) else bob
    table = await current_table_message(emu, world)
    bet = next(label for label in table.button_labels if label.startswith("Bet "))
    assert (await emu.click(actor, table, label=bet)).type == 7
    # Past the first deadline, within the second player's full two seconds: nobody timed out.
    await asyncio.sleep(1.5)
    assert live.engine.in_hand and live.engine.pending[0].player_id != first
    assert "ran out of time" not in " ".join(m.text for m in emu.channel_messages(world.channel))
    # The second player's own timer still runs out (and folds them: they face a bet).
    await emu.wait_for(lambda: not live.engine.in_hand, timeout=5)
    assert live.meta.misses == {str((bob if actor is alice else alice).id): 1}


@pytest.mark.parametrize("pressers", [2])
async def test_two_players_press_at_once_exactly_one_applies(
    poker_bot, emu: Emulator, world: World, pressers: int
) -> None:
    import asyncio

    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    table = await current_table_message(emu, world)
    actor = await _actor(bot, world)
    live = live_table(bot, world)
    before = len(live.engine.events)
    # The same player double-clicks Check: one applies, the other is told it is stale.
    results = await asyncio.gather(
        emu.click(actor, table, label="Check"), emu.click(actor, table, label="Check")
    )
    kinds = sorted(r.type for r in results)
    assert kinds == [4, 7], [r.content for r in results]
    assert len(live.engine.events) == before + 1


async def test_settings_shown_changed_by_creator_only(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    shown = await emu.click(bob, lobby, label="Settings")
    assert shown.ephemeral and "Buy-in 40–200" in shown.embeds[0]["fields"][1]["value"]
    r = await emu.run_command(bob, world.channel, "poker settings", {"timer": 30})
    assert r.ephemeral and "creator" in r.content
    assert live.settings.action_seconds == 60
    r = await emu.run_command(alice, world.channel, "poker settings", {"min_buy_in": 500})
    assert r.ephemeral and "smallest buy-in" in r.content
    r = await emu.run_command(
        alice, world.channel, "poker settings", {"timer": 30, "max_buy_in": 300}
    )
    assert not r.ephemeral and "30s to act" in r.content
    assert (live.settings.action_seconds, live.settings.max_buy_in) == (30, 300)
    # A buy-in whose smallest and largest meet reads as one number, not "300–300".
    r = await emu.run_command(alice, world.channel, "poker settings", {"min_buy_in": 300})
    assert "Buy-in 300 ·" in r.content and "300–300" not in r.content, r.content
    form = await emu.click(bob, lobby, label="Sit down")
    labels = [c["label"] for row in form.modal["components"] for c in row["components"]]
    assert "Buy-in (300 chips)" in labels, labels
    # Saved with the table: a restarted bot has the new settings.
    await bot.close()
    bot2 = await poker_bot()
    assert live_table(bot2, world).settings.max_buy_in == 300


async def test_leaving_during_a_hand_folds_and_pays_out_at_the_end(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    guild = world.guild.id
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    live = live_table(bot, world)
    leaver = await _actor(bot, world)
    stack_after_ante = live.engine.public_view().seats[live.engine.seat_of(str(leaver.id))].stack
    r = await emu.run_command(leaver, world.channel, "poker leave", {})
    assert r.ephemeral and "stand up when this hand ends" in r.content
    assert live.engine.in_hand
    # No next hand to sit out of or come back to ("Welcome back: you're in the next hand"
    # was said to a player about to be paid out).
    for command in ("poker back", "poker sitout"):
        r = await emu.run_command(leaver, world.channel, command, {})
        assert r.ephemeral and r.content == "You are standing up when this hand ends.", r.content
    # ...and their own panel (My hand) offers neither: only moves the table would take.
    panel = await emu.click(leaver, await current_table_message(emu, world), label="My hand")
    assert panel.type == 4 and panel.ephemeral, panel.content
    labels = set(panel.message.button_labels)
    assert not {"Sit out next hand", "Back"} & labels, labels
    # The other two finish the hand by folding to a bet.
    while live.engine.in_hand:
        await emu.idle()
        table = await current_table_message(emu, world)
        actor = await _actor(bot, world)
        labels = table.button_labels
        label = next((b for b in labels if b.startswith("Bet ")), None) or "Fold"
        r = await emu.click(actor, table, label=label)
        assert r.type == 7, r.content
    await emu.idle()
    assert not live.seated(leaver.id)
    account = await bot.db.balance(guild, leaver.id)
    settings = await bot.db.get_settings(guild)
    assert account == settings.starting_bankroll - 40 + stack_after_ante
    assert (await bot.db.chip_audit(guild)).ok
