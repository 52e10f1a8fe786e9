"""When and how long to wait before trying a request again.

Which failures are retried depends on whether the request may already have reached the server:
see `app.api.transport`. This module holds the timing (capped exponential backoff with jitter,
`Retry-After`) and the clock, which tests replace so that nothing sleeps for real.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Protocol

from app.api.backoff import backoff_delay
from app.api.errors import ApiError


class Clock(Protocol):
    def now(self) -> float:
        """Monotonic seconds."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


SYSTEM_CLOCK: Clock = SystemClock()

RetryHook = Callable[[int, float, ApiError], None]
"""Called before each wait: (attempt that failed, starting at 1; delay in s; why)."""


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0
    jitter: float = 0.25
    """Fraction of the delay added at random, so many clients do not retry in lockstep."""

    def backoff(self, attempt: int, rng: Callable[[], float] = random.random) -> float:
        """Delay after the failed `attempt` (1-based) when the server gave no Retry-After."""
        return backoff_delay(
            attempt, base=self.base_delay, cap=self.max_delay, jitter_span=self.jitter, rng=rng
        )


MIN_RETRY_AFTER = 1.0
"""The shortest wait a 429 buys: `Retry-After: -5`, `0` or garbage must not become a flood."""
MAX_RETRY_AFTER = 15 * 60.0
"""The longest: `Retry-After: 99999999` must not lock the workspace for three years (the user can
also *Retry now*)."""


def parse_retry_after(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """Seconds from a `Retry-After` header (integer seconds, the spec, or an HTTP date), clamped
    to [MIN_RETRY_AFTER, MAX_RETRY_AFTER]; None without the header. What the server actually
    said is `retry_after_said`."""
    raw = headers.get("retry-after")
    if raw is None:
        return None
    # A date is counted from the server's own `Date` when it sent one, not from this computer's
    # clock (which may be minutes off: issue 19 §1).
    seconds = _retry_after_seconds(raw.strip(), now or _date_of(headers))
    if seconds is None:
        return MIN_RETRY_AFTER
    return min(max(seconds, MIN_RETRY_AFTER), MAX_RETRY_AFTER)


def retry_after_said(headers: Mapping[str, str]) -> str | None:
    """The server's own `Retry-After` (shortened), to show beside the wait actually used."""
    raw = headers.get("retry-after")
    return None if raw is None else (" ".join(raw.split())[:40] or "(empty)")


def _date_of(headers: Mapping[str, str]) -> datetime | None:
    raw = headers.get("date")
    if not raw:
        return None
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _retry_after_seconds(raw: str, now: datetime | None) -> float | None:
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    if seconds != seconds or seconds in (float("inf"), float("-inf")):  # NaN or infinite
        return None
    return seconds
