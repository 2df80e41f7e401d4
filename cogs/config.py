"""Settings read from the environment (and ``.env``), and pointing discord.py at its endpoints."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import yarl

DEFAULT_DATABASE = Path(__file__).resolve().parent.parent / "data" / "poker.db"
# Discord's ids (servers, users) are 64-bit; far more shards than any bot could run.
MAX_ID = 2**63 - 1
MAX_SHARDS = 100_000
# Backups taken more often than this would copy the database over and over to no purpose.
MIN_BACKUP_HOURS = 1 / 60

# The levels the settings page offers (logging also knows CRITICAL, which the bot never logs).
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class SettingsError(Exception):
    """A required setting is missing or malformed."""


@dataclass(frozen=True)
class Settings:
    """Everything the process is configured with. See ``.env.example`` for each key."""

    token: str
    database_path: str
    api_base: str | None = None
    gateway_url: str | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    database_url: str | None = None
    """A PostgreSQL server (``postgresql://...``) to use instead of the SQLite file."""
    press_limit: int = 8
    """Presses one member may make on one table in two seconds (``PRESS_LIMIT``; 0: no limit).
    More is faster than anyone plays: the extra presses are turned away (cogs.routing)."""
    backup_dir: str | None = None
    """Where the automatic backups of the SQLite file go; None: no automatic backups."""
    backup_hours: float = 24.0
    """Hours between two automatic backups."""
    backup_keep: int = 7
    """How many automatic backups are kept (the oldest beyond are deleted)."""
    metrics_port: int | None = None
    """Where ``/healthz`` and ``/metrics`` are served (``METRICS_PORT``); None: not at all."""
    metrics_host: str = "127.0.0.1"

    @property
    def database(self) -> str:
        """What :meth:`data.Database.open` is given: the server if one is set, else the file."""
        return self.database_url or self.database_path

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process holds the shard Discord sends ``guild_id``'s events to.

        A process that runs every shard (no ``SHARD_IDS``) owns every server; DMs carry no
        server and, as Discord does, belong to shard 0.
        """
        if self.shard_ids is None or self.shard_count is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    @property
    def syncs_commands(self) -> bool:
        """One process syncs the application commands: the one holding shard 0 (commands are
        global, and a sync per process would only spend the bot's REST budget)."""
        return self.shard_ids is None or 0 in self.shard_ids

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, *, need_token: bool = True) -> Settings:
        """The settings in ``env`` (default: the process environment). ``need_token=False``
        for the commands that do not log in (``python bot.py backup``)."""
        source = dict(os.environ) if env is None else env
        token = source.get("DISCORD_TOKEN", "").strip()
        if not token and need_token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot token."
            )
        guild = source.get("DEV_GUILD_ID", "").strip()
        if guild and not (_whole(guild) and 0 < int(guild) <= MAX_ID):
            raise SettingsError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        shard_count, shard_ids = _shards(source)
        url = source.get("DATABASE_URL", "").strip()
        if url and not (url.startswith(("postgresql://", "postgres://")) and _readable(url)):
            raise SettingsError(
                "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/db); "
                "leave it empty to use the SQLite file at DATABASE_PATH."
            )
        path = source.get("DATABASE_PATH", "").strip() or str(DEFAULT_DATABASE)
        if path == ":memory:":
            raise SettingsError(
                "DATABASE_PATH=:memory: would lose every bankroll and table when the bot stops: "
                "give a file (or leave it empty for data/poker.db)."
            )
        press_limit = source.get("PRESS_LIMIT", "").strip() or "8"
        if not _whole(press_limit):
            raise SettingsError(
                f"PRESS_LIMIT must be a whole number (0: no limit), not {press_limit!r}."
            )
        metrics_port = _metrics_port(source.get("METRICS_PORT", "").strip())
        api_base = _url("DISCORD_API_BASE", source, ("http", "https"))
        gateway_url = _url("DISCORD_GATEWAY_URL", source, ("ws", "wss"))
        log_level = source.get("LOG_LEVEL", "").strip().upper() or "INFO"
        if log_level not in LOG_LEVELS:
            raise SettingsError(
                f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}."
            )
        return cls(
            token=token,
            database_path=path,
            api_base=api_base,
            gateway_url=gateway_url,
            dev_guild_id=int(guild) if guild else None,
            log_level=log_level,
            shard_count=shard_count,
            shard_ids=shard_ids,
            database_url=url or None,
            press_limit=int(press_limit),
            metrics_port=metrics_port,
            metrics_host=source.get("METRICS_HOST", "").strip() or "127.0.0.1",
            **_backups(source),
        )


