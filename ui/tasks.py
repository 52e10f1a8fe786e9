"""Running coroutines from Qt code: every task is kept alive, and a failure reaches the
message bridge instead of vanishing in a "Task exception was never retrieved" log line.

Cancelling waits for the tasks to end, but not for ever: a task that ignores cancellation for
`CANCEL_GRACE_S` is named in the log and left behind, so a quit or a workspace switch never
hangs on one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

ErrorSink = Callable[[BaseException], None]

CANCEL_GRACE_S = 5.0

log = logging.getLogger(__name__)


class TaskGroup:
    def __init__(self, on_error: ErrorSink) -> None:
        self._on_error = on_error
        self._tasks: set[asyncio.Task[Any]] = set()
        self._adopted: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def adopt(self, task: asyncio.Task[Any]) -> None:
        """Also end `task` (spawned by another group, which reports its failure) when this
        group is cancelled: a page's work ends before its workspace's client closes."""
        if not task.done():
            self._adopted.add(task)
            task.add_done_callback(self._adopted.discard)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            self._on_error(error)

    def cancel_now(self) -> None:
        """Cancel without waiting (the owner has moved on)."""
        for task in self._tasks | self._adopted:
            task.cancel()

    async def cancel_all(self) -> None:
        tasks = self._tasks | self._adopted
        for task in tasks:
            task.cancel()
        if not tasks:
            return
        _done, stuck = await asyncio.wait(tasks, timeout=CANCEL_GRACE_S)
        for task in stuck:
            log.error(
                "A task ignored cancellation for %.0f s and was left behind: %r",
                CANCEL_GRACE_S,
                task.get_coro(),
            )

    def __len__(self) -> int:
        return len(self._tasks)
