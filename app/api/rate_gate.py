"""The workspace's rate limit: after a 429 on any route, no new request leaves before the wait.

The limit belongs to the key, not to a route (DESIGN.md): a 429 on `/labels` holds back `/posts`
pages too. Deadlines are on the client's monotonic clock. Event-loop timers (Qt's under qasync)
may wake a few per cent early, so `wait()` checks the deadline again after every sleep and sleeps
the rest: a request never leaves early. Requests already in flight are not affected.
"""

from __future__ import annotations

from app.api.retry import Clock


class RateGate:
    """One per client. `hold()` after a 429; `wait()` before every request."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._open_at = 0.0

    def hold(self, seconds: float) -> None:
        """Close the gate for `seconds` from now (a longer wait already set is kept)."""
        if seconds > 0:
            self._open_at = max(self._open_at, self._clock.now() + seconds)

    def wait_remaining(self) -> float:
        """Seconds until new requests may leave again (0.0 when they may leave now); for a
        countdown in the UI."""
        return max(0.0, self._open_at - self._clock.now())

    async def wait(self) -> None:
        while (remaining := self._open_at - self._clock.now()) > 0:
            await self._clock.sleep(remaining)
