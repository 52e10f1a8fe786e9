"""Names for the parts of Qt's calendar (a date edit's popup picker): its month arrows, year
field and day grid have no accessible name, so a screen reader says "button", "button",
"table". Qt builds these parts under fixed object names; a part Qt renames is left as it is.

The month and year buttons are left alone: their text ("November", "2026") is their name."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QCalendarWidget, QDateTimeEdit, QWidget

PART_NAMES = {
    "qt_calendar_prevmonth": "Previous month",
    "qt_calendar_nextmonth": "Next month",
    "qt_calendar_yearedit": "Year",
    "qt_calendar_calendarview": "Days of the month",
}


def name_calendar_parts(calendar: QCalendarWidget) -> QCalendarWidget:
    for part in calendar.findChildren(QWidget):
        name = PART_NAMES.get(part.objectName())
        if name and not part.accessibleName():
            part.setAccessibleName(name)
    return calendar


def name_date_popup(edit: QDateTimeEdit, name: str) -> None:
    """Names `edit`'s popup calendar and its parts when it is first opened (a press on the
    edit's arrow builds it; the only way a date edit opens it): no cost before."""
    _NamesOnFirstPress(edit, name)


class _NamesOnFirstPress(QObject):
    def __init__(self, edit: QDateTimeEdit, name: str) -> None:
        super().__init__(edit)
        self._name = name
        edit.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(watched, QDateTimeEdit) and event.type() in (
            QEvent.Type.MouseButtonPress,
            QEvent.Type.MouseButtonDblClick,
        ):
            calendar = watched.calendarWidget()  # built here, before the press opens it
            calendar.setAccessibleName(self._name)
            name_calendar_parts(calendar)
            watched.removeEventFilter(self)
            self.deleteLater()
        return False
