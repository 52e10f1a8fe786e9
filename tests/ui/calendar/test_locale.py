"""Dates, times and the week's first day follow the user's locale (QLocale), not fixed English
formats with a 24-hour clock and Monday."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, time

import pytest
from PySide6.QtCore import QLocale

from app.calendar import grid
from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import make_post
from ui.calendar.detail_panel import format_when
from ui.calendar.toolbar import period_titles


@pytest.fixture
def locale_of() -> Iterator[object]:
    previous = QLocale()

    def use(name: str) -> None:
        QLocale.setDefault(QLocale(name))

    yield use
    QLocale.setDefault(previous)
    grid.set_first_weekday(0)


def test_a_us_locale_starts_weeks_on_sunday_with_a_12_hour_clock(
    make_page: PageFactory, locale_of: object
) -> None:
    assert callable(locale_of)
    locale_of("en_US")
    post = make_post(when=local_instant(date(2025, 10, 22), time(14, 30), BERLIN))
    page = make_page([post])
    assert page.visible_dates()[0] == date(2025, 9, 28)  # a Sunday
    assert page.visible_dates()[0].weekday() == 6
    page.set_view("week")
    assert page.visible_dates()[0] == date(2025, 10, 19)
    entry = page.entry(post.id)
    assert entry is not None
    assert entry.time_text == "2:30p"
    assert entry.local is not None
    assert format_when(entry.local).startswith("Wednesday, October 22, 2025 · 2:30\u202fPM")


def test_a_german_locale_names_days_and_months_in_german(
    make_page: PageFactory, locale_of: object
) -> None:
    assert callable(locale_of)
    locale_of("de_DE")
    page = make_page([])
    assert page.visible_dates()[0].weekday() == 0  # Monday
    assert page.toolbar.title.forms()[0] == "Oktober 2025"
    days = grid.week_dates(date(2025, 10, 22))
    assert period_titles(grid.ViewKind.WEEK, days, days[0])[0] == "20 – 26 Oktober 2025"


def test_a_chip_time_drops_the_hour_s_leading_zero() -> None:
    """ "9:30" (or "9:30a"), not "09:30": two characters more of the post on a busy day."""
    from datetime import datetime

    from ui.locale_text import compact_time

    assert compact_time(datetime(2025, 10, 22, 9, 30)) in ("9:30", "9:30a")
    assert compact_time(datetime(2025, 10, 22, 21, 5)) in ("21:05", "9:05p")
