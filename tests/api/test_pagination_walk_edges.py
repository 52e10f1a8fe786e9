"""The edges of a page walk (issue 18 §2): which pages are asked for, how many at once, where a
walk stops and what it says then, how a 429 narrows it, and what leaving it early leaves behind.

Well-behaved lists come from the sandbox over loopback; lists the sandbox cannot get wrong on
purpose (a size given only in part, a list that shrinks or grows while it is read, a 429) come
from a small handler that also counts the requests in flight. Walks of ten thousand pages use
a fetch function of the test, with no HTTP at all, to stay fast.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Callable
from typing import Any, cast

import httpx
import pytest

from app.api import errors as e
from app.api import pagination
from app.api.client import ApiClient
from app.api.pagination import MAX_PAGES, Pace, Pages
from app.api.retry import RetryPolicy
from app.models.pagination import Page, PageLinks, PageMeta
from app.models.posts import Post
from app.sandbox.harness import SandboxServer
from tests.api.helpers import (
    BASE_URL,
    FakeClock,
    Handler,
    json_response,
    make_client,
    post_json,
    posts_page,
    sandbox_client,
)

PageBody = Callable[[int], dict[str, Any]]
LAST_PAGE = 30
RATE_LIMITED = {"name": "rate_limit_exceeded", "message": "Too Many Attempts."}


class ListServer:
    """/posts pages from `body(n)`. Remembers each request with how many were in flight when it
    arrived (itself included), and answers 429 with the headers queued for a page in `refuse`."""

    def __init__(
        self, body: PageBody, refuse: dict[int, list[dict[str, str]]] | None = None
    ) -> None:
        self.body = body
        self.refuse = {number: list(answers) for number, answers in (refuse or {}).items()}
        self.in_flight = 0
        self.seen: list[tuple[int, int]] = []

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        number = int(request.url.params.get("page", "1"))
        self.in_flight += 1
        self.seen.append((number, self.in_flight))
        try:
            for _ in range(20):  # long enough for every fetch the walk allows to arrive meanwhile
                await asyncio.sleep(0)
            answers = self.refuse.get(number)
            if answers:
                return json_response(429, RATE_LIMITED, answers.pop(0))
            return json_response(200, self.body(number))
        finally:
            self.in_flight -= 1

    @property
    def pages(self) -> list[int]:
        return [number for number, _ in self.seen]

    @property
    def peak(self) -> int:
        return max(in_flight for _, in_flight in self.seen)

    def peak_after_retry_of(self, refused: int) -> int:
        """The most requests in flight from the second request for page `refused` on: every
        request from there was let through after the 429 halved the bound."""
        retry = [i for i, (number, _) in enumerate(self.seen) if number == refused][1]
        return max(in_flight for _, in_flight in self.seen[retry:])


def full_pages(last_page: int = LAST_PAGE) -> PageBody:
    return lambda number: posts_page(number, last_page)


def only_meta(**meta: Any) -> PageBody:
    """Full pages of 15 posts whose envelope says only `meta` about the list's size."""

    def body(number: int) -> dict[str, Any]:
        page = posts_page(number, LAST_PAGE)
        return {"data": page["data"], "meta": {"current_page": number, **meta}}

    return body


