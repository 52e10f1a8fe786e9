"""The outbox loop's words while the rate gate is closed, and when the composer stops waiting for
an entry: only after a round that began after it asked."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.api.retry import RetryPolicy
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import OutboxState
from app.sync.outbox_sender import SenderStatus
from app.sync.outbox_service import OutboxService
from tests.api.helpers import FakeClock, json_response, make_client, post_json, sandbox_client


def one_batch(account: str, text: str = "Hello") -> BatchRequest:
    return BatchRequest(
        content=text,
        destinations=[Destination(social_account_id=account, content_type="x_post")],
    )


@pytest.mark.asyncio
async def test_a_gate_closed_for_under_a_second_says_one_second(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    heard: list[SenderStatus] = []
    async with sandbox_client(sandbox, clock=FakeClock()) as client:
        service = OutboxService(store, client, settle_seconds=0, on_status=heard.append)
        await service.outbox.enqueue(one_batch(sandbox.store.account_id("x")))
        client.rate_gate.hold(0.4)
        async with service.running_loop():
            await service.watch(lambda: sandbox.store.post_count() == 1, 10)
    assert (heard[0].phase, heard[0].message) == (
        "rate_limited",
        "Rate limited: sending again in 1 s.",
    )
    assert heard[0].retry_in == pytest.approx(0.4)


@pytest.mark.asyncio
async def test_waiting_for_an_entry_queued_after_an_offline_round_waits_for_the_next_round(
    store: LocalStore,
) -> None:
    """The round before it ended offline; the next one (which it woke) sends it."""
    posts = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal posts
        posts += 1
        if posts == 1:
            raise httpx.ConnectError("refused", request=request)
        return json_response(201, {"posts": [post_json(f"p{posts}")]})

    client, _, _ = make_client(handler, retry=RetryPolicy(max_attempts=1, jitter=0.0))
    async with client:
        service = OutboxService(store, client, settle_seconds=0)
        async with service.running_loop():
            first = await service.enqueue(one_batch("acc-1", "First"))
            assert await asyncio.wait_for(service.outcome(first.id, 0), 10) is None
            assert service.status.phase == "offline"

            since = service.rounds_begun
            second = await service.enqueue(one_batch("acc-1", "Second"))
            sent = await asyncio.wait_for(service.outcome(second.id, since), 10)
    assert sent is not None
    assert sent.state is OutboxState.SENT
