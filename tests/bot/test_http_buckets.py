"""discord.py's clean-up of idle rate-limit buckets, amortised (cogs.app.amortise_bucket_cleanup):
a new bucket no longer costs a scan of all the others once there are 256 of them."""

from __future__ import annotations

import asyncio
from typing import Any

from cogs.app import BUCKET_IDLE_SECONDS, create_bot
from cogs.config import Settings


async def test_idle_buckets_are_still_dropped_but_scans_are_rare() -> None:
    bot = create_bot(Settings(token="t", database_path=":memory:"))
    http: Any = bot.http
    scans = 0
    idle = {f"idle-{i}" for i in range(100)}
    for key in idle:
        http.get_ratelimit(key)._last_request = -1000.0  # 300 s and more ago: idle
    real_inactive = type(http.get_ratelimit("probe")).is_inactive

    def counting(self: Any) -> bool:
        nonlocal scans
        scans += 1
        return bool(real_inactive(self))

    type(http.get_ratelimit("probe")).is_inactive = counting
    try:
        for i in range(5000):
            http.get_ratelimit(f"channel-{i}")
    finally:
        type(http.get_ratelimit("probe")).is_inactive = real_inactive
    # discord.py alone scans every bucket at each of the ~4,750 additions past 256 (about
    # 12 million checks); amortised, a handful of scans of at most twice the live buckets.
    assert scans < 4 * 5100, scans
    assert not idle & set(http._buckets), "idle buckets were not dropped"


async def test_an_idle_bucket_is_dropped_soon_after_its_last_request_if_it_knows_nothing() -> None:
    bot = create_bot(Settings(token="t", database_path=":memory:"))
    http: Any = bot.http
    now = asyncio.get_running_loop().time()
    quiet = now - BUCKET_IDLE_SECONDS - 1

    def bucket(key: str, **state: Any) -> Any:
        made = http.get_ratelimit(key)
        made._last_request = quiet
        for name, value in state.items():
            setattr(made, name, value)
        return made

    bucket("done", expires=now - 5.0)  # its window has ended: a new one knows as much
    bucket("fresh")  # never rate-limited
    bucket("limited", expires=now + 30.0, remaining=0)  # inside a window: keep its count
    bucket("sending", outgoing=1)  # a request under way
    bucket("waiting")._pending_requests.append(asyncio.get_running_loop().create_future())
    http.get_ratelimit("recent")  # used just now
    for i in range(300):  # enough new buckets for a scan
        http.get_ratelimit(f"channel-{i}")
    kept = {"done", "fresh", "limited", "sending", "waiting", "recent"} & set(http._buckets)
    assert kept == {"limited", "sending", "waiting", "recent"}


async def test_the_bot_drops_idle_buckets_now_and_then_however_few() -> None:
    # Between the doublings, buckets idle since a player's last hand would stay: the trimmer's
    # chores scan them every few seconds, whatever their number.
    bot = create_bot(Settings(token="t", database_path=":memory:"))
    http: Any = bot.http
    quiet = asyncio.get_running_loop().time() - BUCKET_IDLE_SECONDS - 1
    for i in range(10):
        http.get_ratelimit(f"dm-{i}")._last_request = quiet
    http.get_ratelimit("recent")
    assert len(bot.trimmer.chores) == 1
    bot.trimmer.chores[0]()
    assert set(http._buckets) == {"recent"}
