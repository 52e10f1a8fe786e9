"""Issue 15 §1/§4: the date under "Schedule at…" is saved with a draft or visibly cleared; Tab
leaves the post text and the date field is one Tab stop."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.compose.document import ScheduleMode
from ui.composer.editors import TextEditor
from ui.composer.schedule_bar import NO_DATE_TEXT, ScheduleBar


def _bar(qtbot: QtBot) -> ScheduleBar:
    bar = ScheduleBar(UTC)
    qtbot.addWidget(bar)
    bar.show_schedule(ScheduleMode.DRAFT, None, editing=False)
    return bar


def test_a_date_chosen_under_schedule_at_is_kept_when_switching_to_draft(qtbot: QtBot) -> None:
    bar = _bar(qtbot)
    seen: list[tuple[object, object]] = []
    bar.scheduleChanged.connect(lambda mode, at: seen.append((mode, at)))
    bar.set_mode(ScheduleMode.AT)
    when = datetime(2031, 5, 6, 7, 8, tzinfo=UTC)
    bar.set_moment(when)
    bar.set_mode(ScheduleMode.DRAFT)
    assert bar.moment() == when
    assert seen[-1] == (ScheduleMode.DRAFT, when)
    assert bar.when.text() != NO_DATE_TEXT


def test_an_undated_draft_shows_no_date_rather_than_a_date_it_will_not_save(qtbot: QtBot) -> None:
    bar = _bar(qtbot)
    assert bar.when.text() == NO_DATE_TEXT
    assert bar.moment() is None
    bar.set_mode(ScheduleMode.QUEUE_NEXT)
    bar.set_mode(ScheduleMode.DRAFT)
    assert bar.when.text() == NO_DATE_TEXT
    assert bar.moment() is None
    bar.set_mode(ScheduleMode.AT)
    moment = bar.moment()
    assert moment is not None
    assert moment > datetime.now(UTC)


def _form(qtbot: QtBot) -> tuple[QWidget, TextEditor, ScheduleBar, QLineEdit]:
    form = QWidget()
    qtbot.addWidget(form)
    editor = TextEditor()
    bar = ScheduleBar(UTC)
    after = QLineEdit()
    layout = QVBoxLayout(form)
    for widget in (editor, bar, after):
        layout.addWidget(widget)
    bar.show_schedule(ScheduleMode.AT, datetime(2031, 1, 1, tzinfo=UTC), editing=False)
    form.show()
    qtbot.waitExposed(form)
    form.activateWindow()
    return form, editor, bar, after


def test_tab_leaves_the_post_text_without_inserting_a_tab(qtbot: QtBot) -> None:
    _form_widget, editor, _bar, _after = _form(qtbot)
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus)
    QTest.keyClick(editor, Qt.Key.Key_Tab)
    assert "\t" not in editor.toPlainText()
    qtbot.waitUntil(lambda: not editor.hasFocus())


def test_the_date_field_is_one_tab_stop(qtbot: QtBot) -> None:
    _form_widget, _editor, bar, _after = _form(qtbot)
    bar.when.setFocus()
    qtbot.waitUntil(bar.when.hasFocus)
    QTest.keyClick(bar.when, Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: bar.send.hasFocus())


def test_the_schedule_row_stays_whole_in_a_narrow_column(qtbot: QtBot) -> None:
    """At 1024×640 with the preview shown it read "Save as draf" and "Wed 25 Nov 2"."""
    bar = ScheduleBar(UTC)
    qtbot.addWidget(bar)
    bar.show_schedule(ScheduleMode.AT, datetime(2031, 11, 26, 9, tzinfo=UTC), editing=False)
    bar.resize(330, 120)
    bar.show()
    qtbot.waitExposed(bar)

    def whole() -> bool:
        return all(
            widget.width() >= widget.sizeHint().width() and widget.geometry().right() <= bar.width()
            for widget in (bar.mode, bar.when, bar.send)
        )

    for width in (330, 900):
        bar.resize(width, 120)
        qtbot.waitUntil(lambda w=width: bar.width() == w and whole())  # type: ignore[misc]
    # Wide: one row; narrow: the button under the fields.
    qtbot.waitUntil(lambda: bar.send.geometry().top() == bar.mode.geometry().top())
    bar.resize(330, 120)
    qtbot.waitUntil(lambda: bar.send.geometry().top() > bar.mode.geometry().bottom() and whole())


def test_thread_reply_text_passes_tab_on(qtbot: QtBot) -> None:
    from ui.composer.thread_replies import ThreadRepliesEditor

    editor = ThreadRepliesEditor([{"text": "First", "media": []}])
    qtbot.addWidget(editor)
    assert editor.rows[0].text.tabChangesFocus()
