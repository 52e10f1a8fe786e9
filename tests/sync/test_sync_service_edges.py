"""What "refresh now" asks the running sync for: a light refresh when asked for one, and a full
one whenever a full one was asked for, whatever else was asked in the same moment (sandbox over
loopback, its real SQLite)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from tests.sync.test_sync_service import Recorder, add_posts, connected, eventually, service_for


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[WorkspaceCache]:
    with WorkspaceCache(tmp_path / "cache.sqlite3") as opened:
        yield opened


def full_refreshes(recorder: Recorder) -> int:
    """A full refresh says "syncing" while it reads; a light one does not."""
    return recorder.phases.count("syncing")


@pytest.mark.asyncio
async def test_refresh_now_runs_the_kind_asked_for_and_full_wins(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    add_posts(sandbox, scheduled=5)
    recorder = Recorder()
    async with connected(sandbox) as client:
        service = service_for(client, cache, recorder)
        task = asyncio.create_task(service.run_forever(light_every=1e6, full_every=1e6))
        try:
            await eventually(
                lambda: full_refreshes(recorder) == 1 and recorder.phases[-1] == "idle"
            )
            assert service.requests_last_refresh == 0  # only a light refresh counts its reads

            service.request_refresh(full=False)
            await eventually(lambda: service.requests_last_refresh > 0)
            assert full_refreshes(recorder) == 1

            service.request_refresh(full=False)
            service.request_refresh(full=True)
            await eventually(lambda: full_refreshes(recorder) == 2)

            service.request_refresh(full=True)
            service.request_refresh(full=False)
            await eventually(lambda: full_refreshes(recorder) == 3)
            await eventually(lambda: recorder.phases[-1] == "idle")
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
