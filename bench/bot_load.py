"""Load: how many tables one bot process carries, at what latency and API cost (issue 10).

    .venv/bin/python bench/bot_load.py                      # T = 10, 100, 500 (about 5 min)
    .venv/bin/python bench/bot_load.py --tables 500 --seconds 60 --profile /tmp/prof -v
    .venv/bin/python bench/bot_load.py --tables 200 --seconds 30 --tracemalloc
    .venv/bin/python bench/bot_load.py --processes 1,2,4 --database postgres --tables 200

``--processes N`` runs N bot processes, one gateway shard each (``SHARD_COUNT=N``,
``SHARD_IDS=i``), all with the same token, over N servers (one per shard; the tables are dealt
round the servers) and one shared database: ``--database sqlite`` (one WAL file, the embedded
default) or ``postgres`` (a throwaway PostgreSQL server started for the run, ``tests/pg.py``,
with fsync on). Latency, CPU and memory are then totals or merges over the processes, with each
process's own CPU and peak RSS listed; the REST rate is the token's, whichever process made
the call.

The real bot (``cogs.app.create_bot``, SQLite on disk with the default ``synchronous=FULL``)
runs as its own process against the Discord emulator, which runs here with the simulated
players: on this 2-core machine each side gets a core, and the bot's CPU time is read from
``/proc`` rather than guessed out of a shared process. Each table has its own channel and six
players who press buttons like people: concurrently across tables, one at a time within a
table, each waiting for the table message to change before the next press, after a think time
(``--think``, default 1-3 s). They play random legal actions: check/call mostly, bets and
raises, an occasional fold, and random discards through the private draw panel. Hands follow
each other by auto-deal (``--deal auto``, the table's own timer, 2 s) or by pressing Deal.

After setup (create, six Sit downs) the tables deal their first hands spread over the warm-up,
which lasts until every player has had a first DM (the bot opens each DM channel once per
process; that burst is not the steady state). Then ``--seconds`` are measured. Printed per T:

* latency: INTERACTION_CREATE sent by the emulator -> the bot's callback received (p50/p99/max),
  by kind of press; and the bot's own share, from parsing INTERACTION_CREATE to sending the
  callback, with both event loops' lag (the emulator shares this process with the players);
* hands per second and actions (interactions) per second;
* calls per hand by kind: interaction callbacks and interaction webhooks (followups, @original
  edits; not counted against Discord's global 50/s limit) and all other REST calls (counted;
  also as a rate), then by route, a channel's calls marked (DM) or (table);
* peak RSS of the bot; memory per table as RSS growth from no table to T played tables over
  T, and as the bytes of each table's engine state, meta and settings counted object by object;
  where the growth went: pages of mapped files (the libraries and fonts a first hand brings in,
  a fixed amount spread over T), the C allocator's blocks in use and freed-but-held (glibc's
  mallinfo2, and what malloc_trim gives back), the cyclic garbage waiting for a full
  collection, by type;
  with ``--tracemalloc`` (slower: the bot traces every allocation), what the bot still holds
  per table by source file and line;
* what discord.py's building of each callback's answer (``with_response``) costs per press;
* CPU time of the bot process per action, and how busy each process was;
* discord.py's view store, live View objects and tasks; the objects the bot's garbage
  collector tracks and how long one full collection takes (a pause of the event loop).

The emulator answers no rate-limit headers, so discord.py would keep one request in flight per
route bucket; the emulator here answers Discord-like ones (see :class:`LoadEmulator`). Figures
only, no assertions. ``--profile DIR`` writes a cProfile of the bot's play window to
``DIR/bot_T{T}.prof`` and prints its own time by part of the bot (engine, tables, cogs, data,
discord.py...; the event loop's idle wait left out) and its top functions (``py-spy record -p
PID`` on the bot process, ``bench.bot_load --child``, shows the same with less overhead).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import itertools
import json
import logging
import os
import pstats
import random
import re
import shutil
import signal
import statistics
import sys
import tempfile
import time
import types
from array import array
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp import web

from bench import duration, listed, positive
from cogs.app import GC_THRESHOLDS
from tests.emulator import BotProcess, Emulator, InteractionResult, Message, User
from tests.emulator.models import Attachment, Channel, InteractionRecord

REPO = Path(__file__).resolve().parents[1]
PLAYERS = 6
ACTOR = re.compile(r"▶️ \*\*(.+?)\*\*")
AMOUNT_RANGE = re.compile(r"\(([\d,]+)–([\d,]+)\)")
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# =============================================================================================
# The bot side: ``python -m bench.bot_load --child`` (the real bot plus a stats hook)
# =============================================================================================


def _proc_status() -> dict[str, int]:
    out: dict[str, int] = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssFile"):
                out[key] = int(value.split()[0]) * 1024
    return out


_SKIP = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.CodeType,
    types.FrameType,
    asyncio.Future,
    asyncio.AbstractEventLoop,
)


def _deep_size(roots: list[Any], seen: set[int]) -> int:
    """Bytes of everything reachable from ``roots`` not already in ``seen`` (classes, modules,
    functions, tasks and loops excluded): shared objects are counted once over all calls."""
    total = 0
    stack = list(roots)
    while stack:
        obj = stack.pop()
        key = id(obj)
        if key in seen or isinstance(obj, _SKIP):
            continue
        seen.add(key)
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


class _Samples:
    """A series of measurements taken in the bot, in room set aside (and written, so that it
    is resident) when the bot starts: a growing array of them counted in the bot's memory per
    table (tens of thousands of samples in a 500-table run: about 1 KB a table), which is the
    benchmark's memory, not the bot's. Past :data:`SAMPLES` since the last :meth:`take`, the
    oldest are overwritten (the figures then cover the latest ones)."""

    __slots__ = ("_count", "_room")

    def __init__(self) -> None:
        self._room = array("d", [0.0]) * SAMPLES
        self._count = 0

    def append(self, value: float) -> None:
        self._room[self._count % SAMPLES] = value
        self._count += 1

    def take(self) -> list[float]:
        """The samples since the last call (at most :data:`SAMPLES`), and start afresh."""
        count, self._count = self._count, 0
        if count <= SAMPLES:
            return self._room[:count].tolist()
        cut = count % SAMPLES
        return self._room[cut:].tolist() + self._room[:cut].tolist()


SAMPLES = 1 << 17
"""Room for each bot-side series: a 60-second window at 500 tables takes about 20,000."""


class _Timing:
    """Bot-side clocks: from the bot parsing INTERACTION_CREATE to it sending the callback
    (the bot's own share of the latency), and how late its event loop wakes up."""

    def __init__(self) -> None:
        self.received: dict[int, float] = {}
        self.handling = _Samples()
        self.lags = _Samples()
        # (generation, seconds) of each garbage collection: a full one pauses the event loop.
        self.collections: list[tuple[int, float]] = []
        self._gc_started = 0.0
        # Seconds from asking the database for a transaction to having its result.
        self.transactions = _Samples()
        # Seconds spent building the callback's response (InteractionCallbackResponse).
        self.response_messages = _Samples()

    def install(self) -> None:
        """Patch discord.py's interaction parser and callback sender (before the bot exists:
        the connection state binds its parsers when it is made)."""
        from discord.state import ConnectionState
        from discord.webhook.async_ import AsyncWebhookAdapter

        parse = ConnectionState.parse_interaction_create
        send = AsyncWebhookAdapter.create_interaction_response
        timing = self

        def parse_interaction_create(state: Any, data: Any) -> None:
            timing.received[int(data["id"])] = time.perf_counter()
            parse(state, data)

        def create_interaction_response(
            adapter: Any, interaction_id: int, *args: Any, **kwargs: Any
        ) -> Any:
            started = timing.received.pop(int(interaction_id), None)
            if started is not None:
                timing.handling.append(time.perf_counter() - started)
            return send(adapter, interaction_id, *args, **kwargs)

        from discord.interactions import InteractionCallbackResponse

        update = InteractionCallbackResponse._update

        def timed_update(response: Any, data: Any) -> None:
            # discord.py asks every callback for its resulting message (``with_response``)
            # and builds a Message of it: what that costs the bot per press.
            started = time.perf_counter()
            update(response, data)
            timing.response_messages.append(time.perf_counter() - started)

        InteractionCallbackResponse._update = timed_update  # type: ignore[method-assign,assignment]
        ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign,assignment]
        AsyncWebhookAdapter.create_interaction_response = create_interaction_response  # type: ignore[method-assign,assignment]
        gc.callbacks.append(self._on_gc)

        from data.db import Database

        def timed(run: Any) -> Any:
            async def timed_run(db: Any, *args: Any, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return await run(db, *args, **kwargs)
                finally:
                    timing.transactions.append(time.perf_counter() - started)

            return timed_run

        # Every transaction, reads and writes, goes through one of these two.
        Database._write = timed(Database._write)  # type: ignore[method-assign]
        Database._read = timed(Database._read)  # type: ignore[method-assign]

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.collections.append((info["generation"], time.perf_counter() - self._gc_started))

    async def watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t0 = loop.time()
            await asyncio.sleep(0.05)
            self.lags.append(loop.time() - t0 - 0.05)

    def take(self) -> dict[str, Any]:
        """Everything measured since the last call."""
        out = {
            "handling": self.handling.take(),
            "loop_lag": self.lags.take(),
            "collections": self.collections,
            "transactions": self.transactions.take(),
            "response_messages": self.response_messages.take(),
        }
        self.collections = []
        return out


def _package(module: object) -> str:
    return module.split(".")[0] if isinstance(module, str) else "?"


_traced: list[Any] = []  # the tracemalloc snapshot of the first stats (no table yet)


def _traced_growth(
    limit: int = int(os.environ.get("BENCH_TRACE_TOP", "15")),
) -> dict[str, list[tuple[str, int, int]]]:
    """What the bot allocated since its first stats, and still holds: (where, bytes, blocks)
    by source file and by line, largest first (``--tracemalloc``)."""
    import tracemalloc

    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    if not _traced:
        _traced.append(snapshot)
        return {}
    root = str(REPO) + os.sep
    site = "site-packages" + os.sep
    out: dict[str, list[tuple[str, int, int]]] = {}
    for group in ("filename", "lineno"):
        rows = []
        for diff in snapshot.compare_to(_traced[0], group)[:limit]:
            frame = diff.traceback[0]
            where = frame.filename.replace(root, "")
            where = where.split(site, 1)[-1]
            if group == "lineno":
                where += f":{frame.lineno}"
            rows.append((where, diff.size_diff, diff.count_diff))
        out[group] = rows
    return out


def _allocator(trim: bool = True) -> dict[str, int]:
    """The C allocator's view (glibc only): bytes in use, bytes free but still held, and how
    much of the RSS ``malloc_trim`` hands back to the system (freed memory the process keeps)."""
    import ctypes
    import ctypes.util

    class Mallinfo2(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_size_t)
            for name in (
                "arena",
                "ordblks",
                "smblks",
                "hblks",
                "hblkhd",
                "usmblks",
                "fsmblks",
                "uordblks",
                "fordblks",
                "keepcost",
            )
        ]

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallinfo2.restype = Mallinfo2
        info = libc.mallinfo2()
    except (OSError, AttributeError):
        return {}
    before = _proc_status()["VmRSS"]
    if trim:
        libc.malloc_trim(0)
    after = _proc_status()["VmRSS"]
    return {
        "malloc_used": info.uordblks + info.hblkhd,
        "malloc_free": info.fordblks,
        "trim_returned": before - after,
    }


