"""Edges of the waiting rules: `Retry-After` as the server wrote it, dates in other zones, the
fixed backoff factor, and holds of nothing or on a clock that starts near zero."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from app.api.backoff import backoff_delay
from app.api.hold import Hold
from app.api.rate_gate import RateGate
from app.api.retry import parse_retry_after, retry_after_said
from tests.api.helpers import FakeClock

NOON = datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC)


def test_what_the_server_said_is_shown_on_one_line_with_single_spaces() -> None:
    said = retry_after_said({"retry-after": "Sat,  01 Mar\t2025 12:00:30   GMT"})
    assert said == "Sat, 01 Mar 2025 12:00:30 GMT"


def test_what_the_server_said_is_cut_at_forty_characters() -> None:
    assert retry_after_said({"retry-after": "9" * 50}) == "9" * 40


@pytest.mark.parametrize("header", ["", "   "])
def test_an_empty_retry_after_is_shown_as_empty_and_waits_the_floor(header: str) -> None:
    assert retry_after_said({"retry-after": header}) == "(empty)"
    assert parse_retry_after({"retry-after": header}) == 1.0


def test_a_retry_after_date_in_another_zone_is_the_same_moment() -> None:
    # 14:00:30 at +02:00 is 12:00:30 UTC: thirty seconds after noon, not two hours.
    headers = {"retry-after": "Sat, 01 Mar 2025 14:00:30 +0200"}
    assert parse_retry_after(headers, NOON) == 30.0


def test_a_server_date_in_another_zone_is_the_same_moment() -> None:
    headers = {
        "retry-after": "Sat, 01 Mar 2025 12:00:30 GMT",
        "date": "Sat, 01 Mar 2025 14:00:00 +0200",
    }
    assert parse_retry_after(headers) == 30.0


def test_dates_without_a_known_zone_are_read_as_utc() -> None:
    # RFC 5322's "-0000" means "zone unknown": read as UTC rather than failing.
    headers = {
        "retry-after": "Sat, 01 Mar 2025 12:00:30 -0000",
        "date": "Sat, 01 Mar 2025 12:00:00 -0000",
    }
    assert parse_retry_after(headers) == 30.0
    assert parse_retry_after({"retry-after": "Sat, 01 Mar 2025 12:00:45 -0000"}, NOON) == 45.0


def test_a_retry_after_date_without_a_server_date_counts_from_this_computers_clock() -> None:
    soon = datetime.now(UTC) + timedelta(minutes=10)
    waited = parse_retry_after({"retry-after": format_datetime(soon, usegmt=True)})
    assert waited is not None
    assert 590.0 <= waited <= 600.0


def test_a_fixed_backoff_factor_below_one_shortens_every_wait() -> None:
    assert backoff_delay(1, base=2.0, cap=8.0, jitter_from=0.5) == 1.0
    assert backoff_delay(4, base=2.0, cap=8.0, jitter_from=0.5) == 4.0


def test_a_hold_of_nothing_holds_nothing_and_keeps_no_servers_words() -> None:
    clock = FakeClock()
    hold = Hold(clock)
    assert hold.hold_for(0) is False
    assert not hold.held
    gate = RateGate(clock)
    gate.hold(0, "0")
    assert gate.server_said is None
    assert gate.wait_remaining() == 0.0


def test_release_opens_at_once_on_a_clock_that_starts_near_zero() -> None:
    # A monotonic clock's origin is arbitrary: shortly after boot it reads under a second.
    clock = FakeClock(start=0.0)
    hold = Hold(clock)
    assert not hold.held
    assert hold.remaining() == 0.0
    assert hold.hold_for(5.0) is True
    hold.release()
    assert hold.remaining() == 0.0
    assert not hold.held
