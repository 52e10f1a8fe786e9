"""The HTTP transport under the API client: httpcore's connection pool, whose check of idle
connections costs a system call instead of a Python walk through anyio's socket attributes.

Every time a request starts or ends, httpcore's pool asks each idle connection whether the server
closed it (`get_extra_info("is_readable")`). Through the default anyio backend each such question
builds a dictionary of the socket's attributes (a `getpeername` call among them) before polling
the socket: with the sync keeping 32 pages in flight, ~45 checks a page cost more CPU than the
page's validation (profiled in issue 14: a quarter of the event loop's time in the sync). Here the
socket is looked up once per connection and polled directly; the rest is the pool as httpx builds
it, through httpcore's and httpx's public interfaces (`AsyncNetworkBackend`, `AsyncBaseTransport`).
"""

# The `timeout` parameters are httpcore's interface (`AsyncNetworkStream`), passed through.
# ruff: noqa: ASYNC109

from __future__ import annotations

import select
import socket
import ssl
import typing
from collections.abc import AsyncIterator, Iterable

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


class _Stream(httpcore.AsyncNetworkStream):
    def __init__(self, inner: httpcore.AsyncNetworkStream) -> None:
        self._inner = inner
        self._socket: socket.socket | None = inner.get_extra_info("socket")

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return _Stream(await self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> typing.Any:
        if info == "is_readable":
            return _closed_or_readable(self._socket)
        return self._inner.get_extra_info(info)


class _Backend(httpcore.AsyncNetworkBackend):
    def __init__(self) -> None:
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return _Stream(
            await self._inner.connect_tcp(host, port, timeout, local_address, socket_options)
        )

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return _Stream(await self._inner.connect_unix_socket(path, timeout, socket_options))

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


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
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=_Backend(),
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
