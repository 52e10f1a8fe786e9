"""While a refresh runs, cyclic garbage collection happens on the event loop's thread only: a
pass on the page worker could finalize Qt wrappers off their thread."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from app.sync import SyncService
from app.sync.gc_on_loop import collect_if_due, collections_on_loop
from tests.sync.test_sync_service import FAST, add_posts


@pytest.fixture
def gc_enabled() -> Iterator[None]:
    was = gc.isenabled()
    thresholds = gc.get_threshold()
    gc.enable()
    # CPython's young threshold: a test that ran the app before this one (in the same process)
    # left the app's settled one (`app.runtime.gc_policy`), 10,000, at which a refresh of this
    # size never makes a collection due.
    gc.set_threshold(700, *thresholds[1:])
    yield
    gc.set_threshold(*thresholds)
    if not was:
        gc.disable()


def test_automatic_collection_is_off_inside_and_back_after_the_last(gc_enabled: None) -> None:
    outer, inner = collections_on_loop(), collections_on_loop()
    with outer:
        assert not gc.isenabled()
        inner.__enter__()
    assert not gc.isenabled()  # the overlapping user is still inside
    inner.__exit__(None, None, None)
    assert gc.isenabled()


def test_a_process_with_collection_off_keeps_it_off(gc_enabled: None) -> None:
    gc.disable()
    with collections_on_loop():
        pass
    assert not gc.isenabled()


def test_what_is_due_is_collected_when_asked(gc_enabled: None) -> None:
    young = gc.get_threshold()[0]
    with collections_on_loop():
        keep = [[] for _ in range(young + 10)]  # tracked allocations past the threshold
        assert gc.get_count()[0] > young
        collect_if_due()
        assert gc.get_count()[0] < young
    del keep


@pytest.mark.asyncio
async def test_a_refresh_collects_on_the_loop_thread_only(
    sandbox: SandboxServer, tmp_path: Path, gc_enabled: None
) -> None:
    add_posts(sandbox, scheduled=200, drafts=40)
    passes: list[int] = []

    def watch(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            passes.append(threading.get_ident())

    with WorkspaceCache(tmp_path / "cache.sqlite3") as cache:
        async with ApiClient(sandbox.base_url, sandbox.keys.admin, retry=FAST) as client:
            sync = SyncService(client, cache, on_state=lambda _: None, on_changed=lambda _: None)
            gc.callbacks.append(watch)
            try:
                assert await sync.full_refresh() is True
            finally:
                gc.callbacks.remove(watch)
    assert passes, "the refresh allocates enough for collections to be due"
    assert set(passes) == {threading.get_ident()}
    assert gc.isenabled()
