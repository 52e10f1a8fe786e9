"""Where a time sits in `GET /posts`, which is sorted by `scheduled_at` descending with undated
drafts last (spec §4), 15 posts a page.

"Now" is rarely on page 1 (that holds the furthest future), so the pages around a time are found
by bisection over page numbers and remembered (`PageMap`) between refreshes: the next search
starts at the remembered page and its neighbour, and costs one or two reads while the list has
not moved much. Pages shift when posts are added or deleted above them; the search does not
trust the map, it only starts there, and every page it reads corrects the map.

`PageReader` reads one page through a per-refresh memo, so a page needed twice (by the search
and by the span after it, or by two spans) is asked for once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection
from datetime import datetime
from typing import NamedTuple

from app.models import Page, Post

ReadPage = Callable[[int], Awaitable[Page[Post]]]

MAX_PROBES = 40
"""A search reads at most this many pages (log2 of a million pages is 20): a server whose pages
never end cannot keep it going."""

MAX_SPAN_PAGES = 40
"""A span longer than this is cut (and not pruned): a bound on one refresh's requests whatever
the server claims."""


class PageBounds(NamedTuple):
    top: datetime | None
    """The latest `scheduled_at` on the page (None: the page holds only undated drafts)."""
    bottom: datetime | None
    """The earliest `scheduled_at` on the page; None when undated drafts end it."""
    final: bool
    """The list's last page: a time before all of it is still found there."""


def bounds_of(page: Page[Post]) -> PageBounds | None:
    if not page.data:
        return None
    return PageBounds(page.data[0].scheduled_at, page.data[-1].scheduled_at, not page.has_next)


def ends_by(page: Page[Post], when: datetime) -> bool:
    """Whether the page's last post is scheduled at or before `when` (undated drafts come after
    every dated post, so a page ending with one has ended the dated part too)."""
    if not page.data:
        return True
    last = page.data[-1].scheduled_at
    return last is None or last <= when


class PageMap:
    """The bounds each page had when last read, to guess where a time is next time."""

    def __init__(self) -> None:
        self._bounds: dict[int, PageBounds] = {}

    def note(self, number: int, page: Page[Post]) -> None:
        bounds = bounds_of(page)
        if bounds is None:
            # Past the end: nothing after it is known either.
            for later in [n for n in self._bounds if n >= number]:
                del self._bounds[later]
        else:
            self._bounds[number] = bounds

    def guess(self, when: datetime) -> int:
        """The first remembered page that ends at or before `when`, else the page after the
        last remembered one (1 when nothing is known)."""
        for number in sorted(self._bounds):
            bounds = self._bounds[number]
            if bounds.bottom is None or bounds.bottom <= when or bounds.final:
                return number
        return max(self._bounds, default=0) + 1

    def forget(self) -> None:
        self._bounds.clear()


class PageReader:
    """One refresh's page reads: each page asked for once, in order of first request."""

    def __init__(self, read: ReadPage, page_map: PageMap) -> None:
        self._read = read
        self._map = page_map
        self._pages: dict[int, asyncio.Future[Page[Post]]] = {}

    def __call__(self, number: int) -> Awaitable[Page[Post]]:
        future = self._pages.get(number)
        if future is None:
            future = asyncio.ensure_future(self._read_and_note(number))
            self._pages[number] = future
        return future

    async def _read_and_note(self, number: int) -> Page[Post]:
        page = await self._read(number)
        self._map.note(number, page)
        return page

    @property
    def requests(self) -> int:
        return len(self._pages)

    def cancel(self) -> None:
        for future in self._pages.values():
            future.cancel()


async def locate(when: datetime, read: ReadPage, guess: int) -> int:
    """The first page whose last post is scheduled at or before `when` (the page where posts
    at `when` start), or the last page.

    Starts at `guess` and its neighbour (where a remembered page usually still is), then
    bisects; with the list's size unknown it gallops (doubling) until it passes `when`.
    """
    low, high = 1, None  # the answer is in [low, high]; high unknown at first
    probe = max(1, guess)
    probes = 0
    while (high is None or low < high) and probes < MAX_PROBES:
        page = await read(probe)
        probes += 1
        if ends_by(page, when) or not page.has_next:
            high = probe
            first = page.data[0].scheduled_at if page.data else None
            if first is not None and first > when:
                low = probe  # the page before ends after its first post, so after `when` too
        else:
            low = probe + 1
        if page.meta.last_page is not None or page.meta.total is not None:
            known_last = max(page.last_page, 1)
            high = known_last if high is None else min(high, known_last)
        if high is not None and low >= high:
            break
        if probes == 1:  # the guess was near: try its neighbour before bisecting
            probe = probe - 1 if high == probe else probe + 1
        elif high is None:
            probe = low * 2
        else:
            probe = (low + high) // 2
        probe = max(low, probe if high is None else min(probe, high))
    return low if high is None else min(low, high)


class Span(NamedTuple):
    """Consecutive pages read for a time range, first to last."""

    first: int
    pages: list[Page[Post]]
    complete: bool
    """False when the span was cut at MAX_SPAN_PAGES (or the page budget) before reaching the
    range's start: only what was read is stored, nothing is pruned below it."""

    @property
    def from_top(self) -> bool:
        return self.first == 1

    @property
    def reached_end(self) -> bool:
        last = self.pages[-1]
        return not last.data or not last.has_next

    @property
    def numbers(self) -> range:
        return range(self.first, self.first + len(self.pages))


async def read_span(
    top: datetime,
    bottom: datetime,
    read: ReadPage,
    page_map: PageMap,
    *,
    max_pages: int = MAX_SPAN_PAGES,
    free: Collection[int] = (),
) -> Span:
    """The pages that hold every post scheduled in [bottom, top]. The pages the map expects are
    read together; the span is then extended one page at a time while its last post is still at
    or after `bottom` (equal times may go on over the page break). At most `max_pages` pages
    are read besides those in `free` (read already by this refresh); a span cut short says so.
    The search for the first page is not counted: it is one or two reads, a bisection when the
    list moved a lot."""
    first = await locate(top, read, page_map.guess(top))
    expected_last = max(first, page_map.guess(bottom))
    ahead: list[int] = []
    number, paid = first, 0
    while number <= expected_last and paid < max_pages:
        ahead.append(number)
        paid += number not in free
        number += 1
    pages = list(await asyncio.gather(*(read(n) for n in ahead)))
    # A page the map expected may already lie past the range when the list moved: cut there.
    for index, page in enumerate(pages):
        if ends_before(page, bottom):
            return Span(first, pages[: index + 1], True)
    while paid < max_pages:
        number = first + len(pages)
        pages.append(await read(number))
        paid += number not in free
        if ends_before(pages[-1], bottom):
            return Span(first, pages, True)
    return Span(first, pages, False)


def ends_before(page: Page[Post], bottom: datetime) -> bool:
    """Whether nothing at or after `bottom` can follow this page."""
    if not page.data or not page.has_next:
        return True
    last = page.data[-1].scheduled_at
    return last is None or last < bottom
