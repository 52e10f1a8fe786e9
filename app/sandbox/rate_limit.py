"""Optional global throttle: N requests per rolling minute per key (off by default, as in local
development on the hosted service)."""

from __future__ import annotations

import math
import threading
from collections import deque
from datetime import timedelta

from app.sandbox.clock import Clock

WINDOW = timedelta(minutes=1)


class SlidingWindowLimiter:
    def __init__(self, limit: int, clock: Clock) -> None:
        self._limit = limit
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> int | None:
        """Count one request; None when allowed, else seconds until a slot frees."""
        now = self._clock().timestamp()
        window = WINDOW.total_seconds()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - window:
                hits.popleft()
            if len(hits) >= self._limit:
                return max(1, math.ceil(hits[0] + window - now))
            hits.append(now)
            return None
