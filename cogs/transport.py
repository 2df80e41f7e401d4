"""Requests to Discord whose answer never comes: the connection dropped, or the network
failed between the bot and Discord's API.

discord.py retries such a failure only for a connection reset on macOS or Windows (errno 54
or 10054) and otherwise lets through what aiohttp raised (``ServerDisconnectedError``,
``ClientOSError``...). No ``except discord.HTTPException`` catches those, so a dropped
connection ended whatever was under way as a bug: showing a table, a turn ping, a player's
DM, the answer to a press. Here both of discord.py's ways to Discord (the bot's REST client,
and the webhook adapter that answers interactions) turn them into
:class:`DiscordUnreachable`, a :class:`discord.DiscordServerError`, handled wherever Discord
failing is handled.

A request that may be sent twice is retried once first: a read, an edit, a deletion, and
the answer to an interaction, which Discord takes once (a second gets error 40060, which
here means the first arrived; likewise a second deletion's 404). Anything else (a new
message, a thread) may have been made before the connection went, so it is not sent again.
An interaction's answer, retried here or by discord.py after a 5xx, is given up once
Discord would no longer take it.

Both are patches of discord.py's internals (``HTTPClient.request`` and
``AsyncWebhookAdapter.request``): ``tests/bot/test_transport.py`` pins them and fails when an
upgrade changes them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final
from urllib.parse import urlsplit

import aiohttp
import discord
from discord.webhook.async_ import AsyncWebhookAdapter

log = logging.getLogger("poker.transport")

ALREADY_ANSWERED = 40060
"""Discord's code for a second answer to an interaction."""

ANSWER_WITHIN: Final = 3.0
"""Seconds after which Discord takes no answer to an interaction: an answer still trying then
is given up. discord.py retries a 5xx on it for 16 seconds (1, 3, 5 and 7 s apart), and what
waits behind it (a table's next change) would wait that long."""

CLOCK_SKEW: Final = 0.25
"""Seconds by which this machine's clock and Discord's may disagree (both keep to NTP)."""

_LOST = (aiohttp.ClientError, OSError)  # (TimeoutError is an OSError)
_AGAIN = frozenset({"GET", "PATCH", "PUT", "DELETE"})


class DiscordUnreachable(discord.DiscordServerError):
    """A request Discord gave no answer to: the connection dropped or could not be made."""

    def __init__(self, method: str, url: str, cause: BaseException) -> None:
        # No response to read a status or an error code from: neither exists.
        Exception.__init__(self, f"no answer from Discord to {method} {shown(url)}: {cause!r}")
        self.response = None  # type: ignore[assignment]
        self.status = 0
        self.code = 0
        self.text = repr(cause)


_TOKEN = re.compile(r"/(webhooks|interactions)/(\d+)/[^/?]+")


def shown(url: str) -> str:
    """``url`` as it may be logged: its path, without an interaction's token (which lets
    anyone answer in the bot's name for 15 minutes).

    >>> shown("https://discord.com/api/v10/interactions/123/aW50ZXJh/callback?with_response=1")
    '/interactions/123/…/callback'
    >>> shown("https://discord.com/api/v10/channels/5/messages")
    '/channels/5/messages'
    """
    path = urlsplit(url).path
    path = path.split("/api/v10", 1)[-1]
    return _TOKEN.sub(r"/\1/\2/…", path)


class AnswerExpired(DiscordUnreachable):
    """The answer to an interaction given up: Discord takes none this late."""


def _is_answer(method: str, url: str) -> bool:
    """Whether the request is the answer to an interaction (its callback)."""
    return method == "POST" and "/interactions/" in url and url.endswith("/callback")


async def _sent(
    send: Callable[[], Awaitable[Any]],
    method: str,
    url: str,
    interaction_id: int | None,
    files: Any,
) -> Any:
    """``send()``, its lost answer retried once where that is safe (see the module); the
    attached ``files`` are read again from their start."""
    try:
        return await send()
    except _LOST as lost:
        answer = interaction_id is not None and _is_answer(method, url)
        if method not in _AGAIN and not answer:
            raise DiscordUnreachable(method, url, lost) from lost
        log.warning(
            "no answer from Discord to %s %s (%r): sending it again", method, shown(url), lost
        )
        for file in files or ():
            file.reset(seek=True)  # (discord.py rewinds only from its second try on)
        try:
            return await send()
        except discord.HTTPException as refused:
            if answer and refused.code == ALREADY_ANSWERED:
                # The first answer arrived; only Discord's reply to it was lost.
                return {"interaction": {"id": str(interaction_id)}}
            if method == "DELETE" and refused.status == 404:
                return None  # deleted the first time
            raise
        except _LOST as again:
            raise DiscordUnreachable(method, url, again) from again


async def _in_time(
    sent: Coroutine[Any, Any, Any], interaction_id: int, token: str, url: str
) -> Any:
    """``sent``, the answer to an interaction, given up once Discord would no longer take it
    (:data:`ANSWER_WITHIN` after the interaction was made: discord.py retries a 5xx after 1,
    3, 5 and 7 seconds, and each late try only earns an "Unknown interaction")."""
    made = discord.utils.snowflake_time(interaction_id).timestamp()
    left = ANSWER_WITHIN - (time.time() - made)
    if not 0 < left <= ANSWER_WITHIN + CLOCK_SKEW:
        return await sent  # the clock disagrees with Discord's: no deadline to trust
    try:
        async with asyncio.timeout(left + CLOCK_SKEW):
            return await sent
    except TimeoutError as late:
        _given_up[token] = None
        if len(_given_up) > _GIVEN_UP_KEPT:
            del _given_up[next(iter(_given_up))]
        raise AnswerExpired("POST", url, late) from late


_given_up: dict[str, None] = {}
"""The tokens of the interactions whose answer was given up (the latest
:data:`_GIVEN_UP_KEPT`): whatever else would use them (a follow-up, an error's own answer)
fails at once, since Discord, never answered, takes nothing more for them."""
_GIVEN_UP_KEPT: Final = 1000


def install(http: Any) -> bool:
    """Route the bot's REST client ``http`` and every interaction's answers through
    :func:`_sent` (an answer through :func:`_in_time` too); False (nothing changed) if
    discord.py no longer has what is patched."""
    request = getattr(http, "request", None)
    adapter = getattr(AsyncWebhookAdapter, "request", None)
    if request is None or adapter is None:
        log.warning("discord.py has changed: a dropped connection will not be retried")
        return False

    async def rest(route: Any, **kwargs: Any) -> Any:
        send = lambda: request(route, **kwargs)  # noqa: E731
        return await _sent(send, route.method, route.url, None, kwargs.get("files"))

    http.request = rest
    if not getattr(adapter, "_answers_lost", False):

        @functools.wraps(adapter)  # (its own signature stays readable: see the tests)
        async def webhook(self: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
            interaction_id = getattr(route, "webhook_id", None)
            token = getattr(route, "webhook_token", None)
            if token in _given_up:
                raise AnswerExpired(route.method, route.url, TimeoutError("given up before"))
            sent = _sent(
                lambda: adapter(self, route, *args, **kwargs),
                route.method,
                route.url,
                interaction_id,
                kwargs.get("files"),
            )
            if interaction_id is None or token is None or not _is_answer(route.method, route.url):
                return await sent
            return await _in_time(sent, interaction_id, token, route.url)

        webhook._answers_lost = True  # type: ignore[attr-defined]
        AsyncWebhookAdapter.request = webhook  # type: ignore[method-assign]
    return True
