"""Past midnight while the app runs (issue 19 §5): the page's own timer (no call from the test)
moves the today marker to the new day, and T then goes to it. The clock is injected: it starts
0.4 s before midnight and runs at real speed."""

from __future__ import annotations

import time as clock_time
from datetime import date, datetime, time, timedelta

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.ui.calendar.conftest import BERLIN, focus
from tests.ui.calendar.test_keyboard import keyed
from ui.calendar import CalendarPage
from ui.calendar.source import InMemoryCalendarSource


def test_the_today_marker_and_t_follow_midnight_by_the_page_s_timer(qtbot: QtBot) -> None:
    start = datetime.combine(date(2025, 10, 21), time(23, 59, 59, 600_000), BERLIN)
    began = clock_time.monotonic()

    def now() -> datetime:
        return start + timedelta(seconds=clock_time.monotonic() - began)

    page = CalendarPage(InMemoryCalendarSource(()), display_tz=BERLIN, now=now)
    qtbot.addWidget(page)
    page.resize(1200, 800)
    page.show()
    qtbot.waitExposed(page)
    page.registry = keyed(page)  # type: ignore[attr-defined]
    page.go_to(date(2025, 9, 10))  # looking elsewhere: the period stays
    assert page.month_view._today == date(2025, 10, 21)
    assert page.day_change.timer.remainingTime() < 2_000  # aimed at midnight, not a minute on

    qtbot.waitUntil(lambda: page.month_view._today == date(2025, 10, 22), timeout=5_000)
    assert page.state.anchor == date(2025, 9, 10)
    focus(qtbot, page.month_view)
    qtbot.keyClick(page.month_view, Qt.Key.Key_T)
    assert page.state.anchor == date(2025, 10, 22)
    assert page.day_change.timer.isActive()  # armed again for the next midnight
