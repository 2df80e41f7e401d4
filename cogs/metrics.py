"""The operators' window: ``/healthz`` and ``/metrics`` over HTTP, on the bot's own event loop.

Off unless ``METRICS_PORT`` is set (see ``.env.example``); bound to ``METRICS_HOST``, by default
127.0.0.1 so that only the machine itself (a supervisor, a Prometheus agent) can read it.

``/healthz`` answers 200 ``ok`` when every gateway shard is connected and the database answers
a query, else 503 with the reason: what a container health check or a supervisor wants.

``/metrics`` is the Prometheus text format (``prometheus-client``). Where each figure comes from,
so that no other module has to know about metrics:

* interactions, by kind and outcome: counted when the last task handling one ends (the bot
  hands them over in :meth:`PokerBot.track <cogs.app.PokerBot.track>`). ``refused`` when the
  answer was a refusal (:meth:`Metrics.refused`, called where refusals are answered),
  ``error`` when something logged an error while handling it or the handling raised, else
  ``accepted``;
* first-response latency: from the moment the bot reads the interaction off the gateway to the
  end of its first callback request;
* REST calls and 429s: every request discord.py makes, seen through its ``http_trace`` hook
  (an ``aiohttp`` trace on its session, interaction answers included);
* database transaction latency: the database backend's ``run``, timed (wrapped in place);
* hands finished: the hand results the database recorded (``Database.record_hand_result``);
* open tables: the table service's count; errors logged: a logging handler on the root logger.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger("poker.metrics")

HEALTH_TIMEOUT = 2.0
"""How long ``/healthz`` waits for the database to answer before calling it unhealthy."""

# Discord's 3-second deadline sits between two buckets, so that answers "late" are countable.
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 2.5, 3.0, 5.0)
DB_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

KINDS = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.modal_submit: "modal",
    discord.InteractionType.autocomplete: "autocomplete",
}

# An interaction's answer: POST /interactions/{id}/{token}/callback.
CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
# Followups and edits of an answer go to the application's webhook.
WEBHOOK = re.compile(r"/webhooks/\d+/[^/]+")

OUTCOME = "metrics.outcome"
"""The key of ``Interaction.extras`` where an interaction's outcome is noted."""
TASKS = "metrics.tasks"


