"""The outbox's sending and checking where a slip would go unseen by the other tests: when a lost
answer is looked for, the words an entry and the status line carry, a pass that goes on past an
entry it could not take or that was refused, and the reconciling rules at their boundaries.

Against the sandbox over loopback; `LossyTransport` loses chosen batch answers the way a network
does (a timeout after the server saved the batch, or before it got there)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.retry import RetryPolicy
from app.models.posts import Post
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxEntry, OutboxState
from app.sync.outbox_reconcile import DEFAULT_SKEW, DOUBT, reconcile
from app.sync.outbox_sender import OutboxSender, SenderStatus
from tests.api.helpers import sandbox_client
from tests.sync.entries import unknown_entry

Step = str | Callable[[httpx.Request], Awaitable[httpx.Response | None]]
ONE_TRY = RetryPolicy(max_attempts=1, jitter=0.0)


class LossyTransport(httpx.AsyncHTTPTransport):
    """Loopback HTTP where each batch POST takes the next step of its plan: "answer" (as the
    server answers), "lost" (the server saves it, its answer never comes: a read timeout),
    "unsent" (a timeout before it reached the server), or a coroutine run first (acting while
    the request is in flight; a response it returns is the answer)."""

    def __init__(self, *plan: Step) -> None:
        super().__init__()
        self.plan = list(plan)
        self.requests: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(f"{request.method} {request.url.path}")
        is_batch = request.method == "POST" and request.url.path.endswith("/posts/batch")
        step = self.plan.pop(0) if is_batch and self.plan else "answer"
        if step == "unsent":
            raise httpx.ReadTimeout("no answer", request=request)
        if callable(step):
            answer = await step(request)
            if answer is not None:
                return answer
        response = await super().handle_async_request(request)
        if step == "lost":
            await response.aread()
            await response.aclose()
            raise httpx.ReadTimeout("no answer", request=request)
        return response


class Wall:
    """The local file's clock: stands still until moved."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def move(self, **delta: float) -> None:
        self.at += timedelta(**delta)


def real_now() -> datetime:
    # Whole microseconds are kept by the file; the sandbox dates posts on the real clock.
    return datetime.now(UTC)


@pytest.fixture
def wall() -> Wall:
    return Wall(real_now())


@pytest.fixture
def timed_store(tmp_path: Path, wall: Wall) -> Iterator[LocalStore]:
    opened = LocalStore.open(tmp_path / "timed.local.sqlite3", now=wall)
    yield opened
    opened.close()


def batch(server: SandboxServer, text: str = "Spring menu") -> BatchRequest:
    return BatchRequest(
        content=text,
        destinations=[
            Destination(social_account_id=server.store.account_id("x"), content_type="x_post")
        ],
    )


def heard_states(outbox: Outbox) -> list[tuple[OutboxState, str | None]]:
    heard: list[tuple[OutboxState, str | None]] = []
    outbox.listeners.append(lambda entry: heard.append((entry.state, entry.reason)))
    return heard


# -- when a lost answer is looked for ------------------------------------------------------------


@pytest.mark.asyncio
async def test_an_answer_cut_off_mid_answer_is_looked_for_one_second_after_the_send(
    tmp_path: Path, timed_store: LocalStore, wall: Wall
) -> None:
    """The server had begun to answer, so it had finished: waiting the full settle time (30 s)
    would only delay the entry. At exactly one second the list is read and it is sent."""
    with SandboxServer(tmp_path / "s.db", fail_after_commit=1.0) as server:
        outbox = Outbox(timed_store)
        entry = await outbox.enqueue(batch(server))
        async with sandbox_client(server, retry=ONE_TRY) as client:
            sender = OutboxSender(outbox, client, settle_seconds=30)
            first = await sender.send_pending()
            unknown = outbox.get(entry.id)
            assert unknown is not None
            assert unknown.state is OutboxState.OUTCOME_UNKNOWN
            assert unknown.sent_at is not None
            assert unknown.check_after == unknown.sent_at + timedelta(seconds=1)
            assert first.retry_in == 1.0

            wall.move(seconds=1)
            second = await sender.send_pending()
        assert second.sent == [entry.id]
        done = outbox.get(entry.id)
        assert done is not None
        assert done.state is OutboxState.SENT
        assert server.store.post_count() == 1


