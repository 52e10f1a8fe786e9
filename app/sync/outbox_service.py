"""The one loop that sends a workspace's outbox, for whoever owns the workspace's drafts file.

The window's workspace session runs it from its start to its end, so a batch queued before a
restart goes out without any page being shown; `postdesk import` runs it for the length of the
import. Everyone else only enqueues and listens: the composer, the CSV import in the window.

Each round is one pass of `OutboxSender` (recover, reconcile, send), unless the workspace's rate
gate is closed: then the round only waits for it, so no entry is marked `sending` while its
request could not leave (a quit during that wait would make it "outcome unknown" for nothing).
After a round the loop sleeps until woken (`wake()`, `enqueue()`) or until the pass asked to run
again (a backoff, `Retry-After`, a check that is due).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta

from app.api.backoff import Backoff
from app.api.client import ApiClient
from app.models.posts import Post
from app.models.requests import BatchRequest
from app.store.local_store import LocalStore, LocalStoreError
from app.sync.outbox import FINAL_STATES, Outbox, OutboxEntry
from app.sync.outbox_reconcile import DEFAULT_SKEW
from app.sync.outbox_sender import (
    BACKOFF_MAX,
    BACKOFF_START,
    DEFAULT_SETTLE_SECONDS,
    OutboxSender,
    PassResult,
    SenderStatus,
)

IDLE_POLL = 60.0
"""With nothing due, look again this often (another process may have queued something)."""
WAITING_PHASES = frozenset({"offline", "rate_limited", "blocked", "error"})
"""The loop cannot send now; entries stay queued until it can."""

StatusListener = Callable[[SenderStatus], None]
CreatedListener = Callable[[OutboxEntry, list[Post]], None]


class OutboxService:
    """`run()` until cancelled (by its owner); `enqueue()` and the waits from anywhere on the
    same event loop. Entry changes reach `outbox.listeners`; `on_status` hears what the loop
    waits for; `on_created` gets the posts of each batch just sent (to show them at once)."""

    def __init__(
        self,
        store: LocalStore,
        client: ApiClient,
        *,
        settle_seconds: float = DEFAULT_SETTLE_SECONDS,
        skew: timedelta = DEFAULT_SKEW,
        on_status: StatusListener | None = None,
        on_created: CreatedListener | None = None,
    ) -> None:
        self.store = store
        self.client = client
        self.outbox = Outbox(store)
        self.outbox.listeners.append(lambda _entry: self._news())
        self.on_status = on_status
        self.sender = OutboxSender(
            self.outbox,
            client,
            settle_seconds=settle_seconds,
            skew=skew,
            on_status=self._status_changed,
            on_created=on_created,
        )
        self.rounds_begun = 0
        self.rounds_done = 0
        self.stopped = False
        """The loop has ended (its owner cancelled it): waits return at once."""
        self._woken = False
        self._wakeup: asyncio.Future[None] | None = None
        self._watchers: list[asyncio.Future[None]] = []
        self._backoff = Backoff(BACKOFF_START, BACKOFF_MAX)

    @property
    def status(self) -> SenderStatus:
        return self.sender.status

    # -- the loop ---------------------------------------------------------------------------------
    async def run(self) -> None:
        """Send whenever there is something to send, until cancelled."""
        loop = asyncio.get_running_loop()
        self.stopped = False
        try:
            while True:
                self._woken = False
                self.rounds_begun += 1
                gate = self.client.rate_gate.wait_remaining()
                if gate > 0:
                    self.sender.report(SenderStatus("rate_limited", _gate_text(gate), gate))
                    self._round_over()
                    await self.client.rate_gate.wait()  # on the client's clock; no wake cuts it
                    continue
                result = await self._pass()
                self._round_over()
                if not self._woken:
                    await self._sleep(loop, _next_round_in(result))
        finally:
            self.stopped = True
            self._news()  # nobody waits for a loop that has stopped

    def _round_over(self) -> None:
        self.rounds_done = self.rounds_begun
        self._news()

    async def _pass(self) -> PassResult:
        try:
            result = await self.sender.send_pending()
        except LocalStoreError as exc:
            # The file could not be written (disk full, ...): nothing was lost; say so and try
            # again later rather than end the loop.
            wait = self._backoff.failed()
            self.sender.report(SenderStatus("error", exc.message, wait))
            return PassResult(retry_in=wait, stopped=True)
        self._backoff.succeeded()
        return result

    async def _sleep(self, loop: asyncio.AbstractEventLoop, seconds: float) -> None:
        # A future resolved by a timer, not wait_for(): wait_for wraps the wait in a task of its
        # own, which a loop torn down right after cancelling us never runs.
        wakeup: asyncio.Future[None] = loop.create_future()
        self._wakeup = wakeup
        timer = loop.call_later(seconds, _resolve, wakeup)
        try:
            await wakeup
        finally:
            timer.cancel()
            self._wakeup = None

    def wake(self) -> None:
        """Run a round now (something was queued, or the connection is back). A closed rate
        gate is still waited out."""
        self._woken = True
        if self._wakeup is not None:
            _resolve(self._wakeup)

    @contextlib.asynccontextmanager
    async def running_loop(self) -> AsyncIterator[OutboxService]:
        """Run the loop for the length of a `with` block (the command line owns it there)."""
        task = asyncio.ensure_future(self.run())
        try:
            yield self
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- for the pages --------------------------------------------------------------------------
    async def enqueue(
        self,
        request: BatchRequest,
        *,
        draft_id: str | None = None,
        summary: str | None = None,
        source_key: str | None = None,
    ) -> OutboxEntry:
        """Queue a batch (committed when this returns) and wake the loop (see `Outbox.enqueue`
        for `source_key`)."""
        entry = await self.outbox.enqueue(
            request, draft_id=draft_id, summary=summary, source_key=source_key
        )
        self.wake()
        return entry

    async def retry(self, entry_id: int, request: BatchRequest | None = None) -> OutboxEntry:
        entry = await self.outbox.retry(entry_id, request)
        self.wake()
        return entry

    async def confirm(
        self, entry_id: int, *, scheduled_at: datetime | None = None, as_draft: bool = False
    ) -> OutboxEntry:
        entry = await self.outbox.confirm(entry_id, scheduled_at=scheduled_at, as_draft=as_draft)
        self.wake()
        return entry

    async def outcome(self, entry_id: int, since_round: int) -> OutboxEntry | None:
        """The entry once nothing more happens to it without the user, or None when a round
        that began after `since_round` (take `rounds_begun` before enqueueing) ended with the
        loop waiting (offline, rate limited, ...): it stays queued and goes out later."""

        def settled() -> bool:
            entry = self.outbox.get(entry_id)
            if entry is None or entry.state in FINAL_STATES:
                return True
            return self.rounds_done > since_round and self.status.phase in WAITING_PHASES

        await self.watch(settled)
        entry = self.outbox.get(entry_id)
        return entry if entry is not None and entry.state in FINAL_STATES else None

    async def watch(self, predicate: Callable[[], bool], limit: float | None = None) -> bool:
        """Wait until `predicate()` holds, checking it after every entry change, status change
        and round; False when `limit` seconds passed first, or the loop stopped."""
        loop = asyncio.get_running_loop()
        deadline = None if limit is None else time.monotonic() + limit
        while not predicate():
            if self.stopped:
                return False
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return False
            news: asyncio.Future[None] = loop.create_future()
            self._watchers.append(news)
            timer = None if remaining is None else loop.call_later(remaining, _resolve, news)
            try:
                await news
            finally:
                if timer is not None:
                    timer.cancel()
                with contextlib.suppress(ValueError):
                    self._watchers.remove(news)
        return True

    # -- plumbing -------------------------------------------------------------------------------
    def _status_changed(self, status: SenderStatus) -> None:
        if self.on_status is not None:
            self.on_status(status)
        self._news()

    def _news(self) -> None:
        watchers, self._watchers = self._watchers, []
        for news in watchers:
            _resolve(news)


def _next_round_in(result: PassResult) -> float:
    return IDLE_POLL if result.retry_in is None else max(result.retry_in, 0.05)


def _gate_text(seconds: float) -> str:
    return f"Rate limited: sending again in {max(1, round(seconds))} s."


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


__all__ = ["FINAL_STATES", "WAITING_PHASES", "OutboxService"]
