"""The sync parses pages off the event loop, on a worker its refresh owns: against the sandbox
over loopback, with real SQLite. The parsing functions are observed (wrapped), not replaced."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api import resource
from app.api.client import ApiClient
from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from app.store.local_store import LocalStore
from app.sync import SyncService, service
from app.sync.outbox import Outbox, OutboxState
from app.sync.outbox_sender import OutboxSender
from app.sync.page_worker import THREAD_NAME, PageWorker
from tests.api.helpers import sandbox_client
from tests.sync.test_outbox import batch
from tests.sync.test_sync_service import FAST, add_posts, eventually


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[WorkspaceCache]:
    with WorkspaceCache(tmp_path / "cache.sqlite3") as opened:
        yield opened


def sync_for(client: ApiClient, cache: WorkspaceCache) -> SyncService:
    return SyncService(client, cache, on_state=lambda _: None, on_changed=lambda _: None)


def parse_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(THREAD_NAME)]


def many_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    """As when the server is far away: the walk keeps many pages in flight, so they are parsed
    on the worker (with only a few in flight they are parsed on the loop's thread)."""
    monkeypatch.setattr(SyncService, "_parse_here", lambda _self: False)


@pytest.mark.asyncio
async def test_pages_are_validated_and_encoded_off_the_event_loop(
    sandbox: SandboxServer, cache: WorkspaceCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    many_in_flight(monkeypatch)
    add_posts(sandbox, scheduled=100, drafts=20)  # 8 pages
    threads: dict[str, list[int]] = {"validate /posts": [], "encode": []}
    original_validate, original_encode = resource.validate, service.encode_posts

    def observed_validate(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("what") == "GET /posts":
            threads["validate /posts"].append(threading.get_ident())
        return original_validate(*args, **kwargs)

    def observed_encode(*args: Any, **kwargs: Any) -> Any:
        threads["encode"].append(threading.get_ident())
        return original_encode(*args, **kwargs)

    monkeypatch.setattr(resource, "validate", observed_validate)
    monkeypatch.setattr(service, "encode_posts", observed_encode)
    loop_thread = threading.get_ident()
    async with ApiClient(sandbox.base_url, sandbox.keys.admin, retry=FAST) as client:
        sync = sync_for(client, cache)
        assert await sync.full_refresh() is True
        assert cache.count_posts() == 120
        assert len(threads["validate /posts"]) == 8
        assert len(threads["encode"]) == 8
        assert await sync.light_refresh() is True
        # the light refresh's pages around now
        assert len(threads["validate /posts"]) == 8 + sync.requests_last_refresh
    every = threads["validate /posts"] + threads["encode"]
    assert loop_thread not in every
    assert parse_threads() == []  # each refresh's worker ended with it


@pytest.mark.asyncio
async def test_with_a_few_pages_in_flight_they_are_parsed_here_one_job_each(
    sandbox: SandboxServer, cache: WorkspaceCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fast server nearby (here: the sandbox on loopback, the walk at a few pages in flight):
    handing each page to the worker and back cost more than parsing it (on loopback 1.08 s vs
    0.81 s a 3,000-post sync); a burst is at most `Pace.FEW` pages of ~1 ms."""
    add_posts(sandbox, scheduled=100, drafts=20)  # 8 pages
    encoded_on: list[int] = []
    original_encode = service.encode_posts
    asked: list[bool] = []
    parse_here = SyncService._parse_here

    def observed_encode(*args: Any, **kwargs: Any) -> Any:
        encoded_on.append(threading.get_ident())
        return original_encode(*args, **kwargs)

    def observed_parse_here(self: SyncService) -> bool:
        asked.append(parse_here(self))
        return asked[-1]

    monkeypatch.setattr(service, "encode_posts", observed_encode)
    monkeypatch.setattr(SyncService, "_parse_here", observed_parse_here)
    runs: list[PageWorker] = []
    original_enter = PageWorker.__aenter__

    async def remembered(self: PageWorker) -> PageWorker:
        runs.append(self)
        return await original_enter(self)

    monkeypatch.setattr(PageWorker, "__aenter__", remembered)
    async with ApiClient(sandbox.base_url, sandbox.keys.admin, retry=FAST) as client:
        sync = sync_for(client, cache)
        assert await sync.full_refresh() is True
        walk = client.posts.last_walk
        pace = walk.last_pace if walk is not None else None
    assert cache.count_posts() == 120
    assert pace is not None
    assert pace.in_flight <= 4
    assert len(asked) == 8
    assert asked[0] is True
    assert runs[0].jobs_here == asked.count(True)
    here = [thread for thread, on_loop in zip(encoded_on, asked, strict=True) if on_loop]
    assert set(here) == {threading.get_ident()}
    assert parse_threads() == []


@pytest.mark.asyncio
async def test_a_refresh_cancelled_mid_page_leaves_no_job_running(
    sandbox: SandboxServer, cache: WorkspaceCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    many_in_flight(monkeypatch)
    add_posts(sandbox, scheduled=100)
    started, release, finished = threading.Event(), threading.Event(), threading.Event()
    original_validate = resource.validate

    def slow_third_page(*args: Any, **kwargs: Any) -> Any:
        data = args[1]
        if kwargs.get("what") == "GET /posts" and data["meta"]["current_page"] == 3:
            started.set()
            release.wait(10)
            result = original_validate(*args, **kwargs)
            finished.set()
            return result
        return original_validate(*args, **kwargs)

    monkeypatch.setattr(resource, "validate", slow_third_page)
    async with ApiClient(sandbox.base_url, sandbox.keys.admin, retry=FAST) as client:
        sync = sync_for(client, cache)
        refresh = asyncio.ensure_future(sync.full_refresh())
        await eventually(started.is_set)
        assert not finished.is_set()  # the loop runs while the page is being parsed
        refresh.cancel()
        asyncio.get_running_loop().call_later(0.2, release.set)
        with pytest.raises(asyncio.CancelledError):
            await refresh
        # The refresh waited for the page being parsed before it ended; nothing else runs.
        assert finished.is_set()
        assert parse_threads() == []
    assert cache.count_posts() == 0  # nothing half-read was stored


@pytest.mark.asyncio
async def test_a_closed_worker_refuses_new_jobs_and_drops_queued_ones() -> None:
    gate = threading.Event()
    async with PageWorker() as worker:
        running = asyncio.ensure_future(worker.run(lambda: gate.wait(10)))
        queued = asyncio.ensure_future(worker.run(lambda: "never"))
        await eventually(lambda: worker.running == 2)
        asyncio.get_running_loop().call_later(0.1, gate.set)
    assert worker.running == 0
    assert await running is True
    with pytest.raises(asyncio.CancelledError):
        await queued
    with pytest.raises(RuntimeError):
        await worker.run(lambda: None)


@pytest.mark.asyncio
async def test_reconciling_the_outbox_reads_the_list_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []
    original_validate = resource.validate

    def observed_validate(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("what") == "GET /posts":
            threads.append(threading.get_ident())
        return original_validate(*args, **kwargs)

    monkeypatch.setattr(resource, "validate", observed_validate)
    store = LocalStore.open(tmp_path / "ws.local.sqlite3")
    try:
        with SandboxServer(tmp_path / "lost.db", fail_after_commit=1.0) as server:
            add_posts(server, scheduled=40)
            outbox = Outbox(store)
            entry = await outbox.enqueue(batch(server, "Answer lost"))
            async with sandbox_client(server) as client:
                sender = OutboxSender(outbox, client, settle_seconds=0)
                assert (await sender.send_pending()).unknown == [entry.id]
                await sender.send_pending()  # reconciles: reads the whole list
            found = outbox.get(entry.id)
            assert found is not None
            assert found.state is OutboxState.SENT
    finally:
        store.close()
    assert len(threads) >= 3  # 42 posts: 3 pages
    assert threading.get_ident() not in threads
    assert parse_threads() == []
