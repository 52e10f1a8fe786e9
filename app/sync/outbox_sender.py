"""Sends queued outbox entries, exactly once.

Rules (DESIGN.md: `POST /posts/batch` is not idempotent):
- One pass at a time and one request per entry: an entry is taken with a compare-and-set from
  `queued` to `sending`, and the send time is committed before the request leaves.
- An answer that was lost (timeout, dropped connection, an unreadable or 5xx answer) makes the
  entry "outcome unknown". It is never resent blindly: once `settle_seconds` have passed since
  the send (longer than the client's timeout, so the request has surely finished on the server),
  the whole `/posts` list is read and `outbox_reconcile.reconcile` decides: created (sent), not
  created (queued again), or partly there (needs attention).
- An entry found in `sending` at the start of a pass was cut off (the app stopped, or a task
  was cancelled mid-request): it is "outcome unknown" too.
- A schedule time that passed while waiting: "needs confirmation", never sent silently.
- Connection failures and 429 stop the pass and leave the entries queued; the client already
  honours `Retry-After`, and the next pass waits at least as long. Auth and payment errors stop
  the pass too (every entry would fail alike). A 422 is the entry's own problem: it needs
  attention, with the server's reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import httpx

from app.api import errors as e
from app.api.backoff import Backoff
from app.api.client import ApiClient
from app.models.posts import Post
from app.sync.gc_on_loop import collections_on_loop
from app.sync.outbox import Outbox, OutboxEntry, OutboxState
from app.sync.outbox_reconcile import DEFAULT_SKEW, reconcile
from app.sync.page_worker import PageWorker

log = logging.getLogger("app.sync.outbox")

DEFAULT_SETTLE_SECONDS = 30.0
"""Wait this long after a send before reconciling (the client's timeout is 20 s), unless the
server had started to answer (then it had finished: `ANSWERED_SETTLE_SECONDS`)."""
ANSWERED_SETTLE_SECONDS = 1.0
BACKOFF_START = 2.0
BACKOFF_MAX = 300.0
_LIST_ATTEMPTS = 3

_UNKNOWN_ERRORS = (e.OutcomeUnknown, e.ServerError, e.UpstreamFailed, e.ProtocolError)
_BLOCKING_ERRORS = (e.AuthError, e.PaymentRequired, e.PermissionDenied)


@dataclass(frozen=True)
class SenderStatus:
    """What the sender is waiting for, in words for a status line."""

    phase: str
    """`idle`, `sending`, `checking`, `offline`, `rate_limited`, `blocked` (auth/payment) or
    `error` (the local file could not be written)."""
    message: str = ""
    retry_in: float | None = None


@dataclass
class PassResult:
    sent: list[int] = field(default_factory=list)
    unknown: list[int] = field(default_factory=list)
    requeued: list[int] = field(default_factory=list)
    attention: list[int] = field(default_factory=list)
    confirm: list[int] = field(default_factory=list)
    retry_in: float | None = None
    """Seconds until the next pass is worth running (None: only when woken)."""
    stopped: bool = False
    """The pass stopped early (offline, rate limited, blocked)."""


class OutboxSender:
    """One pass at a time over the outbox (`send_pending`). It owns no loop: the one loop that
    drives it is `app.sync.outbox_service.OutboxService`."""

    def __init__(
        self,
        outbox: Outbox,
        client: ApiClient,
        *,
        settle_seconds: float = DEFAULT_SETTLE_SECONDS,
        skew: timedelta = DEFAULT_SKEW,
        on_status: Callable[[SenderStatus], None] | None = None,
        on_created: Callable[[OutboxEntry, list[Post]], None] | None = None,
    ) -> None:
        self.outbox = outbox
        self.client = client
        self.settle_seconds = settle_seconds
        self.skew = skew
        self.on_status = on_status
        self.on_created = on_created
        """Called with an entry just sent and its posts (from the answer, or from the list
        read while reconciling), e.g. to put them in the cache at once."""
        self.status = SenderStatus("idle")
        self._lock = asyncio.Lock()
        self._backoff = Backoff(BACKOFF_START, BACKOFF_MAX)

    async def send_pending(self) -> PassResult:
        """One pass: recover cut-off sends, reconcile what is due, send what is queued."""
        async with self._lock:
            result = PassResult()
            await self._recover_cut_off()
            if not await self._reconcile_due(result):
                await self._send_queued(result)
            self._plan_next(result)
            if not result.stopped:
                self._set_status(SenderStatus("idle"))
            return result

    # -- steps ----------------------------------------------------------------------------------

    async def _recover_cut_off(self) -> None:
        """An entry still `sending` a settle time after its request left was cut off (the app
        died, or the task was cancelled mid-request). A younger one may be another sender's
        request in flight (a second window, `postdesk import`): leave it to that sender."""
        now = self.outbox.store.now()
        for entry in self.outbox.entries([OutboxState.SENDING]):
            if not self._settled(entry, now):
                continue
            await self.outbox.transition(
                entry.id,
                OutboxState.OUTCOME_UNKNOWN,
                expect=[OutboxState.SENDING],
                reason="Sending was interrupted; checking whether it was created.",
            )

    async def _reconcile_due(self, result: PassResult) -> bool:
        """Returns True when the pass must stop (the list could not be read)."""
        now = self.outbox.store.now()
        unknown = self.outbox.entries([OutboxState.OUTCOME_UNKNOWN])
        due = [entry for entry in unknown if self._settled(entry, now)]
        if not due:
            return False
        self._set_status(SenderStatus("checking", "Checking whether unsent batches arrived…"))
        try:
            posts = await self._read_whole_list()
        except e.ApiError as exc:
            result.unknown += [entry.id for entry in due]
            return self._stop_for(exc, result)
        earliest = min(entry.sent_at or entry.created_at for entry in due)
        claimed = self.outbox.claimed_post_ids(earliest - self.skew - timedelta(days=1))
        by_id = {post.id: post for post in posts}
        clock = self.client.server_clock
        verdicts = reconcile(due, posts, claimed, skew=self.skew, to_read_time=clock.to_read_time)
        for verdict in verdicts:
            if verdict.complete:
                changed = await self.outbox.transition(
                    verdict.entry_id,
                    OutboxState.SENT,
                    expect=[OutboxState.OUTCOME_UNKNOWN],
                    post_ids=verdict.post_ids,
                    reason=None,
                )
                if changed:
                    result.sent.append(verdict.entry_id)
                    self._created(changed, [by_id[i] for i in verdict.post_ids])
            elif verdict.absent:
                changed = await self.outbox.transition(
                    verdict.entry_id,
                    OutboxState.QUEUED,
                    expect=[OutboxState.OUTCOME_UNKNOWN],
                    reason="It was not created; sending it again.",
                )
                if changed:
                    result.requeued.append(verdict.entry_id)
            elif verdict.doubtful:
                await self.outbox.transition(
                    verdict.entry_id,
                    OutboxState.NEEDS_ATTENTION,
                    expect=[OutboxState.OUTCOME_UNKNOWN],
                    reason=(
                        "Its answer was lost, and a post like it is on the server but created "
                        "earlier than this batch was sent, as far as the clocks tell "
                        f"({clock.warning() or 'they agree within a minute'}). It was not "
                        "sent again: check the calendar, then send it again or discard it."
                    ),
                )
                result.attention.append(verdict.entry_id)
            else:
                await self.outbox.transition(
                    verdict.entry_id,
                    OutboxState.NEEDS_ATTENTION,
                    expect=[OutboxState.OUTCOME_UNKNOWN],
                    post_ids=verdict.post_ids,
                    reason=(
                        f"Only {len(verdict.post_ids)} of the posts of this batch are on the "
                        "server (some may have been changed or deleted there). Check the "
                        "calendar before sending it again."
                    ),
                )
                result.attention.append(verdict.entry_id)
        return False

    async def _send_queued(self, result: PassResult) -> None:
        for entry in self.outbox.entries([OutboxState.QUEUED]):
            if self._schedule_passed(entry):
                await self.outbox.transition(
                    entry.id,
                    OutboxState.NEEDS_CONFIRMATION,
                    expect=[OutboxState.QUEUED],
                    reason="Its schedule time passed while it waited to be sent.",
                )
                result.confirm.append(entry.id)
                continue
            taken = await self.outbox.transition(
                entry.id, OutboxState.SENDING, expect=[OutboxState.QUEUED], sending=True
            )
            if taken is None:
                continue
            self._set_status(SenderStatus("sending", f"Sending {taken.summary}"))
            try:
                posts = await self.client.posts.create_batch(taken.request)
            except _UNKNOWN_ERRORS as exc:
                await self.outbox.transition(
                    taken.id,
                    OutboxState.OUTCOME_UNKNOWN,
                    expect=[OutboxState.SENDING],
                    reason=str(exc),
                    check_after=self._check_after(taken, exc),
                )
                result.unknown.append(taken.id)
                continue
            except e.ValidationFailed as exc:
                await self.outbox.transition(
                    taken.id,
                    OutboxState.NEEDS_ATTENTION,
                    expect=[OutboxState.SENDING],
                    reason=_validation_reason(exc),
                    field_errors=exc.errors,
                )
                result.attention.append(taken.id)
                continue
            except (e.ConnectionFailed, e.RateLimited, *_BLOCKING_ERRORS) as exc:
                # Refused or never sent: nothing was created, so it simply waits.
                await self._move(taken, OutboxState.QUEUED, f"Waiting: {exc}")
                self._stop_for(exc, result)
                return
            except e.ApiError as exc:
                await self._move(taken, OutboxState.NEEDS_ATTENTION, f"{exc} {exc.hint}")
                result.attention.append(taken.id)
                continue
            if posts:  # how the times read in answers relate to the server's clock
                self.client.server_clock.observe_created(posts[0].created_at)
            sent = await self.outbox.transition(
                taken.id,
                OutboxState.SENT,
                expect=[OutboxState.SENDING],
                post_ids=[post.id for post in posts],
            )
            result.sent.append(taken.id)
            self._created(sent, posts)
            self._backoff.succeeded()

    # -- helpers --------------------------------------------------------------------------------

    async def _move(self, entry: OutboxEntry, state: OutboxState, reason: str) -> None:
        await self.outbox.transition(entry.id, state, expect=[OutboxState.SENDING], reason=reason)

    def _check_after(self, entry: OutboxEntry, exc: e.ApiError) -> datetime:
        """When a lost answer may be looked for. The server had begun to answer (a status
        line, a 5xx, a broken answer) or the connection was cut mid-answer: the request had
        finished there. A timeout or a reset: it may still be running, so wait the full
        settle time, longer than the client's timeout."""
        sent = entry.sent_at or self.outbox.store.now()
        answered = not isinstance(exc, e.OutcomeUnknown) or isinstance(
            exc.__cause__, httpx.RemoteProtocolError
        )
        settle = (
            min(ANSWERED_SETTLE_SECONDS, self.settle_seconds) if answered else self.settle_seconds
        )
        return sent + timedelta(seconds=settle)

    def _due_at(self, entry: OutboxEntry) -> datetime:
        if entry.check_after is not None:
            return entry.check_after
        return (entry.sent_at or entry.created_at) + timedelta(seconds=self.settle_seconds)

    def _settled(self, entry: OutboxEntry, now: datetime) -> bool:
        return now >= self._due_at(entry)

    def _schedule_passed(self, entry: OutboxEntry) -> bool:
        request = entry.request
        if request.status != "scheduled" or request.queue is not None:
            return False
        when = request.scheduled_at
        return when is not None and when <= self.outbox.store.now()

    async def _read_whole_list(self) -> list[Post]:
        """Every post, read so that none can be missed: if the list's total moved while the
        pages were read (a post deleted shifts the others up a page), read it again."""
        for _ in range(_LIST_ATTEMPTS):
            posts, totals = await self._read_list_once()
            if len(totals) <= 1:
                return list(posts.values())
        raise e.ApiError(
            "The post list kept changing while it was read.",
            hint="The check is repeated on the next pass.",
        )

    async def _read_list_once(self) -> tuple[dict[str, Post], set[int | None]]:
        totals: set[int | None] = set()
        posts: dict[str, Post] = {}
        # Parsed on a worker thread, as the sync does: the window stays responsive.
        with collections_on_loop():
            async with PageWorker() as worker:
                pages = self.client.posts.iter_pages(concurrency=4, offload=worker.run)
                async with contextlib.aclosing(pages):
                    async for page in pages:
                        totals.add(page.meta.total)
                        for post in page.data:
                            posts.setdefault(post.id, post)
        return posts, totals

    def _stop_for(self, exc: e.ApiError, result: PassResult) -> bool:
        if isinstance(exc, e.RateLimited):
            wait = exc.retry_after if exc.retry_after is not None else self._backoff.next_delay
            self._set_status(SenderStatus("rate_limited", str(exc), wait))
        elif isinstance(exc, _BLOCKING_ERRORS):
            wait = BACKOFF_MAX
            self._set_status(SenderStatus("blocked", f"{exc} {exc.hint}", None))
        else:
            wait = self._backoff.failed()
            self._set_status(SenderStatus("offline", str(exc), wait))
        result.retry_in = wait
        result.stopped = True
        return True

    def _plan_next(self, result: PassResult) -> None:
        if result.retry_in is not None:
            return
        now = self.outbox.store.now()
        waits = [
            (self._due_at(entry) - now).total_seconds()
            for entry in self.outbox.entries([OutboxState.OUTCOME_UNKNOWN, OutboxState.SENDING])
        ]
        if self.outbox.entries([OutboxState.QUEUED]):
            waits.append(0.0)
        if waits:
            result.retry_in = max(min(waits), 0.0)

    def _created(self, entry: OutboxEntry | None, posts: list[Post]) -> None:
        if entry is not None and self.on_created is not None:
            self.on_created(entry, posts)

    def report(self, status: SenderStatus) -> None:
        """Say what the sending waits for (also from the loop that drives the passes)."""
        self._set_status(status)

    def _set_status(self, status: SenderStatus) -> None:
        if status == self.status:
            return
        self.status = status
        if self.on_status is not None:
            self.on_status(status)


def _validation_reason(exc: e.ValidationFailed) -> str:
    details = "; ".join(
        f"{path}: {' '.join(messages)}" for path, messages in sorted(exc.errors.items())
    )
    return f"{exc} {details}".strip()
