"""One way out: a slash command and a component press that fail the same way get the same
answer, and the failure is logged once, with its traceback."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cogs import kit
from cogs.routing import router_of
from tables.errors import TableProblem
from tests.bot.driver import create_table, deal, live_table, table_message
from tests.emulator import Emulator, World


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_commands_and_presses_answer_failures_alike(
    poker_bot, emu: Emulator, world: World, caplog: pytest.LogCaptureFixture, monkeypatch: Any
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await deal(emu, world, alice)
    message = table_message(emu, world)
    live = live_table(bot, world)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise TableProblem("Not now.")

    caplog.clear()
    monkeypatch.setattr(bot.db, "balance", broken)
    monkeypatch.setattr(router_of(bot), "show_hand", broken)
    command = await emu.run_command(alice, world.channel, "balance", {})
    press = await emu.click(alice, message, custom_id=f"pk:l:{live.id}:hand")
    for answer in (command, press):
        assert answer.ephemeral and answer.content == str(kit.UNEXPECTED), answer.content
    logged = errors(caplog)
    assert len(logged) == 2, [r.getMessage() for r in logged]  # once each
    assert all(r.exc_info and "a bug" in str(r.exc_info[1]) for r in logged)
    assert "/balance failed" in logged[0].getMessage()
    assert "pk:l:" in logged[1].getMessage()

    caplog.clear()
    monkeypatch.setattr(bot.db, "balance", refused)
    monkeypatch.setattr(router_of(bot), "show_hand", refused)
    command = await emu.run_command(alice, world.channel, "balance", {})
    press = await emu.click(alice, message, custom_id=f"pk:l:{live.id}:hand")
    assert command.content == press.content == "Not now."
    assert not errors(caplog)
    emu.assert_clean()
