"""Every panel against a deployment the demo never was (tests/ui/panels/odd_server.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession
from tests.ui.panels.odd_server import ACCOUNT, HUGE, REPURPOSE, OddState, odd_server
from ui.panels.accounts import AccountsPanel
from ui.panels.labels import LabelsPage
from ui.panels.repurposes import RepurposesPage
from ui.panels.signatures import SignaturesPage
from ui.panels.webhooks import WebhooksPage


@pytest.fixture
def odd() -> Iterator[OddState]:
    with odd_server() as state:
        yield state


def test_webhooks_with_unknown_values_nulls_and_huge_bodies(
    qapp: QApplication, runner: LoopRunner, odd: OddState, make_session: MakeSession
) -> None:
    page = WebhooksPage()
    page.resize(1200, 800)
    page.show()
    page.set_session(make_session(odd.base_url, "key"))

    async def scenario() -> None:
        await until(lambda: page.model.rowCount() == 2, what="webhooks")
        assert page.model.index(0, 0).data() == "unknown (suspended)"
        assert page.model.index(0, 2).data() == "7 (pauses at 5)"  # issue 17: never "7/5"
        assert page.model.index(0, 3).data() == "never"
        assert page.model.index(1, 5).data() == "none"
        await until(lambda: page.logs.model.rowCount() > 0, what="logs")
        model = page.logs.model
        # Ordered by created_at, then id: the rows without an offset (read as UTC, 09:00) come
        # before the 10:00+02:00 ones (08:00 UTC).
        blank = next(
            r for r in range(model.rowCount()) if model.index(r, 1).data() == "(no event type)"
        )
        # Neither delivered nor failed: queued, and its response reads so (issue 17 §6).
        assert model.index(blank, 3).data() == "queued"
        assert model.index(blank, 2).data() == "Queued"
        page.logs.select_row(blank)
        assert "(no response body recorded)" in page.logs.detail.response.toPlainText()
        huge = next(r for r in range(model.rowCount()) if model.index(r, 3).data() == "503")
        page.logs.select_row(huge)
        assert HUGE in page.logs.detail.response.toPlainText()
        assert "post.archived" in page.logs.detail.raw.toPlainText()
        # Filtering by outcome keeps fetching pages until it has something to show.
        page.logs.outcome_combo.setCurrentIndex(page.logs.outcome_combo.findData("failed"))
        await until(lambda: page.logs.filter.rowCount() >= 2, what="filtered")
        assert all(
            page.logs.filter.index(r, 2).data() == "Failed"
            for r in range(page.logs.filter.rowCount())
        )
        await until(lambda: page.chart.timeline is not None, what="timeline")
        assert page.chart.timeline is not None
        # All logs are older than 7 days: the first page says so and no more are read.
        assert page.chart.timeline.older_skipped == 15
        assert page.chart.timeline.success_rate is None
        page.open_edit()
        assert page.form is not None
        assert page.form.unknown_note.isVisibleTo(page.form)
        assert page.form.values()[1] == ["post.failed", "post.archived"]
        page.form.reject()

    runner.run(scenario())


def test_missing_collections_are_explained_not_errors(
    qapp: QApplication, runner: LoopRunner, odd: OddState, make_session: MakeSession, posted: list
) -> None:
    session = make_session(odd.base_url, "key")
    labels, signatures = LabelsPage(), SignaturesPage()
    for page in (labels, signatures):
        page.show()
        page.set_session(session)

    async def scenario() -> None:
        await until(lambda: labels.showing_explanation() and signatures.showing_explanation())
        assert "not available on this deployment" in labels.explanation.text()
        assert "/signatures" in signatures.explanation.text()
        assert posted == []  # no error banner

    runner.run(scenario())


def test_repurposes_without_a_list_ask_for_an_id_and_remember_it(
    qapp: QApplication, runner: LoopRunner, odd: OddState, make_session: MakeSession
) -> None:
    session = make_session(odd.base_url, "key")
    page = RepurposesPage()
    page.show()
    page.set_session(session)

    async def scenario() -> None:
        await until(lambda: page.id_edit.isVisibleTo(page), what="asks for an id")
        page.id_edit.setText("not-mine")
        QTest.mouseClick(page.id_button, Qt.MouseButton.LeftButton)
        await until(lambda: "No repurpose with id not-mine" in page.note.text())
        page.id_edit.setText(f"  {REPURPOSE} ")
        QTest.mouseClick(page.id_button, Qt.MouseButton.LeftButton)
        await until(lambda: page.model.rowCount() == 2, what="items")
        assert page.model.index(0, 1).data() == "unknown (archived)"
        assert "quota_exceeded" in page.model.index(0, 2).data()
        assert "Downloading the source video failed" in page.model.index(1, 2).data()
        assert "HTTP 403" in page.model.index(1, 2).data()
        again = RepurposesPage()
        again.set_session(session)
        await until(lambda: again.model.rowCount() == 2, what="remembered id")
        assert again.id_edit.text() == REPURPOSE

    try:
        runner.run(scenario())
    finally:
        QSettings().clear()


def test_account_toggle_without_an_answer_body_reads_the_list_again(
    qapp: QApplication, runner: LoopRunner, odd: OddState, make_session: MakeSession
) -> None:
    odd.active = True
    page = AccountsPanel()
    page.show()
    page.set_session(make_session(odd.base_url, "key"))

    async def scenario() -> None:
        await until(lambda: page.model.rowCount() == 1, what="accounts")
        assert page.model.index(0, 3).data() == "unknown (suspended)"
        assert "unknown to Postdesk" in page.model.index(0, 5).data()
        page.table.selectRow(0)
        QTest.mouseClick(page.toggle_button, Qt.MouseButton.LeftButton)
        await until(lambda: page.model.index(0, 4).data() == "Off (inactive)", what="re-read")
        assert odd.toggled == [ACCOUNT]

    runner.run(scenario())
