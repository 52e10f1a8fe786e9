"""A test body run on the app's own event loop, and its bounded, loud teardown.

The teardown cancels what the test left running and waits for it at most `CANCEL_GRACE_S`;
a task still running then is a bug (a task that ignores cancellation is also a quit or a
workspace switch that hangs), so the test fails naming each task and where it waits, instead
of the suite hanging.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from PySide6.QtWidgets import QApplication

from ui.event_loop import EventLoop

T = TypeVar("T")

CANCEL_GRACE_S = 10.0


def describe(task: asyncio.Task[Any]) -> str:
    frames = task.get_stack(limit=3)
    where = " <- ".join(f"{f.f_code.co_name} ({f.f_code.co_filename}:{f.f_lineno})" for f in frames)
    return f"{task.get_coro()!r} waiting in {where or '?'}"


class LoopRunner:
    """Runs coroutines on an `EventLoop`; Qt events are processed while they wait."""

    def __init__(self, qapp: QApplication) -> None:
        # As the app does (ui/application.py): Qt's own "quit when the last window closes" is
        # not the app's, and with it the GUI bench run after the webhook bench stopped at once
        # ("Event loop stopped before Future completed", its task stepped with no running loop).
        qapp.setQuitOnLastWindowClosed(False)
        self.loop = EventLoop(qapp)
        asyncio.set_event_loop(self.loop)

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coro)

    def cancel_pending(self) -> None:
        """Cancel every task still running and wait for them, at most CANCEL_GRACE_S."""
        pending = [task for task in asyncio.all_tasks(self.loop) if not task.done()]
        for task in pending:
            task.cancel()
        if not pending:
            return
        _done, stuck = self.run(asyncio.wait(pending, timeout=CANCEL_GRACE_S))
        if stuck:
            names = "\n  ".join(describe(task) for task in stuck)
            raise AssertionError(
                f"{len(stuck)} task(s) ignored cancellation for {CANCEL_GRACE_S:.0f} s:\n  {names}"
            )

    def close(self) -> None:
        try:
            self.cancel_pending()
        finally:
            self.loop.close()
            asyncio.set_event_loop(None)


async def until(predicate: Callable[[], object], limit: float = 20.0, what: str = "") -> None:
    """Wait (letting Qt and asyncio run) until `predicate()` is truthy."""
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(0.02)