def _census(objects: list[Any]) -> dict[str, list[int]]:
    """Every object the collector tracks, and the untracked ones they hold directly (strings,
    numbers, bytes, tuples of those): count and bytes by type name. Two of them, before the
    tables and after, say what a table adds (object headers and contents, not the allocator's
    slack)."""
    out: dict[str, list[int]] = {}
    seen: set[int] = {id(objects)}
    pending = list(objects)
    seen.update(map(id, pending))
    for o in pending:
        row = out.setdefault(type(o).__name__, [0, 0])
        row[0] += 1
        row[1] += sys.getsizeof(o)
    for o in objects:
        for r in gc.get_referents(o):
            if id(r) in seen or gc.is_tracked(r) or isinstance(r, type):
                continue
            seen.add(id(r))
            row = out.setdefault(type(r).__name__, [0, 0])
            row[0] += 1
            row[1] += sys.getsizeof(r)
    return out


def _pymalloc() -> dict[str, int]:
    """CPython's small-object allocator (objects of at most 512 bytes), from
    ``sys._debugmallocstats`` (written to the C stderr, so read back through a file): bytes of
    its arenas, of the blocks objects hold, of the free blocks in pools that are in use, and of
    the empty pools. Arenas go back to the system only when wholly empty, so a few live
    objects in a pool or an arena hold all of it: that is the fragmentation."""
    keys = {
        "# bytes in allocated blocks": "used",
        "# bytes in available blocks": "free_blocks",
        "unused pools": "empty_pools",
        "bytes/arena": "arenas",
    }
    sys.stderr.flush()
    with tempfile.TemporaryFile("w+") as out:
        saved = os.dup(2)
        os.dup2(out.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        found: dict[str, int] = {}
        for line in out:
            for key, name in keys.items():
                if key in line and name not in found:
                    found[name] = int(line.rsplit("=", 1)[1].replace(",", ""))
    return found


def _bot_stats(bot: Any, deep: bool, timing: _Timing) -> dict[str, Any]:
    stats: dict[str, Any] = {"cpu": time.process_time(), **_proc_status()}
    import tracemalloc

    if not deep:
        stats["allocator"] = _allocator(trim=False)
    if tracemalloc.is_tracing() and (deep or not _traced):
        gc.collect()
        stats["traced"] = _traced_growth()
    state = bot._connection
    store = state._view_store
    stats["view_store"] = {
        "views": len(store._views),
        "synced_message_views": len(store._synced_message_views),
        "modals": len(store._modals),
        "dynamic_items": len(store._dynamic_items),
    }
    stats["tasks"] = len(asyncio.all_tasks())
    trimmer = getattr(bot, "trimmer", None)
    if trimmer is not None:
        stats["trims"] = [trimmer.trims, trimmer.seconds * 1000, trimmer.longest * 1000]
    stats["cached_messages"] = len(state._messages or ())
    service = getattr(bot, "tables", None)
    if service is not None:
        stats["tables"] = len(service.tables)
        stats["dm_channels"] = len(bot.presenter.dm_channels)
        if deep:
            seen: set[int] = set()
            # Shared, process-wide objects (variants, rules, the card deck) count once, not
            # per table: walk one table first and report it apart.
            sizes = []
            for live in service.tables.values():
                roots = [live.engine, live.meta, live.settings, live.last_private, live.version()]
                sizes.append(_deep_size(roots, seen))
            stats["table_bytes"] = sizes
            del seen  # the census below must not count the measuring
            stats["state_json_bytes"] = [len(live.state_json()) for live in service.tables.values()]
    if deep:
        started = time.perf_counter()
        # What the collector finds unreachable, by type: garbage in reference cycles waits
        # for a collection of its generation, a full one once it got old (rare, see GC_THRESHOLDS).
        gc.set_debug(gc.DEBUG_SAVEALL)
        stats["gc_unreachable"] = gc.collect()
        gc.set_debug(0)
        stats["gc_garbage_types"] = Counter(type(o).__name__ for o in gc.garbage).most_common(10)
        gc.garbage.clear()
        gc.collect()
        stats["gc_full_ms"] = (time.perf_counter() - started) * 1000
        # malloc_trim after the RSS above was read: how much of it is freed memory kept.
        stats["allocator"] = _allocator()
        import discord

        objects = gc.get_objects()
        stats["live_views"] = sum(1 for o in objects if isinstance(o, discord.ui.view.BaseView))
        stats["gc_objects"] = len(objects)
        stats["gc_types"] = Counter(type(o).__name__ for o in objects).most_common(12)
        stats["gc_packages"] = Counter(
            _package(type(o).__dict__.get("__module__")) for o in objects
        ).most_common(8)
        stats["census"] = _census(objects)
        del objects
        stats["pymalloc"] = _pymalloc()
    # The samples last: as lists they would count in the census and the traced memory above.
    stats.update(timing.take())
    return stats


def child_main() -> int:
    """Run the bot as ``bot.py`` does, plus: SIGUSR1 writes stats to $BENCH_STATS, SIGUSR2
    starts/stops a cProfile written to $BENCH_PROFILE, SIGTERM closes the bot cleanly."""
    from cogs.app import create_bot
    from cogs.config import Settings, apply_endpoints

    settings = Settings.from_env()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    apply_endpoints(settings)
    stats_path = Path(os.environ["BENCH_STATS"])
    profile_path = os.environ.get("BENCH_PROFILE")

    async def main() -> None:
        if os.environ.get("BENCH_TRACEMALLOC"):
            import tracemalloc

            tracemalloc.start(1)
        timing = _Timing()
        timing.install()
        bot = create_bot(settings, guild_ready_timeout=0.05)
        watcher = asyncio.create_task(timing.watch_loop())
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        profiler: cProfile.Profile | None = None
        seq = 0

        def write_stats(deep: bool) -> None:
            nonlocal seq
            seq += 1
            stats = _bot_stats(bot, deep, timing)
            stats["seq"] = seq
            tmp = stats_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(stats))
            tmp.replace(stats_path)

        def toggle_profile() -> None:
            nonlocal profiler
            if profiler is None:
                # "cpu": the main thread's CPU time, so that waits for the GIL or the kernel
                # (a thread holding the GIL, a socket send) are not counted as work.
                clock = os.environ.get("BENCH_PROFILE_CLOCK", "wall")
                profiler = (
                    cProfile.Profile(time.thread_time) if clock == "cpu" else cProfile.Profile()
                )
                profiler.enable()
            else:
                profiler.disable()
                if profile_path:
                    profiler.dump_stats(profile_path)
                profiler = None

        loop.add_signal_handler(signal.SIGUSR1, write_stats, False)
        loop.add_signal_handler(signal.SIGHUP, write_stats, True)
        loop.add_signal_handler(signal.SIGUSR2, toggle_profile)
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        async with bot:
            runner = asyncio.create_task(bot.start(settings.token))
            stopper = asyncio.create_task(stop.wait())
            await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if runner.done():
                runner.result()
            stopper.cancel()
            watcher.cancel()
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runner

    asyncio.run(main())
    return 0


