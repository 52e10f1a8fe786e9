"""One connected workspace as the UI sees it: the API client, the local cache and the sync loop,
plus the post actions with undo. Widgets talk to this object, never to HTTP."""

from __future__ import annotations

import asyncio
from datetime import datetime

from PySide6.QtCore import QObject, Signal

from app.api.client import ApiClient
from app.api.errors import ApiError, RateLimited
from app.models import Post
from app.store import WorkspaceCache
from app.sync import SyncService, SyncState
from app.workspaces.profiles import Profile
from ui.messages import MessageBridge
from ui.tasks import TaskGroup


class WorkspaceSession(QObject):
    syncStateChanged = Signal(object)  # SyncState
    dataChanged = Signal()
    firstSyncFinished = Signal(bool)  # True when it succeeded

    def __init__(
        self,
        profile: Profile,
        api_key: str,
        cache: WorkspaceCache,
        messages: MessageBridge,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.profile = profile
        self.cache = cache
        self.messages = messages
        self.client = ApiClient(profile.base_url, api_key, server_tz=profile.server_tz)
        self.state: SyncState | None = None
        self._tasks = TaskGroup(messages.error)
        self.first_sync_ok: bool | None = None
        self.sync = SyncService(
            self.client, cache, on_state=self._on_state, on_changed=self.dataChanged.emit
        )
        self.client.on_retry = self._on_retry

    def _on_retry(self, attempt: int, delay: float, error: ApiError) -> None:
        # The client waits out a 429 by itself; the status bar says so while it waits.
        if isinstance(error, RateLimited):
            last = self.state.last_sync_at if self.state is not None else None
            self.syncStateChanged.emit(
                SyncState("rate_limited", error.message, retry_in=delay, last_sync_at=last)
            )

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
        self._tasks.spawn(self.sync.full_refresh())

    async def close(self) -> None:
        await self._tasks.cancel_all()
        await self.client.aclose()
        self.cache.close()

    # -- post actions (DESIGN.md mapping) ------------------------------------------------------
    def _stored(self, post: Post | list[Post]) -> None:
        for item in post if isinstance(post, list) else [post]:
            self.cache.upsert_post(item)
        self.dataChanged.emit()

    def reschedule(self, post_id: str, when: datetime) -> asyncio.Task[None]:
        return self._tasks.spawn(self._reschedule(post_id, when, undoable=True))

    async def _reschedule(self, post_id: str, when: datetime, *, undoable: bool) -> None:
        before = self.cache.post(post_id)
        post = await self.client.posts.reschedule(post_id, when)
        self._stored(post)
        if undoable and before is not None and before.scheduled_at is not None:
            previous = before.scheduled_at
            self.messages.info(
                "Post rescheduled.",
                action_label="Undo",
                action=lambda: self._undo(self._reschedule(post_id, previous, undoable=False)),
            )

    def unschedule(self, post_id: str) -> asyncio.Task[None]:
        return self._tasks.spawn(self._unschedule(post_id))

    async def _unschedule(self, post_id: str) -> None:
        before = self.cache.post(post_id)
        post = await self.client.posts.unschedule(post_id)
        self._stored(post)
        if before is not None and before.scheduled_at is not None:
            when = before.scheduled_at
            self.messages.info(
                "Post moved back to drafts.",
                action_label="Undo",
                action=lambda: self._undo(self._schedule(post_id, when)),
            )

    async def _schedule(self, post_id: str, when: datetime) -> None:
        self._stored(await self.client.posts.schedule(post_id, when))

    def _undo(self, coro: object) -> None:
        self._tasks.spawn(coro)  # type: ignore[arg-type]

    def publish_now(self, post_id: str) -> asyncio.Task[None]:
        return self._tasks.spawn(self._publish_now(post_id))

    async def _publish_now(self, post_id: str) -> None:
        self._stored(await self.client.posts.publish_now(post_id))
        self.messages.info("Publishing started.")

    def duplicate(self, post_id: str) -> asyncio.Task[None]:
        return self._tasks.spawn(self._duplicate(post_id))

    async def _duplicate(self, post_id: str) -> None:
        original = self.cache.post(post_id) or await self.client.posts.get(post_id)
        copies = await self.client.posts.duplicate(original)
        self._stored(copies)
        self.messages.info("Post duplicated as a new draft.")

    def delete(self, post_id: str) -> asyncio.Task[None]:
        return self._tasks.spawn(self._delete(post_id))

    async def _delete(self, post_id: str) -> None:
        await self.client.posts.delete(post_id)
        self.cache.delete_post(post_id)
        self.dataChanged.emit()
        self.messages.info("Post deleted.")

    def post_count(self) -> int:
        return self.cache.count_posts()
