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
        delay = min(self.max_delay, self.base_delay * 2 ** max(attempt - 1, 0))
        return delay * (1 + self.jitter * rng())


NO_RETRY = RetryPolicy(max_attempts=1)


def parse_retry_after(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """Seconds from a `Retry-After` header: integer seconds (the spec) or an HTTP date."""
    raw = headers.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
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
    return max(seconds, 0.0)
