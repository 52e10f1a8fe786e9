"""Run the app with uvicorn on a socket we bind ourselves (so port 0 works and is known)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from types import FrameType

import uvicorn
from fastapi import FastAPI


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto must be IPPROTO_TCP (not 0) or asyncio skips TCP_NODELAY on accepted connections,
    # and every keep-alive response then waits ~40 ms on Nagle + delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def base_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


class LoopbackServer(uvicorn.Server):
    """uvicorn.Server that reports readiness and stops promptly on request.

    The stock main loop polls `should_exit` every 0.1 s; tests start and stop a server per test,
    so stopping is driven by an event instead.
    """

    def __init__(self, app: FastAPI, on_ready: Callable[[], None] | None = None) -> None:
        config = uvicorn.Config(
            app,
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="off",
            ws="none",
            http="h11",
            loop="asyncio",
            timeout_graceful_shutdown=2,
        )
        super().__init__(config)
        self._on_ready = on_ready
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        await super().startup(sockets)
        if self.started and self._on_ready is not None:
            self._on_ready()

    async def main_loop(self) -> None:
        assert self._stop is not None
        counter = 0
        # The Date header from the first answer on (uvicorn sets it on a tick; clients read the
        # server's time from it).
        await self.on_tick(counter)
        while not self.should_exit:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=1.0)
            counter += 10  # on_tick refreshes the Date header every 10th tick
            if await self.on_tick(counter):
                break

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        # Same steps as uvicorn's shutdown minus its fixed 0.1 s pause, which would otherwise
        # dominate test suites that start a server per test. Lifespan is off, so it has no hook.
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.config.timeout_graceful_shutdown or 0)
        busy = self.server_state
        # uvicorn offers no "drained" event to await, hence the short poll.
        while (busy.connections or busy.tasks) and loop.time() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        for task in self.server_state.tasks:
            task.cancel()
        for server in self.servers:
            await server.wait_closed()

    def request_stop(self) -> None:
        """Thread-safe (and signal-safe) request to shut down."""
        self.should_exit = True
        if self._loop is not None and self._stop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stop.set)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        self.request_stop()
