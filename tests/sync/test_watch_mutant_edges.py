"""The period on screen beside "now": pages already read for now are free, a round that reaches
the period's start stops there, and a period wholly inside now's pages adds nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.sync.page_map import PageReader
from app.sync.watch import Watch
from tests.sync.test_page_map import T0, FakeList, hourly

HOURS = 400
NOW = T0 + timedelta(hours=HOURS - 1)
"""On page 1 of a list of one post an hour, newest first, 15 a page: now's range is pages 1-2."""


async def period_pages(watch: Watch, fake: FakeList) -> list[list[int]]:
    spans = await watch.read(PageReader(fake.read, watch.map), NOW)
    return [list(span.numbers) for span in spans]


@pytest.mark.asyncio
async def test_pages_shared_with_now_do_not_count_against_the_periods_two() -> None:
    fake = FakeList(hourly(HOURS))
    watch = Watch()
    watch.show_period(T0 + timedelta(hours=HOURS - 60, minutes=30), NOW + timedelta(minutes=30))
    now_pages, period = await period_pages(watch, fake)
    assert now_pages == [1, 2]
    assert period == [1, 2, 3, 4]


@pytest.mark.asyncio
async def test_a_round_that_reaches_the_periods_start_stops_at_that_page() -> None:
    fake = FakeList(hourly(HOURS))
    watch = Watch()
    # From hour 349 down to hour 310: pages 4 to 7 (page 7 holds hours 309 to 295).
    watch.show_period(T0 + timedelta(hours=309, minutes=30), T0 + timedelta(hours=349))
    rounds = [(await period_pages(watch, fake))[1] for _ in range(3)]
    assert rounds[0] == [4, 5]
    assert rounds[1] == [6, 7]
    assert rounds[2] == [4, 5]  # over: from the period's end again


@pytest.mark.asyncio
async def test_a_round_ending_on_its_first_page_reads_no_page_past_it() -> None:
    fake = FakeList(hourly(HOURS))
    watch = Watch()
    # Hours 349 down to 311: pages 4 to 6 (page 6 ends at hour 310); the second round reads
    # pages 6 and 7 together and finds the start on page 6.
    watch.show_period(T0 + timedelta(hours=310, minutes=30), T0 + timedelta(hours=349))
    first = (await period_pages(watch, fake))[1]
    second = (await period_pages(watch, fake))[1]
    assert first == [4, 5]
    assert second == [6]


@pytest.mark.asyncio
async def test_a_period_on_the_pages_read_for_now_adds_no_span() -> None:
    fake = FakeList(hourly(HOURS))
    watch = Watch()
    around = watch.now_range(NOW)
    watch.show_period(around.start, around.end)
    assert await period_pages(watch, fake) == [[1, 2]]
