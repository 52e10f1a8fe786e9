"""Calendar date math: grids, ranges and local days, across time zones and DST changes."""

from __future__ import annotations

import calendar
import itertools
import os
import tempfile
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.calendar.grid import (
    ViewKind,
    add_months,
    day_bounds,
    day_length,
    days_in_month,
    group_by_local_day,
    local_day,
    local_instant,
    local_minutes,
    month_grid_dates,
    move_to_day,
    shift_anchor,
    slot_instant,
    snap_minutes,
    visible_dates,
    visible_range,
    week_dates,
    week_start,
)

# Hypothesis caches into ./.hypothesis by default; pytest (with our norecursedirs) then warns
# about that folder, and warnings are errors. Keep its files out of the work tree.
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tempfile.gettempdir(), "postdesk-hypothesis")
)

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")
AUCKLAND = ZoneInfo("Pacific/Auckland")
ZONES = [BERLIN, NEW_YORK, AUCKLAND, UTC, ZoneInfo("America/Santiago")]


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


# -- grids and periods ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("year", "month"), [(2025, 10), (2025, 9), (2021, 2), (2024, 2), (2026, 3)]
)
def test_month_grid_is_six_weeks_from_the_monday_of_the_first(year: int, month: int) -> None:
    days = month_grid_dates(year, month)
    first = date(year, month, 1)
    assert len(days) == 42
    assert days[0].weekday() == 0
    assert days[0] <= first < days[0] + timedelta(days=7)
    assert all(b - a == timedelta(days=1) for a, b in itertools.pairwise(days))
    month_length = (add_months(first, 1) - first).days
    assert [d for d in days if d.month == month] == [
        date(year, month, n) for n in range(1, month_length + 1)
    ]


def test_a_month_starting_on_monday_starts_the_grid_on_the_first() -> None:
    assert month_grid_dates(2025, 9)[0] == date(2025, 9, 1)
    assert month_grid_dates(2025, 10)[0] == date(2025, 9, 29)


def test_weeks_run_monday_to_sunday() -> None:
    assert week_start(date(2025, 10, 26)) == date(2025, 10, 20)  # a Sunday
    assert week_start(date(2025, 10, 20)) == date(2025, 10, 20)
    assert week_dates(date(2025, 12, 31)) == [
        date(2025, 12, 29) + timedelta(days=n) for n in range(7)
    ]


def test_visible_dates_per_view() -> None:
    anchor = date(2025, 10, 21)
    assert visible_dates("month", anchor)[0] == date(2025, 9, 29)
    assert visible_dates("week", anchor) == week_dates(anchor)
    agenda = visible_dates(ViewKind.AGENDA, anchor)
    assert agenda[0] == anchor
    assert len(agenda) == 28


def test_visible_range_is_local_midnight_to_midnight_in_utc() -> None:
    start, end = visible_range("month", date(2025, 10, 21), BERLIN)
    assert start == utc(2025, 9, 28, 22)  # 29 Sep 00:00 CEST
    assert end == utc(2025, 11, 9, 23)  # 10 Nov 00:00 CET
    assert start.tzinfo is UTC


@pytest.mark.parametrize(
    ("view", "anchor", "steps", "expected"),
    [
        ("month", date(2025, 1, 31), 1, date(2025, 2, 1)),
        ("month", date(2025, 12, 15), 1, date(2026, 1, 1)),
        ("month", date(2025, 1, 15), -1, date(2024, 12, 1)),
        ("week", date(2025, 10, 21), 1, date(2025, 10, 28)),
        ("week", date(2025, 10, 21), -1, date(2025, 10, 14)),
        ("agenda", date(2025, 10, 21), 1, date(2025, 11, 18)),
    ],
)
def test_shift_anchor_moves_one_period(view: str, anchor: date, steps: int, expected: date) -> None:
    assert shift_anchor(view, anchor, steps) == expected


