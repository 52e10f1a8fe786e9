"""The tray icon and desktop notifications. The lead connects `attach(session)` when a workspace
opens (it listens to the session's `dataChanged` and to its writes' `postsStored` /
`postsForgotten`) and `openRequested` to the window."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QSystemTrayIcon

from app.api.errors import ApiError
from ui.notifications.changes import POST_ATTENTION, Alert, ChangeWatcher, Item
from ui.tasks import TaskGroup

if TYPE_CHECKING:
    from ui.session import WorkspaceSession

log = logging.getLogger(__name__)

EARLIEST = datetime(1970, 1, 2, tzinfo=UTC)
LATEST = datetime(9998, 12, 31, tzinfo=UTC)


def badge_icon(count: int, size: int = 64) -> QIcon:
    """The app mark, with a red badge carrying `count` when it is above zero."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#1d4ed8"))
    painter.drawRoundedRect(QRectF(2, 2, size - 4, size - 4), size / 5, size / 5)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(int(size * 0.6))
    painter.setFont(font)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(QRectF(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, "P")
    if count > 0:
        badge = QRectF(size * 0.45, 0, size * 0.55, size * 0.55)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#dc2626"))
        painter.drawEllipse(badge)
        font.setPixelSize(int(size * (0.34 if count < 10 else 0.26)))
        painter.setFont(font)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(count) if count < 100 else "99+")
    painter.end()
    return QIcon(pixmap)


class Notifier(QObject):
    openRequested = Signal(str, str)  # kind ("post" or "webhook"), id
    attentionChanged = Signal(int)  # open alerts

    def __init__(self, parent: QObject | None = None, *, tray: QSystemTrayIcon | None = None):
        super().__init__(parent)
        self.watcher = ChangeWatcher()
        self.session: WorkspaceSession | None = None
        self._tasks = TaskGroup(self._ignore)
        self.tray = tray if tray is not None else QSystemTrayIcon(self)
        self.tray.setIcon(badge_icon(0))
        self.tray.setToolTip("Postdesk")
        self.tray.messageClicked.connect(self._message_clicked)
        self.tray.activated.connect(self._tray_activated)
        self.last_alert: Alert | None = None
        self.shown: list[Alert] = []
        if QSystemTrayIcon.isSystemTrayAvailable():
            self.tray.show()

    def attach(self, session: WorkspaceSession | None) -> None:
        """Follow this workspace (None: none). Its first look is the baseline."""
        if self.session is not None:
            self.session.dataChanged.disconnect(self.check)
            self.session.postsStored.disconnect(self._check_after_write)
            self.session.postsForgotten.disconnect(self._check_after_write)
        self.session = session
        self.watcher.reset()
        self._badge()
        if session is not None:
            session.dataChanged.connect(self.check)
            # A write can end a post's need for attention (a failed post moved to drafts).
            session.postsStored.connect(self._check_after_write)
            session.postsForgotten.connect(self._check_after_write)
            self.check()

    def _check_after_write(self, _changed: object) -> None:
        self.check()

    def check(self) -> None:
        if self.session is not None:
            self._tasks.spawn(self._look(self.session))

    async def _look(self, session: WorkspaceSession) -> None:
        alerts = self.watcher.observe("post", self._post_items(session))
        # The posts' part shows at once: the count and the badge never disagree while the
        # webhooks are being asked for.
        self._badge()
        try:
            webhooks = await session.client.webhooks.list()
        except ApiError:
            webhooks = None  # no webhooks on this deployment, or offline: judge posts only
        if session is not self.session:
            return
        if webhooks is not None:
            alerts += self.watcher.observe(
                "webhook", [Item(w.id, w.status, w.endpoint) for w in webhooks]
            )
        for alert in alerts:
            self.notify(alert)
        self._badge()

    @staticmethod
    def _post_items(session: WorkspaceSession) -> list[Item]:
        statuses = sorted(POST_ATTENTION)
        cards = session.cache.cards_between(EARLIEST, LATEST, statuses=statuses)
        cards += [c for c in session.cache.unscheduled_cards() if c.status in POST_ATTENTION]
        return [Item(card.id, card.status, card.summary) for card in cards]

    def notify(self, alert: Alert) -> None:
        self.last_alert = alert
        self.shown.append(alert)
        icon = QSystemTrayIcon.MessageIcon.Warning
        self.tray.showMessage(alert.title, alert.text, icon, 15_000)

    def _message_clicked(self) -> None:
        alert = self.last_alert
        if alert is not None:
            self.watcher.acknowledge(alert.kind, alert.id)
            self._badge()
            self.openRequested.emit(alert.kind, alert.id)

    def _tray_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            alerts = self.watcher.open_alerts()
            if alerts:
                self.watcher.acknowledge(alerts[-1].kind, alerts[-1].id)
                self._badge()
                self.openRequested.emit(alerts[-1].kind, alerts[-1].id)

    def attention(self) -> int:
        return len(self.watcher.open_alerts())

    def _badge(self) -> None:
        count = self.attention()
        self.tray.setIcon(badge_icon(count))
        self.tray.setToolTip(
            f"Postdesk — {count} need{'s' if count == 1 else ''} attention" if count else "Postdesk"
        )
        self.attentionChanged.emit(count)

    async def close(self) -> None:
        self.attach(None)
        await self._tasks.cancel_all()
        self.tray.hide()

    @staticmethod
    def _ignore(error: BaseException) -> None:
        # A failed look is retried at the next dataChanged; notifications never raise banners.
        log.warning("could not look for changes to notify: %r", error)
