"""Concurrent page walks: the bound holds, halves on 429, and pages come back in order."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.api import errors as e
from app.api.retry import RetryPolicy
from tests.api.helpers import BASE_URL, json_response, make_client, post_json, posts_page

LAST_PAGE = 12


class PagedServer:
    """Serves /posts pages, counting how many requests are in flight at once."""

    def __init__(self, last_page: int = LAST_PAGE, gate_at: int = 1) -> None:
        self.last_page = last_page
        self.in_flight = 0
        self.peak = 0
        self.peak_after_limit = 0
        self.limited_pages: dict[int, int] = {}
        self.rate_limited = False
        self._gate_at = gate_at
        self._full = asyncio.Event()

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        number = int(request.url.params.get("page", "1"))
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        if self.rate_limited:
            self.peak_after_limit = max(self.peak_after_limit, self.in_flight)
        try:
            if self.in_flight >= self._gate_at:
                self._full.set()
            if number > 1:
                # Hold every request until the bound is reached, so a bound that is too loose
                # shows up as a higher peak and one that is too tight never opens the gate.
                await self._full.wait()
            for _ in range(5):
                await asyncio.sleep(0)
            retry_after = self.limited_pages.pop(number, None)
            if retry_after is not None:
                self.rate_limited = True
                return json_response(
                    429,
                    {"name": "rate_limit_exceeded", "message": "Too Many Attempts."},
                    {"Retry-After": str(retry_after)},
                )
            return json_response(200, posts_page(number, self.last_page))
        finally:
            self.in_flight -= 1


@pytest.mark.asyncio
async def test_fetch_all_respects_the_concurrency_bound_and_keeps_page_order() -> None:
    server = PagedServer(gate_at=4)
    client, recorder, _ = make_client(server)
    async with client:
        posts = await client.posts.fetch_all(concurrency=4)
    assert [post.id for post in posts] == [f"post-{i:04d}" for i in range(LAST_PAGE * 15)]
    assert server.peak == 4
    assert sorted(int(r.url.params["page"]) for r in recorder.requests) == list(
        range(1, LAST_PAGE + 1)
    )


@pytest.mark.asyncio
async def test_sequential_and_concurrent_walks_agree() -> None:
    client, _, _ = make_client(PagedServer())
    async with client:
        concurrent = [page.page_number async for page in client.posts.iter_pages(concurrency=5)]
        sequential = [post.id async for post in client.posts.iter_items()]
        everything = await client.posts.fetch_all(concurrency=5)
    assert concurrent == list(range(1, LAST_PAGE + 1))
    assert sequential == [post.id for post in everything]


@pytest.mark.asyncio
async def test_a_429_halves_the_bound_and_everyone_waits_it_out() -> None:
    server = PagedServer(gate_at=6)
    server.limited_pages = {4: 3}
    hook_calls: list[tuple[int, float, e.ApiError]] = []
    client, recorder, clock = make_client(
        server, on_retry=lambda attempt, delay, error: hook_calls.append((attempt, delay, error))
    )
    async with client:
        posts = await client.posts.fetch_all(concurrency=6)
    assert len(posts) == LAST_PAGE * 15
    assert [post.id for post in posts][:3] == ["post-0000", "post-0001", "post-0002"]
    assert 3.0 in clock.sleeps
    assert server.peak_after_limit <= 3
    assert [(attempt, delay) for attempt, delay, _ in hook_calls] == [(1, 3.0)]
    assert isinstance(hook_calls[0][2], e.RateLimited)
    page_four = [r for r in recorder.requests if r.url.params.get("page") == "4"]
    assert len(page_four) == 2


@pytest.mark.asyncio
async def test_a_page_that_stays_rate_limited_ends_the_walk_with_rate_limited() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.params.get("page") == "2":
            return json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "1"})
        return json_response(200, posts_page(int(request.url.params["page"]), 3))

    client, recorder, _ = make_client(handler, retry=RetryPolicy(max_attempts=3, jitter=0))
    async with client:
        with pytest.raises(e.RateLimited):
            await client.posts.fetch_all(concurrency=2)
    assert sum(r.url.params.get("page") == "2" for r in recorder.requests) == 3


@pytest.mark.asyncio
async def test_first_pages_limits_a_light_refresh() -> None:
    client, recorder, _ = make_client(PagedServer())
    async with client:
        posts = await client.posts.fetch_all(concurrency=3, first_pages=2)
    assert len(posts) == 30
    assert sorted(r.url.params["page"] for r in recorder.requests) == ["1", "2"]


@pytest.mark.asyncio
async def test_a_post_shifted_onto_the_next_page_is_listed_once() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        page = posts_page(int(request.url.params["page"]), 2)
        if request.url.params["page"] == "2":
            page["data"][0] = post_json("post-0014")
        return json_response(200, page)

    client, _, _ = make_client(handler)
    async with client:
        posts = await client.posts.fetch_all()
    ids = [post.id for post in posts]
    assert len(ids) == len(set(ids)) == 29


@pytest.mark.asyncio
async def test_a_list_without_size_is_walked_until_there_is_no_next_page() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        number = int(request.url.params["page"])
        return json_response(
            200,
            {
                "data": [{"id": f"item-{number}", "status": "pending"}],
                "meta": {"current_page": number, "per_page": 25},
                "links": {"next": f"{BASE_URL}/x?page={number + 1}" if number < 3 else None},
            },
        )

    client, recorder, _ = make_client(handler)
    async with client:
        items = [item.id async for item in client.repurposes.iter_items("r1")]
    assert items == ["item-1", "item-2", "item-3"]
    assert len(recorder.requests) == 3


@pytest.mark.asyncio
async def test_a_server_that_misreports_the_page_number_cannot_loop_forever() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        number = int(request.url.params["page"])
        data = [post_json(f"p{number}")] if number <= 4 else []
        return json_response(200, {"data": data, "meta": {"current_page": 1}})

    client, recorder, _ = make_client(handler)
    async with client:
        ids = [post.id async for post in client.posts.iter_items()]
    assert ids == ["p1", "p2", "p3", "p4"]
    assert len(recorder.requests) == 5


@pytest.mark.asyncio
async def test_leaving_a_concurrent_walk_early_cancels_the_fetches_ahead() -> None:
    server = PagedServer()
    client, _, _ = make_client(server)
    async with client:
        walk = client.posts.iter_pages(concurrency=4)
        first = await anext(walk)
        await walk.aclose()  # type: ignore[attr-defined]
        await asyncio.sleep(0)
    assert first.page_number == 1
    assert server.in_flight == 0
