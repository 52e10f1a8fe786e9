"""Week view: hours down, seven days across, posts as blocks at their local wall-clock time.

The grid is painted on the viewport of a scroll area; the day header stays pinned while the hours
scroll under it, so header and columns share one coordinate system and never drift apart. On a
DST day the wall clock skips or repeats an hour; posts are placed by the time a local clock
shows, which is what the user scheduled against.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from PySide6.QtCore import QEvent, QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QDrag,
    QDragEnterEvent,
    QDragLeaveEvent,
    QDragMoveEvent,
    QDropEvent,
    QFontMetrics,
    QHelpEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QFrame, QToolTip, QWidget

from app.calendar.grid import snap_minutes
from ui.calendar.drag import (
    DropTarget,
    accept_post_drag,
    drag_pixmap,
    post_id_from_mime,
    post_mime_data,
)
from ui.calendar.entries import Entry
from ui.calendar.month_view import WEEKDAY_NAMES
from ui.calendar.style import (
    DROP_TARGET,
    TODAY,
    bold,
    mix,
    paint_chip,
    resized_font,
    small_font,
    surface,
)
from ui.calendar.tooltips import entry_tooltip

DEFAULT_SCROLL_MINUTES = 8 * 60
SNAP_STEP = 15


@dataclass
class _Block:
    entry: Entry
    rect: QRect  # in content coordinates (y = 0 at local midnight)


class WeekView(QAbstractScrollArea):
    postClicked = Signal(str)
    postActivated = Signal(str)
    dayClicked = Signal(object)
    dayActivated = Signal(object)
    moveRequested = Signal(str, object)  # post id, DropTarget (with minutes)

    HOUR_HEIGHT = 52
    HEADER_HEIGHT = 52
    GUTTER = 58
    BLOCK_HEIGHT = 24  # posts are instants; a block shows roughly half an hour

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("weekView")
        self.setAccessibleName("Week calendar")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.viewport().setMouseTracking(True)
        self.viewport().setAcceptDrops(True)
        self.setAcceptDrops(True)
        self.verticalScrollBar().setSingleStep(self.HOUR_HEIGHT // 2)
        self._days: list[date] = []
        self._today: date | None = None
        self._entries: list[Entry] = []
        self._blocks: list[_Block] = []
        self._layout_dirty = True
        self._selected: str | None = None
        self._press: tuple[QPoint, Entry] | None = None
        self._dragging: str | None = None
        self._drag_offset_minutes = 0
        self._drop_slot: DropTarget | None = None
        self._zone_label = ""

    # -- data ------------------------------------------------------------------------------
    def set_week(self, days: list[date], today: date, zone_label: str = "") -> None:
        self._days = list(days)
        self._today = today
        self._zone_label = zone_label
        self._invalidate()

    def set_entries(self, entries: list[Entry]) -> None:
        self._entries = [entry for entry in entries if entry.day in self._days]
        self._invalidate()

    def set_selected(self, post_id: str | None) -> None:
        if post_id != self._selected:
            self._selected = post_id
            self.viewport().update()

    def days(self) -> list[date]:
        return list(self._days)

    def entries_on(self, day: date) -> list[Entry]:
        return sorted(
            (entry for entry in self._entries if entry.day == day), key=lambda e: e.minutes
        )

    def first_post_minutes(self) -> int | None:
        return min((entry.minutes for entry in self._entries), default=None)

    # -- scrolling -------------------------------------------------------------------------
    def content_height(self) -> int:
        return 24 * self.HOUR_HEIGHT

    def scroll_to_minutes(self, minutes: int) -> None:
        self._update_scroll_range()
        top = round(minutes * self.HOUR_HEIGHT / 60) - self.HOUR_HEIGHT // 3
        self.verticalScrollBar().setValue(max(top, 0))

    def scroll_to_first_post(self) -> None:
        """The first post of the week in view, or working hours when the week is empty."""
        first = self.first_post_minutes()
        self.scroll_to_minutes(DEFAULT_SCROLL_MINUTES if first is None else first)

    def visible_minutes(self) -> tuple[int, int]:
        """Wall-clock minutes at the top and bottom of the visible part of the grid."""
        top = self.verticalScrollBar().value()
        bottom = top + self.viewport().height() - self.HEADER_HEIGHT
        return (top * 60 // self.HOUR_HEIGHT, bottom * 60 // self.HOUR_HEIGHT)

    def _update_scroll_range(self) -> None:
        page = max(self.viewport().height() - self.HEADER_HEIGHT, 1)
        bar = self.verticalScrollBar()
        bar.setPageStep(page)
        bar.setRange(0, max(self.content_height() - page, 0))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._update_scroll_range()
        self._layout_dirty = True

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()

    def sizeHint(self) -> QSize:
        return QSize(980, 700)

    # -- geometry --------------------------------------------------------------------------
    def _column_bounds(self, index: int) -> tuple[int, int]:
        width = self.viewport().width() - self.GUTTER
        count = max(len(self._days), 1)
        left = self.GUTTER + round(index * width / count)
        right = self.GUTTER + round((index + 1) * width / count)
        return left, right

    def _content_y(self, viewport_y: float) -> float:
        return viewport_y - self.HEADER_HEIGHT + self.verticalScrollBar().value()

    def _viewport_y(self, content_y: float) -> int:
        return round(content_y + self.HEADER_HEIGHT - self.verticalScrollBar().value())

    def point_for(self, day: date, minutes: float) -> QPoint:
        """Viewport position of a wall-clock time on a day (middle of the column)."""
        index = self._days.index(day)
        left, right = self._column_bounds(index)
        return QPoint((left + right) // 2, self._viewport_y(minutes * self.HOUR_HEIGHT / 60))

    def slot_at(self, pos: QPoint, offset_minutes: int = 0) -> DropTarget | None:
        """The day and snapped wall-clock time under a viewport position."""
        if pos.y() < self.HEADER_HEIGHT or pos.x() < self.GUTTER:
            return None
        for index, day in enumerate(self._days):
            left, right = self._column_bounds(index)
            if left <= pos.x() < right:
                minutes = self._content_y(pos.y()) * 60 / self.HOUR_HEIGHT - offset_minutes
                return DropTarget(day, snap_minutes(minutes, SNAP_STEP))
        return None

    def block_rect(self, post_id: str) -> QRect:
        """Where a post's block is, in viewport coordinates (empty when not shown)."""
        self._ensure_layout()
        for block in self._blocks:
            if block.entry.id == post_id:
                return block.rect.translated(0, self._viewport_y(0))
        return QRect()

    def entry_at(self, pos: QPoint) -> Entry | None:
        if pos.y() < self.HEADER_HEIGHT:
            return None
        self._ensure_layout()
        content = QPoint(pos.x(), round(self._content_y(pos.y())))
        for block in reversed(self._blocks):  # topmost painted last
            if block.rect.contains(content):
                return block.entry
        return None

    def _invalidate(self) -> None:
        self._layout_dirty = True
        self.viewport().update()

    def _ensure_layout(self) -> None:
        if not self._layout_dirty:
            return
        self._layout_dirty = False
        self._blocks = []
        for index, day in enumerate(self._days):
            left, right = self._column_bounds(index)
            self._layout_day(self.entries_on(day), left + 2, right - 4)

    def _layout_day(self, entries: list[Entry], left: int, right: int) -> None:
        """Overlapping blocks share the column side by side, like a meeting calendar."""
        cluster: list[tuple[Entry, int, int]] = []  # entry, top, column
        column_ends: list[int] = []
        cluster_end = -1

        def flush() -> None:
            count = max(len(column_ends), 1)
            width = (right - left) / count
            for entry, top, column in cluster:
                x = round(left + column * width)
                rect = QRect(x, top, max(round(width) - 2, 8), self.BLOCK_HEIGHT)
                self._blocks.append(_Block(entry, rect))

        for entry in entries:
            top = round(entry.minutes * self.HOUR_HEIGHT / 60)
            top = min(top, self.content_height() - self.BLOCK_HEIGHT)
            if top >= cluster_end and cluster:
                flush()
                cluster, column_ends = [], []
            for column, end in enumerate(column_ends):
                if end <= top:
                    column_ends[column] = top + self.BLOCK_HEIGHT
                    break
            else:
                column = len(column_ends)
                column_ends.append(top + self.BLOCK_HEIGHT)
            cluster.append((entry, top, column))
            cluster_end = max(cluster_end, top + self.BLOCK_HEIGHT)
        if cluster:
            flush()

    # -- painting --------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        self._ensure_layout()
        painter = QPainter(self.viewport())
        palette = self.palette()
        base = surface(palette)
        text = palette.color(QPalette.ColorRole.Text)
        muted = mix(base, text, 0.45)
        grid = mix(base, text, 0.10)
        half_grid = mix(base, text, 0.05)
        width = self.viewport().width()
        height = self.viewport().height()
        painter.fillRect(self.viewport().rect(), base)
        painter.setClipRect(QRect(0, self.HEADER_HEIGHT, width, height - self.HEADER_HEIGHT))
        self._paint_columns(painter, base, text, grid)
        self._paint_hours(painter, muted, grid, half_grid, width)
        self._paint_blocks(painter)
        self._paint_drop_slot(painter)
        painter.setClipping(False)
        self._paint_header(painter, base, text, muted, grid, width)
        painter.end()

    def _paint_columns(self, painter: QPainter, base: QColor, text: QColor, grid: QColor) -> None:
        top, bottom = self.HEADER_HEIGHT, self.viewport().height()
        for index, day in enumerate(self._days):
            left, right = self._column_bounds(index)
            if day == self._today:
                painter.fillRect(
                    QRect(left, top, right - left, bottom - top), mix(base, QColor(TODAY), 0.05)
                )
            elif day.weekday() >= 5:
                painter.fillRect(
                    QRect(left, top, right - left, bottom - top), mix(base, text, 0.02)
                )
            painter.setPen(QPen(grid, 1))
            painter.drawLine(left, top, left, bottom)

    def _paint_hours(
        self, painter: QPainter, muted: QColor, grid: QColor, half_grid: QColor, width: int
    ) -> None:
        font = small_font(self.font())
        painter.setFont(font)
        for hour in range(25):
            y = self._viewport_y(hour * self.HOUR_HEIGHT)
            painter.setPen(QPen(grid, 1))
            painter.drawLine(self.GUTTER - 6, y, width, y)
            if hour < 24:
                half = self._viewport_y(hour * self.HOUR_HEIGHT + self.HOUR_HEIGHT / 2)
                painter.setPen(QPen(half_grid, 1, Qt.PenStyle.DotLine))
                painter.drawLine(self.GUTTER, half, width, half)
            if 0 < hour < 24:
                painter.setPen(muted)
                painter.drawText(
                    QRect(0, y - 8, self.GUTTER - 10, 16),
                    Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                    f"{hour:02d}:00",
                )

    def _paint_blocks(self, painter: QPainter) -> None:
        font = small_font(self.font())
        offset = self._viewport_y(0)
        for block in self._blocks:
            rect = block.rect.translated(0, offset)
            if rect.bottom() < self.HEADER_HEIGHT or rect.top() > self.viewport().height():
                continue
            paint_chip(
                painter,
                rect,
                block.entry,
                self.palette(),
                font,
                selected=block.entry.id == self._selected,
                dragging=block.entry.id == self._dragging,
            )

    def _paint_drop_slot(self, painter: QPainter) -> None:
        slot = self._drop_slot
        if slot is None or slot.minutes is None or slot.day not in self._days:
            return
        left, right = self._column_bounds(self._days.index(slot.day))
        y = self._viewport_y(slot.minutes * self.HOUR_HEIGHT / 60)
        rect = QRectF(left + 2, y, right - left - 6, self.BLOCK_HEIGHT)
        color = QColor(DROP_TARGET)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        fill = QColor(color)
        fill.setAlphaF(0.12)
        painter.setBrush(fill)
        painter.setPen(QPen(color, 1.5, Qt.PenStyle.DashLine))
        painter.drawRoundedRect(rect, 4, 4)
        painter.setPen(color)
        painter.setFont(bold(small_font(self.font())))
        label = f"{slot.minutes // 60:02d}:{slot.minutes % 60:02d}"
        painter.drawText(
            rect.adjusted(8, 0, 0, 0),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            label,
        )
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)

    def _paint_header(
        self,
        painter: QPainter,
        base: QColor,
        text: QColor,
        muted: QColor,
        grid: QColor,
        width: int,
    ) -> None:
        painter.fillRect(QRect(0, 0, width, self.HEADER_HEIGHT), base)
        small = bold(small_font(self.font(), -1.0))
        number_font = bold(resized_font(self.font(), 4))
        for index, day in enumerate(self._days):
            left, right = self._column_bounds(index)
            is_today = day == self._today
            painter.setFont(small)
            painter.setPen(QColor(TODAY) if is_today else muted)
            painter.drawText(
                QRect(left, 6, right - left, 14),
                Qt.AlignmentFlag.AlignCenter,
                WEEKDAY_NAMES[day.weekday()].upper(),
            )
            painter.setFont(number_font)
            circle = QRect((left + right) // 2 - 15, 20, 30, 28)
            if is_today:
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QColor(TODAY))
                painter.drawRoundedRect(QRectF(circle), 14, 14)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
                painter.setPen(QColor("#ffffff"))
            else:
                painter.setPen(text)
            painter.drawText(circle, Qt.AlignmentFlag.AlignCenter, str(day.day))
        painter.setPen(QPen(grid, 1))
        painter.drawLine(0, self.HEADER_HEIGHT - 1, width, self.HEADER_HEIGHT - 1)
        if self._zone_label:  # the gutter corner names the zone the hours are in
            painter.setFont(small)
            painter.setPen(muted)
            metrics = QFontMetrics(small)
            painter.drawText(
                QRect(4, 0, self.GUTTER - 14, self.HEADER_HEIGHT - 6),
                Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignRight,
                metrics.elidedText(self._zone_label, Qt.TextElideMode.ElideRight, self.GUTTER - 14),
            )

    # -- mouse -----------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        pos = event.position().toPoint()
        entry = self.entry_at(pos)
        if entry is not None:
            self._press = (pos, entry)
            self.set_selected(entry.id)
            self.postClicked.emit(entry.id)
            return
        slot = self.slot_at(pos)
        if slot is not None:
            self.dayClicked.emit(slot.day)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            start, entry = self._press
            if entry.draggable and (pos - start).manhattanLength() >= (
                QApplication.startDragDistance()
            ):
                self._press = None
                self._start_drag(entry, start)
            return
        over = self.entry_at(pos) is not None
        self.viewport().setCursor(
            Qt.CursorShape.PointingHandCursor if over else Qt.CursorShape.ArrowCursor
        )

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._press = None
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        entry = self.entry_at(pos)
        if entry is not None:
            self.postActivated.emit(entry.id)
            return
        slot = self.slot_at(pos)
        if slot is not None:
            self.dayActivated.emit(slot.day)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            entry = self.entry_at(event.pos())
            if entry is not None:
                QToolTip.showText(event.globalPos(), entry_tooltip(entry), self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    # -- drag and drop ---------------------------------------------------------------------
    def _start_drag(self, entry: Entry, grab: QPoint) -> None:
        rect = self.block_rect(entry.id)
        # Keep the block's top where the user sees it: the drop time is the block's new top.
        self._drag_offset_minutes = round((grab.y() - rect.top()) * 60 / self.HOUR_HEIGHT)
        drag = QDrag(self)
        drag.setMimeData(post_mime_data(entry.id))
        drag.setPixmap(drag_pixmap(self, entry, rect.size()))
        drag.setHotSpot(grab - rect.topLeft())
        self._dragging = entry.id
        self.viewport().update()
        try:
            drag.exec(Qt.DropAction.MoveAction)
        finally:
            self._dragging = None
            self._drag_offset_minutes = 0
            self._drop_slot = None
            self.viewport().update()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        accept_post_drag(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        slot = self.slot_at(event.position().toPoint(), self._drag_offset_minutes)
        if slot is None or post_id_from_mime(event.mimeData()) is None:
            self._drop_slot = None
            self.viewport().update()
            event.ignore()
            return
        if slot != self._drop_slot:
            self._drop_slot = slot
            self.viewport().update()
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()

    def dragLeaveEvent(self, event: QDragLeaveEvent) -> None:
        self._drop_slot = None
        self.viewport().update()
        super().dragLeaveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self._drop_slot = None
        self.viewport().update()
        post_id = post_id_from_mime(event.mimeData())
        slot = self.slot_at(event.position().toPoint(), self._drag_offset_minutes)
        if post_id is None or slot is None:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()
        self.moveRequested.emit(post_id, slot)
