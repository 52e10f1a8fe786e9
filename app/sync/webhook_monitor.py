"""Webhook health of one workspace, owned by its session (DESIGN.md: pages read, ask and listen).

- The list (`GET /webhooks`) is read every `list_every` seconds whether or not the Webhooks page
  is shown: the "webhook paused" notification depends on it. A 404 or 403 there is remembered
  for the session (`unavailable`) and never asked again.
- The delivery log of the webhook on screen (`watch(id)`) is topped up every `logs_every`
  seconds, every `undecided_every` while one of its kept rows is still undecided (a queued
  replay, a delivery with attempts left), into the rows kept in the workspace's durable file
  (`app.store.delivery_logs`). A top-up reads page 1, 2, … of the log until a page holds a row
  kept before (or `TOP_UP_PAGES`, or the end): a webhook read before costs one or two requests.
- Rows below a gap (a webhook never read, or one whose new rows outnumbered a top-up) are read
  when the log is scrolled to them (`fill_below`), and a little at a time in the background
  while the page shows the webhook (`BACKFILL_PAGES`, one page every `backfill_every` seconds),
  so its chart fills up without a burst of requests.
- Every read is shared: whoever asks while the same read is in flight waits for it instead of
  sending it again (the page's Refresh, F5, the timer and the notifier may all ask at once).

No Qt here: the session runs `run()` as one of its tasks and turns the callbacks into signals.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Coroutine, Hashable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from app.api.client import ApiClient
from app.api.errors import ApiError, NotFound, PermissionDenied
from app.models.pagination import Page
from app.models.webhooks import DeliveryLog, Webhook
from app.store.delivery_logs import DeliveryArchive, KeptRow, LogKey, StoredRun, created_utc
from app.store.delivery_search import DeliverySearch
from app.store.local_store import LocalStoreError
from app.webhooks.raw_log import RawDeliveryLog
from app.webhooks.timeline import RETENTION, Timeline, first_hour, timeline_from_counts

log = logging.getLogger(__name__)

T = TypeVar("T")

PER_PAGE = 15
"""Spec §8: webhook log page size."""
TOP_UP_PAGES = 3
"""Pages a top-up reads at most looking for a kept row; the rest is a gap read on demand."""
FILL_TRIES = 4
"""Pages read at most to find where the rows below a gap start on the server."""
BACKFILL_PAGES = 40
"""Pages read in the background per webhook and session (600 deliveries) for its chart."""
UNDECIDED_WATCH = timedelta(minutes=10)
"""How long a row kept undecided keeps its page re-read and the log polled faster."""
LIST_EVERY_S = 60.0
LOGS_EVERY_S = 20.0
UNDECIDED_EVERY_S = 5.0
BACKFILL_EVERY_S = 2.0


@dataclass(frozen=True)
class LogsChanged:
    """Rows of one webhook's kept log that are new or changed (a queued delivery decided)."""

    webhook_id: str
    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()