class Recording(httpx.AsyncBaseTransport):
    """Real HTTP to the sandbox, noting the page each request asks for."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.pages: list[str | None] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.pages.append(request.url.params.get("page"))
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def walk_pages(client: ApiClient, **options: Any) -> list[int]:
    async with client:
        return [page.page_number async for page in client.posts.iter_pages(**options)]


# -- how much of a list is asked for, and how many pages at once ----------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "meta",
    [
        {"last_page": 6},
        {"total": 90, "per_page": 15},
        {"last_page": 6, "per_page": 15},  # no total: the last page is believed as it is
    ],
    ids=["last-page-only", "total-and-per-page-only", "last-page-and-per-page"],
)
async def test_a_list_whose_size_is_known_from_part_of_the_meta_is_read_ahead(
    meta: dict[str, int],
) -> None:
    server = ListServer(only_meta(**meta))
    pages = await walk_pages(make_client(server)[0], concurrency=3)
    assert pages == [1, 2, 3, 4, 5, 6]
    assert sorted(server.pages) == pages
    assert server.peak == 3


@pytest.mark.asyncio
async def test_a_per_page_of_zero_does_not_break_the_walk() -> None:
    server = ListServer(only_meta(last_page=4, total=60, per_page=0))
    assert await walk_pages(make_client(server)[0], concurrency=3) == [1, 2, 3, 4]


def growing_list(total: int, real_pages: int = 10) -> PageBody:
    """A list that claims a million pages and `total` posts, yet serves `real_pages` full pages
    of new posts, each with a `next` link, then empty ones."""

    def body(number: int) -> dict[str, Any]:
        page = posts_page(number, 1_000_000, total=1_000_000 * 15)
        page["meta"]["total"] = total
        if number > real_pages:
            page["data"] = []
        return page

    return body


@pytest.mark.asyncio
@pytest.mark.parametrize(("total", "promised"), [(0, 3), (10, 3), (15, 3), (16, 4), (40, 5)])
@pytest.mark.parametrize("concurrency", [1, 4])
async def test_a_walk_reads_at_most_two_pages_past_what_the_total_promised(
    total: int, promised: int, concurrency: int
) -> None:
    server = ListServer(growing_list(total))
    client, _, _ = make_client(server)
    pages = await walk_pages(client, concurrency=concurrency)
    assert pages == list(range(1, promised + 1))
    assert sorted(server.pages) == pages


@pytest.mark.asyncio
async def test_a_sequential_walk_says_why_it_stopped_past_the_total(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client, _, _ = make_client(ListServer(growing_list(30)))
    with caplog.at_level(logging.INFO, logger="app.api"):
        assert await walk_pages(client) == [1, 2, 3, 4]
    walk = client.posts.last_walk
    assert walk is not None
    assert walk.last_guard is not None
    assert walk.last_guard.stopped == "/posts went on past the 4 pages its total promised"
    assert caplog.messages == ["Walk stopped: /posts went on past the 4 pages its total promised"]


@pytest.mark.asyncio
async def test_a_sequential_walk_of_a_sized_list_ends_where_the_next_link_ends() -> None:
    """The list shrank to two pages while the first still said five: one at a time, the walk
    follows `links.next` and asks for nothing past it."""

    def body(number: int) -> dict[str, Any]:
        page = posts_page(number, 5)
        if number == 2:
            page["links"]["next"] = None
        return page

    server = ListServer(body)
    assert await walk_pages(make_client(server)[0]) == [1, 2]
    assert server.pages == [1, 2]


@pytest.mark.asyncio
async def test_two_pages_at_once_are_two_in_flight() -> None:
    server = ListServer(full_pages())
    assert await walk_pages(make_client(server)[0], concurrency=2) == list(range(1, LAST_PAGE + 1))
    assert server.peak == 2


@pytest.mark.asyncio
async def test_reading_posts_one_by_one_asks_for_one_page_at_a_time() -> None:
    server = ListServer(full_pages())
    client, _, _ = make_client(server)
    async with client:
        ids = [post.id async for post in client.posts.iter_items()]
    assert len(ids) == LAST_PAGE * 15
    assert server.pages == list(range(1, LAST_PAGE + 1))
    assert server.peak == 1


def pages_over(server: Handler) -> tuple[Pages[Any], ApiClient]:
    """A `Pages` built by hand over the posts route, with every default of its own."""
    client, _, _ = make_client(server)

    async def fetch(number: int) -> Page[Any]:
        return await client.posts.page(number)

    return Pages(fetch, clock=FakeClock(), retry=RetryPolicy(jitter=0.0)), client


@pytest.mark.asyncio
async def test_the_defaults_of_a_walk_one_page_at_a_time_and_six_for_everything() -> None:
    server = ListServer(full_pages(12))
    walk, client = pages_over(server)
    async with client:
        numbers = [page.page_number async for page in walk.iter_pages()]
        assert (numbers, server.peak) == (list(range(1, 13)), 1)
        server.seen.clear()
        numbers = [page.page_number async for page in walk.iter_pages(concurrency=4)]
        assert (numbers, server.peak, walk.last_pace) == (list(range(1, 13)), 4, None)
        server.seen.clear()
        everything = await walk.fetch_all()
    assert len(everything) == 12 * 15
    assert server.peak == 6


@pytest.mark.asyncio
async def test_an_adaptive_walk_of_one_page_at_a_time_has_nothing_to_pace() -> None:
    server = ListServer(full_pages(5))
    client, _, _ = make_client(server)
    assert await walk_pages(client, concurrency=1, adaptive=True) == [1, 2, 3, 4, 5]
    walk = client.posts.last_walk
    assert walk is not None
    assert (walk.last_pace, server.peak) == (None, 1)


@pytest.mark.asyncio
async def test_a_light_refresh_one_page_at_a_time_reads_only_the_first_pages(
    shared_demo: SandboxServer,
) -> None:
    wire = Recording()
    async with sandbox_client(shared_demo, transport=wire) as client:
        posts = await client.posts.fetch_all(concurrency=1, first_pages=2)
    assert len(posts) == 30
    assert wire.pages == ["1", "2"]


# -- where a walk stops, and what it says ---------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("seed", ["empty", "demo"])
async def test_a_list_read_to_its_end_was_not_stopped(
    seed: str, request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> None:
    server = request.getfixturevalue("shared_demo" if seed == "demo" else "private_sandbox")
    client = sandbox_client(server)
    with caplog.at_level(logging.INFO, logger="app.api"):
        async with client:
            pages = [page async for page in client.posts.iter_pages(concurrency=3)]
    assert len(pages) == (10 if seed == "demo" else 1)
    assert sum(len(page.data) for page in pages) == (150 if seed == "demo" else 0)
    walk = client.posts.last_walk
    assert walk is not None
    assert walk.last_guard is not None
    assert walk.last_guard.stopped is None
    assert not [message for message in caplog.messages if "Walk stopped" in message]


@pytest.mark.asyncio
@pytest.mark.parametrize("concurrency", [1, 4])
async def test_a_list_that_shrank_to_one_page_ends_at_the_empty_second_page(
    concurrency: int, caplog: pytest.LogCaptureFixture
) -> None:
    def body(number: int) -> dict[str, Any]:
        page = posts_page(number, 5)
        if number > 1:
            page["data"] = []
        return page

    client, _, _ = make_client(ListServer(body))
    with caplog.at_level(logging.INFO, logger="app.api"):
        async with client:
            pages = [page async for page in client.posts.iter_pages(concurrency=concurrency)]
    # The empty page is handed out, last: its meta tells a reader the list moved.
    assert [(page.page_number, len(page.data)) for page in pages] == [(1, 15), (2, 0)]
    walk = client.posts.last_walk
    assert walk is not None
    assert walk.last_guard is not None
    stopped = "page 2 of /posts is empty: the list ends there"
    assert walk.last_guard.stopped == stopped
    assert caplog.messages == [f"Walk stopped: {stopped}"]


def unsized(pages: int | None) -> tuple[Pages[int], list[int]]:
    """A list without size, one item a page, that links to a next page up to `pages` (for ever
    with None), and the pages asked of it; fetched without HTTP, so that ten thousand pages
    stay quick."""
    asked: list[int] = []

    async def fetch(number: int) -> Page[int]:
        asked.append(number)
        more = pages is None or number < pages
        return Page[int](
            data=[number],
            links=PageLinks(next=f"{BASE_URL}/x?page={number + 1}" if more else None),
            meta=PageMeta(current_page=number),
        )

    return Pages(fetch, clock=FakeClock(), retry=RetryPolicy(jitter=0.0), what="/x"), asked


@pytest.mark.asyncio
async def test_a_list_of_exactly_the_most_pages_a_walk_reads_is_read_whole() -> None:
    walk, asked = unsized(MAX_PAGES)
    items = await walk.fetch_all(concurrency=1)
    assert len(items) == MAX_PAGES
    assert asked[-1] == items[-1] == MAX_PAGES
    assert walk.last_guard is not None
    assert walk.last_guard.stopped is None


@pytest.mark.asyncio
async def test_a_list_of_more_pages_than_a_walk_reads_is_refused_with_a_reason() -> None:
    walk, asked = unsized(None)
    with pytest.raises(e.EndlessList) as refused:
        await walk.fetch_all(concurrency=1)
    assert str(refused.value) == (
        "The server's list /x has more than 10,000 pages; reading it was stopped there."
    )
    assert asked[-1] == MAX_PAGES + 1


@pytest.mark.asyncio
async def test_items_without_ids_are_never_taken_for_a_repeated_page() -> None:
    """Items with nothing to compare them by: two pages alike are not proof of a loop."""

    async def fetch(number: int) -> Page[Any]:
        return Page[Any](data=[7], meta=PageMeta(current_page=number, last_page=4))

    walk = Pages(fetch, clock=FakeClock(), retry=RetryPolicy(jitter=0.0))
    for concurrency in (1, 3):
        assert len(await walk.fetch_all(concurrency=concurrency)) == 4


@pytest.mark.asyncio
async def test_a_repeated_page_of_an_unnamed_list_is_refused_in_plain_words() -> None:
    same = Post.model_validate(post_json("p1"))

    async def fetch(number: int) -> Page[Post]:
        return Page[Post](data=[same], meta=PageMeta(current_page=1, last_page=3))

    walk = Pages(fetch, clock=FakeClock(), retry=RetryPolicy(jitter=0.0))
    with pytest.raises(e.EndlessList) as refused:
        await walk.fetch_all(concurrency=1)
    assert str(refused.value) == (
        "The server sent the same page of the list again (page 2 repeats page 1); reading it"
        " was stopped after 2 requests."
    )


# -- a 429 in the middle of a walk ----------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("concurrency", [2, 3, 5, 8])
async def test_a_429_halves_the_pages_in_flight_for_the_rest_of_the_walk(concurrency: int) -> None:
    server = ListServer(full_pages(), refuse={3: [{"Retry-After": "1"}]})
    client, _, clock = make_client(server)
    assert await walk_pages(client, concurrency=concurrency) == list(range(1, LAST_PAGE + 1))
    assert 1.0 in clock.sleeps
    assert server.peak == concurrency
    assert server.peak_after_retry_of(3) == max(1, concurrency // 2)


class Eager(Pace):
    """A pace that always wants as many pages in flight as it may have."""

    def page_done(self) -> int:
        super().page_done()
        self.in_flight = self.cap
        return self.cap


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pagination, "Pace", Eager)


@pytest.mark.asyncio
@pytest.mark.usefixtures("eager")
@pytest.mark.parametrize(("cap", "refused", "after"), [(2, 5, 1), (8, 5, 4), (8, 1, 1)])
async def test_after_a_429_an_adaptive_walk_never_goes_above_half_its_bound_then(
    cap: int, refused: int, after: int
) -> None:
    """Whatever its pace asks: half the cap after a 429 with the cap in flight, and one page at a
    time after a 429 on the first page (the bound was one then)."""
    server = ListServer(full_pages(), refuse={refused: [{"Retry-After": "2"}]})
    client, _, clock = make_client(server)
    pages = await walk_pages(client, concurrency=cap, adaptive=True)
    assert pages == list(range(1, LAST_PAGE + 1))
    assert 2.0 in clock.sleeps
    assert server.peak_after_retry_of(refused) == after


class Slowing(Pace):
    """A pace that wants as many pages in flight as it may have for nine pages, then two."""

    def __init__(self, cap: int) -> None:
        super().__init__(cap)
        self.done = 0

    def page_done(self) -> int:
        super().page_done()
        self.done += 1
        self.in_flight = self.cap if self.done < 10 else 2
        return self.in_flight


@pytest.mark.asyncio
async def test_when_the_pace_lowers_its_bound_the_pages_fetched_ahead_shrink_to_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A slow consumer: whatever the walk allows is fetched while it holds a page. Pages asked
    for beyond the bound would only wait for it, holding their futures."""
    monkeypatch.setattr(pagination, "Pace", Slowing)
    server = ListServer(full_pages())
    client, _, _ = make_client(server)
    ahead: dict[int, int] = {}  # page held -> how far past it pages were asked for
    async with client:
        async for page in client.posts.iter_pages(concurrency=8, adaptive=True):
            for _ in range(200):
                await asyncio.sleep(0)
            ahead[page.page_number] = max(server.pages) - page.page_number
    assert list(ahead) == list(range(1, LAST_PAGE + 1))
    assert max(ahead[n] for n in range(2, 10)) == 7
    assert max(ahead[n] for n in range(20, LAST_PAGE)) == 1
    assert max(in_flight for number, in_flight in server.seen if number > 20) <= 2


