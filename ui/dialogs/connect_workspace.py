"""Connect a workspace: name, base URL, API key, server time zone; the key is tested before saving.

The dialog never talks HTTP: it is handed a `verify` coroutine function (the app's
`verify_workspace`) and shows the typed error it raises, in words, next to the form. Cancel while
the key is being tested cancels the test: `connected` is never emitted, so nothing is saved.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from zoneinfo import available_timezones

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.workspaces.plain_http import clear_text_warning, sends_key_in_clear
from app.workspaces.profiles import normalize_base_url

HOSTED_HINT = (
    "Hosted service: its address ending in /api. Self-hosted: your instance's address followed "
    "by /api."
)
CONNECT_UNENCRYPTED = "Connect unencrypted"
KEY_HINT = (
    "Create a key in the web app under Settings → API Keys. Keys work only for workspace admins, "
    "and each key belongs to one workspace."
)


@dataclass(frozen=True)
class WorkspaceForm:
    name: str
    base_url: str
    api_key: str
    server_timezone: str


Verifier = Callable[[WorkspaceForm], Awaitable[None]]


class ConnectWorkspaceDialog(QDialog):
    connected = Signal(object)  # WorkspaceForm, after the key was accepted by the server

    def __init__(
        self,
        verify: Verifier,
        parent: QWidget | None = None,
        *,
        prefill: WorkspaceForm | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Connect a workspace")
        self.setMinimumWidth(520)
        self._verify = verify
        self._task: asyncio.Task[None] | None = None
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("e.g. Northwind Coffee")
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("https://example.com/api")
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText("Paste the API key")
        self.tz_combo = QComboBox()
        self.tz_combo.setEditable(True)
        self.tz_combo.addItems(["UTC", *sorted(available_timezones() - {"UTC"})])
        self.tz_combo.setCurrentText("UTC")
        for field, name in (
            (self.name_edit, "Workspace name"),
            (self.url_edit, "Base URL"),
            (self.key_edit, "API key"),
            (self.tz_combo, "Server time zone"),
        ):
            field.setAccessibleName(name)
        line = self.tz_combo.lineEdit()
        if line is not None:  # the editable combo's own field is a control of its own to AT
            line.setAccessibleName("Server time zone")
        self.error_label = QLabel()
        self.error_label.setObjectName("formError")
        self.error_label.setWordWrap(True)
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)
        self.error_label.setStyleSheet("color: #b42318;")
        self.error_label.hide()

        self.intro_label = QLabel()
        self.intro_label.setWordWrap(True)
        self.intro_label.hide()
        # An http:// address off this computer sends the key in clear: said while typing, and
        # the first "Test and connect" only asks (issue 19 §4).
        self.clear_text_label = QLabel()
        self.clear_text_label.setObjectName("clearTextWarning")
        self.clear_text_label.setAccessibleName("Unencrypted address warning")
        self.clear_text_label.setWordWrap(True)
        self.clear_text_label.setTextFormat(Qt.TextFormat.PlainText)
        self.clear_text_label.setStyleSheet("color: #b54708;")
        self.clear_text_label.hide()
        self._clear_text_accepted: str | None = None
        self.url_edit.textChanged.connect(self._url_changed)

        form = QFormLayout()
        form.addRow("Name", self.name_edit)
        form.addRow("Base URL", self.url_edit)
        form.addRow("", _hint(HOSTED_HINT))
        form.addRow("", self.clear_text_label)
        form.addRow("API key", self.key_edit)
        form.addRow("", _hint(KEY_HINT))
        form.addRow("Server time zone", self.tz_combo)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.connect_button = QPushButton("Test and connect")
        self.connect_button.setDefault(True)
        self.buttons.addButton(self.connect_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.rejected.connect(self.reject)
        self.connect_button.clicked.connect(self._submit)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro_label)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        if prefill is not None:
            self.name_edit.setText(prefill.name)
            self.url_edit.setText(prefill.base_url)
            self.key_edit.setText(prefill.api_key)
            self.tz_combo.setCurrentText(prefill.server_timezone)
            self.key_edit.setFocus()

    def set_intro(self, text: str) -> None:
        self.intro_label.setText(text)
        self.intro_label.setVisible(bool(text))

    @property
    def testing(self) -> bool:
        return self._task is not None and not self._task.done()

    def done(self, result: int) -> None:
        # Closing the dialog (Cancel, Esc, the window's close button) ends a running key test.
        if self._task is not None and not self._task.done():
            self._task.cancel()
        super().done(result)

    def form(self) -> WorkspaceForm:
        """The cleaned form; raises ValueError with a user-facing message on bad input."""
        name = self.name_edit.text().strip()
        if not name:
            raise ValueError("Give the workspace a name.")
        base_url = normalize_base_url(self.url_edit.text())
        api_key = self.key_edit.text().strip()
        if not api_key:
            raise ValueError("Paste the workspace's API key.")
        timezone = self.tz_combo.currentText().strip() or "UTC"
        if timezone not in available_timezones():
            raise ValueError(f"Unknown time zone {timezone!r}; pick one from the list.")
        return WorkspaceForm(name, base_url, api_key, timezone)

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.show()

    def _submit(self) -> None:
        try:
            form = self.form()
        except ValueError as error:
            self.show_error(str(error))
            return
        if self.testing:
            return
        if sends_key_in_clear(form.base_url) and self._clear_text_accepted != form.base_url:
            self._clear_text_accepted = form.base_url  # asked once: the next press connects
            self._url_changed(self.url_edit.text())
            self.clear_text_label.setText(
                clear_text_warning(form.base_url) + " Press “Connect unencrypted” to go on."
            )
            self.connect_button.setText(CONNECT_UNENCRYPTED)
            return
        self._set_busy(True)
        self._task = asyncio.ensure_future(self._check(form))

    async def _check(self, form: WorkspaceForm) -> None:
        try:
            await self._verify(form)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # every failure is shown in the form, none is lost
            message = getattr(error, "message", None) or str(error)
            hint = getattr(error, "hint", "")
            self.show_error(f"{message}\n{hint}".strip())
            return
        finally:
            self._set_busy(False)
        self._task = None
        self.accept()
        self.connected.emit(form)

    def _url_changed(self, text: str) -> None:
        try:
            url = normalize_base_url(text)
        except ValueError:
            url = text
        warning = clear_text_warning(url)
        self.clear_text_label.setText(warning)
        self.clear_text_label.setVisible(bool(warning))
        if url != self._clear_text_accepted and not self.testing:
            self._clear_text_accepted = None
            self.connect_button.setText("Test and connect")

    def _set_busy(self, busy: bool) -> None:
        self.connect_button.setEnabled(not busy)
        self.connect_button.setText("Testing the key…" if busy else "Test and connect")
        if busy:
            self.error_label.hide()


def _hint(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setStyleSheet("color: palette(mid); font-size: 11px;")
    return label
