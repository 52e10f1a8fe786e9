"""Pick a new date and time for a post, as a wall-clock time in the display time zone."""

from __future__ import annotations

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


class RescheduleDialog(QDialog):
    """Non-blocking: open it with `open()`; `chosen` carries the aware datetime on OK."""

    chosen = Signal(str, object)  # post id, aware datetime (UTC)

    def __init__(
        self, post_id: str, current: datetime, tz: tzinfo, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Reschedule post")
        self.post_id = post_id
        self._tz = tz
        local = current.astimezone(tz)
        self.editor = QDateTimeEdit()
        self.editor.setCalendarPopup(True)
        self.editor.setDisplayFormat("ddd d MMM yyyy  HH:mm")
        self.editor.setDateTime(
            QDateTime(QDate(local.year, local.month, local.day), QTime(local.hour, local.minute))
        )
        zone = QLabel(f"Time zone: {local.tzname() or tz}")
        zone.setObjectName("muted")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Reschedule")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("New date and time:"))
        layout.addWidget(self.editor)
        layout.addWidget(zone)
        layout.addWidget(buttons)
        self.accepted.connect(self._emit_choice)

    def set_wall_time(self, day: date, wall: time) -> None:
        self.editor.setDateTime(
            QDateTime(QDate(day.year, day.month, day.day), QTime(wall.hour, wall.minute))
        )

    def chosen_instant(self) -> datetime:
        value = self.editor.dateTime()
        qdate, qtime = value.date(), value.time()
        day = date(qdate.year(), qdate.month(), qdate.day())
        return local_instant(day, time(qtime.hour(), qtime.minute()), self._tz)

    def _emit_choice(self) -> None:
        self.chosen.emit(self.post_id, self.chosen_instant())