@pytest.mark.asyncio
async def test_a_429_without_retry_after_is_waited_out_by_the_backoff() -> None:
    server = ListServer(full_pages(6), refuse={2: [{}]})
    calls: list[tuple[int, float, type[Exception]]] = []
    client, _, clock = make_client(
        server, on_retry=lambda attempt, delay, error: calls.append((attempt, delay, type(error)))
    )
    assert await walk_pages(client, concurrency=3) == [1, 2, 3, 4, 5, 6]
    backoff = RetryPolicy(jitter=0.0).backoff(1)
    assert calls == [(1, backoff, e.RateLimited)]
    assert backoff in clock.sleeps
    assert server.pages.count(2) == 2


@pytest.mark.asyncio
@pytest.mark.parametrize(("retry_after", "waited"), [(60, True), (61, False)])
async def test_a_walk_waits_out_a_retry_after_up_to_the_longest_it_accepts(
    retry_after: int, waited: bool
) -> None:
    assert RetryPolicy().max_retry_after == 60
    server = ListServer(full_pages(4), refuse={2: [{"Retry-After": str(retry_after)}]})
    client, _, clock = make_client(server)
    if waited:
        assert await walk_pages(client, concurrency=2) == [1, 2, 3, 4]
        assert clock.sleeps == [60.0]
    else:
        with pytest.raises(e.RateLimited):
            await walk_pages(client, concurrency=2)
        assert clock.sleeps == []
    assert server.pages.count(2) == (2 if waited else 1)


