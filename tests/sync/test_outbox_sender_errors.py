"""How the sender treats each kind of failure: timeouts wait, 429 waits, auth stops, 5xx checks.

A read timeout cannot be produced by the sandbox on demand, so those cases use
`httpx.MockTransport`; everything the sandbox can do is tested against it.
"""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest

from app.api.retry import RetryPolicy
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxState
from app.sync.outbox_sender import OutboxSender, SenderStatus
from tests.api.helpers import json_response, make_client, posts_page, sandbox_client


def one_batch(account: str = "acc-1") -> BatchRequest:
    return BatchRequest(
        content="Hello",
        destinations=[Destination(social_account_id=account, content_type="x_post")],
    )


@pytest.mark.asyncio
async def test_a_timeout_waits_the_full_settle_time_before_looking(store: LocalStore) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            raise httpx.ReadTimeout("no answer", request=request)
        return json_response(200, posts_page(1, 1, total=0))

    client, recorder, _ = make_client(handler)
    outbox = Outbox(store)
    entry = await outbox.enqueue(one_batch())
    async with client:
        sender = OutboxSender(outbox, client, settle_seconds=30)
        result = await sender.send_pending()
        again = await sender.send_pending()
    current = outbox.get(entry.id)
    assert current is not None
    assert current.state is OutboxState.OUTCOME_UNKNOWN
    assert current.sent_at is not None
    assert current.check_after == current.sent_at + timedelta(seconds=30)
    assert result.retry_in is not None
    assert 25 < result.retry_in <= 30
    assert again.sent == again.requeued == []
    # One POST, and no list read yet: nothing was looked at, nothing resent.
    assert [r.method for r in recorder.requests] == ["POST"]


@pytest.mark.asyncio
async def test_a_5xx_answer_is_checked_at_once_not_resent(store: LocalStore) -> None:
    posts_seen = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal posts_seen
        if request.method == "POST":
            return json_response(500, {"message": "Server Error"})
        posts_seen += 1
        return json_response(200, posts_page(1, 1, total=0))

    client, recorder, _ = make_client(handler)
    outbox = Outbox(store)
    entry = await outbox.enqueue(one_batch())
    async with client:
        sender = OutboxSender(outbox, client, settle_seconds=0)
        first = await sender.send_pending()
        assert first.unknown == [entry.id]
        second = await sender.send_pending()
    # Not on the server: queued again and sent a second time, only after the list was read.
    assert second.requeued == [entry.id]
    assert [r.method for r in recorder.requests] == ["POST", "GET", "POST"]


@pytest.mark.asyncio
async def test_rate_limiting_leaves_the_entry_queued_until_retry_after(
    store: LocalStore,
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "42"})

    client, recorder, _ = make_client(handler, retry=RetryPolicy(max_attempts=1, jitter=0.0))
    outbox = Outbox(store)
    entry = await outbox.enqueue(one_batch())
    statuses: list[SenderStatus] = []
    async with client:
        result = await OutboxSender(outbox, client, on_status=statuses.append).send_pending()
    current = outbox.get(entry.id)
    assert current is not None
    assert current.state is OutboxState.QUEUED
    assert result.stopped
    assert result.retry_in == 42
    assert statuses[-1].phase == "rate_limited"
    assert len(recorder.requests) == 1


@pytest.mark.asyncio
async def test_an_expired_key_stops_the_sender_and_keeps_everything_queued(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    outbox = Outbox(store)
    first = await outbox.enqueue(one_batch(sandbox.store.account_id("x")))
    second = await outbox.enqueue(one_batch(sandbox.store.account_id("linkedin")))
    statuses: list[SenderStatus] = []
    async with sandbox_client(sandbox, sandbox.keys.expired) as client:
        result = await OutboxSender(outbox, client, on_status=statuses.append).send_pending()
    assert result.stopped
    assert statuses[-1].phase == "blocked"
    assert [outbox.get(i).state for i in (first.id, second.id)] == [  # type: ignore[union-attr]
        OutboxState.QUEUED,
        OutboxState.QUEUED,
    ]
    assert sandbox.store.post_count() == 0
