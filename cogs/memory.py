"""Keep the bot's memory per table small: free each answered interaction at once, and give the
memory the process has freed back to the system now and then.

Two things made a busy bot's resident memory several times what it holds:

* discord.py ties every interaction to its response in a reference cycle (the interaction
  caches its :class:`discord.InteractionResponse`, which points back at it). What hangs off an
  interaction (the pressed message, its buttons, the member) then waits for the garbage
  collector's full pass, which :data:`cogs.app.GC_THRESHOLDS` makes rare on purpose.
  :func:`release_answered` breaks that cycle once the interaction has been answered.
* The C allocator (glibc) keeps freed memory for reuse; the holes a burst leaves between live
  blocks are never handed back by itself. Worse, glibc raises its threshold for serving a
  large block from its own pages (``mmap``) each time such a block is freed, so that later
  large blocks (JSON payloads, network buffers) land in the heap and leave holes there:
  :func:`tune_allocator` fixes the threshold at start-up (at 500 tables, 106 -> 76 KB a table).
  Then :class:`Trimmer` calls ``malloc_trim`` after each full collection and every
  :data:`TRIM_SECONDS` (well under a millisecond at 500 tables).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.enums import InteractionResponseType

log = logging.getLogger("poker")

TRIM_SECONDS = 3.0
"""How often the allocator's freed memory is handed back, besides after each full collection.
A trim takes well under a millisecond at 500 tables; what a busy bot frees meanwhile is held
until the next one: with a trim every 10 s, 9 KB a table at 500 tables was held at a given
moment, hence the shorter period."""


class AnsweredResponse(discord.InteractionResponse[Any]):
    """What :attr:`discord.Interaction.response` is once the interaction has been answered.

    discord.py's answers all begin by refusing a second answer (``if self._response_type:
    raise InteractionResponded(self._parent)``), so once answered a response only says that
    it is done and how: this stand-in says the same without pointing back at the interaction.
    (The one difference: :class:`discord.InteractionResponded` raised by a second answer
    carries ``interaction=None``; nothing in the bot reads it.)
    """

    __slots__ = ()

    def __init__(self, kind: InteractionResponseType) -> None:
        self._parent = None  # type: ignore[assignment]
        self._response_type = kind


def release_answered(interaction: discord.Interaction[Any]) -> None:
    """If ``interaction`` has been answered, cut the cycle between it and its response (see
    :class:`AnsweredResponse`), so that it is freed as soon as nothing uses it any more.

    Harmless at any time: an answer under way holds its own response object (whose
    ``_parent`` still reaches the interaction) and finishes with it."""
    # discord.py caches ``interaction.response`` in this slot (pinned by a test).
    response = getattr(interaction, "_cs_response", None)
    if response is None or isinstance(response, AnsweredResponse):
        return  # never asked for (no response, no cycle), or already released
    kind = response._response_type
    if kind is None:
        return  # not answered yet: a later task may still answer it
    setattr(interaction, "_cs_response", AnsweredResponse(kind))  # noqa: B010


LARGE_BLOCK = 128 * 1024
"""Blocks this large or larger get pages of their own, handed back when freed (glibc's
starting value, which it otherwise raises as the bot runs)."""

_M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3


def tune_allocator() -> bool:
    """Fix glibc's thresholds for serving large blocks from their own pages and for giving
    back the heap's free top at :data:`LARGE_BLOCK` (see the module's docstring); whether it
    was done (not on other C libraries, nor when ``GLIBC_TUNABLES`` or ``MALLOC_*`` set them)."""
    libc = _load_glibc()
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    chosen = "mmap_threshold" in tunables or "MALLOC_MMAP_THRESHOLD_" in os.environ
    if libc is None or chosen or not hasattr(libc, "mallopt"):
        return False
    libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    libc.mallopt.restype = ctypes.c_int
    done = libc.mallopt(_M_MMAP_THRESHOLD, LARGE_BLOCK) == 1
    return bool(libc.mallopt(_M_TRIM_THRESHOLD, LARGE_BLOCK) == 1 and done)


def _load_glibc() -> Any:
    """The C library when it is glibc and has ``malloc_trim``; else None (macOS, musl...)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return libc


class Trimmer:
    """Hands the memory glibc's allocator holds freed back to the system: after each full
    garbage collection (when a pile of garbage has just been freed) and every
    :data:`TRIM_SECONDS`. Does nothing where the C library is not glibc.

    ``chores`` run every :data:`TRIM_SECONDS` just before the trim, wherever the C library:
    each forgets what it no longer needs (idle rate-limit buckets, members' old press times),
    so that the memory it frees is handed back at once."""

    def __init__(self, every: float = TRIM_SECONDS) -> None:
        self._libc = _load_glibc()
        self._every = every
        self.chores: list[Callable[[], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._pending = False
        self.trims = 0
        self.seconds = 0.0
        """How many trims ran and how long they took in all (the benchmark prints them)."""
        self.longest = 0.0

    @property
    def available(self) -> bool:
        return self._libc is not None

    def trim(self) -> None:
        self._pending = False
        if self._libc is not None:
            started = time.perf_counter()
            self._libc.malloc_trim(0)
            spent = time.perf_counter() - started
            self.trims += 1
            self.seconds += spent
            self.longest = max(self.longest, spent)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._loop is not None:
            return
        self._loop = loop
        if self._libc is not None:
            gc.callbacks.append(self._after_collection)
        self._schedule()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._after_collection in gc.callbacks:
            gc.callbacks.remove(self._after_collection)
        self._loop = None

    def _schedule(self) -> None:
        assert self._loop is not None
        self._timer = self._loop.call_later(self._every, self._tick)

    def _tick(self) -> None:
        for chore in self.chores:
            try:
                chore()
            except Exception:
                log.exception("memory chore %r failed", chore)
        self.trim()
        self._schedule()

    def _after_collection(self, phase: str, info: dict[str, int]) -> None:
        # Not from inside the collector: the next turn of the event loop does it.
        if phase == "stop" and info["generation"] == 2 and not self._pending:
            loop = self._loop
            if loop is not None and not loop.is_closed():
                self._pending = True
                call: Callable[[], None] = self.trim
                loop.call_soon_threadsafe(call)
