"""Start the poker bot: settings from the environment / .env, then run until stopped.

``python bot.py backup [PATH]`` instead backs the database up (see :mod:`data.backup`).
"""

from __future__ import annotations

import logging
import sys

import aiohttp
import discord
from dotenv import load_dotenv

import data.backup
from cogs.app import create_bot
from cogs.config import Settings, SettingsError, apply_endpoints
from cogs.transport import DiscordUnreachable


def main() -> int:
    # The process environment wins over .env, so tests and deployments can override it.
    load_dotenv(override=False)
    command = sys.argv[1:2] == ["backup"]
    try:
        settings = Settings.from_env(need_token=not command)
    except SettingsError as exc:
        print(f"Cannot start: {exc}", file=sys.stderr)
        return 2
    if command:
        return data.backup.main(
            sys.argv[2:], database=settings.database, folder=settings.backup_dir
        )
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    apply_endpoints(settings)
    bot = create_bot(settings, stop_on_signals=True)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(
            "Cannot start: Discord refused the token. Check DISCORD_TOKEN "
            "(Developer Portal > your application > Bot > Reset Token).",
            file=sys.stderr,
        )
        return 3
    except (aiohttp.ClientConnectionError, OSError, TimeoutError, DiscordUnreachable) as exc:
        # (cogs/transport.py wraps the network's own error: that one says what happened)
        cause = exc.__cause__ if isinstance(exc, DiscordUnreachable) and exc.__cause__ else exc
        print(
            f"Cannot start: Discord can't be reached ({cause or type(cause).__name__}).",
            file=sys.stderr,
        )
        return 4
    except discord.PrivilegedIntentsRequired:
        print(
            "Cannot start: the bot asks for an intent that is not enabled in the Developer Portal.",
            file=sys.stderr,
        )
        return 5
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
