"""Issue 19 §3: a server whose lists never end cannot make a walk go on for ever."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.api import errors as e
from app.api.client import ApiClient
from app.api.pagination import MAX_PAGES, PAGES_PAST_TOTAL
from tests.tools.odd_server import OddServer


@pytest.fixture
def selflink() -> Iterator[OddServer]:
    with OddServer(modes={"selflink"}, quiet=True) as server:
        yield server


@pytest.fixture
def endless() -> Iterator[OddServer]:
    with OddServer(modes={"endless"}, quiet=True) as server:
        yield server


def client(server: OddServer) -> ApiClient:
    return ApiClient(server.base_url, "odd-key")


def requests(server: OddServer) -> int:
    return int(server.stats()["requests"])


@pytest.mark.asyncio
@pytest.mark.parametrize("concurrency", [1, 4])
async def test_a_next_link_to_itself_stops_the_walk_on_the_repeated_page(
    selflink: OddServer, concurrency: int
) -> None:
    async with client(selflink) as api:
        pages = api.posts.iter_pages(concurrency=concurrency)
        with pytest.raises(e.EndlessList, match=r"page 2 repeats page 1"):
            async for _page in pages:
                pass
    assert requests(selflink) <= 2 + concurrency


@pytest.mark.asyncio
async def test_every_paginated_walk_is_guarded_signatures_and_webhook_logs(
    selflink: OddServer,
) -> None:
    async with client(selflink) as api:
        with pytest.raises(e.EndlessList, match="/signatures"):
            await api.signatures.all()
        hooks = await api.webhooks.list()
        with pytest.raises(e.EndlessList, match="logs"):
            async for _log in api.webhooks.iter_logs(hooks[0].id):
                pass
    assert requests(selflink) < 20


@pytest.mark.asyncio
@pytest.mark.parametrize("concurrency", [1, 6])
async def test_a_million_pages_claimed_end_at_the_first_empty_page(
    endless: OddServer, concurrency: int
) -> None:
    async with client(endless) as api:
        posts = [
            post
            async for page in api.posts.iter_pages(concurrency=concurrency)
            for post in page.data
        ]
        assert len(posts) == 60
        walk = api.posts.last_walk
        assert walk is not None
        assert walk.last_guard is not None
        assert "page 5 of /posts is empty" in (walk.last_guard.stopped or "")
        everything = await api.posts.fetch_all()
        assert len(everything) == 60
        # the composer's signature list (`all()`) froze the window 22 s at 1.27 GB: a million
        # pages gathered at once
        before = requests(endless)
        await api.signatures.all()
        assert requests(endless) - before <= 10
    # 5 pages each walk (4 full, 1 empty) plus what was fetched ahead: never thousands
    assert requests(endless) <= 3 * (5 + 6)


def test_a_walk_never_believes_more_pages_than_the_total_allows() -> None:
    from app.api.pagination import plausible_last
    from app.models.pagination import Page, PageMeta

    claimed = Page[int](data=[1], meta=PageMeta(last_page=1_000_000, total=30, per_page=15))
    assert plausible_last(claimed) == 2 + PAGES_PAST_TOTAL
    unbounded = Page[int](data=[1], meta=PageMeta(last_page=1_000_000))
    assert plausible_last(unbounded) == MAX_PAGES
