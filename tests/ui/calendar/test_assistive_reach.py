"""What the AT-SPI walk of the live demo found on the calendar (docs/notes/accessibility_atspi.md):
the posts' mirror list and the empty-state card were children of the views' QStackedWidget,
which shows only its pages to assistive technology, so a screen reader never met them; the
tray's list, the Ctrl+G picker's month arrows and day grid, and the reschedule dialog's date
field had no name. Checked here on the QAccessible tree that Qt's AT-SPI bridge serves."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QCalendarWidget,
    QDateTimeEdit,
    QStyle,
    QStyleOptionComboBox,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.a11y_walk import unnamed_controls, walk
from tests.ui.calendar.conftest import BERLIN
from tests.ui.calendar.factories import make_post
from tests.ui.calendar.shell_window import calendar_in_shell
from ui.calendar import CalendarPage
from ui.calendar.reschedule_dialog import RescheduleDialog
from ui.shell.main_window import MainWindow


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return local_instant(date(2025, 10, day), time(hour, minute), BERLIN)


POSTS = [
    make_post(when=at(22, 9, 30), post_id="a", content="Our autumn blend is here"),
    make_post(when=None, post_id="c", status="draft", content="Someday"),
]


@pytest.fixture
def window(qtbot: QtBot) -> tuple[MainWindow, CalendarPage]:
    return calendar_in_shell(qtbot, POSTS)


def reached(root: QWidget) -> tuple[set[int], list[str]]:
    """The widgets (by id) and the names of everything the accessible tree offers under root."""
    interfaces = walk(root)
    objects = {id(obj) for i in interfaces if (obj := i.object()) is not None}
    return objects, [i.text(QAccessible.Text.Name) for i in interfaces]


@pytest.mark.parametrize("view", ["month", "week"])
def test_the_posts_mirror_is_in_the_accessible_tree(
    window: tuple[MainWindow, CalendarPage], view: str
) -> None:
    shell, page = window
    page.set_view(view)
    page.follow_for_assistive_tech(None, force=True)
    mirror = page.post_mirror()
    assert mirror is not None
    assert mirror.count() == 1
    objects, names = reached(shell)
    assert id(mirror) in objects
    assert mirror.item(0).text() in names  # "…, 09:30, LinkedIn, Scheduled: Our autumn blend…"
    assert "Our autumn blend is here" in mirror.item(0).text()


def test_the_mirror_is_made_when_a_screen_reader_starts_listening_later(
    window: tuple[MainWindow, CalendarPage], qtbot: QtBot
) -> None:
    """At start the month is shown before Qt's AT-SPI bridge turns active (and Orca may start
    any time later): the mirror comes when the assistive technology first asks for the tree."""
    shell, page = window
    assert not QAccessible.isActive()  # offscreen: no bridge
    assert page.post_mirror() is None
    QAccessible.setActive(True)  # what the AT-SPI bridge does when a screen reader listens
    try:
        assert QAccessible.queryAccessibleInterface(QWidget(shell)) is not None  # AT asks
        qtbot.waitUntil(lambda: page.post_mirror() is not None)
        mirror = page.post_mirror()
        assert mirror is not None
        assert mirror.isVisible()
        assert [name.endswith("Our autumn blend is here") for name in mirror.names()] == [True]
    finally:
        QAccessible.setActive(False)


def test_the_empty_state_card_is_in_the_accessible_tree(
    window: tuple[MainWindow, CalendarPage],
) -> None:
    shell, page = window
    card = page.widgets.empty_state
    card.show_message("Nothing planned for November", "Double-click a day…", "New post")
    assert card.isVisible()
    objects, names = reached(shell)
    assert id(card.button) in objects
    assert "New post" in names


def test_the_tray_list_has_a_name(window: tuple[MainWindow, CalendarPage]) -> None:
    shell, page = window
    tray_list = page.widgets.tray.list  # built now (the page builds it after its first paint)
    assert tray_list.isVisible()
    assert tray_list.accessibleName() == "Unscheduled posts"
    assert unnamed_controls(shell) == []


def _press_arrow(qtbot: QtBot, edit: QDateTimeEdit) -> QCalendarWidget:
    """A press on the edit's arrow: the one way a date edit opens its calendar."""
    option = QStyleOptionComboBox()
    option.initFrom(edit)
    option.editable = True
    option.subControls = QStyle.SubControl.SC_All
    arrow = edit.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxArrow, edit
    )
    qtbot.mousePress(edit, Qt.MouseButton.LeftButton, pos=arrow.center())
    calendar = edit.calendarWidget()
    qtbot.waitUntil(lambda: calendar.isVisible())
    return calendar


def test_the_jump_to_date_picker_names_its_parts(
    window: tuple[MainWindow, CalendarPage], qtbot: QtBot
) -> None:
    _shell, page = window
    edit = page.toolbar.jump_edit
    edit.open_calendar()
    calendar = edit.calendarWidget()
    qtbot.waitUntil(lambda: calendar.isVisible())
    assert unnamed_controls(calendar.window()) == []
    names = {name for _role, name in _names(calendar)}
    assert {"Previous month", "Next month", "Days of the month"} <= names
    calendar.window().hide()


def test_the_reschedule_dialog_and_its_picker_are_named(qtbot: QtBot) -> None:
    dialog = RescheduleDialog("a", at(22, 9, 30), BERLIN, now=lambda: at(21, 8))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert unnamed_controls(dialog) == []
    calendar = _press_arrow(qtbot, dialog.editor)
    assert calendar.accessibleName() == "Choose the new date"
    assert unnamed_controls(calendar.window()) == []
    calendar.window().hide()


def _names(root: QWidget) -> list[tuple[str, str]]:
    return [(i.role().name, i.text(QAccessible.Text.Name)) for i in walk(root)]
