"""The one path for user-facing messages: errors, warnings and undo toasts.

Everything the user must read goes through `MessageBridge`; the main window shows it as a
non-blocking toast over the page area with the server's message, what to do next, and up to two
actions. Messages posted for a workspace go through its `MessageScope`: when the workspace
closes, its messages are withdrawn and their actions do nothing any more.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from enum import Enum
from typing import NamedTuple

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from app.store import CacheError

log = logging.getLogger(__name__)

Callback = Callable[[], None]


class Level(Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class Message(NamedTuple):
    text: str
    level: Level = Level.INFO
    hint: str = ""
    action_label: str = ""
    action: Callback | None = None
    timeout_ms: int = 0  # 0 = stays until dismissed
    second_label: str = ""
    second_action: Callback | None = None
    topic: str = ""
    """Messages about one subject (e.g. "sync") replace each other and can be withdrawn."""
    scope: MessageScope | None = None


CACHE_HINT = (
    "Nothing on the server is affected. Restart Postdesk to check and rebuild the saved copy."
)


def expected(error: BaseException) -> bool:
    """Errors the user is told about in words, without a traceback in the log: the API's
    answers and a local cache that cannot be read or written."""
    from app.api.errors import ApiError  # app.api stays out of the first paint (startup guard)

    return isinstance(error, ApiError | CacheError)


def message_for_error(error: BaseException) -> Message:
    """Server message + what to do next; never the raw traceback."""
    if isinstance(error, CacheError):
        return Message(text=str(error), level=Level.ERROR, hint=CACHE_HINT, topic="cache")
    text = getattr(error, "message", None) or str(error) or type(error).__name__
    hint = getattr(error, "hint", "") or ""
    if not getattr(error, "message", None) and not isinstance(error, OSError):
        text = f"Something went wrong: {text}"
    return Message(text=text, level=Level.ERROR, hint=hint)


class MessageBridge(QObject):
    posted = Signal(object)  # Message
    withdrawn = Signal(object)  # a predicate: Message -> bool; matching shown messages go away

    def post(self, message: Message) -> None:
        self.posted.emit(message)

    def error(self, error: BaseException) -> None:
        if not expected(error):
            log.error("unexpected error", exc_info=error)
        self.post(message_for_error(error))

    def info(
        self,
        text: str,
        *,
        action_label: str = "",
        action: Callback | None = None,
        timeout_ms: int = 8000,
    ) -> None:
        self.post(
            Message(text=text, action_label=action_label, action=action, timeout_ms=timeout_ms)
        )

    def withdraw(self, topic: str) -> None:
        self.withdrawn.emit(lambda message: message.topic == topic)

    def scope(self) -> MessageScope:
        return MessageScope(self)


class MessageScope:
    """Messages on behalf of one owner (a workspace). After `close()` nothing more is posted,
    the shown ones are withdrawn, and their buttons do nothing if clicked in the same instant."""

    def __init__(self, bridge: MessageBridge) -> None:
        self._bridge = bridge
        self.closed = False

    def post(self, message: Message) -> None:
        if self.closed:
            return
        self._bridge.post(
            message._replace(
                action=self._guard(message.action),
                second_action=self._guard(message.second_action),
                scope=self,
            )
        )

    def error(self, error: BaseException) -> None:
        if self.closed:
            return
        if not expected(error):
            log.error("unexpected error", exc_info=error)
        self.post(message_for_error(error))

    def info(
        self,
        text: str,
        *,
        action_label: str = "",
        action: Callback | None = None,
        timeout_ms: int = 8000,
    ) -> None:
        self.post(
            Message(text=text, action_label=action_label, action=action, timeout_ms=timeout_ms)
        )

    def withdraw(self, topic: str) -> None:
        self._bridge.withdrawn.emit(lambda m: m.scope is self and m.topic == topic)

    def close(self) -> None:
        self.closed = True
        self._bridge.withdrawn.emit(lambda m: m.scope is self)

    def _guard(self, callback: Callback | None) -> Callback | None:
        if callback is None:
            return None

        def guarded() -> None:
            if not self.closed:
                callback()

        return guarded


_COLOURS = {
    Level.INFO: ("#e8f1fd", "#1c4f9c"),
    Level.WARNING: ("#fff4dc", "#7a4d00"),
    Level.ERROR: ("#fde8e8", "#9b1c1c"),
}


class Banner(QFrame):
    """Shows the latest message; never blocks input. Where it sits is the window's business
    (a toast floating over the page area, so the page never moves)."""

    changed = Signal()  # shown, hidden or new text: the owner re-places it

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self._text = QLabel()
        self._text.setWordWrap(True)
        self._text.setTextFormat(Qt.TextFormat.PlainText)
        self._text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._action = QPushButton()
        self._action.setObjectName("bannerAction")
        self._second = QPushButton()
        self._second.setObjectName("bannerSecondAction")
        self._close = QPushButton("Dismiss")
        self._close.setObjectName("bannerClose")
        self._close.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 8, 8, 8)
        layout.addWidget(self._text, 1)
        layout.addWidget(self._action)
        layout.addWidget(self._second)
        layout.addWidget(self._close)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.dismiss)
        self._callbacks: dict[QPushButton, Callback | None] = {}
        self._action.clicked.connect(lambda: self._run(self._action))
        self._second.clicked.connect(lambda: self._run(self._second))
        self.current: Message | None = None
        self.hide()

    @property
    def action_button(self) -> QPushButton:
        return self._action

    @property
    def second_button(self) -> QPushButton:
        return self._second

    def show_message(self, message: Message) -> None:
        self.current = message
        background, foreground = _COLOURS[message.level]
        self.setStyleSheet(
            f"QFrame#banner {{ background: {background}; border: 1px solid {foreground};"
            " border-radius: 6px; }"
            f"QFrame#banner QLabel {{ color: {foreground}; }}"
        )
        text = message.text if not message.hint else f"{message.text}\n{message.hint}"
        self._text.setText(text)
        for button, label, callback in (
            (self._action, message.action_label, message.action),
            (self._second, message.second_label, message.second_action),
        ):
            self._callbacks[button] = callback
            button.setText(label)
            button.setVisible(bool(label and callback))
        self._timer.stop()
        if message.timeout_ms:
            self._timer.start(message.timeout_ms)
        self.show()
        self.raise_()
        self.changed.emit()

    def withdraw(self, matches: Callable[[Message], bool]) -> None:
        if self.current is not None and matches(self.current):
            self.dismiss()

    def dismiss(self) -> None:
        self.current = None
        self._callbacks.clear()
        self._timer.stop()
        self.hide()
        self.changed.emit()

    def text(self) -> str:
        return self._text.text() if self.current is not None else ""

    def _run(self, button: QPushButton) -> None:
        callback = self._callbacks.get(button)
        self.dismiss()
        if callback is not None:
            callback()
