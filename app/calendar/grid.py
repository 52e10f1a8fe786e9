"""Date math of the calendar views, with no Qt: grids, ranges, day boundaries, grouping.

Every boundary is computed in the display time zone and returned as an aware datetime in UTC.
A local day is midnight to the next midnight, which lasts 23 or 25 hours on DST changes; UTC
results keep that arithmetic honest, because Python compares and subtracts two datetimes that
share a tzinfo by wall time, ignoring their offsets.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from enum import StrEnum
from typing import NamedTuple, TypeVar

T = TypeVar("T")

GRID_WEEKS = 6
DAYS_PER_WEEK = 7
AGENDA_DAYS = 28
MINUTES_PER_DAY = 24 * 60


class ViewKind(StrEnum):
    MONTH = "month"
    WEEK = "week"
    AGENDA = "agenda"


# -- local days --------------------------------------------------------------------------------
def local_instant(day: date, wall: time, tz: tzinfo) -> datetime:
    """The instant a wall clock in `tz` shows `wall` on `day`, as an aware UTC datetime.

    A wall time skipped by a spring-forward change resolves to the same distance after the
    change (02:30 on a day that jumps from 02:00 to 03:00 becomes 03:30); a repeated one during
    a fall-back change resolves to its first occurrence.
    """
    naive = datetime.combine(day, wall.replace(tzinfo=None, fold=0))
    return naive.replace(tzinfo=tz).astimezone(UTC)


def day_start(day: date, tz: tzinfo) -> datetime:
    """The first instant of `day` in `tz` (UTC)."""
    start = local_instant(day, time(0), tz)
    # Zones that skip midnight itself (a change at 00:00) start the day at the change.
    previous_day_end = local_instant(day - timedelta(days=1), time(23, 59, 59, 999999), tz)
    return max(start, previous_day_end + timedelta(microseconds=1))


def day_bounds(day: date, tz: tzinfo) -> tuple[datetime, datetime]:
    """`[start, end)` of `day` in `tz` as UTC datetimes; 23 or 25 hours long on DST days."""
    return day_start(day, tz), day_start(day + timedelta(days=1), tz)


def days_bounds(first: date, last: date, tz: tzinfo) -> tuple[datetime, datetime]:
    """`[start of first, end of last)` in `tz` as UTC datetimes."""
    return day_start(first, tz), day_start(last + timedelta(days=1), tz)


def local_day(when: datetime, tz: tzinfo) -> date:
    """The calendar day `when` falls on in `tz` (naive datetimes are taken as UTC)."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(tz).date()


def local_minutes(when: datetime, tz: tzinfo) -> int:
    """Minutes since local midnight as a wall clock in `tz` shows them (for time grids)."""
    local = when.astimezone(tz)
    return local.hour * 60 + local.minute


def group_by_local_day(
    items: Iterable[T], when: Callable[[T], datetime | None], tz: tzinfo
) -> dict[date, list[T]]:
    """Items keyed by the local day of `when(item)`, each day sorted by time; undated skipped."""
    groups: dict[date, list[tuple[datetime, T]]] = defaultdict(list)
    for item in items:
        moment = when(item)
        if moment is None:
            continue
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        groups[local_day(moment, tz)].append((moment.astimezone(UTC), item))
    return {
        day: [item for _moment, item in sorted(pairs, key=lambda pair: pair[0])]
        for day, pairs in sorted(groups.items())
    }


# -- grids and periods -------------------------------------------------------------------------
_first_weekday = 0
"""The weekday weeks start on (0 Monday ... 6 Sunday): the user's locale's, set by the UI."""


def set_first_weekday(weekday: int) -> None:
    global _first_weekday
    if not 0 <= weekday <= 6:
        raise ValueError(f"a weekday is 0 (Monday) to 6 (Sunday), not {weekday}")
    _first_weekday = weekday


def first_weekday() -> int:
    return _first_weekday


def week_start(day: date) -> date:
    """The first day of the week (`first_weekday`, Monday unless the locale says otherwise)
    on or before `day`."""
    return day - timedelta(days=(day.weekday() - _first_weekday) % DAYS_PER_WEEK)


def week_dates(day: date) -> list[date]:
    first = week_start(day)
    return [first + timedelta(days=offset) for offset in range(DAYS_PER_WEEK)]


def month_grid_dates(year: int, month: int) -> list[date]:
    """The 42 days (6 weeks) a month grid shows, starting the week of the 1st."""
    first = week_start(date(year, month, 1))
    return [first + timedelta(days=offset) for offset in range(GRID_WEEKS * DAYS_PER_WEEK)]


def agenda_dates(start: date, days: int = AGENDA_DAYS) -> list[date]:
    return [start + timedelta(days=offset) for offset in range(days)]