# -- leaving a walk early -------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("by", ["pages", "items"])
async def test_leaving_a_walk_early_cancels_the_pages_ahead_before_it_returns(by: str) -> None:
    """Fetches ahead that the server holds are cancelled, and are over once `aclose()` returns:
    nothing of the walk runs on after it (the sync and the outbox close their walks so)."""
    never = asyncio.Event()
    held = 0
    cancelled = 0

    async def server(request: httpx.Request) -> httpx.Response:
        nonlocal held, cancelled
        number = int(request.url.params["page"])
        if number > 2:  # the pages ahead of the second
            held += 1
            try:
                await never.wait()
            except asyncio.CancelledError:
                cancelled += 1
                raise
            finally:
                held -= 1
        return json_response(200, posts_page(number, LAST_PAGE))

    pages, client = pages_over(server)
    async with client:
        walk: AsyncGenerator[Any, None]
        if by == "pages":
            walk = pages.iter_pages(concurrency=4)
            taken = [(await anext(walk)).page_number for _ in range(2)][-1:]
        else:
            walk = cast(AsyncGenerator[Any, None], pages.iter_items(concurrency=4))
            taken = [(await anext(walk)).id for _ in range(16)][-1:]
        for _ in range(200):
            if held == 3:
                break
            await asyncio.sleep(0)
        assert (taken, held) == ([2] if by == "pages" else ["post-0015"], 3)
        async with asyncio.timeout(5):  # a guard against a hang, not a measure
            await walk.aclose()
        assert (held, cancelled) == (0, 3)
