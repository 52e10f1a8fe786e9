"""The outbox loop where a slip would go unseen by the other tests: it comes back by itself when
a pass asked for it (a lost answer to check, a file that could not be written), a wake during a
pass is not lost (and still waits out a Retry-After), what the service hands on (settle time,
clock skew, summaries, source keys, posts just created), and `watch` with its limit.

Against the sandbox over loopback; waits are bounded by `asyncio.wait_for`, never slept."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.models.posts import Post
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync import outbox_service
from app.sync.outbox import OutboxEntry, OutboxState
from app.sync.outbox_sender import SenderStatus
from app.sync.outbox_service import OutboxService
from tests.api.helpers import FakeClock, json_response, make_client, post_json, sandbox_client
from tests.sync.test_outbox_sender_mutant_edges import LossyTransport, Wall, real_now

ONE_TRY = RetryPolicy(max_attempts=1, jitter=0.0)
BOUND = 8.0
"""Seconds a wait may take before the test fails (what is waited for takes well under one)."""


def batch(server: SandboxServer, text: str = "Spring menu") -> BatchRequest:
    return BatchRequest(
        content=text,
        destinations=[
            Destination(social_account_id=server.store.account_id("x"), content_type="x_post")
        ],
    )


def batch_to(account: str, text: str) -> BatchRequest:
    return BatchRequest(
        content=text, destinations=[Destination(social_account_id=account, content_type="x_post")]
    )


def state_of(service: OutboxService, entry: OutboxEntry) -> OutboxState | None:
    current = service.outbox.get(entry.id)
    return current.state if current is not None else None


async def until(service: OutboxService, predicate: Callable[[], bool]) -> bool:
    return await asyncio.wait_for(service.watch(predicate), BOUND)


# -- the loop comes back by itself -------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_lost_answer_is_checked_by_the_loop_itself_after_the_settle_time_given(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """A timeout after the server saved it: the loop sleeps the service's settle time (0 here,
    not the default 30 s), reads the list and marks it sent, nobody waking it. Sent once."""
    transport = LossyTransport("lost")
    async with sandbox_client(sandbox, retry=ONE_TRY, transport=transport) as client:
        service = OutboxService(store, client, settle_seconds=0)
        entry = await service.outbox.enqueue(batch(sandbox))
        async with service.running_loop():
            sent = await until(service, lambda: state_of(service, entry) is OutboxState.SENT)
    assert sent
    assert transport.requests.count("POST /api/posts/batch") == 1
    assert sandbox.store.post_count() == 1


@pytest.fixture
def fast_store(tmp_path: Path) -> Iterator[LocalStore]:
    """The file's clock runs 5 minutes fast."""
    opened = LocalStore.open(
        tmp_path / "fast.local.sqlite3", now=Wall(real_now() + timedelta(minutes=5))
    )
    yield opened
    opened.close()


@pytest.mark.asyncio
async def test_the_skew_given_to_the_service_is_the_one_the_check_allows(
    sandbox: SandboxServer, fast_store: LocalStore
) -> None:
    """This computer's clock runs 5 minutes fast for the file: with a skew of 10 minutes the
    post the server dates 5 minutes "before" the send is found (the default 2 minutes would
    leave it doubtful, waiting for the user)."""
    async with sandbox_client(sandbox, retry=ONE_TRY, transport=LossyTransport("lost")) as client:
        service = OutboxService(fast_store, client, settle_seconds=0, skew=timedelta(minutes=10))
        entry = await service.outbox.enqueue(batch(sandbox))
        async with service.running_loop():
            settled = await until(
                service,
                lambda: state_of(service, entry) in (OutboxState.SENT, OutboxState.NEEDS_ATTENTION),
            )
    assert settled
    assert state_of(service, entry) is OutboxState.SENT
    assert sandbox.store.post_count() == 1


