"""One connected workspace as the UI sees it: the API client, the local cache and the sync loop,
plus the post actions with undo. Widgets talk to this object, never to HTTP.

A write's answer is stored in the cache and then announced with `postsStored(posts)` (or
`postsForgotten(post_ids)` after a delete), so views can show exactly those posts without
reading everything again. `dataChanged(change)` means a sync (or a change the session cannot
describe post by post) changed the cache: `change` is the sync's `CacheChange` (the posts' new
cards, the deleted ids, whether accounts or labels changed), or None for "re-read what you show".

Every write goes through `writes` (a WriteGate keyed by post id): a second request for a post
whose write is still in flight is dropped, never sent. Views show busy posts from
`writes.busyChanged`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from datetime import datetime
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.api.client import ApiClient
from app.api.errors import ApiError, OutcomeUnknown, RateLimited
from app.models import Post
from app.store import WorkspaceCache
from app.sync import SyncService, SyncState
from app.workspaces.profiles import Profile
from ui.messages import Level, Message, MessageScope
from ui.tasks import TaskGroup
from ui.write_gate import WriteGate


class WorkspaceSession(QObject):
    syncStateChanged = Signal(object)  # SyncState
    dataChanged = Signal(object)  # CacheChange | None (None: re-read everything shown)
    postsStored = Signal(object)  # list[Post]: a write's answer, in the cache now
    postsForgotten = Signal(object)  # list[str]: ids of posts a write deleted, gone from the cache
    firstSyncFinished = Signal(bool)  # True when it succeeded

    def __init__(
        self,
        profile: Profile,
        api_key: str,
        cache: WorkspaceCache,
        messages: MessageScope,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.profile = profile
        self.cache = cache
        self.messages = messages
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

    def _on_retry(self, attempt: int, delay: float, error: ApiError) -> None:
        # The client waits out a 429 by itself; the status bar counts down while it waits. The
        # workspace's rate gate knows the exact wait (a later 429 may have pushed it further).
        if isinstance(error, RateLimited):
            last = self.state.last_sync_at if self.state is not None else None
            wait = self.client.rate_gate.wait_remaining() or delay
            self.syncStateChanged.emit(
                SyncState(
                    "rate_limited",
                    error.message,
                    retry_in=wait,
                    last_sync_at=last,
                    hint=error.hint,
                    kind="rate_limited",
                )
            )
            self._after_wait.start(int(wait * 1000) + 100)

    def _restore_state(self) -> None:
        if self.state is not None and not self.closed:
            self.syncStateChanged.emit(self.state)

    # -- lifecycle ---
    def start(self) -> None:
        self._tasks.spawn(self._run())

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

    def adopt(self, task: asyncio.Task[Any]) -> None:
        """A page's task that uses this workspace: `close()` ends it before the client closes."""
        self._tasks.adopt(task)

    async def close(self) -> None:
        """Cancel everything this workspace started, then close the client and the cache."""
        self.closed = True
        self.messages.close()
        await self._tasks.cancel_all()
        await self.client.aclose()
        await self.cache.aclose()

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

    def unschedule(self, post_id: str) -> asyncio.Task[Any] | None:
        return self.move_to_draft(post_id)

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

    def post_count(self) -> int:
        return self.cache.count_posts()


def duplicated_text(copies: int) -> str:
    if copies == 1:
        return "Post duplicated: 1 new draft."
    if copies == 0:
        return "Nothing was duplicated: the post has no destination that can be copied."
    return f"Post duplicated: {copies} new drafts, one per destination."
