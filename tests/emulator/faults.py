"""Faults on demand: 429s, 5xx, arbitrary error answers and dropped connections for the next N
matching REST calls.

A fault matches on the call's route key (``"POST /channels/{channel_id}/messages"``), a bare route
(``"/channels/{channel_id}/messages"``, any method), a kind (``"interaction_callback"``,
``"interaction_webhook"``, ``"rest"``), a predicate over the :class:`RecordedCall`, or ``None`` for
every call.  Each fault answers ``count`` matching calls and then retires.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from .models import RecordedCall, User

RouteMatch = str | Callable[["RecordedCall"], bool] | None
KINDS = {"interaction_callback", "interaction_webhook", "rest"}


def route_matches(match: RouteMatch, call: RecordedCall) -> bool:
    if match is None:
        return True
    if callable(match):
        return bool(match(call))
    if match in KINDS:
        return call.kind == match
    if " " in match:
        return call.key == match
    return call.route == match


@dataclass
class Fault:
    match: RouteMatch
    remaining: int
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    name: str = "error"
    hits: list[RecordedCall] = field(default_factory=list)
    skip: int = 0
    """Matching calls let through untouched before this fault starts answering."""
    action: Callable[[RecordedCall], None] | None = None
    """Run when the fault answers a call, before the answer (e.g. kill the bot's process)."""
    applied: bool = False
    """A dropped connection (:meth:`Faults.disconnect`): whether the call was carried out
    before the connection went (its answer lost on the way back) or never reached Discord."""

    def response(self) -> web.Response:
        headers = {"Content-Type": "application/json", **self.headers}
        return web.Response(
            status=self.status, body=json.dumps(self.body).encode(), headers=headers
        )


class Faults:
    """The emulator's fault plan (``emu.faults``)."""

    def __init__(self) -> None:
        self.pending: list[Fault] = []
        self.fired: list[Fault] = []

    def rate_limit(
        self,
        route: RouteMatch = None,
        *,
        count: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
        scope: str | None = None,
        bucket: str = "emulated-bucket",
    ) -> Fault:
        """Answer the next ``count`` matching calls with 429 (``Via`` header and JSON body set,
        so discord.py sleeps ``retry_after`` and retries)."""
        scope = scope or ("global" if is_global else "user")
        reset = time.time() + retry_after
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{reset:.3f}",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Scope": scope,
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body: dict[str, Any] = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": is_global,
        }
        if is_global:
            body["code"] = 0
        return self._add(Fault(route, count, 429, body, headers, name="rate_limit"))

    def server_error(self, route: RouteMatch = None, *, count: int = 1, status: int = 500) -> Fault:
        """Answer the next ``count`` matching calls with a 5xx (discord.py retries 500/502/504
        after 1 s, 3 s, ...; other codes raise ``DiscordServerError``)."""
        body = {"message": "500: Internal Server Error", "code": 0}
        return self._add(Fault(route, count, status, body, name="server_error"))

    def disconnect(
        self, route: RouteMatch = None, *, count: int = 1, applied: bool = False
    ) -> Fault:
        """Drop the connection of the next ``count`` matching calls without an answer (the
        client sees the server disconnect: aiohttp's ``ServerDisconnectedError``, which
        discord.py does not retry). With ``applied`` the call is carried out first and only
        its answer is lost, as when the network fails on the way back."""
        body = {"message": "the connection was dropped", "code": 0}
        return self._add(Fault(route, count, 0, body, name="disconnect", applied=applied))

    def error(
        self,
        route: RouteMatch,
        *,
        status: int,
        code: int,
        message: str,
        count: int = 1,
        errors: dict[str, Any] | None = None,
    ) -> Fault:
        """Answer the next ``count`` matching calls with any Discord error body."""
        body: dict[str, Any] = {"message": message, "code": code}
        if errors is not None:
            body["errors"] = errors
        return self._add(Fault(route, count, status, body, name=f"error_{status}_{code}"))

    def tripwire(
        self,
        route: RouteMatch,
        action: Callable[[RecordedCall], None],
        *,
        skip: int = 0,
    ) -> Fault:
        """Let ``skip`` matching calls through, then on the next one run ``action(call)``
        (typically SIGKILL the bot's process) and drop that call: it is answered with a 500
        and not applied, as if the process had died just before Discord received it. On an
        ``interaction_callback`` this is a crash between the bot's database commit and its
        answer."""
        if skip < 0:
            raise ValueError("skip must be at least 0")
        body = {"message": "tripwire: the call never reached Discord", "code": 0}
        fault = Fault(route, 1, 500, body, name="tripwire", skip=skip, action=action)
        return self._add(fault)

    @staticmethod
    def close_dms(user: User) -> None:
        """Sending ``user`` a DM now fails with 403 ``{"code": 50007}`` (same as
        ``user.dms_open = False``); creating the DM channel still works, as on Discord."""
        user.dms_open = False

    @staticmethod
    def open_dms(user: User) -> None:
        user.dms_open = True

    def _add(self, fault: Fault) -> Fault:
        if fault.remaining < 1:
            raise ValueError("count must be at least 1")
        self.pending.append(fault)
        return fault

    def take(self, call: RecordedCall) -> Fault | None:
        for fault in self.pending:
            if route_matches(fault.match, call):
                if fault.skip > 0:
                    fault.skip -= 1
                    continue
                if fault.action is not None:
                    fault.action(call)
                fault.remaining -= 1
                fault.hits.append(call)
                if fault.remaining <= 0:
                    self.pending.remove(fault)
                    self.fired.append(fault)
                return fault
        return None

    def clear(self) -> None:
        self.pending.clear()
