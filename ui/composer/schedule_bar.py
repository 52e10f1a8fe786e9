"""When the post goes out, and the one button that sends it.

Times are entered in your local zone and shown in each account's zone where it differs
(converted with the zone's own rules, so a date across a DST change shows the right hour).
The button names the action and, when something blocks it, says what.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

from PySide6.QtCore import QDate, QDateTime, QSize, Qt, QTime, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDateTimeEdit,
    QGridLayout,
    QLabel,
    QLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.compose.document import ScheduleMode
from app.models.accounts import SocialAccountSummary
from ui.calendar.timezone import zone_from_name, zone_name
from ui.composer.field_errors import ErrorLabel
from ui.icons import network_name
from ui.widgets.calendar_names import name_date_popup

MODES: tuple[tuple[ScheduleMode, str], ...] = (
    (ScheduleMode.DRAFT, "Save as draft"),
    (ScheduleMode.AT, "Schedule at…"),
    (ScheduleMode.QUEUE_NEXT, "Add to queue (next free slot)"),
    (ScheduleMode.QUEUE_TOP, "Add to queue (top)"),
    (ScheduleMode.PUBLISH_NOW, "Publish now"),
)
BUTTON_TEXT = {
    ScheduleMode.DRAFT: "Save draft",
    ScheduleMode.AT: "Schedule",
    ScheduleMode.QUEUE_NEXT: "Add to queue",
    ScheduleMode.QUEUE_TOP: "Add to queue",
    ScheduleMode.PUBLISH_NOW: "Publish now…",
}


def to_local_naive(moment: datetime, tz: tzinfo) -> datetime:
    return moment.astimezone(tz).replace(tzinfo=None)


def qt_datetime(naive: datetime) -> QDateTime:
    return QDateTime(naive.year, naive.month, naive.day, naive.hour, naive.minute, 0)


def zone_lines(
    moment: datetime, accounts: list[SocialAccountSummary], local_tz: tzinfo
) -> list[str]:
    """ "9:00 in America/New_York (X, LinkedIn)" for each account zone that shows another time."""
    by_zone: dict[str, list[str]] = {}
    local_text = moment.astimezone(local_tz).strftime("%a %d %b %H:%M")
    for account in accounts:
        zone = zone_from_name(account.timezone)
        if zone is None or zone_name(zone) == zone_name(local_tz):
            continue
        shown = moment.astimezone(zone).strftime("%a %d %b %H:%M")
        if shown == local_text:
            continue
        by_zone.setdefault(f"{shown} in {account.timezone}", []).append(
            network_name(account.platform)
        )
    return [f"{when} ({', '.join(sorted(set(names)))})" for when, names in by_zone.items()]


NO_DATE = QDateTime(QDate(2000, 1, 1), QTime(0, 0))
"""The field's lowest value, shown as "No date": an undated draft shows no date (issue 15 §1)."""
NO_DATE_TEXT = "No date"


class DateField(QDateTimeEdit):
    """A date and time field that is one Tab stop: Tab leaves it instead of walking through its
    day, month, year, hour and minute sections (the arrow keys and typing still reach them)."""

    def focusNextPrevChild(self, next: bool) -> bool:
        return QWidget.focusNextPrevChild(self, next)


