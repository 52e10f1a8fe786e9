"""A loopback relay to a server that counts the requests whose request line starts a certain way
(`PUT /api/social-accounts/`): how many really left the client, seen from outside it."""

from __future__ import annotations

import asyncio
import contextlib

from tests.ui.app.proxy import Relay


class CountingRelay(Relay):
    def __init__(self, target_port: int, request_line: bytes) -> None:
        super().__init__(target_port)
        self.request_line = request_line
        self.count = 0

    async def _to_server(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
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
