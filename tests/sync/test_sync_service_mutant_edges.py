"""SyncService edges a user or caller notices: when each kind of refresh runs (the default
minute and quarter hour, a long list read less often, intervals under a second), that the loop
leaves no sleep of its own running, how long it waits after a 429, what a failure keeps
reporting, and which saved posts a light refresh keeps: one publishing far from now, one moved
by a colleague between two page reads or out of the pages read, one the user edited while a
page was in flight.

The sandbox over loopback where requests matter; a MockTransport only for answers the sandbox
never gives (an unreadable post, an exact Retry-After). Time is the injected clock's: the loop
tests wait on conditions, and fail at once (with the loop's error) if `run_forever` ended."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from app.api.client import ApiClient
from app.api.errors import TokenExpired
from app.models import PostUpdate
from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from app.sync import SyncService, SyncState
from app.sync.service import FULL_EVERY_PER_PAGE
from tests.api.helpers import FakeClock, json_response
from tests.store.factories import raw_post
from tests.sync.test_sync_edge_cases import Harness, listing
from tests.sync.test_sync_failures import client_with, refused_with, server
from tests.sync.test_sync_service import FAST, Recorder, add_posts, connected, service_for

Action = Callable[[], Awaitable[None]]


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[WorkspaceCache]:
    with WorkspaceCache(tmp_path / "cache.sqlite3") as opened:
        yield opened


class Timeline(httpx.AsyncHTTPTransport):
    """Each request with the time the sync's clock showed when it was made."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__()
        self.clock = clock
        self.requests: list[tuple[float, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append((self.clock.now(), request.url.path))
        return await super().handle_async_request(request)

    def full_refreshes(self) -> list[float]:
        """Only a full refresh reads the accounts."""
        return sorted({t for t, path in self.requests if path.endswith("/social-accounts")})

    def light_refreshes(self) -> list[float]:
        fulls = set(self.full_refreshes())
        return sorted({t for t, _ in self.requests if t not in fulls})

    def reached(self, moment: float) -> bool:
        # A loop that never sleeps (time stands still) is stopped by the request count.
        return any(t >= moment for t, _ in self.requests) or len(self.requests) > 400


class AroundPages(httpx.AsyncHTTPTransport):
    """Runs a scenario step once, just before a page of `/posts` reaches the server or just
    after its answer was read (before the sync sees it): a change made between two reads."""

    def __init__(self) -> None:
        super().__init__()
        self.before: dict[int, Action] = {}
        self.after: dict[int, Action] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        page = 0  # not a page of `/posts`
        if request.method == "GET" and request.url.path.endswith("/posts"):
            page = int(request.url.params.get("page", "1"))
        before = self.before.pop(page, None)
        if before is not None:
            await before()
        response = await super().handle_async_request(request)
        after = self.after.pop(page, None)
        if after is None:
            return response
        body = await response.aread()
        await after()
        headers = [
            (name, value)
            for name, value in response.headers.items()
            if name.lower() not in ("content-length", "content-encoding", "transfer-encoding")
        ]
        return httpx.Response(response.status_code, headers=headers, content=body)


async def until_running(task: asyncio.Task[None], condition: Callable[[], bool]) -> None:
    """Waits for `condition` while `run_forever` runs; if the loop ended instead, fails at once
    with its error rather than waiting out the guard."""
    async with asyncio.timeout(20):  # a guard against hanging, not a speed requirement
        while not condition():
            if task.done():
                error = None if task.cancelled() else task.exception()
                raise AssertionError(f"run_forever ended: {error!r}")
            await asyncio.sleep(0.005)


async def stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


# -- when refreshes run -------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_by_default_a_light_refresh_every_minute_and_a_full_one_every_quarter_hour(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    add_posts(sandbox, scheduled=5)
    clock = FakeClock(start=0.0)
    timeline = Timeline(clock)
    async with ApiClient(
        sandbox.base_url, sandbox.keys.admin, retry=FAST, transport=timeline, clock=clock
    ) as client:
        service = service_for(client, cache, Recorder())
        task = asyncio.create_task(service.run_forever())  # as the session starts it
        try:
            await until_running(task, lambda: timeline.reached(960.0))
        finally:
            await stop(task)
    assert timeline.full_refreshes()[:2] == [0.0, 900.0]
    # The one due at 900 s is the full one; the minute starts again after it.
    assert timeline.light_refreshes()[:15] == [60.0 * n for n in range(1, 15)] + [960.0]


@pytest.mark.asyncio
async def test_a_long_list_is_read_whole_less_often_than_full_every(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    add_posts(sandbox, scheduled=100)  # 7 pages: one full read per 7 x 20 s at most
    clock = FakeClock(start=0.0)
    timeline = Timeline(clock)
    paced = 7 * FULL_EVERY_PER_PAGE
    async with ApiClient(
        sandbox.base_url, sandbox.keys.admin, retry=FAST, transport=timeline, clock=clock
    ) as client:
        service = service_for(client, cache, Recorder())
        task = asyncio.create_task(service.run_forever(light_every=60, full_every=100))
        try:
            await until_running(task, lambda: timeline.reached(paced + 60))
        finally:
            await stop(task)
    assert service.pages_in_list == 7
    assert timeline.full_refreshes()[:2] == [0.0, paced]
    assert timeline.light_refreshes()[:3] == [60.0, 120.0, paced + 60]


@pytest.mark.asyncio
async def test_an_interval_under_a_second_is_kept_as_asked(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    add_posts(sandbox, scheduled=5)
    clock = FakeClock(start=0.0)
    timeline = Timeline(clock)
    async with ApiClient(
        sandbox.base_url, sandbox.keys.admin, retry=FAST, transport=timeline, clock=clock
    ) as client:
        service = service_for(client, cache, Recorder())
        task = asyncio.create_task(service.run_forever(light_every=0.25, full_every=1e6))
        try:
            await until_running(task, lambda: timeline.reached(1.0))
        finally:
            await stop(task)
    assert timeline.light_refreshes()[:4] == [0.25, 0.5, 0.75, 1.0]
    assert clock.sleeps[:4] == [0.25] * 4


class SlowToStopClock:
    """Sleeps until cancelled, then takes a few turns of the loop to wind down (as a timer
    released through the loop would). Counts the sleeps still running."""

    def __init__(self) -> None:
        self.started = 0
        self.running = 0

    def now(self) -> float:
        return 0.0

    async def sleep(self, seconds: float) -> None:
        self.started += 1
        self.running += 1
        try:
            await asyncio.Event().wait()
        finally:
            for _ in range(3):
                await asyncio.sleep(0)
            self.running -= 1


@pytest.mark.asyncio
async def test_the_loop_leaves_no_sleep_of_its_own_running(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    add_posts(sandbox, scheduled=5)
    clock = SlowToStopClock()
    still_sleeping_at_start: list[int] = []

    def on_state(state: SyncState) -> None:
        if state.phase == "syncing":
            still_sleeping_at_start.append(clock.running)

    async with connected(sandbox) as client:
        service = SyncService(
            client, cache, on_state=on_state, on_changed=lambda _: None, clock=clock
        )
        task = asyncio.create_task(service.run_forever(light_every=60, full_every=900))
        try:
            await until_running(task, lambda: clock.started == 1)
            service.request_refresh()  # "Refresh now" ends the wait: the sleep ends with it
            await until_running(task, lambda: clock.started == 2)
        finally:
            await stop(task)  # quitting during a wait: the sleep ends before the loop does
        assert clock.running == 0
    assert still_sleeping_at_start == [0, 0]


# -- after a failure ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "retry_in"),
    [
        ({"Retry-After": "1"}, 1.0),  # as the server asked, though the backoff is 2 s
        (None, 2.0),  # no Retry-After: the backoff (retry_base, jitter at its middle)
    ],
)
@pytest.mark.asyncio
async def test_after_a_429_the_wait_is_retry_after_else_the_backoff(
    cache: WorkspaceCache, headers: dict[str, str] | None, retry_in: float
) -> None:
    clock = FakeClock(start=0.0)
    async with client_with(server(lambda: refused_with(429, headers)), clock) as client:
        service = SyncService(
            client, cache, on_state=lambda _: None, on_changed=lambda _: None, rng=lambda: 0.5
        )
        assert await service.full_refresh() is False
    assert (service.state.phase, service.state.retry_in) == ("rate_limited", retry_in)
    cache.close()


@pytest.mark.asyncio
async def test_a_failure_keeps_reporting_the_unreadable_posts_and_the_last_full_sync(
    cache: WorkspaceCache,
) -> None:
    posts = [raw_post(f"p{n}", scheduled_at=f"2030-01-0{n + 1} 09:00:00") for n in range(3)]
    posts[1]["status"] = None  # kept, with its status marked unreadable
    harness = Harness(cache, listing(posts))
    try:
        assert await harness.service.full_refresh() is True
        synced = harness.service.state
        assert [(item.id, item.kept) for item in synced.unreadable] == [("p1", True)]
        assert synced.last_full_sync_at is not None

        harness.handler = lambda _: json_response(500, {"message": "Server Error"})
        assert await harness.service.full_refresh() is False
        after_full = harness.service.state
        assert await harness.service.light_refresh() is False
        after_light = harness.service.state
    finally:
        await harness.client.aclose()
    for failed in (after_full, after_light):
        assert failed.phase == "error"
        assert failed.unreadable == synced.unreadable
        assert failed.last_full_sync_at == synced.last_full_sync_at


@pytest.mark.asyncio
async def test_a_refused_key_hint_says_what_to_do_and_nothing_about_retrying(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    add_posts(sandbox, scheduled=3)
    async with connected(sandbox) as client:
        assert await service_for(client, cache, Recorder()).full_refresh() is True
    async with connected(sandbox, sandbox.keys.expired) as client:
        service = service_for(client, cache, Recorder())
        assert await service.full_refresh() is False
    state = service.state
    assert (state.phase, state.retry_in) == ("auth_failed", None)
    assert state.hint == TokenExpired.default_hint


# -- what a light refresh keeps -----------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_post_publishing_far_from_now_is_followed_until_it_is_decided(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    now = datetime.now(UTC)
    add_posts(sandbox, scheduled=60)  # pages 1-4: the coming years
    sandbox.store.insert_posts(
        30, status="published", scheduled_at=now - timedelta(hours=72)
    )  # pages 5-6: two and three days ago, before the hours around now
    [stuck] = sandbox.store.insert_posts(
        1, status="publishing", scheduled_at=now - timedelta(days=5)
    )  # page 7: never among the pages around now
    async with connected(sandbox) as client:
        service = service_for(client, cache, Recorder())
        assert await service.full_refresh() is True
        cached = cache.post(stuck)
        assert cached is not None
        assert cached.status == "publishing"
        sandbox.store.set_post_status(stuck, "published")

        assert await service.light_refresh() is True

    decided = cache.post(stuck)
    assert decided is not None
    assert decided.status == "published"


@pytest.mark.asyncio
async def test_the_top_post_turned_into_a_draft_by_a_colleague_is_kept(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    now = datetime.now(UTC)
    soon = sandbox.store.insert_posts(
        5,
        status="scheduled",
        scheduled_at=now + timedelta(minutes=10),
        spacing=timedelta(minutes=10),
    )
    sandbox.store.insert_posts(
        40,
        status="published",
        scheduled_at=now - timedelta(hours=20),
        spacing=timedelta(minutes=30),
    )
    sandbox.store.insert_posts(40, status="published", scheduled_at=now - timedelta(hours=100))
    top = soon[-1]  # the list's first post: "now" is read from page 1, not to the end
    async with connected(sandbox) as client:
        service = service_for(client, cache, Recorder())
        assert await service.full_refresh() is True
        # A colleague unschedules it and clears its time: listed last now, past the pages read.
        with sandbox.store.tx() as db:
            db.update("posts", top, {"status": "draft", "scheduled_at": None})

        assert await service.light_refresh() is True

    kept = cache.post(top)
    assert kept is not None
    assert (kept.status, kept.scheduled_at) == ("draft", None)
    assert cache.count_posts() == 85


@pytest.mark.asyncio
async def test_the_oldest_post_moved_to_the_top_between_two_page_reads_is_kept(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    now = datetime.now(UTC)
    # 20 posts of the last 20 hours: two pages, both read by a light refresh (to the end).
    ids = sandbox.store.insert_posts(
        20, status="scheduled", scheduled_at=now - timedelta(hours=19, minutes=30)
    )
    oldest = ids[0]
    moved_to = (now + timedelta(minutes=45)).replace(microsecond=0)
    pages = AroundPages()
    async with (
        ApiClient(sandbox.base_url, sandbox.keys.admin, retry=FAST, transport=pages) as client,
        connected(sandbox) as colleague,
    ):
        service = service_for(client, cache, Recorder())
        assert await service.full_refresh() is True

        async def move() -> None:
            # After page 1 was read: the post reaches page 1 unseen and leaves page 2.
            await colleague.posts.reschedule(oldest, moved_to)

        pages.before[2] = move
        assert await service.light_refresh() is True
        assert not pages.before, "the light refresh read page 2"

    kept = cache.post(oldest)
    assert kept is not None
    assert kept.scheduled_at == moved_to
    assert cache.count_posts() == 20


@pytest.mark.asyncio
async def test_an_edit_saved_while_a_page_was_in_flight_is_not_undone(
    sandbox: SandboxServer, cache: WorkspaceCache
) -> None:
    now = datetime.now(UTC)
    [edited, *_] = sandbox.store.insert_posts(
        5, status="scheduled", scheduled_at=now + timedelta(minutes=20)
    )
    pages = AroundPages()
    async with (
        ApiClient(sandbox.base_url, sandbox.keys.admin, retry=FAST, transport=pages) as client,
        connected(sandbox) as editor,
    ):
        service = service_for(client, cache, Recorder())
        assert await service.full_refresh() is True

        async def edit() -> None:
            # The page was read before the edit; the edit's answer is stored before the page.
            saved = await editor.posts.update(edited, PostUpdate(content="Edited here"))
            await cache.upsert_post_async(saved)

        pages.after[1] = edit
        assert await service.light_refresh() is True
        assert not pages.after, "the light refresh read page 1"

    kept = cache.post(edited)
    assert kept is not None
    assert kept.content == "Edited here"
