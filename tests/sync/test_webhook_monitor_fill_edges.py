"""The webhook monitor's fills below a gap at their edges, against the sandbox over loopback:
how many log pages a fill costs and which rows end up kept (none lost, none misplaced) when the
log grew, shrank, has no total, outruns the reads, or has a newer gap above the one asked for;
what listeners hear and the total the chart's note counts.

Log positions count from the newest delivery (position 1) as the server lists them, 15 to a
page."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from app.api.client import ApiClient
from app.sandbox.deliveries import prune_logs
from app.sandbox.harness import SandboxServer
from app.store.delivery_logs import DeliveryArchive
from app.sync.webhook_monitor import LogsChanged, WebhookMonitor
from tests.sync.test_webhook_monitor import (
    FAST,
    CountingTransport,
    add_logs,
    kept_ids,
    server_ids,
)
from tests.sync.test_webhook_monitor_mutant_edges import (
    LOGS,
    fill_all,
    gap_id,
    hook_of,
    logs_read,
)


@pytest.mark.asyncio
async def test_a_gap_pushed_off_a_page_end_is_found_by_place_in_one_request(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    """20 rows read to position 15, then 10 new: the gap's row is at position 25, inside page 2,
    which is the last page."""
    hook = hook_of(server)
    add_logs(server, hook, 20)
    heard: list[LogsChanged] = []
    monitor = WebhookMonitor(client, DeliveryArchive(), on_logs=heard.append)
    await monitor.top_up(hook)
    add_logs(server, hook, 10, first=20)
    await monitor.top_up(hook)  # page 1: 10 new and 5 kept
    assert monitor.archive.total(hook) == 30
    heard.clear()
    before = logs_read(transport)
    assert await monitor.fill_below(hook, gap_id(monitor, hook))
    assert logs_read(transport) - before == 1
    assert monitor.archive.first_gap(hook) is None  # page 2 was the last
    assert kept_ids(monitor.archive, hook) == server_ids(server, hook)
    assert heard == [LogsChanged(hook, added=tuple(server_ids(server, hook)[25:]))]
    heard.clear()
    await monitor.top_up(hook)  # nothing new: nobody is told anything
    assert heard == []


@pytest.mark.asyncio
async def test_a_gap_inside_a_page_with_more_below_reads_that_page_only(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    """25 rows read to position 15, 10 new, then one more not yet topped up: the gap's row at
    26 of 36, inside page 2, which has a page after it."""
    hook = hook_of(server)
    add_logs(server, hook, 25)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    add_logs(server, hook, 10, first=25)
    await monitor.top_up(hook)
    add_logs(server, hook, 1, first=35)
    before = logs_read(transport)
    assert await monitor.fill_below(hook, gap_id(monitor, hook))
    assert logs_read(transport) - before == 1
    assert monitor.archive.total(hook) == 36  # the count that page said
    ids = server_ids(server, hook)
    gap = monitor.archive.first_gap(hook)
    assert gap is not None
    assert gap.id == ids[29]  # the last row of page 2
    await monitor.top_up(hook)
    await fill_all(monitor, hook)
    assert kept_ids(monitor.archive, hook) == ids


@pytest.mark.asyncio
async def test_a_gap_row_ending_a_page_after_the_log_grew_is_read_with_the_next_page(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    """30 rows read to position 15, then 15 new: the gap's row ends page 2; page 3 follows it."""
    hook = hook_of(server)
    add_logs(server, hook, 30)
    heard: list[LogsChanged] = []
    monitor = WebhookMonitor(client, DeliveryArchive(), on_logs=heard.append)
    await monitor.top_up(hook)
    add_logs(server, hook, 15, first=30)
    heard.clear()
    before = logs_read(transport)
    assert await monitor.fill_below(hook, gap_id(monitor, hook))
    # The page after the one it ended (now page 2: its total moved), then pages 2 and 3.
    assert logs_read(transport) - before == 3
    assert monitor.archive.first_gap(hook) is None  # page 3 ends the log
    assert monitor.archive.total(hook) == 45
    ids = server_ids(server, hook)
    assert heard == [LogsChanged(hook, added=tuple(ids[30:]))]
    _timeline, note = monitor.chart(hook)
    assert note == ""
    await monitor.top_up(hook)
    assert kept_ids(monitor.archive, hook) == ids