@pytest.mark.asyncio
async def test_a_send_cut_off_is_left_to_its_sender_until_a_settle_time_after_it_left(
    sandbox: SandboxServer, timed_store: LocalStore, wall: Wall
) -> None:
    """Queued long ago, taken just now by another window's sender: its request may be in
    flight, so it is neither touched nor looked for until `settle_seconds` after it left."""
    outbox = Outbox(timed_store)
    entry = await outbox.enqueue(batch(sandbox))
    wall.move(minutes=10)
    await outbox.transition(
        entry.id, OutboxState.SENDING, expect=[OutboxState.QUEUED], sending=True
    )
    wall.move(seconds=29)
    transport = LossyTransport()
    async with sandbox_client(sandbox, retry=ONE_TRY, transport=transport) as client:
        sender = OutboxSender(outbox, client, settle_seconds=30)
        early = await sender.send_pending()
        still = outbox.get(entry.id)
        assert still is not None
        assert still.state is OutboxState.SENDING
        assert transport.requests == []
        assert early.retry_in == pytest.approx(1.0)

        wall.move(seconds=1)
        await sender.send_pending()
    checked = outbox.get(entry.id)
    assert checked is not None
    # Nothing of it is on the server: it was never sent, so it goes out now, once.
    assert checked.state is OutboxState.SENT
    assert sandbox.store.post_count() == 1


# -- the words -------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_batch_lost_before_it_arrived_is_checked_requeued_and_sent_once_with_its_words(
    sandbox: SandboxServer, timed_store: LocalStore
) -> None:
    outbox = Outbox(timed_store)
    heard = heard_states(outbox)
    entry = await outbox.enqueue(batch(sandbox))
    statuses: list[SenderStatus] = []
    transport = LossyTransport("unsent")
    async with sandbox_client(sandbox, retry=ONE_TRY, transport=transport) as client:
        sender = OutboxSender(outbox, client, settle_seconds=0, on_status=statuses.append)
        first = await sender.send_pending()
        second = await sender.send_pending()
    assert first.unknown == [entry.id]
    assert second.requeued == [entry.id]
    assert second.sent == [entry.id]
    assert statuses[:2] == [
        SenderStatus("sending", "Sending Spring menu — 1 destination"),
        SenderStatus("idle"),
    ]
    assert SenderStatus("checking", "Checking whether unsent batches arrived…") in statuses
    assert (
        OutboxState.OUTCOME_UNKNOWN,
        "No answer came after sending; it is unknown whether the server saved it.",
    ) in heard
    assert (OutboxState.QUEUED, "It was not created; sending it again.") in heard
    assert heard[-1] == (OutboxState.SENT, None)
    assert sandbox.store.post_count() == 1


@pytest.mark.asyncio
async def test_a_lost_batch_with_an_older_twin_on_the_server_waits_for_the_user_in_words(
    sandbox: SandboxServer, timed_store: LocalStore, wall: Wall
) -> None:
    """A post like it exists, made ten minutes before this batch was sent (clocks agreeing):
    not proven sent, not proven absent. It is not sent again; the reason says why."""
    outbox = Outbox(timed_store)
    transport = LossyTransport("answer", "unsent")
    async with sandbox_client(sandbox, retry=ONE_TRY, transport=transport) as client:
        await client.posts.create_batch(batch(sandbox))  # the twin, made on the web
        entry = await outbox.enqueue(batch(sandbox))
        wall.move(minutes=10)
        sender = OutboxSender(outbox, client, settle_seconds=0)
        await sender.send_pending()
        result = await sender.send_pending()
    assert result.attention == [entry.id]
    waiting = outbox.get(entry.id)
    assert waiting is not None
    assert waiting.state is OutboxState.NEEDS_ATTENTION
    assert waiting.reason == (
        "Its answer was lost, and a post like it is on the server but created earlier than "
        "this batch was sent, as far as the clocks tell (they agree within a minute). It was "
        "not sent again: check the calendar, then send it again or discard it."
    )
    assert sandbox.store.post_count() == 1


