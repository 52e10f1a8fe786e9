"""The workspace's notifier: follows the open session, decides with `changes.ChangeWatcher` (no
Qt) what is news, keeps the open alerts for the window's "Needs attention" list, and announces
each new alert on the best channel this desktop has:

1. `desktop`: the session bus's notification server (`desktop.py`), a click opens the item;
2. `tray`: the tray icon's balloon (`QSystemTrayIcon.showMessage`), where there is a tray but
   no notification server (or the server failed that call);
3. `window`: nothing pops up; the window's list and its badge show it all the same.

Every click, wherever it happened (notification, balloon, tray icon, the window's list), goes
through `open(kind, id)`: the alert is acknowledged and `openRequested(kind, id)` asks the window
to show the item. Desktop notifications mirror the open list: an alert opened or dismissed in
the window, or whose item left the state, is withdrawn from the desktop too.

The application makes one notifier when the first workspace session starts and attaches it to
each session in turn (`ui/shell/notify.py`): notifying does not depend on a page being shown.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QSystemTrayIcon

from app.api.errors import ApiError
from ui.notifications.changes import POST_ATTENTION, Alert, ChangeWatcher, Item
from ui.notifications.tray import TrayChannel
from ui.tasks import TaskGroup

if TYPE_CHECKING:
    from ui.notifications.desktop import DesktopNotifications
    from ui.session import WorkspaceSession

log = logging.getLogger(__name__)

EARLIEST = datetime(1970, 1, 2, tzinfo=UTC)
LATEST = datetime(9998, 12, 31, tzinfo=UTC)
DESKTOP_RETRY_S = 300.0
"""After the bus had no notification server (or lost it), how long before asking again."""

DESKTOP, TRAY, WINDOW = "desktop", "tray", "window"


class Notifier(QObject):
    openRequested = Signal(str, str)  # kind ("post" or "webhook"), id
    attentionChanged = Signal(int)  # open alerts
    alertsChanged = Signal(object)  # list[Alert]: the open alerts, oldest first

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        tray: QSystemTrayIcon | None = None,
        bus_address: str | None = None,
    ) -> None:
        """`tray`: the icon to badge and to show balloons with (None: the desktop has no tray).
        `bus_address`: the session bus to look for a notification server on (None: none)."""
        super().__init__(parent)
        self.watcher = ChangeWatcher()
        self.session: WorkspaceSession | None = None
        self._tasks = TaskGroup(self._ignore)
        self.tray = tray
        self._tray = TrayChannel(tray, self.open, self._newest) if tray is not None else None
        self.bus_address = bus_address
        self.desktop: DesktopNotifications | None = None
        self._desktop_lock = asyncio.Lock()
        self._desktop_asked_at: float | None = None
        self.shown: list[Alert] = []
        """Every alert announced, in order, whichever channel carried it."""
        self.channels: list[str] = []
        """The channel each of `shown` went through (`DESKTOP`, `TRAY` or `WINDOW`)."""
        self._published: list[Alert] = []

    # -- following a workspace ---
    def attach(self, session: WorkspaceSession | None) -> None:
        """Follow this workspace (None: none). Its first look is the baseline."""
        if self.session is not None:
            self.session.dataChanged.disconnect(self.check)
            self.session.postsStored.disconnect(self._check_after_write)
            self.session.postsForgotten.disconnect(self._check_after_write)
            self.session.webhooksChanged.disconnect(self._check_after_write)
        self.session = session
        self.watcher.reset()
        self._changed()
        if session is not None:
            session.dataChanged.connect(self.check)
            # A write can end a post's need for attention (a failed post moved to drafts).
            session.postsStored.connect(self._check_after_write)
            session.postsForgotten.connect(self._check_after_write)
            # The session polls the webhooks every minute, page shown or not: a paused one.
            session.webhooksChanged.connect(self._check_after_write)
            self.check()
            if self.bus_address is not None and self._desktop_asked_at is None:
                self._tasks.spawn(self.choose_channel())  # ready before the first alert

    def _check_after_write(self, _changed: object) -> None:
        self.check()

    def check(self) -> None:
        if self.session is not None:
            self._tasks.spawn(self._look(self.session))

    async def _look(self, session: WorkspaceSession) -> None:
        alerts = self.watcher.observe("post", self._post_items(session))
        # The posts' part shows at once: the count and the badge never disagree while the
        # webhooks are being asked for.
        self._changed()
        try:
            webhooks = await session.webhooks.current()  # the polled list: no request of ours
        except ApiError:
            webhooks = None  # no webhooks on this deployment, or offline: judge posts only
        if session is not self.session:
            return
        if webhooks is not None:
            alerts += self.watcher.observe(
                "webhook", [Item(w.id, w.status, w.endpoint) for w in webhooks]
            )
        self._changed()
        for alert in alerts:
            await self.announce(alert)

    @staticmethod
    def _post_items(session: WorkspaceSession) -> list[Item]:
        statuses = sorted(POST_ATTENTION)
        cards = session.cache.cards_between(EARLIEST, LATEST, statuses=statuses)
        cards += [c for c in session.cache.unscheduled_cards() if c.status in POST_ATTENTION]
        return [Item(card.id, card.status, card.summary) for card in cards]

    # -- channels ---
    async def choose_channel(self) -> str:
        """Look for the desktop's notification server (once, then again after
        `DESKTOP_RETRY_S` while there is none); the channel the next alert will take."""
        await self._desktop_channel()
        return self.channel

    @property
    def channel(self) -> str:
        if self.desktop is not None and self.desktop.alive:
            return DESKTOP
        return TRAY if self._tray is not None else WINDOW

    async def _desktop_channel(self) -> DesktopNotifications | None:
        if self.bus_address is None:
            return None
        async with self._desktop_lock:
            desktop = self.desktop
            if desktop is not None and desktop.alive:
                return desktop
            asked = self._desktop_asked_at
            if asked is not None and time.monotonic() - asked < DESKTOP_RETRY_S:
                return None
            self._desktop_asked_at = time.monotonic()
            if desktop is not None:
                self.desktop = None
                await desktop.close()
            try:
                from ui.notifications.desktop import connect_desktop
            except ImportError:  # jeepney: Linux and the BSDs only
                return None
            self.desktop = await connect_desktop(self.bus_address, self._clicked)
            log.info("notifications go to: %s", self.channel)
            return self.desktop

    async def announce(self, alert: Alert) -> None:
        """Tell the user about a new alert on the best channel there is."""
        self.shown.append(alert)
        channel = WINDOW
        desktop = await self._desktop_channel()
        if desktop is not None:
            from ui.notifications.desktop import DesktopError

            try:
                await desktop.show(alert)
                channel = DESKTOP
            except DesktopError as error:
                log.warning("the desktop did not show a notification: %s", error)
        if channel == WINDOW and self._tray is not None:
            self._tray.show(alert)
            channel = TRAY
        self.channels.append(channel)
        self._withdraw_stale()  # opened or dismissed while the server was being asked

    def _clicked(self, alert: Alert) -> None:
        self.open(alert.kind, alert.id)

    # -- the open alerts (the window's list) ---
    def open_alerts(self) -> list[Alert]:
        return self.watcher.open_alerts()

    def attention(self) -> int:
        return len(self.watcher.open_alerts())

    def _newest(self) -> Alert | None:
        alerts = self.watcher.open_alerts()
        return alerts[-1] if alerts else None

    def open(self, kind: str, item_id: str) -> None:
        """The user asked to see this item (from any notification or the window's list)."""
        self.watcher.acknowledge(kind, item_id)
        self._changed()
        self.openRequested.emit(kind, item_id)

    def dismiss(self, kind: str, item_id: str) -> None:
        self.watcher.acknowledge(kind, item_id)
        self._changed()

    def dismiss_all(self) -> None:
        self.watcher.acknowledge_all()
        self._changed()

    def _changed(self) -> None:
        alerts = self.watcher.open_alerts()
        if self._tray is not None:
            self._tray.set_count(len(alerts))
        if [a.key for a in alerts] != [a.key for a in self._published]:
            self._published = alerts
            self.attentionChanged.emit(len(alerts))
            self.alertsChanged.emit(list(alerts))
        self._withdraw_stale()

    def _withdraw_stale(self) -> None:
        desktop = self.desktop
        if desktop is None or not desktop.alive:
            return
        stale = desktop.stale({alert.key for alert in self.watcher.open_alerts()})
        if stale:
            self._tasks.spawn(desktop.withdraw(stale))

    async def close(self) -> None:
        self.attach(None)
        await self._tasks.cancel_all()
        desktop, self.desktop = self.desktop, None
        if desktop is not None:
            await desktop.close()
        if self._tray is not None:
            self._tray.hide()

    @staticmethod
    def _ignore(error: BaseException) -> None:
        # A failed look is retried at the next dataChanged; notifications never raise banners.
        log.warning("could not look for changes to notify: %r", error)
