"""A tiny HTTP/1.1 server written for the rate-limit tests, independent of the sandbox.

It runs in its own thread and event loop, answers the three routes a full sync reads, refuses
the requests a rule picks with `429 Retry-After: N`, and records when each request arrived and
when each 429 left, on the same monotonic clock as the client.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.api.helpers import post_json

PER_PAGE = 15


@dataclass(frozen=True)
class Arrival:
    number: int
    path: str
    page: int | None
    at: float


Rule = Callable[[Arrival], bool]
"""True when this request must be refused with 429."""


def every_fifth(arrival: Arrival) -> bool:
    return arrival.number % 5 == 0


class LimitedServer:
    def __init__(self, rule: Rule, *, pages: int, retry_after: int = 1) -> None:
        self.rule = rule
        self.pages = pages
        self.retry_after = retry_after
        self.arrivals: list[Arrival] = []
        self.refusals: list[tuple[float, Arrival]] = []
        """(when the 429 was written, the request it refused)."""
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._writers: set[asyncio.StreamWriter] = set()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._stop: asyncio.Event | None = None
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    def __enter__(self) -> LimitedServer:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def _serve(self) -> None:
        self._loop.run_until_complete(self._main())
        self._loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        async with server:
            await self._stop.wait()
        # Keep-alive connections outlive the listening socket: close them here, or their
        # sockets are collected later and warn in whichever test runs then.
        for writer in list(self._writers):
            writer.close()
        handlers = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        if handlers:  # a closed connection ends its handler's read
            await asyncio.wait(handlers, timeout=2)

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                arrived = time.monotonic()
                target = head.split(b" ", 2)[1].decode()
                status, headers, body = self._answer(target, arrived)
                headers = {
                    **headers,
                    "Content-Type": "application/json",
                    "Content-Length": str(len(body)),
                }
                lines = [f"HTTP/1.1 {status} X"] + [f"{k}: {v}" for k, v in headers.items()]
                writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    def _answer(self, target: str, arrived: float) -> tuple[int, dict[str, str], bytes]:
        parts = urlsplit(target)
        page_values = parse_qs(parts.query).get("page")
        page = int(page_values[0]) if page_values else None
        with self._lock:
            arrival = Arrival(len(self.arrivals) + 1, parts.path, page, arrived)
            self.arrivals.append(arrival)
            if self.rule(arrival):
                self.refusals.append((time.monotonic(), arrival))
                body = {"name": "rate_limit_exceeded", "message": "Too Many Attempts."}
                return 429, {"Retry-After": str(self.retry_after)}, json.dumps(body).encode()
        return 200, {}, json.dumps(self._data(parts.path, page or 1)).encode()

    def _data(self, path: str, page: int) -> Any:
        if path.endswith("/social-accounts"):
            return [{"id": "acc1", "platform": "x", "name": "Northwind"}]
        if path.endswith("/labels"):
            return [{"id": "l1", "name": "News", "color": "#112233"}]
        total = self.pages * PER_PAGE
        start = (page - 1) * PER_PAGE
        return {
            "data": [post_json(f"post-{start + i:04d}") for i in range(PER_PAGE)],
            "meta": {
                "current_page": page,
                "last_page": self.pages,
                "per_page": PER_PAGE,
                "total": total,
            },
        }

    def early_arrivals(self, grace: float) -> list[tuple[Arrival, Arrival, float]]:
        """Requests that arrived after a 429 left (plus `grace` for requests already in
        flight) but before its Retry-After had passed: (refused, early one, seconds after)."""
        early = []
        for sent, refused in self.refusals:
            for arrival in self.arrivals:
                after = arrival.at - sent
                if grace < after < self.retry_after:
                    early.append((refused, arrival, after))
        return early