# -- a pass goes on past an entry it cannot send ---------------------------------------------------


@pytest.mark.asyncio
async def test_a_pass_goes_on_past_an_entry_the_user_discarded_while_it_ran(
    sandbox: SandboxServer, timed_store: LocalStore
) -> None:
    outbox = Outbox(timed_store)
    first = await outbox.enqueue(batch(sandbox, "First"))
    gone = await outbox.enqueue(batch(sandbox, "Discarded"))
    third = await outbox.enqueue(batch(sandbox, "Third"))

    async def discard_the_second(_request: httpx.Request) -> None:
        await outbox.discard(gone.id)

    transport = LossyTransport(discard_the_second)
    async with sandbox_client(sandbox, retry=ONE_TRY, transport=transport) as client:
        result = await OutboxSender(outbox, client).send_pending()
    assert result.sent == [first.id, third.id]
    assert transport.requests.count("POST /api/posts/batch") == 2
    assert outbox.get(gone.id) is None


@pytest.mark.asyncio
async def test_a_pass_goes_on_past_an_entry_the_server_refused(
    sandbox: SandboxServer, timed_store: LocalStore
) -> None:
    """A 422 is that entry's own problem: the next one still goes out in the same pass."""
    outbox = Outbox(timed_store)
    refused = await outbox.enqueue(
        BatchRequest(
            content="To nobody",
            destinations=[Destination(social_account_id="no-such-account", content_type="x_post")],
        )
    )
    after = await outbox.enqueue(batch(sandbox, "After it"))
    async with sandbox_client(sandbox, retry=ONE_TRY) as client:
        result = await OutboxSender(outbox, client).send_pending()
    assert result.attention == [refused.id]
    assert result.sent == [after.id]
    kept = outbox.get(refused.id)
    assert kept is not None
    assert kept.state is OutboxState.NEEDS_ATTENTION
    assert kept.field_errors
    assert sandbox.store.post_count() == 1


class HeldPages(httpx.AsyncHTTPTransport):
    """Holds the list's later pages until no more arrive, to see how many are asked at once."""

    def __init__(self) -> None:
        super().__init__()
        self.in_flight = 0
        self.most = 0
        self._release: asyncio.Event | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        later_page = request.method == "GET" and request.url.params.get("page", "1") != "1"
        if not later_page:
            return await super().handle_async_request(request)
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        if self._release is None:
            self._release = asyncio.Event()
            asyncio.get_running_loop().create_task(self._release_when_settled(self._release))
        try:
            await self._release.wait()
            return await super().handle_async_request(request)
        finally:
            self.in_flight -= 1

    async def _release_when_settled(self, release: asyncio.Event) -> None:
        # Every page asked for reaches here without I/O: let the loop go round until quiet.
        for _ in range(200):
            await asyncio.sleep(0)
        self._release = None
        release.set()


@pytest.mark.asyncio
async def test_the_check_reads_the_list_four_pages_at_a_time(
    demo_sandbox: SandboxServer, timed_store: LocalStore
) -> None:
    """Fast enough for a long list, and never more at once than the sync asks (rate limit)."""
    outbox = Outbox(timed_store)
    entry = await outbox.enqueue(batch(demo_sandbox, "Checked against a long list"))
    await outbox.transition(
        entry.id, OutboxState.SENDING, expect=[OutboxState.QUEUED], sending=True
    )
    await outbox.transition(entry.id, OutboxState.OUTCOME_UNKNOWN, expect=[OutboxState.SENDING])
    transport = HeldPages()
    async with sandbox_client(demo_sandbox, retry=ONE_TRY, transport=transport) as client:
        result = await OutboxSender(outbox, client, settle_seconds=0).send_pending()
    assert result.requeued == [entry.id]
    assert transport.most == 4


