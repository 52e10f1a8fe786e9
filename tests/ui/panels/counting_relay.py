"""A loopback relay to a server that counts the requests whose request line starts a certain way
(`PUT /api/social-accounts/`): how many really left the client, seen from outside it."""

from __future__ import annotations

import asyncio
import contextlib


class CountingRelay:
    def __init__(self, target_port: int, request_line: bytes) -> None:
        self.target_port = target_port
        self.request_line = request_line
        self.count = 0
        self.port = 0
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.Task[None]] = set()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    async def up(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
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
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
            await asyncio.gather(self._count(reader, up_writer), _pump(up_reader, writer))
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self._links.discard(task)
            writer.close()

    async def _count(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        tail = b""  # a request line cut between two reads is still counted once
        keep = len(self.request_line) - 1
        try:
            while data := await reader.read(65536):
                seen = tail + data
                self.count += seen.count(self.request_line)
                tail = seen[-keep:] if keep else b""
                writer.write(data)
                await writer.drain()
        finally:
            with contextlib.suppress(OSError):
                writer.close()


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        with contextlib.suppress(OSError):
            writer.close()
