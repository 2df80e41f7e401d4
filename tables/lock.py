"""A table's lock: :class:`asyncio.Lock` without the queue it keeps for good.

:class:`asyncio.Lock` makes its queue of waiters the first time two tasks want it, and keeps
that queue (an empty deque takes about 600 bytes) for the rest of its life. A bot holds two
locks a table, nearly all of them contended once: a kilobyte a table kept for nothing. This
lock drops its queue as soon as the last waiter is served.

It also hands the lock straight to the first waiter on release (asyncio's wakes the waiter,
which then takes the lock if nobody else did in between): the same order of service, without
a newcomer slipping ahead of tasks that have waited.

>>> import asyncio
>>> async def demo() -> list[str]:
...     lock, order = TableLock(), []
...     async def work(name: str) -> None:
...         async with lock:
...             order.append(name)
...             await asyncio.sleep(0)
...     await asyncio.gather(work("a"), work("b"), work("c"))
...     return order + [str(lock.locked()), str(lock.waiting())]
>>> asyncio.run(demo())
['a', 'b', 'c', 'False', '0']
"""

from __future__ import annotations

import asyncio
from collections import deque
from types import TracebackType

__all__ = ["TableLock"]


class TableLock:
    """A first-come, first-served asyncio lock that keeps no queue while nobody waits."""

    __slots__ = ("_held", "_waiters")

    def __init__(self) -> None:
        self._held = False
        self._waiters: deque[asyncio.Future[None]] | None = None

    def locked(self) -> bool:
        return self._held

    def waiting(self) -> int:
        """How many tasks wait for the lock."""
        return 0 if self._waiters is None else len(self._waiters)

    async def acquire(self) -> bool:
        if not self._held:
            self._held = True
            return True
        waiters = self._waiters
        if waiters is None:
            waiters = self._waiters = deque()
        served: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiters.append(served)
        try:
            await served  # release() hands the lock over: it stays held, now by this task
        except asyncio.CancelledError:
            if served.done() and not served.cancelled():
                self.release()  # handed over as this task was cancelled: pass it on
            else:
                self._forget(served)
            raise
        return True

    def release(self) -> None:
        if not self._held:
            raise RuntimeError("the lock is not held")
        waiters = self._waiters
        while waiters:
            served = waiters.popleft()
            if not served.done():
                served.set_result(None)
                if not waiters:
                    self._waiters = None
                return
        self._waiters = None
        self._held = False

    def _forget(self, served: asyncio.Future[None]) -> None:
        waiters = self._waiters
        if waiters is not None:
            if served in waiters:  # release() may have passed it by already
                waiters.remove(served)
            if not waiters:
                self._waiters = None

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()
