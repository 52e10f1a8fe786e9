"""Answers the sandbox never gives (402, a deployment without /labels, a list changing between
two page reads), served by httpx.MockTransport to the real client, sync service and cache."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.models.base import REST_FORMAT
from app.store import WorkspaceCache
from app.sync import SyncService, SyncState
from tests.store.factories import make_post, raw_post

FAST = RetryPolicy(max_attempts=1)
PER_PAGE = 15

Handler = Callable[[httpx.Request], httpx.Response]


def envelope(items: list[dict[str, Any]], page: int, total: int) -> dict[str, Any]:
    last = max(1, -(-total // PER_PAGE))
    return {
        "data": items,
        "links": {"first": None, "last": None, "prev": None, "next": None},
        "meta": {"current_page": page, "last_page": last, "per_page": PER_PAGE, "total": total},
    }


def listing(posts: list[dict[str, Any]]) -> Handler:
    """A server holding `posts` (already in list order) and no labels route."""

    def handle(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/api/social-accounts":
            return httpx.Response(200, json=[])
        if path == "/api/labels":
            return httpx.Response(404, json={"message": "Not Found"})
        if path == "/api/posts":
            page = int(request.url.params.get("page", "1"))
            chunk = posts[(page - 1) * PER_PAGE : page * PER_PAGE]
            return httpx.Response(200, json=envelope(chunk, page, len(posts)))
        return httpx.Response(404, json={"message": "Not Found"})

    return handle


class Harness:
    def __init__(self, cache: WorkspaceCache, handler: Handler) -> None:
        self.handler = handler
        self.states: list[SyncState] = []
        self.client = ApiClient(
            "https://social.example/api",
            "key",
            retry=FAST,
            transport=httpx.MockTransport(lambda request: self.handler(request)),
        )
        self.service = SyncService(
            self.client, cache, on_state=self.states.append, on_changed=lambda _: None
        )


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[WorkspaceCache]:
    with WorkspaceCache(tmp_path / "c.sqlite3") as opened:
        yield opened


def scheduled(count: int) -> list[dict[str, Any]]:
    """`count` posts, newest schedule first, as the server lists them."""
    start = datetime(2026, 5, 1, 9)
    return [
        raw_post(f"p{n:03d}", scheduled_at=(start + timedelta(hours=n)).strftime(REST_FORMAT))
        for n in reversed(range(count))
    ]


@pytest.mark.asyncio
async def test_a_deployment_without_labels_still_syncs(cache: WorkspaceCache) -> None:
    harness = Harness(cache, listing(scheduled(20)))
    try:
        assert await harness.service.full_refresh() is True
    finally:
        await harness.client.aclose()

    assert harness.service.labels_available is False
    assert cache.labels() == []
    assert cache.count_posts() == 20


@pytest.mark.asyncio
async def test_no_subscription_waits_for_the_user(cache: WorkspaceCache) -> None:
    cache.replace_all_posts([make_post("kept")])

    def refuse(request: httpx.Request) -> httpx.Response:
        return httpx.Response(402, json={"message": "Active subscription required."})

    harness = Harness(cache, refuse)
    try:
        assert await harness.service.full_refresh() is False
    finally:
        await harness.client.aclose()

    state = harness.service.state
    assert state.phase == "subscription_required"
    assert state.retry_in is None
    assert state.message == "Active subscription required."
    assert "billing" in state.hint
    assert cache.post_ids() == {"kept"}


@pytest.mark.asyncio
async def test_pages_read_while_the_list_changes_drop_nothing(cache: WorkspaceCache) -> None:
    posts = scheduled(40)
    harness = Harness(cache, listing(posts))
    try:
        await harness.service.full_refresh()
        # Between the reads of page 1 and page 2 a post of page 1 is deleted: page 2 then
        # starts one post later, and the post that slid onto page 1 is seen by neither read.
        slid = posts[PER_PAGE]["id"]
        after_delete = posts[1:]

        def shifting(request: httpx.Request) -> httpx.Response:
            if request.url.path == "/api/posts" and request.url.params.get("page") == "2":
                return listing(after_delete)(request)
            return listing(posts)(request)

        harness.handler = shifting
        assert await harness.service.light_refresh() is True
    finally:
        await harness.client.aclose()

    assert cache.post(slid) is not None
    assert cache.count_posts() == 40


@pytest.mark.asyncio
async def test_consistent_pages_do_drop_a_vanished_post(cache: WorkspaceCache) -> None:
    posts = scheduled(40)
    harness = Harness(cache, listing(posts))
    try:
        await harness.service.full_refresh()
        gone = posts[3]["id"]
        harness.handler = listing([post for post in posts if post["id"] != gone])
        assert await harness.service.light_refresh() is True
    finally:
        await harness.client.aclose()

    assert cache.post(gone) is None
    assert cache.count_posts() == 39
