"""Faults on purpose: `--fail-after-commit RATE` commits a batch, then drops the connection.

This is the failure that makes `POST /posts/batch` dangerous to retry: the posts exist, but the
client never hears so. The middleware lets the route run (and commit) as usual; for a share
`rate` of the successful answers it sends the status line and headers, then closes the
connection before the body, so the client sees a connection lost mid-answer (httpx
`RemoteProtocolError`). An ASGI application cannot close a connection without sending anything,
so this partial answer is the closest honest imitation of a connection cut after the commit.
Refused requests (4xx) pass untouched: nothing was committed. A `seed` makes the choice of
which answers to drop repeatable.
"""

from __future__ import annotations

import argparse
import logging
import random
import threading
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

BATCH_PATH = "/api/posts/batch"


def parse_rate(text: str) -> float:
    """A command-line failure rate: a number from 0 to 1."""
    try:
        rate = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= rate <= 1.0:
        raise argparse.ArgumentTypeError("the failure rate must be between 0 and 1")
    return rate


class ConnectionDropped(Exception):
    """Raised after the headers so that uvicorn closes the connection mid-answer."""


@dataclass
class FailAfterCommit:
    """Which successful batch answers to drop, and how many were dropped (for tests)."""

    rate: float
    seed: int | None = None
    paths: tuple[str, ...] = (BATCH_PATH,)
    dropped: int = 0
    passed: int = 0
    _rng: random.Random = field(init=False, repr=False)
    _lock: threading.Lock = field(init=False, repr=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if not 0.0 <= self.rate <= 1.0:
            raise ValueError("the failure rate must be between 0 and 1")
        self._rng = random.Random(self.seed)

    def applies_to(self, scope: Scope) -> bool:
        return scope.get("method") == "POST" and scope.get("path") in self.paths

    def should_drop(self) -> bool:
        with self._lock:
            drop = self._rng.random() < self.rate
            if drop:
                self.dropped += 1
            else:
                self.passed += 1
            return drop


class FailAfterCommitMiddleware:
    def __init__(self, app: ASGIApp, faults: FailAfterCommit) -> None:
        self.app = app
        self.faults = faults
        _quiet_uvicorn()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.faults.applies_to(scope):
            await self.app(scope, receive, send)
            return
        faults = self.faults

        async def send_or_drop(message: Message) -> None:
            answered = message["type"] == "http.response.start" and 200 <= message["status"] < 300
            if answered and faults.should_drop():
                await send(message)
                raise ConnectionDropped
            await send(message)

        await self.app(scope, receive, send_or_drop)


class _NotDroppedOnPurpose(logging.Filter):
    """uvicorn logs every application exception; ours are intended, so keep the log clean."""

    def filter(self, record: logging.LogRecord) -> bool:
        info = record.exc_info
        return not (info and isinstance(info[1], ConnectionDropped))


_FILTER = _NotDroppedOnPurpose()


def _quiet_uvicorn() -> None:
    logger = logging.getLogger("uvicorn.error")
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)
