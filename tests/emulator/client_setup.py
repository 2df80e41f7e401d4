"""Pointing discord.py at a Discord-compatible server (the emulator, a proxy, a gateway).

discord.py 2.7 builds every REST URL (the bot's HTTP client and the webhook/interaction adapter
alike) from the class attribute ``discord.http.Route.BASE`` and opens the gateway at
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a ``yarl.URL``; a plain ``Client``/``Bot``
never asks ``GET /gateway/bot``).  Both are process-wide.  Set them:

* after ``discord.http._set_api_version(...)`` if that is called at all (it resets ``Route.BASE``);
* before ``Client.login()`` / ``Client.start()`` / ``Client.run()``.

``bot.py`` does the same from ``DISCORD_API_BASE`` (e.g. ``http://127.0.0.1:PORT/api/v10``) and
``DISCORD_GATEWAY_URL`` (e.g. ``ws://127.0.0.1:PORT/gateway``); unset, discord.py talks to Discord.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord.gateway
import discord.http
import yarl


@dataclass(frozen=True)
class DiscordEndpoints:
    api_base: str
    gateway: yarl.URL


def current_endpoints() -> DiscordEndpoints:
    return DiscordEndpoints(
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )


def point_discordpy_at(api_base: str | None, gateway_url: str | None) -> DiscordEndpoints:
    """Sets ``Route.BASE`` and ``DEFAULT_GATEWAY`` (a ``None`` leaves that one alone) and returns
    the previous values, for :func:`restore_endpoints`."""
    previous = current_endpoints()
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return previous


def restore_endpoints(previous: DiscordEndpoints) -> None:
    discord.http.Route.BASE = previous.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = previous.gateway


def is_local(endpoints: DiscordEndpoints | None = None) -> bool:
    """Whether both endpoints point at this machine (nothing can reach the real Discord)."""
    ep = endpoints or current_endpoints()
    api = yarl.URL(ep.api_base)
    return api.host in ("127.0.0.1", "localhost", "::1") and ep.gateway.host in (
        "127.0.0.1",
        "localhost",
        "::1",
    )
