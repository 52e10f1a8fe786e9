"""Notifications for the open workspace: one notifier for the app's run follows each session in
turn (whichever page is shown), and whatever is clicked — a desktop notification, the tray's
balloon, a row of the window's "Needs attention" list — opens what it is about (the webhook, or
the post in the calendar's detail).

The notifier announces on the session bus's notification server when there is one, else through
the tray when the desktop has one (no tray is made without: offscreen, most CI, stock GNOME),
else only in the window's list, which is there in every case.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QSystemTrayIcon

from app.store import CacheError
from ui.shell.main_window import MainWindow
from ui.workspace_manager import WorkspaceManager

if TYPE_CHECKING:
    from ui.notifications.attention import AttentionList
    from ui.notifications.notifier import Notifier
    from ui.session import WorkspaceSession
    from ui.shell.pages import PageWiring

log = logging.getLogger(__name__)


def tray_available() -> bool:
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal")):
        return False
    return QSystemTrayIcon.isSystemTrayAvailable()


def default_notifier(parent: QObject) -> Notifier | None:
    # The client's errors and the bus's library: imported after the first paint.
    from ui.notifications.notifier import Notifier

    try:
        from ui.notifications.desktop import session_bus_address
    except ImportError:  # no D-Bus library: not a Linux desktop
        address = None
    else:
        address = session_bus_address()
    tray = QSystemTrayIcon(parent) if tray_available() else None
    return Notifier(parent, tray=tray, bus_address=address)


CHANNEL_TEXTS = {
    "desktop": "New alerts also appear as desktop notifications; a click opens the item.",
    "tray": "New alerts also appear as messages from Postdesk's tray icon.",
    "window": "This desktop shows neither notifications nor a tray icon: new alerts appear "
    "only here.",
}


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
        self.attention: AttentionList | None = None
        """The window's "Needs attention" button and list, made with the notifier."""
        manager.sessionChanged.connect(self._on_session_changed)

    def _on_session_changed(self, session: WorkspaceSession | None) -> None:
        if session is not None and not self._made:
            self._made = True
            self.notifier = self._make(self)
            if self.notifier is not None:
                self.notifier.openRequested.connect(self.open_item)
                self._add_attention_list(self.notifier)
        notifier = self.notifier
        if notifier is None:
            return
        notifier.attach(None)
        if session is None:
            return

        # The notifier's first look is its baseline: taken before the first sync, a workspace
        # never synced here would report every old failure as news. It looks again when posts
        # change and when the session's webhook polling finds the list changed.
        if session.first_sync_ok is not None:
            notifier.attach(session)
            return

        def first_sync_finished(_ok: bool) -> None:
            if not session.closed and self.pages.manager.session is session:
                notifier.attach(session)

        session.firstSyncFinished.connect(first_sync_finished)

    def _add_attention_list(self, notifier: Notifier) -> None:
        from ui.notifications.attention import AttentionList

        attention = AttentionList(self.window, lambda: CHANNEL_TEXTS[notifier.channel])
        self.window.add_under_sidebar(attention.button)
        attention.show_alerts(notifier.open_alerts())
        notifier.alertsChanged.connect(attention.show_alerts)
        attention.panel.openRequested.connect(notifier.open)
        attention.panel.dismissRequested.connect(notifier.dismiss)
        attention.panel.dismissAllRequested.connect(notifier.dismiss_all)
        self.attention = attention

    def open_item(self, kind: str, item_id: str) -> None:
        window = self.window
        window.showNormal() if window.isMinimized() else window.show()
        window.raise_()
        window.activateWindow()
        if kind == "webhook":
            window.show_section("webhooks")
            self.pages.webhooks().select_webhook(item_id)
        elif kind == "post":
            self._open_post(item_id)
        else:
            log.warning("a notification asked to open an unknown kind: %s", kind)

    def _open_post(self, post_id: str) -> None:
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
