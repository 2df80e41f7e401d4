"""The table lock: served in order, no queue kept, cancellation never loses the lock."""

from __future__ import annotations

import asyncio

import pytest

from tables.lock import TableLock


def test_waiters_are_served_in_order_and_no_queue_is_kept() -> None:
    async def run() -> tuple[list[int], TableLock]:
        lock, order = TableLock(), []

        async def work(n: int) -> None:
            async with lock:
                order.append(n)
                await asyncio.sleep(0)

        await asyncio.gather(*(work(n) for n in range(5)))
        return order, lock

    order, lock = asyncio.run(run())
    assert order == [0, 1, 2, 3, 4]
    assert not lock.locked()
    assert lock._waiters is None  # the point of this lock: no deque kept after contention


def test_a_cancelled_waiter_leaves_the_queue_and_the_next_one_is_served() -> None:
    async def run() -> list[str]:
        lock, order = TableLock(), []
        await lock.acquire()
        first = asyncio.create_task(lock.acquire())
        second = asyncio.create_task(lock.acquire())
        await asyncio.sleep(0)
        assert lock.waiting() == 2
        first.cancel()
        await asyncio.sleep(0)
        assert lock.waiting() == 1
        lock.release()
        await second
        order.append("second")
        assert lock.locked()
        lock.release()
        assert not lock.locked() and lock.waiting() == 0
        with pytest.raises(asyncio.CancelledError):
            await first
        return order

    assert asyncio.run(run()) == ["second"]


def test_a_waiter_cancelled_after_the_lock_was_handed_to_it_passes_it_on() -> None:
    async def run() -> None:
        lock = TableLock()
        await lock.acquire()
        first = asyncio.create_task(lock.acquire())
        second = asyncio.create_task(lock.acquire())
        await asyncio.sleep(0)
        lock.release()  # handed to ``first``, which has not run yet
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        assert await second is True  # ``first`` passed the lock on
        assert lock.locked() and lock.waiting() == 0
        lock.release()
        assert not lock.locked()

    asyncio.run(run())


def test_releasing_a_free_lock_is_refused() -> None:
    with pytest.raises(RuntimeError, match="not held"):
        TableLock().release()
