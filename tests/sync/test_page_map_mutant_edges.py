"""What the page search reads: the page after a guess that ends too late, a guess past the end
of a shrunk list followed by its last page (no second read past it), and a page that exists
when the list shrinks during the search."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.models import Page, Post
from app.sync.page_map import locate
from tests.sync.test_page_map import T0, FakeList, hourly


@pytest.mark.asyncio
async def test_a_guess_one_page_short_reads_the_page_after_it_next() -> None:
    fake = FakeList(hourly(120))  # 8 pages
    end_of_page_5 = fake.posts[5 * 15 - 1].scheduled_at
    assert end_of_page_5 is not None
    assert await locate(end_of_page_5, fake.read, 4) == 5
    assert fake.reads == [4, 5]


@pytest.mark.asyncio
async def test_a_guess_past_the_end_of_a_shrunk_list_goes_to_its_last_page_next() -> None:
    fake = FakeList(hourly(45))  # 3 pages; the map remembered a longer list (page 6)
    before_everything = T0 - timedelta(hours=1)
    assert await locate(before_everything, fake.read, 6) == 3
    assert fake.reads == [6, 3]  # the first answer said where the list ends


class ShrinkingList(FakeList):
    """A bulk delete lands after the first read: only the newest `keep` posts are left."""

    def __init__(self, count: int, keep: int) -> None:
        super().__init__(hourly(count))
        self.keep = keep

    async def read(self, number: int) -> Page[Post]:
        page = await super().read(number)
        del self.posts[self.keep :]
        return page


@pytest.mark.asyncio
async def test_a_list_shrinking_during_the_search_still_gives_a_page_that_exists() -> None:
    shrinking = ShrinkingList(120, keep=45)  # 8 pages, then 3
    # Before page 5's posts: the search goes on below page 5 when the list has shrunk.
    when = T0 + timedelta(hours=10)
    assert await locate(when, shrinking.read, 5) == 3
    assert shrinking.reads == [5, 6]
