"""The window's "Needs attention" list: a button under the sidebar's sections, with a badge
counting the open alerts, and the list it opens next to it. Each alert opens its item (a post in
the calendar's detail, a webhook on the Webhooks page) or is dismissed.

It shows the notifier's open alerts whatever the desktop offers: without a notification server
and without a tray, this is where a failed post or a paused webhook is seen.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ui.calendar.style import status_color
from ui.notifications.changes import Alert

ALERT_ROLE = Qt.ItemDataRole.UserRole
PANEL_WIDTH = 380
BADGE_MARGIN = 14


def count_text(count: int) -> str:
    return "nothing open" if count == 0 else f"{count} open"


class AttentionButton(QPushButton):
    """The "Needs attention" entry, with a red badge carrying the count when anything is open."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Needs attention", parent)
        self.setObjectName("attentionButton")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.count = 0
        self.set_count(0)

    def set_count(self, count: int) -> None:
        self.count = count
        self.setAccessibleName(f"Needs attention: {count_text(count)}")
        self.setToolTip(
            f"{count} item{'s' if count != 1 else ''} need{'s' if count == 1 else ''} attention"
            if count
            else "Failed or partially published posts and paused webhooks appear here."
        )
        self.update()

    def badge_text(self) -> str:
        return "" if self.count <= 0 else (str(self.count) if self.count < 100 else "99+")

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        text = self.badge_text()
        if not text:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont(self.font())
        font.setBold(True)
        painter.setFont(font)
        height = painter.fontMetrics().height() + 2
        width = max(height, painter.fontMetrics().horizontalAdvance(text) + 12)
        rect = QRectF(
            self.width() - BADGE_MARGIN - width, (self.height() - height) / 2, width, height
        )
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(status_color("failed"))
        painter.drawRoundedRect(rect, height / 2, height / 2)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        painter.end()


class AttentionPanel(QFrame):
    """The open alerts, newest first, in a popup next to the button."""

    openRequested = Signal(str, str)  # kind, id
    dismissRequested = Signal(str, str)
    dismissAllRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("attentionPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName("Needs attention")
        self.setFixedWidth(PANEL_WIDTH)
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 10, 12, 12)
        self.title = QLabel("Needs attention", self)
        self.title.setObjectName("panelTitle")
        column.addWidget(self.title)
        self.list = QListWidget(self)
        self.list.setObjectName("attentionList")
        self.list.setAccessibleName("Open alerts")
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setMinimumHeight(160)
        self.list.itemActivated.connect(self._activated)
        self.list.currentRowChanged.connect(self._enable)
        column.addWidget(self.list)
        self.empty = QLabel(
            "Nothing needs attention. Posts that fail or partially publish and webhooks that "
            "get paused appear here.",
            self,
        )
        self.empty.setWordWrap(True)
        self.empty.setAccessibleName("Nothing needs attention")
        column.addWidget(self.empty)
        self.channel = QLabel(self)
        self.channel.setWordWrap(True)
        self.channel.setObjectName("attentionChannel")
        column.addWidget(self.channel)
        row = QHBoxLayout()
        self.open_button = QPushButton("Open", self)
        self.open_button.setAccessibleName("Open the selected item")
        self.open_button.setDefault(True)
        self.open_button.clicked.connect(self._open_current)
        self.dismiss_button = QPushButton("Dismiss", self)
        self.dismiss_button.setAccessibleName("Dismiss the selected alert")
        self.dismiss_button.clicked.connect(self._dismiss_current)
        self.dismiss_all_button = QPushButton("Dismiss all", self)
        self.dismiss_all_button.setAccessibleName("Dismiss all alerts")
        self.dismiss_all_button.clicked.connect(self.dismissAllRequested)
        row.addWidget(self.open_button)
        row.addWidget(self.dismiss_button)
        row.addStretch(1)
        row.addWidget(self.dismiss_all_button)
        column.addLayout(row)
        self.show_alerts([])

    def show_alerts(self, alerts: list[Alert]) -> None:
        current = self.current_alert()
        self.list.clear()
        for alert in reversed(alerts):  # newest first
            subject = alert.subject or "(no text)"
            item = QListWidgetItem(f"{alert.title}\n{subject}")
            item.setData(ALERT_ROLE, alert)
            item.setToolTip(alert.text)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{alert.title}: {subject}")
            self.list.addItem(item)
        self.list.setVisible(bool(alerts))
        self.empty.setVisible(not alerts)
        self.dismiss_all_button.setEnabled(bool(alerts))
        row = next(
            (i for i in range(self.list.count()) if current and self.alert_at(i) == current), 0
        )
        self.list.setCurrentRow(row if alerts else -1)
        self._enable()
        if self.isVisible():
            self.adjustSize()

    def alert_at(self, row: int) -> Alert | None:
        item = self.list.item(row)
        alert = item.data(ALERT_ROLE) if item is not None else None
        return alert if isinstance(alert, Alert) else None

    def current_alert(self) -> Alert | None:
        return self.alert_at(self.list.currentRow())

    def alerts(self) -> list[Alert]:
        return [a for a in (self.alert_at(i) for i in range(self.list.count())) if a is not None]

    def _enable(self, *_: object) -> None:
        chosen = self.current_alert() is not None
        self.open_button.setEnabled(chosen)
        self.dismiss_button.setEnabled(chosen)

    def _activated(self, item: QListWidgetItem) -> None:
        self._open(self.alert_at(self.list.row(item)))

    def _open_current(self) -> None:
        self._open(self.current_alert())

    def _open(self, alert: Alert | None) -> None:
        if alert is not None:
            self.hide()
            self.openRequested.emit(alert.kind, alert.id)

    def _dismiss_current(self) -> None:
        alert = self.current_alert()
        if alert is not None:
            self.dismissRequested.emit(alert.kind, alert.id)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self._dismiss_current()
            return
        super().keyPressEvent(event)

    def popup_next_to(self, anchor: QWidget) -> None:
        """Open beside `anchor` (its right edge), bottoms aligned, kept on its screen."""
        self.adjustSize()
        corner = anchor.mapToGlobal(QPoint(anchor.width(), anchor.height()))
        top_left = QPoint(corner.x(), corner.y() - self.height())
        screen = anchor.screen()
        if screen is not None:
            area: QRect = screen.availableGeometry()
            top_left.setX(min(max(top_left.x(), area.left()), area.right() - self.width()))
            top_left.setY(min(max(top_left.y(), area.top()), area.bottom() - self.height()))
        self.move(top_left)
        self.show()
        if self.list.count():
            self.list.setFocus()
        else:
            self.dismiss_all_button.setFocus()


class AttentionList:
    """The button and its panel, showing the notifier's open alerts. `channel_text()` says where
    new alerts also go (desktop, tray, nowhere else), read each time the panel opens."""

    def __init__(self, parent: QWidget, channel_text: Callable[[], str]) -> None:
        self.button = AttentionButton(parent)
        self.panel = AttentionPanel(parent)
        self._channel_text = channel_text
        self.button.clicked.connect(self.open_panel)

    def show_alerts(self, alerts: list[Alert]) -> None:
        self.button.set_count(len(alerts))
        self.panel.show_alerts(alerts)

    def open_panel(self) -> None:
        self.panel.channel.setText(self._channel_text())
        self.panel.popup_next_to(self.button)
