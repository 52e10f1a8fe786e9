"""The webhook health panel against the real sandbox (QTest clicks, real HTTP, real SQLite)."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession, Posted
from tests.webhooks.receiver import receiver
from ui.panels.webhooks import WebhooksPage
from ui.panels.webhooks.dialogs import SecretDialog

ROOT = Path(__file__).resolve().parents[3]


def click(widget: object) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)  # type: ignore[call-overload]


async def click_when_enabled(button: QWidget) -> None:
    """A button that writes is disabled until the last write's gate lets go, on the next turn
    of the loop after the answer is shown: a click before that is (rightly) ignored."""
    await until(button.isEnabled, what=f"{button.objectName() or button} enabled")
    click(button)


async def asked(page: WebhooksPage) -> None:
    await until(lambda: page.question is not None and page.question.isVisible(), what="asked")


def answer(box: QMessageBox | None, accept: bool = True) -> None:
    assert box is not None
    assert box.isVisible()
    button = box.buttons()[0] if accept else box.button(QMessageBox.StandardButton.Cancel)
    click(button)


def test_health_view_shows_badges_failures_pause_and_timeline(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    make_session: MakeSession,
    tmp_path: Path,
) -> None:
    page = WebhooksPage()
    page.resize(1280, 860)
    page.show()
    page.set_session(make_session(demo_sandbox.base_url, demo_sandbox.keys.admin))

    async def scenario() -> None:
        await until(lambda: page.model.rowCount() == 5, what="webhooks listed")
        texts = {page.model.index(r, 0).data() for r in range(5)}
        assert texts == {"Enabled", "Paused", "Disabled"}
        paused_row = next(r for r in range(5) if page.model.index(r, 0).data() == "Paused")
        assert page.model.index(paused_row, 2).data() == "5/5"
        assert page.model.index(paused_row, 4).data()  # paused since
        page.table.selectRow(paused_row)
        await until(lambda: not page.paused_box.isHidden(), what="paused explanation")
        assert "5 consecutive failed deliveries" in page.paused_label.text()
        assert "skipped" in page.paused_label.text()
        await until(lambda: page.chart.timeline is not None, what="timeline")
        await until(lambda: page.logs.model.rowCount() > 0, what="logs")
        assert page.chart.timeline is not None
        assert page.chart.timeline.failed > 0
        # The healthy webhook for the screenshot.
        enabled_row = next(r for r in range(5) if page.model.index(r, 0).data() == "Enabled")
        page.table.selectRow(enabled_row)
        await until(
            lambda: page.chart.timeline is not None and page.chart.timeline.delivered > 0,
            what="healthy timeline",
        )
        await until(lambda: page.logs.model.rowCount() > 0, what="healthy logs")
        page.logs.select_row(0)
        # The README's screenshot is refreshed on request only; every run checks it renders.
        target = ROOT / "docs" / "webhooks.png"
        if not os.environ.get("POSTDESK_UPDATE_SCREENSHOTS"):
            target = tmp_path / "webhooks.png"
        assert page.grab().save(str(target))

    runner.run(scenario())


def test_create_shows_secret_once_then_rotate_test_disable_and_delete(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
    posted: Posted,
) -> None:
    page = WebhooksPage()
    page.show()
    page.set_session(make_session(private_sandbox.base_url, private_sandbox.keys.admin))

    async def scenario() -> None:
        await until(lambda: not page.empty_label.isHidden(), what="empty state")
        click(page.new_button)
        form = page.form
        assert form is not None
        # A local server judges private receivers itself (issue 17 §6); a wrong scheme is
        # refused here whatever the server.
        form.endpoint_edit.setText("ftp://localhost:9/h")
        click(form.save_button)
        assert "http" in form.endpoint_error.text()  # refused locally, nothing sent
        assert page.model.rowCount() == 0
        with receiver(status=200) as target:
            form.endpoint_edit.setText(target.url.replace("127.0.0.1", "127.0.0.1"))
            for box in form.event_boxes.values():
                box.setChecked(False)
            click(form.save_button)
            assert "at least one event" in form.events_error.text()
            form.event_boxes["post.failed"].setChecked(True)
            # Loopback passes the sandbox (allow_private) but not our local check: bypass it
            # the way a user of a public URL would not need to.
            form.submitted.emit(target.url, ["post.failed"])
            form.submitted.emit(target.url, ["post.failed"])  # a second click is ignored
            await until(lambda: page.model.rowCount() == 1, what="created")
            assert len(private_sandbox.store.webhook_logs(page.model.webhooks[0].id)) == 0
            secret_dialog = page.secret_dialog
            assert isinstance(secret_dialog, SecretDialog)
            secret = secret_dialog.secret_edit.text()
            assert secret.startswith("whsec_")
            click(secret_dialog.copy_button)
            assert QApplication.clipboard().text() == secret
            secret_dialog.reject()
            assert secret not in page.facts_label.text()
            assert "whsec_••••" in page.facts_label.text()

            click(page.test_button)
            await until(lambda: "accepted" in page.test_label.text(), what="test ping")
            (ping,) = target.got
            expected = hmac.new(secret.encode(), ping.body, hashlib.sha256).hexdigest()
            assert ping.headers["X-Webhook-Signature"] == expected
            assert json.loads(ping.body)["type"] == "webhook.test"

            await click_when_enabled(page.rotate_button)
            await asked(page)
            answer(page.question)
            await until(
                lambda: page.secret_dialog is not secret_dialog and page.secret_dialog is not None,
                what="rotated secret",
            )
            assert page.secret_dialog is not None
            new_secret = page.secret_dialog.secret_edit.text()
            assert new_secret.startswith("whsec_")
            assert new_secret != secret
            assert all(w.signing_secret is None for w in page.model.webhooks)
            page.secret_dialog.reject()

        await click_when_enabled(page.toggle_button)
        await until(lambda: page.model.index(0, 0).data() == "Disabled", what="disabled")
        assert private_sandbox.store.webhook(page.model.webhooks[0].id)["status"] == "disabled"
        assert page.toggle_button.text() == "Enable"

        await click_when_enabled(page.delete_button)
        await asked(page)
        answer(page.question, accept=False)
        await until(lambda: page.question is None or not page.question.isVisible())
        assert page.model.rowCount() == 1
        await click_when_enabled(page.delete_button)
        await asked(page)
        answer(page.question)
        await until(lambda: page.model.rowCount() == 0, what="deleted")
        assert any("Webhook deleted." in text for text in posted.texts())

    runner.run(scenario())


def test_logs_load_on_demand_replay_and_local_replay(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
    posted: Posted,
) -> None:
    store = private_sandbox.store
    hook = store.create_webhook("https://hooks.example.com/a", ["post.failed", "post.created"])
    store.set_webhook_paused(hook)
    for i in range(40):
        store.add_webhook_log(
            hook,
            event_type="post.failed" if i % 2 else "post.created",
            outcome="failed" if i % 5 == 0 else "delivered",
            data={"id": f"post-{i}", "content": "é ✓"},
        )
    page = WebhooksPage()
    page.resize(1200, 800)
    page.show()
    page.set_session(make_session(private_sandbox.base_url, private_sandbox.keys.admin))

    async def scenario() -> None:
        await until(lambda: page.logs.model.rowCount() > 0, what="first page")
        model = page.logs.model
        assert model.total == 40
        assert model.rowCount() in (15, 30)  # one page, or two if the view was not yet full

        def scrolled_to_the_end() -> bool:
            page.logs.table.scrollToBottom()  # as a user keeps scrolling
            return model.rowCount() == 40

        await until(scrolled_to_the_end, what="more pages on scroll")
        assert not model.canFetchMore(page.logs.table.rootIndex())
        page.logs.event_combo.setCurrentIndex(page.logs.event_combo.findData("post.created"))
        page.logs.outcome_combo.setCurrentIndex(page.logs.outcome_combo.findData("failed"))
        assert page.logs.filter.rowCount() == 4
        assert "4 shown" in page.logs.status_label.text()
        page.logs.select_row(0)
        log = page.logs.selected_log()
        assert log is not None
        assert log.event_type == "post.created"
        assert "post.created" in page.logs.detail.raw.toPlainText()
        assert page.logs.detail.tree.topLevelItemCount() == 4  # id, type, data, created_at

        click(page.logs.replay_button)
        assert page.question is not None
        assert "Queued is not delivered" in page.question.text()
        answer(page.question)
        await until(lambda: model.total == 41, what="log reloaded with the replay row")
        assert any("not delivered yet" in text for text in posted.texts())
        assert store.webhook(hook)["status"] == "paused"  # a replay does not re-enable
        replayed = store.webhook_logs(hook)[0]
        assert replayed["payload"]["data"] == log.payload.data  # type: ignore[union-attr]
        assert replayed["id"] != log.id

        page.logs.select_row(0)
        log = page.logs.selected_log()
        assert log is not None
        with receiver(status=202, answer=b"got it") as target:
            click(page.logs.local_button)
            dialog = page.local_dialog
            assert dialog is not None
            dialog.url_edit.setText(target.url)
            click(dialog.send_button)
            await until(lambda: "202" in dialog.result_label.text(), what="local answer")
            assert dialog.result_body.toPlainText() == "got it"
            (got,) = target.got
        secret = store.webhook(hook)["signing_secret"]
        expected = hmac.new(secret.encode(), got.body, hashlib.sha256).hexdigest()
        assert got.headers["X-Webhook-Signature"] == expected
        assert json.loads(got.body)["data"] == log.payload.data  # type: ignore[union-attr]
        assert secret not in dialog.result_label.text()

    runner.run(scenario())


def test_signature_checker_dialog(qapp: QApplication) -> None:
    page = WebhooksPage()
    click(page.checker_button)
    checker = page.checker
    assert checker is not None
    body = '{"id":"x","type":"post.created","data":{}}'
    secret = "whsec_" + "z" * 32
    checker.body_edit.setPlainText(body)
    checker.secret_edit.setText(secret)
    checker.signature_edit.setText(hmac.new(secret.encode(), body.encode(), "sha256").hexdigest())
    assert checker.ok
    assert "Verified" in checker.verdict.text()
    checker.body_edit.setPlainText(body + " ")
    assert not checker.ok
    assert "byte-for-byte" in checker.verdict.text()
    checker.reject()
    assert checker.secret_edit.text() == ""


def test_member_key_gets_an_explanation_not_an_error(
    qapp: QApplication,
    runner: LoopRunner,
    sandbox: SandboxServer,
    make_session: MakeSession,
    posted: Posted,
) -> None:
    page = WebhooksPage()
    page.show()
    page.set_session(make_session(sandbox.base_url, sandbox.keys.member))

    async def scenario() -> None:
        await until(page.showing_explanation, what="explanation")
        assert "not allowed" in page.explanation.text()
        assert posted == []

    runner.run(scenario())


def test_switching_workspaces_shows_only_the_new_ones(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, make_session: MakeSession
) -> None:
    other_hook = demo_sandbox.store.create_webhook(
        "https://harbor.example/hooks", workspace_id=demo_sandbox.other_workspace_id
    )
    page = WebhooksPage()
    page.show()

    async def scenario() -> None:
        page.set_session(make_session(demo_sandbox.base_url, demo_sandbox.keys.admin, "a"))
        await until(lambda: page.model.rowCount() == 5, what="first workspace")
        page.set_session(make_session(demo_sandbox.base_url, demo_sandbox.keys.other_admin, "b"))
        assert page.model.rowCount() == 0  # nothing of the first workspace lingers
        await until(lambda: page.model.rowCount() >= 1, what="second workspace")
        assert other_hook in {w.id for w in page.model.webhooks}
        assert page.model.rowCount() == len(
            [
                w
                for w in page.model.webhooks
                if w.endpoint != "https://hooks.northwind.example/social"
            ]
        )
        page.set_session(None)
        assert page.model.rowCount() == 0
        assert page.detail.isHidden()
        assert page.logs.model.rowCount() == 0

    runner.run(scenario())
