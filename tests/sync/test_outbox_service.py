"""The outbox service: the one loop that sends a workspace's outbox, against the sandbox."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import OutboxEntry, OutboxState
from app.sync.outbox_sender import SenderStatus
from app.sync.outbox_service import OutboxService
from tests.api.helpers import FakeClock, sandbox_client


def batch(server: SandboxServer, text: str) -> BatchRequest:
    account = server.store.account_id("x")
    return BatchRequest(
        content=text, destinations=[Destination(social_account_id=account, content_type="x_post")]
    )


@pytest.mark.asyncio
async def test_a_closed_rate_gate_is_waited_out_before_anything_is_taken(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """After a 429 the workspace's gate is closed: the entry stays queued (a quit meanwhile
    leaves nothing "outcome unknown") and leaves once the wait is over, on the client's clock."""
    clock = FakeClock()
    seen: list[tuple[str, OutboxState]] = []
    async with sandbox_client(sandbox, clock=clock) as client:
        service = OutboxService(store, client, settle_seconds=0)
        entry = await service.outbox.enqueue(batch(sandbox, "After the wait"))

        def heard(status: SenderStatus) -> None:
            current = service.outbox.get(entry.id)
            assert current is not None
            seen.append((status.phase, current.state))

        service.on_status = heard
        client.rate_gate.hold(30.0)
        async with service.running_loop():
            await service.watch(lambda: sandbox.store.post_count() == 1, 10)
    assert seen[0] == ("rate_limited", OutboxState.QUEUED)
    assert 30.0 in clock.sleeps
    sent = service.outbox.get(entry.id)
    assert sent is not None
    assert sent.state is OutboxState.SENT


@pytest.mark.asyncio
async def test_waiting_for_an_entry_ends_when_the_loop_must_wait(store: LocalStore) -> None:
    """Offline: the composer hears "queued" after the round that tried, not never."""
    async with ApiClient(
        "http://127.0.0.1:9/api", "k", clock=FakeClock(), retry=RetryPolicy(max_attempts=1)
    ) as client:
        service = OutboxService(store, client)
        async with service.running_loop():
            since = service.rounds_begun
            entry = await service.enqueue(
                BatchRequest(
                    content="On the train",
                    destinations=[Destination(social_account_id="a", content_type="x_post")],
                )
            )
            outcome = await asyncio.wait_for(service.outcome(entry.id, since), 10)
            assert service.status.phase == "offline"
    assert outcome is None
    waiting = service.outbox.get(entry.id)
    assert waiting is not None
    assert waiting.state is OutboxState.QUEUED


@pytest.mark.asyncio
async def test_a_sent_batch_hides_its_draft_in_the_same_commit(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """Whoever hears "sent" finds the draft gone already (and a crash in between cannot leave
    a sent post's draft behind to be sent twice)."""
    draft = await store.create_draft('{"content": "Sent from a draft"}')
    drafts_when_sent: list[list[str]] = []

    def heard(entry: OutboxEntry) -> None:
        if entry.state is OutboxState.SENT:
            drafts_when_sent.append([d.id for d in store.list_drafts()])

    async with sandbox_client(sandbox) as client:
        service = OutboxService(store, client, settle_seconds=0)
        service.outbox.listeners.append(heard)
        async with service.running_loop():
            since = service.rounds_begun
            entry = await service.enqueue(batch(sandbox, "Sent from a draft"), draft_id=draft.id)
            outcome = await asyncio.wait_for(service.outcome(entry.id, since), 10)
    assert outcome is not None
    assert outcome.state is OutboxState.SENT
    assert drafts_when_sent == [[]]
    assert await store.restore_draft(draft.id) is not None  # hidden, not destroyed


@pytest.mark.asyncio
async def test_the_loop_ends_when_cancelled_and_releases_who_waits(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    async with sandbox_client(sandbox) as client:
        service = OutboxService(store, client, settle_seconds=0)
        task = asyncio.ensure_future(service.run())
        await service.watch(lambda: service.rounds_done > 0, 10)
        waiting = asyncio.ensure_future(service.watch(lambda: False))
        task.cancel()
        assert await asyncio.wait_for(waiting, 10) is False  # released, not left hanging
    assert task.cancelled()
    assert service.stopped


@pytest.mark.asyncio
async def test_a_drafts_file_that_cannot_be_read_is_said_and_the_loop_goes_on(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    broken = LocalStore.open(tmp_path / "broken.local.sqlite3")
    heard: list[SenderStatus] = []
    async with sandbox_client(sandbox) as client:
        service = OutboxService(broken, client, on_status=heard.append)
        broken.close()  # every read now fails, as a file gone bad would
        async with service.running_loop():
            await service.watch(lambda: service.status.phase == "error", 10)
            assert not service.stopped  # it tries again later rather than end
    assert heard[-1].retry_in == 2.0
    assert "closed" in heard[-1].message
