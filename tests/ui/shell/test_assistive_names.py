"""Names the AT-SPI walk of the live demo found missing outside the calendar and the composer
(docs/notes/accessibility_atspi.md): the keyboard shortcuts table, and the parts of every date
edit's calendar popup (month arrows and day grid: "button", "button", "table")."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication, QDateEdit, QStyle, QStyleOptionComboBox, QWidget
from pytestqt.qtbot import QtBot

from tests.ui.a11y_walk import named_controls, unnamed_controls
from ui.assistive_tech import when_assistive_tech_listens
from ui.panels.webhooks.archive_search import ArchiveSearchBar
from ui.shell.help import ShortcutsDialog
from ui.widgets.alive import alive
from ui.widgets.calendar_names import name_date_popup


def test_the_shortcuts_table_has_a_name(qtbot: QtBot) -> None:
    dialog = ShortcutsDialog([])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert unnamed_controls(dialog) == []
    assert ("Table", "Keyboard shortcuts") in named_controls(dialog)


def _open_popup(qtbot: QtBot, edit: QDateEdit) -> None:
    option = QStyleOptionComboBox()
    option.initFrom(edit)
    option.editable = True
    option.subControls = QStyle.SubControl.SC_All
    arrow = edit.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxArrow, edit
    )
    qtbot.mousePress(edit, Qt.MouseButton.LeftButton, pos=arrow.center())
    qtbot.waitUntil(lambda: edit.calendarWidget().isVisible())


def test_a_date_popup_is_named_when_first_opened(qtbot: QtBot) -> None:
    edit = QDateEdit()
    edit.setCalendarPopup(True)
    edit.setAccessibleName("Day")
    name_date_popup(edit, "Choose the day")
    qtbot.addWidget(edit)
    edit.show()
    qtbot.waitExposed(edit)
    _open_popup(qtbot, edit)
    popup = edit.calendarWidget().window()
    assert edit.calendarWidget().accessibleName() == "Choose the day"
    assert unnamed_controls(popup) == []
    names = {name for _role, name in named_controls(popup)}
    assert {"Previous month", "Next month", "Days of the month"} <= names
    popup.hide()


def test_the_archive_search_date_popups_are_named(qtbot: QtBot) -> None:
    bar = ArchiveSearchBar()
    qtbot.addWidget(bar)
    bar.show()
    qtbot.waitExposed(bar)
    bar.dates_check.setChecked(True)
    for edit, name in (
        (bar.from_edit, "Choose the first date"),
        (bar.to_edit, "Choose the last date"),
    ):
        _open_popup(qtbot, edit)
        popup = edit.calendarWidget().window()
        assert edit.calendarWidget().accessibleName() == name
        assert unnamed_controls(popup) == []
        popup.hide()


def _turns() -> None:
    for _ in range(3):
        QApplication.processEvents()


class _Listener(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def arrived(self) -> None:
        self.calls += 1


def test_work_for_assistive_tech_starts_when_it_first_asks(qtbot: QtBot) -> None:
    waiting, gone = _Listener(), _Listener()
    qtbot.addWidget(waiting)
    when_assistive_tech_listens(waiting.arrived)
    when_assistive_tech_listens(gone.arrived)
    gone.deleteLater()
    qtbot.waitUntil(lambda: not alive(gone))
    QAccessible.queryAccessibleInterface(QWidget(waiting))  # asked while nobody listens
    _turns()  # a wrongly scheduled call would run in these
    assert waiting.calls == 0
    QAccessible.setActive(True)  # what Qt's AT-SPI bridge does when a screen reader listens
    try:
        QAccessible.queryAccessibleInterface(QWidget(waiting))
        qtbot.waitUntil(lambda: waiting.calls == 1)
        later = _Listener()
        qtbot.addWidget(later)
        when_assistive_tech_listens(later.arrived)  # AT already listening: called at once
        qtbot.waitUntil(lambda: later.calls == 1)
    finally:
        QAccessible.setActive(False)
    QAccessible.queryAccessibleInterface(QWidget(waiting))
    _turns()
    assert waiting.calls == 1  # once
