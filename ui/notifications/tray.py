"""The tray icon, where the desktop has a tray: the app mark with a badge counting what needs
attention, and the fallback channel for alerts when the session bus has no notification server
(`notifier.py` decides which channel an alert takes)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QSystemTrayIcon

from ui.notifications.changes import Alert

MESSAGE_MS = 15_000


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


class TrayChannel(QObject):
    """The tray icon: a badge counting what needs attention and, when the desktop has no
    notification server, a balloon (`showMessage`) per alert. Clicking the balloon opens its
    item; clicking the icon opens the newest open alert."""

    def __init__(
        self,
        icon: QSystemTrayIcon,
        open_item: Callable[[str, str], None],
        newest: Callable[[], Alert | None],
    ) -> None:
        super().__init__(icon)
        self.icon = icon
        self._open_item = open_item
        self._newest = newest
        self.last_alert: Alert | None = None
        """The alert of the last balloon: the one `messageClicked` is about."""
        self._count: int | None = None
        icon.messageClicked.connect(self._message_clicked)
        icon.activated.connect(self._activated)
        self.set_count(0)
        if QSystemTrayIcon.isSystemTrayAvailable():
            icon.show()

    def show(self, alert: Alert) -> None:
        self.last_alert = alert
        warning = QSystemTrayIcon.MessageIcon.Warning
        self.icon.showMessage(alert.title, alert.text, warning, MESSAGE_MS)

    def set_count(self, count: int) -> None:
        if count == self._count:
            return
        self._count = count
        self.icon.setIcon(badge_icon(count))
        self.icon.setToolTip(
            f"Postdesk — {count} need{'s' if count == 1 else ''} attention" if count else "Postdesk"
        )

    def _message_clicked(self) -> None:
        if self.last_alert is not None:
            self._open_item(self.last_alert.kind, self.last_alert.id)

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            alert = self._newest()
            if alert is not None:
                self._open_item(alert.kind, alert.id)

    def hide(self) -> None:
        self.icon.hide()