def test_add_months_clamps_to_the_last_day() -> None:
    assert add_months(date(2025, 1, 31), 1) == date(2025, 2, 28)
    assert add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)
    assert add_months(date(2025, 3, 31), -13) == date(2024, 2, 29)


def test_days_in_month_agrees_with_the_standard_calendar() -> None:
    for year, month in itertools.product((1900, 2000, 2023, 2024, 2100), range(1, 13)):
        assert days_in_month(year, month) == calendar.monthrange(year, month)[1], (year, month)


# -- day boundaries --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("zone", "day", "hours"),
    [
        (BERLIN, date(2025, 3, 30), 23),
        (BERLIN, date(2025, 10, 26), 25),
        (BERLIN, date(2025, 10, 27), 24),
        (NEW_YORK, date(2025, 3, 9), 23),
        (NEW_YORK, date(2025, 11, 2), 25),
        (AUCKLAND, date(2025, 4, 6), 25),
        (AUCKLAND, date(2025, 9, 28), 23),
        (UTC, date(2025, 3, 30), 24),
    ],
)
def test_day_length_follows_dst(zone: ZoneInfo, day: date, hours: int) -> None:
    start, end = day_bounds(day, zone)
    assert end - start == timedelta(hours=hours)
    assert day_length(day, zone) == timedelta(hours=hours)
    assert start.astimezone(zone).replace(tzinfo=None) == datetime.combine(day, time(0))


def test_a_zone_that_skips_midnight_starts_the_day_at_the_change() -> None:
    santiago = ZoneInfo("America/Santiago")
    start, end = day_bounds(date(2024, 9, 8), santiago)  # 00:00 -> 01:00
    assert start == utc(2024, 9, 8, 4)
    assert start.astimezone(santiago).hour == 1
    assert end - start == timedelta(hours=23)


@settings(database=None)
@given(
    zone=st.sampled_from(ZONES),
    day=st.dates(min_value=date(2000, 1, 1), max_value=date(2037, 12, 31)),
)
def test_days_tile_time_without_gaps(zone: ZoneInfo, day: date) -> None:
    start, end = day_bounds(day, zone)
    assert end == day_bounds(day + timedelta(days=1), zone)[0]
    assert local_day(start, zone) == day
    assert local_day(end - timedelta(microseconds=1), zone) == day
    assert local_day(end, zone) == day + timedelta(days=1)


# -- local days and grouping -------------------------------------------------------------------
def test_both_0230s_of_the_autumn_change_fall_on_that_day() -> None:
    first, second = utc(2025, 10, 26, 0, 30), utc(2025, 10, 26, 1, 30)
    for moment in (first, second):
        assert local_day(moment, BERLIN) == date(2025, 10, 26)
        assert local_minutes(moment, BERLIN) == 2 * 60 + 30


def test_late_evening_utc_is_the_next_day_east_of_greenwich() -> None:
    moment = utc(2025, 3, 29, 23, 30)
    assert local_day(moment, UTC) == date(2025, 3, 29)
    assert local_day(moment, BERLIN) == date(2025, 3, 30)
    assert local_day(moment, AUCKLAND) == date(2025, 3, 30)
    assert local_day(utc(2025, 3, 30, 3, 0), NEW_YORK) == date(2025, 3, 29)


def test_naive_datetimes_are_taken_as_utc() -> None:
    assert local_day(datetime(2025, 3, 29, 23, 30), BERLIN) == date(2025, 3, 30)


def test_grouping_by_local_day_sorts_and_skips_undated() -> None:
    items = [
        ("late", utc(2025, 3, 29, 23, 30)),
        ("undated", None),
        ("early", utc(2025, 3, 29, 6, 0)),
        ("first", utc(2025, 3, 29, 5, 0)),
    ]
    groups = group_by_local_day(items, lambda item: item[1], BERLIN)
    assert {day: [name for name, _ in group] for day, group in groups.items()} == {
        date(2025, 3, 29): ["first", "early"],
        date(2025, 3, 30): ["late"],
    }
    in_utc = group_by_local_day(items, lambda item: item[1], UTC)
    assert [name for name, _ in in_utc[date(2025, 3, 29)]] == ["first", "early", "late"]


