"""Desktop notifications for the open workspace: the tray's notifier follows the session, and
clicking a notification opens what it is about (the webhook, or the post in the calendar).

No tray is made without a system tray (offscreen, most CI, some desktops): nothing would show
it, and the notifier's look at `GET /webhooks` after each sync would be wasted.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QSystemTrayIcon

from ui.shell.main_window import MainWindow
from ui.workspace_manager import WorkspaceManager

if TYPE_CHECKING:
    from app.sync.state import SyncState
    from ui.notifications.tray import Notifier
    from ui.session import WorkspaceSession
    from ui.shell.pages import PageWiring

log = logging.getLogger(__name__)


def tray_available() -> bool:
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal")):
        return False
    return QSystemTrayIcon.isSystemTrayAvailable()


def default_notifier(parent: QObject) -> Notifier | None:
    if not tray_available():
        return None
    from ui.notifications.tray import Notifier  # the client's errors: after the first paint

    return Notifier(parent)


class NotifierWiring(QObject):
    """Made when the first session starts (the notifier imports the API client)."""

    def __init__(
        self,
        window: MainWindow,
        manager: WorkspaceManager,
        pages: PageWiring,
        make: Callable[[QObject], Notifier | None] = default_notifier,
    ) -> None:
        super().__init__(window)
        self.window = window
        self.pages = pages
        self._make = make
        self._made = False
        self.notifier: Notifier | None = None
        manager.sessionChanged.connect(self._on_session_changed)

    def _on_session_changed(self, session: WorkspaceSession | None) -> None:
        if session is not None and not self._made:
            self._made = True
            self.notifier = self._make(self)
            if self.notifier is not None:
                self.notifier.openRequested.connect(self.open_item)
        notifier = self.notifier
        if notifier is None:
            return
        notifier.attach(None)
        if session is None:
            return

        # The notifier's first look is its baseline: taken before the first sync, a workspace
        # never synced here would report every old failure as news.
        # The notifier looks when posts change; a webhook that got paused changes no post, so
        # it also looks after every sync that succeeded.
        def synced(state: SyncState) -> None:
            if state.phase == "idle" and notifier.session is session:
                notifier.check()

        session.syncStateChanged.connect(synced)
        if session.first_sync_ok is not None:
            notifier.attach(session)
            return

        def first_sync_finished(_ok: bool) -> None:
            if not session.closed and self.pages.manager.session is session:
                notifier.attach(session)

        session.firstSyncFinished.connect(first_sync_finished)

    def open_item(self, kind: str, item_id: str) -> None:
        window = self.window
        window.showNormal() if window.isMinimized() else window.show()
        window.raise_()
        window.activateWindow()
        if kind == "webhook":
            window.show_section("webhooks")
            select = getattr(window.page("webhooks"), "select_webhook", None)
            if callable(select):
                select(item_id)
        elif kind == "post":
            self._open_post(item_id)
        else:
            log.warning("a notification asked to open an unknown kind: %s", kind)

    def _open_post(self, post_id: str) -> None:
        from app.store import CacheError
        from ui.shell.finder import open_post

        cache = self.pages.manager.cache
        when = None
        try:
            post = cache.post(post_id) if cache is not None else None
        except CacheError as error:
            self.pages.cache_unreadable(error)
            return
        if post is not None:
            when = post.scheduled_at or post.published_at
        open_post(self.pages, post_id, when)

    async def close(self) -> None:
        if self.notifier is not None:
            await self.notifier.close()