@pytest.mark.asyncio
async def test_a_gap_ending_a_page_of_an_unchanged_log_costs_the_next_page_only(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    add_logs(server, hook, 40)
    heard: list[LogsChanged] = []
    monitor = WebhookMonitor(client, DeliveryArchive(), on_logs=heard.append)
    await monitor.top_up(hook)
    heard.clear()
    before = logs_read(transport)
    assert await monitor.fill_below(hook, gap_id(monitor, hook))
    assert logs_read(transport) - before == 1
    assert heard == [LogsChanged(hook, added=tuple(server_ids(server, hook)[15:30]))]


def recent_and_old(server: SandboxServer, hook: str, recent: int, old: int) -> None:
    """`recent` deliveries of the last hour, `old` ones past the service's 7 days."""
    now = datetime.now(UTC).replace(microsecond=0)
    for n in range(recent):
        server.store.add_webhook_log(hook, created_at=now - timedelta(minutes=n + 1))
    for n in range(old):
        server.store.add_webhook_log(hook, created_at=now - timedelta(days=8, minutes=n))


def service_prunes(server: SandboxServer) -> None:
    with server.store.tx() as db:
        assert prune_logs(db) > 0


@pytest.mark.asyncio
async def test_after_the_service_dropped_its_oldest_rows_the_gap_is_read_from_page_one(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    recent_and_old(server, hook, recent=35, old=5)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    service_prunes(server)  # 35 left: the count shrank, no row moved
    before = logs_read(transport)
    assert await monitor.fill_below(hook, gap_id(monitor, hook))
    # The guess past its page (total moved), then its page (it ends it) and the next.
    assert logs_read(transport) - before == 3
    await fill_all(monitor, hook)
    assert kept_ids(monitor.archive, hook) == server_ids(server, hook)


@pytest.mark.asyncio
async def test_a_gap_row_the_service_dropped_is_closed_after_looking_on_both_sides(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    recent_and_old(server, hook, recent=10, old=20)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)  # positions 1-15: the gap's row is an old one
    service_prunes(server)  # 10 left, all above it
    before = logs_read(transport)
    assert await monitor.fill_below(hook, gap_id(monitor, hook))
    assert logs_read(transport) - before == 3  # the guess, page 1 (above it), page 2 (empty)
    assert monitor.archive.first_gap(hook) is None
    assert monitor.archive.count(hook) == 15  # what was kept stays kept


class NoTotals(CountingTransport):
    """A server whose log pages leave `meta.total` out (the spec lets `meta` be partial)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if not request.url.path.endswith(LOGS):
            return response
        body = json.loads(await response.aread())
        body["meta"].pop("total", None)
        return httpx.Response(response.status_code, json=body, request=request)


@pytest.mark.asyncio
async def test_without_totals_a_gap_ending_page_one_costs_pages_one_and_two(
    server: SandboxServer,
) -> None:
    hook = hook_of(server)
    add_logs(server, hook, 30)
    transport = NoTotals()
    async with ApiClient(
        server.base_url, server.keys.admin, retry=FAST, transport=transport
    ) as api:
        monitor = WebhookMonitor(api, DeliveryArchive())
        await monitor.top_up(hook)
        assert monitor.archive.head_total(hook) is None
        before = logs_read(transport)
        assert await monitor.fill_below(hook, gap_id(monitor, hook))
        assert logs_read(transport) - before == 2
        assert kept_ids(monitor.archive, hook) == server_ids(server, hook)
        assert monitor.archive.first_gap(hook) is None


class Busy(CountingTransport):
    """A webhook delivering faster than its log is paged: 20 new rows before each page read."""

    def __init__(self, server: SandboxServer, hook: str) -> None:
        super().__init__()
        self.server, self.hook = server, hook
        self.busy = False
        self.added = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.busy and request.url.path.endswith(LOGS):
            add_logs(self.server, self.hook, 20, first=1000 + self.added)
            self.added += 20
        return await super().handle_async_request(request)


@pytest.mark.asyncio
async def test_a_gap_outrun_by_new_deliveries_stays_a_gap_for_later(server: SandboxServer) -> None:
    hook = hook_of(server)
    add_logs(server, hook, 30)
    transport = Busy(server, hook)
    async with ApiClient(
        server.base_url, server.keys.admin, retry=FAST, transport=transport
    ) as api:
        monitor = WebhookMonitor(api, DeliveryArchive())
        await monitor.top_up(hook)
        gap = gap_id(monitor, hook)
        transport.busy = True
        before = logs_read(transport)
        assert not await monitor.fill_below(hook, gap)
        assert logs_read(transport) - before == 5  # the guess, then 4 pages looking further down
        row = monitor.archive.row(hook, gap)
        assert row is not None
        assert row.gap_below  # its rows are still to read: not given up
        transport.busy = False
        await monitor.top_up(hook)
        await fill_all(monitor, hook)
        assert kept_ids(monitor.archive, hook) == server_ids(server, hook)


@pytest.mark.asyncio
async def test_a_gap_under_a_newer_gap_is_read_after_the_newer_one_is(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    """30 rows read to 15; 50 new, a top-up reads 45 of them: a gap at 45, the old one at 65.
    The newer gap's next page (5 new rows and 10 kept) closes it; the old one is then read
    where it is."""
    hook = hook_of(server)
    add_logs(server, hook, 30)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    lower = gap_id(monitor, hook)
    add_logs(server, hook, 50, first=30)
    await monitor.top_up(hook)
    assert gap_id(monitor, hook) != lower
    before = logs_read(transport)
    assert await monitor.fill_below(hook, lower)
    assert logs_read(transport) - before == 2
    await fill_all(monitor, hook)
    assert kept_ids(monitor.archive, hook) == server_ids(server, hook)


@pytest.mark.asyncio
async def test_a_gap_under_a_newer_gap_of_several_pages_loses_no_row(
    server: SandboxServer, client: ApiClient
) -> None:
    """A fill asked for the older gap (the log view shows rows below the newer gap that arrived
    while it was scrolled) used to read one page below the newer gap, then place the older gap
    by counting rows above it: 55 rows were still unread up there, so the rows it stored "below"
    the old gap were new ones, its gap was closed, and the 15 rows really below it were never
    read."""
    hook = hook_of(server)
    add_logs(server, hook, 30)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    lower = gap_id(monitor, hook)
    add_logs(server, hook, 100, first=30)
    await monitor.top_up(hook)
    assert await monitor.fill_below(hook, lower)
    await fill_all(monitor, hook)
    assert kept_ids(monitor.archive, hook) == server_ids(server, hook)
    assert monitor.archive.count(hook) == 130


@pytest.mark.asyncio
async def test_a_gap_under_a_newer_gap_too_long_to_read_at_once_waits_for_later(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    """85 rows unread under the newer gap: a fill of the older one reads 4 of those pages, says
    it is not closed yet, and keeps it."""
    hook = hook_of(server)
    add_logs(server, hook, 30)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    lower = gap_id(monitor, hook)
    add_logs(server, hook, 130, first=30)
    await monitor.top_up(hook)
    before = logs_read(transport)
    assert not await monitor.fill_below(hook, lower)
    assert logs_read(transport) - before == 4
    row = monitor.archive.row(hook, lower)
    assert row is not None
    assert row.gap_below
    await fill_all(monitor, hook)
    assert kept_ids(monitor.archive, hook) == server_ids(server, hook)


@pytest.mark.asyncio
async def test_reads_of_two_webhooks_at_once_are_both_made(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    a, b = hook_of(server, "a"), hook_of(server, "b")
    add_logs(server, a, 30)
    add_logs(server, b, 20)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await asyncio.gather(monitor.top_up(a), monitor.top_up(b))
    assert (monitor.archive.count(a), monitor.archive.count(b)) == (15, 15)
    assert logs_read(transport) == 2
    closed = await asyncio.gather(
        monitor.fill_below(a, gap_id(monitor, a)), monitor.fill_below(b, gap_id(monitor, b))
    )
    assert closed == [True, True]
    assert kept_ids(monitor.archive, a) == server_ids(server, a)
    assert kept_ids(monitor.archive, b) == server_ids(server, b)


@pytest.mark.asyncio
async def test_the_chart_counts_the_total_of_the_last_page_read(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    """45 rows read to 15; 15 new, the gap filled (pages 2 and 3: the total said 60); then the
    service drops its 15 oldest: 45 again, the count the newest page had. The next fill's page
    says 45: that is what the chart's note counts from now on."""
    hook = hook_of(server)
    recent_and_old(server, hook, recent=30, old=15)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    now = datetime.now(UTC).replace(microsecond=0)
    for n in range(15):
        server.store.add_webhook_log(hook, created_at=now + timedelta(seconds=n))
    assert await monitor.fill_below(hook, gap_id(monitor, hook))
    assert monitor.archive.total(hook) == 60
    service_prunes(server)
    before = logs_read(transport)
    assert await monitor.fill_below(hook, gap_id(monitor, hook))
    assert logs_read(transport) - before == 1
    assert monitor.archive.total(hook) == 45
