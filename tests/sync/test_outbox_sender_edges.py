"""What the sender says and waits for when it has to stop, and what a refused batch keeps as its
reason: the exact words of a status line, the wait before the next pass, and that a pass stopped
by a failed check sends nothing."""

from __future__ import annotations

import httpx
import pytest

from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxState
from app.sync.outbox_sender import BACKOFF_MAX, BACKOFF_START, OutboxSender, SenderStatus
from tests.api.helpers import FakeClock, json_response, make_client, sandbox_client

NO_RETRY = RetryPolicy(max_attempts=1, jitter=0.0)


def one_batch(account: str = "acc-1") -> BatchRequest:
    return BatchRequest(
        content="Hello",
        destinations=[Destination(social_account_id=account, content_type="x_post")],
    )


@pytest.mark.asyncio
async def test_a_429_without_retry_after_waits_the_first_backoff_step(store: LocalStore) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return json_response(429, {"message": "Too Many Attempts."})

    client, recorder, _ = make_client(handler, retry=NO_RETRY)
    outbox = Outbox(store)
    entry = await outbox.enqueue(one_batch())
    statuses: list[SenderStatus] = []
    async with client:
        result = await OutboxSender(outbox, client, on_status=statuses.append).send_pending()
    assert statuses[-1] == SenderStatus("rate_limited", "Too Many Attempts.", BACKOFF_START)
    assert result.retry_in == BACKOFF_START
    assert result.stopped
    waiting = outbox.get(entry.id)
    assert waiting is not None
    assert waiting.state is OutboxState.QUEUED
    assert waiting.reason == "Waiting: Too Many Attempts."
    assert len(recorder.requests) == 1


@pytest.mark.asyncio
async def test_a_429_says_the_servers_words_and_waits_its_retry_after(store: LocalStore) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return json_response(429, {"message": "Slow down."}, {"Retry-After": "42"})

    client, _, _ = make_client(handler, retry=NO_RETRY)
    outbox = Outbox(store)
    await outbox.enqueue(one_batch())
    statuses: list[SenderStatus] = []
    async with client:
        result = await OutboxSender(outbox, client, on_status=statuses.append).send_pending()
    assert statuses[-1] == SenderStatus("rate_limited", "Slow down.", 42)
    assert result.retry_in == 42


@pytest.mark.asyncio
async def test_a_refused_key_blocks_with_its_hint_until_the_longest_wait(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    outbox = Outbox(store)
    entry = await outbox.enqueue(one_batch(sandbox.store.account_id("x")))
    statuses: list[SenderStatus] = []
    async with sandbox_client(sandbox, sandbox.keys.expired) as client:
        result = await OutboxSender(outbox, client, on_status=statuses.append).send_pending()
    waiting = outbox.get(entry.id)
    assert waiting is not None
    assert waiting.reason is not None
    words = waiting.reason.removeprefix("Waiting: ")
    assert words != waiting.reason
    status = statuses[-1]
    assert status.phase == "blocked"
    assert status.retry_in is None  # it waits for the user, not for a time
    assert status.message.startswith(f"{words} ")
    assert len(status.message) > len(words) + 10  # the hint says what to do
    assert result.retry_in == BACKOFF_MAX
    assert result.stopped


@pytest.mark.asyncio
async def test_offline_says_why_and_waits_the_first_backoff_step(store: LocalStore) -> None:
    outbox = Outbox(store)
    entry = await outbox.enqueue(one_batch())
    statuses: list[SenderStatus] = []
    # Port 9 on loopback: nothing listens, the connection is refused.
    async with ApiClient(
        "http://127.0.0.1:9/api", "pd_test_key", clock=FakeClock(), retry=NO_RETRY
    ) as offline:
        result = await OutboxSender(outbox, offline, on_status=statuses.append).send_pending()
    waiting = outbox.get(entry.id)
    assert waiting is not None
    assert waiting.reason is not None
    words = waiting.reason.removeprefix("Waiting: ")
    assert words
    assert words != waiting.reason
    assert statuses[-1] == SenderStatus("offline", words, BACKOFF_START)
    assert result.retry_in == BACKOFF_START


@pytest.mark.asyncio
async def test_a_check_that_cannot_read_the_list_stops_the_pass_before_any_send(
    store: LocalStore,
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "30"})

    client, recorder, _ = make_client(handler, retry=NO_RETRY)
    outbox = Outbox(store)
    lost = await outbox.enqueue(one_batch())
    await outbox.transition(lost.id, OutboxState.SENDING, expect=[OutboxState.QUEUED], sending=True)
    await outbox.transition(lost.id, OutboxState.OUTCOME_UNKNOWN, expect=[OutboxState.SENDING])
    queued = await outbox.enqueue(one_batch("acc-2"))
    async with client:
        result = await OutboxSender(outbox, client, settle_seconds=0).send_pending()
    assert [request.method for request in recorder.requests] == ["GET"]
    assert result.stopped
    assert result.unknown == [lost.id]
    assert result.retry_in == 30
    still = outbox.get(queued.id)
    assert still is not None
    assert still.state is OutboxState.QUEUED


@pytest.mark.asyncio
async def test_a_422_keeps_every_field_error_in_its_reason(store: LocalStore) -> None:
    errors = {
        "destinations.0.meta.board_id": ["The board is required.", "Pick one of yours."],
        "content": ["The content is too long."],
    }

    def handler(request: httpx.Request) -> httpx.Response:
        return json_response(422, {"message": "The given data was invalid.", "errors": errors})

    client, _, _ = make_client(handler, retry=NO_RETRY)
    outbox = Outbox(store)
    entry = await outbox.enqueue(one_batch())
    async with client:
        result = await OutboxSender(outbox, client).send_pending()
    refused = outbox.get(entry.id)
    assert refused is not None
    assert refused.state is OutboxState.NEEDS_ATTENTION
    assert result.attention == [entry.id]
    assert refused.reason == (
        "The given data was invalid. content: The content is too long.; "
        "destinations.0.meta.board_id: The board is required. Pick one of yours."
    )
    assert refused.field_errors == errors
