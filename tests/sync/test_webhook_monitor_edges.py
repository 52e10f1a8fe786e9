"""The webhook monitor's loop and its limits against the sandbox (loopback HTTP, real SQLite):
what it reads and when it stops reading, what a closed monitor still does, the chart's note."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from app.api.client import ApiClient
from app.api.errors import ApiError, NotFound
from app.sandbox.harness import SandboxServer
from app.store.delivery_logs import DeliveryArchive
from app.sync.webhook_monitor import BACKFILL_PAGES, PER_PAGE, WebhookMonitor
from tests.sync.test_webhook_monitor import FAST, CountingTransport, wait_for

LISTS = "GET /api/webhooks"


def list_reads(transport: CountingTransport) -> int:
    return transport.paths.count(LISTS)


def add_logs(server: SandboxServer, hook: str, count: int, newest: datetime) -> None:
    """`count` deliveries a minute apart up to `newest`: delivered, failed, queued in turn."""
    for n in range(count):
        server.store.add_webhook_log(
            hook,
            outcome=("delivered", "failed", "queued")[n % 3],
            attempts=(1, 3, 0)[n % 3],
            created_at=newest - timedelta(minutes=n),
        )


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


def asleep(monitor: WebhookMonitor) -> Callable[[], bool]:
    """The loop waits for its next due time (a timer, not a yield), nothing in flight."""
    return lambda: monitor._waiting is not None and not monitor.busy


@pytest.mark.asyncio
async def test_a_list_read_is_counted_and_a_fresh_one_is_reused(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    server.store.create_webhook("https://hooks.example.com/a")
    monitor = WebhookMonitor(client, DeliveryArchive())
    first = await monitor.read_list()
    assert monitor.requests == 1
    assert await monitor.read_list(max_age=60) == first
    assert monitor.requests == 1
    await monitor.read_list()
    assert monitor.requests == 2
    assert list_reads(transport) == 2


@pytest.mark.asyncio
async def test_the_missing_route_is_handed_to_who_listens(
    server: SandboxServer, client: ApiClient
) -> None:
    refused: list[ApiError] = []
    other = ApiClient(server.base_url + "/nowhere", server.keys.admin, retry=FAST)
    try:
        monitor = WebhookMonitor(other, DeliveryArchive(), on_unavailable=refused.append)
        with pytest.raises(NotFound) as raised:
            await monitor.read_list()
    finally:
        await other.aclose()
    assert refused == [raised.value]
    assert monitor.unavailable is raised.value


@pytest.mark.asyncio
async def test_f5_without_the_loop_reads_the_list_and_a_closed_monitor_reads_nothing(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    server.store.create_webhook("https://hooks.example.com/a")
    monitor = WebhookMonitor(client, DeliveryArchive())
    monitor.request_refresh()
    await wait_for(lambda: list_reads(transport) == 1 and not monitor.busy)

    monitor.request_refresh()  # a refresh in flight when the session closes
    await asyncio.sleep(0)  # one step of the loop: the refresh starts its read
    assert monitor._inflight
    await monitor.aclose()
    assert not monitor.busy  # ended with the monitor, not left running
    sent = list_reads(transport)
    monitor.request_refresh()
    assert not monitor.busy
    await asyncio.sleep(0)
    assert list_reads(transport) == sent


@pytest.mark.asyncio
async def test_showing_a_webhook_reads_its_log_at_once_and_nothing_is_read_while_none_shows(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    add_logs(server, hook, 5, datetime.now(UTC))
    monitor = WebhookMonitor(client, DeliveryArchive(), list_every=3600)
    async with running(monitor):
        await wait_for(asleep(monitor))
        assert monitor.running
        assert list_reads(transport) == 1
        assert transport.count("/logs") == 0
        assert await monitor.current() == monitor.webhooks  # the polled list: no request
        assert list_reads(transport) == 1

        monitor.watch(hook)  # wakes the sleeping loop
        await wait_for(lambda: monitor.archive.count(hook) == 5)
    assert not monitor.running
    monitor.watch(None)  # the page hidden after the loop ended: nothing to wake, no error
    assert transport.count("/logs") == 1
    assert list_reads(transport) == 1


@pytest.mark.asyncio
async def test_a_log_shown_first_is_read_whatever_the_clock_reads(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    add_logs(server, hook, 3, datetime.now(UTC))
    monitor = WebhookMonitor(client, DeliveryArchive(), clock=lambda: 0.0, list_every=3600)
    monitor.watch(hook)
    async with running(monitor):
        await wait_for(lambda: monitor.archive.count(hook) == 3)


@pytest.mark.asyncio
async def test_a_shown_webhook_gone_from_the_server_is_let_go_at_the_next_list(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    server.store.create_webhook("https://hooks.example.com/a")
    monitor = WebhookMonitor(client, DeliveryArchive(), list_every=3600, logs_every=3600)
    monitor.watch("deleted-meanwhile")
    async with running(monitor):
        await wait_for(asleep(monitor))
    assert list_reads(transport) == 1
    assert transport.count("/logs") == 0  # its log would only answer 404
    assert monitor.watched is None


class LogsGone(CountingTransport):
    """A server whose list still has a webhook whose log answers 404 (deleted in between)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/logs"):
            self.paths.append(f"{request.method} {request.url.path}")
            return httpx.Response(404, json={"message": "Not found."}, request=request)
        return await super().handle_async_request(request)


@pytest.mark.asyncio
async def test_a_log_answering_404_has_the_list_read_again_once_not_in_a_loop(
    server: SandboxServer,
) -> None:
    """Each 404 asked for the list and forced the log read with it: list, log, 404, list, log,
    404... back to back while the webhook stayed listed."""
    hook = server.store.create_webhook("https://hooks.example.com/a")
    transport = LogsGone()
    async with ApiClient(
        server.base_url, server.keys.admin, retry=FAST, transport=transport
    ) as api:
        monitor = WebhookMonitor(api, DeliveryArchive(), clock=lambda: 0.0)  # nothing falls due
        monitor.watch(hook)
        async with running(monitor):
            await wait_for(asleep(monitor))
    assert transport.count("/logs") == 1
    assert list_reads(transport) == 2  # the first, then once after the 404


@pytest.mark.asyncio
async def test_the_background_reads_stop_at_their_page_budget(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    pages = BACKFILL_PAGES + 3
    add_logs(server, hook, pages * PER_PAGE, datetime.now(UTC))  # 43 pages within 7 days
    monitor = WebhookMonitor(client, DeliveryArchive(), list_every=3600, backfill_every=0)
    monitor.watch(hook)
    async with running(monitor):
        await wait_for(asleep(monitor), limit=30)
        # The newest page, then one page a step up to the budget; the rest waits for a scroll.
        assert transport.count("/logs") == 1 + BACKFILL_PAGES
        assert monitor.archive.count(hook) == (1 + BACKFILL_PAGES) * PER_PAGE
        assert list_reads(transport) == 1


@pytest.mark.asyncio
async def test_the_chart_says_how_many_of_the_weeks_deliveries_are_read(
    server: SandboxServer, client: ApiClient
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    now = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)  # not today: the chart is of this week
    add_logs(server, hook, 40, now - timedelta(hours=1))
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)  # never read before: its newest page only
    timeline, note = monitor.chart(hook, now)
    assert (timeline.delivered, timeline.failed, timeline.queued) == (5, 5, 5)
    assert note == "chart shows 15 of 40 deliveries read so far"
