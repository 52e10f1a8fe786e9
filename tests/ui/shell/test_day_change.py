"""Past midnight the calendar's "Today" is the new day (issue 19 §5)."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from pytestqt.qtbot import QtBot

from tests.ui.calendar.factories import accounts, labels
from ui.calendar import CalendarPage, InMemoryCalendarSource
from ui.day_change import DayChangeTimer

BERLIN = ZoneInfo("Europe/Berlin")


class Clock:
    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def now(self) -> datetime:
        return self.moment

    def today(self) -> date:
        return self.moment.astimezone(BERLIN).date()


def page_at(qtbot: QtBot, clock: Clock) -> CalendarPage:
    source = InMemoryCalendarSource((), accounts=accounts(), labels=labels())
    page = CalendarPage(source, display_tz=BERLIN, now=clock.now)
    qtbot.addWidget(page)
    page.resize(1200, 800)
    page.show()
    qtbot.waitExposed(page)
    return page


def test_the_timer_says_each_day_change_once(qtbot: QtBot) -> None:
    clock = Clock(datetime(2025, 10, 31, 23, 59, tzinfo=BERLIN))
    timer = DayChangeTimer(clock.today, clock.now, longest_ms=20)
    seen: list[tuple[date, date]] = []
    timer.dayChanged.connect(lambda old, new: seen.append((old, new)))
    clock.moment = datetime(2025, 11, 1, 0, 0, 1, tzinfo=BERLIN)
    qtbot.waitUntil(lambda: bool(seen))
    timer.check()
    assert seen == [(date(2025, 10, 31), date(2025, 11, 1))]
    timer.stop()


def test_the_timer_aims_at_midnight_not_a_minute_later() -> None:
    clock = Clock(datetime(2025, 10, 31, 23, 59, 59, tzinfo=BERLIN))
    timer = DayChangeTimer(clock.today, clock.now)
    assert timer.timer.interval() <= 1_500
    timer.stop()


def test_a_page_on_today_follows_the_day(qtbot: QtBot) -> None:
    clock = Clock(datetime.combine(date(2025, 10, 31), time(23, 58), BERLIN))
    page = page_at(qtbot, clock)
    assert page.state.anchor == date(2025, 10, 31)
    clock.moment = datetime.combine(date(2025, 11, 1), time(0, 1), BERLIN)
    page.day_change.check()
    qtbot.waitUntil(lambda: page.month_view._today == date(2025, 11, 1))
    assert page.state.anchor == date(2025, 11, 1)
    assert (page.month_view._year, page.month_view._month) == (2025, 11)


def test_a_page_elsewhere_stays_but_marks_the_new_today(qtbot: QtBot) -> None:
    clock = Clock(datetime.combine(date(2025, 10, 21), time(23, 58), BERLIN))
    page = page_at(qtbot, clock)
    page.go_to(date(2025, 10, 5))
    clock.moment = datetime.combine(date(2025, 10, 22), time(0, 1), BERLIN)
    page.day_change.check()
    qtbot.waitUntil(lambda: page.month_view._today == date(2025, 10, 22))
    assert page.state.anchor == date(2025, 10, 5)
