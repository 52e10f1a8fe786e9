"""One connected workspace as the UI sees it: the API client, the local cache and the sync loop,
plus the post actions with undo. Widgets talk to this object, never to HTTP.

A write's answer is stored in the cache and then announced with `postsStored(posts)` (or
`postsForgotten(post_ids)` after a delete), so views can show exactly those posts without
reading everything again. `dataChanged(change)` means a sync (or a change the session cannot
describe post by post) changed the cache: `change` is the sync's `CacheChange` (the posts' new
cards, the deleted ids, whether accounts or labels changed), or None for "re-read what you show".

Every write goes through `writes` (a WriteGate keyed by post id, or `account_key(id)`): a
second request for an item whose write is still in flight is dropped, never sent. Views show
busy items from `writes.busyChanged`.

The session also owns the workspace's durable drafts file (`local_store`) and its outbox
(`outbox`, an `OutboxService`): opened and started at `start()`, so a batch queued before a
restart is sent without any page being shown; stopped and closed at `close()`. Pages enqueue
through `outbox` and listen to `outboxChanged` / `outboxStatusChanged`.

Webhook health is the session's too (`webhooks`, a `WebhookMonitor`): `start()` runs its polling
of `/webhooks` (every minute, page shown or not: the notifier's "webhook paused" depends on it)
and of the delivery log on screen, kept in the drafts file; `close()` ends it. Pages and the
notifier read it and listen to `webhooksChanged` / `webhooksUnavailable` / `deliveryLogsChanged`.

Post images for thumbnails are downloaded by the session's `thumbnail_cache` (app/media) into the
workspace's cache folder: `start()` runs its downloads, `close()` cancels them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from datetime import datetime
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal

from app.api.client import ApiClient
from app.api.errors import ApiError, NotFound, OutcomeUnknown, RateLimited
from app.media.thumbnail_cache import ThumbnailCache
from app.models import Post, SocialAccountSummary
from app.store import CacheChange, WorkspaceCache
from app.store.delivery_logs import DeliveryArchive
from app.store.local_store import LocalStore, LocalStoreError, local_store_path
from app.sync import SyncService, SyncState
from app.sync.outbox import OutboxEntry
from app.sync.outbox_sender import SenderStatus
from app.sync.outbox_service import WAITING_PHASES, OutboxService
from app.sync.state import FailureKind, Phase, kind_of, phase_of
from app.sync.webhook_monitor import WebhookMonitor
from app.workspaces.profiles import Paths, Profile
from ui.messages import Level, Message, MessageScope
from ui.tasks import TaskGroup
from ui.write_gate import WriteGate, account_key

PERIOD_REFRESH_DELAY_MS = 1500
CONNECTION_KINDS = ("offline", "key_refused", "subscription_required", "server_error", "redirect")

T = TypeVar("T")

LAST_WRITES_GRACE_S = 5.0
"""How long `close()` waits for a page's last save into the drafts file."""


