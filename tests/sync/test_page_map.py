"""Finding the page of a time in a list sorted by `scheduled_at` descending (undated last)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.models import Page, Post
from app.sync.page_map import (
    MAX_PROBES,
    PageMap,
    PageReader,
    ends_by,
    locate,
    read_span,
)

T0 = datetime(2026, 11, 1, tzinfo=UTC)
PER_PAGE = 15


def post(n: int, when: datetime | None) -> Post:
    return Post.model_validate(
        {
            "id": f"p{n}",
            "status": "scheduled",
            "scheduled_at": None if when is None else when.strftime("%Y-%m-%d %H:%M:%S"),
            "platforms": [],
            "labels": [],
            "media": [],
        }
    )


class FakeList:
    """`GET /posts` over a list of times, newest first, undated last; counts reads."""

    def __init__(self, times: list[datetime | None], *, sized: bool = True) -> None:
        dated = sorted((t for t in times if t is not None), reverse=True)
        self.posts = [post(i, t) for i, t in enumerate(dated)]
        self.posts += [post(len(dated) + i, None) for i in range(times.count(None))]
        self.sized = sized
        self.reads: list[int] = []

    @property
    def last_page(self) -> int:
        return max(1, -(-len(self.posts) // PER_PAGE))

    async def read(self, number: int) -> Page[Post]:
        self.reads.append(number)
        chunk = self.posts[(number - 1) * PER_PAGE : number * PER_PAGE]
        meta: dict[str, Any] = {"current_page": number}
        if self.sized:
            meta |= {"last_page": self.last_page, "total": len(self.posts), "per_page": 15}
        nxt = "x" if number < self.last_page else None
        return Page[Post](data=chunk, meta=meta, links={"next": nxt, "prev": None})  # type: ignore[arg-type]


def hourly(count: int, start: datetime = T0) -> list[datetime | None]:
    return [start + timedelta(hours=n) for n in range(count)]


def expected_page(fake: FakeList, when: datetime) -> int:
    for number in range(1, fake.last_page + 1):
        chunk = fake.posts[(number - 1) * PER_PAGE : number * PER_PAGE]
        last = chunk[-1].scheduled_at
        if last is None or last <= when:
            return number
    return fake.last_page


@pytest.mark.asyncio
@pytest.mark.parametrize("guess", [1, 7, 13, 40, 500])
@pytest.mark.parametrize("sized", [True, False])
async def test_locate_finds_the_first_page_reaching_a_time_from_any_guess(
    guess: int, sized: bool
) -> None:
    fake = FakeList(hourly(400) + [None] * 20, sized=sized)
    for hours in (-5, 0, 37, 200, 399, 1000):
        when = T0 + timedelta(hours=hours, minutes=30)
        fake.reads.clear()
        assert await locate(when, fake.read, guess) == expected_page(fake, when)
        assert len(fake.reads) <= 2 + 2 * fake.last_page.bit_length()


@pytest.mark.asyncio
async def test_a_right_guess_costs_one_read_or_two_at_a_page_break() -> None:
    fake = FakeList(hourly(400))
    when = T0 + timedelta(hours=200, minutes=30)
    page = expected_page(fake, when)
    assert await locate(when, fake.read, page) == page
    assert fake.reads == [page]  # its first post is after `when`: so is the page before

    first_of_page = fake.posts[(page - 1) * PER_PAGE].scheduled_at
    assert first_of_page is not None
    fake.reads.clear()
    assert await locate(first_of_page, fake.read, page) == page
    assert fake.reads == [page, page - 1]


@pytest.mark.asyncio
async def test_a_page_that_never_ends_cannot_keep_the_search_going() -> None:
    class Endless:
        reads = 0

        async def read(self, number: int) -> Page[Post]:
            self.reads += 1
            far = T0 + timedelta(days=10_000 - number)
            return Page[Post](data=[post(number, far)], links={"next": "again"})  # type: ignore[arg-type]

    endless = Endless()
    await locate(T0, endless.read, 1)
    assert endless.reads <= MAX_PROBES


def test_ends_by_treats_undated_drafts_as_after_every_time() -> None:
    page = Page[Post](data=[post(1, T0), post(2, None)])
    assert ends_by(page, T0 - timedelta(days=999))
    assert ends_by(Page[Post](data=[]), T0)
    assert not ends_by(Page[Post](data=[post(1, T0)]), T0 - timedelta(seconds=1))


@pytest.mark.asyncio
async def test_a_span_covers_the_range_and_the_map_makes_the_next_one_cheap() -> None:
    fake = FakeList(hourly(400) + [None] * 5)
    page_map = PageMap()
    top, bottom = T0 + timedelta(hours=250), T0 + timedelta(hours=200)
    span = await read_span(top, bottom, PageReader(fake.read, page_map), page_map)
    times = [p.scheduled_at for page in span.pages for p in page.data]
    assert all(t is not None for t in times)
    held = {t for t in times if t is not None and bottom <= t <= top}
    assert held == {T0 + timedelta(hours=h) for h in range(200, 251)}
    assert span.complete
    assert not span.from_top

    fake.reads.clear()
    again = await read_span(top, bottom, PageReader(fake.read, page_map), page_map)
    assert again.numbers == span.numbers
    # The located page and its neighbour, then the rest of the span read together.
    assert len(fake.reads) <= len(span.pages) + 1


@pytest.mark.asyncio
async def test_a_span_still_covers_the_range_after_the_list_moved() -> None:
    fake = FakeList(hourly(400))
    page_map = PageMap()
    top, bottom = T0 + timedelta(hours=100), T0 + timedelta(hours=80)
    await read_span(top, bottom, PageReader(fake.read, page_map), page_map)
    # 50 posts added further ahead: every page of the range moved ~3 pages down.
    moved = FakeList(hourly(400) + hourly(50, T0 + timedelta(days=400)))
    span = await read_span(top, bottom, PageReader(moved.read, page_map), page_map)
    times = {p.scheduled_at for page in span.pages for p in page.data}
    assert {T0 + timedelta(hours=h) for h in range(80, 101)} <= times
    assert len(moved.reads) <= len(span.pages) + 2 * moved.last_page.bit_length()


@pytest.mark.asyncio
async def test_a_span_cut_by_its_budget_says_so() -> None:
    fake = FakeList(hourly(400))
    page_map = PageMap()
    top, bottom = T0 + timedelta(hours=399), T0
    span = await read_span(top, bottom, PageReader(fake.read, page_map), page_map, max_pages=3)
    assert not span.complete
    assert len(span.pages) == 3
    assert span.from_top


@pytest.mark.asyncio
async def test_pages_read_already_are_free_and_others_count_against_the_budget() -> None:
    fake = FakeList(hourly(400))
    page_map = PageMap()
    top, bottom = T0 + timedelta(hours=399), T0
    reader = PageReader(fake.read, page_map)
    await read_span(top, bottom, reader, page_map)  # the map now knows every page
    fake.reads.clear()
    free = {20, 21, 22}  # read for another range in the same refresh, elsewhere in the list
    cut = await read_span(
        top, bottom, PageReader(fake.read, page_map), page_map, max_pages=2, free=free
    )
    assert len(cut.pages) == 2
    assert len(fake.reads) <= 3  # the located page (maybe its neighbour) and one more

    fake.reads.clear()
    shared = await read_span(
        top, bottom, PageReader(fake.read, page_map), page_map, max_pages=2, free={1, 2}
    )
    assert len(shared.pages) == 4  # pages 1 and 2 cost nothing: two more were read
