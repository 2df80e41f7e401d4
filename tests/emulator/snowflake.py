"""Snowflake ids and the emulator's clock.

Discord ids are "snowflakes": ``(ms since 2015-01-01) << 22 | worker << 17 | process << 12 | n``.
discord.py derives ``created_at`` (and an interaction's ``expires_at``) from them, so the emulator
hands out real, time-ordered snowflakes taken from its own clock.  The clock is the wall clock plus
an offset that tests can move forward (``Clock.advance``) to jump past the 3-second interaction
deadline or the 15-minute token lifetime without sleeping.
"""

from __future__ import annotations

import datetime as dt
import threading
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class Clock:
    """Wall-clock time plus an adjustable offset (seconds)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        """Seconds since the Unix epoch, as the emulator sees it."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Jump the emulator's clock forward (the bot's own clock is untouched)."""
        self.offset += seconds

    def iso(self, when: float | None = None) -> str:
        """ISO-8601 timestamp as Discord writes it (``2024-01-01T00:00:00.000000+00:00``)."""
        t = self.now() if when is None else when
        return dt.datetime.fromtimestamp(t, dt.UTC).isoformat()


class SnowflakeFactory:
    """Produces unique, increasing snowflakes from a :class:`Clock`."""

    def __init__(self, clock: Clock, worker: int = 1, process: int = 0) -> None:
        self._clock = clock
        self._worker = worker & 0x1F
        self._process = process & 0x1F
        self._last_ms = 0
        self._increment = 0
        self._lock = threading.Lock()

    def next(self) -> int:
        with self._lock:
            ms = int(self._clock.now() * 1000) - DISCORD_EPOCH_MS
            if ms <= self._last_ms:
                ms = self._last_ms
                self._increment += 1
                if self._increment > 0xFFF:
                    ms += 1
                    self._increment = 0
            else:
                self._increment = 0
            self._last_ms = ms
            return (ms << 22) | (self._worker << 17) | (self._process << 12) | self._increment


def snowflake_time(snowflake: int) -> float:
    """Unix time (seconds) encoded in a snowflake."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000.0
