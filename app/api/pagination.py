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
import contextlib
import itertools
import logging
import math
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from app.api.errors import EndlessList, RateLimited
from app.api.hold import Hold
from app.api.retry import Clock, RetryHook, RetryPolicy
from app.models.pagination import Page
from app.models.unreadable import ItemList

T = TypeVar("T")

PageFetcher = Callable[[int], Awaitable[Page[T]]]

log = logging.getLogger("app.api")

MAX_PAGES = 10_000
"""No walk asks for more pages than this, whatever the server claims (150,000 posts at 15 a
page): a `last_page` of 1,000,000 must not become a million requests."""
PAGES_PAST_TOTAL = 2
"""Pages a walk may read past what `meta.total` promised (the list grows while it is read)."""


def size_is_known(page: Page[T]) -> bool:
    meta = page.meta
    return meta.last_page is not None or (meta.total is not None and bool(meta.per_page))


def plausible_last(page: Page[T]) -> int:
    """The last page number a walk may ask for, from what the first page says: `last_page` is
    believed only as far as `total` / `per_page` (plus a little growth) and `MAX_PAGES` allow."""
    meta = page.meta
    last = page.last_page
    if meta.total is not None and meta.per_page:
        last = min(last, max(1, math.ceil(max(meta.total, 0) / meta.per_page)) + PAGES_PAST_TOTAL)
    return max(1, min(last, MAX_PAGES))


class WalkGuard:
    """Watches the pages of one walk and stops it when the server's list cannot be a list: a page
    with the same items as an earlier one (`links.next` pointing at itself, `page` ignored), more
    pages than `MAX_PAGES`. An empty page after the first ends the walk quietly (lists shrink
    while they are read): it is still handed out, last, for its `meta`; `stopped` then says why,
    for the log and tests."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.stopped: str | None = None
        self._seen: dict[tuple[object, ...], int] = {}

    def admit(self, number: int, page: Page[Any]) -> bool:
        """Whether page `number` belongs to the list (False: the walk ends before it).
        Raises `EndlessList` when the list repeats itself."""
        if number > MAX_PAGES:
            raise EndlessList(
                f"The server's list {self.what} has more than {MAX_PAGES:,} pages; reading it "
                f"was stopped there."
            )
        if number > 1 and not page.data:
            self.stopped = f"page {number} of {self.what} is empty: the list ends there"
            log.info("Walk stopped: %s", self.stopped)
            return False
        fingerprint = _fingerprint(page)
        if fingerprint:
            earlier = self._seen.setdefault(fingerprint, number)
            if earlier != number:
                raise EndlessList(
                    f"The server sent the same page of {self.what} again (page {number} repeats "
                    f"page {earlier}); reading it was stopped after {number} requests."
                )
        return True

    def past_total(self, number: int, last: int) -> bool:
        if number <= last:
            return False
        self.stopped = f"{self.what} went on past the {last} pages its total promised"
        log.warning("Walk stopped: %s", self.stopped)
        return True


def _fingerprint(page: Page[Any]) -> tuple[object, ...]:
    """The ids of a page's items (empty when they have none to compare by)."""
    ids = tuple(getattr(item, "id", None) for item in page.data)
    return ids if ids and None not in ids else ()


