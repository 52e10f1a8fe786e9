"""The minute's refresh watches now and the period on screen, wherever they sit in `/posts`
(sandbox over loopback, its publisher running)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.api.client import ApiClient
from app.models import BatchRequest, Destination, PostUpdate
from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from tests.sync.test_sync_service import (
    FAST,
    Recorder,
    add_posts,
    connected,
    eventually,
    service_for,
)
from tests.tools.odd_server import OddServer
from tests.tools.odd_world import World


@pytest.fixture
def live(tmp_path: Path) -> Iterator[SandboxServer]:
    with SandboxServer(tmp_path / "live.db", run_engine=True, engine_interval=0.05) as server:
        yield server


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[WorkspaceCache]:
    with WorkspaceCache(tmp_path / "cache.sqlite3") as opened:
        yield opened


async def server_status(server: SandboxServer, post_id: str, wanted: str) -> None:
    await eventually(lambda: (server.store.post(post_id) or {}).get("status") == wanted)


@pytest.mark.asyncio
async def test_an_outcome_around_now_is_seen_by_the_next_light_refresh(
    live: SandboxServer, cache: WorkspaceCache
) -> None:
    add_posts(live, scheduled=90)  # six pages of the coming years are listed before "now"
    refusing = live.store.account_id("x")
    live.store.set_account(refusing, publish_failure="X refused the post.")
    later = datetime.now(UTC) + timedelta(minutes=30)
    [post_id] = live.store.insert_posts(
        1, account_id=refusing, status="scheduled", scheduled_at=later
    )
    recorder = Recorder()
    async with connected(live) as client:
        service = service_for(client, cache, recorder)
        assert await service.full_refresh() is True
        cached = cache.post(post_id)
        assert cached is not None
        assert cached.status == "scheduled"
        # Someone moves it to now in the web app; the publisher takes it and the network refuses.
        await client.posts.reschedule(post_id, datetime.now(UTC) + timedelta(seconds=1))
        await server_status(live, post_id, "failed")
        assert await service.light_refresh() is True

    failed = cache.post(post_id)
    assert failed is not None
    assert failed.status == "failed"
    assert failed.platforms[0].error_message == "X refused the post."
    assert recorder.last_change is not None
    assert [card.id for card in recorder.last_change.cards] == [post_id]
    assert service.requests_last_refresh <= 3


@pytest.mark.asyncio
async def test_the_period_on_screen_is_reread_a_few_pages_at_a_time(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    start = datetime(2030, 3, 1, tzinfo=UTC)
    ids = sandbox.store.insert_posts(
        150, status="scheduled", scheduled_at=start, spacing=timedelta(hours=4)
    )  # 25 days, 10 pages
    recorder = Recorder()
    async with connected(sandbox) as client:
        service = service_for(client, cache, recorder)
        assert await service.full_refresh() is True
        assert service.show_period(start, start + timedelta(days=25))
        assert not service.show_period(start, start + timedelta(days=25))
        for post_id in ids[::10]:
            await client.posts.update(post_id, PostUpdate(content="Edited on the web"))

        rounds = 0
        while any(post.content != "Edited on the web" for post in cache.posts(ids[::10])):
            assert await service.light_refresh() is True
            rounds += 1
            assert service.requests_last_refresh <= 2 + 2 + 2  # now, the period, a search
            assert rounds <= 6, "every page of the period is read within a few refreshes"
    assert rounds >= 3  # a few pages at a time, not the whole month each minute


@pytest.mark.asyncio
async def test_a_post_publishing_outside_the_pages_read_is_read_by_itself(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    add_posts(sandbox, scheduled=60, drafts=40)
    [undated] = sandbox.store.insert_posts(1, status="draft")
    async with connected(sandbox) as client:
        service = service_for(client, cache, Recorder())
        await client.posts.publish_now(undated)
        assert await service.full_refresh() is True
        cached = cache.post(undated)
        assert cached is not None
        assert cached.status == "publishing"
        sandbox.store.set_post_status(undated, "published")

        assert await service.light_refresh() is True

    published = cache.post(undated)
    assert published is not None
    assert published.status == "published"


@pytest.mark.asyncio
async def test_an_outcome_on_a_server_we_did_not_write_is_seen_by_the_next_light_refresh(
    cache: WorkspaceCache,
) -> None:
    # 600 posts a month either side of now: "now" is near page 20 of 40.
    with OddServer(world=World.seeded(posts=600), quiet=True) as odd:
        async with ApiClient(odd.base_url, odd.key, retry=FAST) as client:
            service = service_for(client, cache, Recorder())
            assert await service.full_refresh() is True
            accounts = await client.accounts.list()
            account = next(a for a in accounts if a.platform == "x" and a.status == "connected")
            [post] = await client.posts.create_batch(
                BatchRequest(
                    status="scheduled",
                    scheduled_at=datetime.now(UTC) + timedelta(seconds=1),
                    content="Due now",
                    destinations=[Destination(social_account_id=account.id, content_type="x_post")],
                )
            )
            await eventually_async(lambda: _decided(client, post.id))
            server_side = await client.posts.get(post.id)
            assert await service.light_refresh() is True
            assert service.requests_last_refresh <= 6

    cached = cache.post(post.id)
    assert cached is not None
    assert cached.status == server_side.status != "scheduled"


async def _decided(client: ApiClient, post_id: str) -> bool:
    return (await client.posts.get(post_id)).status not in ("scheduled", "publishing")


async def eventually_async(check: Callable[[], Awaitable[bool]]) -> None:
    async with asyncio.timeout(20):  # a guard against hanging, not a speed requirement
        while True:
            if await check():
                return
            await asyncio.sleep(0.2)  # the odd server decides on a later request
