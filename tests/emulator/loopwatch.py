"""What a bot running in the test's own event loop still has to do, for :meth:`Emulator.idle`.

A bot between two REST calls is not necessarily done: it may be drawing a picture in a worker
thread, waiting for a database thread, or a few event-loop turns away from its next request
(a lock handed over, a response being read). On a loaded machine any of these outlasts a quiet
window measured in milliseconds. Seen from the loop they all show as one of:

* a callback ready to run (``loop._ready`` is not empty): the bot, or the emulator serving it,
  has something to do right now. Every wake-up from another thread (``call_soon_threadsafe``,
  which thread pools and aiosqlite use) lands there too;
* a job handed to a thread pool and not finished (``loop.run_in_executor``, which
  ``asyncio.to_thread`` uses): counted by wrapping that method on the loop;
* a call of a method registered with :func:`counting_as_work` in flight (e.g. a database
  transaction, which another library runs in its own thread).

Long waits are none of these: a timer (``call_later``, ``asyncio.sleep``) sits in the loop's
schedule, not in its ready queue, and a task waiting for the gateway waits on a socket.

``loop._ready`` is private to asyncio; ``tests/emulator_tests/test_idle.py`` pins it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import weakref
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["LoopWatch", "counting_as_work"]

_WATCHES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopWatch] = (
    weakref.WeakKeyDictionary()
)


class LoopWatch:
    """Work in flight in one event loop. :meth:`attach` installs it (once per loop, counted),
    :meth:`detach` takes it off when the last user is done."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.thread_jobs = 0  # run_in_executor futures not done
        self.calls = 0  # calls of methods counted as work, in flight
        self._users = 0

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def attach(cls, loop: asyncio.AbstractEventLoop | None = None) -> LoopWatch:
        loop = loop or asyncio.get_running_loop()
        watch = _WATCHES.get(loop)
        if watch is None:
            watch = _WATCHES[loop] = cls(loop)
            watch._install()
        watch._users += 1
        return watch

    def detach(self) -> None:
        self._users -= 1
        if self._users <= 0:
            self._uninstall()
            _WATCHES.pop(self.loop, None)

    @classmethod
    def current(cls) -> LoopWatch | None:
        """The watch on the running loop, if any."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None
        return _WATCHES.get(loop)

    def _install(self) -> None:
        original = self.loop.run_in_executor

        def run_in_executor(executor: Any, func: Callable[..., Any], *args: Any) -> Any:
            future = original(executor, func, *args)
            self.thread_jobs += 1
            future.add_done_callback(self._job_done)
            return future

        # An attribute of this loop object only: the class and other loops are untouched.
        self.loop.run_in_executor = run_in_executor  # type: ignore[method-assign,assignment]

    def _uninstall(self) -> None:
        vars(self.loop).pop("run_in_executor", None)

    def _job_done(self, _: object) -> None:
        self.thread_jobs -= 1

    # ------------------------------------------------------------------ looking
    def runnable(self) -> int:
        """Callbacks ready to run now, besides the one running (the caller's own step)."""
        ready = getattr(self.loop, "_ready", None)
        return len(ready) if ready is not None else 0

    def busy(self) -> str | None:
        """Why the loop is not idle, or None."""
        if self.thread_jobs:
            return f"{self.thread_jobs} thread job(s) running"
        if self.calls:
            return f"{self.calls} call(s) counted as work in flight"
        if ready := self.runnable():
            return f"{ready} callback(s) ready to run"
        return None


@contextlib.contextmanager
def counting_as_work(owner: type, name: str) -> Iterator[None]:
    """While active, each call of the coroutine method ``owner.name`` (defined on ``owner``
    itself) counts as work in flight for ``emu.idle()`` until it returns: for work another
    library does outside the loop's sight, e.g. a database transaction in a driver's thread.
    Only for calls that end soon: a call that waits for minutes keeps ``idle()`` waiting."""
    original = vars(owner)[name]  # KeyError: the method moved, the tracking would be lost

    @functools.wraps(original)
    async def counted(*args: Any, **kwargs: Any) -> Any:
        watch = LoopWatch.current()
        if watch is None:
            return await original(*args, **kwargs)
        watch.calls += 1
        try:
            return await original(*args, **kwargs)
        finally:
            watch.calls -= 1

    setattr(owner, name, counted)
    try:
        yield
    finally:
        setattr(owner, name, original)
