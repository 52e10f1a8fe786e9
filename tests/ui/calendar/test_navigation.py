"""Navigation: views, periods, today, jump to date, keyboard shortcuts, reload."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, TODAY, PageFactory, focus
from tests.ui.calendar.factories import accounts, labels, make_post
from tests.ui.calendar.test_keyboard import keyed
from ui.calendar.source import InMemoryCalendarSource


def test_the_page_opens_on_this_month(make_page: PageFactory) -> None:
    page = make_page([])
    assert page.current_view() == "month"
    assert page.anchor() == TODAY
    assert page.toolbar.title.text() == "October 2025"
    assert page.visible_range() == (
        datetime(2025, 9, 28, 22, tzinfo=UTC),
        datetime(2025, 11, 9, 23, tzinfo=UTC),
    )


def test_only_the_visible_range_is_queried(make_page: PageFactory) -> None:
    source = InMemoryCalendarSource([], accounts=accounts(), labels=labels())
    page = make_page(source=source)
    page.set_view("week")
    assert source.queries[-1] == page.visible_range()
    assert source.queries[-1] == (
        datetime(2025, 10, 19, 22, tzinfo=UTC),
        datetime(2025, 10, 26, 23, tzinfo=UTC),  # the week ends on the 25-hour Sunday
    )


@pytest.mark.parametrize(
    ("view", "after_next", "title"),
    [
        ("month", date(2025, 11, 1), "November 2025"),
        ("week", date(2025, 10, 28), "27 October – 2 November 2025"),
        ("agenda", date(2025, 11, 18), "18 November – 15 December 2025"),
    ],
)
def test_next_and_previous_move_one_period(
    make_page: PageFactory, view: str, after_next: date, title: str
) -> None:
    page = make_page([])
    page.set_view(view)
    before = page.visible_range()
    page.go_next()
    assert page.anchor() == after_next
    assert page.toolbar.title.text() == title
    assert page.visible_range()[0] >= before[1] or view == "month"
    page.go_previous()
    page.go_today()
    assert page.visible_range() == before


def test_range_changes_are_announced(make_page: PageFactory, qtbot: QtBot) -> None:
    page = make_page([])
    with qtbot.waitSignal(page.visibleRangeChanged) as changed:
        page.go_next()
    assert tuple(changed.args) == page.visible_range()
    with qtbot.assertNotEmitted(page.visibleRangeChanged):
        page.reload()


def test_an_unknown_view_is_refused(make_page: PageFactory) -> None:
    page = make_page([])
    with pytest.raises(ValueError, match="year"):
        page.set_view("year")


def test_jump_to_date_editor_moves_the_calendar(make_page: PageFactory) -> None:
    page = make_page([])
    page.toolbar.jump_edit.setDate(QDate(2026, 2, 14))
    assert page.anchor() == date(2026, 2, 14)
    assert page.toolbar.title.text() == "February 2026"
    page.go_to(date(2025, 5, 1))
    assert page.toolbar.jump_edit.date() == QDate(2025, 5, 1)


def test_keyboard_shortcuts_drive_the_calendar(make_page: PageFactory, qtbot: QtBot) -> None:
    page = make_page([])
    page.registry = keyed(page)  # type: ignore[attr-defined]  # the keys, as the app binds them
    focus(qtbot, page.month_view)
    qtbot.keyClick(page.month_view, Qt.Key.Key_PageDown)
    assert page.anchor() == date(2025, 11, 1)
    qtbot.keyClick(page.month_view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    assert page.anchor() == date(2025, 12, 1)
    qtbot.keyClick(page.month_view, Qt.Key.Key_PageUp)
    qtbot.keyClick(page.month_view, Qt.Key.Key_Left, Qt.KeyboardModifier.ControlModifier)
    assert page.anchor() == date(2025, 10, 1)
    qtbot.keyClick(page.month_view, Qt.Key.Key_T)
    assert page.anchor() == TODAY
    qtbot.keyClick(page.month_view, Qt.Key.Key_W)
    assert page.current_view() == "week"
    focus(qtbot, page.week_view)
    qtbot.keyClick(page.week_view, Qt.Key.Key_A)
    assert page.current_view() == "agenda"
    focus(qtbot, page.agenda_view)
    qtbot.keyClick(page.agenda_view, Qt.Key.Key_M)
    assert page.current_view() == "month"
    assert page.action_month.isChecked()


def test_ctrl_g_goes_to_the_date_editor(make_page: PageFactory, qtbot: QtBot) -> None:
    page = make_page([])
    page.registry = keyed(page)  # type: ignore[attr-defined]  # the keys, as the app binds them
    focus(qtbot, page.month_view)
    qtbot.keyClick(page.month_view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    focused = QApplication.focusWidget()
    assert focused is not None
    # The editor's calendar popup opens and takes the keys (arrows pick a day, Enter jumps).
    picker = page.toolbar.jump_edit.calendarWidget()
    assert picker.isVisible()
    assert focused is picker or picker.isAncestorOf(focused)
    picker.window().close()


def test_enter_opens_the_selected_post(make_page: PageFactory, qtbot: QtBot) -> None:
    post = make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN))
    page = make_page([post])
    page.registry = keyed(page)  # type: ignore[attr-defined]
    page.select_post(post.id)
    page.close_detail()
    assert not page.detail.isVisible()
    focus(qtbot, page.month_view)
    qtbot.keyClick(page.month_view, Qt.Key.Key_Return)
    assert page.detail.isVisible()
    assert page.detail.entry is not None
    assert page.detail.entry.id == post.id


def test_reload_keeps_the_selection_and_drops_vanished_posts(make_page: PageFactory) -> None:
    kept = make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN))
    gone = make_post(when=local_instant(date(2025, 10, 23), time(9), BERLIN))
    source = InMemoryCalendarSource([kept, gone], accounts=accounts(), labels=labels())
    page = make_page(source=source)
    page.select_post(kept.id)
    page.reload()
    assert page.selected_post_id() == kept.id
    page.select_post(gone.id)
    source.set_posts([kept])
    page.reload()
    assert page.selected_post_id() is None
    assert not page.detail.isVisible()
    assert page.month_view.visible_post_ids(date(2025, 10, 23)) == []


def test_reload_picks_up_a_rescheduled_post(make_page: PageFactory) -> None:
    post = make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN))
    source = InMemoryCalendarSource([post], accounts=accounts(), labels=labels())
    page = make_page(source=source)
    moved = post.model_copy(
        update={"scheduled_at": local_instant(date(2025, 10, 24), time(9), BERLIN)}
    )
    source.set_posts([moved])
    page.reload()
    assert page.month_view.visible_post_ids(date(2025, 10, 24)) == [post.id]
    assert page.month_view.visible_post_ids(date(2025, 10, 22)) == []


def test_an_empty_period_says_so_and_offers_a_new_post(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page = make_page([make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN))])
    assert not page.empty_state.isVisible()
    page.go_to(date(2027, 5, 10))
    assert page.empty_state.isVisible()
    assert page.empty_state.title.text() == "Nothing planned for May 2027"
    with qtbot.waitSignal(page.newPostRequested) as requested:
        page.empty_state.button.click()
    assert requested.args == [date(2027, 5, 10)]
