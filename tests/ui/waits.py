"""Waiting on facts, not on time: a dialog's answer handled, layouts settled on demand."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QMessageBox

MAX_PASSES = 100


class _LayoutRequestCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.seen = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.seen += 1
        return False


def settle_layouts() -> None:
    """Carry out every queued layout request, and the ones that carrying them out queues
    (a child's new size asks its parent to lay out again), until none is left.

    Only layout requests are delivered: no timer, socket or asyncio callback runs meanwhile.
    """
    app = QCoreApplication.instance()
    assert app is not None
    counter = _LayoutRequestCounter()
    app.installEventFilter(counter)
    try:
        for _ in range(MAX_PASSES):
            before = counter.seen
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            if counter.seen == before:
                return
        raise AssertionError(f"layout requests still queued after {MAX_PASSES} passes")
    finally:
        app.removeEventFilter(counter)


async def answer(box: QMessageBox, button: QMessageBox.StandardButton, limit: float = 10.0) -> int:
    """Click `button` of `box`; returns the box's result once it has finished and every handler
    of its answer connected before this call has returned."""
    done: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def finished(code: int) -> None:
        if not done.done():
            done.set_result(code)

    box.finished.connect(finished)
    box.button(button).click()
    return await asyncio.wait_for(done, limit)
