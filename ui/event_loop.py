"""The asyncio loop Postdesk runs on: qasync's, safe for callbacks scheduled from another thread.

qasync runs every callback through `QObject.startTimer`, which Qt refuses on any thread but the
loop's own: it warns "Timers cannot be started from another thread", returns 0, and the callback
is kept but never run. Callbacks are scheduled from other threads without anyone asking for it:
Python's cyclic garbage collector runs on whichever thread allocates past its threshold (the
cache writer, the sync's page worker, a keyring lookup, a test's server), and closing a
collected coroutine runs its `finally` blocks there. Releasing a lock or finishing a future in
such a block wakes the waiter through `loop.call_soon`, and the waiter was never resumed: a quit,
a workspace switch or a test's teardown then waited for it for ever, at 0 % CPU.

Here a callback (or a socket watch) asked for from another thread is handed to the loop's thread
the way `call_soon_threadsafe` does, and keeps its handle: cancelling it still works.

`call_soon` is asyncio's busiest call (every future that completes wakes its waiters through it:
~25 a page of a sync). qasync gives each one a Qt timer of its own (`startTimer`, a `timerEvent`
call from C++ into Python, `killTimer`) after an `inspect`-based check that it is not a
coroutine function. Here the callbacks due now wait in one queue that a single zero timer
drains, in order, as asyncio's own loop runs its ready queue; the check runs in debug mode only,
as in asyncio. Callbacks added while a batch runs go to the next batch, so Qt's events (paints,
input, sockets) still come between batches.

A delayed callback (`call_later`, `call_at`) gets a Qt timer of its own that cancelling it
stops. qasync left a cancelled one's timer running until its time came: every request's read and
write deadline (anyio's, 30 s) is cancelled as soon as the data is there, so a sync left ~600
dead timers behind, and Qt then filed each new timer behind all of them and woke for each one
30 s later.
"""

from __future__ import annotations

import asyncio
import collections
import threading
from typing import Any

import qasync
from PySide6.QtCore import QObject, QTimerEvent


class EventLoop(qasync.QEventLoop):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._loop_thread = threading.get_ident()
        self._due: collections.deque[asyncio.Handle] = collections.deque()
        self._drain_asked = False
        self._delayed = _DelayedTimers(self)
        super().__init__(*args, **kwargs)
        self._drain_handle = asyncio.Handle(self._drain, (), self)

    def _elsewhere(self) -> bool:
        return threading.get_ident() != self._loop_thread

    def call_soon(self, callback: Any, *args: Any, context: Any = None) -> asyncio.Handle:
        if self.get_debug():
            return super().call_soon(callback, *args, context=context)
        return self._add_callback(asyncio.Handle(callback, args, self, context=context))

    def call_later(
        self, delay: float, callback: Any, *args: Any, context: Any = None
    ) -> asyncio.TimerHandle:
        if self.get_debug():
            return super().call_later(delay, callback, *args, context=context)
        handle = asyncio.TimerHandle(self.time() + delay, callback, args, self, context=context)
        handle._scheduled = True  # type: ignore[attr-defined]  # cancel() then tells _timer_handle_cancelled
        if delay <= 0:
            self._add_callback(handle)
        elif self._elsewhere():
            self.call_soon_threadsafe(self._delayed.start, handle)
        else:
            self._delayed.start(handle)
        return handle

    def call_at(
        self, when: float, callback: Any, *args: Any, context: Any = None
    ) -> asyncio.TimerHandle:
        return self.call_later(when - self.time(), callback, *args, context=context)

    def _timer_handle_cancelled(self, handle: asyncio.TimerHandle) -> None:
        if self._elsewhere():
            self.call_soon_threadsafe(self._delayed.stop, handle)
        else:
            self._delayed.stop(handle)

    def close(self) -> None:
        if not self.is_running():
            self._delayed.stop_all()
        super().close()

    def _add_callback(self, handle: asyncio.Handle, delay: float = 0) -> asyncio.Handle:
        if self._elsewhere():
            self.call_soon_threadsafe(self._timer.add_callback, handle, delay)
            return handle
        if delay > 0:
            return super()._add_callback(handle, delay)
        self._due.append(handle)
        self._ask_for_drain()
        return handle

    def _ask_for_drain(self) -> None:
        if not self._drain_asked:
            self._drain_asked = True
            super()._add_callback(self._drain_handle, 0)

    def _drain(self) -> None:
        self._drain_asked = False
        batch, self._due = self._due, collections.deque()
        try:
            while batch:
                handle = batch.popleft()
                if not handle.cancelled():
                    handle._run()
        finally:
            if batch:  # a callback raised through the loop: the rest still run, later
                self._due.extendleft(reversed(batch))
                self._ask_for_drain()

    def _add_reader(self, fd: Any, callback: Any, *args: Any) -> None:
        if self._elsewhere():
            self.call_soon_threadsafe(super()._add_reader, fd, callback, *args)
        else:
            super()._add_reader(fd, callback, *args)

    def _remove_reader(self, fd: Any) -> bool:
        if self._elsewhere():
            self.call_soon_threadsafe(super()._remove_reader, fd)
            return True
        return bool(super()._remove_reader(fd))

    def _add_writer(self, fd: Any, callback: Any, *args: Any) -> None:
        if self._elsewhere():
            self.call_soon_threadsafe(super()._add_writer, fd, callback, *args)
        else:
            super()._add_writer(fd, callback, *args)

    def _remove_writer(self, fd: Any) -> bool:
        if self._elsewhere():
            self.call_soon_threadsafe(super()._remove_writer, fd)
            return True
        return bool(super()._remove_writer(fd))


class _DelayedTimers(QObject):
    """One Qt timer per pending delayed callback, stopped when the callback is cancelled."""

    def __init__(self, loop: EventLoop) -> None:
        super().__init__()
        self._loop = loop
        self._by_timer: dict[int, asyncio.TimerHandle] = {}
        self._timer_of: dict[int, int] = {}  # id(handle) -> timer (handles compare by time)

    @property
    def pending(self) -> int:
        return len(self._by_timer)

    def start(self, handle: asyncio.TimerHandle) -> None:
        if handle.cancelled():
            return
        delay_ms = max(0, int((handle.when() - self._loop.time()) * 1000))
        timer = self.startTimer(delay_ms)
        self._by_timer[timer] = handle
        self._timer_of[id(handle)] = timer

    def stop(self, handle: asyncio.TimerHandle) -> None:
        timer = self._timer_of.pop(id(handle), None)
        if timer is not None:
            del self._by_timer[timer]
            self.killTimer(timer)

    def stop_all(self) -> None:
        for timer in self._by_timer:
            self.killTimer(timer)
        self._by_timer.clear()
        self._timer_of.clear()

    def timerEvent(self, event: QTimerEvent) -> None:
        timer = event.timerId()
        self.killTimer(timer)
        handle = self._by_timer.pop(timer, None)
        if handle is None:
            return
        del self._timer_of[id(handle)]
        if not handle.cancelled():
            handle._run()
