"""Boundaries of the page search and the spans: where a search starts, how many reads it may
make, what is read together, and that nothing past the list's end is asked for."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from app.models import Page, Post
from app.sync.page_map import MAX_PROBES, PageMap, PageReader, locate, read_span
from app.sync.watch import Watch
from tests.sync.test_page_map import T0, FakeList, hourly, post


class Overlapping(FakeList):
    """Records how many reads were in flight at once."""

    def __init__(self, times: list[datetime | None]) -> None:
        super().__init__(times)
        self.in_flight = 0
        self.peak = 0

    async def read(self, number: int) -> Page[Post]:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        await asyncio.sleep(0)  # a yield, not a wait: lets the other reads start
        try:
            return await super().read(number)
        finally:
            self.in_flight -= 1


def test_a_remembered_page_ending_exactly_at_a_time_is_where_its_search_starts() -> None:
    page_map = PageMap()
    first = Page[Post](
        data=[post(n, T0 + timedelta(hours=2 - n)) for n in range(3)],
        links={"next": "x", "prev": None},
    )
    page_map.note(1, first)
    assert page_map.guess(T0) == 1
    assert page_map.guess(T0 - timedelta(seconds=1)) == 2


@pytest.mark.asyncio
@pytest.mark.parametrize("guess", [0, 1])
async def test_a_time_on_the_first_page_costs_one_read_from_a_guess_of_one_or_less(
    guess: int,
) -> None:
    fake = FakeList(hourly(100))
    when = T0 + timedelta(hours=95, minutes=30)  # on page 1, after its first post's time
    assert await locate(when, fake.read, guess) == 1
    assert fake.reads == [1]


@pytest.mark.asyncio
async def test_a_list_that_never_reaches_the_time_gets_exactly_the_probe_budget() -> None:
    reads: list[int] = []

    async def always_later(number: int) -> Page[Post]:
        reads.append(number)
        if len(reads) > 2 * MAX_PROBES:
            raise AssertionError("the search went past its budget")
        far = T0 + timedelta(days=1)
        return Page[Post](data=[post(number, far)], links={"next": "again"})

    await locate(T0, always_later, 1)
    assert len(reads) == MAX_PROBES


@pytest.mark.asyncio
async def test_the_pages_the_map_expects_are_asked_for_together() -> None:
    fake = Overlapping(hourly(400))
    page_map = PageMap()
    top, bottom = T0 + timedelta(hours=250), T0 + timedelta(hours=200)
    first = await read_span(top, bottom, PageReader(fake.read, page_map), page_map)
    assert len(first.pages) >= 4
    fake.peak = 0
    fake.reads.clear()
    again = await read_span(top, bottom, PageReader(fake.read, page_map), page_map)
    assert again.numbers == first.numbers
    assert fake.reads == list(again.numbers)
    # The located page first (the right guess: one read), then every other page of it at once.
    assert fake.peak == len(again.pages) - 1


@pytest.mark.asyncio
async def test_a_span_down_to_before_every_post_stops_at_the_last_page() -> None:
    fake = FakeList(hourly(100))  # 7 pages, the last one partly filled
    page_map = PageMap()
    top, bottom = T0 + timedelta(hours=40), T0 - timedelta(days=30)
    span = await read_span(top, bottom, PageReader(fake.read, page_map), page_map)
    assert span.complete
    assert span.reached_end
    assert span.numbers[-1] == fake.last_page
    assert max(fake.reads) == fake.last_page  # nothing asked for past the end


def test_now_is_watched_from_a_day_before_to_an_hour_after() -> None:
    now = T0 + timedelta(days=3)
    around = Watch().now_range(now)
    assert around.start == now - timedelta(hours=24)
    assert around.end == now + timedelta(hours=1)


@pytest.mark.asyncio
async def test_the_period_on_screen_is_read_on_in_rounds_then_from_its_end_again() -> None:
    fake = FakeList(hourly(400))
    start, end = T0 + timedelta(hours=100, minutes=30), T0 + timedelta(hours=300, minutes=30)
    last_needed = next(  # the first page that ends before the period starts
        n
        for n in range(1, fake.last_page + 1)
        if (when := fake.posts[n * 15 - 1].scheduled_at) is not None and when < start
    )
    watch = Watch()
    watch.show_period(start, end)
    now = T0 + timedelta(hours=399)  # "now" is on page 1, far from the period

    async def period_round() -> list[int]:
        spans = await watch.read(PageReader(fake.read, watch.map), now)
        assert len(spans) == 2
        return list(spans[1].numbers)

    rounds = [await period_round()]
    while rounds[-1][-1] != last_needed:
        rounds.append(await period_round())
        assert rounds[-1][0] == rounds[-2][-1] + 1  # on at the page after the last one read
        assert len(rounds) < 20
    assert all(len(numbers) == 2 for numbers in rounds[:-1])
    assert len(rounds) > 2
    assert await period_round() == rounds[0]  # the round is over: from the period's end again
