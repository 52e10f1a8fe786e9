"""Edges of the resource classes that earlier tests left open (issue 18 §2): pages validated where
the caller asked, one page at a time unless asked otherwise, lists that are not mended, the media
type an upload declares, a track read refused by the server, the words of an unusable signing
secret, and the server's clock as the answers show it. Real sandbox over loopback where it can
answer so; a mock transport where the sandbox cannot (a 429, a bad item)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TypeVar

import httpx
import pytest

from app.api import errors as e
from app.api.server_clock import ServerClock
from app.api.webhook_signing import sign
from app.models.audio import AudioAsset
from app.models.requests import BatchRequest, Destination, MediaRef
from app.sandbox.harness import SandboxServer
from app.sandbox.media_files import gradient_png
from tests.api.helpers import json_response, make_client, posts_page, sandbox_client

T = TypeVar("T")


class ThreadOffload:
    """An `Offload` that runs each parsing job on a worker thread and notes which one."""

    def __init__(self) -> None:
        self.threads: list[int] = []

    async def __call__(self, job: Callable[[], T], /) -> T:
        def run() -> T:
            self.threads.append(threading.get_ident())
            return job()

        return await asyncio.to_thread(run)


# -- posts: validated through the offload the caller gave ------------------------------------


@pytest.mark.asyncio
async def test_one_page_of_posts_is_validated_on_the_offload_thread(
    shared_demo: SandboxServer,
) -> None:
    offload = ThreadOffload()
    async with sandbox_client(shared_demo) as client:
        page = await client.posts.page(1, offload=offload)
    assert page.data
    assert len(offload.threads) == 1
    assert offload.threads[0] != threading.get_ident()


@pytest.mark.asyncio
async def test_every_page_of_a_walk_is_validated_on_the_offload_thread(
    shared_demo: SandboxServer,
) -> None:
    offload = ThreadOffload()
    async with sandbox_client(shared_demo) as client:
        pages = [page async for page in client.posts.iter_pages(offload=offload)]
    assert len(pages) > 1
    assert len(offload.threads) == len(pages)
    assert threading.get_ident() not in offload.threads


@pytest.mark.asyncio
async def test_a_walk_reads_one_page_at_a_time_unless_asked_for_more() -> None:
    in_flight = [0]
    peak = [0]

    async def answer(request: httpx.Request) -> httpx.Response:
        in_flight[0] += 1
        peak[0] = max(peak[0], in_flight[0])
        for _ in range(20):  # let another request start, if one may
            await asyncio.sleep(0)
        in_flight[0] -= 1
        return json_response(200, posts_page(int(request.url.params["page"]), last_page=4))

    client, recorder, _ = make_client(answer)
    async with client:
        pages = [page async for page in client.posts.iter_pages()]
    assert [page.meta.current_page for page in pages] == [1, 2, 3, 4]
    assert len(recorder.requests) == 4
    assert peak[0] == 1


@pytest.mark.asyncio
async def test_one_page_asked_for_outside_a_walk_waits_out_a_429_and_is_read() -> None:
    """Outside a walk nothing else reacts to a 429: the request itself waits for Retry-After
    and asks again."""
    answers = iter(
        [
            json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "3"}),
            json_response(200, posts_page(1, last_page=1)),
        ]
    )
    client, recorder, clock = make_client(lambda _r: next(answers))
    async with client:
        page = await client.posts.page(1)
    assert len(page.data) == 15
    assert len(recorder.requests) == 2
    assert sum(clock.sleeps) >= 3


@pytest.mark.asyncio
async def test_an_empty_answer_where_data_was_expected_names_the_request() -> None:
    client, _, _ = make_client(lambda _r: httpx.Response(200, content=b""))
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.labels.list()
    assert caught.value.message == "The server's answer to GET /labels was empty."


@pytest.mark.asyncio
async def test_a_channel_list_of_another_shape_names_the_request_as_sent() -> None:
    """The words name the request as it went out (`GET`), whatever the answer was."""
    client, _, _ = make_client(lambda _r: json_response(200, {"message": "Maintenance"}))
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.accounts.list()
    assert caught.value.message.startswith(
        "The server's answer to GET /social-accounts does not have the expected shape ("
    )


@pytest.mark.asyncio
async def test_an_unreadable_channel_is_reported_under_the_request_as_sent() -> None:
    listed = [{"id": "a1", "platform": None}, {"id": "a2", "platform": "x"}]
    client, _, _ = make_client(lambda _r: json_response(200, listed))
    async with client:
        accounts = await client.accounts.list()
    assert [account.id for account in accounts] == ["a2"]
    assert [(item.id, item.source) for item in accounts.unreadable] == [
        ("a1", "GET /social-accounts")
    ]


# -- lists that are not mended -----------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_signature_without_a_readable_name_is_left_out_not_shown_nameless() -> None:
    """Only posts and labels are mended: a signature whose name cannot be read is reported as
    unreadable and left out of the list, never offered with an empty name."""
    body = {
        "data": [
            {"id": "s1", "name": None, "content": "Best, Ana"},
            {"id": "s2", "name": "Team", "content": "The team"},
        ],
        "meta": {"current_page": 1, "last_page": 1, "per_page": 15, "total": 2},
    }
    client, _, _ = make_client(lambda _r: json_response(200, body))
    async with client:
        listed = [signature async for signature in client.signatures.iter_items()]
        every = await client.signatures.all()
        page = await client.signatures.page(1)
    assert [(s.id, s.name) for s in listed] == [("s2", "Team")]
    assert [(s.id, s.name) for s in every] == [("s2", "Team")]
    assert [(s.id, s.name) for s in page.data] == [("s2", "Team")]
    assert [(item.id, item.kept) for item in page.unreadable] == [("s1", False)]


# -- uploads: the media type the caller declared -------------------------------------------------


@pytest.mark.asyncio
async def test_an_upload_keeps_the_media_type_it_was_given_over_the_file_name(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    """A file whose name says nothing (`.upload`) uploaded as `image/png`: the server is told
    it is a PNG, not `application/octet-stream`."""
    image = tmp_path / "beans.upload"
    image.write_bytes(gradient_png(4, 3, (0, 0, 0), (255, 255, 255)))
    async with sandbox_client(sandbox) as client:
        token = await client.uploads.upload(image, "image/png")
        [post] = await client.posts.create_batch(
            BatchRequest(
                content="With a picture",
                media=[MediaRef(upload_token=token)],
                destinations=[
                    Destination(
                        social_account_id=sandbox.store.account_id("x"), content_type="x_post"
                    )
                ],
            )
        )
    [media] = post.media
    assert media.mime_type == "image/png"
    assert media.original_filename == "beans.upload"


# -- a track read that the server refuses ------------------------------------------------------

TRACK = {
    "id": "1234567890",
    "type": "music",
    "title": "Morning Light",
    "artist": "Ana",
    "duration_ms": 61000,
}
TRACK_PATH = "/api/social-accounts/acc/instagram-audio/1234567890"


def slow_down(_request: httpx.Request) -> httpx.Response:
    return json_response(429, {"message": "Slow down"}, {"Retry-After": "5"})


@pytest.mark.asyncio
async def test_a_track_read_refused_by_the_server_passes_its_429_on_at_once() -> None:
    """Without `wait`, the server's own refusal (its words) is what the caller gets, after one
    request, not the client's budget message."""
    client, recorder, clock = make_client(slow_down)
    async with client:
        with pytest.raises(e.RateLimited) as caught:
            await client.audio.track("acc", AudioAsset.model_validate(TRACK))
    assert type(caught.value) is e.RateLimited
    assert caught.value.message == "Slow down"
    assert recorder.paths == [TRACK_PATH]
    assert clock.sleeps == []


