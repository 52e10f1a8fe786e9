"""Ctrl+C in the terminal quits at once and cleanly (demo child included), without a
KeyboardInterrupt traceback.

Python runs a signal handler only when the interpreter gets control, which never happens while Qt
waits in C++; a short do-nothing timer hands control back a few times a second. The handler only
schedules the shutdown: the window closes from the event loop, not from inside the signal."""

from __future__ import annotations

import signal
from collections.abc import Callable
from types import FrameType

from PySide6.QtCore import QObject, QTimer

WAKE_MS = 200


def quit_on_sigint(quit_app: Callable[[], None], owner: QObject) -> QTimer:
    def on_sigint(signum: int, frame: FrameType | None) -> None:
        QTimer.singleShot(0, quit_app)

    signal.signal(signal.SIGINT, on_sigint)
    wake = QTimer(owner)
    wake.setInterval(WAKE_MS)
    wake.timeout.connect(lambda: None)
    wake.start()
    return wake


def restore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
