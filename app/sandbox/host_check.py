"""The sandbox answers only requests addressed to it by a loopback name (issue 19 §4).

A web page can make a browser send requests to `127.0.0.1:<port>` under its own host name (DNS
rebinding: `evil.example` resolving to 127.0.0.1). Such requests still carry that name in
`Host`; requests sent to the sandbox by its address carry `127.0.0.1:<port>`,
`localhost:<port>` or `[::1]:<port>`. Anything else gets a 421 and nothing is read or done.
"""

from __future__ import annotations

import json
import socket

from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})


def allowed_hosts(sock: socket.socket) -> frozenset[str]:
    """The `Host` values that name the server bound to `sock` (with its port)."""
    host, port = sock.getsockname()[:2]
    names = set(LOOPBACK_NAMES)
    if host not in ("0.0.0.0", "::"):  # bound to one address: that address names it too
        names.add(f"[{host}]" if ":" in host else host)
    return frozenset(f"{name}:{port}" for name in names)


def check_host(app: FastAPI, sock: socket.socket, *, any_port: bool = False) -> None:
    """Refuse, in `app`, any request whose `Host` does not name the server on `sock`.
    `any_port`: the name alone is checked (the tests' harness, reached through relays that
    listen on ports of their own; the name is what stops a rebinding page)."""
    allowed = allowed_hosts(sock)
    if any_port:
        allowed = frozenset(name.rsplit(":", 1)[0] for name in allowed)
    app.add_middleware(HostCheck, allowed=allowed, any_port=any_port)


class HostCheck:
    """ASGI middleware: 421 Misdirected Request unless `Host` is one of `allowed`."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str], any_port: bool = False) -> None:
        self.app = app
        self.allowed = frozenset(name.lower() for name in allowed)
        self.any_port = any_port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._host(scope) in self.allowed:
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {
                "message": "This server answers only requests addressed to 127.0.0.1, "
                "localhost or [::1] on its port."
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 421,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _host(self, scope: Scope) -> str:
        hosts = [value for name, value in scope.get("headers", []) if name == b"host"]
        if len(hosts) != 1:  # none, or two that could be read either way
            return ""
        host = hosts[0].decode("latin-1").strip().lower()
        return _without_port(host) if self.any_port else host


def _without_port(host: str) -> str:
    if host.startswith("["):  # [::1]:8000
        return host.split("]", 1)[0] + "]"
    name, _, port = host.rpartition(":")
    return name if name and port.isdigit() else host
