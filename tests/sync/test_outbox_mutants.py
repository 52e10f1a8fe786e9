"""The outbox's exactly-once rules at the edges where a plausible slip would send twice or lose a
batch: one post that carries two accounts, a twin of another content type, an identical batch
already sent, a list that moves while it is read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.models.posts import Post
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxEntry, OutboxState
from app.sync.outbox_reconcile import reconcile
from app.sync.outbox_sender import OutboxSender
from tests.api.helpers import FakeClock, sandbox_client
from tests.sync.entries import unknown_entry

SENT = datetime(2026, 5, 1, 12, 0, 0, tzinfo=UTC)


# -- reconcile on hand-made lists ---------------------------------------------------------------


def _platform(account: str, platform: str, content_type: str | None) -> dict[str, Any]:
    return {
        "id": f"pp-{account}-{content_type}",
        "platform": platform,
        "content_type": content_type,
        "social_account": {"id": account, "platform": platform},
    }


def _post(post_id: str, content: str, *platforms: dict[str, Any]) -> Post:
    return Post.model_validate(
        {
            "id": post_id,
            "content": content,
            "status": "draft",
            "created_at": SENT.strftime("%Y-%m-%d %H:%M:%S"),
            "platforms": list(platforms),
        }
    )


def _entry(request: BatchRequest, entry_id: int = 1) -> OutboxEntry:
    return unknown_entry(entry_id, request, sent=SENT)


def _request(text: str, *destinations: tuple[str, str]) -> BatchRequest:
    return BatchRequest(
        content=text,
        destinations=[
            Destination(social_account_id=account, content_type=ct) for account, ct in destinations
        ],
    )


def test_one_post_carrying_two_accounts_is_credited_to_one_destination_only() -> None:
    """A batch makes one post per destination: a single post on the server that lists both
    accounts proves one of them, not the whole batch."""
    both = _post("p1", "Hi", _platform("a", "x", "x_post"), _platform("b", "x", "x_post"))
    request = _request("Hi", ("a", "x_post"), ("b", "x_post"))
    [verdict] = reconcile([_entry(request)], [both], set())
    assert verdict.post_ids == ("p1",)
    assert not verdict.complete
    assert not verdict.absent


def test_the_same_account_twice_needs_two_posts() -> None:
    request = _request("Hi", ("a", "x_post"), ("a", "x_post"))
    one = _post("p1", "Hi", _platform("a", "x", "x_post"))
    two = _post("p2", "Hi", _platform("a", "x", "x_post"))
    [partly] = reconcile([_entry(request)], [one], set())
    assert (partly.post_ids, partly.complete) == (("p1",), False)
    [whole] = reconcile([_entry(request)], [one, two], set())
    assert whole.complete
    assert sorted(whole.post_ids) == ["p1", "p2"]


def test_a_post_of_another_content_type_is_not_the_batch() -> None:
    """The same words as a Facebook post do not prove a Facebook story was created."""
    story = _request("Hi", ("f", "facebook_story"))
    feed_post = _post("p1", "Hi", _platform("f", "facebook", "facebook_post"))
    [verdict] = reconcile([_entry(story)], [feed_post], set())
    assert verdict.absent
    # A server that does not say the content type is not held against the post.
    untyped = _post("p2", "Hi", _platform("f", "facebook", None))
    [found] = reconcile([_entry(story)], [untyped], set())
    assert found.complete
    assert found.post_ids == ("p2",)
    # The right one is found among both.
    right = _post("p3", "Hi", _platform("f", "facebook", "facebook_story"))
    [verdict] = reconcile([_entry(story)], [feed_post, right], set())
    assert verdict.post_ids == ("p3",)


# -- the sender against the sandbox ---------------------------------------------------------------


def _batch(server: SandboxServer, text: str, **fields: Any) -> BatchRequest:
    return BatchRequest(
        content=text,
        destinations=[
            Destination(
                social_account_id=server.store.account_id("linkedin"),
                content_type="linkedin_post",
            )
        ],
        **fields,
    )


def _texts(server: SandboxServer, text: str) -> int:
    with server.store.tx() as db:
        rows = db.all(
            "SELECT COUNT(*) FROM posts WHERE workspace_id = ? AND content = ?",
            (server.workspace_id, text),
        )
    return int(rows[0][0])


@pytest.mark.asyncio
async def test_an_identical_batch_cut_off_before_it_left_is_sent_not_credited_the_first_ones_posts(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """The same words twice: the first went out and is `sent`; the second was cut off before
    its request left. Its check must not take the first batch's post as its own (the second
    batch would be lost): posts already credited are out of the running."""
    outbox = Outbox(store)
    async with sandbox_client(sandbox) as client:
        sender = OutboxSender(outbox, client, settle_seconds=0)
        first = await outbox.enqueue(_batch(sandbox, "Weekly beans"))
        await sender.send_pending()
        second = await outbox.enqueue(_batch(sandbox, "Weekly beans"))
        await outbox.transition(
            second.id, OutboxState.SENDING, expect=[OutboxState.QUEUED], sending=True
        )
        for _ in range(5):
            await sender.send_pending()
            current = outbox.get(second.id)
            if current is not None and current.state is OutboxState.SENT:
                break
    a, b = outbox.get(first.id), outbox.get(second.id)
    assert a is not None
    assert b is not None
    assert a.state is b.state is OutboxState.SENT
    assert _texts(sandbox, "Weekly beans") == 2
    assert set(a.post_ids).isdisjoint(b.post_ids)
    assert b.attempts == 2


class _DeletesOnceWhileListing(httpx.AsyncHTTPTransport):
    """Another client deletes a post right after the first page of the list was answered,
    so every later post moves up one place."""

    def __init__(self, victim: str) -> None:
        super().__init__()
        self.victim = victim
        self.done = False
        self.list_reads = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        listing = request.method == "GET" and request.url.path.endswith("/posts")
        if listing and request.url.params.get("page", "1") == "1":
            self.list_reads += 1
            if not self.done:
                self.done = True
                await response.aread()
                url = request.url.copy_with(path=request.url.path + f"/{self.victim}", query=None)
                headers = {"Authorization": request.headers["Authorization"]}
                deleted = await super().handle_async_request(
                    httpx.Request("DELETE", url, headers=headers)
                )
                await deleted.aread()
                assert deleted.status_code in (200, 204), deleted.status_code
        return response


async def _moved_list_scenario(
    sandbox: SandboxServer, store: LocalStore, *, older_drafts: int
) -> tuple[OutboxEntry, Post, _DeletesOnceWhileListing, Outbox]:
    """15 scheduled posts fill the first page; the batch whose answer was lost is first on the
    second, followed by `older_drafts` drafts. The first page's answer is followed by the
    deletion of a scheduled post: the batch's post moves onto page 1, which was already read."""
    later = datetime.now(UTC).replace(microsecond=0) + timedelta(days=3)
    async with sandbox_client(sandbox) as client:
        scheduled = []
        for n in range(15):
            scheduled += await client.posts.create_batch(
                _batch(sandbox, f"Scheduled {n}", status="scheduled", scheduled_at=later)
            )
        for n in range(older_drafts):
            await client.posts.create_batch(_batch(sandbox, f"Older draft {n}"))
        outbox = Outbox(store)
        entry = await outbox.enqueue(_batch(sandbox, "Lost answer"))
        await outbox.transition(
            entry.id, OutboxState.SENDING, expect=[OutboxState.QUEUED], sending=True
        )
        [made] = await client.posts.create_batch(entry.request)
        page_one = await client.posts.page(1)
        page_two = await client.posts.page(2)
    assert made.id not in {post.id for post in page_one.data}
    assert page_two.data[0].id == made.id  # first on page 2 before the deletion
    transport = _DeletesOnceWhileListing(scheduled[0].id)
    async with ApiClient(
        sandbox.base_url,
        sandbox.keys.admin,
        transport=transport,
        clock=FakeClock(),
        retry=RetryPolicy(jitter=0.0),
    ) as client:
        sender = OutboxSender(outbox, client, settle_seconds=0)
        for _ in range(5):
            await sender.send_pending()
            current = outbox.get(entry.id)
            if current is not None and current.state not in (
                OutboxState.QUEUED,
                OutboxState.SENDING,
                OutboxState.OUTCOME_UNKNOWN,
            ):
                break
    assert transport.done
    after = outbox.get(entry.id)
    assert after is not None
    return after, made, transport, outbox


@pytest.mark.asyncio
async def test_a_list_that_moved_while_it_was_read_is_read_again(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """A check that trusted the first read would not find the batch's post and send the
    batch a second time."""
    after, made, transport, _ = await _moved_list_scenario(sandbox, store, older_drafts=1)
    assert after.state is OutboxState.SENT
    assert after.post_ids == (made.id,)
    assert _texts(sandbox, "Lost answer") == 1
    assert transport.list_reads >= 2


@pytest.mark.asyncio
async def test_a_list_whose_last_page_emptied_while_it_was_read_is_read_again(
    sandbox: SandboxServer, store: LocalStore
) -> None:
    """The same, when the move leaves the last page empty: its total must still count."""
    after, made, transport, _ = await _moved_list_scenario(sandbox, store, older_drafts=0)
    assert after.state is OutboxState.SENT
    assert after.post_ids == (made.id,)
    assert _texts(sandbox, "Lost answer") == 1
    assert transport.list_reads >= 2