class ScheduleBar(QWidget):
    scheduleChanged = Signal(object, object)  # ScheduleMode, aware datetime | None
    sendClicked = Signal()

    def __init__(self, local_tz: tzinfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.local_tz = local_tz
        self.mode = QComboBox()
        for mode, text in MODES:
            self.mode.addItem(text, mode.value)
        self.mode.setAccessibleName("When to post")
        self.when = DateField()
        self.when.setAccessibleName("Date and time")
        self.when.setMinimumDateTime(NO_DATE)
        self.when.setSpecialValueText(NO_DATE_TEXT)
        self.when.setCalendarPopup(True)
        name_date_popup(self.when, "Choose the date to post")
        self.when.setDisplayFormat("ddd d MMM yyyy  HH:mm")
        self.when.setToolTip(f"In your time zone ({zone_name(local_tz)})")
        self.zones = QLabel()
        self.zones.setObjectName("zoneHints")
        self.zones.setWordWrap(True)
        self.error = ErrorLabel()
        self.blocker = QLabel()
        self.blocker.setObjectName("sendBlocker")
        self.blocker.setWordWrap(True)
        self.blocker.setProperty("tone", "warning")  # coloured by the theme (style.qss)
        # Its line is kept when empty: the send button must not jump as the form becomes valid.
        self.blocker.setMinimumHeight(self.blocker.fontMetrics().lineSpacing())
        self.send = QPushButton(BUTTON_TEXT[ScheduleMode.DRAFT])
        self.send.setObjectName("sendButton")
        self.send.setAccessibleName("Send")
        self.zones.setAccessibleName("The time in the accounts' time zones")
        self.blocker.setAccessibleName("Why sending is blocked")
        self.send.setDefault(True)
        self.send.setMinimumWidth(140)
        # Whole texts at any width: the mode and date never shrink below their text, and the
        # button moves under them when the column is narrow (at 1024×640 with the preview
        # shown it read "Save as draf" and the date "Wed 25 Nov 2").
        for field in (self.mode, self.when):
            field.setMinimumWidth(field.sizeHint().width())
        self.row = QGridLayout()
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.addWidget(self.mode, 0, 0)
        self.row.addWidget(self.when, 0, 1)
        self.row.setColumnStretch(2, 1)
        self._shape = "one row"
        self.row.addWidget(self.send, 0, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        # The minimum is `minimumSizeHint` (two rows), not the one-row layout's.
        layout.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        layout.addLayout(self.row)
        layout.addWidget(self.zones)
        layout.addWidget(self.error)
        layout.addWidget(self.blocker)
        self._busy = False
        self._blocked = ""
        self._editing = False
        self.mode.currentIndexChanged.connect(self._changed)
        self.when.dateTimeChanged.connect(self._changed)
        self.send.clicked.connect(self.sendClicked.emit)
        self._sync()

    def _widths(self) -> tuple[int, int, int, int]:
        send = max(self.send.minimumWidth(), self.send.sizeHint().width())
        spacing = max(0, self.row.horizontalSpacing())
        return self.mode.minimumWidth(), self.when.minimumWidth(), send, spacing

    def one_row_width(self) -> int:
        mode, when, send, spacing = self._widths()
        return mode + when + send + 2 * spacing

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        mode, when, _send, spacing = self._widths()
        width = event.size().width()
        if width >= self.one_row_width():
            shape = "one row"
        elif width >= mode + when + spacing:
            shape = "button below"
        else:
            shape = "stacked"
        if shape == self._shape:
            return
        self._shape = shape
        for widget in (self.mode, self.when, self.send):
            self.row.removeWidget(widget)
        right = Qt.AlignmentFlag.AlignRight
        if shape == "one row":
            self.row.addWidget(self.mode, 0, 0)
            self.row.addWidget(self.when, 0, 1)
            self.row.addWidget(self.send, 0, 3)
        elif shape == "button below":
            self.row.addWidget(self.mode, 0, 0)
            self.row.addWidget(self.when, 0, 1)
            self.row.addWidget(self.send, 1, 0, 1, 4, right)
        else:
            self.row.addWidget(self.mode, 0, 0, 1, 4, Qt.AlignmentFlag.AlignLeft)
            self.row.addWidget(self.when, 1, 0)
            self.row.addWidget(self.send, 1, 3)

    def minimumSizeHint(self) -> QSize:
        # The stacked form: the mode alone, then the date and the button side by side.
        mode, when, send, spacing = self._widths()
        return QSize(max(mode, when + send + spacing), super().minimumSizeHint().height())

    # -- values --------------------------------------------------------------------------------
    def current_mode(self) -> ScheduleMode:
        try:
            return ScheduleMode(self.mode.currentData())
        except ValueError:
            return ScheduleMode.DRAFT

    def moment(self) -> datetime | None:
        mode = self.current_mode()
        if mode not in (ScheduleMode.AT, ScheduleMode.DRAFT) or not self.when.isEnabled():
            return None
        if mode is ScheduleMode.DRAFT and not self._dated_draft:
            return None
        if self.when.dateTime() == NO_DATE:
            return None
        naive = self.when.dateTime().toPython()
        assert isinstance(naive, datetime)
        return naive.replace(second=0, microsecond=0, tzinfo=self.local_tz)

    _dated_draft = False
    _previous_mode = ScheduleMode.DRAFT

    def _show_undated(self) -> None:
        self.when.blockSignals(True)
        self.when.setDateTime(NO_DATE)
        self.when.blockSignals(False)

    def _show_next_hour(self) -> None:
        start = (datetime.now(self.local_tz) + timedelta(hours=1)).replace(
            minute=0, second=0, microsecond=0
        )
        self.when.blockSignals(True)
        self.when.setDateTime(qt_datetime(start.replace(tzinfo=None)))
        self.when.blockSignals(False)

    def show_schedule(self, mode: ScheduleMode, at: datetime | None, *, editing: bool) -> None:
        """Show a document's schedule without reporting a change."""
        self._editing = editing
        self.blockSignals(True)
        self.mode.blockSignals(True)
        self.when.blockSignals(True)
        self.mode.setCurrentIndex(max(0, self.mode.findData(mode.value)))
        self._dated_draft = mode is ScheduleMode.DRAFT and at is not None
        if at is not None:
            self.when.setDateTime(qt_datetime(to_local_naive(at, self.local_tz)))
        elif mode is ScheduleMode.DRAFT:
            self._show_undated()
        else:
            self._show_next_hour()
        self._previous_mode = mode
        self.when.blockSignals(False)
        self.mode.blockSignals(False)
        self.blockSignals(False)
        self._sync()

    def set_moment(self, moment: datetime) -> None:
        self.when.setDateTime(qt_datetime(to_local_naive(moment, self.local_tz)))

    def set_mode(self, mode: ScheduleMode) -> None:
        self.mode.setCurrentIndex(max(0, self.mode.findData(mode.value)))

    def _changed(self) -> None:
        mode = self.current_mode()
        if self.sender() is self.when:
            if mode is ScheduleMode.DRAFT:
                self._dated_draft = self.when.dateTime() != NO_DATE
        elif mode is not self._previous_mode:
            if mode is ScheduleMode.DRAFT:
                # The draft keeps the date the field shows (chosen under "Schedule at…");
                # coming from a mode without a date, the field visibly says "No date".
                self._dated_draft = self._previous_mode is ScheduleMode.AT and (
                    self.when.dateTime() != NO_DATE
                )
                if not self._dated_draft:
                    self._show_undated()
            elif mode is ScheduleMode.AT and self.when.dateTime() == NO_DATE:
                self._show_next_hour()
        self._previous_mode = mode
        self._sync()
        self.scheduleChanged.emit(self.current_mode(), self.moment())

    def show_zones(self, accounts: list[SocialAccountSummary]) -> None:
        moment = self.moment()
        lines = zone_lines(moment, accounts, self.local_tz) if moment is not None else []
        self.zones.setText("\n".join(f"= {line}" for line in lines))
        self.zones.setVisible(bool(lines))

    # -- the button ----------------------------------------------------------------------------
    def set_blocked(self, reason: str) -> None:
        self._blocked = reason
        self._sync()

    def set_busy(self, busy: bool, text: str = "Sending…") -> None:
        self._busy = busy
        self._busy_text = text
        self._sync()

    def _sync(self) -> None:
        mode = self.current_mode()
        self.when.setEnabled(mode in (ScheduleMode.AT, ScheduleMode.DRAFT))
        if self._busy:
            self.send.setText(getattr(self, "_busy_text", "Sending…"))
        elif self._editing:
            self.send.setText(
                "Save changes" if mode is not ScheduleMode.PUBLISH_NOW else "Publish now…"
            )
        else:
            self.send.setText(BUTTON_TEXT[mode])
        self.send.setEnabled(not self._busy and not self._blocked)
        self.blocker.setText(self._blocked if not self._busy else "")
        self.send.setToolTip(self._blocked)
