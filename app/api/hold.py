"""The one "hold until" gate: nothing passes before a deadline on the client's monotonic clock.

Used by the workspace's rate limit (`app.api.rate_gate`), the pause every page of a walk takes
after a 429 (`app.api.pagination.AdaptiveLimit`) and a lookup budget the server closed
(`app.api.lookup_budget`). Event-loop timers (Qt's under qasync) may wake a few per cent early,
so `wait()` checks the deadline again after every sleep and sleeps the rest: nothing passes early.
"""

from __future__ import annotations

import asyncio
import contextlib

from app.api.retry import Clock


class Hold:
    """A deadline that only moves later, until `release()` opens it at once."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._until = 0.0
        self._released: asyncio.Event | None = None

    def hold_for(self, seconds: float) -> bool:
        """Hold for `seconds` from now, unless a later deadline is already set. True when this
        deadline is the one in force (also when it equals the one set)."""
        if seconds <= 0:
            return False
        until = self._clock.now() + seconds
        if until < self._until:
            return False
        self._until = until
        return True

    def remaining(self) -> float:
        """Seconds until the hold ends; 0.0 when it has."""
        return max(0.0, self._until - self._clock.now())

    @property
    def held(self) -> bool:
        return self._until > self._clock.now()

    def release(self) -> None:
        """End the hold now: waiters return at once."""
        self._until = 0.0
        if self._released is not None:
            self._released.set()

    async def wait(self) -> None:
        """Return once the hold has ended (at once when there is none)."""
        while (remaining := self._until - self._clock.now()) > 0:
            if self._released is None or self._released.is_set():
                self._released = asyncio.Event()
            released = asyncio.ensure_future(self._released.wait())
            sleep = asyncio.ensure_future(self._clock.sleep(remaining))
            try:
                await asyncio.wait((released, sleep), return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (released, sleep):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