# -- reconciling at its boundaries -----------------------------------------------------------------

SENT = datetime(2026, 5, 1, 12, 0, 0, tzinfo=UTC)
ACCOUNT = "acc-x"


def _post(post_id: str, created: datetime | None, *accounts: str, text: str = "Hi") -> Post:
    platforms: list[dict[str, Any]] = [
        {
            "id": f"pp-{post_id}-{account}",
            "platform": "x",
            "content_type": "x_post",
            "social_account": {"id": account, "platform": "x"},
        }
        for account in accounts or (ACCOUNT,)
    ]
    return Post.model_validate(
        {
            "id": post_id,
            "content": text,
            "status": "draft",
            "created_at": created.strftime("%Y-%m-%d %H:%M:%S") if created else None,
            "platforms": platforms,
        }
    )


def _entry(entry_id: int, *, created: datetime, sent: datetime | None) -> OutboxEntry:
    request = BatchRequest(
        content="Hi", destinations=[Destination(social_account_id=ACCOUNT, content_type="x_post")]
    )
    return unknown_entry(entry_id, request, sent=sent, created=created)


def _verdicts(entries: list[OutboxEntry], posts: list[Post]) -> dict[int, tuple[Any, ...]]:
    return {
        verdict.entry_id: (verdict.post_ids, verdict.complete, verdict.doubtful)
        for verdict in reconcile(entries, posts, set())
    }


def test_the_earlier_send_takes_the_post_even_when_queued_later() -> None:
    """Two identical batches, one post: it belongs to the one sent first (the later one was
    queued first but waited); the other was not created and goes out again."""
    queued_first = _entry(1, created=SENT - timedelta(minutes=5), sent=SENT + timedelta(seconds=30))
    sent_first = _entry(2, created=SENT - timedelta(minutes=1), sent=SENT)
    post = _post("p1", SENT)
    verdicts = _verdicts([queued_first, sent_first], [post])
    assert verdicts[2] == (("p1",), True, False)
    assert verdicts[1] == ((), False, False)


def test_a_twin_made_after_queueing_but_before_the_send_is_not_this_batch() -> None:
    """Queued at noon, sent an hour later (it waited offline): a post like it made at 12:10
    (someone on the web) is not proof that this batch arrived."""
    entry = _entry(1, created=SENT, sent=SENT + timedelta(hours=1))
    verdicts = _verdicts([entry], [_post("p1", SENT + timedelta(minutes=10))])
    assert verdicts[1] == ((), False, True)


def test_a_post_created_exactly_at_the_start_of_the_window_is_credited() -> None:
    entry = _entry(1, created=SENT, sent=SENT)
    verdicts = _verdicts([entry], [_post("p1", SENT - DEFAULT_SKEW)])
    assert verdicts[1] == (("p1",), True, False)


def test_a_twin_exactly_at_the_edge_of_the_doubt_is_still_doubtful() -> None:
    entry = _entry(1, created=SENT, sent=SENT)
    verdicts = _verdicts([entry], [_post("p1", SENT - DEFAULT_SKEW - DOUBT)])
    assert verdicts[1] == ((), False, True)


def test_a_post_listing_another_account_first_still_matches_its_own() -> None:
    entry = _entry(1, created=SENT, sent=SENT)
    verdicts = _verdicts([entry], [_post("p1", SENT, "acc-other", ACCOUNT)])
    assert verdicts[1] == (("p1",), True, False)


def test_a_post_without_a_creation_time_counts_as_recent() -> None:
    entry = _entry(1, created=SENT, sent=SENT)
    older = _post("p0", SENT - timedelta(days=5), text="Something else")
    verdicts = _verdicts([entry], [older, _post("p1", None)])
    assert verdicts[1] == (("p1",), True, False)
