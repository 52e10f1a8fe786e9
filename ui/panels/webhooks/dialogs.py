"""Dialogs of the webhook panel. All open with open(), never exec(): answers come back as
signals or callbacks, so no nested event loop runs under a coroutine."""

from __future__ import annotations

import contextlib

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
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
from app.webhooks.endpoint import ENDPOINT_MAX, endpoint_problem, is_public_url
from app.webhooks.local_replay import LocalReplayResult
from app.webhooks.signature_check import check_signature
from ui.secret_clipboard import secret_clipboard

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
        allow_private: bool = False,
    ) -> None:
        super().__init__(parent)
        self.allow_private = allow_private
        """The workspace's server is local or private: it judges private receivers itself."""
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Edit webhook" if editing else "New webhook")
        self.setMinimumWidth(520)
        self.endpoint_edit = QLineEdit(endpoint)
        self.endpoint_edit.setPlaceholderText("https://example.com/webhooks/postdesk")
        self.endpoint_edit.setMaxLength(ENDPOINT_MAX + 50)  # the check explains the limit
        self.endpoint_edit.setAccessibleName("Endpoint URL")
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
        problem = endpoint_problem(endpoint, allow_private=self.allow_private)
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


REVEAL_FOR_MS = 30_000
"""A revealed secret is hidden again (and the dialog closed) after this long."""


class SecretDialog(QDialog):
    """Shows a signing secret with a Copy button; nothing keeps it afterwards. The service
    returns it again on `GET /webhooks/{id}` (spec §2), so *Reveal secret* can show it later:
    `reveal=True` hides it again after `REVEAL_FOR_MS`."""

    def __init__(
        self, parent: QWidget | None, secret: str, *, rotated: bool, reveal: bool = False
    ) -> None:
        super().__init__(parent)
        if reveal:
            title = "Signing secret"
        else:
            title = "New signing secret" if rotated else "Webhook created"
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.setMinimumWidth(560)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if reveal:
            text = (
                "The webhook's signing secret, read from the server just now. It is hidden "
                f"again after {REVEAL_FOR_MS // 1000} seconds; Postdesk writes it nowhere."
            )
        else:
            text = (
                "The previous secret has stopped working, also for retries already queued. "
                if rotated
                else ""
            ) + (
                "Copy this signing secret into your receiver. Postdesk writes it nowhere; you "
                "can show it again later with Reveal secret (it is read from the server)."
            )
        intro = QLabel(text)
        intro.setWordWrap(True)
        self.secret_edit = QLineEdit(secret)
        self.secret_edit.setReadOnly(True)
        self.secret_edit.setAccessibleName("Signing secret")
        self.secret_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.copy_button = QPushButton("Copy")
        self.copy_button.setAccessibleName("Copy the signing secret")
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
        QGuiApplication.clipboard().dataChanged.connect(self._clipboard_changed)
        self.hide_timer: QTimer | None = None
        if reveal:
            self.hide_timer = QTimer(self)
            self.hide_timer.setSingleShot(True)
            self.hide_timer.setInterval(REVEAL_FOR_MS)
            self.hide_timer.timeout.connect(self.reject)
            self.hide_timer.start()

    def _copy(self) -> None:
        secret_clipboard().copy(self.secret_edit.text())  # taken off again after 30 s
        self.copy_button.setText("Copied")

    def _clipboard_changed(self) -> None:
        # Ctrl+C in the field copies the secret too: it leaves the clipboard the same way.
        secret = self.secret_edit.text()
        if secret and QGuiApplication.clipboard().text() == secret:
            secret_clipboard().watch(secret)

    def _forget(self) -> None:
        with contextlib.suppress(RuntimeError, TypeError):
            QGuiApplication.clipboard().dataChanged.disconnect(self._clipboard_changed)
        self.secret_edit.setText("")


class SignatureChecker(QDialog):
    """Paste a raw body, a signature and a secret; the verdict updates as you type. The secret
    may be a chosen webhook's (`secretWanted(id)`: the page reads it and calls `use_secret`)."""

    secretWanted = Signal(str)  # webhook id

    def __init__(
        self, parent: QWidget | None, webhooks: list[tuple[str, str]] | None = None
    ) -> None:
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
        self.secret_edit.setAccessibleName("Signing secret")
        self.body_edit.setAccessibleName("Raw body")
        self.signature_edit.setAccessibleName("Signature")
        self.webhook_combo = QComboBox()
        self.webhook_combo.setAccessibleName("Use the secret of a webhook")
        self.webhook_combo.addItem("Use a webhook's secret…", "")
        for webhook_id, endpoint in webhooks or []:
            self.webhook_combo.addItem(endpoint, webhook_id)
        self.webhook_combo.setVisible(bool(webhooks))
        self.webhook_combo.activated.connect(self._webhook_chosen)
        self.verdict = QLabel()
        self.verdict.setAccessibleName("Verdict")
        self.verdict.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Raw body"))
        layout.addWidget(self.body_edit, 1)
        layout.addWidget(QLabel("Signature"))
        layout.addWidget(self.signature_edit)
        layout.addWidget(QLabel("Signing secret (never stored)"))
        secret_row = QHBoxLayout()
        secret_row.addWidget(self.secret_edit, 1)
        secret_row.addWidget(self.webhook_combo)
        layout.addLayout(secret_row)
        layout.addWidget(self.verdict)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        for edit in (self.signature_edit, self.secret_edit):
            edit.textChanged.connect(self.check)
        self.body_edit.textChanged.connect(self.check)
        self.finished.connect(self.secret_edit.clear)
        self.check()

    def _webhook_chosen(self, index: int) -> None:
        webhook_id = str(self.webhook_combo.itemData(index) or "")
        if webhook_id:
            self.secretWanted.emit(webhook_id)

    def use_secret(self, secret: str) -> None:
        self.secret_edit.setText(secret)

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
        self.url_edit.setAccessibleName("Receiver URL")
        self.send_button.setAccessibleName("Send to the receiver")
        row = QHBoxLayout()
        row.addWidget(self.url_edit, 1)
        row.addWidget(self.send_button)
        # Local and private receivers freely; anything else only after a clear warning.
        self.public_check = QCheckBox(
            "This is not a local or private address: send the payload (post content included) "
            "there anyway"
        )
        self.public_check.setAccessibleName("Send to a public address anyway")
        self.public_check.setStyleSheet(ERROR_STYLE)
        self.public_check.toggled.connect(self._url_changed)
        self.url_edit.textChanged.connect(self._url_changed)
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
        layout.addWidget(self.public_check)
        layout.addWidget(self.result_label)
        layout.addWidget(self.result_body, 1)
        layout.addWidget(close)
        self._url_changed()

    def public_target(self) -> bool:
        return is_public_url(self.url_edit.text().strip())

    def _url_changed(self, *_: object) -> None:
        public = self.public_target()
        if not public and self.public_check.isChecked():
            self.public_check.setChecked(False)
        self.public_check.setVisible(public)
        if self.send_button.text() == "Send":
            self.send_button.setEnabled(not public or self.public_check.isChecked())

    def _go(self) -> None:
        if self.public_target() and not self.public_check.isChecked():
            return
        url = self.url_edit.text().strip()
        LocalReplayDialog.last_url = url
        self.set_busy(True)
        self.sendRequested.emit(url)

    def set_busy(self, busy: bool) -> None:
        self.send_button.setText("Sending…" if busy else "Send")
        self.send_button.setEnabled(not busy)
        if not busy:
            self._url_changed()
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