# -- moving posts ---------------------------------------------------------------------------------
def test_moving_to_another_day_keeps_the_wall_clock_across_dst() -> None:
    before = datetime(2025, 3, 28, 10, 0, tzinfo=BERLIN)  # CET, 09:00 UTC
    moved = move_to_day(before, date(2025, 3, 31), BERLIN)
    assert moved == utc(2025, 3, 31, 8, 0)  # 10:00 CEST
    assert moved.astimezone(BERLIN).time() == time(10, 0)


def test_moving_into_the_spring_gap_lands_after_it() -> None:
    moved = move_to_day(datetime(2025, 3, 29, 2, 30, tzinfo=BERLIN), date(2025, 3, 30), BERLIN)
    assert moved.astimezone(BERLIN).replace(tzinfo=None) == datetime(2025, 3, 30, 3, 30)


def test_moving_into_the_repeated_hour_takes_the_first_one() -> None:
    moved = move_to_day(datetime(2025, 11, 2, 1, 30, tzinfo=NEW_YORK), date(2025, 11, 2), NEW_YORK)
    assert moved == utc(2025, 11, 2, 5, 30)  # 01:30 EDT, not EST
    moved_ny = move_to_day(utc(2025, 10, 1, 14, 0), date(2025, 11, 3), NEW_YORK)
    assert moved_ny.astimezone(NEW_YORK).time() == time(10, 0)


@pytest.mark.parametrize(
    ("minutes", "snapped"),
    [(607, 600), (608, 615), (600, 600), (7.5, 15), (7.4, 0), (-20, 0), (1439, 1425), (2000, 1425)],
)
def test_snap_minutes_to_quarter_hours(minutes: float, snapped: int) -> None:
    assert snap_minutes(minutes) == snapped


def test_slot_instants_on_dst_days() -> None:
    assert slot_instant(date(2025, 3, 30), 2 * 60 + 15, BERLIN) == utc(2025, 3, 30, 1, 15)
    assert slot_instant(date(2025, 10, 26), 2 * 60 + 15, BERLIN) == utc(2025, 10, 26, 0, 15)
    assert slot_instant(date(2025, 10, 27), 9 * 60, AUCKLAND) == utc(2025, 10, 26, 20, 0)
    assert local_instant(date(2025, 6, 1), time(12), UTC) == utc(2025, 6, 1, 12)


# -- grid geometry -----------------------------------------------------------------------------
def test_month_geometry_finds_the_day_under_a_point() -> None:
    from app.calendar.grid import MonthGeometry, month_grid_dates

    days = tuple(month_grid_dates(2025, 10))
    grid = MonthGeometry(days, width=700, height=628, header=28)
    assert grid.cell(0) == (0, 28, 100, 128)
    assert grid.day_at(150, 130) == days[8]  # second row, second column
    assert grid.day_at(699, 627) == days[-1]
    assert grid.day_at(10, 10) is None  # the weekday header
    assert grid.day_at(700, 100) is None


def test_week_geometry_snaps_slots_in_their_column() -> None:
    from datetime import date as day_

    from app.calendar.grid import WeekGeometry, week_dates

    days = tuple(week_dates(day_(2025, 10, 22)))
    grid = WeekGeometry(days, width=758, gutter=58, hour_height=52)
    assert grid.column(0) == (58, 158)
    assert grid.slot_at(160, 14 * 52) == (days[1], 14 * 60)
    assert grid.slot_at(160, 14 * 52 + 6) == (days[1], 14 * 60)  # 6.9 min: back to 14:00
    assert grid.slot_at(160, 14 * 52 + 7) == (days[1], 14 * 60 + 15)  # 8.1 min: on to 14:15
    assert grid.slot_at(30, 100) is None  # the hour gutter
