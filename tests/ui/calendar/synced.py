"""A real `WorkspaceCache` filled by the real sync from a sandbox over loopback.

The in-memory source behaved differently from the cache once (a failed publish-now post showed in
one and not the other), so the interaction tests read what a user's calendar reads.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.api.client import ApiClient
from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from app.sync import SyncService


@dataclass(frozen=True)
class Planned:
    """A post arranged on the server before the sync."""

    when: datetime | None
    status: str = "scheduled"
    content: str = "Autumn blend: pre-orders open today, first bags ship Monday"
    platform: str = "linkedin"
    then: str | None = None
    """A status the post moves to afterwards, as the server would (e.g. published now)."""


async def _sync(server: SandboxServer, cache: WorkspaceCache) -> None:
    client = ApiClient(server.base_url, server.keys.admin)
    try:
        service = SyncService(client, cache, on_state=lambda _s: None, on_changed=lambda _: None)
        assert await service.full_refresh(), "the sync from the sandbox failed"
    finally:
        await client.aclose()


def synced_cache(folder: Path, planned: list[Planned]) -> tuple[WorkspaceCache, list[str]]:
    """Arrange `planned` on a fresh sandbox, sync it into a new cache; the post ids in order."""
    ids: list[str] = []
    cache = WorkspaceCache(folder / "workspace.sqlite3")
    with SandboxServer(folder / "sandbox.sqlite3", seed="empty") as server:
        for item in planned:
            account = server.store.account_id(item.platform)
            (post_id,) = server.store.insert_posts(
                1,
                account_id=account,
                status=item.status,
                scheduled_at=item.when,
                content=item.content,
            )
            ids.append(post_id)
            if item.then is not None:
                server.store.set_post_status(post_id, item.then)
        asyncio.run(_sync(server, cache))
    return cache, ids