@pytest.mark.asyncio
async def test_a_waiting_track_read_refused_a_third_time_passes_the_429_on() -> None:
    client, recorder, clock = make_client(slow_down)
    async with client:
        with pytest.raises(e.RateLimited) as caught:
            await client.audio.track("acc", AudioAsset.model_validate(TRACK), wait=True)
    assert type(caught.value) is e.RateLimited
    assert caught.value.message == "Slow down"
    assert recorder.paths == [TRACK_PATH] * 3
    assert clock.sleeps == [5, 5]


# -- covers: only http(s) links are fetched ---------------------------------------------------


class CoverFiles:
    """A loopback file server standing in for the covers' CDN; notes every request."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        files = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                files.seen.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", "3")
                self.end_headers()
                self.wfile.write(b"png")

            def log_message(self, *_args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.host = f"127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def cover_files(monkeypatch: pytest.MonkeyPatch) -> Iterator[CoverFiles]:
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    files = CoverFiles()
    yield files
    files.close()


@pytest.mark.asyncio
async def test_a_cover_link_that_is_not_http_is_never_fetched(cover_files: CoverFiles) -> None:
    """A `ws://` link (which the HTTP library would fetch as plain HTTP) is not a CDN's: no
    request goes out for it. The same file over http:// is fetched."""
    client, _, _ = make_client(slow_down)
    async with client:
        assert await client.audio.cover(f"ws://{cover_files.host}/c.png") is None
        assert cover_files.seen == []
        assert await client.audio.cover(f"http://{cover_files.host}/c.png") == b"png"
    assert cover_files.seen == ["/c.png"]


# -- webhook signing ---------------------------------------------------------------------------


def test_an_empty_signing_secret_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="secret") as caught:
        sign(b"{}", "")
    assert str(caught.value) == "A webhook signing secret cannot be empty."


# -- the server's clock as its answers show it -------------------------------------------------


def test_a_local_moment_is_moved_by_both_the_clock_and_the_reading_difference() -> None:
    """This computer 10 minutes slow, and a profile zone that reads the server's times 9 h
    early: a local moment is shown 10 minutes later and 9 hours earlier."""
    local_now = datetime(2026, 11, 27, 8, 0, 0, tzinfo=UTC)
    clock = ServerClock(wall=lambda: local_now)
    clock.observe_date("Fri, 27 Nov 2026 08:10:00 GMT")
    server_now = datetime(2026, 11, 27, 8, 10, 0, tzinfo=UTC)
    clock.observe_created(server_now - timedelta(hours=9))
    assert clock.reading_offset == timedelta(hours=-9)
    moment = datetime(2026, 11, 27, 12, 0, 0, tzinfo=UTC)
    expected = moment + timedelta(minutes=10, seconds=0.5) - timedelta(hours=9)
    assert clock.to_read_time(moment) == expected
    assert clock.read_now() == local_now + timedelta(minutes=10, seconds=0.5) - timedelta(hours=9)
