"""A watched webhook deleted on the server does not set the monitor reading in a loop.

Every 404 on a webhook's log asked for the list again *and* forced the log read with it, so a
watched webhook the server no longer had was read back to back, list and log, for as long as it
stayed watched: a request loop against a rate-limited service."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from app.api.client import ApiClient
from app.sandbox.harness import SandboxServer
from app.store.delivery_logs import DeliveryArchive
from app.sync.webhook_monitor import WebhookMonitor
from tests.sync.test_webhook_monitor import CountingTransport, wait_for


@pytest.mark.asyncio
async def test_a_watched_webhook_gone_from_the_server_is_read_once_then_let_go(
    server: SandboxServer,
    client: ApiClient,
    transport: CountingTransport,
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/gone")
    other = server.store.create_webhook("https://hooks.example.com/kept")
    monitor = WebhookMonitor(client, DeliveryArchive(), clock=lambda: 0.0)  # nothing falls due
    await monitor.read_list()
    monitor.watch(hook)
    await client.webhooks.delete(hook)
    transport.paths.clear()
    task = asyncio.ensure_future(monitor.run())
    try:
        await wait_for(lambda: monitor._waiting is not None)  # asleep: the pass is over
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await monitor.aclose()
    lists = transport.count("GET /api/webhooks") - transport.count("/logs")
    assert lists <= 2, transport.paths
    assert transport.count(f"/webhooks/{hook}/logs") <= 1, transport.paths
    assert monitor.watched is None  # the list no longer has it
    assert [webhook.id for webhook in monitor.webhooks or []] == [other]
