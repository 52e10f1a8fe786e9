"""A collection the deployment lacks (`/labels` on the reduced route set) is asked once a
session, not at every sync (issue 14 §4)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.store import WorkspaceCache
from tests.sync.test_sync_edge_cases import Harness, listing, scheduled


@pytest.mark.asyncio
async def test_labels_answered_404_are_not_asked_again_at_the_next_syncs(tmp_path: Path) -> None:
    asked: list[str] = []
    serve = listing(scheduled(20))

    def counting(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        return serve(request)

    with WorkspaceCache(tmp_path / "c.sqlite3") as cache:
        harness = Harness(cache, counting)
        try:
            for _ in range(3):
                assert await harness.service.full_refresh() is True
        finally:
            await harness.client.aclose()
        assert cache.count_posts() == 20
        assert cache.labels() == []
    assert asked.count("/api/labels") == 1
    assert harness.service.labels_available is False