class Metrics:
    """The figures of one bot process, and the HTTP server that shows them."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.registry = CollectorRegistry()
        r = self.registry
        self.interactions = Counter(
            "poker_interactions",
            "Interactions handled, by kind and outcome (accepted, refused, error).",
            ["kind", "outcome"],
            registry=r,
        )
        self.first_response = Histogram(
            "poker_first_response_seconds",
            "From reading an interaction to the end of its first answer (Discord allows 3 s).",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.open_tables = Gauge("poker_open_tables", "Tables open in this process.", registry=r)
        self.open_tables.set_function(lambda: len(getattr(self.bot, "tables", _NO_TABLES).tables))
        self.hands = Counter(
            "poker_hands_finished", "Hands played to their end and recorded.", registry=r
        )
        self.transactions = Histogram(
            "poker_db_transaction_seconds",
            "Database transactions, from asking to commit or rollback, by kind (read, write).",
            ["kind"],
            buckets=DB_BUCKETS,
            registry=r,
        )
        self.rest = Counter(
            "poker_rest_calls",
            "REST calls to Discord, by kind (interaction: answers, followups and their edits).",
            ["kind"],
            registry=r,
        )
        self.rate_limited = Counter(
            "poker_rest_429", "REST calls Discord answered 429 (rate limited).", registry=r
        )
        self.errors = Counter(
            "poker_errors_logged", "Log records of level ERROR or above.", registry=r
        )
        self.port: int | None = None
        self._received: dict[int, float] = {}
        # The task handling each interaction, so that an error logged from it marks it.
        self._handling: dict[asyncio.Task[Any], discord.Interaction[Any]] = {}
        self._log_handler = _ErrorCounter(self)
        self._runner: web.AppRunner | None = None

    # -- life cycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Hook into the database and the log, and serve (after the database is open)."""
        self._time_database()
        logging.getLogger().addHandler(self._log_handler)
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        settings = self.bot.settings
        site = web.TCPSite(self._runner, settings.metrics_host, settings.metrics_port)
        await site.start()
        server = site._server  # aiohttp keeps the listening sockets there; the port may be 0
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else settings.metrics_port
        log.info("health and metrics on http://%s:%s/", settings.metrics_host, self.port)

    async def stop(self) -> None:
        logging.getLogger().removeHandler(self._log_handler)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _time_database(self) -> None:
        db = self.bot.db
        backend: Any = db._backend  # wrapped in place: the data layer knows nothing of metrics
        run = backend.run
        observe = self.transactions.labels

        async def timed_run(body: Any, *, write: bool = True) -> Any:
            started = time.perf_counter()
            try:
                return await run(body, write=write)
            finally:
                observe("write" if write else "read").observe(time.perf_counter() - started)

        backend.run = timed_run
        record = db.record_hand_result

        async def counted_record(*args: Any, **kwargs: Any) -> Any:
            result = await record(*args, **kwargs)
            self.hands.inc()
            return result

        db.record_hand_result = counted_record  # type: ignore[method-assign]

    # -- interactions -----------------------------------------------------------------------

    def received(self, data: Any) -> None:
        """An interaction was read off the gateway (its first-response clock starts)."""
        with contextlib.suppress(KeyError, TypeError, ValueError):
            self._received[int(data["id"])] = time.perf_counter()

    def handling(self, interaction: discord.Interaction[Any], task: asyncio.Task[Any]) -> None:
        """``task`` is part of handling ``interaction``: it is counted once its last task ends."""
        extras = interaction.extras
        extras[TASKS] = extras.get(TASKS, 0) + 1
        self._handling[task] = interaction
        task.add_done_callback(self._handled)

    def _handled(self, task: asyncio.Task[Any]) -> None:
        interaction = self._handling.pop(task)
        extras = interaction.extras
        if not task.cancelled() and task.exception() is not None:
            extras[OUTCOME] = "error"
        extras[TASKS] -= 1
        if extras[TASKS]:
            return
        kind = KINDS.get(interaction.type, interaction.type.name)
        self.interactions.labels(kind, extras.get(OUTCOME, "accepted")).inc()
        self._received.pop(interaction.id, None)  # never answered: no latency to observe

    @staticmethod
    def refused(interaction: discord.Interaction[Any]) -> None:
        """This interaction is answered with a refusal (a bad input, a stale button...)."""
        if interaction.extras.get(OUTCOME) != "error":
            interaction.extras[OUTCOME] = "refused"

    def error_logged(self) -> None:
        self.errors.inc()
        try:
            task = asyncio.current_task()
        except RuntimeError:  # logged from another thread
            return
        interaction = self._handling.get(task) if task is not None else None
        if interaction is not None:
            interaction.extras[OUTCOME] = "error"

    # -- REST -------------------------------------------------------------------------------

    def http_trace(self) -> aiohttp.TraceConfig:
        """Given to discord.py (``http_trace``): sees every request of its session."""
        trace = aiohttp.TraceConfig()

        async def on_end(
            _session: Any, _context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
        ) -> None:
            path = params.url.path
            answer = CALLBACK.search(path)
            self.rest.labels("interaction" if answer or WEBHOOK.search(path) else "rest").inc()
            status = params.response.status
            if status == 429:
                self.rate_limited.inc()
            elif answer is not None and status < 300:
                received = self._received.pop(int(answer.group(1)), None)
                if received is not None:
                    self.first_response.observe(time.perf_counter() - received)

        trace.on_request_end.append(on_end)
        return trace

    # -- HTTP -------------------------------------------------------------------------------

    async def health(self) -> str | None:
        """Why the bot is unhealthy, or None when it is healthy."""
        bot = self.bot
        if bot.stopping:
            return "stopping"
        if not bot.is_ready():
            return "gateway: not connected yet"
        down = sorted(shard_id for shard_id, shard in bot.shards.items() if shard.is_closed())
        if down:
            return f"gateway: shard {', '.join(map(str, down))} disconnected"
        try:
            await asyncio.wait_for(bot.db.schema_version(), HEALTH_TIMEOUT)
        except TimeoutError:
            return f"database: no answer in {HEALTH_TIMEOUT:.0f} s"
        except Exception as exc:
            return f"database: {exc or type(exc).__name__}"
        return None

    async def _healthz(self, _request: web.Request) -> web.Response:
        problem = await self.health()
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=problem + "\n")

    async def _metrics(self, _request: web.Request) -> web.Response:
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


class _ErrorCounter(logging.Handler):
    def __init__(self, metrics: Metrics) -> None:
        super().__init__(logging.ERROR)
        self.metrics = metrics

    def emit(self, record: logging.LogRecord) -> None:
        self.metrics.error_logged()


_NO_TABLES = SimpleNamespace(tables={})