class WebhookMonitor:
    def __init__(
        self,
        client: ApiClient,
        archive: DeliveryArchive,
        *,
        on_webhooks: Callable[[list[Webhook]], None] = lambda _webhooks: None,
        on_unavailable: Callable[[ApiError], None] = lambda _error: None,
        on_logs: Callable[[LogsChanged], None] = lambda _change: None,
        list_every: float = LIST_EVERY_S,
        logs_every: float = LOGS_EVERY_S,
        undecided_every: float = UNDECIDED_EVERY_S,
        backfill_every: float = BACKFILL_EVERY_S,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.client = client
        self.archive = archive
        self.search = DeliverySearch(archive.db)
        """Search over everything kept (issue 17 §2); its index is made on first use."""
        self._on_webhooks = on_webhooks
        self._on_unavailable = on_unavailable
        self._on_logs = on_logs
        self.list_every = list_every
        self.logs_every = logs_every
        self.undecided_every = undecided_every
        self.backfill_every = backfill_every
        self._clock = clock
        self._wall = wall
        self.webhooks: list[Webhook] | None = None
        """The list as last read (None: not yet)."""
        self.listed_at: float | None = None
        self.unavailable: ApiError | None = None
        """The 404 or 403 `/webhooks` answered: not asked again this session."""
        self.watched: str | None = None
        """The webhook whose log is on screen (None: the page is hidden or shows none)."""
        self.running = False
        self.requests = 0
        """Requests this monitor made (lists and log pages)."""
        self.closed = False
        self._inflight: dict[Hashable, asyncio.Task[Any]] = {}
        self._own: set[asyncio.Task[Any]] = set()
        self._poked = False
        self._waiting: asyncio.Future[None] | None = None
        self._wanted = False
        self._relist = False  # a 404 on a webhook: read the list again (not the log)
        self._topped_up: dict[str, float] = {}
        self._backfilled: dict[str, int] = {}
        self._next_backfill = 0.0
        self._pruned = False

    # -- what pages and the notifier call ------------------------------------------------------

    def watch(self, webhook_id: str | None) -> None:
        """The log shown now (None: none is shown); polled while shown."""
        if webhook_id != self.watched:
            self.watched = webhook_id
            self._poke()

    async def read_list(self, max_age: float | None = None) -> list[Webhook]:
        """The webhooks, read now (or joining the read in flight); with `max_age`, the last
        list when it is at most that old. Raises the remembered 404/403."""
        if self.unavailable is not None:
            raise self.unavailable
        if (
            max_age is not None
            and self.webhooks is not None
            and self.listed_at is not None
            and self._clock() - self.listed_at <= max_age
        ):
            return self.webhooks
        return await self._shared("list", self._read_list)

    async def current(self) -> list[Webhook]:
        """For the notifier: the list the polling keeps current, read only when nothing polls
        it (or it was never read)."""
        if self.running and self.webhooks is not None and self.unavailable is None:
            return self.webhooks
        return await self.read_list()

    async def refresh(self) -> None:
        """One refresh of everything shown: the list, then the watched webhook's log."""
        await self.read_list()
        watched = self.watched
        if watched is not None:
            await self.top_up(watched)

    def request_refresh(self) -> None:
        """F5: refresh soon (the running loop does it; otherwise a task of this monitor)."""
        if self.closed or self.unavailable is not None:
            return
        if self.running:
            self._wanted = True
            self._poke()
        else:
            self._spawn(self._quietly(self.refresh()))

    async def top_up(self, webhook_id: str) -> LogsChanged:
        """Read the newest log pages of `webhook_id` until one holds a kept row (see module)."""
        return await self._shared(("logs", webhook_id), lambda: self._top_up(webhook_id))

    async def fill_below(self, webhook_id: str, log_id: str) -> bool:
        """Read the rows the server lists below the kept row `log_id` (which has a gap below
        it). True when that gap is closed (read, or nothing is below it)."""
        return await self._shared(
            ("fill", webhook_id), lambda: self._fill_below(webhook_id, log_id)
        )

    @property
    def busy(self) -> bool:
        """A read of this monitor is in flight (tests wait for quiet)."""
        return bool(self._inflight or self._own)

    def note_webhook(self, webhook: Webhook) -> None:
        """A write's answer (enable, disable, edit): the list says so at once."""
        if self.webhooks is None:
            return
        updated = [webhook if w.id == webhook.id else w for w in self.webhooks]
        if updated != self.webhooks:
            self.webhooks = updated
            self._on_webhooks(list(updated))

    def chart(self, webhook_id: str, now: datetime | None = None) -> tuple[Timeline, str]:
        """The 7-day timeline from the kept rows, and a note when rows of those days are not
        read yet. Reads the file only: may run on a worker thread."""
        now = (now or datetime.now(UTC)).astimezone(UTC)
        start = first_hour(now)
        counts, elapsed = self.archive.chart_counts(webhook_id, start)
        older = self.archive.count_before(webhook_id, start)
        timeline = timeline_from_counts(counts, elapsed, now, older)
        counted = timeline.delivered + timeline.failed + timeline.queued
        gap = self.archive.first_gap(webhook_id)
        total = self.archive.total(webhook_id)
        note = ""
        recent = gap is not None and gap.created_utc >= created_utc(now - RETENTION)
        if recent and total is not None and total > counted:
            note = f"chart shows {counted:,} of {total:,} deliveries read so far"
        return timeline, note

    # -- the loop --------------------------------------------------------------------------------

    async def run(self) -> None:
        """Poll until cancelled: the list every `list_every`, the watched log as described."""
        self.running = True
        next_list = self._clock()
        try:
            while not self.closed:
                self._poked = False
                wanted, self._wanted = self._wanted, False
                relist, self._relist = self._relist, False
                if wanted or relist or self._clock() >= next_list:
                    if self.unavailable is None:
                        await self._quietly(self.read_list())
                    next_list = self._clock() + self.list_every
                watched = self.watched
                if watched is not None and self.unavailable is None:
                    if wanted or self._clock() >= self._logs_due(watched):
                        await self._quietly(self.top_up(watched))
                    elif self._backfill_due(watched):
                        await self._quietly(self._backfill(watched))
                wake_at = next_list
                watched = self.watched
                if watched is not None and self.unavailable is None:
                    wake_at = min(wake_at, self._logs_due(watched))
                    if self._backfill_wanted(watched):
                        wake_at = min(wake_at, self._next_backfill)
                await self._sleep(wake_at - self._clock())
        finally:
            self.running = False

    def _poke(self) -> None:
        self._poked = True
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(None)

    async def _sleep(self, delay: float) -> None:
        """Until `delay` has passed or `_poke()` (a future and a timer: nothing to leak)."""
        if self._poked or delay <= 0:
            await asyncio.sleep(0)  # never a loop that starves the others
            return
        loop = asyncio.get_running_loop()
        waiting: asyncio.Future[None] = loop.create_future()
        timer = loop.call_later(delay, _settle, waiting)
        self._waiting = waiting
        try:
            await waiting
        finally:
            timer.cancel()
            self._waiting = None

    async def aclose(self) -> None:
        """End every read of this monitor (the session closes its client next)."""
        self.closed = True
        tasks = set(self._inflight.values()) | self._own
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5.0)

    # -- reads -----------------------------------------------------------------------------------

    async def _read_list(self) -> list[Webhook]:
        try:
            self.requests += 1
            webhooks = await self.client.webhooks.list()
        except (NotFound, PermissionDenied) as error:
            self.unavailable = error
            self._on_unavailable(error)
            raise
        self.listed_at = self._clock()
        changed = webhooks != self.webhooks
        self.webhooks = webhooks
        if self.watched is not None and all(w.id != self.watched for w in webhooks):
            self.watched = None  # deleted on the server: its log answers 404 from now on
        try:
            # A webhook deleted on the server keeps its archive here until the user removes it.
            await self.archive.note_listed((w.id, w.endpoint) for w in webhooks)
            if not self._pruned:
                self._pruned = True
                await self.archive.prune(self._wall())  # past the user's retention, once a run
        except LocalStoreError as error:
            log.warning("could not note the webhooks in the archive: %s", error.message)
        if changed:
            self._on_webhooks(list(webhooks))
        return webhooks

    async def _page(self, webhook_id: str, number: int) -> Page[RawDeliveryLog]:
        self.requests += 1
        return await self.client.webhooks.logs_page(webhook_id, number)

    async def _top_up(self, webhook_id: str) -> LogsChanged:
        archive = self.archive
        self._topped_up[webhook_id] = self._clock()  # also when it fails: the next one waits
        had_rows = archive.newest(webhook_id) is not None
        watched = self._undecided(webhook_id)
        oldest_watched = min((row.key for row in watched), default=None)
        run: list[DeliveryLog] = []
        end = False
        total: int | None = None
        number = 1
        while True:
            page = await self._page(webhook_id, number)
            run += page.data
            if number == 1:
                total = page.meta.total  # the head as it was: later pages may have moved
            if not page.data or not page.has_next:
                end = True
                break
            if not had_rows or number >= TOP_UP_PAGES:
                break  # never read: its newest page; older rows come on demand
            met = archive.known_ids(webhook_id, [item.id for item in page.data])
            oldest_here = min(_key(item) for item in page.data)
            if met and (oldest_watched is None or oldest_here <= oldest_watched):
                break
            number += 1
        if not run and had_rows:
            await archive.close_gap(webhook_id)  # the server keeps nothing below what we keep
        stored = await archive.store_run(webhook_id, run, reaches_end=end, total=total, head=True)
        self._poke()  # the loop's next wake-up may change (a queued row is polled faster)
        return self._stored(webhook_id, stored)

    async def _fill_below(self, webhook_id: str, log_id: str) -> bool:
        archive = self.archive
        first = archive.first_gap(webhook_id)
        target = archive.row(webhook_id, log_id)
        if target is None or not target.gap_below:
            return True
        steps = 0
        while first is not None and first.key > target.key:
            # A gap above this one shifts every page below it by an unknown number of rows:
            # read it first (placing this one by counting would store new rows below it), a
            # few pages at most; past them its place is not known yet.
            if steps == FILL_TRIES or not await self._find_below(webhook_id, first):
                return False
            steps += 1
            target = archive.row(webhook_id, log_id)
            if target is None or not target.gap_below:
                return True
            first = archive.first_gap(webhook_id)
        return await self._find_below(webhook_id, target)

    async def _find_below(self, webhook_id: str, target: KeptRow) -> bool:
        """Read the rows the server lists after `target`. Its place is the number of kept rows
        above it; when it ends a page and the list has not grown at its head since (same
        count), the next page is what follows it: one request. Otherwise the page holding it
        is looked for (checked by its id: new deliveries push it down) with what follows."""
        archive = self.archive
        index = archive.count_through_second(webhook_id, target.created_utc) - 1
        head_total = archive.head_total(webhook_id)
        shift = 0
        if index % PER_PAGE == PER_PAGE - 1 and head_total is not None:
            page = await self._page(webhook_id, index // PER_PAGE + 2)
            if page.meta.total == head_total:
                if not page.data:
                    await archive.close_gap(webhook_id, target.id)  # it was the oldest
                else:
                    stored = await archive.store_run(
                        webhook_id,
                        page.data,
                        reaches_end=not page.has_next,
                        total=page.meta.total,
                        after=target.id,
                    )
                    self._stored(webhook_id, stored)
                return True
            shift = max(0, (page.meta.total or head_total) - head_total)
        number = max(1, (index + shift) // PER_PAGE + 1)
        tried: set[int] = set()
        above = below = False
        for _ in range(FILL_TRIES):
            tried.add(number)
            page = await self._page(webhook_id, number)
            ids = [item.id for item in page.data]
            total = page.meta.total
            if target.id in ids:
                run = list(page.data)
                end = not page.has_next
                if ids[-1] == target.id and page.has_next:
                    following = await self._page(webhook_id, number + 1)
                    run += following.data
                    end = not following.has_next or not following.data
                    total = following.meta.total if following.meta.total is not None else total
                self._stored(
                    webhook_id,
                    await archive.store_run(webhook_id, run, reaches_end=end, total=total),
                )
                return True
            if not page.data:
                if total == 0 or number == 1:
                    await archive.close_gap(webhook_id)
                    return True
                number = min(number - 1, max(1, page.last_page))
                below = True  # past the end of the list: it is further up
            else:
                self._stored(
                    webhook_id,
                    await archive.store_run(
                        webhook_id, page.data, reaches_end=not page.has_next, total=total
                    ),
                )
                keys = [_key(item) for item in page.data]
                if min(keys) >= target.key:
                    above = True  # the log grew at the head meanwhile: further down
                    number += 1
                elif max(keys) < target.key:
                    below = True  # fewer rows above it than kept here: further up
                    number -= 1
                else:
                    number = number + 1 if number + 1 not in tried else number - 1
            if number < 1 or number in tried:
                break
        if above and below:
            # Pages on both sides of where it should be, and it is in none: the server no
            # longer has it (pruned), nor anything below it.
            await archive.close_gap(webhook_id, target.id)
            return True
        return False

    async def _backfill(self, webhook_id: str) -> None:
        self._next_backfill = self._clock() + self.backfill_every
        gap = self.archive.first_gap(webhook_id)
        if gap is None:
            return
        self._backfilled[webhook_id] = self._backfilled.get(webhook_id, 0) + 1
        await self.fill_below(webhook_id, gap.id)

    # -- bookkeeping -----------------------------------------------------------------------------

    def _stored(self, webhook_id: str, stored: StoredRun) -> LogsChanged:
        change = LogsChanged(webhook_id, stored.added, stored.changed)
        if (stored.added or stored.changed) and not self.closed:
            self._on_logs(change)
        return change

    def _undecided(self, webhook_id: str) -> list[KeptRow]:
        """Kept rows still being decided that are worth polling for: first kept undecided
        less than `UNDECIDED_WATCH` ago (3 attempts 60 s apart fit; a row the service left
        queued for good stops costing requests then, also after a restart)."""
        return self.archive.undecided(webhook_id, since=self._wall() - UNDECIDED_WATCH)

    def _logs_due(self, webhook_id: str) -> float:
        last = self._topped_up.get(webhook_id)
        if last is None:
            return 0.0  # never read: now
        every = self.undecided_every if self._undecided(webhook_id) else self.logs_every
        return last + every

    def _backfill_wanted(self, webhook_id: str) -> bool:
        if self._backfilled.get(webhook_id, 0) >= BACKFILL_PAGES:
            return False
        gap = self.archive.first_gap(webhook_id)
        newest = self.archive.newest(webhook_id)
        if gap is None or newest is None or gap.created_at is None or newest.created_at is None:
            return False
        # The chart shows 7 days: older rows are read only when the log is scrolled to them.
        return gap.created_at >= newest.created_at - RETENTION

    def _backfill_due(self, webhook_id: str) -> bool:
        return self._backfill_wanted(webhook_id) and self._clock() >= self._next_backfill

    async def _shared(self, key: Hashable, make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        task = self._inflight.get(key)
        if task is None:
            if self.closed:
                raise asyncio.CancelledError
            task = asyncio.ensure_future(make())
            self._inflight[key] = task
            task.add_done_callback(functools.partial(self._ended, key))
        result: T = await asyncio.shield(task)
        return result

    def _ended(self, key: Hashable, task: asyncio.Task[Any]) -> None:
        if self._inflight.get(key) is task:
            del self._inflight[key]
        if not task.cancelled():
            task.exception()  # every caller gets it from its own await

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._own.add(task)
        task.add_done_callback(self._own.discard)

    async def _quietly(self, work: Coroutine[Any, Any, Any]) -> None:
        """A background read: its failure is logged, never shown (the next one tries again);
        a webhook gone from the server has the list read again."""
        try:
            await work
        except NotFound as error:
            log.info("a webhook read answered 404: %s", error.message)
            if self.unavailable is None:
                # The list again, once; not the log with it (that 404 would ask again at once:
                # a watched webhook deleted on the server was read back to back).
                self._relist = True
                self._poke()
        except ApiError as error:
            log.info("webhook poll failed: %s", error.message)
        except LocalStoreError as error:
            log.warning("could not keep webhook logs: %s", error.message)


def _settle(waiting: asyncio.Future[None]) -> None:
    if not waiting.done():
        waiting.set_result(None)


def _key(item: DeliveryLog) -> LogKey:
    return (created_utc(item.created_at), item.id)
