"""The one backoff formula: capped doubling, optionally jittered.

Every retry in the client uses it (a request's retries in `app.api.transport`, the sync's refresh
after a failure, the outbox's next pass); each passes what it needs: its base, its cap and how
much jitter keeps many clients from retrying in lockstep.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

_MAX_EXPONENT = 62
"""Beyond any cap in use: `2**failures` for a very long outage stays a small float."""


def backoff_delay(
    failures: int,
    *,
    base: float,
    cap: float,
    jitter_from: float = 1.0,
    jitter_span: float = 0.0,
    rng: Callable[[], float] = random.random,
) -> float:
    """Seconds to wait after `failures` failures in a row (1-based; 0 counts as 1).

    `min(cap, base * 2**(failures - 1))`, multiplied by a factor drawn uniformly from
    [`jitter_from`, `jitter_from + jitter_span`) (`rng` returns [0, 1)). The default is no jitter.
    """
    exponent = min(max(failures - 1, 0), _MAX_EXPONENT)
    delay = min(cap, base * 2**exponent)
    if jitter_span == 0.0:
        return delay * jitter_from
    return delay * (jitter_from + jitter_span * rng())


@dataclass
class Backoff:
    """A failure counter for loops that retry on their own (no jitter: one client, one loop)."""

    base: float
    cap: float
    failures: int = field(default=0)

    @property
    def next_delay(self) -> float:
        """What the next failure will wait, without counting one."""
        return backoff_delay(self.failures + 1, base=self.base, cap=self.cap)

    def failed(self) -> float:
        """Count a failure; the wait it earns."""
        self.failures += 1
        return backoff_delay(self.failures, base=self.base, cap=self.cap)

    def succeeded(self) -> None:
        self.failures = 0
