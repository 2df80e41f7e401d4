"""discord.py's clean-up of idle rate-limit buckets, amortised (cogs.app.amortise_bucket_cleanup):
a new bucket no longer costs a scan of all the others once there are 256 of them."""

from __future__ import annotations

from typing import Any

from cogs.app import create_bot
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
