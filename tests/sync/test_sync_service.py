"""SyncService against the sandbox over loopback HTTP, with real SQLite on both sides."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.api.client import ApiClient
from app.api.retry import SYSTEM_CLOCK, RetryPolicy
from app.models import PostUpdate
from app.sandbox.harness import SandboxServer
from app.store import CacheChange, WorkspaceCache
from app.sync import SyncService, SyncState
from tests.api.helpers import FakeClock

# Fail fast instead of waiting out real backoffs and Retry-After in tests.
FAST = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02, max_retry_after=0.0)
FUTURE = datetime(2031, 1, 1, 9, tzinfo=UTC)


class Recorder:
    def __init__(self) -> None:
        self.states: list[SyncState] = []
        self.changes = 0
        self.last_change: CacheChange | None = None

    def on_state(self, state: SyncState) -> None:
        self.states.append(state)

    def on_changed(self, change: CacheChange) -> None:
        self.changes += 1
        self.last_change = change

    @property
    def phases(self) -> list[str]:
        return [state.phase for state in self.states]


class FakeNow:
    """The sandbox's clock, which its rate limiter counts with; tests move it forward."""

    def __init__(self) -> None:
        self.moment = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[WorkspaceCache]:
    with WorkspaceCache(tmp_path / "cache" / "workspace.sqlite3") as opened:
        yield opened


@contextlib.asynccontextmanager
async def connected(
    server: SandboxServer, key: str | None = None, clock: FakeClock | None = None
) -> AsyncIterator[ApiClient]:
    options = {"clock": clock} if clock is not None else {}
    async with ApiClient(
        server.base_url, key or server.keys.admin, retry=FAST, **options
    ) as client:
        yield client


def service_for(
    client: ApiClient, cache: WorkspaceCache, recorder: Recorder, **options: object
) -> SyncService:
    return SyncService(
        client,
        cache,
        on_state=recorder.on_state,
        on_changed=recorder.on_changed,
        concurrency=4,
        **options,  # type: ignore[arg-type]
    )


def add_posts(server: SandboxServer, scheduled: int, drafts: int = 0) -> list[str]:
    ids = server.store.insert_posts(
        scheduled, status="scheduled", scheduled_at=datetime(2030, 1, 1, tzinfo=UTC)
    )
    return ids + server.store.insert_posts(drafts, status="draft")


