"""Pick a date and time for a post, as a wall-clock time in the display time zone.

A time that has passed cannot be used for a post that is to be published: the dialog says so
under the editor and keeps its button disabled until the time is in the future, rather than
sending a request the server refuses or silently doing nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time, tzinfo

from PySide6.QtCore import QDate, QDateTime, QTime, Signal
from PySide6.QtWidgets import (
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from app.calendar.grid import local_instant
from app.posts.lifecycle import is_in_future
from ui.locale_text import day_and_month, time_text
from ui.widgets.calendar_names import name_date_popup


class RescheduleDialog(QDialog):
    """Non-blocking: open it with `open()`; `chosen` carries the aware datetime on OK."""

    chosen = Signal(str, object)  # post id, aware datetime (UTC)

    def __init__(
        self,
        post_id: str,
        current: datetime,
        tz: tzinfo,
        parent: QWidget | None = None,
        *,
        now: Callable[[], datetime] | None = None,
        future_only: bool = True,
        title: str = "Reschedule post",
        button: str = "Reschedule",
        intro: str = "New date and time:",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.post_id = post_id
        self._tz = tz
        self._now = now or (lambda: datetime.now(tz))
        self._future_only = future_only
        local = current.astimezone(tz)
        self.editor = QDateTimeEdit()
        self.editor.setCalendarPopup(True)
        self.editor.setAccessibleName("New date and time")
        name_date_popup(self.editor, "Choose the new date")
        self.editor.setDisplayFormat("ddd d MMM yyyy  HH:mm")
        self.editor.setDateTime(
            QDateTime(QDate(local.year, local.month, local.day), QTime(local.hour, local.minute))
        )
        zone = QLabel(f"Time zone: {local.tzname() or tz}")
        zone.setObjectName("muted")
        self.problem = QLabel()
        self.problem.setObjectName("problemText")
        self.problem.setProperty("tone", "error")
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(button)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        intro_label = QLabel(intro)
        intro_label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(intro_label)
        layout.addWidget(self.editor)
        layout.addWidget(zone)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.editor.dateTimeChanged.connect(self._check)
        self._check()

    def set_wall_time(self, day: date, wall: time) -> None:
        self.editor.setDateTime(
            QDateTime(QDate(day.year, day.month, day.day), QTime(wall.hour, wall.minute))
        )

    def chosen_instant(self) -> datetime:
        value = self.editor.dateTime()
        qdate, qtime = value.date(), value.time()
        day = date(qdate.year(), qdate.month(), qdate.day())
        return local_instant(day, time(qtime.hour(), qtime.minute()), self._tz)

    def problem_text(self) -> str:
        return self.problem.text() if not self.problem.isHidden() else ""

    def _why_not(self) -> str:
        if not self._future_only:
            return ""
        now = self._now()
        if is_in_future(self.chosen_instant(), now):
            return ""
        local = now.astimezone(self._tz)
        return (
            f"That time has passed (it is now {time_text(local)} on "
            f"{day_and_month(local.date())}). "
            "A post can only be scheduled for a later time."
        )

    def _check(self) -> bool:
        why = self._why_not()
        self.problem.setText(why)
        self.problem.setVisible(bool(why))
        self.ok_button.setEnabled(not why)
        return not why

    def accept(self) -> None:
        if not self._check():  # the clock may have passed the time while the dialog was open
            return
        super().accept()
        self.chosen.emit(self.post_id, self.chosen_instant())
