"""Reconciliation rules on hand-made post lists: no post counted twice, none missed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from app.models.posts import Post
from app.models.requests import BatchRequest, Destination
from app.sync.outbox import OutboxEntry
from app.sync.outbox_reconcile import expected_posts, reconcile
from tests.sync.entries import unknown_entry

SENT = datetime(2026, 5, 1, 12, 0, 0, 500000, tzinfo=UTC)


def post(post_id: str, account: str, content: str | None, created: datetime) -> Post:
    body: dict[str, Any] = {
        "id": post_id,
        "content": content,
        "status": "draft",
        "created_at": created.strftime("%Y-%m-%d %H:%M:%S"),
        "platforms": [
            {
                "id": f"pp-{post_id}",
                "platform": "x",
                "content_type": "x_post",
                "social_account": {"id": account, "platform": "x"},
            }
        ],
    }
    return Post.model_validate(body)


def entry(entry_id: int, request: BatchRequest, sent: datetime = SENT) -> OutboxEntry:
    return unknown_entry(entry_id, request, sent=sent)


def request(text: str, *accounts: str, own: str | None = None) -> BatchRequest:
    return BatchRequest(
        content=text,
        destinations=[
            Destination(social_account_id=a, content_type="x_post", content=own) for a in accounts
        ],
    )


def test_a_destinations_own_text_even_empty_replaces_the_shared_one() -> None:
    assert [p.content for p in expected_posts(request(" Shared ", "a"))] == ["Shared"]
    assert [p.content for p in expected_posts(request("Shared", "a", own=""))] == [""]


def test_the_post_created_in_the_same_second_before_the_send_time_is_found() -> None:
    # REST times drop the fraction: a post made at 12:00:00.7 reads back as 12:00:00.
    found = reconcile([entry(1, request("Hi", "a"))], [post("p1", "a", "Hi", SENT)], set())
    assert found[0].complete
    assert found[0].post_ids == ("p1",)


def test_posts_from_long_before_the_send_are_not_credited() -> None:
    old = post("p-old", "a", "Hi", SENT - timedelta(days=2))
    verdict = reconcile([entry(1, request("Hi", "a"))], [old], set())[0]
    assert verdict.absent


def test_a_match_an_hour_before_the_send_is_neither_credited_nor_absent() -> None:
    """Issue 19 §1: a clock or time zone off by an hour could put the post created by this
    very send there; sending again on that guess could double it. The user decides."""
    earlier = post("p-early", "a", "Hi", SENT - timedelta(hours=1))
    verdict = reconcile([entry(1, request("Hi", "a"))], [earlier], set())[0]
    assert not verdict.complete
    assert not verdict.absent
    assert verdict.doubtful
    assert verdict.post_ids == ()


def test_times_are_compared_as_the_server_shows_them() -> None:
    """With this computer's clock 10 minutes fast, the post is 10 minutes "before" the send."""
    created = post("p1", "a", "Hi", SENT - timedelta(minutes=10))
    verdict = reconcile(
        [entry(1, request("Hi", "a"))],
        [created],
        set(),
        to_read_time=lambda local: local - timedelta(minutes=10),
    )[0]
    assert verdict.complete
    assert verdict.post_ids == ("p1",)


def test_claimed_posts_are_never_credited_again() -> None:
    twin = post("p1", "a", "Hi", SENT)
    verdict = reconcile([entry(1, request("Hi", "a"))], [twin], {"p1"})[0]
    assert verdict.absent


def test_two_identical_entries_share_out_the_posts_oldest_first() -> None:
    first = entry(1, request("Hi", "a"))
    second = entry(2, request("Hi", "a"), SENT + timedelta(seconds=5))
    only_one = [post("p1", "a", "Hi", SENT)]
    verdicts = {v.entry_id: v for v in reconcile([second, first], only_one, set())}
    assert verdicts[1].post_ids == ("p1",)
    assert verdicts[2].absent


def test_a_batch_partly_on_the_server_is_neither_sent_nor_absent() -> None:
    both = entry(1, request("Hi", "a", "b"))
    verdict = reconcile([both], [post("p1", "a", "Hi", SENT)], set())[0]
    assert not verdict.complete
    assert not verdict.absent
    assert verdict.post_ids == ("p1",)


def test_text_and_account_must_both_match() -> None:
    posts = [post("p1", "b", "Hi", SENT), post("p2", "a", "Hello", SENT)]
    assert reconcile([entry(1, request("Hi", "a"))], posts, set())[0].absent
