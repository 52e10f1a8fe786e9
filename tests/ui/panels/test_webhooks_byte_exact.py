"""Issue 17 §4: a delivery's payload is shown, copied, replayed and exported exactly as the
service sent and signed it (the envelope's "+00:00" used to come back as "Z")."""

from __future__ import annotations

import hashlib
import hmac
import json
import shlex
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from app.sandbox.webhook_sender import envelope_body
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession, Posted
from tests.webhooks.receiver import receiver
from ui.panels.webhooks import WebhooksPage


def click(widget: object) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)  # type: ignore[call-overload]


def test_payload_is_kept_shown_copied_replayed_and_exported_as_sent(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
    posted: Posted,
    tmp_path: Path,
) -> None:
    store = private_sandbox.store
    hook = store.create_webhook("https://hooks.example.com/a", ["post.created"])
    for i in range(3):
        store.add_webhook_log(
            hook, event_type="post.created", outcome="delivered", data={"id": f"p{i}", "n": 1.5}
        )
    sent = {row["id"]: envelope_body(row["payload"]) for row in store.webhook_logs(hook)}
    assert all(b"+00:00" in body for body in sent.values())  # what the bug turned into "Z"
    secret = store.webhook(hook)["signing_secret"]
    page = WebhooksPage()
    page.resize(1200, 800)
    page.show()
    page.set_session(make_session(private_sandbox.base_url, private_sandbox.keys.admin))

    async def scenario() -> None:
        await until(lambda: page.logs.model.rowCount() == 3, what="logs")
        page.logs.select_row(0)
        log = page.logs.selected_log()
        assert log is not None
        body = sent[log.id]
        assert page.logs.detail.raw.toPlainText().encode("utf-8") == body
        assert json.loads(page.logs.detail.pretty.toPlainText()) == json.loads(body)

        click(page.logs.copy_button)
        assert QGuiApplication.clipboard().text().encode("utf-8") == body

        click(page.logs.curl_button)
        await until(
            lambda: QGuiApplication.clipboard().text().startswith("curl "), what="curl copied"
        )
        command = QGuiApplication.clipboard().text()
        assert secret not in command
        words = shlex.split(command)
        assert words[words.index("--data-binary") + 1].encode("utf-8") == body
        signature = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        assert f"X-Webhook-Signature: {signature}" in words

        with receiver(status=200, answer=b"ok") as target:
            click(page.logs.local_button)
            dialog = page.local_dialog
            assert dialog is not None
            dialog.url_edit.setText(target.url)
            click(dialog.send_button)
            await until(lambda: "200" in dialog.result_label.text(), what="local answer")
            (got,) = target.got
        assert got.body == body
        dialog.reject()

        page.logs.table.selectAll()
        assert len(page.logs.selected_logs()) == 3
        out = tmp_path / "out.jsonl"
        assert page.save_export(str(out), page.logs.selected_logs())
        lines = out.read_text(encoding="utf-8").splitlines()
        assert len(lines) == 3
        for line in lines:
            record = json.loads(line)
            assert envelope_body(record["payload"]) == sent[record["id"]]
            assert "payload_raw" not in record
        assert secret not in out.read_text(encoding="utf-8")

    runner.run(scenario())
