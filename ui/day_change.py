"""Notices when the calendar day changes while Postdesk runs (issue 19 §5: "Today" stayed on
the old day after midnight).

A single timer to midnight is not enough: a laptop asleep at midnight, a clock set by hand or a
DST change would leave it wrong. It checks at the next midnight and at least once a minute, and
says each change once (`dayChanged(old, new)`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta

from PySide6.QtCore import QObject, QTimer, Signal

CHECK_AT_LEAST_EVERY_MS = 60_000


class DayChangeTimer(QObject):
    dayChanged = Signal(object, object)  # the old day, the new day (datetime.date)

    def __init__(
        self,
        today: Callable[[], date],
        now: Callable[[], datetime] | None = None,
        parent: QObject | None = None,
        *,
        longest_ms: int = CHECK_AT_LEAST_EVERY_MS,
    ) -> None:
        """`today`: the day as the page shows it (its zone); `now`: an aware clock in that
        zone, used only to aim at the next midnight (without it: every `longest_ms`)."""
        super().__init__(parent)
        self._today = today
        self._now = now
        self._longest_ms = longest_ms
        self.day = today()
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.check)
        self._aim()

    def check(self) -> None:
        """Compare with the day last seen; say it when it changed. Then aim again."""
        day = self._today()
        if day != self.day:
            old, self.day = self.day, day
            self.dayChanged.emit(old, day)
        self._aim()

    def stop(self) -> None:
        self.timer.stop()

    def _aim(self) -> None:
        wait = self._longest_ms
        if self._now is not None:
            now = self._now()
            midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time())
            if now.tzinfo is not None:
                midnight = midnight.replace(tzinfo=now.tzinfo)
            to_midnight = (midnight - now).total_seconds() * 1000 + 200  # just past it
            wait = max(200, min(wait, int(to_midnight)))
        self.timer.start(wait)
