"""The outbox against the sandbox: exactly once under dropped answers, restarts, 422, offline."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.models.posts import Post
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxEntry, OutboxState
from app.sync.outbox_sender import OutboxSender, SenderStatus
from tests.api.helpers import FakeClock, sandbox_client


@pytest.fixture
def faulty(tmp_path: Path) -> Iterator[SandboxServer]:
    """Half of the successful batch answers are dropped after the commit."""
    with SandboxServer(tmp_path / "faulty.db", fail_after_commit=0.5, fault_seed=7) as server:
        yield server


def batch(server: SandboxServer, text: str, *, two: bool = True) -> BatchRequest:
    destinations = [
        Destination(social_account_id=server.store.account_id("x"), content_type="x_post")
    ]
    if two:
        destinations.append(
            Destination(
                social_account_id=server.store.account_id("linkedin"),
                content_type="linkedin_post",
                content=f"{text} (LinkedIn)",
            )
        )
    return BatchRequest(content=text, destinations=destinations)


async def drain(sender: OutboxSender, outbox: Outbox, passes: int = 10) -> None:
    for _ in range(passes):
        await sender.send_pending()
        if not outbox.entries(
            [OutboxState.QUEUED, OutboxState.SENDING, OutboxState.OUTCOME_UNKNOWN]
        ):
            return
    raise AssertionError(f"the outbox did not settle: {outbox.entries()}")


def server_post_ids(server: SandboxServer) -> set[str]:
    with server.store.tx() as db:
        return {
            str(row[0])
            for row in db.all("SELECT id FROM posts WHERE workspace_id = ?", (server.workspace_id,))
        }


@pytest.mark.asyncio
async def test_dropped_answers_never_create_a_batch_twice(
    faulty: SandboxServer, store: LocalStore
) -> None:
    outbox = Outbox(store)
    changes: list[OutboxEntry] = []
    outbox.listeners.append(changes.append)
    for n in range(30):
        await outbox.enqueue(batch(faulty, f"Post number {n}", two=n % 2 == 0))
    created: dict[int, list[str]] = {}

    def handed_over(entry: OutboxEntry, posts: list[Post]) -> None:
        assert entry.id not in created
        created[entry.id] = [post.id for post in posts]

    async with sandbox_client(faulty) as client:
        sender = OutboxSender(outbox, client, settle_seconds=0, on_created=handed_over)
        await drain(sender, outbox)

    assert faulty.faults is not None
    assert faulty.faults.dropped >= 5
    entries = outbox.entries()
    assert {entry.state for entry in entries} == {OutboxState.SENT}
    expected_posts = sum(len(entry.request.destinations) for entry in entries)
    assert faulty.store.post_count() == expected_posts
    credited = [post_id for entry in entries for post_id in entry.post_ids]
    assert len(credited) == len(set(credited)) == expected_posts
    assert set(credited) == server_post_ids(faulty)
    # The posts are handed over whether the answer arrived or was found by reconciling.
    assert created == {entry.id: list(entry.post_ids) for entry in entries}
    assert any(change.state is OutboxState.OUTCOME_UNKNOWN for change in changes)


@pytest.mark.asyncio
async def test_identical_batches_with_lost_answers_each_get_their_own_posts(
    tmp_path: Path, store: LocalStore
) -> None:
    with SandboxServer(tmp_path / "all.db", fail_after_commit=1.0) as server:
        outbox = Outbox(store)
        first = await outbox.enqueue(batch(server, "Same words"))
        second = await outbox.enqueue(batch(server, "Same words"))
        async with sandbox_client(server) as client:
            sender = OutboxSender(outbox, client, settle_seconds=0)
            result = await sender.send_pending()
            assert set(result.unknown) == {first.id, second.id}
            await sender.send_pending()
        assert server.store.post_count() == 4
        a, b = outbox.get(first.id), outbox.get(second.id)
        assert a is not None
        assert b is not None
        assert a.state is b.state is OutboxState.SENT
        assert len(set(a.post_ids) | set(b.post_ids)) == 4


@pytest.mark.asyncio
async def test_a_restart_after_the_request_left_finds_the_posts_instead_of_resending(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    path = tmp_path / "restart.local.sqlite3"
    first_run = LocalStore.open(path)
    outbox = Outbox(first_run)
    entry = await outbox.enqueue(batch(sandbox, "Sent just before the crash"))
    # The app took the entry and the request reached the server, then the app died.
    await outbox.transition(
        entry.id, OutboxState.SENDING, expect=[OutboxState.QUEUED], sending=True
    )
    async with sandbox_client(sandbox) as client:
        created = await client.posts.create_batch(entry.request)
    first_run.close()

    second_run = LocalStore.open(path)
    try:
        outbox = Outbox(second_run)
        async with sandbox_client(sandbox) as client:
            await drain(OutboxSender(outbox, client, settle_seconds=0), outbox)
        after = outbox.get(entry.id)
    finally:
        second_run.close()
    assert after is not None
    assert after.state is OutboxState.SENT
    assert sorted(after.post_ids) == sorted(post.id for post in created)
    assert sandbox.store.post_count() == 2


@pytest.mark.asyncio
async def test_a_restart_before_the_request_left_sends_it_once(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    path = tmp_path / "restart.local.sqlite3"
    first_run = LocalStore.open(path)
    entry = await Outbox(first_run).enqueue(batch(sandbox, "Never left"))
    await Outbox(first_run).transition(
        entry.id, OutboxState.SENDING, expect=[OutboxState.QUEUED], sending=True
    )
    first_run.close()

    second_run = LocalStore.open(path)
    try:
        outbox = Outbox(second_run)
        async with sandbox_client(sandbox) as client:
            sender = OutboxSender(outbox, client, settle_seconds=0)
            await drain(sender, outbox)
        after = outbox.get(entry.id)
    finally:
        second_run.close()
    assert after is not None
    assert after.state is OutboxState.SENT
    assert after.attempts == 2
    assert sandbox.store.post_count() == 2


@pytest.mark.asyncio
async def test_a_send_in_flight_elsewhere_is_left_alone_until_the_settle_time(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """An entry another sender (a second window, `postdesk import`) is sending right now is
    neither resent nor checked too early: a check before the request commits would find
    nothing and send it a second time."""
    outbox = Outbox(store)
    entry = await outbox.enqueue(batch(sandbox, "Maybe still on its way"))
    await outbox.transition(
        entry.id, OutboxState.SENDING, expect=[OutboxState.QUEUED], sending=True
    )
    async with sandbox_client(sandbox) as client:
        result = await OutboxSender(outbox, client, settle_seconds=3600).send_pending()
    current = outbox.get(entry.id)
    assert current is not None
    assert current.state is OutboxState.SENDING
    assert current.attempts == 1
    assert result.retry_in is not None
    assert result.retry_in > 3000
    assert sandbox.store.post_count() == 0


@pytest.mark.asyncio
async def test_the_same_source_key_is_queued_once(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    outbox = Outbox(store)
    first = await outbox.enqueue(batch(sandbox, "Row 2"), source_key="csv:abc")
    again = await outbox.enqueue(batch(sandbox, "Row 2"), source_key="csv:abc")
    assert again.id == first.id
    assert len(outbox.entries()) == 1


@pytest.mark.asyncio
async def test_a_refused_batch_needs_attention_with_the_servers_reason(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    outbox = Outbox(store)
    request = BatchRequest(
        destinations=[
            Destination(
                social_account_id=sandbox.store.account_id("pinterest"),
                content_type="pinterest_pin",
                meta={"title": "No board"},
            )
        ],
        content="No board chosen",
        status="scheduled",
        scheduled_at=datetime.now(UTC).replace(microsecond=0) + timedelta(days=1),
    )
    entry = await outbox.enqueue(request)
    async with sandbox_client(sandbox) as client:
        result = await OutboxSender(outbox, client, settle_seconds=0).send_pending()
    after = outbox.get(entry.id)
    assert result.attention == [entry.id]
    assert after is not None
    assert after.state is OutboxState.NEEDS_ATTENTION
    assert after.reason is not None
    assert "destinations.0.meta" in after.reason
    assert list(after.field_errors) == ["destinations.0.meta.board_id"]
    assert sandbox.store.post_count() == 0


@pytest.mark.asyncio
async def test_a_schedule_time_that_passed_asks_before_sending(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    outbox = Outbox(store)
    past = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)
    request = batch(sandbox, "Was due an hour ago").model_copy(
        update={"status": "scheduled", "scheduled_at": past}
    )
    entry = await outbox.enqueue(request)
    async with sandbox_client(sandbox) as client:
        sender = OutboxSender(outbox, client, settle_seconds=0)
        await sender.send_pending()
        waiting = outbox.get(entry.id)
        assert waiting is not None
        assert waiting.state is OutboxState.NEEDS_CONFIRMATION
        assert sandbox.store.post_count() == 0

        later = datetime.now(UTC).replace(microsecond=0) + timedelta(days=1)
        await outbox.confirm(entry.id, scheduled_at=later)
        await drain(sender, outbox)
    sent = outbox.get(entry.id)
    assert sent is not None
    assert sent.state is OutboxState.SENT
    assert sandbox.store.post_count() == 2


@pytest.mark.asyncio
async def test_offline_entries_wait_queued_and_go_when_the_server_is_back(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    outbox = Outbox(store)
    entry = await outbox.enqueue(batch(sandbox, "Written on a train"))
    statuses: list[SenderStatus] = []
    # Port 9 on loopback: nothing listens, the connection is refused.
    async with ApiClient(
        "http://127.0.0.1:9/api",
        "pd_test_key",
        clock=FakeClock(),
        retry=RetryPolicy(max_attempts=1),
    ) as offline:
        result = await OutboxSender(outbox, offline, on_status=statuses.append).send_pending()
    waiting = outbox.get(entry.id)
    assert waiting is not None
    assert waiting.state is OutboxState.QUEUED
    assert result.stopped
    assert result.retry_in is not None
    assert statuses[-1].phase == "offline"

    async with sandbox_client(sandbox) as client:
        await drain(OutboxSender(outbox, client, settle_seconds=0), outbox)
    sent = outbox.get(entry.id)
    assert sent is not None
    assert sent.state is OutboxState.SENT
    assert sandbox.store.post_count() == 2


@pytest.mark.asyncio
async def test_an_entry_whose_outcome_is_unknown_cannot_be_discarded(
    faulty: SandboxServer, store: LocalStore
) -> None:
    outbox = Outbox(store)
    entry = await outbox.enqueue(batch(faulty, "Keep me"))
    await outbox.transition(entry.id, OutboxState.OUTCOME_UNKNOWN, expect=[OutboxState.QUEUED])
    with pytest.raises(ValueError, match="may already be on the server"):
        await outbox.discard(entry.id)
    assert outbox.get(entry.id) is not None


@pytest.mark.asyncio
async def test_two_senders_on_one_file_send_each_batch_once(
    faulty: SandboxServer, tmp_path: Path
) -> None:
    """The app and `postdesk import` (or two windows) may send from the same outbox."""
    path = tmp_path / "shared.local.sqlite3"
    first, second = LocalStore.open(path), LocalStore.open(path)
    try:
        outboxes = [Outbox(first), Outbox(second)]
        for n in range(30):
            await outboxes[n % 2].enqueue(batch(faulty, f"Shared {n}", two=n % 3 == 0))

        async def run(outbox: Outbox) -> None:
            async with sandbox_client(faulty) as client:
                sender = OutboxSender(outbox, client, settle_seconds=1)
                for _ in range(40):
                    result = await sender.send_pending()
                    if not outbox.entries(
                        [OutboxState.QUEUED, OutboxState.SENDING, OutboxState.OUTCOME_UNKNOWN]
                    ):
                        return
                    await asyncio.sleep(min(result.retry_in or 0.05, 1.0))

        await asyncio.gather(*(run(outbox) for outbox in outboxes))
        entries = outboxes[0].entries()
    finally:
        first.close()
        second.close()
    assert {entry.state for entry in entries} == {OutboxState.SENT}
    expected = sum(len(entry.request.destinations) for entry in entries)
    assert faulty.store.post_count() == expected
    assert sum(entry.attempts for entry in entries) >= 30