async def eventually(condition: Callable[[], bool]) -> None:
    # A guard against hanging forever, not a speed requirement.
    async with asyncio.timeout(20):
        while True:
            if condition():
                return
            await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_full_refresh_stores_every_post_account_and_label(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    label_id = sandbox.store.create_label("Promo", "#ff8800")
    add_posts(sandbox, scheduled=260, drafts=40)
    recorder = Recorder()

    async with connected(sandbox) as client:
        service = service_for(client, cache, recorder)
        assert await service.full_refresh() is True
        total = (await client.posts.page(1)).meta.total
        server_accounts = await client.accounts.list()
        some_post = await client.posts.get(cache.unscheduled_cards()[0].id)

    assert total == 300
    assert cache.count_posts() == total
    assert cache.accounts() == server_accounts
    assert [label.id for label in cache.labels()] == [label_id]
    assert cache.post(some_post.id) == some_post
    assert recorder.phases == ["syncing", "idle"]
    assert recorder.changes == 1
    assert service.state.last_sync_at is not None
    assert service.labels_available is True


@pytest.mark.asyncio
async def test_a_refresh_without_news_does_not_ask_for_a_repaint(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    add_posts(sandbox, scheduled=20)
    recorder = Recorder()
    async with connected(sandbox) as client:
        service = service_for(client, cache, recorder)
        await service.full_refresh()
        assert await service.full_refresh() is True
        assert await service.light_refresh() is True
        assert recorder.changes == 1

        soon = datetime.now(UTC) + timedelta(minutes=30)  # around now: read every minute
        [new_id] = sandbox.store.insert_posts(1, status="scheduled", scheduled_at=soon)
        assert await service.light_refresh() is True
        assert recorder.changes == 2
        change = recorder.last_change  # what changed, for the calendar to place
        assert change is not None
        assert ([card.id for card in change.cards], change.gone, change.lists) == (
            [new_id],
            (),
            False,
        )


@pytest.mark.asyncio
async def test_rate_limited_half_way_keeps_the_last_good_data(tmp_path: Path) -> None:
    now = FakeNow()
    with (
        SandboxServer(tmp_path / "s.db", rate_limit=20, now=now) as server,
        WorkspaceCache(tmp_path / "cache.sqlite3") as cache,
    ):
        add_posts(server, scheduled=100)  # 7 pages + accounts + labels = 9 requests
        recorder = Recorder()
        clock = FakeClock()  # the client's: its rate gate counts on it
        async with connected(server, clock=clock) as client:
            service = service_for(client, cache, recorder)
            assert await service.full_refresh() is True
            before = cache.post_ids()
            last_sync = cache.last_sync_at()

            # 170 posts: 12 pages + 2 lists, more than the 11 requests left this minute. Once
            # the minute has passed they fit, even with a few requests of the failed attempt
            # that were cancelled here but still reach the server late.
            add_posts(server, scheduled=70)
            assert await service.full_refresh() is False

            state = service.state
            assert state.phase == "rate_limited"
            # The sandbox's clock stands still, so its Retry-After is exactly the minute.
            assert state.retry_in == 60.0
            assert state.kind == "rate_limited"
            assert client.rate_gate.wait_remaining() == 60.0
            assert "saved on this computer" in state.hint
            assert cache.post_ids() == before
            assert cache.last_sync_at() == last_sync
            assert state.last_sync_at == last_sync
            assert recorder.changes == 1

            # Not before the client's own clock says so, whatever the server would allow.
            now.advance(61)
            assert await service.full_refresh() is False
            clock.advance(60)  # the limiter's minute has passed on both sides
            assert await service.full_refresh() is True
            assert cache.count_posts() == 170
            assert service.state.phase == "idle"


@pytest.mark.asyncio
async def test_server_gone_means_offline_with_the_saved_copy_kept(
    tmp_path: Path, cache: WorkspaceCache
) -> None:
    recorder = Recorder()
    with SandboxServer(tmp_path / "s.db") as server:
        add_posts(server, scheduled=30, drafts=5)
        client = ApiClient(server.base_url, server.keys.admin, retry=FAST)
        service = service_for(client, cache, recorder, retry_base=3.0, rng=lambda: 0.5)
        assert await service.full_refresh() is True
    try:
        assert await service.full_refresh() is False
        assert await service.light_refresh() is False
    finally:
        await client.aclose()

    assert service.state.phase == "offline"
    assert service.state.retry_in is not None
    # The second failure in a row waits twice as long (jitter fixed at its middle: x1.0).
    assert service.state.retry_in == 6.0
    assert service.state.message
    assert cache.count_posts() == 35
    # The light refresh failing too updates the retry time: a second "offline" report.
    assert recorder.phases == ["syncing", "idle", "syncing", "offline", "offline"]


@pytest.mark.asyncio
async def test_a_rejected_key_is_reported_and_not_retried_soon(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    recorder = Recorder()
    async with connected(sandbox, sandbox.keys.expired) as client:
        service = service_for(client, cache, recorder)
        assert await service.full_refresh() is False

    assert service.state.phase == "auth_failed"
    assert service.state.retry_in is None
    assert service.state.message == "Token expired."
    assert "API key" in service.state.hint


@pytest.mark.asyncio
async def test_light_refresh_picks_up_new_edited_moved_and_deleted_posts_around_now(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    # 60 posts of the next years are listed first: "now" is on pages 5-8, not on page 1.
    far = add_posts(sandbox, scheduled=60, drafts=3)
    start = datetime.now(UTC) - timedelta(hours=20)
    near = sandbox.store.insert_posts(
        40, status="scheduled", scheduled_at=start, spacing=timedelta(minutes=30)
    )
    latest_near, edited_id, moved_id = near[-1], near[20], near[10]
    far_latest, far_oldest = far[59], far[0]
    recorder = Recorder()
    async with connected(sandbox) as client:
        service = service_for(client, cache, recorder)
        await service.full_refresh()

        soon = datetime.now(UTC) + timedelta(minutes=40)
        created = sandbox.store.insert_posts(1, status="scheduled", scheduled_at=soon)[0]
        await client.posts.delete(latest_near)
        await client.posts.update(edited_id, PostUpdate(content="Edited on the web"))
        # Moved by a colleague far into the future: it leaves the pages around now.
        await client.posts.reschedule(moved_id, datetime(2029, 6, 1, 12, tzinfo=UTC))
        await client.posts.delete(far_oldest)  # in the far future: not read every minute
        await client.posts.update(far_latest, PostUpdate(content="Edited far ahead"))

        assert await service.light_refresh() is True
        assert cache.post(created) is not None
        assert cache.post(latest_near) is None
        edited = cache.post(edited_id)
        assert edited is not None
        assert edited.content == "Edited on the web"
        moved = cache.post(moved_id)
        assert moved is not None
        assert moved.scheduled_at == datetime(2029, 6, 1, 12, tzinfo=UTC)
        # Not around now: stays as it was until the next full refresh.
        assert cache.post(far_oldest) is not None
        far_post = cache.post(far_latest)
        assert far_post is not None
        assert far_post.content != "Edited far ahead"
        assert recorder.changes == 2
        # The first page is not among the few read: 105 posts make 7 pages, "now" is on 5-7.
        assert service.requests_last_refresh <= 6

        await service.full_refresh()
        assert cache.post(far_oldest) is None
        assert cache.count_posts() == 60 + 3 + 40 + 1 - 2


@pytest.mark.asyncio
async def test_light_refresh_of_a_short_list_sees_everything(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    ids = add_posts(sandbox, scheduled=5, drafts=2)
    async with connected(sandbox) as client:
        service = service_for(client, cache, Recorder())
        await service.full_refresh()
        draft = ids[-1]
        await client.posts.delete(draft)

        assert await service.light_refresh() is True

    assert cache.post(draft) is None
    assert cache.count_posts() == 6


@pytest.mark.asyncio
async def test_run_forever_keeps_the_cache_fresh_until_cancelled(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    add_posts(sandbox, scheduled=20)
    recorder = Recorder()
    async with connected(sandbox) as client:
        service = service_for(client, cache, recorder)
        task = asyncio.create_task(service.run_forever(light_every=0.05, full_every=3600))
        try:
            await eventually(lambda: recorder.changes == 1)
            assert cache.count_posts() == 20
            soon = datetime.now(UTC) + timedelta(minutes=30)
            created = sandbox.store.insert_posts(1, status="scheduled", scheduled_at=soon)[0]
            await eventually(lambda: recorder.changes == 2)
            assert cache.post(created) is not None
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    assert task.cancelled()
    assert service.state.phase == "idle"


@pytest.mark.asyncio
async def test_run_forever_recovers_after_a_rate_limit(tmp_path: Path) -> None:
    now = FakeNow()
    with (
        SandboxServer(tmp_path / "s.db", rate_limit=10, now=now) as server,
        WorkspaceCache(tmp_path / "cache.sqlite3") as cache,
    ):
        add_posts(server, scheduled=60)  # a full refresh: 4 pages + accounts + labels
        recorder = Recorder()
        clock = FakeClock()
        async with connected(server, clock=clock) as client:
            # Another window of the app used most of this minute's budget. Once the minute has
            # passed, 10 requests cover the refresh plus late ones of the failed attempt.
            for _ in range(7):
                await client.accounts.list()
            # The loop sleeps for real (60 s, longer than this test): only "Retry now" wakes it.
            service = service_for(client, cache, recorder, clock=SYSTEM_CLOCK)
            task = asyncio.create_task(service.run_forever(light_every=3600, full_every=3600))
            try:
                await eventually(lambda: service.state.phase == "rate_limited")
                assert cache.count_posts() == 0
                assert service.state.retry_in == 60.0

                now.advance(61)
                clock.advance(60)
                service.request_refresh()  # e.g. the "Retry now" button
                await eventually(lambda: service.state.phase == "idle")
                assert cache.count_posts() == 60
                assert recorder.changes == 1
            finally:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
