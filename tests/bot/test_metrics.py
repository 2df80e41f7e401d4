"""The operators' window (``METRICS_PORT``): ``/healthz`` and ``/metrics`` scraped over HTTP
while the emulator drives play, the figures checked to move with what was played."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from cogs.app import PokerBot
from cogs.config import Settings, SettingsError
from tests.bot.conftest import StartPokerBot
from tests.bot.driver import create_table, deal, play_hand
from tests.emulator import Emulator, World

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def _get(bot: PokerBot, path: str) -> tuple[int, str, str]:
    assert bot.metrics is not None and bot.metrics.port
    url = f"http://127.0.0.1:{bot.metrics.port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, response.headers.get("Content-Type", ""), await response.text()


async def _scrape(bot: PokerBot) -> Samples:
    status, content_type, text = await _get(bot, "/metrics")
    assert status == 200 and content_type.startswith("text/plain"), (status, content_type)
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_metrics_move_with_play(
    poker_bot: StartPokerBot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot(metrics_port=0)
    assert (await _get(bot, "/healthz"))[:1] == (200,)
    before = await _scrape(bot)
    assert _value(before, "poker_open_tables") == 0

    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, auto_deal=0)
    await deal(emu, world, alice)
    await play_hand(emu, world, bot)
    await emu.idle()
    after = await _scrape(bot)

    def grew(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    assert _value(after, "poker_open_tables") == 1
    assert grew("poker_hands_finished_total") == 1
    assert grew("poker_interactions_total", kind="command", outcome="accepted") >= 2
    presses = grew("poker_interactions_total", kind="component", outcome="accepted")
    assert presses >= 3  # two Sit down, and the actions of the hand
    # Every interaction answered had its first answer timed.
    answered = sum(
        grew("poker_interactions_total", kind=kind, outcome="accepted")
        for kind in ("command", "component", "modal")
    )
    assert grew("poker_first_response_seconds_count") == answered
    assert grew("poker_db_transaction_seconds_count", kind="write") >= presses
    assert grew("poker_rest_calls_total", kind="interaction") >= answered
    assert grew("poker_rest_calls_total", kind="rest") > 0
    assert _value(after, "poker_errors_logged_total") == 0

    # A refusal is counted as one.
    r = await emu.click(world.players[2], await _lobby(emu, world), label="Deal")
    assert r.ephemeral, r.content
    refused = await _scrape(bot)
    assert _value(refused, "poker_interactions_total", kind="component", outcome="refused") == 1

    # Discord's 429s are counted (discord.py waits and retries them).
    mark = emu.mark()
    emu.faults.rate_limit("POST /channels/{channel_id}/messages", count=2, retry_after=0.05)
    await deal(emu, world, alice)
    await emu.wait_for(lambda: sum(c.status == 429 for c in emu.calls_since(mark)) == 2)
    await emu.idle(quiet=0.2)  # the retries after the second one
    limited = await _scrape(bot)
    assert _value(limited, "poker_rest_429_total") == 2


async def test_healthz_says_why(poker_bot: StartPokerBot, emu: Emulator, world: World) -> None:
    bot = await poker_bot(metrics_port=0)
    assert await _get(bot, "/healthz") == (200, "text/plain; charset=utf-8", "ok\n")
    await bot.db.close()  # the database stops answering
    status, _, reason = await _get(bot, "/healthz")
    assert status == 503 and reason.startswith("database:"), (status, reason)


async def _lobby(emu: Emulator, world: World) -> Any:
    for message in reversed(emu.channel_messages(world.channel)):
        if "Deal" in message.button_labels:
            return message
    raise AssertionError("no table message with a Deal button")


def test_metrics_settings() -> None:
    def settings(**env: str) -> Settings:
        return Settings.from_env({"DISCORD_TOKEN": "t", **env})

    assert settings().metrics_port is None  # off by default
    on = settings(METRICS_PORT="9108")
    assert (on.metrics_port, on.metrics_host) == (9108, "127.0.0.1")
    assert settings(METRICS_PORT="9108", METRICS_HOST="0.0.0.0").metrics_host == "0.0.0.0"
    for wrong in ("http", "-1", "65536"):
        with pytest.raises(SettingsError, match="METRICS_PORT must be a port number"):
            settings(METRICS_PORT=wrong)