class AdaptiveLimit:
    """A concurrency bound that halves on rate limiting and makes everyone pause together."""

    def __init__(self, limit: int, clock: Clock) -> None:
        self.limit = max(1, limit)
        self.ceiling = self.limit
        """What `follow` may reach: the walk's cap, halved by every 429 like the limit."""
        self.active = 0
        self.peak = 0
        self._paused = Hold(clock)
        self._changed = asyncio.Condition()

    async def acquire(self) -> None:
        async with self._changed:
            await self._changed.wait_for(lambda: self.active < self.limit)
            self.active += 1
            self.peak = max(self.peak, self.active)
        await self._paused.wait()

    async def release(self) -> None:
        async with self._changed:
            self.active -= 1
            self._changed.notify_all()

    def back_off(self, delay: float) -> None:
        self.limit = max(1, self.limit // 2)
        self.ceiling = max(1, min(self.ceiling // 2, self.limit))
        self._paused.hold_for(delay)

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
    - Otherwise `cap` at once — or `FEW` when this process was busy at least `BUSY` of the
      time with one in flight; the window after a change is not judged (pages on their way).
    - A judged window with `LOSS` fewer pages a second than the best one (the server, or the
      machine, chokes on so many at once) halves `n`, down to where the best was; a window
      that lost nothing ends the search there.

    A 429 halves the bound whatever the pace asks (`AdaptiveLimit.back_off`).
    """

    WAITS = 2.0
    BUSY = 0.5
    """At one in flight the process was busy at least this share of the time: the wait to
    overlap is at most as long as our own work, and `FEW` pages cover it. (Many more only add
    connections and tasks to look after: on loopback 32 cost ~3 % over 4.) A contended machine
    looks idle while it waits for a CPU, so this never holds a walk back from the cap there."""
    FEW = 4
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
                self._change(self.cap if busy < self.BUSY else min(self.cap, self.FEW))
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
        what: str = "",
    ) -> None:
        self._what = what or "the list"
        self.last_guard: WalkGuard | None = None
        """The guard of the latest walk: why it stopped early, if it did."""
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
        `concurrency`. The walk is bounded whatever the server says (`WalkGuard`)."""
        # Closed with this one, at once: the pages fetched ahead are cancelled before `aclose()`
        # returns, not whenever the collector finalizes the inner walk.
        walk = self._walk(concurrency=concurrency, adaptive=adaptive)
        async with contextlib.aclosing(walk):
            async for page in walk:
                yield page

    async def _walk(
        self, *, concurrency: int = 1, adaptive: bool = False, max_pages: int | None = None
    ) -> AsyncGenerator[Page[T], None]:
        guard = self.last_guard = WalkGuard(self._what)
        pace = Pace(concurrency) if adaptive and concurrency > 1 else None
        self.last_pace = pace
        limit = self._new_limit(1 if pace is not None else concurrency)
        if pace is not None:
            limit.ceiling = concurrency
        first = await self._fetch_bounded(1, limit, pace)
        guard.admit(1, first)
        if pace is not None:
            pace.handed_out()
        yield first
        if pace is not None:
            limit.follow(pace.page_done())
        wanted_last = MAX_PAGES + 1 if max_pages is None else max_pages
        if concurrency <= 1 or not size_is_known(first):
            page, number = first, 1
            promised = plausible_last(first) if size_is_known(first) else MAX_PAGES + 1
            # Our own counter, not the page's: a server that misreports `current_page` must not
            # make us fetch the same page forever. An empty page ends the walk too.
            while page.has_next and page.data and number < wanted_last:
                number += 1
                if guard.past_total(number, promised):
                    return
                page = await self._fetch_bounded(number, limit)
                if not guard.admit(number, page):
                    yield page  # empty, but its `meta.total` tells a reader the list moved
                    return
                yield page
            return
        # A bounded window of pages fetched ahead: unbounded, every page would be fetched and
        # parsed long before the caller consumed it, and all of them (with their thousands of
        # models) would be alive at once, which the garbage collector walks again and again.
        numbers = iter(range(2, min(plausible_last(first), wanted_last) + 1))
        del first  # like every page handed out: the caller decides how long it lives
        ahead: collections.deque[tuple[int, asyncio.Future[Page[T]]]] = collections.deque()
        try:
            while True:
                # The bound in force (a 429 halves it, the pace raises it): pages fetched ahead
                # beyond it would only wait for it, holding their futures.
                wanted = limit.limit if pace is not None else concurrency
                for number in itertools.islice(numbers, max(0, wanted - len(ahead))):
                    ahead.append(
                        (number, asyncio.ensure_future(self._fetch_bounded(number, limit, pace)))
                    )
                if not ahead:
                    return
                number, future = ahead[0]
                page = await future
                ahead.popleft()  # a finished task would keep its page alive
                del future
                if not guard.admit(number, page):
                    # Empty: the walk ends, but the page is handed out, since its `meta.total`
                    # is how a reader learns that the list shrank while it was read (the
                    # outbox's check reads the list again then, or it would miss a post and
                    # send a batch twice).
                    yield page
                    return
                if pace is not None:
                    pace.handed_out()
                yield page
                del page
                if pace is not None:
                    limit.follow(pace.page_done())
        finally:
            await _cancel([future for _, future in ahead])

    async def iter_items(self, *, concurrency: int = 1) -> AsyncIterator[T]:
        pages = self.iter_pages(concurrency=concurrency)
        async with contextlib.aclosing(pages):
            async for page in pages:
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
        pages = [page async for page in self._walk(concurrency=concurrency, max_pages=first_pages)]
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
