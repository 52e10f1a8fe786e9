"""A push button for which a double-click is one click.

The second press of a double-click comes ~50 ms after the first. A write that is not idempotent
(an account's publishing toggle) may have been answered by then — quickly refused, say — so the
write gate alone would let a second copy through. (The calendar's detail buttons do the same
with a timer shared by the panel's buttons.)
"""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer
from PySide6.QtGui import QGuiApplication, QMouseEvent
from PySide6.QtWidgets import QPushButton, QWidget


class OncePushButton(QPushButton):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._since_press = QElapsedTimer()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        interval = QGuiApplication.styleHints().mouseDoubleClickInterval()
        if self._since_press.isValid() and self._since_press.elapsed() < interval:
            event.accept()
            return
        self._since_press.start()
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        event.accept()
