"""Post images downloaded for thumbnails: from the real sandbox's media route over loopback,
counted from outside the client by a relay; refusals, one request per URL, bounds, cancelling."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from app.media.thumbnail_cache import (
    KEEP_DAYS,
    RETRY_UNREACHABLE_S,
    ThumbnailCache,
    files_for,
)
from app.sandbox.harness import SandboxServer
from app.sandbox.media_files import gradient_png
from tests.media.served_media import StallingServer, serve
from tests.ui.loop_runner import until
from tests.ui.panels.counting_relay import CountingRelay

PNG = gradient_png(40, 30, (200, 40, 40), (40, 40, 200))


@contextlib.asynccontextmanager
async def counted(sandbox: SandboxServer) -> AsyncIterator[CountingRelay]:
    """A relay in front of the sandbox counting the media requests that really left."""
    relay = CountingRelay(urlsplit(sandbox.origin).port or 0, b"GET /storage/medias/")
    await relay.up()
    try:
        yield relay
    finally:
        await relay.down()


def through(relay: CountingRelay, url: str) -> str:
    return url.replace(urlsplit(url).netloc, f"127.0.0.1:{relay.port}")


@contextlib.asynccontextmanager
async def running(cache: ThumbnailCache) -> AsyncIterator[ThumbnailCache]:
    task = asyncio.create_task(cache.run())
    try:
        yield cache
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await cache.aclose()


@pytest.mark.asyncio
async def test_an_image_asked_for_ten_times_is_downloaded_once(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    done: list[tuple[str, bool]] = []
    async with counted(sandbox) as relay:
        url = through(relay, serve(sandbox, "a.png", "image/png", PNG))
        async with running(ThumbnailCache(tmp_path / "thumbs")) as cache:
            cache.listeners.append(lambda u, ok: done.append((u, ok)))
            answers = [cache.request(url) for _ in range(10)]
            await until(lambda: done, what="the download")
            assert answers == [None] * 10
            assert done == [(url, True)]
            files = cache.request(url)
            assert files is not None
            assert files.original.read_bytes() == PNG
            for _ in range(10):
                assert cache.request(url) == files
        assert relay.count == 1
        assert cache.requests_made == 1

        # The next session finds it on disk: nothing is downloaded again.
        async with running(ThumbnailCache(tmp_path / "thumbs")) as again:
            assert again.request(url) == files
        assert relay.count == 1


@pytest.mark.asyncio
async def test_a_failed_image_is_not_asked_again_this_session(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    done: list[tuple[str, bool]] = []
    async with counted(sandbox) as relay:
        url = through(relay, f"{sandbox.origin}/storage/medias/missing.png")
        async with running(ThumbnailCache(tmp_path)) as cache:
            cache.listeners.append(lambda u, ok: done.append((u, ok)))
            cache.request(url)
            await until(lambda: done, what="the failure")
            for _ in range(50):  # as 50 repaints would
                assert cache.request(url) is None
            second = through(relay, serve(sandbox, "b.png", "image/png", PNG))
            cache.request(second)  # a later download goes through the same workers
            await until(lambda: len(done) == 2, what="the second download")
        assert done == [(url, False), (second, True)]
        assert cache.failure(url) == "the server answered 404"
        assert relay.count == 2


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("mime", "reason"),
    [
        ("text/html", "not an image (text/html)"),
        ("image/svg+xml", "not an image (image/svg+xml)"),
    ],
)
async def test_an_answer_that_is_not_a_raster_image_is_refused_and_not_kept(
    sandbox: SandboxServer, tmp_path: Path, mime: str, reason: str
) -> None:
    done: list[bool] = []
    url = serve(sandbox, "page", mime, b"<html>hello</html>")
    async with running(ThumbnailCache(tmp_path)) as cache:
        cache.listeners.append(lambda _u, ok: done.append(ok))
        cache.request(url)
        await until(lambda: done, what="the refusal")
    assert done == [False]
    assert cache.failure(url) == reason
    assert not any(files_for(tmp_path, url)[i].exists() for i in (0, 1))


@pytest.mark.asyncio
async def test_an_image_over_the_size_cap_is_refused(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    done: list[bool] = []
    url = serve(sandbox, "big.png", "image/png", PNG)
    async with running(ThumbnailCache(tmp_path, max_bytes=len(PNG) - 1)) as cache:
        cache.listeners.append(lambda _u, ok: done.append(ok))
        cache.request(url)
        await until(lambda: done, what="the refusal")
        reason = cache.failure(url)
    assert done == [False]
    assert reason is not None
    assert reason.startswith(f"larger than {len(PNG) - 1:,} bytes")
    assert not files_for(tmp_path, url).original.exists()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "ftp://example.org/a.png", "http:///nohost.png", "javascript:x"]
)
async def test_only_web_addresses_are_fetched(tmp_path: Path, url: str) -> None:
    async with running(ThumbnailCache(tmp_path)) as cache:
        assert cache.request(url) is None
        assert cache.failure(url) == "only http and https addresses are fetched"
        assert cache.waiting == 0
        assert cache.requests_made == 0


@pytest.mark.asyncio
async def test_at_most_four_downloads_at_once_and_cancelling_closes_them(tmp_path: Path) -> None:
    server = StallingServer()
    origin = await server.up()
    try:
        cache = ThumbnailCache(tmp_path)
        task = asyncio.create_task(cache.run())
        for n in range(9):
            cache.request(f"{origin}/image-{n}.png")
        await until(lambda: server.open == 4 and cache.in_flight == 4, what="four in flight")
        assert cache.waiting == 5

        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await cache.aclose()
        await until(lambda: server.closed == 4, what="the connections closed")
        assert server.open == 4
        assert cache.in_flight == 0
        assert cache.request(f"{origin}/later.png") is None
        assert cache.waiting == 5  # nothing more is queued after close
    finally:
        await server.down()


def test_files_not_used_for_a_month_are_pruned(tmp_path: Path) -> None:
    cache = ThumbnailCache(tmp_path / "thumbs")
    assert cache.prune() == 0  # no folder yet
    (tmp_path / "thumbs").mkdir()
    now = time.time()
    old = files_for(tmp_path / "thumbs", "https://cdn.example/old.png").small
    fresh = files_for(tmp_path / "thumbs", "https://cdn.example/fresh.png").small
    leftover = tmp_path / "thumbs" / ".abc.part"
    for path in (old, fresh, leftover):
        path.write_bytes(PNG)
    for path, days in ((old, KEEP_DAYS + 1), (fresh, KEEP_DAYS - 1), (leftover, KEEP_DAYS + 5)):
        os.utime(path, (now - days * 86_400, now - days * 86_400))

    assert cache.prune(now) == 2
    assert sorted(p.name for p in (tmp_path / "thumbs").iterdir()) == [fresh.name]


def closed_port() -> int:
    """A loopback port nothing listens on: connecting is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.asyncio
async def test_an_unreachable_server_is_tried_again_after_a_while_a_refusal_never(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    now = [1000.0]
    done: list[tuple[str, bool]] = []
    unreachable = f"http://127.0.0.1:{closed_port()}/storage/medias/a.png"
    missing = f"{sandbox.origin}/storage/medias/missing.png"
    async with running(ThumbnailCache(tmp_path, clock=lambda: now[0])) as cache:
        cache.listeners.append(lambda u, ok: done.append((u, ok)))
        cache.request(unreachable)
        cache.request(missing)
        await until(lambda: len(done) == 2, what="both failures")
        assert cache.failure(unreachable) is not None
        assert cache.failure(missing) == "the server answered 404"

        now[0] += RETRY_UNREACHABLE_S - 1  # repaints meanwhile ask nothing
        assert cache.request(unreachable) is None
        assert cache.request(missing) is None
        assert cache.requests_made == 2

        now[0] += 1
        assert cache.request(unreachable) is None  # asked again: one more try
        assert cache.request(missing) is None  # refused for good
        await until(lambda: len(done) == 3, what="the second try")
        assert cache.requests_made == 3
        assert done[2] == (unreachable, False)
