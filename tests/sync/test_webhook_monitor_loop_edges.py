"""The webhook monitor's polling loop at its edges, against the sandbox over loopback: it waits
on a timer between due reads (never spins), polls a log faster only while a fresh queued row is
kept, reads older pages in the background at its pace and only within the chart's 7 days, and
logs a 404 it swallows.

"Asleep" is the loop waiting on its timer with nothing in flight: a loop that spins (a due time
it never reaches, a zero wait it repeats) never gets there."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from app.api.client import ApiClient
from app.sandbox.harness import SandboxServer
from app.store.delivery_logs import DeliveryArchive
from app.sync.webhook_monitor import PER_PAGE, WebhookMonitor
from tests.sync.test_webhook_monitor import FAST, CountingTransport, add_logs, wait_for
from tests.sync.test_webhook_monitor_edges import LogsGone

LOGS = "/logs"
LISTS = "GET /api/webhooks"


@contextlib.asynccontextmanager
async def running(monitor: WebhookMonitor) -> AsyncIterator[asyncio.Task[None]]:
    task = asyncio.ensure_future(monitor.run())
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await monitor.aclose()


def asleep(monitor: WebhookMonitor, task: asyncio.Task[None]) -> Callable[[], bool]:
    def check() -> bool:
        if task.done():
            raise AssertionError(f"the loop ended: {task.exception()!r}")
        return monitor._waiting is not None and not monitor.busy

    return check


def hook_of(server: SandboxServer) -> str:
    return server.store.create_webhook("https://hooks.example.com/a")


@pytest.mark.asyncio
async def test_a_wait_shorter_than_a_second_is_a_wait(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook_of(server)
    # The clock stands still: the next list is always half a second away.
    monitor = WebhookMonitor(client, DeliveryArchive(), clock=lambda: 0.0, list_every=0.5)
    async with running(monitor) as task:
        await wait_for(asleep(monitor, task))
    assert transport.count(LISTS) == 1


@pytest.mark.asyncio
async def test_background_pages_due_now_are_read_then_the_loop_sleeps(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    add_logs(server, hook, 3 * PER_PAGE)
    monitor = WebhookMonitor(
        client, DeliveryArchive(), clock=lambda: 0.0, list_every=3600, backfill_every=0
    )
    monitor.watch(hook)
    async with running(monitor) as task:
        await wait_for(asleep(monitor, task))
    assert monitor.archive.count(hook) == 3 * PER_PAGE
    assert monitor.archive.first_gap(hook) is None
    assert transport.count(LOGS) == 3


@pytest.mark.asyncio
async def test_background_pages_wait_their_interval(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    add_logs(server, hook, 3 * PER_PAGE)
    monitor = WebhookMonitor(client, DeliveryArchive(), list_every=3600, backfill_every=3600)
    monitor.watch(hook)
    async with running(monitor) as task:
        await wait_for(asleep(monitor, task))
    assert transport.count(LOGS) == 2  # the newest page, one background page, then an hour


@pytest.mark.asyncio
async def test_a_log_read_to_its_end_leaves_the_loop_asleep(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    add_logs(server, hook, 5)
    monitor = WebhookMonitor(client, DeliveryArchive(), list_every=3600, backfill_every=0)
    monitor.watch(hook)
    async with running(monitor) as task:
        await wait_for(asleep(monitor, task))
    assert transport.count(LOGS) == 1


@pytest.mark.asyncio
async def test_background_pages_reach_back_exactly_seven_days(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    """The newest page's last row is exactly 7 days older than its newest: the page below it is
    read for the chart; one older by a second is left for a scroll."""
    newest = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)
    for extra, pages in ((timedelta(0), 2), (timedelta(seconds=1), 1)):
        hook = hook_of(server)
        for n in range(PER_PAGE - 1):
            server.store.add_webhook_log(hook, created_at=newest - timedelta(minutes=n))
        for n in range(PER_PAGE + 1):
            last = newest - timedelta(days=7) - extra - timedelta(minutes=n)
            server.store.add_webhook_log(hook, created_at=last)
        transport.paths.clear()
        monitor = WebhookMonitor(client, DeliveryArchive(), list_every=3600, backfill_every=0)
        monitor.watch(hook)
        async with running(monitor) as task:
            await wait_for(asleep(monitor, task))
        assert transport.count(LOGS) == pages, extra


class UndatedLast(CountingTransport):
    """A log whose first page ends with a delivery without `created_at` (a hostile server)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if not request.url.path.endswith(LOGS):
            return response
        body = json.loads(await response.aread())
        body["data"][-1]["created_at"] = None
        return httpx.Response(response.status_code, json=body, request=request)


