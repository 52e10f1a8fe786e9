"""Shared pieces of the client tests: a clock that never sleeps, and a client over a handler."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.sandbox.harness import SandboxServer

SECRET_KEY = "pd_live_Zq8sECRETkey0123456789abcdef"
BASE_URL = "https://api.example.test/api"

Handler = Callable[[httpx.Request], httpx.Response | Awaitable[httpx.Response]]


class FakeClock:
    """Monotonic time that only moves when someone sleeps; every sleep is recorded."""

    def __init__(self, start: float = 1_000.0) -> None:
        self.time = start
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.time += seconds
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        self.time += seconds


class Recorder:
    """Wraps a handler and keeps every request it saw."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[httpx.Request] = []

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        result = self.handler(request)
        if not isinstance(result, httpx.Response):
            result = await result
        return result

    @property
    def paths(self) -> list[str]:
        return [request.url.path for request in self.requests]


def make_client(
    handler: Handler,
    *,
    clock: FakeClock | None = None,
    retry: RetryPolicy | None = None,
    api_key: str = SECRET_KEY,
    **kwargs: Any,
) -> tuple[ApiClient, Recorder, FakeClock]:
    recorder = Recorder(handler)
    clock = clock or FakeClock()
    client = ApiClient(
        BASE_URL,
        api_key,
        transport=httpx.MockTransport(recorder),
        retry=retry or RetryPolicy(jitter=0.0),
        clock=clock,
        **kwargs,
    )
    return client, recorder, clock


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(
        status,
        content=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def post_json(post_id: str = "p1", **fields: Any) -> dict[str, Any]:
    return {
        "id": post_id,
        "content": "Hello",
        "media": [],
        "status": "draft",
        "scheduled_at": None,
        "published_at": None,
        "platforms": [],
        "labels": [],
        "created_at": "2025-03-01 10:00:00",
        "updated_at": "2025-03-01 10:00:00",
        **fields,
    }


def posts_page(page: int, last_page: int, per_page: int = 15, total: int | None = None) -> dict:
    total = total if total is not None else last_page * per_page
    start = (page - 1) * per_page
    count = max(0, min(per_page, total - start))
    return {
        "data": [post_json(f"post-{start + i:04d}") for i in range(count)],
        "links": {
            "first": f"{BASE_URL}/posts?page=1",
            "last": f"{BASE_URL}/posts?page={last_page}",
            "prev": None if page == 1 else f"{BASE_URL}/posts?page={page - 1}",
            "next": None if page >= last_page else f"{BASE_URL}/posts?page={page + 1}",
        },
        "meta": {
            "current_page": page,
            "from": start + 1,
            "to": start + count,
            "last_page": last_page,
            "per_page": per_page,
            "total": total,
            "path": f"{BASE_URL}/posts",
        },
    }


def sandbox_client(server: SandboxServer, key: str | None = None, **kwargs: Any) -> ApiClient:
    """A client of a running sandbox over loopback; retries never sleep for real."""
    kwargs.setdefault("clock", FakeClock())
    kwargs.setdefault("retry", RetryPolicy(jitter=0.0))
    return ApiClient(server.base_url, key if key is not None else server.keys.admin, **kwargs)
