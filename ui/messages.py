"""The one path for user-facing messages: errors, warnings and undo toasts.

Everything the user must read goes through `MessageBridge`; the main window shows it as a
non-blocking banner with the server's message, what to do next, and an optional action.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

log = logging.getLogger(__name__)


class Level(Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Message:
    text: str
    level: Level = Level.INFO
    hint: str = ""
    action_label: str = ""
    action: Callable[[], None] | None = field(default=None, compare=False)
    timeout_ms: int = 0  # 0 = stays until dismissed


def message_for_error(error: BaseException) -> Message:
    """Server message + what to do next; never the raw traceback."""
    text = getattr(error, "message", None) or str(error) or type(error).__name__
    hint = getattr(error, "hint", "") or ""
    if not getattr(error, "message", None) and not isinstance(error, OSError):
        text = f"Something went wrong: {text}"
    return Message(text=text, level=Level.ERROR, hint=hint)


class MessageBridge(QObject):
    posted = Signal(object)  # Message

    def post(self, message: Message) -> None:
        self.posted.emit(message)

    def error(self, error: BaseException) -> None:
        from app.api.errors import ApiError

        if not isinstance(error, ApiError):
            log.error("unexpected error", exc_info=error)
        self.post(message_for_error(error))

    def info(
        self,
        text: str,
        *,
        action_label: str = "",
        action: Callable[[], None] | None = None,
        timeout_ms: int = 8000,
    ) -> None:
        self.post(
            Message(text=text, action_label=action_label, action=action, timeout_ms=timeout_ms)
        )


_COLOURS = {
    Level.INFO: ("#e8f1fd", "#1c4f9c"),
    Level.WARNING: ("#fff4dc", "#7a4d00"),
    Level.ERROR: ("#fde8e8", "#9b1c1c"),
}


class Banner(QFrame):
    """Shows the latest message above the content; never blocks input."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self._text = QLabel()
        self._text.setWordWrap(True)
        self._text.setTextFormat(Qt.TextFormat.PlainText)
        self._text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._action = QPushButton()
        self._action.setObjectName("bannerAction")
        self._close = QPushButton("Dismiss")
        self._close.setObjectName("bannerClose")
        self._close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 8, 8, 8)
        layout.addWidget(self._text, 1)
        layout.addWidget(self._action)
        layout.addWidget(self._close)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.hide)
        self._callback: Callable[[], None] | None = None
        self._action.clicked.connect(self._run_action)
        self.current: Message | None = None
        self.hide()

    def show_message(self, message: Message) -> None:
        self.current = message
        background, foreground = _COLOURS[message.level]
        self.setStyleSheet(
            f"QFrame#banner {{ background: {background}; border-bottom: 1px solid {foreground}; }}"
            f"QFrame#banner QLabel {{ color: {foreground}; }}"
        )
        text = message.text if not message.hint else f"{message.text}\n{message.hint}"
        self._text.setText(text)
        self._callback = message.action
        self._action.setText(message.action_label)
        self._action.setVisible(bool(message.action_label and message.action))
        self._timer.stop()
        if message.timeout_ms:
            self._timer.start(message.timeout_ms)
        self.show()

    def text(self) -> str:
        return self._text.text()

    def _run_action(self) -> None:
        callback, self._callback = self._callback, None
        self.hide()
        if callback is not None:
            callback()