class WorkspaceSession(QObject):
    syncStateChanged = Signal(object)  # SyncState
    dataChanged = Signal(object)  # CacheChange | None (None: re-read everything shown)
    postsStored = Signal(object)  # list[Post]: a write's answer, in the cache now
    postsForgotten = Signal(object)  # list[str]: ids of posts a write deleted, gone from the cache
    firstSyncFinished = Signal(bool)  # True when it succeeded
    outboxChanged = Signal(object)  # OutboxEntry, committed in the drafts file
    outboxStatusChanged = Signal(object)  # SenderStatus: what the outbox waits for
    webhooksChanged = Signal(object)  # list[Webhook]: the list read anew, and it changed
    webhooksUnavailable = Signal(object)  # ApiError: /webhooks answered 404 or 403 (once)
    deliveryLogsChanged = Signal(object)  # LogsChanged: kept delivery rows new or changed

    def __init__(
        self,
        profile: Profile,
        api_key: str,
        cache: WorkspaceCache,
        messages: MessageScope,
        parent: QObject | None = None,
        *,
        local_store: LocalStore | None = None,
        paths: Paths | None = None,
    ) -> None:
        super().__init__(parent)
        self.profile = profile
        self.cache = cache
        self.messages = messages
        self.local_store = local_store
        """Drafts and the outbox: given (and then closed by whoever opened it), or opened by
        `start_outbox()` and closed by `close()`."""
        self.local_store_problem = ""
        """Why the drafts file could not be opened (said once, in a message)."""
        self.outbox: OutboxService | None = None
        self._paths = paths
        self._owns_local_store = False
        self._last_writes: set[asyncio.Task[Any]] = set()
        self._webhooks: WebhookMonitor | None = None
        self._webhooks_running = False
        self.thumbnail_cache = ThumbnailCache(
            (paths or Paths()).cache_dir / "thumbnails" / profile.id
        )
        self._thumbnails_running = False
        self.client = ApiClient(profile.base_url, api_key, server_tz=profile.server_tz)
        self.state: SyncState | None = None
        self._tasks = TaskGroup(messages.error)
        self.writes = WriteGate(self._tasks, self)
        self.first_sync_ok: bool | None = None
        self.closed = False
        self.sync = SyncService(
            self.client, cache, on_state=self._on_state, on_changed=self.dataChanged.emit
        )
        self.client.on_retry = self._on_retry
        # A write's retry after a 429 ends without a new sync state: once the wait is over the
        # status bar gets the last real state back instead of "rate limited" for good.
        self._after_wait = QTimer(self)
        self._after_wait.setSingleShot(True)
        self._after_wait.timeout.connect(self._restore_state)
        # A period the user moved to is read soon, once the flipping through months has paused.
        self._period_refresh = QTimer(self)
        self._period_refresh.setSingleShot(True)
        self._period_refresh.setInterval(PERIOD_REFRESH_DELAY_MS)
        self._period_refresh.timeout.connect(lambda: self.sync.request_refresh(full=False))

    def _on_retry(self, attempt: int, delay: float, error: ApiError) -> None:
        # The client waits out a 429 by itself; the status bar counts down while it waits. The
        # workspace's rate gate knows the exact wait (a later 429 may have pushed it further).
        if isinstance(error, RateLimited):
            wait = self.client.rate_gate.wait_remaining() or delay
            self._show_failed_request("rate_limited", error, retry_in=wait)
            self._after_wait.start(int(wait * 1000) + 100)

    def _show_failed_request(
        self, phase: Phase, error: ApiError, retry_in: float | None = None
    ) -> None:
        """A request of this workspace failed outside a sync (a write, the outbox): the status
        bar says so at once, never "Online" meanwhile; the next sync that reaches the server
        brings its own state back."""
        self._show_failure(phase, error.message, error.hint, kind_of(error), retry_in)

    def _show_failure(
        self,
        phase: Phase,
        message: str,
        hint: str,
        kind: FailureKind,
        retry_in: float | None = None,
    ) -> None:
        state = self.state
        self.syncStateChanged.emit(
            SyncState(
                phase,
                message,
                retry_in=retry_in,
                last_sync_at=state.last_sync_at if state is not None else None,
                hint=hint,
                kind=kind,
                unreadable=state.unreadable if state is not None else (),
                last_full_sync_at=state.last_full_sync_at if state is not None else None,
            )
        )

    def _outbox_status(self, status: SenderStatus) -> None:
        # The outbox could not reach the server: so the window says, whatever the last sync said.
        if status.phase == "offline" and not self.closed:
            self._show_failure("offline", status.message, "", "offline", status.retry_in)

    def _restore_state(self) -> None:
        if self.state is not None and not self.closed:
            self.syncStateChanged.emit(self.state)

    # -- lifecycle ---
    def start(self) -> None:
        self.start_outbox()
        self.start_webhooks()
        self.start_thumbnails()
        self._tasks.spawn(self._run())

    def start_outbox(self) -> OutboxService | None:
        """Open the drafts file (unless one was given) and send its outbox until `close()`.
        `start()` does it first; alone it runs the outbox without the sync (tests). None when
        the file cannot be opened (the message says why)."""
        if self.outbox is not None or self.closed:
            return self.outbox
        local_store = self._local_file()
        if local_store is None:
            return None
        service = OutboxService(
            local_store,
            self.client,
            on_status=self.outboxStatusChanged.emit,
            on_created=self._outbox_created,
        )
        service.outbox.listeners.append(self.outboxChanged.emit)
        self.outbox = service
        self.syncStateChanged.connect(self._wake_outbox)
        self.outboxStatusChanged.connect(self._outbox_status)
        self._tasks.spawn(service.run())
        return service

    def _wake_outbox(self, state: SyncState) -> None:
        # The sync reached the server: what waits in the outbox need not wait out its backoff.
        outbox = self.outbox
        if state.phase == "idle" and outbox is not None and outbox.status.phase in WAITING_PHASES:
            outbox.wake()

    def _outbox_created(self, _entry: OutboxEntry, posts: list[Post]) -> None:
        if posts and not self.closed:
            self._tasks.spawn(self._stored(posts))

    def finish(self, coro: Coroutine[Any, Any, Any]) -> None:
        """A page's last write into the drafts file (its pending autosave): `close()` waits
        for it, at most `LAST_WRITES_GRACE_S`, instead of cancelling it, then closes the file."""
        task = asyncio.ensure_future(coro)
        self._last_writes.add(task)
        task.add_done_callback(self._last_write_done)

    def _last_write_done(self, task: asyncio.Task[Any]) -> None:
        self._last_writes.discard(task)
        if not task.cancelled() and task.exception() is not None and not self.closed:
            self.messages.error(task.exception())  # type: ignore[arg-type]

    async def _run(self) -> None:
        await self.sync.run_forever()  # starts with a full refresh

    def _report_first_sync(self, ok: bool) -> None:
        if self.first_sync_ok is None:
            self.first_sync_ok = ok
            self.firstSyncFinished.emit(ok)

    def _on_state(self, state: SyncState) -> None:
        self.state = state
        if state.phase != "syncing":
            self._report_first_sync(state.phase == "idle")
        self.syncStateChanged.emit(state)

    def refresh(self) -> None:
        self.sync.request_refresh(full=True)
        self.webhooks.request_refresh()  # the list and the log on screen, read once

    def retry_now(self) -> None:
        """The user ends a server-imposed wait (Retry-After) early: the gate opens and the sync
        reads again at once (issue 19 §3: a huge Retry-After must not lock the workspace)."""
        self.client.rate_gate.retry_now()
        self._after_wait.stop()
        self._restore_state()
        self.sync.request_refresh(full=False)

    # -- webhooks ---
    @property
    def webhooks(self) -> WebhookMonitor:
        """Webhook health of this workspace; its delivery logs are kept in the drafts file
        (in memory for this session when that file cannot be opened)."""
        if self._webhooks is None:
            self._webhooks = WebhookMonitor(
                self.client,
                DeliveryArchive(self._local_file()),
                on_webhooks=self.webhooksChanged.emit,
                on_unavailable=self.webhooksUnavailable.emit,
                on_logs=self.deliveryLogsChanged.emit,
            )
        return self._webhooks

    def start_webhooks(self) -> None:
        """Poll webhook health until `close()`; `start()` does it (alone: tests)."""
        if not self.closed and not self._webhooks_running:
            self._webhooks_running = True
            self._tasks.spawn(self.webhooks.run())

    def start_thumbnails(self) -> None:
        """Download post images asked for by the calendar until `close()`; `start()` does it."""
        if not self.closed and not self._thumbnails_running:
            self._thumbnails_running = True
            self._tasks.spawn(self.thumbnail_cache.run())

    def _local_file(self) -> LocalStore | None:
        """The drafts file, given or opened now (once: None, and said once, when it cannot be)."""
        if self.local_store is None and not self.local_store_problem and not self.closed:
            try:
                path = local_store_path(self._paths or Paths(), self.profile.id)
                self.local_store = LocalStore.open(path)
            except LocalStoreError as error:
                self.local_store_problem = error.message
                self.messages.post(Message(error.message, Level.ERROR))
                return None
            self._owns_local_store = True
            if self.local_store.notice:  # it was empty: said, not taken silently as new
                self.messages.post(Message(self.local_store.notice, Level.WARNING))
        return self.local_store

    def watch_period(self, start: datetime, end: datetime) -> None:
        """The period on screen (aware times): the minute's refresh re-reads it a few pages at a
        time, and a new one is read soon after it is shown."""
        if self.sync.show_period(start, end) and self.first_sync_ok is not None:
            self._period_refresh.start()

    def adopt(self, task: asyncio.Task[Any]) -> None:
        """A page's task that uses this workspace: `close()` ends it before the client closes."""
        self._tasks.adopt(task)

    async def close(self) -> None:
        """Cancel everything this workspace started, then close the client and the cache."""
        self.closed = True
        self.messages.close()
        await self._tasks.cancel_all()
        if self._last_writes:
            await asyncio.wait(self._last_writes, timeout=LAST_WRITES_GRACE_S)
        if self._webhooks is not None:
            await self._webhooks.aclose()
        await self.thumbnail_cache.aclose()
        await self.client.aclose()
        await self.cache.aclose()
        if self._owns_local_store and self.local_store is not None:
            self.local_store.close()

    # -- post actions (DESIGN.md mapping) ------------------------------------------------------
    def _write(self, post_id: str, coro: Coroutine[Any, Any, None]) -> asyncio.Task[Any] | None:
        """The one door for writes: None (and nothing sent) while `post_id` is busy or after
        the workspace closed."""
        if self.closed or self.writes.is_busy(post_id):
            coro.close()
            return None
        return self.writes.run(post_id, self._reconciled(coro))

    async def _reconciled(self, coro: Coroutine[Any, Any, None]) -> None:
        """A write whose answer was lost may have been saved: read the server again at once,
        so the calendar shows what happened, and say so (never resend it blindly)."""
        try:
            await coro
        except OutcomeUnknown as error:
            if self.closed:
                return
            self.refresh()
            self.messages.post(
                Message(
                    text=error.message,
                    level=Level.WARNING,
                    hint="Postdesk is reading the server again: the calendar will show whether "
                    "it was made. Look there before trying again, or it may be made twice.",
                )
            )
        except ApiError as error:
            # The connection, the key or the server failed (a refusal of this one write, a 404
            # or a 422, says nothing about them): the status bar says so at once.
            if not self.closed and kind_of(error) in CONNECTION_KINDS:
                self._show_failed_request(phase_of(error), error)
            raise

    async def _stored(self, post: Post | list[Post]) -> None:
        """Into the cache on its writer thread (the window never waits behind a sync's write),
        then announced: views show these posts without re-reading the cache."""
        posts = post if isinstance(post, list) else [post]
        for item in posts:
            if self.closed:
                return
            await self.cache.upsert_post_async(item)
        if not self.closed:
            self.postsStored.emit(posts)

    def reschedule(self, post_id: str, when: datetime) -> asyncio.Task[Any] | None:
        return self._write(post_id, self._reschedule(post_id, when, undoable=True))

    async def _reschedule(self, post_id: str, when: datetime, *, undoable: bool) -> None:
        before = self.cache.post(post_id)
        post = await self.client.posts.reschedule(post_id, when)
        await self._stored(post)
        if undoable and before is not None and before.scheduled_at is not None:
            previous = before.scheduled_at
            self.messages.info(
                "Post rescheduled.",
                action_label="Undo",
                action=lambda: self._undo(
                    post_id, self._reschedule(post_id, previous, undoable=False)
                ),
            )

    def schedule(self, post_id: str, when: datetime) -> asyncio.Task[Any] | None:
        """Draft → scheduled at `when` (spec §3)."""
        return self._write(post_id, self._schedule(post_id, when, undoable=True))

    async def _schedule(self, post_id: str, when: datetime, *, undoable: bool) -> None:
        post = await self.client.posts.schedule(post_id, when)
        await self._stored(post)
        if undoable:
            self.messages.info(
                "Post scheduled.",
                action_label="Undo",
                action=lambda: self._undo(post_id, self._to_draft(post_id, undoable=False)),
            )

    def move_to_draft(self, post_id: str) -> asyncio.Task[Any] | None:
        """Scheduled or failed → draft (spec §3)."""
        return self._write(post_id, self._to_draft(post_id, undoable=True))

    async def _to_draft(self, post_id: str, *, undoable: bool) -> None:
        before = self.cache.post(post_id)
        post = await self.client.posts.unschedule(post_id)
        await self._stored(post)
        if not undoable:
            return
        when = before.scheduled_at if before is not None else None
        if before is not None and before.status == "scheduled" and when is not None:
            self.messages.info(
                "Post moved back to drafts.",
                action_label="Undo",
                action=lambda: self._undo(post_id, self._schedule(post_id, when, undoable=False)),
            )
        else:
            self.messages.info("Post moved back to drafts.")

    def _undo(self, post_id: str, coro: Coroutine[Any, Any, None]) -> None:
        self._write(post_id, coro)

    def publish_now(self, post_id: str) -> asyncio.Task[Any] | None:
        return self._write(post_id, self._publish_now(post_id))

    async def _publish_now(self, post_id: str) -> None:
        await self._stored(await self.client.posts.publish_now(post_id))
        self.messages.info("Publishing started.")

    def duplicate(self, post_id: str) -> asyncio.Task[Any] | None:
        return self._write(post_id, self._duplicate(post_id))

    async def _duplicate(self, post_id: str) -> None:
        original = self.cache.post(post_id) or await self.client.posts.get(post_id)
        copies = await self.client.posts.duplicate(original)
        await self._stored(copies)
        self.messages.info(duplicated_text(len(copies)))

    def delete(self, post_id: str) -> asyncio.Task[Any] | None:
        return self._write(post_id, self._delete(post_id))

    async def _delete(self, post_id: str) -> None:
        await self.client.posts.delete(post_id)
        if self.closed:
            return
        await self.cache.delete_post_async(post_id)
        if self.closed:
            return
        self.postsForgotten.emit([post_id])
        self.messages.info("Post deleted.")

    def delete_replaced(self, post_id: str) -> asyncio.Task[Any] | None:
        """The old post of the composer's *Replace post…*, deleted through the same gate as
        every write; one already gone from the server counts as deleted."""
        return self._write(post_id, self._delete_replaced(post_id))

    async def _delete_replaced(self, post_id: str) -> None:
        with contextlib.suppress(NotFound):
            await self.client.posts.delete(post_id)
        if not self.closed:
            await self.cache.delete_post_async(post_id)
        if not self.closed:
            self.postsForgotten.emit([post_id])

    def gated(self, key: str, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T] | None:
        """A page's write whose answer the page needs (the composer's edit), under the same
        single-write gate as every write and owned by this workspace; None (and `coro` closed,
        nothing sent) while `key` is busy or after close."""
        if self.closed or self.writes.is_busy(key):
            coro.close()
            return None
        return self.writes.run(key, coro)

    async def store_posts(self, posts: list[Post]) -> None:
        """A page's write answer: into the cache off the GUI thread, then `postsStored`."""
        await self._stored(posts)

    # -- accounts ------------------------------------------------------------------------------
    def toggle_account(self, account_id: str) -> asyncio.Task[Any] | None:
        """`PUT /social-accounts/{id}/toggle` (spec §2). Not idempotent: a second toggle of an
        account whose toggle is in flight is dropped, never sent (None)."""
        return self._write(account_key(account_id), self._toggle_account(account_id))

    async def _toggle_account(self, account_id: str) -> None:
        changed = await self.client.accounts.toggle(account_id)
        cached = self.cache.accounts()
        if changed is None or all(account.id != account_id for account in cached):
            # The answer named no account, or the cache does not know it yet: read them all.
            accounts = await self.client.accounts.list()
        else:
            accounts = [changed if account.id == account_id else account for account in cached]
        await self._accounts_stored(accounts)

    async def _accounts_stored(self, accounts: list[SocialAccountSummary]) -> None:
        if self.closed:
            return
        await self.cache.set_accounts_async(accounts)
        if not self.closed:
            self.dataChanged.emit(CacheChange(lists=True))

    def post_count(self) -> int:
        return self.cache.count_posts()


def duplicated_text(copies: int) -> str:
    if copies == 1:
        return "Post duplicated: 1 new draft."
    if copies == 0:
        return "Nothing was duplicated: the post has no destination that can be copied."
    return f"Post duplicated: {copies} new drafts, one per destination."
