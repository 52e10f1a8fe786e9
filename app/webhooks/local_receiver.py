"""*Listen locally* (issue 17 §7): a small HTTP receiver on 127.0.0.1 that checks each request's
`X-Webhook-Signature` with the webhook's secret and reports every request (headers, raw body,
verified or why not), so a developer sees exactly what their receiver would get: deliveries
from a server on this machine or network, or *Replay to local URL* from any.

Plain asyncio streams, no Qt and no web framework: it reads one request per connection (the
service and `Replay to local URL` send one), answers 200 when the signature verifies and 401
when it does not (what a careful receiver does), and closes. Bodies above `MAX_BODY` are
refused with 413. It listens on the loopback address only.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.api.webhook_signing import SIGNATURE_HEADER, verify

HOST = "127.0.0.1"
MAX_BODY = 1_000_000
MAX_HEADER_LINES = 100
READ_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class ReceivedRequest:
    at: float
    """time.time() when it arrived."""
    method: str
    path: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    verified: bool
    verdict: str
    """Why it is or is not verified, in words."""
    answered: int

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)


def judge(body: bytes, signature: str | None, secret: str | None) -> tuple[bool, str]:
    if not secret:
        return False, "No secret to check with: choose the webhook whose deliveries come here."
    if signature is None:
        return False, f"No {SIGNATURE_HEADER} header."
    if verify(body, signature, secret):
        return True, "Signature verified with the webhook's secret."
    return False, (
        "Signature does not match: signed with another secret (rotated?), or the body changed "
        "on the way (it must be checked on the raw bytes)."
    )


class LocalReceiver:
    def __init__(self, on_request: Callable[[ReceivedRequest], None]) -> None:
        self._on_request = on_request
        self.secret: str | None = None
        """Held in memory only, while listening; cleared by `stop()`."""
        self._server: asyncio.Server | None = None
        self.port: int | None = None
        self.received: list[ReceivedRequest] = []

    @property
    def listening(self) -> bool:
        return self._server is not None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/webhooks" if self.port else ""

    async def start(self, port: int, secret: str | None) -> None:
        """Listen on 127.0.0.1:`port` (0: any free port). Raises OSError (e.g. in use)."""
        await self.stop()
        self.secret = secret
        self._server = await asyncio.start_server(self._serve, HOST, port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        server, self._server = self._server, None
        self.secret = None
        self.port = None
        if server is not None:
            server.close()
            await server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await asyncio.wait_for(self._one(reader, writer), READ_TIMEOUT_S)
        except (TimeoutError, ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def _one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request_line = (await reader.readline()).decode("latin-1").strip()
        parts = request_line.split(" ")
        if len(parts) != 3:
            await _answer(writer, 400, "bad request line")
            return
        method, path, _version = parts
        headers: list[tuple[str, str]] = []
        for _ in range(MAX_HEADER_LINES):
            line = (await reader.readline()).decode("latin-1")
            if line in ("\r\n", "\n", ""):
                break
            name, _, value = line.partition(":")
            headers.append((name.strip(), value.strip()))
        lengths = [value for name, value in headers if name.lower() == "content-length"]
        length = int(lengths[0]) if lengths else 0
        if length > MAX_BODY or length < 0:
            await _answer(writer, 413, "body too large")
            return
        body = await reader.readexactly(length) if length else b""
        signature = next(
            (value for name, value in headers if name.lower() == SIGNATURE_HEADER.lower()), None
        )
        verified, verdict = judge(body, signature, self.secret)
        status = 200 if verified else 401
        request = ReceivedRequest(
            time.time(), method, path, tuple(headers), body, verified, verdict, status
        )
        self.received.append(request)
        await _answer(writer, status, "ok" if verified else "signature not verified")
        self._on_request(request)


async def _answer(writer: asyncio.StreamWriter, status: int, text: str) -> None:
    reason = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 413: "Payload Too Large"}
    body = text.encode("utf-8")
    writer.write(
        f"HTTP/1.1 {status} {reason.get(status, '')}\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode("ascii")
        + body
    )
    await writer.drain()
