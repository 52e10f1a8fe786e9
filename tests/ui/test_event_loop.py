"""The app's event loop resumes a task whose wake-up was scheduled from another thread.

The cyclic garbage collector runs on whichever thread allocates past its threshold; closing a
collected coroutine there runs its `finally` blocks, and one that finishes a future schedules the
waiter's wake-up from that thread. qasync's own loop dropped such wake-ups (Qt refuses timers
from another thread), and the suite's teardown then waited for ever (issue 18).
"""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from tests.ui.loop_runner import LoopRunner


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    yield loop_runner
    loop_runner.close()


class _Holder:
    cycle: object = None


def test_a_wake_up_from_the_collector_on_another_thread_resumes_the_waiter(
    runner: LoopRunner,
) -> None:
    async def scenario() -> str:
        finished: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        waiting = asyncio.Event()

        async def wait_for_it() -> str:
            waiting.set()
            return await finished

        waiter = asyncio.ensure_future(wait_for_it())
        await waiting.wait()  # `waiter` now waits on `finished` (it went on without yielding)

        async def abandoned(holder: _Holder) -> None:
            try:
                await asyncio.Event().wait()
            finally:
                finished.set_result("woken")  # runs on the thread that collects the coroutine

        # Earlier tests' garbage (Qt wrappers among it) is collected here first: destroyed on the
        # collecting thread, a QObject's timers would warn, and that is not what is tested.
        gc.collect()
        gc.disable()
        try:
            holder = _Holder()
            coroutine = abandoned(holder)
            holder.cycle = (holder, coroutine)  # only the cyclic collector can free it
            coroutine.send(None)
            del holder, coroutine
            collector = threading.Thread(target=gc.collect)
            collector.start()
            collector.join()
        finally:
            gc.enable()
        assert finished.done()
        return await asyncio.wait_for(waiter, 5)

    assert runner.run(scenario()) == "woken"


def test_a_callback_from_another_thread_keeps_its_delay_order_and_can_be_cancelled(
    runner: LoopRunner,
) -> None:
    async def scenario() -> list[str]:
        loop = asyncio.get_running_loop()
        ran: list[str] = []
        handles: list[asyncio.Handle] = []

        def schedule() -> None:
            handles.append(loop.call_later(0.05, ran.append, "later"))
            handles.append(loop.call_soon(ran.append, "soon"))
            handles.append(loop.call_soon(ran.append, "cancelled"))

        thread = threading.Thread(target=schedule)
        thread.start()
        thread.join()
        handles[2].cancel()
        all_ran = loop.create_future()
        loop.call_later(0.2, all_ran.set_result, None)
        await all_ran
        return ran

    assert runner.run(scenario()) == ["soon", "later"]
