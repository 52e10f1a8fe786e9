"""A secret put on the clipboard leaves it after 30 s, if it is still what Postdesk put there
(issue 19 §4). Clipboard managers and other programs read the clipboard; a secret should not
sit there for the rest of the session. Whatever the user copied since is left alone.

One keeper per application (`secret_clipboard()`), parented to it, so the clearing happens even
after the dialog that copied is gone. It remembers a digest of the secret, not the secret.
"""

from __future__ import annotations

import hashlib

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QClipboard, QGuiApplication

CLEAR_AFTER_MS = 30_000


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class SecretClipboard(QObject):
    def __init__(self, parent: QObject | None = None, clear_after_ms: int = CLEAR_AFTER_MS):
        super().__init__(parent)
        self._digest: bytes | None = None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(clear_after_ms)
        self.timer.timeout.connect(self.clear_now)

    @property
    def clipboard(self) -> QClipboard:
        return QGuiApplication.clipboard()

    @property
    def armed(self) -> bool:
        """A secret is on the clipboard, waiting to be taken off."""
        return self._digest is not None

    def copy(self, secret: str) -> None:
        """Put `secret` on the clipboard; it is cleared after the interval if still there."""
        self.clipboard.setText(secret)
        self.watch(secret)

    def watch(self, secret: str) -> None:
        """`secret` reached the clipboard some other way (Ctrl+C in a field showing it)."""
        if not secret:
            return
        self._digest = _digest(secret)
        self.timer.start()

    def clear_now(self) -> None:
        self.timer.stop()
        digest, self._digest = self._digest, None
        if digest is not None and _digest(self.clipboard.text()) == digest:
            self.clipboard.clear()


def secret_clipboard() -> SecretClipboard:
    """The application's keeper (made on first use)."""
    app = QGuiApplication.instance()
    keeper = app.findChild(SecretClipboard, "secretClipboard") if app is not None else None
    if keeper is None:
        keeper = SecretClipboard(app)
        keeper.setObjectName("secretClipboard")
    return keeper
