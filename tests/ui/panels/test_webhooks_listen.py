"""Issue 17 §7 on the page: *Listen locally* receives *Replay to local URL* and shows it
verified with the selected webhook's secret; stopping it forgets the secret."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession
from ui.panels.webhooks import WebhooksPage


def click(widget: object) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)  # type: ignore[call-overload]


def test_listen_locally_shows_a_replay_verified(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
) -> None:
    store = private_sandbox.store
    hook = store.create_webhook("https://hooks.example.com/a", ["post.created"])
    store.add_webhook_log(hook, event_type="post.created", data={"id": "p1"})
    secret = store.webhook(hook)["signing_secret"]
    page = WebhooksPage()
    page.resize(1280, 860)
    page.show()
    page.set_session(make_session(private_sandbox.base_url, private_sandbox.keys.admin))

    async def scenario() -> None:
        await until(lambda: page.logs.model.rowCount() == 1, what="log")
        click(page.listen_button)
        listen = page.listen_dialog
        receiver = page.receiver
        assert listen is not None
        assert receiver is not None
        click(page.listen_button)  # again: the open dialog comes forward, no second receiver
        assert page.listen_dialog is listen
        assert page.receiver is receiver
        listen.startRequested.emit(0)  # any free port (the spin box offers 1024 and up)
        await until(lambda: receiver.listening and listen.copy_button.isEnabled(), what="up")
        assert listen.start_button.text() == "Stop"
        url = listen.url_label.text()
        assert url.startswith("http://127.0.0.1:")

        page.logs.select_row(0)
        click(page.logs.local_button)
        local = page.local_dialog
        assert local is not None
        local.url_edit.setText(url)
        assert local.public_check.isHidden()  # a local address: no warning
        click(local.send_button)
        await until(lambda: listen.list.count() == 1, what="received")
        assert listen.requests[0].verified
        assert "verified" in listen.detail.toPlainText()
        assert secret not in listen.detail.toPlainText()
        local.reject()

        listen.stopRequested.emit()
        await until(lambda: not receiver.listening, what="stopped")
        assert receiver.secret is None
        listen.reject()

    runner.run(scenario())


def test_replay_to_a_public_url_needs_a_clear_yes(qapp: QApplication) -> None:
    from ui.panels.webhooks.dialogs import LocalReplayDialog

    dialog = LocalReplayDialog(None)
    dialog.url_edit.setText("https://example.com/hooks")
    assert not dialog.public_check.isHidden()
    assert not dialog.send_button.isEnabled()
    dialog.public_check.setChecked(True)
    assert dialog.send_button.isEnabled()
    dialog.url_edit.setText("http://localhost:8000/h")
    assert dialog.public_check.isHidden()
    assert dialog.send_button.isEnabled()
    dialog.deleteLater()
