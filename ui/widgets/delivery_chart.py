"""The delivery timeline: deliveries per hour over 7 days as stacked bars (delivered green,
failed red, queued grey) with the median response time as a line, and day marks below."""

from __future__ import annotations

import math
from datetime import datetime

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from app.webhooks.timeline import Timeline
from ui import theme

DELIVERED = QColor("#16a34a")
FAILED = QColor("#dc2626")
QUEUED = QColor("#9ca3af")
LATENCY = QColor("#2563eb")


def _grid() -> QColor:
    return QColor(theme.current().line)


def _text() -> QColor:
    return QColor(theme.current().muted)


LEFT, RIGHT, TOP, BOTTOM = 36, 60, 26, 20


class DeliveryChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.timeline: Timeline | None = None
        self.note = ""
        self.setMouseTracking(True)
        self.setMinimumHeight(150)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        # Painted: a screen reader gets the summary line in words (the bars are its picture).
        self.setAccessibleDescription(self.summary())

    def sizeHint(self) -> QSize:
        return QSize(700, 170)

    def set_timeline(self, timeline: Timeline | None, note: str = "") -> None:
        self.timeline = timeline
        self.note = note
        self.setAccessibleDescription(self.summary())
        self.update()

    def summary(self) -> str:
        timeline = self.timeline
        if timeline is None:
            return "Loading deliveries…"
        rate = timeline.success_rate
        rate_text = "no deliveries settled" if rate is None else f"{rate:.0%} delivered"
        parts = [
            f"Last 7 days: {timeline.delivered} delivered, {timeline.failed} failed",
            f"{timeline.queued} queued" if timeline.queued else "",
            rate_text,
            self.note,
        ]
        return " · ".join(part for part in parts if part)

    def _plot(self) -> QRectF:
        return QRectF(
            LEFT, TOP, max(10, self.width() - LEFT - RIGHT), max(10, self.height() - TOP - BOTTOM)
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor(theme.current().surface))
        font = QFont(painter.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() - 1))
        painter.setFont(font)
        painter.setPen(_text())
        painter.drawText(
            QRectF(8, 4, self.width() - 16, 18), Qt.AlignmentFlag.AlignLeft, self.summary()
        )
        self._legend(painter)
        plot = self._plot()
        painter.setPen(QPen(_grid(), 1))
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        timeline = self.timeline
        if timeline is None:
            return
        buckets = timeline.buckets
        peak = max(timeline.peak, 1)
        step = plot.width() / max(len(buckets), 1)
        painter.setPen(QPen(_grid(), 1, Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(plot.left(), plot.top()), QPointF(plot.right(), plot.top()))
        painter.setPen(_text())
        painter.drawText(
            QRectF(0, plot.top() - 7, LEFT - 4, 14), Qt.AlignmentFlag.AlignRight, str(peak)
        )
        painter.drawText(
            QRectF(0, plot.bottom() - 7, LEFT - 4, 14), Qt.AlignmentFlag.AlignRight, "0"
        )
        quarter = max(1, round(peak / 4))  # sqrt scale: a quarter of the peak at mid-height
        middle = plot.bottom() - plot.height() * math.sqrt(quarter / peak)
        painter.setPen(QPen(_grid(), 1, Qt.PenStyle.DotLine))
        painter.drawLine(QPointF(plot.left(), middle), QPointF(plot.right(), middle))
        painter.setPen(_text())
        painter.drawText(
            QRectF(0, middle - 7, LEFT - 4, 14), Qt.AlignmentFlag.AlignRight, str(quarter)
        )
        bar = max(step - 0.6, 0.8)
        for i, bucket in enumerate(buckets):
            x = plot.left() + i * step
            y = plot.bottom()
            total = bucket.delivered + bucket.failed + bucket.queued
            # A square-root scale (issue 17 §6): one busy hour must not flatten the rest of the
            # week; the stack's height follows sqrt(total), its parts share it by count.
            stack = plot.height() * math.sqrt(total / peak) if total else 0.0
            for count, colour in (
                (bucket.delivered, DELIVERED),
                (bucket.failed, FAILED),
                (bucket.queued, QUEUED),
            ):
                if count:
                    h = max(stack * count / total, 1.5)
                    painter.fillRect(QRectF(x, y - h, bar, h), colour)
                    y -= h
            if bucket.start.hour == 0:
                painter.setPen(QPen(_grid(), 1))
                painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom() + 3))
                painter.setPen(_text())
                local = bucket.start.astimezone()
                painter.drawText(
                    QRectF(x + 2, plot.bottom() + 2, 60, 16),
                    Qt.AlignmentFlag.AlignLeft,
                    local.strftime("%a %d"),
                )
        self._latency(painter, plot, step)

    def _latency(self, painter: QPainter, plot: QRectF, step: float) -> None:
        assert self.timeline is not None
        top_ms = self.timeline.peak_ms
        if top_ms <= 0:
            return
        path = QPainterPath()
        started = False
        for i, bucket in enumerate(self.timeline.buckets):
            ms = bucket.median_ms
            if ms is None:
                started = False
                continue
            point = QPointF(
                plot.left() + (i + 0.5) * step, plot.bottom() - plot.height() * 0.85 * ms / top_ms
            )
            if started:
                path.lineTo(point)
            else:
                path.moveTo(point)
                path.addEllipse(point, 1.2, 1.2)
                path.moveTo(point)
                started = True
        painter.setPen(QPen(LATENCY, 1.4))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
        painter.setPen(LATENCY)
        painter.drawText(
            QRectF(plot.right() + 3, plot.top() - 7, RIGHT, 14),
            Qt.AlignmentFlag.AlignLeft,
            f"{top_ms:.0f} ms",
        )

    def _legend(self, painter: QPainter) -> None:
        x = self.width() - 8
        for text, colour in (
            ("response time", LATENCY),
            ("queued", QUEUED),
            ("failed", FAILED),
            ("delivered", DELIVERED),
        ):
            width = painter.fontMetrics().horizontalAdvance(text)
            x -= width
            painter.setPen(_text())
            painter.drawText(QPointF(x, 16), text)
            x -= 12
            painter.fillRect(QRectF(x, 8, 9, 9), colour)
            x -= 12

    def bucket_at(self, x: float) -> int | None:
        if self.timeline is None:
            return None
        plot = self._plot()
        if not plot.left() <= x < plot.right():
            return None
        return int((x - plot.left()) / (plot.width() / len(self.timeline.buckets)))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        index = self.bucket_at(event.position().x())
        if index is None or self.timeline is None:
            QToolTip.hideText()
            return
        bucket = self.timeline.buckets[index]
        start: datetime = bucket.start.astimezone()
        ms = bucket.median_ms
        text = (
            f"{start:%a %d %b, %H:00}\n{bucket.delivered} delivered, {bucket.failed} failed"
            + (f", {bucket.queued} queued" if bucket.queued else "")
            + (f"\nmedian response {ms:.0f} ms" if ms is not None else "")
        )
        QToolTip.showText(event.globalPosition().toPoint(), text, self)
