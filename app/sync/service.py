"""Background sync of one workspace: server -> WorkspaceCache, reported as SyncState.

- A full refresh reads accounts, labels and every page of `/posts` (pages concurrently, the bound
  halving on 429) and stores them in one transaction. Nothing is written until everything was
  read, so a refresh that fails half-way leaves the last good data untouched.
- A light refresh re-reads the pages around now and a few pages of the period on screen
  (`app.sync.watch`; `GET /posts` is sorted by `scheduled_at` descending, so "now" is found by
  bisection over pages and remembered) and merges each run of pages with the rule of
  `WorkspaceCache.merge_first_pages`; the few posts that rule would drop are read one by one
  first, so a post moved to another time is kept and only a 404 removes it.
- `run_forever` starts with a full refresh, then runs light ones every `light_every` seconds and a
  full one every `full_every`, or less often for a long list (`FULL_EVERY_PER_PAGE`: the
  request budget). After a failure it retries with a full refresh: soon with capped
  backoff when offline or failing, after `Retry-After` when rate limited (never earlier than the
  client's rate gate allows), and only at the `full_every` pace (or when asked) when a new key
  or a subscription is needed.
- Pages are validated and encoded for the cache on the refresh's own worker thread
  (`PageWorker`), a page at a time; the event loop (the GUI thread) only awaits them — except
  while the walk keeps only a few pages in flight (a fast server nearby: a burst is a few ms),
  when a page is parsed on the loop's thread, cheaper than the hand-off. The worker
  ends with the refresh, cancelled ones included. While a refresh runs, the GIL switch interval
  is shortened (`gil_handoff`), so the GUI thread never waits long for it, and the garbage
  collector runs on the event loop's thread only (`gc_on_loop`).
- Items of a list that do not match the spec are reported in `SyncState.unreadable`: kept with
  their unreadable parts marked when they have a usable id (`app.api.parsing` mends them), left
  out otherwise; the cached copy of one left out (if any) is kept, not deleted.
- `on_changed(change)` hears what a refresh changed (`CacheChange`: the new cards, the deleted
  ids, whether accounts or labels changed), only when something did.
- A failing `on_state`/`on_changed` callback is logged and never ends `run_forever`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import math
import random
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Literal

from app.api.backoff import backoff_delay
from app.api.client import ApiClient
from app.api.errors import ApiError, NotFound, RateLimited
from app.api.pagination import Pace
from app.api.retry import Clock
from app.models import Label, Page, Post, SocialAccountSummary, UnreadableItem
from app.store import CacheChange, CacheError, WorkspaceCache
from app.store.post_codec import PostRow, encode_posts
from app.sync import gc_on_loop, gil_handoff
from app.sync.page_map import PageReader
from app.sync.page_worker import PageWorker
from app.sync.state import (
    NOTHING_SAVED_YET,
    SHOWING_SAVED_COPY,
    Phase,
    SyncState,
    kind_of,
    needs_the_user,
    phase_of,
)
from app.sync.watch import MAX_PUBLISHING_CHECKED, Watch

log = logging.getLogger(__name__)

RefreshKind = Literal["full", "light"]
MAX_MISSES_CHECKED = 10
FULL_EVERY_PER_PAGE = 20.0
"""Seconds between full refreshes per page of `/posts`, at least `full_every`: the whole list of
3,000 posts (200 pages) is read about once an hour, ~3 requests a minute on average."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


