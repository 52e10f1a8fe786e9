"""The GIL switch interval is short while a refresh runs (the GUI thread gets the GIL back
quickly from the page worker and the cache writer) and restored afterwards."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api import resource
from app.api.client import ApiClient
from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from app.sync import SyncService
from app.sync.gil_handoff import HANDOFF_INTERVAL_S, quick_handoff
from tests.sync.test_sync_service import FAST, add_posts


@pytest.fixture
def default_interval() -> Iterator[float]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    yield 0.005
    sys.setswitchinterval(before)


def test_shortened_inside_and_restored_by_the_last_one_out(default_interval: float) -> None:
    first, second = quick_handoff(), quick_handoff()
    with first:
        assert sys.getswitchinterval() == pytest.approx(HANDOFF_INTERVAL_S)
        second.__enter__()
    # The second (overlapping) user is still inside: still short.
    assert sys.getswitchinterval() == pytest.approx(HANDOFF_INTERVAL_S)
    second.__exit__(None, None, None)
    assert sys.getswitchinterval() == pytest.approx(default_interval)


def test_an_interval_already_shorter_is_kept(default_interval: float) -> None:
    sys.setswitchinterval(HANDOFF_INTERVAL_S / 2)
    with quick_handoff():
        assert sys.getswitchinterval() == pytest.approx(HANDOFF_INTERVAL_S / 2)
    assert sys.getswitchinterval() == pytest.approx(HANDOFF_INTERVAL_S / 2)


def test_restored_after_a_failure(default_interval: float) -> None:
    with pytest.raises(RuntimeError), quick_handoff():
        raise RuntimeError("boom")
    assert sys.getswitchinterval() == pytest.approx(default_interval)


@pytest.mark.asyncio
async def test_a_refresh_runs_with_the_short_interval(
    sandbox: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    default_interval: float,
) -> None:
    add_posts(sandbox, scheduled=40)
    seen: list[float] = []
    original = resource.validate

    def observed(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("what") == "GET /posts":
            seen.append(sys.getswitchinterval())
        return original(*args, **kwargs)

    monkeypatch.setattr(resource, "validate", observed)
    with WorkspaceCache(tmp_path / "cache.sqlite3") as cache:
        async with ApiClient(sandbox.base_url, sandbox.keys.admin, retry=FAST) as client:
            sync = SyncService(client, cache, on_state=lambda _: None, on_changed=lambda _: None)
            assert await sync.full_refresh() is True
            assert await sync.light_refresh() is True
            light_pages = sync.requests_last_refresh
    assert light_pages >= 1
    assert len(seen) == 3 + light_pages
    assert seen == pytest.approx([HANDOFF_INTERVAL_S] * len(seen))
    assert sys.getswitchinterval() == pytest.approx(default_interval)
