"""Fold pressed where checking costs nothing asks first: check instead, or fold anyway."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.bot.driver import create_table, live_table, table_message
from tests.emulator import Emulator, World


async def _dealt(emu: Emulator, world: World, bot: Any) -> tuple[Any, Any, Any]:
    """Three players, antes only: the first to act owes nothing. Returns the live table, the
    player to act and the table message."""
    lobby = await create_table(emu, world, world.players[:3], stake=2, ante=1, auto_deal=0)
    await emu.click(world.players[0], lobby, label="Deal")
    await emu.idle()
    live = live_table(bot, world)
    pid = live.engine.pending[0].player_id
    actor = next(p for p in world.players if str(p.id) == pid)
    return live, actor, table_message(emu, world)


async def test_fold_with_a_free_check_asks_and_changes_nothing_until_answered(
    poker_bot: Any, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    live, actor, table = await _dealt(emu, world, bot)
    before = (live.engine.pending, table.text, table.button_labels)

    asked = await emu.click(actor, table, label="Fold")
    assert asked.type == 4 and asked.ephemeral, asked.content
    assert asked.content == "Nothing to call: you can check for free. Fold anyway?"
    assert asked.message.button_labels == ["Check", "Fold anyway"]
    await emu.idle()
    assert (live.engine.pending, table.text, table.button_labels) == before

    twice = await emu.click(actor, table, label="Fold")  # asked again, answered later
    folded = await emu.click(actor, asked.message, label="Fold anyway")
    assert folded.type == 7, folded.content
    assert asked.message.content == "You fold." and not asked.message.button_labels
    await emu.idle()
    seat = next(s for s in live.engine.public_view().seats if s.player_id == str(actor.id))
    assert seat.folded
    assert "folds" in table_message(emu, world).text

    # A prompt's buttons belong to the turn it was asked in: a late answer changes nothing.
    after = (live.engine.pending, table_message(emu, world).text)
    late = await emu.click(actor, twice.message, label="Check")
    assert late.ephemeral and late.content, late.content
    await emu.idle()
    assert (live.engine.pending, table_message(emu, world).text) == after


async def test_the_prompt_checks_instead(poker_bot: Any, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    live, actor, table = await _dealt(emu, world, bot)
    asked = await emu.click(actor, table, label="Fold")
    checked = await emu.click(actor, asked.message, label="Check")
    assert checked.type == 7, checked.content
    assert asked.message.content == "You check." and not asked.message.button_labels
    await emu.idle()
    assert live.engine.pending[0].player_id != str(actor.id)
    assert not any(s.folded for s in live.engine.public_view().seats)
    assert "checks" in table_message(emu, world).text


async def test_fold_facing_a_bet_folds_at_once(poker_bot: Any, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    live, actor, table = await _dealt(emu, world, bot)
    await emu.click(actor, table, label="Bet 2")
    await emu.idle()
    nxt = next(p for p in world.players if str(p.id) == live.engine.pending[0].player_id)
    r = await emu.click(nxt, table_message(emu, world), label="Fold")
    assert r.type == 7, r.content
    await emu.idle()
    seat = next(s for s in live.engine.public_view().seats if s.player_id == str(nxt.id))
    assert seat.folded


async def test_a_slow_answer_to_the_prompt_does_not_hold_the_table_up(
    poker_bot: Any, emu: Emulator, world: World
) -> None:
    """Discord rate-limits the prompt's answer for longer than an interaction lives: the fold
    is made and the table shows it at once all the same."""
    bot = await poker_bot()
    live, actor, table = await _dealt(emu, world, bot)
    asked = await emu.click(actor, table, label="Fold")
    fault = emu.faults.rate_limit("interaction_callback", retry_after=3.5)
    pressed = asyncio.ensure_future(
        emu.click(actor, asked.message, label="Fold anyway", timeout=10, raise_on_failure=False)
    )
    await emu.wait_for(lambda: "folds" in table_message(emu, world).text, timeout=2)
    assert live.engine.pending[0].player_id != str(actor.id)
    await pressed
    assert fault.hits, "the 429 was not served"
    emu.faults.clear()
