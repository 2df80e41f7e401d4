"""A tournament under Discord's failures: a table's thread deleted by a moderator (its
players play on at another table, their chips with them), the bot killed at the moments a
tournament changes its seats, a long 429 on the answer that ends a hand."""

from __future__ import annotations

from typing import Any

from tests.bot.driver import act_at_a_table, two_table_tournament
from tests.emulator import Emulator, World

STACK = 100


def _seated(tables: list[Any]) -> dict[str, int]:
    return {s.player_id: s.stack for t in tables for s in t.engine.seats if s is not None}


async def test_a_tournament_table_whose_thread_is_deleted_mid_hand_plays_on_elsewhere(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Nobody can play at a table in a deleted thread: its hand is void (every chip back
    where it was at the deal) and its players sit down at a new table of the tournament with
    their stacks, every tournament chip still in play, and the tournament goes on."""
    bot = await poker_bot()
    _, run = await two_table_tournament(
        emu, world, bot, ("erin", "frank", "grace", "heidi"), starting_stack=STACK, players=8
    )
    cog = bot.get_cog("Tournaments")
    tables = cog.tables_of(run)
    assert len(tables) == 2
    gone = next(t for t in tables if t.engine.in_hand)
    dealt = dict(gone.meta.hand.start_stacks)
    thread = next(t for t in emu.threads(world.channel) if t.id == gone.channel_id)
    threads = {t.id: t for t in emu.threads(world.channel)}
    # A bet or two at that table first, so that the hand has chips in the middle.
    for _ in range(3):
        await act_at_a_table(emu, world, bot, [gone], threads, list(world.players))
        await emu.idle()
    thread.deleted = True  # a moderator deletes the thread
    emu.dispatch(
        "THREAD_DELETE",
        {
            "id": str(thread.id),
            "guild_id": str(world.guild.id),
            "parent_id": str(world.channel.id),
            "type": thread.type,
        },
    )
    await emu.wait_for(lambda: gone.closed, timeout=3)
    await emu.wait_for(lambda: len(_seated(cog.tables_of(run))) == 8, timeout=5)
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
    assert moved_to.channel_id != thread.id
    await emu.wait_for(lambda: moved_to.engine.in_hand, timeout=5)
    # The lobby's channel says where they went (a link to their new table's thread).
    said = [m.text for m in emu.channel_messages(world.channel) if "was deleted" in m.text]
    assert said and f"<#{moved_to.channel_id}>" in said[-1], said
