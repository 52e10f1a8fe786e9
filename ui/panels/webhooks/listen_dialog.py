"""*Listen locally…* (issue 17 §7): the receiver on 127.0.0.1 and the requests it got, live.
The page starts and stops `app.webhooks.local_receiver.LocalReceiver`; this dialog shows it."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.webhooks.local_receiver import ReceivedRequest
from ui.widgets.long_text_view import LongTextView

DEFAULT_PORT = 8787


class ListenDialog(QDialog):
    startRequested = Signal(int)  # port
    stopRequested = Signal()

    def __init__(self, parent: QWidget | None, endpoint: str) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Listen locally")
        self.setAccessibleName("Listen locally")
        self.requests: list[ReceivedRequest] = []
        intro = QLabel(
            f"A receiver on this computer (127.0.0.1) checks each request's signature with the "
            f"secret of {endpoint}. Use its URL for Replay to local URL, or as the endpoint of a "
            "webhook on a server on this machine or network."
        )
        intro.setWordWrap(True)
        self.port_spin = QSpinBox()
        self.port_spin.setRange(1024, 65535)
        self.port_spin.setValue(DEFAULT_PORT)
        self.port_spin.setAccessibleName("Port")
        self.start_button = QPushButton("Start")
        self.start_button.setAccessibleName("Start or stop listening")
        self.start_button.clicked.connect(self._start_clicked)
        self.url_label = QLabel("Not listening.")
        self.url_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.url_label.setAccessibleName("Receiver URL")
        self.copy_button = QPushButton("Copy URL")
        self.copy_button.setAccessibleName("Copy the receiver URL")
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.url_label.text())
        )
        top = QHBoxLayout()
        top.addWidget(QLabel("Port"))
        top.addWidget(self.port_spin)
        top.addWidget(self.start_button)
        top.addWidget(self.url_label, 1)
        top.addWidget(self.copy_button)
        self.list = QListWidget()
        self.list.setAccessibleName("Requests received")
        self.list.currentRowChanged.connect(self._show)
        # A body of up to 1 MB on one line: shown from its start (issue 19 §3).
        self.detail = LongTextView("Request detail", monospace=True)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(self.detail)
        split.setStretchFactor(1, 2)
        self.close_button = QPushButton("Close")
        self.close_button.setAccessibleName("Close and stop listening")
        self.close_button.clicked.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(self.close_button)
        layout.addLayout(bottom)
        self.resize(820, 480)
        self.finished.connect(lambda _result: self.stopRequested.emit())

    def _start_clicked(self) -> None:
        if self.start_button.text() == "Stop":
            self.stopRequested.emit()
        else:
            self.start_button.setEnabled(False)
            self.startRequested.emit(self.port_spin.value())

    def show_listening(self, url: str) -> None:
        self.start_button.setEnabled(True)
        self.start_button.setText("Stop" if url else "Start")
        self.port_spin.setEnabled(not url)
        self.url_label.setText(url or "Not listening.")
        self.copy_button.setEnabled(bool(url))

    def show_failure(self, text: str) -> None:
        self.show_listening("")
        self.url_label.setText(text)

    def add_request(self, request: ReceivedRequest) -> None:
        self.requests.append(request)
        mark = "✔" if request.verified else "✘"
        moment = datetime.fromtimestamp(request.at).strftime("%H:%M:%S")
        item = QListWidgetItem(f"{mark} {moment} {request.method} {request.path}")
        self.list.addItem(item)
        self.list.setCurrentRow(self.list.count() - 1)

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self.requests):
            self.detail.setPlainText("")
            return
        request = self.requests[row]
        headers = "\n".join(f"{name}: {value}" for name, value in request.headers)
        self.detail.setPlainText(
            f"{request.verdict}\nAnswered {request.answered}.\n\n"
            f"{request.method} {request.path}\n{headers}\n\n"
            + request.body.decode("utf-8", errors="replace")
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stopRequested.emit()
        super().closeEvent(event)
