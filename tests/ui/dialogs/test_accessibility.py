"""Issue 16 §5 for the dialogs and the window's small parts: every control a screen reader
reaches is named (the QAccessible walk of tests/ui/a11y_walk.py) in each dialog of ui/dialogs
and ui/panels, the confirmations, the Needs attention list, the status bar and the command
palette."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget

from tests.ui.a11y_walk import named_controls, unnamed_controls
from ui.dialogs.connect_workspace import ConnectWorkspaceDialog, WorkspaceForm
from ui.dialogs.welcome import WelcomeDialog
from ui.messages import MessageBridge
from ui.notifications.attention import AttentionList
from ui.notifications.changes import Alert
from ui.panels.labels import LabelForm
from ui.panels.signatures import SignatureForm
from ui.panels.webhooks.archive_dialog import ArchiveDialog
from ui.panels.webhooks.bulk_dialog import BulkReplayDialog
from ui.panels.webhooks.dialogs import (
    LocalReplayDialog,
    SecretDialog,
    SignatureChecker,
    WebhookForm,
)
from ui.panels.webhooks.listen_dialog import ListenDialog
from ui.shell.main_window import MainWindow
from ui.shell.palette import CommandPalette, PaletteEntry
from ui.widgets.confirm import ask

SECRET = "whsec_" + "k" * 24


async def _never(_form: WorkspaceForm) -> None:
    raise AssertionError("not asked in this test")


def _key_replace(host: QWidget) -> QWidget:
    """As ui/shell/workspace_flows.py opens it when the server refused the key."""
    prefill = WorkspaceForm("Northwind", "https://example.com/api", "", "UTC")
    dialog = ConnectWorkspaceDialog(_never, host, prefill=prefill)
    dialog.setWindowTitle("API key for Northwind")
    dialog.set_intro("Enter a new API key for Northwind.")
    return dialog


def _attention(host: QWidget) -> QWidget:
    attention = AttentionList(host, lambda: "Also shown as desktop notifications.")
    attention.show_alerts(
        [
            Alert("post", "p1", "failed", "Our autumn blend is here"),
            Alert("webhook", "w1", "paused", "https://hooks.example.com/a"),
        ]
    )
    attention.button.show()
    attention.open_panel()
    return attention.panel


_KEPT: list[QWidget] = []
"""Windows a case builds around the part it walks (deleted with the test's windows)."""


def _status_bar(_host: QWidget) -> QWidget:
    window = MainWindow(MessageBridge())
    _KEPT.append(window)
    window.show()
    window.retry_now_button.setVisible(True)  # shown while a server's wait runs
    return window.statusBar()


def _palette(host: QWidget) -> QWidget:
    entries = [
        PaletteEntry("Action", "New post", "Ctrl+N", lambda: None),
        PaletteEntry("Section", "Webhooks", "Ctrl+6", lambda: None),
    ]
    return CommandPalette(entries, host)


DIALOGS: dict[str, Callable[[QWidget], QWidget]] = {
    "connect workspace": lambda host: ConnectWorkspaceDialog(_never, host),
    "welcome": WelcomeDialog,
    "key replace": lambda host: _key_replace(host),
    "confirmation": lambda host: ask(host, "Delete label", "Delete it?", "Delete", lambda: None),
    "label form": LabelForm,
    "signature form": SignatureForm,
    "webhook form": WebhookForm,
    "new secret": lambda host: SecretDialog(host, SECRET, rotated=True),
    "reveal secret": lambda host: SecretDialog(host, SECRET, rotated=False, reveal=True),
    "signature checker": lambda host: SignatureChecker(host, [("Main", "w1")]),
    "replay to local URL": LocalReplayDialog,
    "delivery archive": ArchiveDialog,
    "bulk replay": lambda host: BulkReplayDialog(host, 12, "https://hooks.example.com/a"),
    "listen locally": lambda host: ListenDialog(host, "https://hooks.example.com/a"),
    "needs attention": _attention,
    "status bar": _status_bar,
    "command palette": _palette,
}


@pytest.fixture
def host(qapp: QApplication) -> Iterator[QWidget]:
    window = QWidget()
    window.resize(900, 700)
    window.show()
    yield window
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    _KEPT.clear()


@pytest.mark.parametrize("name", list(DIALOGS))
def test_every_control_of_the_dialog_is_named(host: QWidget, name: str) -> None:
    dialog = DIALOGS[name](host)
    dialog.show()
    QApplication.processEvents()
    assert named_controls(dialog)  # the walk reaches its controls
    assert unnamed_controls(dialog) == []


def test_the_walk_catches_an_unnamed_field(host: QWidget) -> None:
    dialog = LabelForm(host)
    dialog.show()
    bare = QLineEdit(dialog)
    bare.setObjectName("bareField")
    bare.show()
    assert [u.object_name for u in unnamed_controls(dialog)] == ["bareField"]
