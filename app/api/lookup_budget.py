"""Sliding-window request budgets of spec §8, kept client side so the server never has to refuse.

Two budgets matter for the composer's lookups: 30 uncached audio lookups a minute per workspace,
and 60 lookup requests a minute per user shared by audio search, Pinterest boards and Discord
channels. A server 429 closes a budget until its Retry-After has passed.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from app.api.hold import Hold
from app.api.retry import Clock

WINDOW_SECONDS = 60.0
LOOKUPS_PER_WINDOW = 30
USER_REQUESTS_PER_WINDOW = 60


class LookupBudget:
    """Requests spent in the last `window` seconds; at most `limit` of them."""

    def __init__(
        self, clock: Clock, limit: int = LOOKUPS_PER_WINDOW, window: float = WINDOW_SECONDS
    ) -> None:
        self._clock = clock
        self.limit = limit
        self._window = window
        self._spent: deque[float] = deque()
        self._server_hold = Hold(clock)

    def _forget_old(self, now: float) -> None:
        while self._spent and self._spent[0] <= now - self._window:
            self._spent.popleft()

    def wait_needed(self) -> float:
        """Seconds until one more request may be sent; 0 when it may go now."""
        now = self._clock.now()
        self._forget_old(now)
        wait = self._server_hold.remaining()
        if len(self._spent) >= self.limit:
            wait = max(wait, self._spent[-self.limit] + self._window - now)
        return max(wait, 0.0)

    @property
    def used(self) -> int:
        self._forget_old(self._clock.now())
        return len(self._spent)

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)

    @property
    def server_blocked(self) -> bool:
        return self._server_hold.held

    def spend(self) -> None:
        self._spent.append(self._clock.now())

    def block_for(self, seconds: float) -> None:
        self._server_hold.hold_for(seconds)


class BudgetStatus(NamedTuple):
    """What the audio picker shows: both budgets and the wait until the next free slot."""

    workspace_remaining: int
    workspace_limit: int
    user_remaining: int
    user_limit: int
    wait_seconds: float
    server_blocked: bool

    def describe(self) -> str:
        text = (
            f"{self.workspace_remaining} of {self.workspace_limit} new audio searches left "
            f"this minute (workspace); {self.user_remaining} of {self.user_limit} lookups (you)"
        )
        if self.wait_seconds > 0:
            reason = "the server asked to wait" if self.server_blocked else "limit reached"
            text += f" — {reason}, next in {max(1, round(self.wait_seconds))} s"
        return text
