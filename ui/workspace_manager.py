"""The open workspace's lifetime: its cache, its session, its tasks and its messages.

Nothing a workspace started outlives it: closing it cancels its tasks, closes its session and
withdraws its messages (their Undo/Retry buttons do nothing any more). The demo server is kept
across switches: it belongs to the run, not to one opening of the demo workspace.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.store import WorkspaceCache
from app.workspaces.profiles import Paths, Profile
from ui.messages import Level, Message, MessageBridge, MessageScope
from ui.shell.first_workspace import DEMO_PROFILE, is_saved_profile
from ui.tasks import TaskGroup

if TYPE_CHECKING:
    from app.sync.state import SyncState
    from app.workspaces.demo import DemoEndpoint, DemoSandbox
    from ui.session import WorkspaceSession

SYNC_TOPIC = "sync"
UNREADABLE_TOPIC = "unreadable"


class KeyNeeded(Exception):
    """The workspace has no usable key; `why` says so in words (no keyring, no key stored)."""

    def __init__(self, why: str, *, keyring_missing: bool) -> None:
        super().__init__(why)
        self.why = why
        self.keyring_missing = keyring_missing


KeyLookup = Callable[[Profile], Awaitable[str]]
"""Returns the saved key of a profile, or raises KeyNeeded."""


class WorkspaceManager(QObject):
    cacheOpened = Signal(object)  # WorkspaceCache: paint it at once
    sessionChanged = Signal(object)  # WorkspaceSession | None
    dataChanged = Signal(object)  # the session's: CacheChange | None
    syncStateChanged = Signal(object)  # SyncState | None
    keyNeeded = Signal(object, object)  # Profile, KeyNeeded
    keyProblem = Signal(object)  # Profile whose key the server refused

    def __init__(
        self,
        paths: Paths,
        messages: MessageBridge,
        *,
        first_paint: Callable[[], Awaitable[None]],
        key_lookup: KeyLookup,
        demo_posts: int | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.paths = paths
        self.bridge = messages
        self._first_paint = first_paint
        self._key_lookup = key_lookup
        self._demo_posts = demo_posts
        self.profile: Profile | None = None
        self.cache: WorkspaceCache | None = None
        self.session: WorkspaceSession | None = None
        self.scope: MessageScope = messages.scope()
        self.scope.close()  # nothing is open yet
        self.tasks = TaskGroup(messages.error)
        self.demo: DemoSandbox | None = None
        self._demo_endpoint: DemoEndpoint | None = None
        self._switching = asyncio.Lock()
        self._last_sync_message: tuple[str, str] | None = None
        self._last_unreadable: frozenset[tuple[str, str, tuple[str, ...]]] = frozenset()

    # -- opening and closing ---
    async def open(
        self, profile: Profile, api_key: str | None, *, cache: WorkspaceCache | None = None
    ) -> None:
        """Close the current workspace, paint the new one from its cache, then connect.

        `api_key` None: the saved key is looked up (off the GUI thread); when there is none,
        `keyNeeded` is emitted and the workspace stays open on its saved data. `cache`: the
        profile's cache, already opened (by the first frame); it is owned from here on.
        """
        async with self._switching:
            await self._close()
            self.profile = profile
            self.scope = self.bridge.scope()
            self.tasks = TaskGroup(self.scope.error)
            self._last_sync_message = None
            self._last_unreadable = frozenset()
            self.cache = cache or WorkspaceCache(self.paths.profile_db(profile.id))
            if self.cache.reset is not None:
                self.scope.post(Message(self.cache.reset.message, Level.WARNING))
            self.syncStateChanged.emit(None)
            self.cacheOpened.emit(self.cache)
            await self._first_paint()
            if profile.is_demo:
                profile, api_key = await self._start_demo(profile)
                self.profile = profile
            if api_key is None:
                try:
                    api_key = await self._key_lookup(profile)
                except KeyNeeded as needed:
                    self.keyNeeded.emit(profile, needed)
                    return
            self._start_session(profile, api_key)

    def _start_session(self, profile: Profile, api_key: str) -> None:
        from ui.session import WorkspaceSession  # the client and models: ~250 ms of imports

        assert self.cache is not None
        session = WorkspaceSession(profile, api_key, self.cache, self.scope, self, paths=self.paths)
        session.syncStateChanged.connect(self._on_sync_state)
        session.dataChanged.connect(self.dataChanged)
        self.session = session
        session.start()
        # Pages and the notifier plug in once the session runs (and leave before it closes).
        self.sessionChanged.emit(session)

    async def close(self) -> None:
        async with self._switching:
            await self._close()
            self.profile = None

    async def _close(self) -> None:
        session, self.session = self.session, None
        cache, self.cache = self.cache, None
        self.scope.close()
        await self.tasks.cancel_all()
        if session is not None:
            self.sessionChanged.emit(None)
            await session.close()
            session.deleteLater()
        elif cache is not None:
            await cache.aclose()

    def spawn(self, coro: Awaitable[object]) -> None:
        """Run `coro` as a task of the open workspace: cancelled when it closes."""
        self.tasks.spawn(_as_coroutine(coro))

    # -- sync state in words ---
    def _on_sync_state(self, state: SyncState) -> None:
        self.syncStateChanged.emit(state)
        if state.phase in ("idle", "syncing", "rate_limited"):
            if state.phase == "idle":
                self._last_sync_message = None
                self.scope.withdraw(SYNC_TOPIC)
                self._show_unreadable(state)
            return
        shown = (state.phase, state.message)
        if shown == self._last_sync_message:
            return
        self._last_sync_message = shown
        self.scope.post(self.sync_message(state))

    def _show_unreadable(self, state: SyncState) -> None:
        """Items the sync could not read (whole) are named once per distinct set, until all
        read; in words, never by id (the log has those)."""
        # Keyed by the items, not their order: the minutely light refresh must not repost it.
        seen = frozenset(
            (item.source, item.id or str(item.index), item.fields) for item in state.unreadable
        )
        if seen == self._last_unreadable:
            return
        self._last_unreadable = seen
        summary = state.unreadable_summary()
        self.scope.withdraw(UNREADABLE_TOPIC)
        if summary:
            self.scope.post(
                Message(
                    summary,
                    Level.WARNING,
                    hint=state.unreadable_hint(),
                    topic=UNREADABLE_TOPIC,
                )
            )

    def sync_message(self, state: SyncState) -> Message:
        """The toast of a failed sync: its reason and hint; *Replace key…* when the key was
        refused (a saved workspace: retrying the same key cannot help), *Retry* otherwise."""
        from app.sync.state import NOTHING_SAVED_YET, SHOWING_SAVED_COPY

        hint = state.hint
        if not state.ever_synced and NOTHING_SAVED_YET not in hint:
            hint = hint.replace(SHOWING_SAVED_COPY, NOTHING_SAVED_YET).strip()
        key_refused = state.kind == "key_refused" or (
            state.kind is None and state.phase == "auth_failed"
        )
        profile = self.profile
        if key_refused and profile is not None and profile.id.startswith("url-"):
            # --base-url: the key came from the environment and nothing here can replace it.
            hint = hint.replace(" and replace it here", "").replace(" and paste it here", "")
            hint += (
                " This run takes its key from POSTDESK_API_KEY: put the new key there and start"
                " Postdesk again."
            )
        if key_refused and profile is not None and is_saved_profile(profile):
            replace = profile
            return Message(
                text=state.message,
                level=Level.ERROR,
                hint=hint,
                action_label="Replace key…",
                action=lambda: self.keyProblem.emit(replace),
                topic=SYNC_TOPIC,
            )
        return Message(
            text=state.message,
            level=Level.WARNING if "offline" in (state.kind, state.phase) else Level.ERROR,
            hint=hint,
            action_label="Retry",
            action=self.retry,
            topic=SYNC_TOPIC,
        )

    def retry(self) -> None:
        if self.session is not None:
            self.session.refresh()

    # -- demo ---
    async def _start_demo(self, profile: Profile) -> tuple[Profile, str]:
        from app.workspaces.demo import DemoSandbox

        if self.demo is None or not self.demo.running:
            self.demo = DemoSandbox(self.demo_database(), posts=self._demo_posts)
            self._demo_endpoint = await asyncio.to_thread(self.demo.start)
        endpoint = self._demo_endpoint
        assert endpoint is not None
        return dataclasses.replace(profile, base_url=endpoint.base_url), endpoint.api_key

    def demo_database(self) -> Path:
        return self.paths.data_dir / "demo-sandbox.sqlite3"

    async def reset_demo(self) -> None:
        """Throw the demo's server data and its local cache away and open it afresh."""
        async with self._switching:
            await self._close()
            self.profile = None
            await self.stop_demo()
            from app.workspaces.demo import remove_database

            remove_database(self.demo_database())
            remove_database(self.paths.profile_db(DEMO_PROFILE.id))
        await self.open(DEMO_PROFILE, "")

    async def stop_demo(self) -> None:
        demo, self.demo = self.demo, None
        self._demo_endpoint = None
        if demo is not None:
            await asyncio.to_thread(demo.stop)

    async def shutdown(self) -> None:
        await self.close()
        await self.stop_demo()


async def _as_coroutine(awaitable: Awaitable[object]) -> object:
    return await awaitable
