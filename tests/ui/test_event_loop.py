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


def test_callbacks_due_now_run_in_order_from_one_qt_timer(
    runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """qasync started a Qt timer per `call_soon` (~25 a page of a sync, each a call from C++
    into Python); the loop drains them from one queue, in the order they were asked for."""

    async def scenario() -> tuple[list[int], int]:
        loop = asyncio.get_running_loop()
        timers: list[float] = []
        start_timer = loop._timer.add_callback  # type: ignore[attr-defined]

        def counted(handle: asyncio.Handle, delay: float = 0) -> asyncio.Handle:
            timers.append(delay)
            return start_timer(handle, delay)

        monkeypatch.setattr(loop._timer, "add_callback", counted)  # type: ignore[attr-defined]
        ran: list[int] = []
        done = loop.create_future()
        for number in range(500):
            loop.call_soon(ran.append, number)
        loop.call_soon(done.set_result, None)
        await done
        return ran, len(timers)

    ran, timers = runner.run(scenario())
    assert ran == list(range(500))
    assert timers <= 3  # one drain (and the await's own wake-up), not 501 timers


def test_a_callback_asked_for_during_a_batch_lets_qt_events_come_first(
    runner: LoopRunner,
) -> None:
    """The batch runs what was due when it started; what those callbacks schedule waits for
    the next one, so a paint or a click queued meanwhile is not held back by a chain of wake-ups
    that never ends."""
    from PySide6.QtCore import QTimer

    async def scenario() -> list[str]:
        loop = asyncio.get_running_loop()
        order: list[str] = []
        done = loop.create_future()

        def first() -> None:
            order.append("first")
            loop.call_soon(second)
            QTimer.singleShot(0, lambda: order.append("qt"))

        def second() -> None:
            order.append("second")
            done.set_result(None)

        loop.call_soon(first)
        await done
        return order

    assert runner.run(scenario()) == ["first", "qt", "second"]


def test_a_cancelled_callback_is_skipped_and_a_failing_one_does_not_stop_the_batch(
    runner: LoopRunner,
) -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        loop = asyncio.get_running_loop()
        ran: list[str] = []
        reported: list[str] = []
        loop.set_exception_handler(
            lambda _loop, context: reported.append(str(context["exception"]))
        )
        done = loop.create_future()

        def fail() -> None:
            raise ValueError("broken callback")

        loop.call_soon(ran.append, "one")
        loop.call_soon(ran.append, "cancelled").cancel()
        loop.call_soon(fail)
        loop.call_soon(ran.append, "two")
        loop.call_soon(done.set_result, None)
        await done
        loop.set_exception_handler(None)
        return ran, reported

    assert runner.run(scenario()) == (["one", "two"], ["broken callback"])


def test_in_debug_mode_a_coroutine_function_is_still_refused(runner: LoopRunner) -> None:
    async def coroutine_function() -> None:
        return None

    loop = runner.loop
    loop.set_debug(True)
    try:
        with pytest.raises(TypeError):
            loop.call_soon(coroutine_function)
    finally:
        loop.set_debug(False)


def test_a_cancelled_delayed_callback_leaves_no_timer_behind(runner: LoopRunner) -> None:
    """Every request's read and write deadline is a delayed callback cancelled as soon as the
    data is there; qasync kept each one's Qt timer until its 30 s were up (~600 after a sync),
    and Qt filed every new timer behind them."""

    async def scenario() -> tuple[int, int, list[str]]:
        loop = asyncio.get_running_loop()
        pending = loop._delayed  # type: ignore[attr-defined]
        before = pending.pending
        handles = [loop.call_later(30, lambda: None) for _ in range(100)]
        started = pending.pending - before
        for handle in handles:
            handle.cancel()
        ran: list[str] = []
        done = loop.create_future()
        loop.call_later(0.02, ran.append, "on time")
        loop.call_later(0.03, done.set_result, None)
        await done
        return started, pending.pending - before, ran

    started, left, ran = runner.run(scenario())
    assert started == 100
    assert left == 0
    assert ran == ["on time"]
