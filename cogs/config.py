"""Settings read from the environment (and ``.env``), and pointing discord.py at its endpoints."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import discord
import yarl

DEFAULT_DATABASE = Path(__file__).resolve().parent.parent / "data" / "poker.db"


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

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        source = dict(os.environ) if env is None else env
        token = source.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot token."
            )
        guild = source.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        return cls(
            token=token,
            database_path=source.get("DATABASE_PATH", "").strip() or str(DEFAULT_DATABASE),
            api_base=source.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=source.get("DISCORD_GATEWAY_URL", "").strip() or None,
            dev_guild_id=int(guild) if guild else None,
            log_level=source.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
        )


def apply_endpoints(settings: Settings) -> None:
    """Send REST calls and the gateway to the configured places (a proxy, or the test emulator).

    Both are class attributes read at request/connection time, so this must run before login.
    Unset, discord.py talks to Discord itself.
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
