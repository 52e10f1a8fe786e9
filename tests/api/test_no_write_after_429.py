"""No request is written to a socket after a 429 reached us and before its Retry-After passed,
counted at the socket, with a full sync keeping many pages in flight (issue 14 §7's 32) against
the independent odd server, which answers every 5th request 429 `Retry-After: 1`.

The server's own count of early arrivals cannot prove this: it judges when its handler thread
reads a request, which under load can be well after the bytes arrived. Here the client's writes
and the 429s it received are timed on one clock."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api import connection_pool
from app.api.client import ApiClient
from app.store import WorkspaceCache
from app.sync import SyncService
from tests.tools.odd_server import RETRY_AFTER, OddServer
from tests.tools.odd_world import World

_METHODS = (b"GET ", b"POST ", b"PUT ", b"PATCH ", b"DELETE ")


@pytest.mark.asyncio
async def test_no_request_is_written_between_a_429_and_its_retry_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    written: list[float] = []
    refused_at: list[float] = []
    write = connection_pool._Stream.write
    handle = connection_pool.PooledTransport.handle_async_request

    async def timed_write(self: Any, buffer: bytes, timeout: float | None = None) -> None:  # noqa: ASYNC109 (the stream's signature)
        if buffer.startswith(_METHODS):
            written.append(time.monotonic())
        await write(self, buffer, timeout)

    async def timed_answer(self: Any, request: httpx.Request) -> httpx.Response:
        response = await handle(self, request)
        if response.status_code == 429:
            refused_at.append(time.monotonic())  # its headers are read: we know of it now
        return response

    monkeypatch.setattr(connection_pool._Stream, "write", timed_write)
    monkeypatch.setattr(connection_pool.PooledTransport, "handle_async_request", timed_answer)
    with OddServer(modes={"rate"}, quiet=True, world=World.seeded(posts=900)) as server:
        async with ApiClient(server.base_url, "odd-key") as client:
            cache = WorkspaceCache(Path(tempfile.mkdtemp()) / "cache.sqlite3")
            try:
                service = SyncService(
                    client, cache, on_state=lambda _s: None, on_changed=lambda _c: None
                )
                assert await service.full_refresh()
                assert cache.count_posts() == 900
            finally:
                cache.close()
            walk = client.posts.last_walk
            limit = walk.last_limit if walk is not None else None
    assert limit is not None
    assert limit.peak >= 4  # pages really were in flight at once
    assert len(refused_at) >= 5
    too_soon = [
        round(at - refused, 3)
        for at in written
        for refused in refused_at
        if refused < at < refused + RETRY_AFTER
    ]
    assert too_soon == []
