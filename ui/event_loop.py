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
"""

from __future__ import annotations

import asyncio
import collections
import threading
from typing import Any

import qasync


class EventLoop(qasync.QEventLoop):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._loop_thread = threading.get_ident()
        self._due: collections.deque[asyncio.Handle] = collections.deque()
        self._drain_asked = False
        super().__init__(*args, **kwargs)
        self._drain_handle = asyncio.Handle(self._drain, (), self)

    def _elsewhere(self) -> bool:
        return threading.get_ident() != self._loop_thread

    def call_soon(self, callback: Any, *args: Any, context: Any = None) -> asyncio.Handle:
        if self.get_debug():
            return super().call_soon(callback, *args, context=context)
        return self._add_callback(asyncio.Handle(callback, args, self, context=context))

    def _add_callback(self, handle: asyncio.Handle, delay: float = 0) -> asyncio.Handle:
        if self._elsewhere():
            self.call_soon_threadsafe(self._timer.add_callback, handle, delay)
            return handle
        if delay > 0:
            return super()._add_callback(handle, delay)
        self._due.append(handle)
        if not self._drain_asked:
            self._drain_asked = True
            super()._add_callback(self._drain_handle, 0)
        return handle

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
                if not self._drain_asked:
                    self._drain_asked = True
                    super()._add_callback(self._drain_handle, 0)

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