# =============================================================================================
# The emulator side
# =============================================================================================


@dataclass
class Tab:
    """One table as its players see it."""

    index: int
    channel: Channel
    players: list[User]
    by_name: dict[str, User]
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    current: int | None = None  # the newest public bot message with poker buttons
    hands: int = 0  # showdown messages seen
    dealt: bool = False
    problems: int = 0


class LoadEmulator(Emulator):
    """The emulator, with a change signal per table channel (instead of every waiter polling
    the emulator-wide one every 20 ms), no edit history kept (it only grows), and Discord's
    rate-limit headers on successful calls.

    Discord answers every call with ``X-RateLimit-*`` headers; the emulator answers none, and
    without them discord.py keeps one request in flight per route bucket (so, e.g., every DM
    channel the bot opens waits for the previous one). Here each bucket allows 10 calls a
    second, which lets discord.py pipeline as it does against Discord. Discord's global limit
    (50 non-interaction calls a second) is not enforced: the report shows the rate instead."""

    def __init__(self) -> None:
        super().__init__()
        self.tabs: dict[int, Tab] = {}
        self._trimmed_calls = 0
        self._trimmed_interactions = 0
        self.dm_recipients: set[int] = set()
        self._records: list[InteractionRecord] = []

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response = await super()._middleware(request, handler)
        if response.status < 400 and "X-RateLimit-Limit" not in response.headers:
            resource = request.match_info.route.resource
            bucket = resource.canonical if resource is not None else request.path
            response.headers.update(
                {
                    "X-RateLimit-Limit": "10",
                    "X-RateLimit-Remaining": "9",
                    "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
                    "X-RateLimit-Reset-After": "1.000",
                    "X-RateLimit-Bucket": f"{hash(bucket) & 0xFFFFFFFF:08x}",
                }
            )
        return response

    def trim(self, keep: int = 500) -> None:
        """Forget the bodies of old calls and the message copies in old interactions (the
        figures need neither, and at 500 tables they would grow this process by gigabytes)."""
        for call in self.calls[self._trimmed_calls : len(self.calls) - keep]:
            call.body = None
        self._trimmed_calls = max(self._trimmed_calls, len(self.calls) - keep)
        records = self._records
        for rec in records[self._trimmed_interactions : len(records) - keep]:
            if rec.settled.is_set():
                rec.payload.pop("message", None)
        self._trimmed_interactions = max(self._trimmed_interactions, len(records) - keep)

    def build_interaction(
        self,
        itype: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        parent: InteractionRecord | None = None,
    ) -> InteractionRecord:
        rec = super().build_interaction(itype, user, channel, data, message=message, parent=parent)
        self._records.append(rec)
        return rec

    def new_message(
        self,
        channel: Channel,
        author: User,
        payload: dict[str, Any],
        files: list[Attachment] | None = None,
        *,
        visible_to: int | None = None,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> Message:
        msg = super().new_message(
            channel,
            author,
            payload,
            files,
            visible_to=visible_to,
            interaction=interaction,
            extra_flags=extra_flags,
        )
        if channel.recipients and author.id == self.bot_user.id:
            self.dm_recipients.add(channel.recipients[0].id)
        tab = self.tabs.get(channel.id)
        if tab is not None:
            if visible_to is None:
                if any(str(c.get("custom_id", "")).startswith("pk:") for c in msg.all_components()):
                    tab.current = msg.id
                if _is_result(msg):
                    tab.hands += 1
            tab.changed.set()
        return msg

    def edit_message(
        self, msg: Message, payload: dict[str, Any], files: list[Attachment] | None = None
    ) -> None:
        was_result = _is_result(msg)
        super().edit_message(msg, payload, files)
        msg.revisions.clear()
        tab = self.tabs.get(msg.channel_id)
        if tab is not None:
            # One message per hand: the hand's table message is edited into its result.
            if not was_result and msg.visible_to is None and _is_result(msg):
                tab.hands += 1
            tab.changed.set()

    async def wait_tab(self, tab: Tab, predicate: Any, timeout: float) -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            tab.changed.clear()
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(tab.changed.wait(), remaining)


def _is_result(msg: Message) -> bool:
    """Whether ``msg`` shows a hand's result (a showdown)."""
    return bool(msg.embeds) and str(msg.embeds[0].get("title", "")).endswith(" result")


def _ids(msg: Message) -> tuple[str, ...]:
    return tuple(str(c.get("custom_id", "")) for c in msg.all_components())


def _phase(ids: tuple[str, ...]) -> str:
    if any(i.startswith("pk:t:") for i in ids):
        return "hand"
    if any(i.startswith("pk:l:") and i.endswith(":deal") for i in ids):
        return "lobby"
    return "none"


@dataclass
class Window:
    """What one play window measured (parent side)."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    failures: int = 0
    problems: int = 0
    actions: int = 0


class LoadRun:
    """T tables played against ``processes`` bot processes (one shard each)."""

    def __init__(
        self, tables: int, args: argparse.Namespace, processes: int = 1, database: str = "sqlite"
    ) -> None:
        self.T = tables
        self.args = args
        self.processes = processes
        self.database = database
        self.database_url: str | None = None
        self.procs: list[BotProcess] = []
        self.rng = random.Random(args.seed + tables)
        self.emu = LoadEmulator()
        self.tabs: list[Tab] = []
        self.window = Window()
        self.measuring = False
        self.stopping = False
        self.workdir = Path(tempfile.mkdtemp(prefix=f"bot-load-{tables}-"))
        self.lags: list[float] = []
        self.child_argv = [sys.executable, "-m", "bench.bot_load", "--child"]

    # -- world and bot ---------------------------------------------------------------------

    def build_world(self) -> None:
        emu = self.emu
        host = emu.add_user("host")
        if self.processes == 1:
            guilds = [emu.add_guild("Load Test", owner=host)]
        else:  # a server on each shard, so that every process has tables to carry
            guilds = [
                emu.add_guild(f"Load Test {i}", owner=host, shard=(i, self.processes))
                for i in range(self.processes)
            ]
        for t in range(self.T):
            guild = guilds[t % len(guilds)]
            channel = emu.add_text_channel(guild, f"table-{t}")
            players = []
            for p in range(PLAYERS):
                user = emu.add_user(f"t{t}p{p}")
                emu.add_member(guild, user)
                players.append(user)
            tab = Tab(t, channel, players, {u.global_name or u.username: u for u in players})
            self.tabs.append(tab)
            emu.tabs[channel.id] = tab

    def stats_path(self, i: int) -> Path:
        return self.workdir / f"stats{i}.json"

    async def start_bot(self) -> None:
        for i in range(self.processes):
            env = {"BENCH_STATS": str(self.stats_path(i)), "LOG_LEVEL": "WARNING"}
            if self.processes > 1:
                env.update(SHARD_COUNT=str(self.processes), SHARD_IDS=str(i))
            if self.database_url is not None:
                # Database.open takes a PostgreSQL URL where a file path would go.
                env.update(DATABASE_URL=self.database_url, DATABASE_PATH=self.database_url)
            if self.args.tracemalloc:
                env["BENCH_TRACEMALLOC"] = "1"
            if self.args.profile:
                Path(self.args.profile).mkdir(parents=True, exist_ok=True)
                name = f"bot_T{self.T}.prof" if self.processes == 1 else f"bot_T{self.T}_p{i}.prof"
                env["BENCH_PROFILE"] = str(Path(self.args.profile).resolve() / name)
                env["BENCH_PROFILE_CLOCK"] = self.args.profile_clock
            proc = BotProcess(
                self.emu,
                self.child_argv,
                database_path=self.workdir / "bot.db",
                env=env,
                cwd=REPO,
                log_path=self.workdir / f"bot{i}.log",
            )
            self.procs.append(proc)
            # Only shard 0's process syncs the commands.
            await proc.start(timeout=60, settle=0.5, expect_sync=i == 0)

    @property
    def pids(self) -> list[int]:
        out = []
        for proc in self.procs:
            assert proc.proc is not None
            out.append(proc.proc.pid)
        return out

    def bot_cpus(self) -> list[float]:
        out = []
        for pid in self.pids:
            with open(f"/proc/{pid}/stat") as fh:
                fields = fh.read().rpartition(")")[2].split()
            out.append((int(fields[11]) + int(fields[12])) / CLK_TCK)
        return out

    def bot_cpu(self) -> float:
        return sum(self.bot_cpus())

    def signal_bots(self, signum: int) -> None:
        for pid in self.pids:
            os.kill(pid, signum)

    async def bot_stats(self, deep: bool = False) -> dict[str, Any]:
        """Every process's stats, merged (see :func:`_merge_stats`)."""
        before = [self._stats_seq(i) for i in range(self.processes)]
        self.signal_bots(signal.SIGHUP if deep else signal.SIGUSR1)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120
        while loop.time() < deadline:
            await asyncio.sleep(0.02)
            if all(self._stats_seq(i) > before[i] for i in range(self.processes)):
                return _merge_stats(
                    [json.loads(self.stats_path(i).read_text()) for i in range(self.processes)]
                )
        raise TimeoutError("the bot did not write its stats")

    def _stats_seq(self, i: int) -> int:
        try:
            return int(json.loads(self.stats_path(i).read_text())["seq"])
        except (FileNotFoundError, ValueError, KeyError):
            return 0

    def _call_key(self, call: Any) -> str:
        """The call's route, with the kind of channel a channel route went to: a DM's calls
        (the private cards) and the table channel's are cut by different means."""
        key: str = call.key
        if call.route.startswith("/channels/{channel_id}"):
            channel_id = int(call.path.split("/")[2])
            channel = self.emu.channels.get(channel_id)
            key += " (DM)" if channel is not None and channel.recipients else " (table)"
        return key

    # -- players ---------------------------------------------------------------------------

    def _record(self, kind: str, result: InteractionResult) -> None:
        if not self.measuring:
            return
        self.window.actions += 1
        if result.latency is not None:
            self.window.latencies.setdefault(kind, []).append(result.latency)
        if not result.interaction.acknowledged:
            self.window.failures += 1

    async def _think(self) -> None:
        lo, hi = self.args.think
        if hi > 0:
            await asyncio.sleep(self.rng.uniform(lo, hi))

    async def _click(self, kind: str, user: User, msg: Any, label: str) -> InteractionResult:
        r = await self.emu.click(user, msg, label=label, raise_on_failure=False)
        self._record(kind, r)
        return r

    def _problem(self, tab: Tab, what: str) -> None:
        tab.problems += 1
        if self.measuring:
            self.window.problems += 1
        if self.args.verbose:
            print(f"\n[table {tab.index}] {what}", file=sys.stderr)

    def _signature(self, tab: Tab) -> tuple[int | None, tuple[str, ...]]:
        if tab.current is None:
            return None, ()
        return tab.current, _ids(self.emu.messages[tab.current])

    async def _await_move(self, tab: Tab, before: Any, timeout: float) -> bool:
        """Wait until the table message shows something new (a different set of buttons, or a
        new table message) that players can act on."""

        def moved() -> bool:
            sig = self._signature(tab)
            return sig != before and _phase(sig[1]) != "none"

        try:
            await self.emu.wait_tab(tab, moved, timeout)
            return True
        except TimeoutError:
            return False

    async def setup_table(self, tab: Tab) -> None:
        options = {
            "variant": self.args.variant,
            "auto_deal": self.args.auto_deal if self.args.deal == "auto" else 0,
            "min_buy_in": 200,
            "max_buy_in": 1000,
        }
        r = await self.emu.run_command(
            tab.players[0], tab.channel, "poker create", options, raise_on_failure=False
        )
        if r.message is None:
            self._problem(tab, f"create failed: {r.failure}")
            return
        for user in tab.players:
            sat = await self.emu.click(user, r.message, label="Sit down", raise_on_failure=False)
            if sat.type == 9:  # the buy-in modal, submitted as prefilled
                sat = await self.emu.submit_modal(user, sat, {}, raise_on_failure=False)
            if sat.type != 7:
                self._problem(tab, f"sit failed: {sat.type} {sat.failure}")

    async def play_table(self, tab: Tab) -> None:
        while not self.stopping:
            try:
                await self._step(tab)
            except Exception as exc:  # keep the table going; count it
                self._problem(tab, f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(0.5)

    async def _step(self, tab: Tab) -> None:
        sig = self._signature(tab)
        phase = _phase(sig[1])
        if phase == "none":
            if not await self._await_move(tab, sig, 10):
                self._problem(tab, "no table message to act on")
            return
        assert tab.current is not None
        msg = self.emu.messages[tab.current]
        if phase == "lobby":
            if self.args.deal == "auto" and tab.dealt:
                if not await self._await_move(tab, sig, self.args.auto_deal + 15):
                    self._problem(tab, "auto-deal did not come")
                    tab.dealt = False  # press Deal instead
                return
            if not tab.dealt:  # tables open over a while, not all in the same second
                await asyncio.sleep(self.rng.uniform(0, self.args.warmup * 0.6))
            await self._think()
            r = await self._click("deal", tab.players[0], msg, "Deal")
            if r.type != 7:
                self._problem(tab, f"Deal refused: {r.content or r.failure}")
            tab.dealt = True
            if not await self._await_move(tab, sig, 10):
                self._problem(tab, "no hand after Deal")
            return
        # A hand: who is to act?
        seats = next((f for f in msg.embeds[0].get("fields", []) if f["name"] == "Seats"), None)
        found = ACTOR.search(seats["value"]) if seats else None
        if found is None or found.group(1) not in tab.by_name:
            if not await self._await_move(tab, sig, 5):
                self._problem(tab, "nobody to act")
            return
        user = tab.by_name[found.group(1)]
        labels = [str(b.get("label")) for b in msg.buttons]
        await self._think()
        if any(label.endswith("…") and "Bet" not in label and "Raise" not in label
               for label in labels):  # fmt: skip
            await self._private(tab, user, msg, labels)
        else:
            await self._bet(tab, user, msg, labels)
        if not await self._await_move(tab, sig, 10):
            self._problem(tab, "the table message did not change after an action")

    async def _bet(self, tab: Tab, user: User, msg: Message, labels: list[str]) -> None:
        weighted: list[tuple[str, float]] = []
        for label in labels:
            word = label.split(" ")[0]
            if label == "My hand":
                continue
            if word == "Fold":
                weighted.append((label, 0.02 if "Check" in labels else 0.08))
            elif word in ("Check", "Call"):
                weighted.append((label, 0.6))
            elif word == "All-in":
                weighted.append((label, 0.01))
            elif label.endswith("…"):
                weighted.append((label, 0.08))
            else:  # "Bet 2", "Raise to 4", quick amounts
                weighted.append((label, 0.25))
        if not weighted:
            self._problem(tab, f"no action among {labels}")
            return
        label = self.rng.choices([w[0] for w in weighted], [w[1] for w in weighted])[0]
        r = await self._click("button", user, msg, label)
        if r.type == 4 and r.message is not None and "Fold anyway" in r.message.button_labels:
            # Fold with nothing to call asks first: this player means it.
            r = await self._click("button", user, r.message, "Fold anyway")
        if r.type == 9:  # the amount modal
            title = str((r.modal or {}).get("title", ""))
            found = AMOUNT_RANGE.search(title)
            low, high = (int(x.replace(",", "")) for x in found.groups()) if found else (0, 0)
            amount = self.rng.randint(low, min(high, low * 3)) if high else 0
            custom = next(iter(r.modal["components"]))["components"][0]["custom_id"]  # type: ignore[index]
            sub = await self.emu.submit_modal(
                user, r, {custom: str(amount)}, raise_on_failure=False
            )
            self._record("modal", sub)
            if sub.type != 7:
                self._problem(tab, f"amount {amount} refused: {sub.content}")
        elif r.type != 7:
            self._problem(tab, f"{label} refused: {r.content or r.failure}")

    async def _private(self, tab: Tab, user: User, msg: Message, labels: list[str]) -> None:
        label = next(label for label in labels if label.endswith("…"))
        opened = await self._click("panel", user, msg, label)
        if opened.type != 6:
            self._problem(tab, f"{label} refused: {opened.content or opened.failure}")
            return
        try:
            panels = await self.emu.wait_tab(tab, lambda: opened.followups, 10)
        except TimeoutError:
            self._problem(tab, "no draw panel")
            return
        panel = panels[-1]
        selects = panel.selects
        count = 0
        if "Draw" in label and selects:
            select = selects[0]
            options = [str(o["value"]) for o in select.get("options", [])]
            count = self.rng.randint(0, min(3, int(select.get("max_values", 1)), len(options)))
            if count:
                await self._think()
                picked = await self.emu.select(
                    user,
                    panel,
                    str(select["custom_id"]),
                    self.rng.sample(options, count),
                    raise_on_failure=False,
                )
                self._record("select", picked)
                if picked.type != 7 or picked.message is None:
                    self._problem(tab, f"select refused: {picked.content}")
                    return
                panel = picked.message
            press = f"Discard {count}" if count else "Stand pat"
        else:
            buttons = [str(b.get("label")) for b in panel.buttons]
            if not buttons:
                self._problem(tab, f"nothing to press on the panel for {label}")
                return
            press = self.rng.choice(buttons)
        r = await self._click("button", user, panel, press)
        if r.type != 7:
            self._problem(tab, f"{press} refused: {r.content or r.failure}")

    # -- phases ----------------------------------------------------------------------------

    async def _monitor_lag(self) -> None:
        """How late this process's event loop wakes up (the emulator's share of latency)."""
        loop = asyncio.get_running_loop()
        ticks = 0
        while True:
            t0 = loop.time()
            await asyncio.sleep(0.05)
            if self.measuring:
                self.lags.append(loop.time() - t0 - 0.05)
            ticks += 1
            if ticks % 20 == 0:
                self.emu.trim()

    async def setup(self) -> None:
        gate = asyncio.Semaphore(self.args.setup_concurrency)
        done = 0

        async def one(tab: Tab) -> None:
            nonlocal done
            async with gate:
                await self.setup_table(tab)
            done += 1

        tasks = [asyncio.create_task(one(tab)) for tab in self.tabs]
        while not all(t.done() for t in tasks):
            _bar(f"T={self.T} setup", done / self.T, f"{done}/{self.T} tables seated")
            await asyncio.wait(tasks, timeout=0.25)
        for task in tasks:
            task.result()
        _bar(f"T={self.T} setup", 1.0, f"{self.T}/{self.T} tables seated", end=True)

    async def run(self) -> dict[str, Any]:
        self.build_world()
        await self.emu.start()
        lag = asyncio.create_task(self._monitor_lag())
        pg: Any = None
        try:
            if self.database == "postgres":
                from tests.pg import PgServer

                # fsync on: what a real deployment pays for each commit.
                pg = PgServer.start(durable=True)
                self.database_url = await pg.create_database()
            await self.start_bot()
            base = await self.bot_stats(deep=True)
            t0 = time.perf_counter()
            await self.setup()
            setup_seconds = time.perf_counter() - t0
            # This process holds every message and call: keep the collector off that heap, and
            # its full passes as rare as the bot's (their pauses would send presses in bursts).
            gc.collect()
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)
            players = [asyncio.create_task(self.play_table(tab)) for tab in self.tabs]
            # Warm-up: the tables deal their first hands (spread over the first 60% of it) and
            # every player gets a first DM (the bot opens each DM channel once): that start-up
            # burst is not the steady state measured after it.
            warm = self.args.warmup
            everyone = {u.id for tab in self.tabs for u in tab.players}
            t0 = time.perf_counter()
            while (elapsed := time.perf_counter() - t0) < warm or (
                not everyone <= self.emu.dm_recipients and elapsed < warm + 60
            ):
                have = len(everyone & self.emu.dm_recipients)
                _bar(
                    f"T={self.T} warm-up",
                    min(elapsed / warm, have / len(everyone)),
                    f"{have}/{len(everyone)} players dealt in",
                )
                await asyncio.sleep(0.25)
            warmup_seconds = time.perf_counter() - t0
            undealt = len(everyone - self.emu.dm_recipients)  # > 0: the bot is behind
            after_setup = await self.bot_stats()
            # The measured window.
            if self.args.profile:
                self.signal_bots(signal.SIGUSR2)
            mark = self.emu.mark()
            hands0 = sum(tab.hands for tab in self.tabs)
            first_interaction = self.emu.snowflakes.next()
            cpus0 = self.bot_cpus()
            emu_cpu0, t0 = time.process_time(), time.perf_counter()
            self.measuring = True
            seconds = self.args.seconds
            while (elapsed := time.perf_counter() - t0) < seconds:
                hands = sum(tab.hands for tab in self.tabs) - hands0
                lat = self.window.latencies.get("button", [])[-2000:]
                p99 = _pct(lat, 99) * 1000 if lat else 0.0
                _bar(
                    f"T={self.T} play",
                    elapsed / seconds,
                    f"{hands} hands · {self.window.actions} actions · recent p99 {p99:.0f} ms",
                )
                await asyncio.sleep(0.5)
            self.stopping = True
            await asyncio.wait(players, timeout=30)
            for task in players:
                task.cancel()
            self.measuring = False
            wall = time.perf_counter() - t0
            with contextlib.suppress(TimeoutError):
                await self.emu.idle(quiet=0.2, timeout=30)
            cpus = [after - before for after, before in zip(self.bot_cpus(), cpus0, strict=True)]
            cpu = sum(cpus)
            emu_cpu = time.process_time() - emu_cpu0
            wall_idle = time.perf_counter() - t0
            hands = sum(tab.hands for tab in self.tabs) - hands0
            calls = self.emu.calls_since(mark)
            if self.args.profile:
                self.signal_bots(signal.SIGUSR2)
            end = await self.bot_stats(deep=True)
            _bar(f"T={self.T} play", 1.0, f"{hands} hands in {wall:.0f} s", end=True)
            late = [
                rec
                for rec in self.emu.interactions.values()
                if rec.id >= first_interaction and rec.failure is not None
            ]
            return {
                "T": self.T,
                "processes": self.processes,
                "database": self.database,
                "process_cpu": cpus,
                "process_rss_peak": end.get("VmHWM_each", [end["VmHWM"]]),
                "process_tables": end.get("tables_each", [end.get("tables", 0)]),
                "setup_seconds": setup_seconds,
                "warmup_seconds": warmup_seconds,
                "undealt": undealt,
                "wall": wall,
                "wall_idle": wall_idle,
                "hands": hands,
                "actions": self.window.actions,
                "latencies": self.window.latencies,
                "failures": self.window.failures + len(late),
                "problems": self.window.problems,
                "calls": [(c.kind, self._call_key(c), c.status) for c in calls],
                "bot_cpu": cpu,
                "emu_cpu": emu_cpu,
                "lags": self.lags,
                "base": base,
                "after_setup": after_setup,
                "end": end,
                "errors": len(self.emu.errors),
            }
        finally:
            lag.cancel()
            for proc in self.procs:
                await proc.stop(timeout=10)
            await self.emu.close()
            if pg is not None:
                pg.stop()
            if not self.args.keep:
                shutil.rmtree(self.workdir, ignore_errors=True)
            else:
                print(f"kept {self.workdir}", file=sys.stderr)


def _merge_stats(each: list[dict[str, Any]]) -> dict[str, Any]:
    """One process's stats as they are; several processes' as one bot: samples pooled, counts
    and RSS summed, the peak RSS and the longest full collection the largest of any process
    (each process's peak RSS and table count kept in ``*_each``)."""
    if len(each) == 1:
        return each[0]
    out: dict[str, Any] = {}
    for key, first in each[0].items():
        values = [stats.get(key) for stats in each]
        if key == "traced":
            out[key] = first  # one process's allocations stand for the others'
        elif key in ("VmHWM", "gc_full_ms"):
            out[key] = max(v for v in values if v is not None)
        elif isinstance(first, list) and key not in ("gc_types", "gc_packages"):
            out[key] = [x for v in values for x in (v or [])]
        elif isinstance(first, dict):
            out[key] = {k: sum(v.get(k, 0) for v in values if v) for k in first}
        elif isinstance(first, int | float) and not isinstance(first, bool):
            out[key] = sum(v for v in values if v is not None)
        else:
            out[key] = first
    out["VmHWM_each"] = [stats["VmHWM"] for stats in each]
    out["tables_each"] = [stats.get("tables", 0) for stats in each]
    return out


# =============================================================================================
# Output
# =============================================================================================


_last_bar: dict[str, int] = {}


def _bar(label: str, fraction: float, detail: str, *, end: bool = False) -> None:
    """A progress bar on stderr (redrawn in place on a terminal, every quarter otherwise)."""
    width = 30
    fraction = max(0.0, min(1.0, fraction))
    filled = int(width * fraction)
    line = f"{label:<16} [{'#' * filled}{'.' * (width - filled)}] {detail}"
    if sys.stderr.isatty():
        sys.stderr.write(f"\r{line:<110}" + ("\n" if end else ""))
    else:
        quarter = 4 if end else int(fraction * 4)
        if _last_bar.get(label) == quarter:
            return
        _last_bar[label] = quarter
        sys.stderr.write(line + "\n")
    sys.stderr.flush()


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def summarise(r: dict[str, Any]) -> dict[str, Any]:
    every = [x for values in r["latencies"].values() for x in values]
    hands = max(r["hands"], 1)
    kinds = Counter(kind for kind, _, _ in r["calls"])
    routes = Counter((kind, key) for kind, key, _ in r["calls"])
    base, end = r["base"], r["end"]
    table_bytes = end.get("table_bytes") or [0]
    return {
        "T": r["T"],
        "N": r.get("processes", 1),
        "database": r.get("database", "sqlite"),
        "process_busy": [c / r["wall_idle"] * 100 for c in r.get("process_cpu", [r["bot_cpu"]])],
        "process_rss_peak": [b / 2**20 for b in r.get("process_rss_peak", [end["VmHWM"]])],
        "process_tables": r.get("process_tables", []),
        "db_s": len(end["transactions"]) / r["wall_idle"],
        "p50": _pct(every, 50) * 1000,
        "p99": _pct(every, 99) * 1000,
        "max": max(every, default=float("nan")) * 1000,
        "n": len(every),
        "hands_s": r["hands"] / r["wall"],
        "actions_s": r["actions"] / r["wall"],
        "cb": kinds["interaction_callback"] / hands,
        "wh": kinds["interaction_webhook"] / hands,
        "rest": kinds["rest"] / hands,
        "rest_s": kinds["rest"] / r["wall"],
        "routes": {f"{k} {key}": n / hands for (k, key), n in routes.most_common()},
        "rss_peak": end["VmHWM"] / 2**20,
        "kb_table_rss": (end["VmRSS"] - base["VmRSS"]) / r["T"] / 1024,
        "kb_table_file": (end.get("RssFile", 0) - base.get("RssFile", 0)) / r["T"] / 1024,
        "kb_table_obj": statistics.mean(table_bytes) / 1024,
        "kb_state_json": statistics.mean(end.get("state_json_bytes") or [0]) / 1024,
        "cpu_action": r["bot_cpu"] / max(r["actions"], 1) * 1000,
        "bot_cpu": r["bot_cpu"],
        "bot_busy": r["bot_cpu"] / r["wall_idle"] * 100,
        "emu_busy": r["emu_cpu"] / r["wall_idle"] * 100,
        "lag_p99": _pct(r["lags"], 99) * 1000,
        "bot_handling": (
            _pct(end["handling"], 50) * 1000,
            _pct(end["handling"], 99) * 1000,
            max(end["handling"], default=float("nan")) * 1000,
        ),
        "bot_lag_p99": _pct(end["loop_lag"], 99) * 1000,
        "db": (
            len(end["transactions"]),
            _pct(end["transactions"], 50) * 1000,
            _pct(end["transactions"], 99) * 1000,
            max(end["transactions"], default=float("nan")) * 1000,
        ),
        "failures": r["failures"],
        "problems": r["problems"],
        "errors": r["errors"],
        "hands": r["hands"],
        "setup_seconds": r["setup_seconds"],
        "warmup_seconds": r["warmup_seconds"],
        "undealt": r["undealt"],
        "by_kind": {
            k: (_pct(v, 50) * 1000, _pct(v, 99) * 1000, len(v)) for k, v in r["latencies"].items()
        },
        "view_store": end.get("view_store"),
        "live_views": end.get("live_views"),
        "tasks": end.get("tasks"),
        "gc_objects": end.get("gc_objects"),
        "gc_full_ms": end.get("gc_full_ms"),
        "trims": end.get("trims"),
        "gc_runs": _collections(end.get("collections", [])),
        "gc_types": end.get("gc_types"),
        "traced": end.get("traced"),
        "response_messages": (
            len(end.get("response_messages", [])),
            sum(end.get("response_messages", [])),
        ),
        "allocator": end.get("allocator") or {},
        "allocator_base": base.get("allocator") or {},
        "gc_unreachable": end.get("gc_unreachable", 0),
        "gc_garbage_types": end.get("gc_garbage_types") or [],
        "gc_packages": end.get("gc_packages"),
        "pymalloc": {
            k: (v - (base.get("pymalloc") or {}).get(k, 0)) / r["T"] / 1024
            for k, v in (end.get("pymalloc") or {}).items()
        },
        "census": _census_growth(base.get("census") or {}, end.get("census") or {}, r["T"]),
    }


def _census_growth(
    base: dict[str, list[int]], end: dict[str, list[int]], tables: int, limit: int = 15
) -> list[tuple[str, float, float]]:
    """The types that grew most from no table to T tables: (type, objects a table, bytes a
    table), largest first."""
    rows = []
    for name, (count, size) in end.items():
        count0, size0 = base.get(name, (0, 0))
        rows.append((name, (count - count0) / tables, (size - size0) / tables))
    rows.sort(key=lambda row: -row[2])
    return rows[:limit]


def _collections(runs: list[tuple[int, float]]) -> list[tuple[int, tuple[int, float, float]]]:
    """Per generation: how many collections, the longest and the total, in milliseconds."""
    out = []
    for gen in (0, 1, 2):
        times = [t * 1000 for g, t in runs if g == gen]
        out.append((gen, (len(times), max(times, default=0.0), sum(times))))
    return out


def _print_marginal(rows: list[dict[str, Any]]) -> None:
    """With several T in one run (same N and database), what each table added beyond the
    smaller run: the RSS growth per table above also carries what the process loads once, at
    its first hands (card tiles, fonts, lazily imported code, the database's page cache),
    spread over T; the difference of two runs leaves the tables alone."""
    by_kind: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for s in rows:
        by_kind.setdefault((s["N"], s["database"]), []).append(s)
    for (n, database), runs in by_kind.items():
        runs = sorted(runs, key=lambda s: s["T"])
        for small, large in itertools.pairwise(runs):
            grown = large["kb_table_rss"] * large["T"] - small["kb_table_rss"] * small["T"]
            fixed = (
                small["kb_table_rss"] * small["T"] - grown / (large["T"] - small["T"]) * small["T"]
            )
            print(
                f"N={n} ({database}): each table from T={small['T']} to T={large['T']} added "
                f"{grown / (large['T'] - small['T']):.1f} KB of RSS (what the process loads "
                f"once, by the same line: {fixed / 1024:.1f} MB)"
            )


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    rows = [summarise(r) for r in results]
    think = f"{args.think[0]:g}-{args.think[1]:g} s" if args.think[1] else "none"
    deal = f"auto-deal after {args.auto_deal} s" if args.deal == "auto" else "Deal pressed"
    print(
        f"\nBot load: {args.variant}, {PLAYERS} players a table, think time {think}, {deal}, "
        f"{args.seconds:g} s measured per T after a warm-up (at least {args.warmup:g} s)"
    )
    print(f"Machine: {os.cpu_count()} cores; load average before the runs {args.load_before}")
    header = (
        f"{'N':>2} {'db':>8} {'T':>4} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
        f"{'hands/s':>8} {'act/s':>6} "
        f"{'cb/h':>5} {'wh/h':>5} {'rest/h':>6} {'rest/s':>6} {'RSS MB':>7} {'KB/tbl':>7} "
        f"{'obj KB':>6} {'CPU ms/act':>10} {'bot %':>6} {'emu %':>6}"
    )
    print(header)
    print("-" * len(header))
    for s in rows:
        print(
            f"{s['N']:>2} {s['database']:>8} {s['T']:>4} {s['p50']:>7.1f} {s['p99']:>7.1f} "
            f"{s['max']:>7.1f} "
            f"{s['hands_s']:>8.2f} {s['actions_s']:>6.1f} {s['cb']:>5.1f} {s['wh']:>5.1f} "
            f"{s['rest']:>6.1f} {s['rest_s']:>6.1f} {s['rss_peak']:>7.1f} "
            f"{s['kb_table_rss']:>7.1f} {s['kb_table_obj']:>6.1f} {s['cpu_action']:>10.2f} "
            f"{s['bot_busy']:>6.0f} {s['emu_busy']:>6.0f}"
        )
    print(
        "\ncb/h, wh/h: interaction callbacks and webhooks per hand (not counted by Discord's "
        "global limit);\nrest/h: every other call per hand (counted; rest/s is the rate against "
        "the 50/s limit).\nKB/tbl: bot RSS growth from no table to T played tables, per table; "
        "obj KB: each table's engine,\nmeta and settings objects. bot %/emu %: CPU use of the bot "
        "process and of this process (emulator\n+ players) over the window; with N bot "
        "processes, bot % is their sum and RSS MB the largest one's.\nrest/s is per token: every "
        "process uses the same one, and Discord's 50/s global limit is per token."
    )
    _print_marginal(rows)
    for s in rows:
        print(
            f"\nN={s['N']} ({s['database']}) T={s['T']}: {s['hands']} hands, {s['n']} "
            f"interactions answered (setup {s['setup_seconds']:.0f} s, warm-up "
            f"{s['warmup_seconds']:.0f} s)"
        )
        if s["N"] > 1:
            for i, (busy, rss) in enumerate(
                zip(s["process_busy"], s["process_rss_peak"], strict=True)
            ):
                tables = s["process_tables"][i] if i < len(s["process_tables"]) else "?"
                print(
                    f"  process {i} (shard {i}): {tables} tables, CPU {busy:.0f}%, peak RSS "
                    f"{rss:.1f} MB"
                )
        if s["undealt"]:
            print(
                f"  warm-up cut short: {s['undealt']} players had no DM yet (the bot is behind; "
                "the window includes that backlog)"
            )
        for kind, (p50, p99, n) in sorted(s["by_kind"].items()):
            print(f"  latency {kind:<7} p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  ({n})")
        print(
            "  bot side, INTERACTION_CREATE parsed -> callback sent: p50 {:.1f} p99 {:.1f} max "
            "{:.1f} ms".format(*s["bot_handling"])
        )
        print(
            f"  event loop lag p99: bot {s['bot_lag_p99']:.1f} ms, emulator {s['lag_p99']:.1f} ms;"
            f" failed interactions {s['failures']}, player problems {s['problems']}, error "
            f"answers {s['errors']}"
        )
        print(
            "  database transactions: {} (asked -> answered p50 {:.1f} p99 {:.1f} max {:.1f} "
            "ms)".format(*s["db"])
            + f", {s['db_s']:.0f}/s"
        )
        print(
            f"  view store {s['view_store']}, live View objects {s['live_views']}, "
            f"tasks {s['tasks']}; engine snapshot JSON {s['kb_state_json']:.1f} KB"
        )
        print(
            f"  objects tracked by the bot's garbage collector: {s['gc_objects']:,}; a full "
            f"collection takes {s['gc_full_ms']:.0f} ms"
        )
        print(
            "  collections in the window (n, max ms, total ms): "
            + ", ".join(
                f"gen{g} {n} / {top:.1f} / {total:.0f}" for g, (n, top, total) in s["gc_runs"]
            )
        )
        if s.get("trims"):
            trims = s["trims"]  # [count, total ms, longest ms] of the first process
            print(
                f"  malloc_trim by the bot (after full collections and every few seconds): "
                f"{trims[0]} since start, {trims[1]:.0f} ms in all, the longest {trims[2]:.1f} ms"
            )
        if args.verbose:
            print(f"    by type {s['gc_types']}")
            print(f"    by package of the type {s['gc_packages']}")
        built, spent = s["response_messages"]
        if built:
            print(
                f"  callback responses built by discord.py (with_response): {built}, "
                f"{spent / built * 1e6:.0f} µs each, {spent / s['bot_cpu'] * 100:.1f}% of the "
                "bot's CPU time"
            )
        alloc, alloc0 = s.get("allocator"), s.get("allocator_base")
        if alloc and alloc0:
            per = 1024 * s["T"]
            used = (alloc["malloc_used"] - alloc0["malloc_used"]) / per
            held = (alloc["malloc_free"] - alloc0["malloc_free"]) / per
            print(
                f"  memory per table {s['kb_table_rss']:.1f} KB (RSS growth), "
                f"{s['kb_table_file']:.1f} KB of it pages of files the process maps (libraries "
                "and fonts first used by a hand: the same at any T); the C allocator's blocks in "
                f"use grew {used:.1f} KB a table and its freed but held ones "
                f"{held:.1f} KB (malloc_trim gives back {alloc['trim_returned'] / per:.1f} KB); "
                f"{s['gc_unreachable'] / s['T']:.0f} objects of cyclic garbage a table awaited "
                "the next full collection"
            )
            print(f"    that garbage by type: {s['gc_garbage_types']}")
        small = s.get("pymalloc")
        if small:
            print(
                f"  CPython's small-object arenas grew {small.get('arenas', 0):.1f} KB a table: "
                f"{small.get('used', 0):.1f} KB of objects, {small.get('free_blocks', 0):.1f} KB "
                f"free in pools still in use, {small.get('empty_pools', 0):.1f} KB of empty pools "
                "in arenas still in use"
            )
        if s.get("census"):
            total = sum(size for _, _, size in s["census"])
            print(
                "  live objects a table added, by type (the collector's objects and what they "
                f"hold directly; top {len(s['census'])}: {total / 1024:.1f} KB):"
            )
            for name, count, size in s["census"]:
                print(f"    {size / 1024:7.1f} KB  {count:7.1f} objects  {name}")
        traced = s.get("traced")
        if traced:
            print("  memory held per table, by where it was allocated (tracemalloc, top 15):")
            total = sum(size for _, size, _ in traced["filename"])
            for title, rows in (("file", traced["filename"]), ("line", traced["lineno"])):
                print(f"    by {title}:")
                for where, size, blocks in rows:
                    kb, per = size / s["T"] / 1024, blocks / s["T"]
                    print(f"      {kb:7.1f} KB  {per:7.1f} blocks  {where}")
            print(f"    (the top files: {total / s['T'] / 1024:.1f} KB a table)")
        print("  calls per hand by route:")
        for route, n in s["routes"].items():
            print(f"    {n:6.2f}  {route}")
    if args.profile:
        for r in results:
            path = Path(args.profile) / f"bot_T{r['T']}.prof"  # one process
            if path.exists():
                stats = pstats.Stats(str(path))
                print(f"\nProfile of the bot, T={r['T']} ({path}), its own time by part:")
                for part, seconds, share in _time_by_part(stats):
                    print(f"    {share:6.1%}  {seconds:8.2f} s  {part}")
                print("  top 25 by own time:")
                stats.sort_stats("tottime").print_stats(25)


# The parts of the bot a profile's own time is summed by, first match wins: the project's
# packages by folder, then the libraries it spends most in.
_PARTS = (
    ("engine (the rules)", "/engine/"),
    ("tables (live tables)", "/tables/"),
    ("cogs (Discord layer)", "/cogs/"),
    ("data (SQL)", "/data/"),
    ("i18n", "/i18n/"),
    ("discord.py", "/site-packages/discord/"),
    ("other libraries (aiohttp, aiosqlite...)", "/site-packages/"),
    ("asyncio", "/asyncio/"),
)


def _time_by_part(stats: pstats.Stats) -> list[tuple[str, float, float]]:
    """``(part, seconds, share)`` of the profile's own time, busiest first. The event loop's
    wait for sockets (``select``'s poll) is idle time, not work: it is left out. Builtins are
    counted under "other" (a profile does not say which Python code called them)."""
    own: dict[str, float] = {}
    for (filename, _, name), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        if name == "<method 'poll' of 'select.epoll' objects>":
            continue
        path = filename.replace("\\", "/")
        part = next((label for label, folder in _PARTS if folder in path), "other")
        own[part] = own.get(part, 0.0) + tottime
    total = sum(own.values()) or 1.0
    return [
        (part, seconds, seconds / total)
        for part, seconds in sorted(own.items(), key=lambda item: -item[1])
    ]


# =============================================================================================


async def _run_one(
    tables: int, args: argparse.Namespace, processes: int = 1, database: str = "sqlite"
) -> dict[str, Any]:
    return await LoadRun(tables, args, processes, database).run()


def _think(text: str) -> tuple[float, float]:
    lo, _, hi = text.partition("-")
    return float(lo), float(hi or lo)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--tables", type=listed(positive), default="10,100,500", help="comma-separated T values"
    )
    parser.add_argument("--seconds", type=duration, default=45.0, help="measured seconds per T")
    parser.add_argument("--warmup", type=float, default=10.0, help="least warm-up seconds")
    parser.add_argument(
        "--think", type=_think, default=(1.0, 3.0), help="seconds before each press: 1-3, 0"
    )
    parser.add_argument("--deal", choices=("auto", "button"), default="auto")
    parser.add_argument("--auto-deal", type=int, default=2, help="the tables' auto_deal seconds")
    parser.add_argument("--variant", default="five-card-draw")
    parser.add_argument("--setup-concurrency", type=int, default=50)
    parser.add_argument("--profile", metavar="DIR", help="cProfile the bot's play window")
    parser.add_argument(
        "--profile-clock",
        choices=("wall", "cpu"),
        default="wall",
        help="the profile's clock: wall time, or the bot's main thread's CPU time",
    )
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="trace the bot's allocations (slower) and print what its tables hold, by file",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database and bot log")
    parser.add_argument("--json", metavar="FILE", help="also write the raw figures here")
    parser.add_argument(
        "--processes",
        type=listed(positive),
        default="1",
        help="comma-separated numbers of bot processes (shards)",
    )
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    if args.child:
        return child_main()
    args.load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    results = []
    for count in (int(n) for n in args.processes):
        for text in args.tables:
            tables = int(text)
            results.append(asyncio.run(_run_one(tables, args, count, args.database)))
    report(results, args)
    if args.json:
        Path(args.json).write_text(json.dumps([summarise(r) for r in results], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
