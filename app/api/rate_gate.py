"""The workspace's rate limit: after a 429 on any route, no new request leaves before the wait.

The limit belongs to the key, not to a route (DESIGN.md): a 429 on `/labels` holds back `/posts`
pages too. The deadline is an `app.api.hold.Hold` on the client's monotonic clock: a request never
leaves early. Requests already in flight are not affected.

The wait is the server's `Retry-After`, clamped (`app.api.retry.MAX_RETRY_AFTER`); the user may
end it sooner (`retry_now`, the status bar's *Retry now*): their choice, not a guess of ours.
"""

from __future__ import annotations

from app.api.hold import Hold
from app.api.retry import Clock


class RateGate:
    """One per client. `hold()` after a 429; `wait()` before every request."""

    def __init__(self, clock: Clock) -> None:
        self._hold = Hold(clock)
        self.server_said: str | None = None
        """The server's own `Retry-After` behind the current hold (shown beside the wait)."""

    def hold(self, seconds: float, server_said: str | None = None) -> None:
        """Close the gate for `seconds` from now (a longer wait already set is kept)."""
        if self._hold.hold_for(seconds):
            self.server_said = server_said

    def wait_remaining(self) -> float:
        """Seconds until new requests may leave again (0.0 when they may leave now); for a
        countdown in the UI."""
        return self._hold.remaining()

    def retry_now(self) -> None:
        """Open the gate at once (the user asked): waiting requests leave now."""
        self._hold.release()
        self.server_said = None

    async def wait(self) -> None:
        await self._hold.wait()
