"""The API client's connection pool (`app.api.connection_pool`), against a bare HTTP/1.1 server
on loopback that counts the connections it is given."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator

import httpcore
import httpx
import pytest
import pytest_asyncio

from app.api.connection_pool import PooledTransport, as_httpx_failure
from app.api.transport import POOL_LIMITS

_ANSWER = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"


class CountingServer:
    """Answers every request `{}` on a kept-alive connection. `hold_for`: answers wait until
    that many requests are waiting (so that they are really in flight at once)."""

    def __init__(self) -> None:
        self.connections = 0
        self.open = 0
        self.peak = 0
        self.hold_for = 0
        self.close_after_answer = False
        self.closed = asyncio.Event()
        self._waiting = 0
        self._all_in = asyncio.Event()
        self._server: asyncio.Server | None = None
        self.url = ""

    async def __aenter__(self) -> CountingServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    def hold(self, count: int) -> None:
        self.hold_for, self._waiting = count, 0
        self._all_in = asyncio.Event()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.open += 1
        self.peak = max(self.peak, self.open)
        try:
            while await reader.readuntil(b"\r\n\r\n"):
                if self.hold_for:
                    self._waiting += 1
                    if self._waiting >= self.hold_for:
                        self._all_in.set()
                    await self._all_in.wait()
                writer.write(_ANSWER)
                await writer.drain()
                if self.close_after_answer:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        self.open -= 1
        writer.close()
        await writer.wait_closed()
        self.closed.set()


@pytest_asyncio.fixture
async def server() -> AsyncIterator[CountingServer]:
    async with CountingServer() as running:
        yield running


def _client(server: CountingServer) -> httpx.AsyncClient:
    transport = PooledTransport(ssl.create_default_context(), POOL_LIMITS)
    return httpx.AsyncClient(base_url=server.url, transport=transport)


@pytest.mark.asyncio
async def test_as_many_connections_are_kept_as_a_sync_keeps_pages_in_flight(
    server: CountingServer,
) -> None:
    """With httpx's default (20 kept), every page past the 20th opened a new connection: on
    HTTPS a TLS handshake and round trips each."""
    kept = POOL_LIMITS.max_keepalive_connections
    assert kept is not None
    assert kept >= 32
    async with _client(server) as client:
        server.hold(kept)
        answers = await asyncio.gather(*(client.get("/posts") for _ in range(kept)))
        assert {answer.status_code for answer in answers} == {200}
        assert server.connections == kept
        server.hold(kept)
        await asyncio.gather(*(client.get("/posts") for _ in range(kept)))
        assert server.connections == kept  # every one reused, none opened


@pytest.mark.asyncio
async def test_a_connection_the_server_closed_while_idle_is_not_used_again(
    server: CountingServer,
) -> None:
    server.close_after_answer = True
    async with _client(server) as client:
        assert (await client.get("/one")).json() == {}
        await server.closed.wait()  # the server's end is gone before the next request leaves
        assert (await client.get("/two")).json() == {}  # not a read error on the dead one
    assert server.connections == 2


@pytest.mark.asyncio
async def test_failures_come_out_as_the_httpx_errors_the_transport_handles() -> None:
    probe = await asyncio.start_server(lambda _r, _w: None, "127.0.0.1", 0)
    port = probe.sockets[0].getsockname()[1]
    probe.close()
    await probe.wait_closed()  # nothing listens there any more
    transport = PooledTransport(ssl.create_default_context(), POOL_LIMITS)
    async with httpx.AsyncClient(transport=transport) as client:
        with pytest.raises(httpx.ConnectError):
            await client.get(f"http://127.0.0.1:{port}/posts")


def test_the_most_specific_httpx_error_is_chosen() -> None:
    assert type(as_httpx_failure(httpcore.ConnectTimeout("slow"))) is httpx.ConnectTimeout
    assert type(as_httpx_failure(httpcore.ReadError("reset"))) is httpx.ReadError
    other = ValueError("not a transport failure")
    assert as_httpx_failure(other) is other


@pytest.mark.asyncio
async def test_past_the_kept_number_idle_connections_close_and_queued_requests_wait(
    server: CountingServer,
) -> None:
    """The pool's own pass (`_Pool`) keeps httpcore's rules: at most `max_connections` at once
    (the rest wait their turn, none is dropped), and once idle no more than the kept number."""
    limits = httpx.Limits(max_connections=6, max_keepalive_connections=3, keepalive_expiry=5.0)
    transport = PooledTransport(ssl.create_default_context(), limits)
    async with httpx.AsyncClient(base_url=server.url, transport=transport) as client:
        server.hold(6)  # the first six are answered together; four more queue behind them
        answers = await asyncio.gather(*(client.get(f"/posts?page={n}") for n in range(10)))
        assert [answer.status_code for answer in answers] == [200] * 10
        assert server.peak == 6  # never more at once; the queued ones waited, none was dropped
        server.hold(0)
        opened = server.connections
        for _ in range(4):
            await client.get("/posts")
        assert server.connections == opened  # idle ones were kept and reused
        async with asyncio.timeout(10):  # the surplus over the kept three is closed
            while server.open > 3:
                server.closed.clear()
                await server.closed.wait()
        assert server.open == 3


@pytest.mark.asyncio
async def test_one_look_at_the_sockets_serves_a_whole_pass_of_the_pool(
    server: CountingServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every pass asked each idle connection's socket on its own (a system call each: ~45 a
    page in a 32-page sync); now one poll per pass answers for all of them."""
    import select

    real_poll = select.poll
    polls: list[int] = []

    class CountingPoll:
        def __init__(self) -> None:
            self._inner = real_poll()

        def register(self, fd: int, events: int) -> None:
            self._inner.register(fd, events)

        def unregister(self, fd: int) -> None:
            self._inner.unregister(fd)

        def poll(self, timeout: float | None = None) -> list[tuple[int, int]]:
            polls.append(1)
            return self._inner.poll(timeout)

    monkeypatch.setattr(select, "poll", CountingPoll)
    async with _client(server) as client:
        server.hold(16)
        await asyncio.gather(*(client.get("/posts") for _ in range(16)))
        polls.clear()
        for _ in range(8):  # one at a time: each pass sees 15 idle connections
            await client.get("/posts")
        assert 0 < len(polls) <= 8 * 3  # a few passes a request, not 15 polls each
