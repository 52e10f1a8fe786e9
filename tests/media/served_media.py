"""Media for thumbnail tests: files at the real sandbox's public media route, and a server that
never answers (downloads that stay in flight)."""

from __future__ import annotations

import asyncio
import hashlib

from app.sandbox.harness import SandboxServer


def serve(sandbox: SandboxServer, name: str, mime: str, data: bytes) -> str:
    """A file at the sandbox's public media route (`/storage/medias/<name>`), as a post's media
    item would have it."""
    blob_id = hashlib.sha256(data + mime.encode()).hexdigest()[:32]
    with sandbox.store.tx() as db:
        workspace = db.one("SELECT id FROM workspaces LIMIT 1")["id"]
        db.run(
            "INSERT OR IGNORE INTO blobs (id, mime_type, data) VALUES (?, ?, ?)",
            (blob_id, mime, data),
        )
        db.insert(
            "media",
            {
                "id": f"m-{name}",
                "workspace_id": workspace,
                "post_id": None,
                "blob_id": blob_id,
                "path": f"medias/{name}",
                "type": "image",
                "mime_type": mime,
                "original_filename": name,
                "created_at": "2026-01-01 00:00:00",
            },
        )
    return f"{sandbox.origin}/storage/medias/{name}"


class StallingServer:
    """Accepts connections and never answers: downloads that stay in flight."""

    def __init__(self) -> None:
        self.open = 0
        self.closed = 0
        self._server: asyncio.Server | None = None

    async def up(self) -> str:
        self._server = await asyncio.start_server(self._hold, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def _hold(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.open += 1
        try:
            while await reader.read(65536):
                pass  # the request arrives; no answer ever leaves
        finally:
            self.closed += 1
            writer.close()

    async def down(self) -> None:
        if self._server is not None:
            self._server.close()
