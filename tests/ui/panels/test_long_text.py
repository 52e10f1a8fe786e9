"""Issue 19 §3: a server's text is shown from its start, never laid out whole on the GUI thread
(a 5 MB response body froze the window for 12 minutes); the rest comes on request and all of
it can be copied exactly."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from app.content.long_text import MORE_CHARS, PREVIEW_CHARS
from app.models.labels import Label, Signature
from app.webhooks.raw_log import RawDeliveryLog, compact_body, payload_of
from tests.tools.odd_hostile import HUGE_LOG_CHARS
from tests.tools.odd_server import OddServer
from tests.ui.a11y_walk import unnamed_controls
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession
from ui.notifications.changes import SUBJECT_CHARS, ChangeWatcher, Item
from ui.panels.labels import LabelsPage
from ui.panels.signatures import SAMPLE_POST, SignatureForm
from ui.panels.webhooks import WebhooksPage
from ui.panels.webhooks.log_detail import LogDetail
from ui.widgets.long_text_view import LINE_CHARS, LongTextView, broken_lines, short_text


@pytest.mark.parametrize(
    ("piece", "column", "width", "expected", "end"),
    [
        ("abc", 0, 5, "abc", 3),
        ("abcdefgh", 0, 3, "abc\ndef\ngh", 2),
        ("abcdef", 2, 3, "a\nbcd\nef", 2),  # continues a line begun before
        ("ab\ncdefg", 1, 3, "ab\ncde\nfg", 2),
        ("abc", 3, 3, "\nabc", 3),
    ],
)
def test_broken_lines(piece: str, column: int, width: int, expected: str, end: int) -> None:
    assert broken_lines(piece, column, width) == (expected, end)
    assert expected.replace("\n", "") == piece.replace("\n", "")


def test_short_text_says_how_long_the_whole_is() -> None:
    assert short_text("Coffee") == "Coffee"
    cut = short_text("x" * 1_000_000, 200)
    assert cut.startswith("x" * 200)
    assert cut.endswith("… (1,000,000 characters)")
    assert len(cut) < 240


def test_a_long_text_shows_its_start_then_more_on_request(qapp: QApplication) -> None:
    view = LongTextView("Receiver's response")
    view.show()
    whole = "".join(f"line {n} " + "y" * 40 + "\n" for n in range(20_000))  # ~950,000 chars
    view.set_text(whole)
    assert view.toPlainText() == whole[: view.part().end]
    assert view.part().end <= PREVIEW_CHARS
    assert not view.bar.isHidden()
    assert "Showing the first" in view.note.text()
    assert view.more_button.isVisibleTo(view)
    view.more_button.click()
    assert view.part().end > PREVIEW_CHARS
    assert view.part().end <= PREVIEW_CHARS + MORE_CHARS
    assert view.toPlainText() == whole[: view.part().end]  # appended in place, nothing lost
    while view.part().truncated:
        view.show_more()
    assert view.toPlainText() == whole
    assert not view.more_button.isVisibleTo(view)
    assert view.note.text() == ""
    view.set_text("short")  # the next text starts again from its start
    assert view.toPlainText() == "short"
    assert view.bar.isHidden()


def test_a_line_without_end_is_broken_for_display_only(qapp: QApplication) -> None:
    view = LongTextView("Raw payload", monospace=True)
    whole = "<html>" + "x" * (PREVIEW_CHARS * 3) + "</html>"
    view.set_text(whole)
    shown = view.toPlainText()
    assert max(len(line) for line in shown.split("\n")) == LINE_CHARS
    assert shown.replace("\n", "") == whole[: view.part().end]
    assert "broken for display" in view.note.text()
    view.copy_all()
    assert QGuiApplication.clipboard().text() == whole  # exactly, whole


def test_a_5_mb_response_body_from_the_server_is_shown_bounded_and_reachable(
    qapp: QApplication, runner: LoopRunner, make_session: MakeSession
) -> None:
    with OddServer(modes={"huge"}, quiet=True) as odd:
        page = WebhooksPage()
        page.resize(1280, 820)
        page.show()
        page.set_session(make_session(odd.base_url, odd.key))

        async def scenario() -> None:
            await until(lambda: page.model.rowCount() > 0, what="webhooks listed")
            page.table.selectRow(0)
            await until(lambda: page.logs.model.rowCount() > 0, what="the log")
            page.logs.select_row(0)
            log = page.logs.selected_log()
            assert log is not None
            assert log.response_body is not None
            assert len(log.response_body) > HUGE_LOG_CHARS  # the odd server's 5 MB body
            detail = page.logs.detail
            response = detail.response
            assert len(response.toPlainText()) < PREVIEW_CHARS + 200  # bounded
            assert response.toPlainText().startswith("Status: ")
            assert "<html>xxx" in response.toPlainText()
            assert "Showing the first 20,000 of" in response.note.text()
            detail.setCurrentWidget(response)
            assert response.more_button.isVisible()
            assert unnamed_controls(page) == []  # Show more and Copy all are named too
            before = response.part().end
            response.more_button.click()
            assert response.part().end == before + MORE_CHARS
            response.copy_all()
            copied = QGuiApplication.clipboard().text()
            assert copied.endswith(log.response_body)  # all of it, exactly
            assert "cut at 2,000" not in copied  # this server did not cut it: not said

        runner.run(scenario())


def test_an_alert_keeps_the_start_of_a_huge_subject() -> None:
    watcher = ChangeWatcher()
    watcher.observe("webhook", [])
    endpoint = "https://hooks.example.com/" + "a" * HUGE_LOG_CHARS
    (alert,) = watcher.observe("webhook", [Item("w", "paused", endpoint)])
    assert alert.subject.startswith("https://hooks.example.com/aaa")
    assert alert.subject.endswith("…")
    assert len(alert.subject) <= SUBJECT_CHARS + 1
    assert len(alert.text) < 400  # what the desktop and the list are given
    watcher.observe("post", [])
    (post,) = watcher.observe("post", [Item("p", "failed", "Launch day")])
    assert post.subject == "Launch day"  # short text is kept as it is


def test_a_huge_label_name_is_listed_by_its_start(qapp: QApplication) -> None:
    page = LabelsPage()
    name = "Autumn " * 200_000  # 1.4 million characters
    page._show([Label(id="l1", name=name, color="#7C4A1E")])
    shown = page.list.item(0).text()
    assert shown.startswith("Autumn Autumn")
    assert "(1,400,000 characters)" in shown
    assert len(shown) < 400
    assert "colour #7C4A1E" in page.list.item(0).data(Qt.ItemDataRole.AccessibleTextRole)


def test_a_huge_signature_is_previewed_by_its_start_and_edited_whole(qapp: QApplication) -> None:
    content = "Thanks for reading! " * 50_000  # a million characters on one line
    signature = Signature(id="s1", name="Huge", content=content)
    form = SignatureForm(None, signature)
    form.show()
    assert form.content_edit.toPlainText() == content  # nothing of it is lost when saving
    assert form.preview.part().end <= PREVIEW_CHARS
    assert form.preview.toPlainText().startswith(SAMPLE_POST)
    assert form.preview.more_button.isVisibleTo(form)
    form.close()


def test_a_huge_payload_is_dumped_only_for_the_tab_that_shows_it(qapp: QApplication) -> None:
    content = "A very long post. " * 100_000  # 1.8 million characters
    log = RawDeliveryLog.model_validate(
        {
            "id": "log-1",
            "event_type": "post.created",
            "payload": {"id": "e", "type": "post.created", "data": {"content": content}},
            "response_status": 200,
            "response_body": "ok",
            "attempts": 1,
            "created_at": "2026-03-01T10:00:00+00:00",
        }
    )
    detail = LogDetail()
    detail.resize(600, 500)
    detail.show()
    detail.show_log(log)
    assert detail.raw._later is not None  # not made: its tab is not open
    assert detail.pretty._later is not None
    data = detail.tree.topLevelItem(2)
    assert data is not None
    shown = data.child(0).text(1)  # the content, in the tree
    assert shown.endswith(f"… ({len(content):,} characters)")
    assert len(shown) < 600
    detail.setCurrentWidget(detail.raw)
    assert detail.raw._later is None
    assert detail.raw.toPlainText().startswith('{"id":"e","type":"post.created"')
    detail.raw.copy_all()
    assert QGuiApplication.clipboard().text() == compact_body(payload_of(log)).decode("utf-8")
    assert detail.pretty.toPlainText().startswith('{\n  "id": "e"')  # made when read
