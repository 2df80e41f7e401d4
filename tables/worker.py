"""The one thread that counts draw odds for the bot (the coach's panels, house players).

A first count for a game can take a few hundred milliseconds: it runs here rather than on the
event loop. The odds engine remembers what it counted in memory shared by every caller, so
one thread at a time uses it.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="odds")


async def in_worker(work: Callable[..., T], *args: object) -> T:
    """``work(*args)`` in the odds thread, awaited without blocking the event loop. The work
    runs in the caller's context (as :func:`asyncio.to_thread` does): text it writes speaks
    the caller's language (:func:`i18n.speaking`), not the thread's English."""
    context = contextvars.copy_context()
    call = functools.partial(context.run, work, *args)
    return await asyncio.get_running_loop().run_in_executor(_WORKER, call)


__all__ = ["in_worker"]
