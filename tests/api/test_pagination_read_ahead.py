"""A concurrent page walk reads ahead a bounded window only, and forgets what it handed out:
pages fetched far ahead of a slow consumer (the sync) stayed alive all at once."""

from __future__ import annotations

import asyncio
import gc
import weakref

import httpx
import pytest

from tests.api.helpers import json_response, make_client, posts_page

LAST_PAGE = 20


@pytest.mark.asyncio
async def test_a_slow_consumer_holds_back_the_fetches() -> None:
    requested: list[int] = []

    async def server(request: httpx.Request) -> httpx.Response:
        number = int(request.url.params.get("page", "1"))
        requested.append(number)
        return json_response(200, posts_page(number, LAST_PAGE))

    client, _, _ = make_client(server)
    seen: list[int] = []
    async with client:
        async for page in client.posts.iter_pages(concurrency=4):
            seen.append(page.page_number)
            for _ in range(50):  # plenty of turns for every fetch that was allowed to start
                await asyncio.sleep(0)
            # Page n is being consumed: at most the next 4 may have been asked for.
            assert max(requested) <= page.page_number + 4, (page.page_number, requested)
    assert seen == list(range(1, LAST_PAGE + 1))
    assert sorted(requested) == seen


@pytest.mark.asyncio
async def test_pages_handed_out_are_not_kept_by_the_walk() -> None:
    async def server(request: httpx.Request) -> httpx.Response:
        number = int(request.url.params.get("page", "1"))
        return json_response(200, posts_page(number, LAST_PAGE))

    client, _, _ = make_client(server)
    handed_out: list[weakref.ref[object]] = []
    alive: list[int] = []
    async with client:
        async for page in client.posts.iter_pages(concurrency=4):
            handed_out.append(weakref.ref(page))
            del page
            if len(handed_out) == LAST_PAGE // 2:
                for _ in range(5):  # callbacks already queued may still hold a finished task
                    await asyncio.sleep(0)
                gc.collect()
                alive = [i for i, ref in enumerate(handed_out, 1) if ref() is not None]
    # The page just handed out may still be referenced by the suspended walk, no other one.
    assert alive in ([], [LAST_PAGE // 2])
