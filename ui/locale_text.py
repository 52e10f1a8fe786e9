"""Dates and times as the user's locale writes them (QLocale: names, order, 12/24-hour clock,
first day of the week), for the calendar and the shell. `QLocale()` is the system's unless a
test sets another default."""

from __future__ import annotations

from datetime import date, datetime

from PySide6.QtCore import QDate, QLocale, QTime

from app.calendar import grid

Format = QLocale.FormatType


def _date(day: date) -> QDate:
    return QDate(day.year, day.month, day.day)


def time_text(when: datetime) -> str:
    """ "09:30" or "9:30 AM"."""
    return QLocale().toString(QTime(when.hour, when.minute), Format.ShortFormat)


def compact_time(when: datetime) -> str:
    """A chip's time: the locale's short time, its AM/PM cut to one letter ("9:30a")."""
    locale = QLocale()
    text = locale.toString(QTime(when.hour, when.minute), Format.ShortFormat)
    if len(text) > 1 and text[0] == "0" and text[1].isdigit():
        text = text[1:]  # "09:30" → "9:30": two characters more of the post on a chip
    for marker in (locale.amText(), locale.pmText()):
        if marker and text.endswith(marker):
            return text.removesuffix(marker).rstrip() + marker[0].lower()
    return text


def long_date(day: date) -> str:
    """ "Wednesday, 22 October 2025" (in the locale's words and order)."""
    return QLocale().toString(_date(day), Format.LongFormat)


def short_date(day: date) -> str:
    return QLocale().toString(_date(day), Format.ShortFormat)


def day_and_month(day: date) -> str:
    """ "22 Oct" (the locale's short month name)."""
    return QLocale().toString(_date(day), "d MMM")


def weekday_day_month(day: date) -> str:
    """ "Wed 22 Oct"."""
    return QLocale().toString(_date(day), "ddd d MMM")


def month_year(day: date, *, short: bool = False) -> str:
    return QLocale().toString(_date(day), "MMM yyyy" if short else "MMMM yyyy")


def weekday_name(day: date, *, short: bool = True) -> str:
    return QLocale().dayName(day.isoweekday(), Format.ShortFormat if short else Format.LongFormat)


def date_time(when: datetime) -> str:
    """ "Wed 22 Oct 2025 09:30" with the locale's names and clock."""
    return f"{QLocale().toString(_date(when.date()), 'ddd d MMM yyyy')} {time_text(when)}"


def follow_locale_week() -> None:
    """Weeks start on the locale's first day (Qt: Monday=1 ... Sunday=7)."""
    grid.set_first_weekday(QLocale().firstDayOfWeek().value - 1)


def text_in_format(day: date, pattern: str) -> str:
    """`day` in a QLocale date pattern ("d MMMM yyyy"), with the locale's month names."""
    return QLocale().toString(_date(day), pattern)
