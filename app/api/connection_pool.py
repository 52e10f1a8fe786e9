"""The HTTP transport under the API client: httpcore's connection pool, with the two parts of
its bookkeeping that grew with the number of connections made linear.

Every time a request starts or ends, httpcore's pool walks its connections: it asks each idle
one whether the server closed it (`get_extra_info("is_readable")`) and, for each idle one, counts
all of them again. Through the default anyio backend each readability question built a dictionary
of the socket's attributes (a `getpeername` call among them) before polling the socket. With the
sync keeping 32 pages in flight that was ~45 system calls and ~1,000 method calls a page, more CPU
than the page's validation (profiled in issue 14). Here one `poll` answers for every socket of the
pool once per pass (`_Readiness`), and the pass counts the connections once (`_Pool`).

`_Pool` replaces httpcore's `_assign_requests_to_connections`, the one hook the pool offers for
this (httpcore is pinned in constraints.txt; tests/api/test_connection_pool.py fails if the hook
goes away or behaves differently). The rest goes through httpcore's and httpx's public interfaces
(`AsyncNetworkBackend`, `AsyncBaseTransport`).
"""

# The `timeout` parameters are httpcore's interface (`AsyncNetworkStream`), passed through.
# ruff: noqa: ASYNC109

from __future__ import annotations

import contextlib
import select
import socket
import ssl
import typing
from collections.abc import AsyncIterator, Iterable, Iterator

import httpcore
import httpx

# httpcore's failures as the httpx ones the transport handles (`app.api.transport`).
_FAILURES: dict[type[Exception], type[httpx.TransportError]] = {
    httpcore.TimeoutException: httpx.TimeoutException,
    httpcore.ConnectTimeout: httpx.ConnectTimeout,
    httpcore.ReadTimeout: httpx.ReadTimeout,
    httpcore.WriteTimeout: httpx.WriteTimeout,
    httpcore.PoolTimeout: httpx.PoolTimeout,
    httpcore.NetworkError: httpx.NetworkError,
    httpcore.ConnectError: httpx.ConnectError,
    httpcore.ReadError: httpx.ReadError,
    httpcore.WriteError: httpx.WriteError,
    httpcore.ProxyError: httpx.ProxyError,
    httpcore.UnsupportedProtocol: httpx.UnsupportedProtocol,
    httpcore.ProtocolError: httpx.ProtocolError,
    httpcore.LocalProtocolError: httpx.LocalProtocolError,
    httpcore.RemoteProtocolError: httpx.RemoteProtocolError,
}


def as_httpx_failure(error: Exception) -> Exception:
    """The httpx error for an httpcore one (the most specific class that matches), else itself."""
    for kind in type(error).__mro__:
        mapped = _FAILURES.get(kind)
        if mapped is not None:
            return mapped(str(error))
    return error


def _closed_or_readable(sock: socket.socket | None) -> bool:
    """An idle HTTP/1.1 connection with something to read has been closed by the server (the
    only thing it may send unasked is the end of the stream)."""
    if sock is None or sock.fileno() < 0:
        return True
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        return bool(poller.poll(0))
    return bool(select.select([sock], [], [], 0)[0])  # Windows has no poll


class _Readiness:
    """Which of a pool's sockets have something to read: one `poll` of all of them per pass of
    the pool, however many idle connections the pass asks about. Outside a pass (or without
    `poll`, on Windows) each question polls its own socket."""

    def __init__(self) -> None:
        self._poller = select.poll() if hasattr(select, "poll") else None
        self._in_pass = False
        self._readable: set[int] | None = None  # fds with something to read, this pass

    def watch(self, sock: socket.socket | None) -> None:
        if self._poller is not None and sock is not None and sock.fileno() >= 0:
            self._poller.register(sock, select.POLLIN)

    def forget(self, sock: socket.socket | None) -> None:
        if self._poller is not None and sock is not None and sock.fileno() >= 0:
            with contextlib.suppress(KeyError):
                self._poller.unregister(sock)

    @contextlib.contextmanager
    def one_pass(self) -> Iterator[None]:
        self._in_pass, self._readable = True, None
        try:
            yield
        finally:
            self._in_pass, self._readable = False, None

    def closed_or_readable(self, sock: socket.socket | None) -> bool:
        if sock is None or sock.fileno() < 0:
            return True
        if not self._in_pass or self._poller is None:
            return _closed_or_readable(sock)
        if self._readable is None:
            self._readable = {fd for fd, _events in self._poller.poll(0)}
        return sock.fileno() in self._readable


