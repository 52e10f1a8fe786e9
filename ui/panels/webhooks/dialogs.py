"""Dialogs of the webhook panel. All open with open(), never exec(): answers come back as
signals or callbacks, so no nested event loop runs under a coroutine."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.domain.enums import WebhookEvent
from app.webhooks.endpoint import ENDPOINT_MAX, endpoint_problem
from app.webhooks.local_replay import LocalReplayResult
from app.webhooks.signature_check import check_signature

ERROR_STYLE = "color: #b91c1c;"


def error_label() -> QLabel:
    label = QLabel()
    label.setStyleSheet(ERROR_STYLE)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.hide()
    return label


def show_error(label: QLabel, text: str) -> None:
    label.setText(text)
    label.setVisible(bool(text))


class WebhookForm(QDialog):
    """Create or edit: endpoint and the seven events. `submitted` carries the trimmed values;
    the page answers with `set_busy`, `show_errors` or `accept`."""

    submitted = Signal(str, list)  # endpoint, events

    def __init__(
        self,
        parent: QWidget | None,
        *,
        endpoint: str = "",
        events: list[str] | None = None,
        editing: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Edit webhook" if editing else "New webhook")
        self.setMinimumWidth(520)
        self.endpoint_edit = QLineEdit(endpoint)
        self.endpoint_edit.setPlaceholderText("https://example.com/webhooks/postdesk")
        self.endpoint_edit.setMaxLength(ENDPOINT_MAX + 50)  # the check explains the limit
        self.endpoint_error = error_label()
        chosen = set(events if events is not None else [e.value for e in WebhookEvent])
        self.event_boxes: dict[str, QCheckBox] = {}
        grid = QGridLayout()
        for i, event in enumerate(WebhookEvent):
            box = QCheckBox(event.value)
            box.setChecked(event.value in chosen)
            self.event_boxes[event.value] = box
            grid.addWidget(box, i // 2, i % 2)
        unknown = sorted(chosen - set(self.event_boxes))
        self.unknown_note = QLabel(
            "Also subscribed on the server, unknown to Postdesk (kept): " + ", ".join(unknown)
        )
        self.unknown_note.setWordWrap(True)
        self.unknown_note.setVisible(bool(unknown))
        self._unknown = unknown
        self.events_error = error_label()
        self.form_error = error_label()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.buttons.accepted.connect(self._submit)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Endpoint (a public http:// or https:// URL)"))
        layout.addWidget(self.endpoint_edit)
        layout.addWidget(self.endpoint_error)
        layout.addWidget(QLabel("Events"))
        layout.addLayout(grid)
        layout.addWidget(self.unknown_note)
        layout.addWidget(self.events_error)
        layout.addWidget(self.form_error)
        layout.addWidget(self.buttons)

    def values(self) -> tuple[str, list[str]]:
        events = [name for name, box in self.event_boxes.items() if box.isChecked()]
        return self.endpoint_edit.text().strip(), events + self._unknown

    def _submit(self) -> None:
        endpoint, events = self.values()
        problem = endpoint_problem(endpoint)
        show_error(self.endpoint_error, problem or "")
        show_error(self.events_error, "" if events else "Choose at least one event.")
        show_error(self.form_error, "")
        if problem is None and events:
            self.submitted.emit(endpoint, events)

    def set_busy(self, busy: bool) -> None:
        self.save_button.setEnabled(not busy)
        self.save_button.setText("Saving…" if busy else "Save")

    def show_errors(self, fields: dict[str, list[str]], message: str) -> None:
        endpoint = fields.get("endpoint", [])
        events = [
            text for key, texts in fields.items() if key.startswith("events") for text in texts
        ]
        show_error(self.endpoint_error, " ".join(endpoint))
        show_error(self.events_error, " ".join(events))
        show_error(self.form_error, "" if endpoint or events else message)


class SecretDialog(QDialog):
    """Shows a signing secret once, with a Copy button; nothing keeps it afterwards."""

    def __init__(self, parent: QWidget | None, secret: str, *, rotated: bool) -> None:
        super().__init__(parent)
        self.setWindowTitle("New signing secret" if rotated else "Webhook created")
        self.setMinimumWidth(560)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        intro = QLabel(
            (
                "The previous secret has stopped working, also for retries already queued. "
                if rotated
                else ""
            )
            + "Copy this signing secret into your receiver now: it is shown only this once and "
            "Postdesk does not store it."
        )
        intro.setWordWrap(True)
        self.secret_edit = QLineEdit(secret)
        self.secret_edit.setReadOnly(True)
        self.secret_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.copy_button = QPushButton("Copy")
        self.copy_button.clicked.connect(self._copy)
        row = QHBoxLayout()
        row.addWidget(self.secret_edit, 1)
        row.addWidget(self.copy_button)
        done = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        done.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addWidget(done)
        self.finished.connect(self._forget)

    def _copy(self) -> None:
        QGuiApplication.clipboard().setText(self.secret_edit.text())
        self.copy_button.setText("Copied")

    def _forget(self) -> None:
        self.secret_edit.setText("")


class SignatureChecker(QDialog):
    """Paste a raw body, a signature and a secret; the verdict updates as you type."""

    def __init__(self, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Check a webhook signature")
        self.setMinimumSize(560, 420)
        self.body_edit = QPlainTextEdit()
        self.body_edit.setPlaceholderText("The raw request body, exactly as received")
        self.body_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.signature_edit = QLineEdit()
        self.signature_edit.setPlaceholderText(
            "X-Webhook-Signature header value (64 hex characters)"
        )
        self.secret_edit = QLineEdit()
        self.secret_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.secret_edit.setPlaceholderText("whsec_…")
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Raw body"))
        layout.addWidget(self.body_edit, 1)
        layout.addWidget(QLabel("Signature"))
        layout.addWidget(self.signature_edit)
        layout.addWidget(QLabel("Signing secret (never stored)"))
        layout.addWidget(self.secret_edit)
        layout.addWidget(self.verdict)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        for edit in (self.signature_edit, self.secret_edit):
            edit.textChanged.connect(self.check)
        self.body_edit.textChanged.connect(self.check)
        self.finished.connect(self.secret_edit.clear)
        self.check()

    def check(self) -> None:
        verdict = check_signature(
            self.body_edit.toPlainText(), self.signature_edit.text(), self.secret_edit.text()
        )
        colour = "#166534" if verdict.ok else "#b91c1c"
        self.verdict.setStyleSheet(f"color: {colour}; font-weight: 600;")
        self.verdict.setText(("✔ " if verdict.ok else "✘ ") + verdict.text)
        self.ok = verdict.ok


class LocalReplayDialog(QDialog):
    """Asks for the URL of the user's own receiver; `send` is called with it. The page shows
    the answer with `show_result`."""

    last_url = "http://localhost:8000/webhooks"
    sendRequested = Signal(str)

    def __init__(self, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Replay to a local URL")
        self.setMinimumWidth(520)
        intro = QLabel(
            "Posts this delivery's payload to your own receiver (e.g. a development server on "
            "localhost), signed with this webhook's current secret. The service is not involved "
            "and nothing is logged. The envelope keeps its original id."
        )
        intro.setWordWrap(True)
        self.url_edit = QLineEdit(LocalReplayDialog.last_url)
        self.send_button = QPushButton("Send")
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self._go)
        row = QHBoxLayout()
        row.addWidget(self.url_edit, 1)
        row.addWidget(self.send_button)
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        self.result_body = QPlainTextEdit()
        self.result_body.setReadOnly(True)
        self.result_body.hide()
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addWidget(self.result_label)
        layout.addWidget(self.result_body, 1)
        layout.addWidget(close)

    def _go(self) -> None:
        url = self.url_edit.text().strip()
        LocalReplayDialog.last_url = url
        self.set_busy(True)
        self.sendRequested.emit(url)

    def set_busy(self, busy: bool) -> None:
        self.send_button.setEnabled(not busy)
        self.send_button.setText("Sending…" if busy else "Send")
        if busy:
            self.result_label.setText("Sending…")

    def show_result(self, result: LocalReplayResult) -> None:
        self.set_busy(False)
        colour = "#166534" if result.ok else "#b91c1c"
        self.result_label.setStyleSheet(f"color: {colour};")
        self.result_label.setText(result.message)
        self.result_body.setPlainText(result.body or "(empty body)")
        self.result_body.setVisible(result.status is not None)

    def show_failure(self, text: str) -> None:
        self.set_busy(False)
        self.result_label.setStyleSheet(ERROR_STYLE)
        self.result_label.setText(text)
