"""Edges of the transport that earlier tests left open (issue 18 §2): the advice a redirect
gets, which answers hold the whole workspace back, and what a later refusal says about a 429
whose body could not be read. The sandbox never answers so: a mock transport, or a small
loopback server where the bytes on the wire matter, stands in for the server."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import httpx
import pytest

from app.api import errors as e
from app.api.client import ApiClient
from app.api.connection_pool import PooledTransport
from app.api.retry import RetryPolicy
from app.api.transport import shared_ssl_context
from app.models.requests import LabelInput
from app.sandbox.harness import SandboxServer
from tests.api.helpers import FakeClock, Recorder, json_response, make_client, sandbox_client

MISSING_API = "The address is probably missing /api at the end."


@pytest.mark.asyncio
@pytest.mark.parametrize("base", ["https://example.test/apiX", "https://example.test/apiXX/"])
async def test_a_stray_letter_after_api_is_still_a_missing_api(base: str) -> None:
    """`/apiX` is not `/api`: a redirect to the real `/api/...` says the address lacks it."""
    recorder = Recorder(lambda _r: httpx.Response(302, headers={"Location": "/api/labels"}))
    client = ApiClient(
        base,
        "key",
        transport=httpx.MockTransport(recorder),
        retry=RetryPolicy(jitter=0.0),
        clock=FakeClock(),
    )
    async with client:
        with pytest.raises(e.Redirected) as caught:
            await client.labels.list()
    assert caught.value.location == "https://example.test/api/labels"
    assert caught.value.hint.startswith(MISSING_API)
    assert len(recorder.requests) == 1


@pytest.mark.asyncio
async def test_an_address_ending_in_extra_slashes_still_reaches_the_api(
    shared_demo: SandboxServer,
) -> None:
    """`https://host/api//` is the same address as `https://host/api`: requests go to
    `/api/labels`, not `/api//labels`."""
    async with sandbox_client(shared_demo) as reference:
        expected = [label.id for label in await reference.labels.list()]
    client = ApiClient(
        f"  {shared_demo.base_url}// ",
        shared_demo.keys.admin,
        retry=RetryPolicy(jitter=0.0),
        clock=FakeClock(),
    )
    async with client:
        labels = await client.labels.list()
    assert expected
    assert [label.id for label in labels] == expected
    assert client.base_url == shared_demo.base_url


# -- which answers hold the workspace back -----------------------------------------------------


@pytest.mark.asyncio
async def test_a_503_with_retry_after_on_a_write_does_not_hold_back_other_requests() -> None:
    """Only a 429 closes the workspace's gate; a write's 503 (not retried) is reported, and the
    next request leaves at once."""

    def answer(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return json_response(503, {"message": "Down for a moment"}, {"Retry-After": "30"})
        return json_response(200, [{"id": "l1", "name": "News"}])

    client, recorder, clock = make_client(answer)
    async with client:
        with pytest.raises(e.ServerError):
            await client.labels.create(LabelInput(name="Launch", color="#112233"))
        labels = await client.labels.list()
    assert [label.id for label in labels] == ["l1"]
    assert [r.method for r in recorder.requests] == ["POST", "GET"]
    assert clock.sleeps == []


class UnreadableRefusal(BaseHTTPRequestHandler):
    """Answers every request 429 `Retry-After: 99999` with a body that claims gzip but is not."""

    def do_GET(self) -> None:
        body = b"this is not gzip"
        self.send_response(429)
        self.send_header("Retry-After", "99999")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def refusing() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), UnreadableRefusal)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api"
    server.shutdown()
    server.server_close()


@pytest.mark.asyncio
async def test_a_429_whose_body_is_unreadable_still_says_what_the_server_asked(
    refusing: str,
) -> None:
    """The 429 holds the workspace as soon as its headers arrive; its body then fails. The next
    request is refused without being sent, and says what the server asked for."""
    async with ApiClient(refusing, "key", retry=RetryPolicy(jitter=0.0), clock=FakeClock()) as api:
        with pytest.raises(e.ProtocolError):
            await api.labels.list()
        with pytest.raises(e.RateLimited) as caught:
            await api.labels.list()
    assert caught.value.retry_after == pytest.approx(900)
    assert caught.value.hint == (
        "The server is limiting requests. Try again in 900 s. (The server asked for "
        "“Retry-After: 99999”; Postdesk waits between 1 s and 15 min. Retry now tries at once.)"
    )


# -- a request stopped at its last look keeps its attempts ---------------------------------------


class ManualClock:
    """Time moves only when the test says so; sleepers wait for it."""

    def __init__(self) -> None:
        self.time = 1_000.0
        self.sleeping: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        entry = (self.time + seconds, asyncio.get_running_loop().create_future())
        self.sleeping.append(entry)
        try:
            await entry[1]
        finally:
            self.sleeping.remove(entry)

    @property
    def sleepers(self) -> int:
        return sum(1 for _, future in self.sleeping if not future.done())

    def advance_to_next(self) -> None:
        waiting = [(deadline, future) for deadline, future in self.sleeping if not future.done()]
        self.time = max(self.time, min(deadline for deadline, _ in waiting))
        for deadline, future in waiting:
            if deadline <= self.time:
                future.set_result(None)


async def until(condition: Callable[[], bool]) -> None:
    """Waits for `condition` (the loopback server answers in real time); bounded."""
    for _ in range(5000):
        if condition():
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the condition never held")


class OneAtATime(PooledTransport):
    """A pool of one connection that notes each request handed to it (past the rate gate)."""

    def __init__(self) -> None:
        super().__init__(shared_ssl_context(), httpx.Limits(max_connections=1))
        self.entered: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.entered.append(request.url.path)
        return await super().handle_async_request(request)


class HeldServer(BaseHTTPRequestHandler):
    """Boards: the first answer waits for `release`, then is a 429 `Retry-After: 5`; later
    ones are empty lists. The workspace: always 503."""

    release: ClassVar[threading.Event] = threading.Event()
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.seen.append(self.path)
        if self.path.endswith("/boards"):
            if self.seen.count(self.path) == 1:
                self.release.wait(10)
                self._answer(429, b'{"message": "Too Many Attempts."}', {"Retry-After": "5"})
            else:
                self._answer(200, b"[]", {})
        else:
            self._answer(503, b'{"message": "Down for a moment"}', {})

    def _answer(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in {"Content-Type": "application/json", **headers}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def held_server() -> Iterator[tuple[str, type[HeldServer]]]:
    handler = type("Handler", (HeldServer,), {"release": threading.Event(), "seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api", handler
    handler.release.set()
    server.shutdown()
    server.server_close()


@pytest.mark.asyncio
async def test_a_request_stopped_unsent_by_a_429_keeps_all_its_attempts(
    held_server: tuple[str, type[HeldServer]],
) -> None:
    """The workspace read passed the rate gate, then waited for the one connection while the
    boards lookup on it got a 429. Stopped before its first byte (not an attempt), it waits the
    429 out and then still has both of its attempts: the server sees it twice."""
    base_url, server = held_server
    pool = OneAtATime()
    clock = ManualClock()
    api = ApiClient(
        base_url, "key", transport=pool, retry=RetryPolicy(max_attempts=2, jitter=0.0), clock=clock
    )
    async with api:
        boards = asyncio.ensure_future(api.lookups.boards("acc"))
        await until(lambda: len(server.seen) == 1)  # on the one connection, unanswered
        workspace = asyncio.ensure_future(api.workspace.workspace())
        await until(lambda: len(pool.entered) == 2)  # past the gate, waiting for the connection
        server.release.set()
        # Both wait out the 429 (the workspace read only once it was stopped at its last look).
        await until(lambda: clock.sleepers == 2)
        assert server.seen == ["/api/social-accounts/acc/boards"]
        for _ in range(20):  # each turn lets the earliest sleeper go
            await until(lambda: clock.sleepers > 0 or (boards.done() and workspace.done()))
            if boards.done() and workspace.done():
                break
            clock.advance_to_next()
        assert await boards == []
        with pytest.raises(e.ServerError):
            await workspace
    assert server.seen.count("/api/workspace") == 2


@pytest.mark.asyncio
async def test_retry_now_sends_a_request_waiting_out_a_429_at_once() -> None:
    """A request waiting out a 429 waits at the workspace's gate, so *Retry now* (which opens
    the gate) sends it at once, without the 30 s passing."""
    answers = iter(
        [
            json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "30"}),
            json_response(200, [{"id": "l1", "name": "News"}]),
        ]
    )
    clock = ManualClock()
    client, recorder, _ = make_client(lambda _r: next(answers), clock=clock)  # type: ignore[arg-type]
    async with client:
        listing = asyncio.ensure_future(client.labels.list())
        await until(lambda: clock.sleepers == 1)
        assert client.rate_gate.wait_remaining() == 30
        client.rate_gate.retry_now()
        await until(listing.done)
        labels = await listing
    assert [label.id for label in labels] == ["l1"]
    assert len(recorder.requests) == 2
    assert clock.time == 1_000.0
