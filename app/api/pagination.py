"""Walking the paginated lists (spec §2 Pagination envelope) as async iterators.

One `Pages` serves every paginated route. Pages may be fetched concurrently, within a bound that
halves on every 429 while all workers wait out the server's Retry-After. The fetch function must
let 429 through (not retry it itself) so that the bound can react; other transient failures are
retried by the transport.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
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
        self._resume_at = max(self._resume_at, self._clock.now() + delay)


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

    async def _fetch_bounded(self, number: int, limit: AdaptiveLimit) -> Page[T]:
        attempt = 0
        while True:
            attempt += 1
            await limit.acquire()
            try:
                return await self._fetch(number)
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

    async def iter_pages(self, *, concurrency: int = 1) -> AsyncGenerator[Page[T], None]:
        """Pages in order. With `concurrency > 1` the pages after the first are fetched ahead."""
        limit = self._new_limit(concurrency)
        first = await self._fetch_bounded(1, limit)
        yield first
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
                for number in itertools.islice(numbers, concurrency - len(ahead)):
                    ahead.append(asyncio.ensure_future(self._fetch_bounded(number, limit)))
                if not ahead:
                    return
                page = await ahead[0]
                ahead.popleft()  # a finished task would keep its page alive
                yield page
                del page
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