@pytest.mark.asyncio
async def test_after_the_file_could_not_be_written_the_loop_tries_again_by_itself(
    sandbox: SandboxServer, store: LocalStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first write of the pass fails (a disk full, say): the status says so, nothing is
    lost, and after the (shortened) first backoff step the loop sends it, unwoken."""
    monkeypatch.setattr(outbox_service, "BACKOFF_START", 0.05)
    refusing = sqlite3.connect(store.path)
    refusing.execute(
        "CREATE TRIGGER full BEFORE UPDATE ON outbox "
        "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
    )
    refusing.commit()
    heard: list[SenderStatus] = []

    def status(said: SenderStatus) -> None:
        heard.append(said)
        if said.phase == "error":
            refusing.execute("DROP TRIGGER full")
            refusing.commit()

    try:
        async with sandbox_client(sandbox, retry=ONE_TRY) as client:
            service = OutboxService(store, client, settle_seconds=0, on_status=status)
            entry = await service.outbox.enqueue(batch(sandbox))
            async with service.running_loop():
                sent = await until(service, lambda: state_of(service, entry) is OutboxState.SENT)
    finally:
        refusing.close()
    assert sent
    assert heard[0].phase == "error"
    assert heard[0].retry_in == 0.05
    assert sandbox.store.post_count() == 1


# -- waking ------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_wake_during_a_rate_limited_pass_runs_the_next_round_after_the_retry_after(
    store: LocalStore,
) -> None:
    """The composer wakes the loop while its pass is being refused with `Retry-After: 600`:
    the wake is kept, the next round waits out the 600 s on the client's clock, then sends.
    Without the wake the loop would sleep the 600 s (on the real clock)."""
    service: OutboxService | None = None
    posts = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal posts
        posts += 1
        if posts == 1:
            assert service is not None
            service.wake()
            return json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "600"})
        return json_response(201, {"posts": [post_json("p1", content="Later")]})

    client, recorder, clock = make_client(handler, retry=ONE_TRY)
    async with client:
        service = OutboxService(store, client, settle_seconds=0)
        entry = await service.outbox.enqueue(batch_to("acc-1", "Later"))
        async with service.running_loop():
            sent = await until(service, lambda: state_of(service, entry) is OutboxState.SENT)
    assert sent
    assert posts == 2
    assert 600.0 in clock.sleeps
    assert len(recorder.requests) == 2


@pytest.mark.asyncio
async def test_a_rounds_count_taken_after_a_round_still_sees_the_next_round_end(
    store: LocalStore,
) -> None:
    """Offline: the composer takes `rounds_begun` after the loop has run a round, queues, and
    hears "it waits" once the round it woke has ended (not never)."""
    async with ApiClient("http://127.0.0.1:9/api", "k", clock=FakeClock(), retry=ONE_TRY) as client:
        service = OutboxService(store, client)
        async with service.running_loop():
            assert await until(service, lambda: service.rounds_done >= 1)
            since = service.rounds_begun
            entry = await service.enqueue(batch_to("acc-1", "On the train"))
            outcome = await asyncio.wait_for(service.outcome(entry.id, since), BOUND)
    assert outcome is None
    assert state_of(service, entry) is OutboxState.QUEUED


@pytest.mark.asyncio
async def test_queueing_after_the_loop_ended_keeps_the_entry_for_the_next_loop(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    async with sandbox_client(sandbox, retry=ONE_TRY) as client:
        service = OutboxService(store, client, settle_seconds=0)
        async with service.running_loop():
            assert await until(service, lambda: service.rounds_done >= 1)
        assert service.stopped
        entry = await service.enqueue(batch(sandbox, "After the import"))
    assert state_of(service, entry) is OutboxState.QUEUED
    assert sandbox.store.post_count() == 0


# -- what the service hands on ---------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_posts_of_a_batch_just_sent_are_handed_on_with_their_entry(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    created: list[tuple[int, list[str]]] = []

    def heard(entry: OutboxEntry, posts: list[Post]) -> None:
        created.append((entry.id, [post.id for post in posts]))

    async with sandbox_client(sandbox, retry=ONE_TRY) as client:
        service = OutboxService(store, client, settle_seconds=0, on_created=heard)
        entry = await service.enqueue(batch(sandbox))
        async with service.running_loop():
            assert await until(service, lambda: bool(created))
    sent = service.outbox.get(entry.id)
    assert sent is not None
    assert created == [(entry.id, list(sent.post_ids))]
    assert len(sent.post_ids) == 1


@pytest.mark.asyncio
async def test_the_summary_and_source_key_given_are_kept(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """The outbox list shows the caller's summary; a CSV row queued twice is one entry."""
    async with sandbox_client(sandbox, retry=ONE_TRY) as client:
        service = OutboxService(store, client)
        first = await service.enqueue(
            batch(sandbox), summary="Row 7: spring menu", source_key="menu.csv#7"
        )
        again = await service.enqueue(
            batch(sandbox), summary="Row 7 again", source_key="menu.csv#7"
        )
    assert first.summary == "Row 7: spring menu"
    assert again.id == first.id
    assert len(service.outbox.entries()) == 1


@pytest.mark.asyncio
async def test_sending_a_queued_post_as_a_draft_drops_its_queue(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """ "Send as draft" on a refused queue post: a draft has no slot in the channel queue."""
    async with sandbox_client(sandbox, retry=ONE_TRY) as client:
        service = OutboxService(store, client)
        queued = batch(sandbox).model_copy(update={"status": "scheduled", "queue": "next"})
        entry = await service.outbox.enqueue(queued)
        await service.outbox.transition(
            entry.id, OutboxState.NEEDS_ATTENTION, expect=[OutboxState.QUEUED], reason="No slot."
        )
        again = await service.confirm(entry.id, as_draft=True)
        with pytest.raises(KeyError):
            await service.confirm(entry.id + 100, as_draft=True)
    assert again.state is OutboxState.QUEUED
    assert (again.request.status, again.request.queue, again.request.scheduled_at) == (
        "draft",
        None,
        None,
    )
    assert service.outbox.get(entry.id + 100) is None


@pytest.mark.asyncio
async def test_confirming_a_passed_schedule_with_a_new_time_keeps_it_scheduled(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """Only "send as draft" makes a draft: a new time keeps the post scheduled, and is sent."""
    async with sandbox_client(sandbox, retry=ONE_TRY) as client:
        service = OutboxService(store, client, settle_seconds=0)
        passed = real_now() - timedelta(hours=1)
        late = batch(sandbox).model_copy(update={"status": "scheduled", "scheduled_at": passed})
        entry = await service.outbox.enqueue(late)
        await service.sender.send_pending()
        assert state_of(service, entry) is OutboxState.NEEDS_CONFIRMATION
        later = (real_now() + timedelta(days=2)).replace(microsecond=0)
        again = await service.confirm(entry.id, scheduled_at=later)
        assert (again.request.status, again.request.scheduled_at) == ("scheduled", later)
        async with service.running_loop():
            assert await until(service, lambda: state_of(service, entry) is OutboxState.SENT)
    sent = service.outbox.get(entry.id)
    assert sent is not None
    [post_id] = sent.post_ids
    assert (sandbox.store.post(post_id) or {}).get("status") == "scheduled"


# -- watch -------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_watch_hears_an_entry_change_on_its_own(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """No loop runs: a change to the outbox alone wakes whoever watches it."""
    async with sandbox_client(sandbox, retry=ONE_TRY) as client:
        service = OutboxService(store, client)
        watching = asyncio.ensure_future(service.watch(lambda: bool(service.outbox.entries())))
        await asyncio.sleep(0)
        assert not watching.done()
        await service.outbox.enqueue(batch(sandbox))
        assert await asyncio.wait_for(watching, BOUND) is True


@pytest.mark.asyncio
async def test_watch_gives_up_after_its_limit(store: LocalStore) -> None:
    async with ApiClient("http://127.0.0.1:9/api", "k", clock=FakeClock()) as client:
        service = OutboxService(store, client)
        assert await asyncio.wait_for(service.watch(lambda: False, 0.05), BOUND) is False


@pytest.mark.asyncio
async def test_watch_with_a_limit_under_a_second_still_waits_for_news(store: LocalStore) -> None:
    async with ApiClient("http://127.0.0.1:9/api", "k", clock=FakeClock()) as client:
        service = OutboxService(store, client)
        news = False
        watching = asyncio.ensure_future(service.watch(lambda: news, 1.0))
        await asyncio.sleep(0)
        news = True
        service.sender.report(SenderStatus("offline", "No connection."))
        assert await asyncio.wait_for(watching, BOUND) is True
