"""The webhook monitor's top-ups, list and chart at their edges, against the sandbox over
loopback: how many log pages a top-up costs around a queued row, what a fill costs where there
is nothing to fill, when listeners hear of the list, when a kept list is reused, when the
archive is pruned, and what the chart's note says at its 7-day edge. Fills below a gap:
`test_webhook_monitor_fill_edges.py`; the polling loop: `test_webhook_monitor_loop_edges.py`.

Log positions count from the newest delivery (position 1) as the server lists them, 15 to a
page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.api.client import ApiClient
from app.models.webhooks import Webhook
from app.sandbox.harness import SandboxServer
from app.store.delivery_logs import DeliveryArchive
from app.sync.webhook_monitor import LogsChanged, WebhookMonitor
from tests.sync.test_webhook_monitor import (
    START,
    CountingTransport,
    add_logs,
    server_ids,
)

LOGS = "/logs"


def hook_of(server: SandboxServer, name: str = "a") -> str:
    return server.store.create_webhook(f"https://hooks.example.com/{name}")


def logs_read(transport: CountingTransport) -> int:
    return transport.count(LOGS)


async def fill_all(monitor: WebhookMonitor, hook: str) -> None:
    for _ in range(20):
        gap = monitor.archive.first_gap(hook)
        if gap is None:
            return
        assert await monitor.fill_below(hook, gap.id)
    raise AssertionError("the gaps never closed")


def gap_id(monitor: WebhookMonitor, hook: str) -> str:
    gap = monitor.archive.first_gap(hook)
    assert gap is not None
    return gap.id


# -- top-ups ------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_short_log_read_whole_has_no_gap_and_every_page_is_counted(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    add_logs(server, hook, 5)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    assert monitor.archive.first_gap(hook) is None  # the server's list ends there
    assert monitor.requests == logs_read(transport) == 1
    await monitor.top_up(hook)
    assert monitor.requests == logs_read(transport) == 2
    # Nothing to read below a row without a gap, nor below one never kept: no request.
    newest = server_ids(server, hook)[0]
    assert await monitor.fill_below(hook, newest)
    assert await monitor.fill_below(hook, "never-kept")
    assert logs_read(transport) == 2


def queued_at(server: SandboxServer, hook: str, position: int, rows: int = 30) -> str:
    """`rows` decided deliveries with a queued one at `position` (1 = newest)."""
    older = rows - position
    add_logs(server, hook, older)
    queued = server.store.add_webhook_log(
        hook, outcome="queued", created_at=START + timedelta(seconds=older)
    )
    add_logs(server, hook, position - 1, first=older + 1)
    assert server_ids(server, hook)[position - 1] == queued
    return queued


def decide(server: SandboxServer, log_id: str) -> None:
    with server.store.tx() as db:
        db.update(
            "webhook_logs",
            log_id,
            {"state": "delivered", "delivered_at": db.now(), "attempts": 1, "response_status": 200},
        )


@pytest.mark.asyncio
async def test_a_top_up_reads_down_to_a_queued_row_on_page_two_and_sees_it_decided(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    queued = queued_at(server, hook, position=20)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    await fill_all(monitor, hook)
    decide(server, queued)
    before = logs_read(transport)
    change = await monitor.top_up(hook)
    assert logs_read(transport) - before == 2  # page 1 held kept rows, but not the queued one
    assert change == LogsChanged(hook, changed=(queued,))
    row = monitor.archive.row(hook, queued)
    assert row is not None
    assert row.outcome == "delivered"


@pytest.mark.asyncio
async def test_a_top_up_stops_at_the_page_whose_oldest_row_is_the_queued_one(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    queued_at(server, hook, position=15)
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    await fill_all(monitor, hook)
    before = logs_read(transport)
    await monitor.top_up(hook)
    assert logs_read(transport) - before == 1


@pytest.mark.asyncio
async def test_a_row_left_queued_for_long_no_longer_costs_a_second_page(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook = hook_of(server)
    queued = queued_at(server, hook, position=20)
    later = datetime.now(UTC) + timedelta(hours=1)  # an hour after it was first kept queued
    monitor = WebhookMonitor(client, DeliveryArchive(), wall=lambda: later)
    await monitor.top_up(hook)
    await fill_all(monitor, hook)
    before = logs_read(transport)
    await monitor.top_up(hook)
    assert logs_read(transport) - before == 1
    row = monitor.archive.row(hook, queued)
    assert row is not None
    assert row.outcome == "queued"


# -- the list ---------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_listeners_hear_the_list_only_when_it_changed(
    server: SandboxServer, client: ApiClient
) -> None:
    hook = hook_of(server)
    heard: list[list[Webhook]] = []
    monitor = WebhookMonitor(client, DeliveryArchive(), on_webhooks=heard.append)
    await monitor.read_list()
    await monitor.read_list()
    assert len(heard) == 1
    server.store.set_webhook_paused(hook)
    await monitor.read_list()
    assert [[w.status for w in webhooks] for webhooks in heard] == [["enabled"], ["paused"]]


@pytest.mark.asyncio
async def test_a_list_exactly_max_age_old_is_reused(
    server: SandboxServer, client: ApiClient, transport: CountingTransport
) -> None:
    hook_of(server)
    monitor = WebhookMonitor(client, DeliveryArchive(), clock=lambda: 100.0)
    await monitor.read_list()
    await monitor.read_list(max_age=0)
    assert monitor.requests == 1


@pytest.mark.asyncio
async def test_the_notifier_gets_a_fresh_list_when_nothing_polls_it(
    server: SandboxServer, client: ApiClient
) -> None:
    hook = hook_of(server)
    monitor = WebhookMonitor(client, DeliveryArchive())
    assert [w.id for w in await monitor.current()] == [hook]  # never read: read now
    server.store.set_webhook_paused(hook)
    assert [w.status for w in await monitor.current()] == ["paused"]


@pytest.mark.asyncio
async def test_rows_past_the_retention_go_at_the_first_list_of_a_run_only(
    server: SandboxServer, client: ApiClient
) -> None:
    hook = hook_of(server)
    now = datetime.now(UTC)
    for days in (1, 5):
        server.store.add_webhook_log(hook, created_at=now - timedelta(days=days))
    wall = [now]
    monitor = WebhookMonitor(client, DeliveryArchive(), wall=lambda: wall[0])
    await monitor.top_up(hook)
    await monitor.read_list()
    assert monitor.archive.count(hook) == 2
    wall[0] = now + timedelta(days=88)  # both past 90 days now: the next run drops them
    await monitor.read_list()
    assert monitor.archive.count(hook) == 2


# -- the chart's note -------------------------------------------------------------------------


async def chart_setup(
    server: SandboxServer, client: ApiClient, gap_age: timedelta
) -> tuple[WebhookMonitor, str, datetime]:
    """30 deliveries a minute apart whose 15th (the gap after the newest page) is `gap_age`
    old at the chart's `now`; the chart's 7 days hold the 15 kept rows."""
    hook = hook_of(server)
    now = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
    gap_at = now - gap_age
    for n in range(30):
        server.store.add_webhook_log(hook, created_at=gap_at + timedelta(minutes=14 - n))
    monitor = WebhookMonitor(client, DeliveryArchive())
    await monitor.top_up(hook)
    return monitor, hook, now


@pytest.mark.asyncio
async def test_the_chart_note_counts_a_gap_exactly_seven_days_old(
    server: SandboxServer, client: ApiClient
) -> None:
    monitor, hook, now = await chart_setup(server, client, timedelta(days=7))
    _timeline, note = monitor.chart(hook, now)
    assert note == "chart shows 0 of 30 deliveries read so far"  # its first hour starts later


@pytest.mark.asyncio
async def test_the_chart_has_no_note_for_a_gap_older_than_its_days(
    server: SandboxServer, client: ApiClient
) -> None:
    monitor, hook, now = await chart_setup(server, client, timedelta(days=7, seconds=1))
    _timeline, note = monitor.chart(hook, now)
    assert note == ""


@pytest.mark.asyncio
async def test_the_chart_note_is_left_out_when_every_delivery_is_counted(
    server: SandboxServer, client: ApiClient
) -> None:
    monitor, hook, now = await chart_setup(server, client, timedelta(days=1))
    timeline, note = monitor.chart(hook, now)
    assert timeline.buckets[-1].start == now  # its last hour is the one of `now`
    assert note == "chart shows 15 of 30 deliveries read so far"
    # The service dropped 15 of its rows since: it counts what is kept here.
    await monitor.archive.store_run(hook, [], reaches_end=False, total=15)
    _timeline, note = monitor.chart(hook, now)
    assert note == ""