class SyncService:
    def __init__(
        self,
        client: ApiClient,
        cache: WorkspaceCache,
        *,
        on_state: Callable[[SyncState], None],
        on_changed: Callable[[CacheChange], None],
        concurrency: int = 32,  # a cap: the walk keeps in flight what pays off (`Pace`)
        retry_base: float = 2.0,
        retry_max: float = 300.0,
        clock: Clock | None = None,
        rng: Callable[[], float] = random.random,
        wall: Callable[[], datetime] = _utc_now,
    ) -> None:
        self._client = client
        self._cache = cache
        self._on_state = on_state
        self._on_changed = on_changed
        self._concurrency = concurrency
        self._retry_base = retry_base
        self._retry_max = retry_max
        self._clock = clock or client.clock  # the rate gate's clock: waits agree with it
        self._rng = rng
        self._wall = wall
        self.watch = Watch()
        self.requests_last_refresh = 0
        """Requests the last light refresh made (pages, posts read one by one)."""
        self.pages_in_list: int | None = None
        """Pages of `/posts` at the last full refresh: sets the pace of full refreshes."""
        self._unreadable: list[UnreadableItem] = []
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._wanted: RefreshKind | None = None
        self._failures = 0
        self._retry_delay: float | None = None
        self.labels_available: bool | None = None
        """False once the server showed it has no `/labels` route (the reduced route set)."""
        self._state = SyncState(
            "idle",
            "",
            last_sync_at=cache.last_sync_at(),
            last_full_sync_at=cache.last_full_sync_at(),
        )

    @property
    def state(self) -> SyncState:
        return self._state

    def request_refresh(self, *, full: bool = True) -> None:
        """Ask the running `run_forever` loop to refresh now (e.g. a "Retry now" button)."""
        if full or self._wanted is None:
            self._wanted = "full" if full else "light"
        self._wake.set()

    def show_period(self, start: datetime, end: datetime) -> bool:
        """The period the user is looking at, re-read a few pages each light refresh; True when
        it changed (the caller may then ask for a refresh)."""
        return self.watch.show_period(start, end)

    # -- one refresh -------------------------------------------------------------------------

    async def full_refresh(self) -> bool:
        """Accounts + labels + all posts. Returns False (and reports why) when it failed; the
        cache then still holds the last good data."""
        # The GUI thread gets the GIL back quickly while the worker and the writer are busy, and
        # collections happen on it, between jobs.
        async with self._lock:
            with gil_handoff.quick_handoff(), gc_on_loop.collections_on_loop():
                self._set_state(
                    SyncState(
                        "syncing",
                        "Refreshing posts…",
                        last_sync_at=self._state.last_sync_at,
                        unreadable=self._state.unreadable,
                        last_full_sync_at=self._state.last_full_sync_at,
                    )
                )
                mark = self._cache.begin_refresh()
                self._unreadable = []
                try:
                    async with PageWorker() as worker:
                        accounts, labels, posts = await self._read_everything(worker)
                    change = await self._cache.store_full_refresh_async(
                        accounts, labels, posts, since=mark, keep=self._unreadable_ids()
                    )
                except Exception as exc:
                    self._failed(exc)
                    return False
                self._succeeded(change)
                return True

    async def light_refresh(self) -> bool:
        """The minute's refresh (`app.sync.watch`): the pages around now and a few pages of the
        period on screen, found by bisection and remembered, plus the posts still publishing
        elsewhere in the list, read one by one. Other changes wait for the next full refresh."""
        # The GUI thread gets the GIL back quickly while the worker and the writer are busy, and
        # collections happen on it, between jobs.
        async with self._lock:
            with gil_handoff.quick_handoff(), gc_on_loop.collections_on_loop():
                mark = self._cache.begin_refresh()
                self._unreadable = []
                try:
                    async with PageWorker() as worker:
                        change = await self._watch_refresh(worker, mark)
                except Exception as exc:
                    self._failed(exc)
                    return False
                self._succeeded(change)
                return True

    async def _watch_refresh(self, worker: PageWorker, mark: int) -> CacheChange:
        reader = PageReader(
            functools.partial(self._client.posts.page, offload=worker.run), self.watch.map
        )
        try:
            # "Now" as the server's answers show it (issue 19 §1): this computer's clock may be
            # off, or the workspace's server time zone wrong.
            now = self._client.server_clock.to_read_time(self._wall())
            spans = await self.watch.read(reader, now)
        finally:
            reader.cancel()  # a failed refresh leaves no read behind
        self.requests_last_refresh = reader.requests
        read_pages = [page for span in spans for page in span.pages]
        read = {post.id for page in read_pages for post in page.data}
        # Only some pages were read: what was unreadable elsewhere stays reported until a full
        # refresh reads it again.
        earlier = [item for item in self._state.unreadable if item.id not in read]
        self._unreadable = [i for page in read_pages for i in page.unreadable] + earlier
        publishing, gone = await self._publishing_elsewhere(read)
        change = CacheChange()
        for index, span in enumerate(spans):
            window = [post for page in span.pages for post in page.data]
            prune = _read_consistently(span.pages)
            checked = (
                await self._check_misses(worker, window, span.reached_end, span.from_top)
                if prune
                else []
            )
            if index == 0:
                checked += publishing
            change = change.then(
                await self._cache.merge_first_pages_async(
                    window,
                    reached_end=span.reached_end,
                    prune=prune,
                    since=mark,
                    checked=checked,
                    keep=self._unreadable_ids(),
                    from_top=span.from_top,
                )
            )
        for post_id in gone:
            if await self._cache.delete_post_async(post_id):
                change = change.then(CacheChange(gone=(post_id,)))
        return change

    async def _publishing_elsewhere(self, read: set[str]) -> tuple[list[Post], list[str]]:
        """Cached posts still `publishing` that the pages did not hold (a draft published now has
        no date and is listed last): read one by one, the longest-waiting first."""
        waiting = [i for i in self._cache.ids_with_status("publishing") if i not in read]
        found: list[Post] = []
        gone: list[str] = []
        for post_id in waiting[:MAX_PUBLISHING_CHECKED]:
            post = await self._still_there(post_id)
            if post is None:
                gone.append(post_id)
            else:
                found.append(post)
        self.requests_last_refresh += min(len(waiting), MAX_PUBLISHING_CHECKED)
        return found, gone

    async def _check_misses(
        self, worker: PageWorker, window: list[Post], reached_end: bool, from_top: bool = True
    ) -> list[Post]:
        """Read the posts the window rule would drop: a post rescheduled by someone else to
        another time is missing from the pages too, but must stay. Many misses at once (a bulk
        delete) are taken as deletions without asking."""
        misses = await worker.run(
            functools.partial(
                self._cache.window_misses, window, reached_end=reached_end, from_top=from_top
            )
        )
        misses -= self._unreadable_ids()  # in the pages, just not readable: kept as cached
        if not misses or len(misses) > MAX_MISSES_CHECKED:
            return []
        self.requests_last_refresh += len(misses)
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(self._still_there(post_id)) for post_id in sorted(misses)]
        return [post for task in tasks if (post := task.result()) is not None]

    async def _still_there(self, post_id: str) -> Post | None:
        try:
            return await self._client.posts.get(post_id)
        except NotFound:
            return None

    async def _read_everything(
        self, worker: PageWorker
    ) -> tuple[list[SocialAccountSummary], list[Label], dict[str, PostRow]]:
        async with asyncio.TaskGroup() as group:
            accounts = group.create_task(self._accounts())
            labels = group.create_task(self._labels())
            posts = group.create_task(self._read_all_posts(worker))
        return accounts.result(), labels.result(), posts.result()

    async def _read_all_posts(self, worker: PageWorker) -> dict[str, PostRow]:
        # Encoded for the cache page by page, so the parsed models of a page die young: holding
        # thousands of them until the end made the garbage collector stall the UI for ~100 ms.
        # Validation and encoding run on the worker, one page per job; `rows` is only touched
        # by those jobs, one at a time, while this coroutine awaits them.
        rows: dict[str, PostRow] = {}
        # Each page is encoded in the job that validates it (one hand-off a page), into its own
        # rows; they join `rows` here in page order, so the first copy of a post still wins.
        encoded: dict[int, dict[str, PostRow]] = {}  # by id() of a page alive until used

        def encode(page: Page[Post]) -> None:
            encoded[id(page)] = encode_posts(page.data)

        offload = worker.then(encode, here=self._parse_here)
        pages = self._client.posts.iter_pages(
            concurrency=self._concurrency, offload=offload, adaptive=True
        )
        self.watch.map.forget()
        count = 0
        async with contextlib.aclosing(pages):
            async for page in pages:
                count += 1  # pages come in order; the page's own number may be misreported
                self.watch.map.note(count, page)  # where the light refreshes look first
                page_rows = encoded.pop(id(page), None)
                if page_rows is None:  # not validated through the worker: encoded here
                    await worker.run(functools.partial(encode_posts, page.data, rows))
                else:
                    for post_id, row in page_rows.items():
                        rows.setdefault(post_id, row)
                self._unreadable += page.unreadable
        self.pages_in_list = count
        return rows

    def _parse_here(self) -> bool:
        """The walk keeps only a few pages in flight: parse them on this thread (`PageWorker`)."""
        walk = self._client.posts.last_walk
        pace = walk.last_pace if walk is not None else None
        return pace is not None and pace.in_flight <= Pace.FEW

    async def _accounts(self) -> list[SocialAccountSummary]:
        accounts = await self._client.accounts.list()
        self._unreadable += getattr(accounts, "unreadable", [])
        return accounts

    async def _labels(self) -> list[Label]:
        if self.labels_available is False:
            return []  # this deployment has no /labels: asked once a session, not every sync
        try:
            labels = await self._client.labels.list()
        except NotFound:
            # A deployment without labels: an empty list, and the UI hides the label filter.
            self.labels_available = False
            return []
        self.labels_available = True
        self._unreadable += getattr(labels, "unreadable", [])
        return labels

    def _unreadable_ids(self) -> set[str]:
        return {
            item.id
            for item in self._unreadable
            if item.id is not None and not item.kept and item.source.endswith("/posts")
        }

    # -- outcome -------------------------------------------------------------------------------

    def _succeeded(self, change: CacheChange) -> None:
        self._failures = 0
        self._retry_delay = None
        if change.any:
            self._notify(self._on_changed, change)
        self._set_state(
            SyncState(
                "idle",
                "Up to date.",
                last_sync_at=self._cache.last_sync_at(),
                unreadable=_unique(self._unreadable),
                last_full_sync_at=self._cache.last_full_sync_at(),
            )
        )

    def _failed(self, exc: BaseException) -> None:
        error = first_error(exc)
        self._failures += 1
        last = self._cache.last_sync_at()
        if isinstance(error, ApiError):
            phase = phase_of(error)
            message, hint = error.message, error.hint
        elif isinstance(error, CacheError):
            phase, message, hint = "error", str(error), "Check the free disk space."
        else:
            log.error("sync failed unexpectedly", exc_info=error)
            phase = "error"
            message = f"The sync failed unexpectedly ({type(error).__name__})."
            hint = "Postdesk keeps trying; the log has the details."
        self._retry_delay = self._delay_after(phase, error)
        if not needs_the_user(phase):
            saved = SHOWING_SAVED_COPY if last is not None else NOTHING_SAVED_YET
            hint = f"{hint} {saved}".strip()
        self._set_state(
            SyncState(
                phase,
                message,
                self._retry_delay,
                last,
                hint,
                kind=kind_of(error),
                unreadable=self._state.unreadable,
                last_full_sync_at=self._state.last_full_sync_at,
            )
        )

    def _delay_after(self, phase: Phase, error: BaseException) -> float | None:
        if needs_the_user(phase):
            return None
        # Never before the workspace's rate limit has passed, whatever failed last.
        gate = self._client.rate_gate.wait_remaining()
        if isinstance(error, RateLimited) and error.retry_after is not None:
            return max(error.retry_after, gate)
        # ±20 %: clients do not retry in lockstep.
        delay = backoff_delay(
            self._failures,
            base=self._retry_base,
            cap=self._retry_max,
            jitter_from=0.8,
            jitter_span=0.4,
            rng=self._rng,
        )
        return max(delay, gate)

    def _set_state(self, state: SyncState) -> None:
        state = dataclasses.replace(state, clock_warning=self._client.server_clock.warning())
        if state != self._state:
            self._state = state
            self._notify(self._on_state, state)

    @staticmethod
    def _notify(callback: Callable[..., None], *args: object) -> None:
        # The UI's callbacks must not break the sync: a failing one is logged and skipped.
        try:
            callback(*args)
        except Exception:
            log.exception("a sync callback failed")

    # -- the loop ------------------------------------------------------------------------------

    async def run_forever(self, light_every: float = 60, full_every: float = 900) -> None:
        """Keeps the cache fresh until cancelled. Start it as a task; cancel it on quit."""
        clock = self._clock
        next_full, next_light = clock.now(), math.inf
        while True:
            now = clock.now()
            kind: RefreshKind | None = self._wanted
            self._wanted = None
            if kind is None and now >= next_full:
                kind = "full"
            elif kind is None and now >= next_light:
                kind = "light"
            if kind is not None:
                try:
                    ok = await (self.full_refresh() if kind == "full" else self.light_refresh())
                except Exception:
                    # Refreshes report their own failures; anything else is a bug, which must
                    # not end the background sync either.
                    log.exception("a refresh failed unexpectedly")
                    ok = False
                now = clock.now()
                if ok:
                    if kind == "full":
                        pages = self.pages_in_list or 0
                        next_full = now + max(full_every, pages * FULL_EVERY_PER_PAGE)
                    next_light = now + light_every
                else:
                    # Whatever failed, the way back is a full refresh: the light one only
                    # sees the newest pages, and much may have changed while offline.
                    delay = self._retry_delay
                    next_full = now + (full_every if delay is None else delay)
                    next_light = math.inf
                continue
            await self._sleep(min(next_full, next_light) - now)

    async def _sleep(self, seconds: float) -> None:
        """Sleep on the injected clock (so tests control time), or until `request_refresh`."""
        self._wake.clear()
        if self._wanted is not None:
            return
        sleeper = asyncio.ensure_future(self._clock.sleep(max(seconds, 0.0)))
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait([sleeper, waker], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sleeper, waker):
                task.cancel()
            await asyncio.gather(sleeper, waker, return_exceptions=True)


def _unique(items: list[UnreadableItem]) -> tuple[UnreadableItem, ...]:
    """One report per item (pages read twice while the list shifts repeat them)."""
    seen: dict[tuple[str, str | int], UnreadableItem] = {}
    for item in items:
        seen.setdefault((item.source, item.id if item.id is not None else item.index), item)
    return tuple(seen.values())


def first_error(exc: BaseException) -> BaseException:
    """TaskGroup wraps failures in (possibly nested) ExceptionGroups. The first API error explains
    it best (a bug elsewhere is logged, but the user needs the server's reason), else the first
    failure of any kind."""
    leaves = list(_leaves(exc))
    return next((leaf for leaf in leaves if isinstance(leaf, ApiError)), leaves[0])


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        for inner in exc.exceptions:
            yield from _leaves(inner)
    else:
        yield exc


def _read_consistently(pages: Sequence[Page[Post]]) -> bool:
    """False when the list changed between the page reads (the totals differ): a post could
    then have slid from one page to another unseen, so nothing is dropped this time."""
    return len({page.meta.total for page in pages}) <= 1
