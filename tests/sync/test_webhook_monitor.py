"""The webhook monitor and the kept delivery logs against the real sandbox (loopback HTTP, real
SQLite both sides): top-ups until a kept row, gaps read on demand, rows that change, the
durable file, the polled list and a 404 asked once. Requests are counted at the transport."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from app.api.client import ApiClient
from app.api.errors import NotFound
from app.api.retry import RetryPolicy
from app.models.webhooks import Webhook
from app.sandbox.clock import to_db
from app.sandbox.harness import SandboxServer
from app.store.delivery_logs import DeliveryArchive, MemoryDb
from app.store.local_store import LocalStore
from app.sync.webhook_monitor import LogsChanged, WebhookMonitor
from app.webhooks.timeline import build_timeline

FAST = RetryPolicy(max_attempts=1)
START = datetime.now(UTC).replace(microsecond=0) - timedelta(days=2)


class CountingTransport(httpx.AsyncHTTPTransport):
    def __init__(self) -> None:
        super().__init__()
        self.paths: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(f"{request.method} {request.url.path}")
        return await super().handle_async_request(request)

    def count(self, fragment: str) -> int:
        return sum(fragment in path for path in self.paths)


def add_logs(server: SandboxServer, hook: str, count: int, first: int = 0) -> None:
    """`count` deliveries a second apart, numbered from `first` (later numbers are newer);
    every seventh failed for good (its three attempts made)."""
    for n in range(first, first + count):
        failed = n % 7 == 0
        server.store.add_webhook_log(
            hook,
            outcome="failed" if failed else "delivered",
            attempts=3 if failed else 1,
            created_at=START + timedelta(seconds=n),
            data={"id": f"post-{n}"},
        )


def server_ids(server: SandboxServer, hook: str) -> list[str]:
    return [row["id"] for row in server.store.webhook_logs(hook)]


def kept_ids(archive: DeliveryArchive, hook: str) -> list[str]:
    """Every kept row the log would show, newest first (down to the first gap)."""
    ids: list[str] = []
    below = None
    while rows := archive.rows(hook, below=below, limit=50):
        ids += [row.id for row in rows]
        below = rows[-1].key
    return ids


async def read_everything(monitor: WebhookMonitor, hook: str) -> None:
    await monitor.top_up(hook)
    while (gap := monitor.archive.first_gap(hook)) is not None:
        assert await monitor.fill_below(hook, gap.id)


@pytest.mark.asyncio
async def test_a_webhook_read_before_is_topped_up_in_two_requests(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    add_logs(server, hook, 139)
    changes: list[LogsChanged] = []
    monitor = WebhookMonitor(client, DeliveryArchive(), on_logs=changes.append)
    await read_everything(monitor, hook)
    assert kept_ids(monitor.archive, hook) == server_ids(server, hook)
    assert transport.count("/logs") == 10  # one request a page of 15: each gap read by place

    add_logs(server, hook, 20, first=139)
    before = transport.count("/logs")
    change = await monitor.top_up(hook)
    assert transport.count("/logs") - before == 2  # page 1 (15 new), page 2 (5 new, 10 kept)
    assert len(change.added) == 20
    assert kept_ids(monitor.archive, hook) == server_ids(server, hook)
    assert monitor.archive.first_gap(hook) is None
    assert monitor.archive.total(hook) == 159

    before = transport.count("/logs")
    assert await monitor.top_up(hook) == LogsChanged(hook)  # nothing new: one page
    assert transport.count("/logs") - before == 1


@pytest.mark.asyncio
async def test_more_new_rows_than_a_top_up_reads_leave_a_gap_read_on_demand(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    add_logs(server, hook, 30)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await read_everything(monitor, hook)
    add_logs(server, hook, 100, first=30)
    before = transport.count("/logs")
    change = await monitor.top_up(hook)
    assert transport.count("/logs") - before == 3  # TOP_UP_PAGES, no kept row met
    assert len(change.added) == 45
    # Shown down to the gap only: the 30 old rows are not placed under the 45 new ones.
    assert kept_ids(monitor.archive, hook) == server_ids(server, hook)[:45]
    # More arrive before the gap is read: its rows moved down the pages; found by id.
    add_logs(server, hook, 10, first=130)
    gap = monitor.archive.first_gap(hook)
    assert gap is not None
    assert await monitor.fill_below(hook, gap.id)
    await monitor.top_up(hook)
    while (gap := monitor.archive.first_gap(hook)) is not None:
        assert await monitor.fill_below(hook, gap.id)
    assert kept_ids(monitor.archive, hook) == server_ids(server, hook)
    assert monitor.archive.count(hook) == 140


@pytest.mark.asyncio
async def test_rows_of_one_second_are_kept_once_in_id_order(
    server: SandboxServer, client: ApiClient
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    for n in range(40):  # one second: the server lists them by arrival, not by id
        server.store.add_webhook_log(hook, created_at=START, data={"id": f"post-{n}"})
    monitor = WebhookMonitor(client, DeliveryArchive())
    await read_everything(monitor, hook)
    shown = kept_ids(monitor.archive, hook)
    assert sorted(shown, reverse=True) == shown
    assert set(shown) == set(server_ids(server, hook))
    assert len(shown) == 40


@pytest.mark.asyncio
async def test_a_queued_row_is_updated_when_the_service_decides_it(
    server: SandboxServer, client: ApiClient
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    add_logs(server, hook, 3)
    queued = server.store.add_webhook_log(hook, outcome="queued", created_at=START + timedelta(1))
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    row = monitor.archive.row(hook, queued)
    assert row is not None
    assert row.outcome == "queued"
    assert [r.id for r in monitor.archive.undecided(hook)] == [queued]
    with server.store.tx() as db:
        db.update(
            "webhook_logs",
            queued,
            {"state": "delivered", "delivered_at": db.now(), "attempts": 1, "response_status": 200},
        )
    change = await monitor.top_up(hook)
    assert change.changed == (queued,)
    row = monitor.archive.row(hook, queued)
    assert row is not None
    assert row.outcome == "delivered"
    assert monitor.archive.undecided(hook) == []


@pytest.mark.asyncio
async def test_the_kept_rows_outlive_the_session_in_the_durable_file(
    server: SandboxServer, transport: CountingTransport, tmp_path: Path
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    add_logs(server, hook, 50)
    path = tmp_path / "ws.local.sqlite3"
    for session in range(2):
        store = LocalStore.open(path)
        api = ApiClient(server.base_url, server.keys.admin, retry=FAST, transport=transport)
        try:
            monitor = WebhookMonitor(api, DeliveryArchive(store))
            before = transport.count("/logs")
            if session == 0:
                await read_everything(monitor, hook)
            else:
                await monitor.top_up(hook)
                assert transport.count("/logs") - before == 1
            assert kept_ids(monitor.archive, hook) == server_ids(server, hook)
            log = monitor.archive.log(hook, server_ids(server, hook)[0])
            assert log is not None
            assert log.payload is not None
        finally:
            await api.aclose()
            store.close()


@pytest.mark.asyncio
async def test_a_deleted_webhook_keeps_its_archive_until_the_user_removes_it(
    server: SandboxServer, client: ApiClient
) -> None:
    """Issue 17 §1: after 7 days the archive is the only copy, so a deletion on the server
    marks it gone instead of dropping it."""
    kept, deleted = (server.store.create_webhook(f"https://hooks.example.com/{n}") for n in "ab")
    add_logs(server, kept, 5)
    add_logs(server, deleted, 5)
    monitor = WebhookMonitor(client, DeliveryArchive(MemoryDb()))
    await monitor.read_list()
    await monitor.top_up(kept)
    await monitor.top_up(deleted)
    await client.webhooks.delete(deleted)
    await monitor.read_list()
    assert monitor.archive.count(deleted) == 5
    summary = {item.webhook_id: item for item in monitor.archive.summary()}
    assert summary[deleted].gone_utc is not None
    assert summary[deleted].endpoint == "https://hooks.example.com/b"
    assert summary[deleted].rows == 5
    assert summary[deleted].bytes > 0
    assert summary[kept].gone_utc is None
    assert await monitor.archive.remove(deleted) == 5
    assert monitor.archive.count(deleted) == 0
    assert monitor.archive.count(kept) == 5


@pytest.mark.asyncio
async def test_rows_kept_past_ninety_days_are_dropped_once_a_run(
    server: SandboxServer, client: ApiClient
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    now = datetime.now(UTC)
    for days in (1, 30, 89, 91, 200):
        server.store.add_webhook_log(hook, created_at=now - timedelta(days=days))
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    assert monitor.archive.count(hook) == 5
    await monitor.read_list()
    assert monitor.archive.count(hook) == 3


@pytest.mark.asyncio
async def test_the_list_is_polled_and_a_pause_on_the_server_is_heard(
    server: SandboxServer, client: ApiClient
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    heard: list[list[Webhook]] = []
    monitor = WebhookMonitor(client, DeliveryArchive(), on_webhooks=heard.append, list_every=0.1)
    task = asyncio.ensure_future(monitor.run())
    try:
        await wait_for(lambda: bool(heard))
        assert heard[-1][0].status == "enabled"
        server.store.set_webhook_paused(hook)
        await wait_for(lambda: heard[-1][0].status == "paused")
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await monitor.aclose()


@pytest.mark.asyncio
async def test_the_log_on_screen_is_read_to_its_end_in_the_background_a_page_at_a_time(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    add_logs(server, hook, 100)
    monitor = WebhookMonitor(client, DeliveryArchive(), backfill_every=0.01)
    monitor.watch(hook)
    task = asyncio.ensure_future(monitor.run())
    try:
        await wait_for(lambda: monitor.archive.count(hook) == 100 and not monitor.busy)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await monitor.aclose()
    assert kept_ids(monitor.archive, hook) == server_ids(server, hook)
    assert transport.count("/logs") == 7  # the newest page, then one page a step


@pytest.mark.asyncio
async def test_reads_asked_together_are_sent_once(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    add_logs(server, hook, 5)
    monitor = WebhookMonitor(client, DeliveryArchive())
    monitor.watch(hook)
    await asyncio.gather(monitor.refresh(), monitor.refresh(), monitor.read_list())
    assert transport.count("GET /api/webhooks") - transport.count("/logs") == 1
    assert transport.count("/logs") == 1


@pytest.mark.asyncio
async def test_a_missing_webhooks_route_is_asked_once_a_session() -> None:
    asked: list[str] = []

    def missing(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        return httpx.Response(404, json={"message": "Not Found"})

    api = ApiClient(
        "https://social.example/api", "key", retry=FAST, transport=httpx.MockTransport(missing)
    )
    refused: list[object] = []
    monitor = WebhookMonitor(api, DeliveryArchive(), on_unavailable=refused.append, list_every=0.02)
    task = asyncio.ensure_future(monitor.run())
    try:
        await wait_for(lambda: bool(refused))
        await asyncio.sleep(0.2)  # ten more polling periods: nothing more is asked
        monitor.request_refresh()
        await asyncio.sleep(0.05)
        with pytest.raises(NotFound):
            await monitor.read_list()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await monitor.aclose()
        await api.aclose()
    assert asked == ["/api/webhooks"]


async def wait_for(predicate: object, limit: float = 10.0) -> None:
    assert callable(predicate)
    deadline = asyncio.get_running_loop().time() + limit
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {predicate}")
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_the_chart_of_the_kept_rows_matches_the_chart_of_the_logs(
    server: SandboxServer, client: ApiClient
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    now = datetime.now(UTC)
    for n in range(60):
        created = now - timedelta(hours=n * 3, seconds=n)
        server.store.add_webhook_log(
            hook,
            outcome=("delivered", "failed", "queued")[n % 3],
            attempts=(1, 3, 0)[n % 3],
            created_at=created,
        )
    with server.store.tx() as db:  # answered after 0.25 s, 1.5 s, … at the first attempt
        for n, log in enumerate(server.store.webhook_logs(hook)):
            if log["delivered_at"] is not None:
                settled = datetime.fromisoformat(log["created_at"]) + timedelta(seconds=n % 5)
                db.update("webhook_logs", log["id"], {"delivered_at": to_db(settled)})
    monitor = WebhookMonitor(client, DeliveryArchive())
    await read_everything(monitor, hook)
    logs = [log async for log in client.webhooks.iter_logs(hook)]
    expected = build_timeline(logs, now)
    timeline, note = monitor.chart(hook, now)
    assert note == ""
    assert [(b.delivered, b.failed, b.queued) for b in timeline.buckets] == [
        (b.delivered, b.failed, b.queued) for b in expected.buckets
    ]
    medians = [(b.median_ms is None, round(b.median_ms or 0)) for b in timeline.buckets]
    assert medians == [(b.median_ms is None, round(b.median_ms or 0)) for b in expected.buckets]
    # The service's timestamps are whole seconds: no response time is made up from them.
    assert all(unknown for unknown, _ms in medians)
    assert timeline.older_skipped == expected.older_skipped == 4  # 7 days of 3-hour steps
