"""Running coroutines from Qt code: every task is kept alive, and a failure reaches the
message bridge instead of vanishing in a "Task exception was never retrieved" log line."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

ErrorSink = Callable[[BaseException], None]


class TaskGroup:
    def __init__(self, on_error: ErrorSink) -> None:
        self._on_error = on_error
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            self._on_error(error)

    async def cancel_all(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def __len__(self) -> int:
        return len(self._tasks)
