"""The webhooks table: status badge, endpoint, failures n/5, last success, paused since, events."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QRectF,
    QSize,
    Qt,
)
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from app.domain.enums import WebhookEvent
from app.models.webhooks import Webhook
from ui.panels.webhooks.format import failures, status_colours, status_text, when
from ui.widgets.table_model import HeaderedTableModel

Index = QModelIndex | QPersistentModelIndex
WebhookRole = Qt.ItemDataRole.UserRole + 1
ALL_EVENTS = {event.value for event in WebhookEvent}


def events_text(events: list[str]) -> str:
    if set(events) == ALL_EVENTS:
        return "All 7 events"
    return ", ".join(event.removeprefix("post.") for event in events) or "none"


class WebhooksModel(HeaderedTableModel):
    HEADERS = ("Status", "Endpoint", "Failures", "Last success", "Paused since", "Events")

    def __init__(self) -> None:
        super().__init__()
        self.webhooks: list[Webhook] = []
        self.busy: set[str] = set()

    def set_webhooks(self, webhooks: list[Webhook]) -> None:
        self.beginResetModel()
        self.webhooks = list(webhooks)
        self.endResetModel()

    def row_of(self, webhook_id: str) -> int:
        return next((i for i, w in enumerate(self.webhooks) if w.id == webhook_id), -1)

    def set_busy(self, webhook_id: str, busy: bool) -> None:
        (self.busy.add if busy else self.busy.discard)(webhook_id)
        row = self.row_of(webhook_id)
        if row >= 0:
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.webhooks)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        webhook = self.webhooks[index.row()]
        column = index.column()
        if role == WebhookRole:
            return webhook
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(webhook, column)
        if role == Qt.ItemDataRole.ToolTipRole and column == 5:
            return "\n".join(webhook.events)
        if role == Qt.ItemDataRole.ForegroundRole and column == 2 and webhook.consecutive_failures:
            return QColor("#b91c1c")
        return None

    def _text(self, webhook: Webhook, column: int) -> str:
        if column == 0:
            text = status_text(webhook.status)
            return text + (" …" if webhook.id in self.busy else "")
        if column == 1:
            return webhook.endpoint
        if column == 2:
            return failures(webhook.consecutive_failures)
        if column == 3:
            return when(webhook.last_sent_at, "never")
        if column == 4:
            return when(webhook.paused_at, "")
        return events_text(webhook.events)


class BadgeDelegate(QStyledItemDelegate):
    """Paints the status as a coloured pill."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        webhook = index.data(WebhookRole)
        if not isinstance(webhook, Webhook):
            super().paint(painter, option, index)
            return
        style = option.widget.style() if option.widget else None
        if style is not None:
            style.drawPrimitive(
                QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, option.widget
            )
        text = str(index.data(Qt.ItemDataRole.DisplayRole))
        background, foreground = status_colours(webhook.status)
        metrics = option.fontMetrics
        rect = QRectF(option.rect).adjusted(6, 4, -6, -4)
        width = min(rect.width(), metrics.horizontalAdvance(text) + 18)
        pill = QRectF(rect.left(), rect.top(), width, rect.height())
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(background))
        painter.drawRoundedRect(pill, pill.height() / 2, pill.height() / 2)
        painter.setPen(QColor(foreground))
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(size.width() + 24, max(size.height(), 26))
