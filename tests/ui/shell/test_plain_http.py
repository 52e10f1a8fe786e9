"""An http:// base URL off this computer is warned about at connect and shown in the status bar
(issue 19 §4: the API key would travel in clear)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from app.workspaces.plain_http import sends_key_in_clear
from tests.ui.loop_runner import LoopRunner
from ui.dialogs.connect_workspace import CONNECT_UNENCRYPTED, ConnectWorkspaceDialog, WorkspaceForm
from ui.messages import MessageBridge
from ui.shell.main_window import MainWindow


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    yield loop_runner
    loop_runner.close()


@pytest.mark.parametrize(
    ("url", "clear"),
    [
        ("http://api.example.com/api", True),
        ("http://192.168.1.20:8080/api", True),
        ("HTTP://Example.COM/api", True),
        ("https://api.example.com/api", False),
        ("http://127.0.0.1:8000/api", False),
        ("http://127.8.9.1/api", False),
        ("http://localhost:8000/api", False),
        ("http://[::1]:8000/api", False),
        ("not a url", False),
    ],
)
def test_which_addresses_send_the_key_in_clear(url: str, clear: bool) -> None:
    assert sends_key_in_clear(url) is clear


def dialog_with(verified: list[WorkspaceForm]) -> ConnectWorkspaceDialog:
    async def verify(form: WorkspaceForm) -> None:
        verified.append(form)

    dialog = ConnectWorkspaceDialog(verify)
    dialog.name_edit.setText("Acme")
    dialog.key_edit.setText("pd_key")
    return dialog


def test_connecting_over_plain_http_warns_and_asks_first(
    qapp: QApplication, runner: LoopRunner
) -> None:
    verified: list[WorkspaceForm] = []
    dialog = dialog_with(verified)
    dialog.url_edit.setText("http://api.example.com")
    assert not dialog.clear_text_label.isHidden()  # said while typing
    assert "unencrypted" in dialog.clear_text_label.text()
    dialog.connect_button.click()
    assert verified == []  # asked, not connected
    assert dialog.connect_button.text() == CONNECT_UNENCRYPTED

    async def second_press() -> None:
        dialog.connect_button.click()
        task = dialog._task
        assert task is not None
        await task

    runner.run(second_press())
    assert [form.base_url for form in verified] == ["http://api.example.com/api"]
    dialog.close()


def test_changing_the_address_asks_again(qapp: QApplication) -> None:
    verified: list[WorkspaceForm] = []
    dialog = dialog_with(verified)
    dialog.url_edit.setText("http://a.example.com")
    dialog.connect_button.click()
    dialog.url_edit.setText("http://b.example.com")
    assert dialog.connect_button.text() == "Test and connect"
    dialog.connect_button.click()
    assert verified == []
    dialog.close()


def test_https_and_loopback_connect_without_a_warning(
    qapp: QApplication, runner: LoopRunner
) -> None:
    for url in ("https://api.example.com", "http://127.0.0.1:9/api"):
        verified: list[WorkspaceForm] = []
        dialog = dialog_with(verified)
        dialog.url_edit.setText(url)
        assert dialog.clear_text_label.isHidden()

        async def press(dialog: ConnectWorkspaceDialog = dialog) -> None:
            dialog.connect_button.click()
            assert dialog._task is not None
            await dialog._task

        runner.run(press())
        assert len(verified) == 1
        dialog.close()


def test_the_status_bar_says_the_connection_is_not_encrypted(qapp: QApplication) -> None:
    window = MainWindow(MessageBridge())
    window.set_workspace_name("Acme", "http://api.example.com/api")
    assert "not encrypted" in window.workspace_label.text()
    assert "unencrypted" in window.workspace_label.toolTip()
    window.set_workspace_name("Acme", "https://api.example.com/api")
    assert window.workspace_label.text() == "Workspace: Acme"
    window.close()
