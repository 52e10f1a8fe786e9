"""Issue 17 §1–§3 on the Webhooks page against the sandbox: search over the archive, the
archive dialog (size, retention, a deleted webhook's archive), and *Replay N deliveries…*."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession, Posted
from ui.panels.webhooks import WebhooksPage


def click(widget: object) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)  # type: ignore[call-overload]


def accept(box: QMessageBox | None) -> None:
    assert box is not None
    click(box.buttons()[0])


def test_search_bulk_replay_and_the_archive_dialog(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
    posted: Posted,
) -> None:
    store = private_sandbox.store
    hook = store.create_webhook("https://hooks.example.com/a", ["post.failed", "post.created"])
    gone = store.create_webhook("https://hooks.example.com/gone", ["post.created"])
    for i in range(20):
        store.add_webhook_log(
            hook,
            event_type="post.failed" if i % 4 == 0 else "post.created",
            outcome="failed" if i % 4 == 0 else "delivered",
            response_status=503 if i % 4 == 0 else 200,
            response_body="upstream sleepy" if i % 4 == 0 else "ok",
            data={"id": f"post-{i}", "content": "flat white" if i == 6 else "espresso"},
        )
    store.add_webhook_log(gone, data={"id": "post-x"})
    page = WebhooksPage()
    page.resize(1280, 860)
    page.show()
    page.set_session(make_session(private_sandbox.base_url, private_sandbox.keys.admin))
    logs = page.logs

    async def scenario() -> None:
        await until(lambda: page.model.rowCount() == 2, what="listed")
        page.table.selectRow(page.model.row_of(gone))
        await until(lambda: logs.model.rowCount() == 1, what="gone's log kept")
        page.table.selectRow(page.model.row_of(hook))
        await until(lambda: logs.model.rowCount() >= 15, what="log")
        monitor = page.session.webhooks  # type: ignore[union-attr]
        while (gap := monitor.archive.first_gap(hook)) is not None:
            assert await monitor.fill_below(hook, gap.id)  # as scrolling to the end reads it

        # Search: free text in the payload, then the status class.
        logs.search_bar.text_edit.setText("flat white")
        logs.search_bar.fire()
        await until(lambda: logs.searching and logs.results.rowCount() == 1, what="found")
        logs.results_table.selectRow(0)
        found = logs.selected_log()
        assert found is not None
        assert "flat white" in logs.detail.raw.toPlainText()
        assert "1 found" in logs.status_label.text()
        logs.search_bar.text_edit.setText("")
        logs.search_bar.status_combo.setCurrentIndex(logs.search_bar.status_combo.findData("5xx"))
        await until(lambda: logs.results.rowCount() == 5, what="5xx found")

        # Bulk: every 5xx selected, one confirmation, each replayed once.
        logs.results_table.selectAll()
        assert logs.bulk_button.isEnabled()
        assert logs.bulk_button.text() == "Replay 5 deliveries…"
        click(logs.bulk_button)
        await until(lambda: page.question is not None and page.question.isVisible(), what="ask")
        assert page.question is not None
        assert "Each is asked once" in page.question.text()
        accept(page.question)
        await until(
            lambda: page.bulk_dialog is not None and page.bulk_dialog.finished_run,
            what="bulk done",
        )
        assert page.bulk_dialog is not None
        assert "5 of 5 replays queued" in page.bulk_dialog.summary_label.text()
        assert len(store.webhook_logs(hook)) == 25
        await until(lambda: any("5 of 5" in text for text in posted.texts()), what="summary")
        page.bulk_dialog.accept()

        # The archive: deleted on the server, still kept; removed only when asked.
        await page.session.client.webhooks.delete(gone)  # type: ignore[union-attr]
        await page.session.webhooks.read_list()  # type: ignore[union-attr]
        click(page.archive_button)
        dialog = page.archive_dialog
        assert dialog is not None
        assert dialog.retention.value() == 90
        states = {item.webhook_id: item for item in dialog.items}
        assert states[gone].gone_utc is not None
        assert states[gone].rows == 1
        assert "deliveries kept" in dialog.total_label.text()
        dialog.table.selectRow(dialog.items.index(states[gone]))
        assert dialog.remove_button.isEnabled()
        click(dialog.remove_button)
        await until(lambda: page.question is not None and page.question.isVisible(), what="ask")
        accept(page.question)
        await until(lambda: gone not in {i.webhook_id for i in dialog.items}, what="removed")
        dialog.table.selectRow(0)
        assert not dialog.remove_button.isEnabled()  # a live webhook's archive stays
        dialog.retention.setValue(30)
        click(dialog.apply_button)
        await until(lambda: any("kept 30 days" in text for text in posted.texts()), what="kept")
        assert page.session.webhooks.archive.retention_days() == 30  # type: ignore[union-attr]
        dialog.accept()

    runner.run(scenario())


def test_every_match_of_a_search_is_offered_not_only_the_rows_scrolled_to(
    qapp: QApplication, runner: LoopRunner
) -> None:
    from app.store.delivery_logs import DeliveryArchive, MemoryDb
    from app.store.delivery_search import DeliverySearch, LogQuery
    from app.webhooks.raw_log import RawDeliveryLog
    from ui.panels.webhooks.archive_search import BATCH, SearchResultsModel

    archive = DeliveryArchive(MemoryDb())
    logs = [
        RawDeliveryLog.model_validate(
            {
                "id": f"log-{n:04d}",
                "event_type": "post.failed",
                "payload": {"id": f"e{n}", "type": "post.failed", "data": {"id": f"p{n}"}},
                "response_status": 503,
                "failed_at": f"2026-11-20T10:{n // 60:02d}:{n % 60:02d}+00:00",
                "attempts": 3,
                "created_at": f"2026-11-20T10:{n // 60:02d}:{n % 60:02d}+00:00",
            }
        )
        for n in range(250)
    ]
    runner.run(archive.store_run("hook", logs, reaches_end=True))
    search = DeliverySearch(archive.db)
    runner.run(search.prepare())
    model = SearchResultsModel()
    model.run(search, archive, LogQuery(webhook_id="hook", status_class="5xx"))
    assert model.rowCount() == BATCH
    assert model.canFetchMore(model.index(-1, -1))
    every = model.all_logs()
    assert len(every) == 250
    assert len({log.id for log in every}) == 250