@pytest.mark.asyncio
async def test_a_delivery_without_a_date_does_not_stop_the_loop(server: SandboxServer) -> None:
    hook = hook_of(server)
    add_logs(server, hook, 2 * PER_PAGE)
    transport = UndatedLast()
    async with ApiClient(
        server.base_url, server.keys.admin, retry=FAST, transport=transport
    ) as api:
        monitor = WebhookMonitor(api, DeliveryArchive(), list_every=3600, backfill_every=0)
        monitor.watch(hook)
        async with running(monitor) as task:
            await wait_for(asleep(monitor, task))
            assert monitor.archive.count(hook) == PER_PAGE
    # Its place below the 7 days is unknown: left for a scroll, not read in the background.
    assert transport.count(LOGS) == 1


def fresh_queued_row(server: SandboxServer) -> str:
    hook = hook_of(server)
    add_logs(server, hook, 3)
    server.store.add_webhook_log(hook, outcome="queued", created_at=datetime.now(UTC))
    return hook


@pytest.mark.asyncio
async def test_a_log_with_a_fresh_queued_row_is_polled_at_the_faster_pace(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = fresh_queued_row(server)
    monitor = WebhookMonitor(
        client, DeliveryArchive(), list_every=3600, logs_every=3600, undecided_every=0
    )
    monitor.watch(hook)
    async with running(monitor):
        await wait_for(lambda: transport.count(LOGS) >= 3)


@pytest.mark.asyncio
async def test_a_log_without_queued_rows_is_polled_at_the_slower_pace(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    add_logs(server, hook, 3)
    monitor = WebhookMonitor(
        client, DeliveryArchive(), list_every=3600, logs_every=3600, undecided_every=0
    )
    monitor.watch(hook)
    async with running(monitor) as task:
        await wait_for(asleep(monitor, task))
    assert transport.count(LOGS) == 1


@pytest.mark.asyncio
async def test_a_row_queued_for_long_no_longer_speeds_the_polling(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = fresh_queued_row(server)
    later = datetime.now(UTC) + timedelta(hours=1)
    monitor = WebhookMonitor(
        client,
        DeliveryArchive(),
        list_every=3600,
        logs_every=3600,
        undecided_every=0,
        wall=lambda: later,
    )
    monitor.watch(hook)
    async with running(monitor) as task:
        await wait_for(asleep(monitor, task))
    assert transport.count(LOGS) == 1


@pytest.mark.asyncio
async def test_a_404_on_a_log_is_logged_with_the_servers_words(
    server: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    hook = hook_of(server)
    transport = LogsGone()
    async with ApiClient(
        server.base_url, server.keys.admin, retry=FAST, transport=transport
    ) as api:
        monitor = WebhookMonitor(api, DeliveryArchive(), clock=lambda: 0.0)
        monitor.watch(hook)
        with caplog.at_level(logging.INFO, logger="app.sync.webhook_monitor"):
            async with running(monitor) as task:
                await wait_for(asleep(monitor, task))
    said = [
        (record.levelno, record.getMessage())
        for record in caplog.records
        if record.name == "app.sync.webhook_monitor"
    ]
    assert said == [(logging.INFO, "a webhook read answered 404: Not found.")]
