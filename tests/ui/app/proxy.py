"""A loopback TCP relay the test can switch off and on: a real "connection lost, then back"."""

from __future__ import annotations

import asyncio
import contextlib


class Relay:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.Task[None]] = set()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    async def up(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def down(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()
            await server.wait_closed()
        for task in list(self._links):
            task.cancel()
        await asyncio.gather(*self._links, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._links.add(task)
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(
                "127.0.0.1", self.target_port
            )
            await asyncio.gather(
                self._to_server(reader, upstream_writer), _pump(upstream_reader, writer)
            )
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self._links.discard(task)
            writer.close()

    async def _to_server(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """What the client sends, passed on (a subclass may watch it on the way)."""
        await _pump(reader, writer)


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        with contextlib.suppress(OSError):
            writer.close()
