"""``emu.idle()`` waits for work of a bot in the test's loop that makes no REST call: a thread
job, a chain of loop turns, a call counted as work; it does not wait for timers. The asyncio
internals it reads (``loop._ready``) are pinned here: if they change, these tests fail."""

from __future__ import annotations

import asyncio
import collections
import time

import pytest

from tests.emulator import Emulator
from tests.emulator.loopwatch import LoopWatch, counting_as_work


async def test_the_watch_sees_the_loops_ready_queue(emu: Emulator) -> None:
    loop = asyncio.get_running_loop()
    # Private to asyncio, read by LoopWatch.runnable(): a deque of the handles ready to run.
    assert isinstance(getattr(loop, "_ready", None), collections.deque)
    watch = LoopWatch.current()
    assert watch is not None
    await asyncio.sleep(0)
    before = watch.runnable()
    handle = loop.call_soon(lambda: None)
    assert watch.runnable() == before + 1
    handle.cancel()
    await asyncio.sleep(0)
    # The emulator attached the watch; it wraps run_in_executor on this loop object only.
    assert "run_in_executor" in vars(loop)
    await asyncio.to_thread(time.sleep, 0)
    assert watch.thread_jobs == 0


async def test_idle_waits_for_a_thread_job(emu: Emulator) -> None:
    done: list[float] = []

    def draw() -> None:
        time.sleep(0.3)
        done.append(time.perf_counter())

    task = asyncio.create_task(asyncio.to_thread(draw))
    await asyncio.sleep(0)
    await emu.idle()
    assert done and done[0] <= time.perf_counter()
    await task


async def test_idle_waits_for_a_chain_of_loop_turns(emu: Emulator) -> None:
    """A bot hopping from one loop turn to the next (a lock handed over, a response read) for
    longer than the quiet window, without a REST call, is busy."""
    finished: list[bool] = []

    async def hop() -> None:
        end = time.perf_counter() + 0.2
        while time.perf_counter() < end:
            await asyncio.sleep(0)
        finished.append(True)

    task = asyncio.create_task(hop())
    await asyncio.sleep(0)
    await emu.idle()
    assert finished
    await task


class _Driver:
    async def query(self, seconds: float) -> str:
        await asyncio.sleep(seconds)  # stands for a database thread's answer
        return "row"


async def test_idle_waits_for_a_call_counted_as_work(emu: Emulator) -> None:
    with counting_as_work(_Driver, "query"):
        task = asyncio.create_task(_Driver().query(0.3))
        await asyncio.sleep(0)
        await emu.idle()
        assert task.done() and task.result() == "row"
    assert _Driver.query.__qualname__ == "_Driver.query"  # put back


async def test_counting_a_method_that_is_not_there_fails_loudly() -> None:
    with pytest.raises(KeyError), counting_as_work(_Driver, "querry"):
        pass


async def test_idle_does_not_wait_for_timers(emu: Emulator) -> None:
    loop = asyncio.get_running_loop()
    timer = loop.call_later(60, lambda: None)  # an action clock
    sleeper = asyncio.create_task(asyncio.sleep(60))  # an auto-deal wait
    await asyncio.sleep(0)
    t0 = time.perf_counter()
    await emu.idle()
    assert time.perf_counter() - t0 < 1.0
    timer.cancel()
    sleeper.cancel()


async def test_idle_times_out_naming_what_is_busy(emu: Emulator) -> None:
    task = asyncio.create_task(asyncio.to_thread(time.sleep, 0.5))
    await asyncio.sleep(0)
    with pytest.raises(TimeoutError, match="thread job"):
        await emu.idle(timeout=0.1)
    await task


async def test_the_watch_goes_with_the_last_emulator() -> None:
    loop = asyncio.get_running_loop()
    first, second = Emulator(), Emulator()
    await first.start()
    await second.start()
    await first.close()
    assert "run_in_executor" in vars(loop)
    await second.close()
    assert "run_in_executor" not in vars(loop)
    assert LoopWatch.current() is None
