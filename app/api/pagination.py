"""Walking the paginated lists (spec §2 Pagination envelope) as async iterators.

One `Pages` serves every paginated route. Pages may be fetched concurrently, within a bound that
halves on every 429 while all workers wait out the server's Retry-After. The fetch function must
let 429 through (not retry it itself) so that the bound can react; other transient failures are
retried by the transport.

An adaptive walk (`iter_pages(adaptive=True)`) sets how many pages it keeps in flight from what
it measures (`Pace`): concurrency pays only while the walk waits (network, server), not while
this process is busy with the pages it has. On loopback a page's round trip is mostly our own
CPU, and pages fetched ahead only queue for it; at 50 ms of latency a page is mostly waiting.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import math
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from app.api.errors import RateLimited
from app.api.retry import Clock, RetryHook, RetryPolicy
from app.models.pagination import Page
from app.models.unreadable import ItemList

T = TypeVar("T")

PageFetcher = Callable[[int], Awaitable[Page[T]]]


def size_is_known(page: Page[T]) -> bool:
    meta = page.meta
    return meta.last_page is not None or (meta.total is not None and bool(meta.per_page))


class AdaptiveLimit:
    """A concurrency bound that halves on rate limiting and makes everyone pause together."""

    def __init__(self, limit: int, clock: Clock) -> None:
        self.limit = max(1, limit)
        self.ceiling = self.limit
        """What `follow` may reach: the walk's cap, halved by every 429 like the limit."""
        self.active = 0
        self.peak = 0
        self._clock = clock
        self._resume_at = 0.0
        self._changed = asyncio.Condition()

    async def acquire(self) -> None:
        async with self._changed:
            await self._changed.wait_for(lambda: self.active < self.limit)
            self.active += 1
            self.peak = max(self.peak, self.active)
        while (remaining := self._resume_at - self._clock.now()) > 0:
            await self._clock.sleep(remaining)

    async def release(self) -> None:
        async with self._changed:
            self.active -= 1
            self._changed.notify_all()

    def back_off(self, delay: float) -> None:
        self.limit = max(1, self.limit // 2)
        self.ceiling = max(1, min(self.ceiling // 2, self.limit))
        self._resume_at = max(self._resume_at, self._clock.now() + delay)

    def follow(self, limit: int) -> None:
        """The bound an adaptive walk's pace wants, never above the ceiling a 429 left.
        Requests in flight finish; new ones wait for the bound (see `acquire`)."""
        self.limit = max(1, min(limit, self.ceiling))


class Pace:
    """How many pages an adaptive walk keeps in flight, from what it measured so far.

    With `n` pages in flight a page comes every max(round trip / n, our work per page, the
    server's). When the round trip is mostly our own CPU (a local server that answers in a
    millisecond), pages fetched ahead only queue for it, and each extra connection, task and
    thread hand-off costs more of it; when the walk waits (the network, a server doing real
    work, on the other core or far away), many in flight cost little and gain much. So the
    walk measures, per page, the fetch (request sent to page validated) and the consumer's use
    of it (handed out to asked for the next: encoded, stored...), and per window of pages (the
    first one alone, then at least `MIN_WINDOW` pages, twice `n` when more, and `MIN_SPAN`
    seconds) the pages a second and the share of the wall time this process was busy.

    - One in flight while the fastest fetch is not clearly longer than the typical use
      (`WAITS`): nothing to overlap.
    - Otherwise `cap` at once; the window after a change is not judged (pages on their way).
    - A judged window with `LOSS` fewer pages a second than the best one (the server, or the
      machine, chokes on so many at once) halves `n`, down to where the best was; a window
      that lost nothing ends the search there.

    A 429 halves the bound whatever the pace asks (`AdaptiveLimit.back_off`).
    """

    WAITS = 2.0
    LOSS = 0.15
    MIN_WINDOW = 4
    MIN_SPAN = 0.05

    def __init__(
        self,
        cap: int,
        *,
        wall: Callable[[], float] = time.perf_counter,
        cpu: Callable[[], float] = time.process_time,
    ) -> None:
        self.cap = max(1, cap)
        self.in_flight = 1
        self.settled = False
        """The search is over: `in_flight` stays for the rest of the walk."""
        self.wall = wall
        self._cpu = cpu
        self._window = 1
        self._counted = 0
        self._started = (wall(), cpu())
        self._fastest_fetch = math.inf
        self._handed_at: float | None = None
        self._used: list[float] = []
        self._best: tuple[int, float] | None = None
        """The window with the most pages a second so far: (pages in flight, pages a second)."""
        self._warming = False
        self.history: list[tuple[int, float, float]] = []
        """Each window: (pages in flight, share of the wall time busy, pages a second)."""

    def fetched(self, seconds: float) -> None:
        """A page's fetch took `seconds` (request to validated page)."""
        self._fastest_fetch = min(self._fastest_fetch, seconds)

    def handed_out(self) -> None:
        """A page goes to the consumer now."""
        self._handed_at = self.wall()

    def page_done(self) -> int:
        """The consumer asks for the next page: how many to keep in flight from now on."""
        wall = self.wall()
        if self._handed_at is not None:
            self._used.append(wall - self._handed_at)
            self._handed_at = None
        self._counted += 1
        if self.settled or self._counted < self._window:
            return self.in_flight
        spent = wall - self._started[0]
        if spent < self.MIN_SPAN:
            return self.in_flight
        cpu = self._cpu()
        busy = (cpu - self._started[1]) / spent
        rate = self._counted / spent
        self.history.append((self.in_flight, busy, rate))
        if self._warming:  # the first window after a change: pages still on their way
            self._warming = False
        elif self.in_flight == 1:
            if self._waits():
                self._best = (1, rate)
                self._change(self.cap)
        else:
            best = self._best or (1, rate)
            if rate < best[1] * (1 - self.LOSS) and self.in_flight > best[0]:
                self._change(max(best[0], self.in_flight // 2))
                self.settled = self.in_flight == best[0]
            else:
                self._best = max(best, (self.in_flight, rate), key=lambda entry: entry[1])
                self.settled = True
        self._counted = 0
        self._used = []
        self._window = max(self.MIN_WINDOW, 2 * self.in_flight)
        self._started = (wall, cpu)
        return self.in_flight

    def _change(self, in_flight: int) -> None:
        self.in_flight = in_flight
        self._warming = True

    def _waits(self) -> bool:
        """Whether the fastest fetch took clearly longer than the typical use of a page."""
        if not self._used or math.isinf(self._fastest_fetch):
            return False
        used = sorted(self._used)[len(self._used) // 2]
        return self._fastest_fetch > self.WAITS * used


class Pages(Generic[T]):
    """Iteration over one paginated route, given a function that fetches page `n`."""

    def __init__(
        self,
        fetch: PageFetcher[T],
        *,
        clock: Clock,
        retry: RetryPolicy,
        on_retry: Callable[[], RetryHook | None] = lambda: None,
    ) -> None:
        self._fetch = fetch
        self._clock = clock
        self._retry = retry
        self._on_retry = on_retry
        self.last_limit: AdaptiveLimit | None = None
        """The bound used by the latest concurrent walk (observable by tests and benchmarks)."""
        self.last_pace: Pace | None = None
        """The measurements of the latest adaptive walk (observable by tests and benchmarks)."""

    async def _fetch_bounded(
        self, number: int, limit: AdaptiveLimit, pace: Pace | None = None
    ) -> Page[T]:
        attempt = 0
        while True:
            attempt += 1
            await limit.acquire()
            try:
                if pace is None:
                    return await self._fetch(number)
                started = pace.wall()
                page = await self._fetch(number)
                pace.fetched(pace.wall() - started)
                return page
            except RateLimited as error:
                wait = error.retry_after
                if attempt >= self._retry.max_attempts or (
                    wait is not None and wait > self._retry.max_retry_after
                ):
                    raise
                delay = wait if wait is not None else self._retry.backoff(attempt)
                limit.back_off(delay)
                hook = self._on_retry()
                if hook is not None:
                    hook(attempt, delay, error)
            finally:
                await limit.release()

    def _new_limit(self, concurrency: int) -> AdaptiveLimit:
        self.last_limit = AdaptiveLimit(concurrency, self._clock)
        return self.last_limit

    async def iter_pages(
        self, *, concurrency: int = 1, adaptive: bool = False
    ) -> AsyncGenerator[Page[T], None]:
        """Pages in order. With `concurrency > 1` the pages after the first are fetched ahead:
        `concurrency` at a time, or with `adaptive`, as many as pay off (`Pace`), at most
        `concurrency`."""
        pace = Pace(concurrency) if adaptive and concurrency > 1 else None
        self.last_pace = pace
        limit = self._new_limit(1 if pace is not None else concurrency)
        if pace is not None:
            limit.ceiling = concurrency
        first = await self._fetch_bounded(1, limit, pace)
        if pace is not None:
            pace.handed_out()
        yield first
        if pace is not None:
            limit.follow(pace.page_done())
        if concurrency <= 1 or not size_is_known(first):
            page, number = first, 1
            # Our own counter, not the page's: a server that misreports `current_page` must not
            # make us fetch the same page forever. An empty page ends the walk too.
            while page.has_next and page.data:
                number += 1
                page = await self._fetch_bounded(number, limit)
                yield page
            return
        # A bounded window of pages fetched ahead: unbounded, every page would be fetched and
        # parsed long before the caller consumed it, and all of them (with their thousands of
        # models) would be alive at once, which the garbage collector walks again and again.
        numbers = iter(range(2, first.last_page + 1))
        del first  # like every page handed out: the caller decides how long it lives
        ahead: collections.deque[asyncio.Future[Page[T]]] = collections.deque()
        try:
            while True:
                # The bound in force (a 429 halves it, the pace raises it): pages fetched ahead
                # beyond it would only wait for it, holding their futures.
                wanted = limit.limit if pace is not None else concurrency
                for number in itertools.islice(numbers, max(0, wanted - len(ahead))):
                    ahead.append(asyncio.ensure_future(self._fetch_bounded(number, limit, pace)))
                if not ahead:
                    return
                page = await ahead[0]
                ahead.popleft()  # a finished task would keep its page alive
                if pace is not None:
                    pace.handed_out()
                yield page
                del page
                if pace is not None:
                    limit.follow(pace.page_done())
        finally:
            await _cancel(ahead)

    async def iter_items(self, *, concurrency: int = 1) -> AsyncIterator[T]:
        async for page in self.iter_pages(concurrency=concurrency):
            for item in page.data:
                yield item

    async def fetch_all(
        self,
        *,
        concurrency: int = 6,
        first_pages: int | None = None,
        key: Callable[[T], Hashable] | None = None,
    ) -> ItemList[T]:
        """Every item (or those of the first `first_pages` pages), in page order; items that
        could not be read are in the result's `unreadable`.

        With `key`, an item seen on an earlier page is not repeated (lists can shift while they
        are read, pushing an item onto the next page too).
        """
        limit = self._new_limit(concurrency)
        first = await self._fetch_bounded(1, limit)
        pages = [first]
        wanted = first_pages
        if size_is_known(first):
            last = first.last_page if wanted is None else min(first.last_page, wanted)
            tasks = [
                asyncio.ensure_future(self._fetch_bounded(n, limit)) for n in range(2, last + 1)
            ]
            try:
                pages += await asyncio.gather(*tasks)
            finally:
                await _cancel(tasks)
        else:
            page = first
            while page.has_next and page.data and (wanted is None or len(pages) < wanted):
                page = await self._fetch_bounded(len(pages) + 1, limit)
                pages.append(page)
        return _flatten(pages, key)


def _flatten(pages: list[Page[T]], key: Callable[[T], Hashable] | None) -> ItemList[T]:
    items: ItemList[T] = ItemList()
    seen: set[Hashable] = set()
    for page in pages:
        items.unreadable += page.unreadable
        for item in page.data:
            if key is not None:
                k = key(item)
                if k in seen:
                    continue
                seen.add(k)
            items.append(item)
    return items


async def _cancel(tasks: Sequence[asyncio.Future[Any]]) -> None:
    pending = [task for task in tasks if not task.done()]
    for task in pending:
        task.cancel()
    # Collect every outcome so that no failure is left unretrieved.
    await asyncio.gather(*tasks, return_exceptions=True)