def visible_dates(view: ViewKind | str, anchor: date) -> list[date]:
    """The days a view shows around `anchor`."""
    kind = ViewKind(view)
    if kind is ViewKind.MONTH:
        return month_grid_dates(anchor.year, anchor.month)
    if kind is ViewKind.WEEK:
        return week_dates(anchor)
    return agenda_dates(anchor)


def visible_range(view: ViewKind | str, anchor: date, tz: tzinfo) -> tuple[datetime, datetime]:
    """`[start, end)` of what a view shows around `anchor`, as UTC datetimes."""
    dates = visible_dates(view, anchor)
    return days_bounds(dates[0], dates[-1], tz)


def add_months(day: date, months: int) -> date:
    """Same day of month `months` later, clamped to the month's last day (Jan 31 -> Feb 28)."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(day.day, days_in_month(year, month)))


def days_in_month(year: int, month: int) -> int:
    # Not `calendar.monthrange`: the `calendar` module loads `locale` too, ~1 ms before the
    # first paint for one number.
    following = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    return (following - date(year, month, 1)).days


def shift_anchor(view: ViewKind | str, anchor: date, steps: int) -> date:
    """The anchor one period (`steps` periods) before or after; month steps land on the 1st."""
    kind = ViewKind(view)
    if kind is ViewKind.MONTH:
        return add_months(anchor.replace(day=1), steps)
    if kind is ViewKind.WEEK:
        return anchor + timedelta(days=DAYS_PER_WEEK * steps)
    return anchor + timedelta(days=AGENDA_DAYS * steps)


def day_length(day: date, tz: tzinfo) -> timedelta:
    start, end = day_bounds(day, tz)
    return end - start


# -- moving posts ------------------------------------------------------------------------------
def move_to_day(when: datetime, target: date, tz: tzinfo) -> datetime:
    """`when` moved to `target`, keeping its wall-clock time of day in `tz` (UTC result)."""
    local = when.astimezone(tz)
    return local_instant(target, local.timetz().replace(tzinfo=None), tz)


def snap_minutes(minutes: float, step: int = 15) -> int:
    """Minutes since midnight rounded to the nearest `step`, kept inside the day."""
    snapped = math.floor(minutes / step + 0.5) * step  # half-up: 7.5 min snaps forward
    return max(0, min(snapped, MINUTES_PER_DAY - step))


def slot_instant(day: date, minutes: int, tz: tzinfo) -> datetime:
    """The instant of a time-grid slot: `minutes` of wall-clock time after midnight on `day`."""
    minutes = max(0, min(minutes, MINUTES_PER_DAY - 1))
    return local_instant(day, time(minutes // 60, minutes % 60), tz)


# -- grid geometry (pixels, no Qt) -------------------------------------------------------------
def split_evenly(start: int, length: int, count: int, index: int) -> tuple[int, int]:
    """`[left, right)` of part `index` when `length` pixels from `start` are cut in `count`."""
    count = max(count, 1)
    return start + round(index * length / count), start + round((index + 1) * length / count)


class MonthGeometry(NamedTuple):
    """Where each day cell of a month grid is. Frozen: a drag keeps the grid it began on."""

    days: tuple[date, ...]
    width: int
    height: int
    header: int

    def cell(self, index: int) -> tuple[int, int, int, int]:
        """`(left, top, right, bottom)` of cell `index` (right and bottom exclusive)."""
        row, column = divmod(index, DAYS_PER_WEEK)
        left, right = split_evenly(0, self.width, DAYS_PER_WEEK, column)
        rows = max(len(self.days) // DAYS_PER_WEEK, 1)
        grid_height = max(self.height - self.header, rows)
        top, bottom = split_evenly(self.header, grid_height, rows, row)
        return left, top, right, bottom

    def day_at(self, x: float, y: float) -> date | None:
        if not (0 <= x < self.width and self.header <= y < self.height):
            return None
        for index, day in enumerate(self.days):
            left, top, right, bottom = self.cell(index)
            if left <= x < right and top <= y < bottom:
                return day
        return None


class WeekGeometry(NamedTuple):
    """Columns and hour scale of a week grid, in content coordinates (y = 0 at midnight)."""

    days: tuple[date, ...]
    width: int
    gutter: int
    hour_height: int

    def column(self, index: int) -> tuple[int, int]:
        return split_evenly(self.gutter, self.width - self.gutter, len(self.days), index)

    def minutes_at(self, content_y: float) -> float:
        return content_y * 60 / self.hour_height

    def y_of(self, minutes: float) -> float:
        return minutes * self.hour_height / 60

    def slot_at(self, x: float, content_y: float, step: int = 15) -> tuple[date, int] | None:
        """The day column under `x` and the wall-clock minutes at `content_y`, snapped."""
        if x < self.gutter:
            return None
        for index, day in enumerate(self.days):
            left, right = self.column(index)
            if left <= x < right:
                return day, snap_minutes(self.minutes_at(content_y), step)
        return None
