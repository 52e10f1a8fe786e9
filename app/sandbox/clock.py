"""Time handling: one injectable clock and the two wire formats of the spec.

The store keeps every instant as a naive UTC string `YYYY-MM-DD HH:MM:SS`, which sorts correctly
as text and is already the REST wire format; webhook resources and payloads need ISO 8601 with an
explicit offset, so they are converted on the way out.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]

REST_FORMAT = "%Y-%m-%d %H:%M:%S"


def system_clock() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """Naive datetimes are taken to be UTC already (the sandbox has no other zone)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def to_db(moment: datetime) -> str:
    return as_utc(moment).strftime(REST_FORMAT)


def parse_rest(text: str) -> datetime | None:
    """Parse a request `Y-m-d H:i:s` value (UTC); None when it does not match exactly."""
    try:
        parsed = datetime.strptime(text, REST_FORMAT)
    except (TypeError, ValueError):
        return None
    # strptime accepts single-digit fields; the format on the wire is zero-padded.
    if parsed.strftime(REST_FORMAT) != text:
        return None
    return parsed.replace(tzinfo=UTC)


def from_db(text: str) -> datetime:
    return datetime.strptime(text, REST_FORMAT).replace(tzinfo=UTC)


def db_to_iso(text: str | None) -> str | None:
    if text is None:
        return None
    return from_db(text).isoformat()


def iso_now(clock: Clock) -> str:
    return as_utc(clock()).replace(microsecond=0).isoformat()


def shift(text: str, delta: timedelta) -> str:
    return to_db(from_db(text) + delta)


class ManualClock:
    """A clock that only moves when told to; pass it as `now=` to inject time in tests."""

    def __init__(self, start: datetime) -> None:
        self._now = as_utc(start)

    def __call__(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta) -> None:
        self._now += delta

    def set(self, moment: datetime) -> None:
        self._now = as_utc(moment)
