"""The server's time as this client knows it (issue 19 §1): from the `Date` header of its answers
and the `created_at` of what it creates, never from this computer's clock alone.

Two differences are kept:
- `offset`: the server's clock minus this computer's (from `Date`, always GMT). With this
  computer's clock 10 minutes fast it is about -10 min.
- `reading_offset`: the times the app reads in the server's answers (REST times carry no zone;
  they are read in the profile's server time zone) minus the server's clock. A profile set to
  Asia/Tokyo against a UTC server reads every time 9 h early: about -9 h. Rounded to a quarter
  of an hour (time zones are), since `created_at` has whole seconds and the answer takes time.

`to_read_time(local)` turns a moment of this computer into the time the server's answers would
show for it: what "since this was sent" and "now" must be compared with.
"""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

WARN_BEYOND = timedelta(minutes=1)
"""A difference the user is told about (the status bar)."""
_SAMPLES = 7
_QUARTER_HOUR = 15 * 60


def _utc_now() -> datetime:
    return datetime.now(UTC)


class ServerClock:
    """One per client; fed by the transport with every answer's `Date`."""

    def __init__(self, wall: Callable[[], datetime] = _utc_now) -> None:
        self.wall = wall
        """This computer's clock (replaced in tests to run it fast)."""
        self._offsets: deque[float] = deque(maxlen=_SAMPLES)
        self._last_server: datetime | None = None
        self.reading_offset = timedelta(0)
        self.on_change: Callable[[], None] | None = None

    # -- fed by the transport and the sender ---------------------------------------------------

    def observe_date(self, header: str | None) -> None:
        """An answer arrived now with this `Date` header (ignored when missing or unreadable)."""
        if not header:
            return
        try:
            server = parsedate_to_datetime(header)
        except (TypeError, ValueError, IndexError):
            return
        if server.tzinfo is None:
            server = server.replace(tzinfo=UTC)
        before = self.warning()
        # `Date` drops the fraction: the server's clock was up to a second later.
        self._last_server = server + timedelta(seconds=0.5)
        self._offsets.append((self._last_server - self.wall()).total_seconds())
        self._changed(before)

    def observe_created(self, created: datetime | None) -> None:
        """A thing the server created in the answer just received, with `created_at` as read:
        how the times read in answers relate to the server's clock."""
        if created is None or self._last_server is None:
            return
        seconds = (created - self._last_server).total_seconds()
        quarters = round(seconds / _QUARTER_HOUR)
        before = self.warning()
        self.reading_offset = timedelta(seconds=quarters * _QUARTER_HOUR)
        self._changed(before)

    # -- read by the app ----------------------------------------------------------------------

    @property
    def known(self) -> bool:
        return bool(self._offsets)

    @property
    def offset(self) -> timedelta:
        """Server clock minus this computer's (0 until an answer carried a `Date`)."""
        if not self._offsets:
            return timedelta(0)
        return timedelta(seconds=statistics.median(self._offsets))

    def now(self) -> datetime:
        """The server's time now (UTC)."""
        return self.wall() + self.offset

    def to_read_time(self, local: datetime) -> datetime:
        """A moment of this computer's clock as the server's answers would show it."""
        return local + self.offset + self.reading_offset

    def read_now(self) -> datetime:
        """Now, as the server's answers would show it (for "due now" windows)."""
        return self.to_read_time(self.wall())

    def warning(self) -> str | None:
        """Words for the status bar when the clocks differ by more than a minute, else None."""
        parts = []
        offset = self.offset
        if abs(offset) > WARN_BEYOND:
            way = "behind" if offset < timedelta(0) else "ahead of"
            parts.append(f"the server's clock is {_span(abs(offset))} {way} this computer's")
        if self.reading_offset:
            parts.append(
                f"the server's times read {_span(abs(self.reading_offset))} "
                f"{'early' if self.reading_offset < timedelta(0) else 'late'} "
                "(check the workspace's server time zone)"
            )
        if not parts:
            return None
        return "Clock differs: " + "; ".join(parts) + "."

    def _changed(self, before: str | None) -> None:
        if self.on_change is not None and self.warning() != before:
            self.on_change()


def _span(delta: timedelta) -> str:
    seconds = round(delta.total_seconds())
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 2 * 3600:
        return f"{round(seconds / 60)} min"
    hours = seconds / 3600
    return f"{hours:g} h" if hours == int(hours) else f"{hours:.1f} h"
