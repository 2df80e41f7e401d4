"""Settings read from the environment (and ``.env``), and pointing discord.py at its endpoints."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import yarl

DEFAULT_DATABASE = Path(__file__).resolve().parent.parent / "data" / "poker.db"
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
        if guild and not guild.isdigit():
            raise SettingsError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        shard_count, shard_ids = _shards(source)
        url = source.get("DATABASE_URL", "").strip()
        if url and not url.startswith(("postgresql://", "postgres://")):
            raise SettingsError(
                "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/db); "
                "leave it empty to use the SQLite file at DATABASE_PATH."
            )
        press_limit = source.get("PRESS_LIMIT", "").strip() or "8"
        if not press_limit.isdigit():
            raise SettingsError(
                f"PRESS_LIMIT must be a whole number (0: no limit), not {press_limit!r}."
            )
        metrics_port = _metrics_port(source.get("METRICS_PORT", "").strip())
        log_level = source.get("LOG_LEVEL", "").strip().upper() or "INFO"
        if log_level not in LOG_LEVELS:
            raise SettingsError(
                f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}."
            )
        return cls(
            token=token,
            database_path=source.get("DATABASE_PATH", "").strip() or str(DEFAULT_DATABASE),
            api_base=source.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=source.get("DISCORD_GATEWAY_URL", "").strip() or None,
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
    if not 0 < hours < float("inf"):
        raise SettingsError(
            f"BACKUP_HOURS must be a number of hours above 0 (like 24 or 0.5), not {raw_hours!r}."
        )
    raw_keep = source.get("BACKUP_KEEP", "").strip() or "7"
    if not raw_keep.isdigit() or int(raw_keep) < 1:
        raise SettingsError(
            f"BACKUP_KEEP must be a whole number of backups (1 or more), not {raw_keep!r}."
        )
    folder = source.get("BACKUP_DIR", "").strip()
    return {"backup_dir": folder or None, "backup_hours": hours, "backup_keep": int(raw_keep)}


def _metrics_port(raw: str) -> int | None:
    if not raw:
        return None
    if not raw.isdigit() or not 0 <= int(raw) <= 65535:
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
        if not raw_count.isdigit() or int(raw_count) < 1:
            raise SettingsError(
                f"SHARD_COUNT must be a whole number of shards (1 or more), not {raw_count!r}."
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
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise SettingsError(
                f"SHARD_IDS must list shard numbers like 0,1 or a range like 0-3, not {raw_ids!r}."
            )
        low = int(first)
        high = int(last) if dash else low
        if high < low:
            raise SettingsError(f"SHARD_IDS range {part.strip()!r} runs backwards.")
        ids.extend(range(low, high + 1))
    wrong = sorted({i for i in ids if i >= count})
    if wrong:
        raise SettingsError(
            f"SHARD_IDS {wrong} do not exist with SHARD_COUNT={count}: shards run 0 to {count - 1}."
        )
    if len(set(ids)) != len(ids):
        raise SettingsError(f"SHARD_IDS {raw_ids!r} names a shard twice.")
    return count, tuple(sorted(ids))


def apply_endpoints(settings: Settings) -> None:
    """Send REST calls and the gateway to the configured places (a proxy, or the test emulator).

    Both are class attributes read at request/connection time, so this must run before login.
    Unset, discord.py talks to Discord itself.
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
