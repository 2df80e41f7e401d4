"""Start the poker bot: settings from the environment / .env, then run until stopped.

``python bot.py backup [PATH]`` instead backs the database up (see :mod:`data.backup`). Each
way of failing to start prints one line beginning "Cannot start:" and exits with its own code:
2 a setting (or the command line), 3 the token, 4 Discord unreachable, 5 an intent, 6 this
machine (the database, the metrics port).
"""

from __future__ import annotations

import logging
import sys

import aiohttp
import discord
from dotenv import load_dotenv

import data.backup
from cogs.app import CannotStart, create_bot
from cogs.config import Settings, SettingsError, apply_endpoints
from cogs.transport import DiscordUnreachable

USAGE = "`python bot.py` runs the bot; `python bot.py backup [PATH]` backs its database up."


def main() -> int:
    if sys.argv[1:2] not in ([], ["backup"]):
        # Never the bot itself for a command it does not know: a mistyped one would start a
        # second process on the same database.
        print(f"Cannot start: unknown command {sys.argv[1]!r}. {USAGE}", file=sys.stderr)
        return 2
    command = sys.argv[1:2] == ["backup"]
    try:
        # The process environment wins over .env, so tests and deployments can override it.
        load_dotenv(override=False)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"Cannot start: .env cannot be read as UTF-8 text ({exc}).", file=sys.stderr)
        return 2
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
    except CannotStart as exc:
        print(f"Cannot start: {exc}", file=sys.stderr)
        return 6
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
