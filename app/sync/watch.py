"""What the minute's refresh re-reads: the posts around now, and the period on screen.

- Around now: everything due in the last 24 hours or the next hour, where outcomes appear
  (a post turning `published` or `failed`), read whole every time.
- The period the user looks at: read two pages a refresh, continuing at the page after the
  last one read and starting over at its end (found by a search), so a month of ~70 pages is
  re-read every half hour or so while a week usually fits in one or two refreshes. Pages
  already read for "now" are free.
- Posts cached as `publishing` outside both ranges (a published-now draft has no date and is
  listed last) are read one by one.

The request budget of a refresh is the point: the whole list is 200 pages for 3,000 posts, and a
refresh every minute must stay near ten requests (README, "Staying current").
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import NamedTuple

from app.sync.page_map import PageMap, ReadPage, Span, ends_before, read_span

BEFORE_NOW = timedelta(hours=24)
AFTER_NOW = timedelta(hours=1)
PERIOD_PAGES = 2
"""New pages of the period on screen read per refresh (pages shared with "now" are not counted)."""
MAX_PUBLISHING_CHECKED = 5


class Period(NamedTuple):
    start: datetime
    end: datetime


class Watch:
    def __init__(self) -> None:
        self.map = PageMap()
        self._period: Period | None = None
        self._next_page: int | None = None
        """Where the period's next pages start (None: at its end, found by a search)."""

    @property
    def period(self) -> Period | None:
        return self._period

    def show_period(self, start: datetime, end: datetime) -> bool:
        """The period on screen; True when it is another one than before."""
        period = Period(start, end)
        if period == self._period:
            return False
        self._period = period
        self._next_page = None
        return True

    def now_range(self, now: datetime) -> Period:
        return Period(now - BEFORE_NOW, now + AFTER_NOW)

    async def read(self, read: ReadPage, now: datetime) -> list[Span]:
        """`read` is the refresh's memoised page reader (a page is asked for once)."""
        around = self.now_range(now)
        now_span = await read_span(around.end, around.start, read, self.map)
        spans = [now_span]
        period = self._period
        if period is not None:
            span = await self._period_pages(read, period, set(now_span.numbers))
            if span is not None:
                spans.append(span)
        return spans

    async def _period_pages(self, read: ReadPage, period: Period, already: set[int]) -> Span | None:
        if self._next_page is None:
            span = await read_span(
                period.end, period.start, read, self.map, max_pages=PERIOD_PAGES, free=already
            )
        else:
            # The round goes on at the page after the last one read, with no search: a list that
            # moved meanwhile shifts a post or two across the break, and the next round sees it.
            first = self._next_page
            pages = list(await asyncio.gather(*(read(first + n) for n in range(PERIOD_PAGES))))
            ends = [i for i, page in enumerate(pages) if ends_before(page, period.start)]
            span = Span(first, pages[: ends[0] + 1] if ends else pages, bool(ends))
        self._next_page = None if span.complete else span.first + len(span.pages)
        if set(span.numbers) <= already:
            return None
        return span
