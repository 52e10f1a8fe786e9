"""The status bar's clock warning in words, and what `created_at` says about the time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from app.api.server_clock import ServerClock

# This computer's clock reads half a second past the whole second the server's `Date` names, so
# the measured difference (a `Date` is taken as half a second later) is exactly the one given.
HERE = datetime(2025, 3, 1, 12, 0, 0, 500_000, tzinfo=UTC)


def clock_off_by(seconds: float) -> ServerClock:
    clock = ServerClock(wall=lambda: HERE)
    server = HERE.replace(microsecond=0) + timedelta(seconds=seconds)
    clock.observe_date(format_datetime(server, usegmt=True))
    return clock


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (119, "119 s ahead of"),
        (120, "2 min ahead of"),
        (-3000, "50 min behind"),
        (7199, "120 min ahead of"),
        (7200, "2 h ahead of"),
        (3 * 3600, "3 h ahead of"),
        (2 * 3600 + 20 * 60, "2.3 h ahead of"),
        (-(9 * 3600 + 1800), "9.5 h behind"),
    ],
)
def test_the_warning_names_the_difference_in_the_unit_a_person_reads(
    seconds: int, words: str
) -> None:
    assert clock_off_by(seconds).warning() == (
        f"Clock differs: the server's clock is {words} this computer's."
    )


def test_the_servers_now_adds_the_measured_difference() -> None:
    assert clock_off_by(300).now() == HERE + timedelta(seconds=300)
    assert clock_off_by(-300).now() == HERE - timedelta(seconds=300)


def test_times_read_nine_hours_late_are_named_with_the_zone_to_check() -> None:
    clock = clock_off_by(0)
    changes: list[str | None] = []
    clock.on_change = lambda: changes.append(clock.warning())
    # Created three seconds after the answer's `Date`, but read in a zone nine hours ahead.
    clock.observe_created(datetime(2025, 3, 1, 21, 0, 3, tzinfo=UTC))
    assert clock.reading_offset == timedelta(hours=9)
    expected = (
        "Clock differs: the server's times read 9 h late (check the workspace's server time zone)."
    )
    assert clock.warning() == expected
    assert changes == [expected]
    # The same finding again changes nothing, so nobody is told again.
    clock.observe_created(datetime(2025, 3, 1, 21, 0, 1, tzinfo=UTC))
    assert changes == [expected]


def test_times_read_early_are_rounded_to_the_quarter_hour() -> None:
    clock = clock_off_by(0)
    clock.observe_created(datetime(2025, 3, 1, 6, 29, 50, tzinfo=UTC))  # -5 h 30 min 10 s
    assert clock.reading_offset == -timedelta(hours=5, minutes=30)
    assert clock.warning() == (
        "Clock differs: the server's times read 5.5 h early (check the workspace's server time "
        "zone)."
    )


def test_a_created_time_alone_or_missing_teaches_nothing() -> None:
    clock = ServerClock(wall=lambda: HERE)
    clock.observe_created(datetime(2025, 3, 1, 21, 0, 0, tzinfo=UTC))  # no `Date` seen yet
    assert clock.reading_offset == timedelta(0)
    clock = clock_off_by(0)
    clock.observe_created(None)
    assert clock.reading_offset == timedelta(0)
    assert clock.warning() is None


def test_exactly_a_minute_apart_is_not_worth_a_warning() -> None:
    assert clock_off_by(60).warning() is None
    assert clock_off_by(-60).warning() is None
    assert clock_off_by(61).warning() == (
        "Clock differs: the server's clock is 61 s ahead of this computer's."
    )


def test_both_differences_are_named_in_one_sentence() -> None:
    clock = clock_off_by(300)
    clock.observe_created(datetime(2025, 3, 1, 21, 5, 0, tzinfo=UTC))
    assert clock.warning() == (
        "Clock differs: the server's clock is 5 min ahead of this computer's; the server's times "
        "read 9 h late (check the workspace's server time zone)."
    )


def test_the_status_bar_is_told_only_when_the_words_change() -> None:
    told: list[str | None] = []
    agreeing = ServerClock(wall=lambda: HERE)
    agreeing.on_change = lambda: told.append(agreeing.warning())
    agreeing.observe_date(format_datetime(HERE.replace(microsecond=0), usegmt=True))
    assert told == []
    clock = ServerClock(wall=lambda: HERE)
    clock.on_change = lambda: told.append(clock.warning())
    ahead = format_datetime(HERE.replace(microsecond=0) + timedelta(minutes=5), usegmt=True)
    for _ in range(3):
        clock.observe_date(ahead)
    assert told == ["Clock differs: the server's clock is 5 min ahead of this computer's."]


def test_a_date_without_a_known_zone_is_read_as_gmt() -> None:
    clock = ServerClock(wall=lambda: HERE)
    clock.observe_date("Sat, 01 Mar 2025 12:05:00 -0000")
    assert clock.offset == timedelta(minutes=5)


def test_a_computer_clock_set_right_is_believed_after_seven_answers() -> None:
    now = [HERE]
    clock = ServerClock(wall=lambda: now[0])
    server_date = format_datetime(HERE.replace(microsecond=0), usegmt=True)
    for _ in range(10):
        clock.observe_date(server_date)
    assert clock.warning() is None
    now[0] = HERE - timedelta(minutes=5)  # this computer's clock is set back five minutes
    for _ in range(7):
        clock.observe_date(server_date)
    assert clock.offset == timedelta(minutes=5)


def test_the_real_clock_is_compared_with_the_servers_date() -> None:
    clock = ServerClock()
    clock.observe_date(format_datetime(datetime.now(UTC), usegmt=True))
    assert abs(clock.offset) < timedelta(seconds=5)
    assert clock.warning() is None
