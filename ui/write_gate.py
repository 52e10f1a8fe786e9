"""At most one write in flight per item (DESIGN.md): a second request for an item that is busy
is ignored, never sent, and views can show which items are busy."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal

from ui.tasks import TaskGroup

_ACCOUNT = "account:"


def account_key(account_id: str) -> str:
    """The key of an account's writes (a post's key is its id)."""
    return _ACCOUNT + account_id


def account_of_key(key: str) -> str | None:
    return key[len(_ACCOUNT) :] if key.startswith(_ACCOUNT) else None


class WriteGate(QObject):
    busyChanged = Signal(str, bool)  # item key, busy

    def __init__(self, tasks: TaskGroup, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._busy: dict[str, asyncio.Task[Any]] = {}

    def is_busy(self, key: str) -> bool:
        return key in self._busy

    def busy_keys(self) -> set[str]:
        return set(self._busy)

    def run(self, key: str, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any] | None:
        """Start `coro` as the write for `key`; None (and `coro` closed unsent) while one runs."""
        if key in self._busy:
            coro.close()
            return None
        task = self._tasks.spawn(coro)
        self._busy[key] = task
        task.add_done_callback(functools.partial(self._done, key))
        self.busyChanged.emit(key, True)
        return task

    def _done(self, key: str, task: asyncio.Task[Any]) -> None:
        if self._busy.get(key) is task:
            del self._busy[key]
            self.busyChanged.emit(key, False)