def _backups(source: dict[str, str]) -> dict[str, Any]:
    """``BACKUP_DIR``, ``BACKUP_HOURS`` (default 24) and ``BACKUP_KEEP`` (default 7)."""
    raw_hours = source.get("BACKUP_HOURS", "").strip() or "24"
    try:
        hours = float(raw_hours)
    except ValueError:
        hours = 0.0
    if not MIN_BACKUP_HOURS <= hours < float("inf"):
        raise SettingsError(
            "BACKUP_HOURS must be a number of hours, at least one minute (like 24 or 0.5), "
            f"not {raw_hours!r}."
        )
    raw_keep = source.get("BACKUP_KEEP", "").strip() or "7"
    if not _whole(raw_keep) or int(raw_keep) < 1:
        raise SettingsError(
            f"BACKUP_KEEP must be a whole number of backups (1 or more), not {raw_keep!r}."
        )
    folder = source.get("BACKUP_DIR", "").strip()
    return {"backup_dir": folder or None, "backup_hours": hours, "backup_keep": int(raw_keep)}


def _metrics_port(raw: str) -> int | None:
    if not raw:
        return None
    if not _whole(raw) or not 0 <= int(raw) <= 65535:
        raise SettingsError(
            f"METRICS_PORT must be a port number (1-65535; 0 picks a free one), not {raw!r}."
        )
    return int(raw)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord dispatches a server's events to (its id's timestamp bits, modulo)."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def _shards(source: dict[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` (``0,1`` or ``0-3``), checked against each other."""
    raw_count = source.get("SHARD_COUNT", "").strip()
    raw_ids = source.get("SHARD_IDS", "").strip()
    count: int | None = None
    if raw_count:
        if not _whole(raw_count) or not 1 <= int(raw_count) <= MAX_SHARDS:
            raise SettingsError(
                f"SHARD_COUNT must be a whole number of shards (1 to {MAX_SHARDS:,}), "
                f"not {raw_count!r}."
            )
        count = int(raw_count)
    if not raw_ids:
        return count, None
    if count is None:
        raise SettingsError(
            "SHARD_IDS needs SHARD_COUNT: every process must agree on how many shards there are."
        )
    ids: list[int] = []
    for part in raw_ids.split(","):
        first, dash, last = part.strip().partition("-")
        if not _whole(first.strip()) or (dash and not _whole(last.strip())):
            raise SettingsError(
                f"SHARD_IDS must list shard numbers like 0,1 or a range like 0-3, not {raw_ids!r}."
            )
        low = int(first)
        high = int(last) if dash else low
        if high < low:
            raise SettingsError(f"SHARD_IDS range {part.strip()!r} runs backwards.")
        if high >= count:  # (checked before the range is made: it could be huge)
            raise SettingsError(
                f"SHARD_IDS {part.strip()!r} names shards that do not exist with "
                f"SHARD_COUNT={count}: shards run 0 to {count - 1}."
            )
        ids.extend(range(low, high + 1))
    if len(set(ids)) != len(ids):
        raise SettingsError(f"SHARD_IDS {raw_ids!r} names a shard twice.")
    return count, tuple(sorted(ids))


def _whole(raw: str) -> bool:
    """Whether ``raw`` is a whole number written in ASCII digits (``str.isdigit`` also takes
    ``²`` and other digits ``int`` refuses).

    >>> _whole("12"), _whole("²"), _whole("-1"), _whole("")
    (True, False, False, False)
    """
    return raw.isascii() and raw.isdigit()


def _readable(url: str) -> bool:
    """Whether ``url`` parses, its port included (``yarl`` reads the port lazily)."""
    try:
        _ = yarl.URL(url).port
    except ValueError:
        return False
    return True


def _url(name: str, source: dict[str, str], schemes: tuple[str, ...]) -> str | None:
    """An endpoint setting (``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``): empty, or a URL
    of one of ``schemes`` with a host (and a valid port, if any)."""
    raw = source.get(name, "").strip()
    if not raw:
        return None
    try:
        url = yarl.URL(raw)
        port = url.port
    except ValueError:
        url, port = None, None
    if (
        url is None
        or url.scheme not in schemes
        or not url.host
        or (port is not None and not 0 < port < 65536)
    ):
        raise SettingsError(
            f"{name} must be a {' or '.join(s + '://' for s in schemes)} URL with a host, "
            f"not {raw!r}."
        )
    return raw


def apply_endpoints(settings: Settings) -> None:
    """Send REST calls and the gateway to the configured places (a proxy, or the test emulator).

    Both are class attributes read at request/connection time, so this must run before login.
    Unset, discord.py talks to Discord itself.
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
