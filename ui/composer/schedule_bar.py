"""When the post goes out, and the one button that sends it.

Times are entered in your local zone and shown in each account's zone where it differs
(converted with the zone's own rules, so a date across a DST change shows the right hour).
The button names the action and, when something blocks it, says what.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

from PySide6.QtCore import QDateTime, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDateTimeEdit,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.compose.document import ScheduleMode
from app.models.accounts import SocialAccountSummary
from ui.calendar.timezone import zone_from_name, zone_name
from ui.composer.field_errors import ErrorLabel
from ui.icons import network_name

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


class ScheduleBar(QWidget):
    scheduleChanged = Signal(object, object)  # ScheduleMode, aware datetime | None
    sendClicked = Signal()

    def __init__(self, local_tz: tzinfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.local_tz = local_tz
        self.mode = QComboBox()
        for mode, text in MODES:
            self.mode.addItem(text, mode.value)
        self.when = QDateTimeEdit()
        self.when.setCalendarPopup(True)
        self.when.setDisplayFormat("ddd d MMM yyyy  HH:mm")
        self.when.setToolTip(f"In your time zone ({zone_name(local_tz)})")
        self.zones = QLabel()
        self.zones.setObjectName("zoneHints")
        self.zones.setWordWrap(True)
        self.error = ErrorLabel()
        self.blocker = QLabel()
        self.blocker.setObjectName("sendBlocker")
        self.blocker.setWordWrap(True)
        self.blocker.setStyleSheet("color: #9a3412;")
        # Its line is kept when empty: the send button must not jump as the form becomes valid.
        self.blocker.setMinimumHeight(self.blocker.fontMetrics().lineSpacing())
        self.send = QPushButton(BUTTON_TEXT[ScheduleMode.DRAFT])
        self.send.setObjectName("sendButton")
        self.send.setDefault(True)
        self.send.setMinimumWidth(140)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.mode)
        row.addWidget(self.when)
        row.addStretch(1)
        row.addWidget(self.send)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(row)
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
        naive = self.when.dateTime().toPython()
        assert isinstance(naive, datetime)
        return naive.replace(second=0, microsecond=0, tzinfo=self.local_tz)

    _dated_draft = False

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
        else:
            start = (datetime.now(self.local_tz) + timedelta(hours=1)).replace(
                minute=0, second=0, microsecond=0
            )
            self.when.setDateTime(qt_datetime(start.replace(tzinfo=None)))
        self.when.blockSignals(False)
        self.mode.blockSignals(False)
        self.blockSignals(False)
        self._sync()

    def set_moment(self, moment: datetime) -> None:
        self.when.setDateTime(qt_datetime(to_local_naive(moment, self.local_tz)))

    def set_mode(self, mode: ScheduleMode) -> None:
        self.mode.setCurrentIndex(max(0, self.mode.findData(mode.value)))

    def _changed(self) -> None:
        if self.sender() is self.when and self.current_mode() is ScheduleMode.DRAFT:
            self._dated_draft = True
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
