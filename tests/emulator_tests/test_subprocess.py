"""The bot as a separate process: started with the env settings, SIGKILLed, started again
against the same emulator state (messages, users, commands), with its SQLite file kept."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

from tests.emulator import BotProcess, Emulator, World

EXAMPLE_BOT = [sys.executable, "tests/emulator/example_bot.py"]


async def test_start_kill_restart(
    emu: Emulator, world: World, bot_process: Callable[..., BotProcess]
) -> None:
    proc = bot_process(EXAMPLE_BOT)
    await proc.start()
    assert proc.ready_after is not None and proc.ready_after < 10
    alice, bob = world.players[:2]
    created = await emu.run_command(alice, world.channel, "poker create", {"variant": "lowball"})
    assert created.content == "Table 1: lowball, 6 seats"
    joined = await emu.click(alice, created.message, "table:1:join")
    assert joined.content == "Table 1: 1 seated"

    proc.kill()
    assert await proc.wait_exit() == -9
    await emu.wait_for(lambda: not emu.connected)

    await proc.start()
    assert emu.identify_count == 2 and proc.starts == 2
    # The message posted by the first process is still there, and its DynamicItem button still
    # works: the new process rebuilds it from the custom_id and finds the table in SQLite.
    again = await emu.click(bob, created.message, "table:1:join")
    assert again.type == 7 and again.content == "Table 1: 2 seated"
    assert proc.database_path.exists()
    assert "logging in using static token" in proc.output


async def test_process_that_exits_is_reported(
    emu: Emulator, bot_process: Callable[..., BotProcess]
) -> None:
    proc = bot_process([sys.executable, "-c", "raise SystemExit('no bot here')"])
    with pytest.raises(RuntimeError, match="no bot here"):
        await proc.start(timeout=10)
    assert proc.environment()["DISCORD_API_BASE"] == emu.api_base
