"""Running the whole application in a test: a qasync loop that the test body drives."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import keyring
import pytest
import qasync
from PySide6.QtWidgets import QApplication

from tests.keyrings import MemoryKeyring

T = TypeVar("T")


class LoopRunner:
    """Runs coroutines on a qasync loop; Qt events are processed while they wait."""

    def __init__(self, qapp: QApplication) -> None:
        self.loop = qasync.QEventLoop(qapp)
        asyncio.set_event_loop(self.loop)

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        pending = [task for task in asyncio.all_tasks(self.loop) if not task.done()]
        for task in pending:
            task.cancel()
        if pending:
            self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self.loop.close()
        asyncio.set_event_loop(None)


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    yield loop_runner
    loop_runner.close()


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


async def until(predicate: Callable[[], object], limit: float = 20.0, what: str = "") -> None:
    """Wait (letting Qt and asyncio run) until `predicate()` is truthy."""
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(0.02)
