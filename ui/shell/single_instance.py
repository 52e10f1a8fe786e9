"""One Postdesk per data folder, and a second launch that brings the running one to the front
instead of stopping with a dialog: the running app listens on a local socket named after its
data folder; a second `postdesk` that finds the folder locked asks it to raise its window."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QWidget

RAISE = b"raise\n"
RAISED = b"raised\n"
ANSWER_MS = 1500


def socket_name(data_dir: Path) -> str:
    """Per user and data folder (two users, or two XDG_DATA_HOMEs, never meet)."""
    digest = hashlib.sha256(str(data_dir.resolve()).encode()).hexdigest()[:16]
    return f"postdesk-{os.getuid()}-{digest}"


class RaiseServer(QObject):
    """Listens for a second launch and raises `window` for it. Made once this run holds the
    data folder's lock, so a socket file left over by a crashed run can be removed safely."""

    def __init__(self, name: str, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        QLocalServer.removeServer(name)
        self.listening = self.server.listen(name)
        self.server.newConnection.connect(self._accept)

    def _accept(self) -> None:
        while (socket := self.server.nextPendingConnection()) is not None:
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(socket.deleteLater)

    def _read(self, socket: QLocalSocket) -> None:
        if bytes(socket.readAll().data()).startswith(RAISE):
            self.raise_window()
            socket.write(RAISED)
            socket.flush()

    def raise_window(self) -> None:
        window = self._window
        if window.isMinimized():
            window.showNormal()
        window.show()
        window.raise_()
        window.activateWindow()

    def close(self) -> None:
        self.server.close()


def ask_running_to_raise(name: str, timeout_ms: int = ANSWER_MS) -> bool:
    """True when a running Postdesk answered and raised its window."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(timeout_ms):
        return False
    socket.write(RAISE)
    socket.flush()
    answered = socket.waitForReadyRead(timeout_ms) and bytes(socket.readAll().data()) == RAISED
    socket.disconnectFromServer()
    return answered
