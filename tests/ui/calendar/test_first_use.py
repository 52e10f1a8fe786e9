"""The month's first paint builds the month and nothing else: the other views, the detail panel,
the "+N more" popup, the dialogs and the date picker's calendar are built (and their modules
imported) the first time they are opened — and then work."""

from __future__ import annotations

from datetime import date, time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCalendarWidget, QDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.fresh_process import run_python
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import make_post
from ui.calendar.day_popup import DayPopup
from ui.calendar.detail_panel import PostDetailPanel
from ui.calendar.month_view import MonthView
from ui.calendar.page import CalendarPage
from ui.calendar.week_view import WeekView

BUSY_DAY = date(2025, 10, 22)  # in the week of TODAY


def busy_page(make_page: PageFactory) -> CalendarPage:
    """A month with a day too full for its cell (so it has "+N more")."""
    posts = [make_post(when=local_instant(BUSY_DAY, time(8 + n), BERLIN)) for n in range(9)]
    return make_page(posts)


def built(page: QWidget) -> dict[str, int]:
    return {
        "week view": len(page.findChildren(WeekView)),
        "agenda view": len(
            [w for w in page.findChildren(QWidget) if w.objectName() == "agendaView"]
        ),
        "detail panel": len(page.findChildren(PostDetailPanel)),
        "day popup": len(page.findChildren(DayPopup)),
        "dialogs": len(page.findChildren(QDialog)),  # time dialog, confirmations
        "date picker calendar": len(page.findChildren(QCalendarWidget)),
    }


def test_showing_the_month_builds_nothing_else(make_page: PageFactory, qtbot: QtBot) -> None:
    page = busy_page(make_page)
    qtbot.waitUntil(lambda: page.month_view.hidden_count(BUSY_DAY) > 0)
    assert page.findChildren(MonthView) == [page.month_view]
    assert set(built(page).values()) == {0}, built(page)
    # Selecting a post (a click) does not need the detail's widgets built either until shown.
    page.go_next()
    page.go_previous()
    assert set(built(page).values()) == {0}, built(page)


def test_each_part_is_built_when_first_opened_and_works(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page = busy_page(make_page)
    post_id = page.month_view.visible_post_ids(BUSY_DAY)[0]

    page.set_view("week")
    assert page.stack.currentWidget() is page.week_view
    assert post_id in [entry.id for entry in page.week_view.entries_on(BUSY_DAY)]
    page.set_view("agenda")
    assert page.stack.currentWidget() is page.agenda_view
    assert post_id in page.agenda_view.post_model.post_ids()
    page.set_view("month")

    page.select_post(post_id)
    page.open_detail()
    assert page.findChildren(PostDetailPanel) == [page.detail]
    assert page.detail.isVisible()
    page.close_detail()

    page.show_more(BUSY_DAY)
    assert page.findChildren(DayPopup) == [page.day_popup]
    assert page.day_popup.isVisible()
    assert len(page.day_popup.post_ids()) == 9
    page.day_popup.close()

    page.action_reschedule.trigger()
    dialog = page.reschedule_dialog()
    assert dialog is not None
    assert dialog.isVisible()
    dialog.reject()
    qtbot.waitUntil(lambda: page.reschedule_dialog() is None)

    page.request_delete()
    box = page.delete_confirmation()
    assert isinstance(box, QMessageBox)
    assert box.isVisible()
    box.reject()

    page.focus_jump_to_date()  # Ctrl+G
    calendars = page.findChildren(QCalendarWidget)
    assert len(calendars) == 1
    assert calendars[0].firstDayOfWeek() == Qt.DayOfWeek.Monday
    assert not calendars[0].isGridVisible()
    assert calendars[0].isVisible()  # the picker is open, not only the editor focused
    calendars[0].window().close()


def test_a_mouse_click_on_the_date_picker_prepares_its_calendar_too(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page = make_page([])
    editor = page.toolbar.jump_edit
    qtbot.mouseClick(editor, Qt.MouseButton.LeftButton, pos=editor.rect().center())
    calendars = page.findChildren(QCalendarWidget)
    assert len(calendars) == 1
    assert calendars[0].firstDayOfWeek() == Qt.DayOfWeek.Monday


LATE = (
    "ui.calendar.week_view",
    "ui.calendar.detail_panel",
    "ui.calendar.reschedule_dialog",
    "ui.calendar.confirm",
)

SHOW_A_MONTH = f"""
import sys
from datetime import date
from PySide6.QtWidgets import QApplication
app = QApplication([])
from ui.calendar import CalendarPage, InMemoryCalendarSource
page = CalendarPage(InMemoryCalendarSource([]), today=lambda: date(2025, 10, 21))
page.resize(1100, 760)
page.show()
app.processEvents()
late = [name for name in {LATE!r} if name in sys.modules]
assert not late, f"imported for the month's first paint: {{late}}"
"""


def test_showing_the_month_imports_no_other_view_or_dialog() -> None:
    # A fresh interpreter: this test process has imported everything already.
    run_python(SHOW_A_MONTH)
