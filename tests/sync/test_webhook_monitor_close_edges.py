"""Closing the webhook monitor is bounded: a read that ignores its cancellation (a worker that
never hands back, issue 18 §1) makes `aclose` give up on it after its few seconds instead of
holding the session's close (a quit, a workspace switch) for ever.

The one test here waits that bound out (about 5 s): kept apart so other files stay fast."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import pytest

from app.api.client import ApiClient
from app.sandbox.harness import SandboxServer
from app.store.delivery_logs import DeliveryArchive
from app.sync.webhook_monitor import WebhookMonitor
from tests.sync.test_webhook_monitor import FAST, CountingTransport


class Stubborn(CountingTransport):
    """A log read that swallows its cancellation until released."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if not request.url.path.endswith("/logs"):
            return await super().handle_async_request(request)
        self.entered.set()
        while not self.release.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await self.release.wait()
        return httpx.Response(503, json={"message": "Released."}, request=request)


@pytest.mark.asyncio
async def test_closing_gives_up_on_a_read_that_ignores_its_cancellation(
    server: SandboxServer,
) -> None:
    hook = server.store.create_webhook("https://hooks.example.com/a")
    transport = Stubborn()
    async with ApiClient(
        server.base_url, server.keys.admin, retry=FAST, transport=transport
    ) as api:
        monitor = WebhookMonitor(api, DeliveryArchive())
        monitor.request_refresh()  # the monitor's own task: the list, then the log
        monitor.watch(hook)
        await asyncio.wait_for(transport.entered.wait(), timeout=30)
        stuck = set(monitor._inflight.values()) | monitor._own
        try:
            # Far above the bound: a close without one fails here instead of hanging the suite.
            await asyncio.wait_for(monitor.aclose(), timeout=60)
            assert monitor.closed
            assert not all(task.done() for task in stuck)  # given up on, not waited for
        finally:
            transport.release.set()
            await asyncio.gather(*stuck, return_exceptions=True)