class _Stream(httpcore.AsyncNetworkStream):
    def __init__(self, inner: httpcore.AsyncNetworkStream, readiness: _Readiness) -> None:
        self._inner = inner
        self._readiness = readiness
        self._socket: socket.socket | None = inner.get_extra_info("socket")
        readiness.watch(self._socket)

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        self._readiness.forget(self._socket)  # before the fd can be given to another socket
        await self._inner.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        inner = await self._inner.start_tls(ssl_context, server_hostname, timeout)
        return _Stream(inner, self._readiness)

    def get_extra_info(self, info: str) -> typing.Any:
        if info == "is_readable":
            return self._readiness.closed_or_readable(self._socket)
        return self._inner.get_extra_info(info)


class _Backend(httpcore.AsyncNetworkBackend):
    def __init__(self, readiness: _Readiness) -> None:
        self._inner = httpcore.AnyIOBackend()
        self._readiness = readiness

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return _Stream(
            await self._inner.connect_tcp(host, port, timeout, local_address, socket_options),
            self._readiness,
        )

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        stream = await self._inner.connect_unix_socket(path, timeout, socket_options)
        return _Stream(stream, self._readiness)

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _Pool(httpcore.AsyncConnectionPool):
    def __init__(self, readiness: _Readiness, **options: typing.Any) -> None:
        super().__init__(network_backend=_Backend(readiness), **options)
        self._readiness = readiness

    def _assign_requests_to_connections(self) -> list[httpcore.AsyncConnectionInterface]:
        """httpcore's pass, in one walk: drop closed connections, close expired ones and idle
        ones while the pool holds more than it keeps alive, then give each queued request an
        available connection, a new one while under the limit, or an idle one's place."""
        closing: list[httpcore.AsyncConnectionInterface] = []
        with self._readiness.one_pass():
            for connection in list(self._connections):
                if connection.is_closed():
                    self._connections.remove(connection)
                elif connection.has_expired() or (
                    connection.is_idle()
                    and len(self._connections) > self._max_keepalive_connections
                ):
                    self._connections.remove(connection)
                    closing.append(connection)
            for request in [request for request in self._requests if request.is_queued()]:
                origin = request.request.url.origin
                available = next(
                    (
                        connection
                        for connection in self._connections
                        if connection.can_handle_request(origin) and connection.is_available()
                    ),
                    None,
                )
                if available is None:
                    if len(self._connections) >= self._max_connections:
                        idle = next((c for c in self._connections if c.is_idle()), None)
                        if idle is None:
                            continue  # stays queued until a connection frees up
                        self._connections.remove(idle)
                        closing.append(idle)
                    available = self.create_connection(origin)
                    self._connections.append(available)
                request.assign_to_connection(available)
        return closing


class _Body(httpx.AsyncByteStream):
    def __init__(self, stream: AsyncIterator[bytes], closer: typing.Any) -> None:
        self._stream = stream
        self._closer = closer

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for part in self._stream:
                yield part
        except Exception as error:
            raise as_httpx_failure(error) from error

    async def aclose(self) -> None:
        await self._closer()


class PooledTransport(httpx.AsyncBaseTransport):
    """HTTP/1.1 over a pool of at most `limits.max_connections`, keeping
    `limits.max_keepalive_connections` idle ones for reuse (a new HTTPS connection costs round
    trips and a TLS handshake)."""

    def __init__(self, ssl_context: ssl.SSLContext, limits: httpx.Limits) -> None:
        self._pool = _Pool(
            _Readiness(),
            ssl_context=ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.AsyncByteStream)
        url = request.url
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=url.raw_scheme, host=url.raw_host, port=url.port, target=url.raw_path
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        try:
            answer = await self._pool.handle_async_request(core_request)
        except Exception as error:
            raise as_httpx_failure(error) from error
        stream = typing.cast(AsyncIterator[bytes], answer.stream)
        closer = getattr(answer.stream, "aclose", None) or _nothing
        return httpx.Response(
            status_code=answer.status,
            headers=answer.headers,
            stream=_Body(stream, closer),
            extensions=answer.extensions,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()


async def _nothing() -> None:
    return None
