"""Issue 17 §5–§6 on the Webhooks page: *Reveal secret* (asks, hides after 30 s), the checker
takes a chosen webhook's secret, one truth on pauses, and a paused webhook offers Disable."""

from __future__ import annotations

import hashlib
import hmac

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession
from ui.panels.webhooks import WebhooksPage
from ui.panels.webhooks.dialogs import REVEAL_FOR_MS, SecretDialog


def click(widget: object) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)  # type: ignore[call-overload]


def accept(box: QMessageBox | None) -> None:
    assert box is not None
    click(box.buttons()[0])


def test_reveal_checker_secret_pause_truth_and_disable(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
) -> None:
    store = private_sandbox.store
    hook = store.create_webhook("https://hooks.example.com/a", ["post.failed"])
    store.set_webhook_paused(hook, failures=6)
    secret = store.webhook(hook)["signing_secret"]
    page = WebhooksPage()
    page.resize(1280, 860)
    page.show()
    page.set_session(make_session(private_sandbox.base_url, private_sandbox.keys.admin))

    async def scenario() -> None:
        await until(lambda: page.selected is not None, what="selected")
        assert "Paused after 5 consecutive" in page.paused_label.text()
        assert "6/5" not in page.facts_label.text()
        assert "shown only" not in page.facts_label.text()
        # One Enable (in the paused box) and Disable beside the other actions.
        enables = [
            b for b in page.findChildren(QPushButton) if b.isVisible() and "Enable" in b.text()
        ]
        assert enables == [page.paused_enable]
        assert page.toggle_button.text() == "Disable"

        click(page.reveal_button)
        await until(lambda: page.question is not None and page.question.isVisible(), what="ask")
        assert page.question is not None
        assert "30 seconds" in page.question.text()
        accept(page.question)
        await until(lambda: isinstance(page.secret_dialog, SecretDialog), what="revealed")
        dialog = page.secret_dialog
        assert dialog is not None
        assert dialog.secret_edit.text() == secret
        assert "only this once" not in dialog.findChild(type(page.paused_label)).text()
        assert dialog.hide_timer is not None
        assert dialog.hide_timer.isActive()
        assert dialog.hide_timer.interval() == REVEAL_FOR_MS == 30_000
        dialog.hide_timer.timeout.emit()  # the 30 s are up
        assert dialog.secret_edit.text() == ""
        await until(lambda: not dialog.isVisible(), what="hidden")

        click(page.checker_button)
        checker = page.checker
        assert checker is not None
        body = '{"id":"x","type":"post.created","data":{}}'
        checker.body_edit.setPlainText(body)
        checker.signature_edit.setText(
            hmac.new(secret.encode(), body.encode(), hashlib.sha256).hexdigest()
        )
        assert not checker.ok
        checker.webhook_combo.setCurrentIndex(1)
        checker.webhook_combo.activated.emit(1)
        await until(lambda: checker.ok, what="verified with the webhook's secret")
        checker.reject()

        await until(page.toggle_button.isEnabled, what="toggle free")
        click(page.toggle_button)
        await until(lambda: store.webhook(hook)["status"] == "disabled", what="disabled")
        await until(lambda: page.toggle_button.text() == "Enable", what="enable offered")

    runner.run(scenario())
