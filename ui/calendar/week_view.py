"""Week view: hours down, seven days across, posts as blocks at their local wall-clock time.

The grid is painted on the viewport of a scroll area; the day header stays pinned while the hours
scroll under it, so header and columns share one coordinate system and never drift apart. On a
DST day the wall clock skips or repeats an hour; posts are placed by the time a local clock
shows, which is what the user scheduled against.

A block with room for it shows its post's first image at its right end (`set_thumbnails`): the
status bar, time and icon stay where every other block has them. Until the image is ready the
block is drawn without it; `thumbnails_changed()` repaints.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QDragEnterEvent,
    QDragLeaveEvent,
    QDragMoveEvent,
    QDropEvent,
    QFontMetrics,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import QAbstractScrollArea, QFrame, QScrollBar, QWidget

from app.calendar.grid import WeekGeometry
from ui.calendar.chip_grid import ChipInteraction, DragState, paint_ghost
from ui.calendar.drag import DropTarget
from ui.calendar.entries import Entry
from ui.calendar.style import (
    CHIP_LINE_HEIGHT,
    accent_color,
    bold,
    mix,
    now_line_color,
    on_accent_color,
    paint_chip,
    paint_chip_body,
    paint_pill,
    resized_font,
    small_font,
    surface,
    today_color,
)
from ui.locale_text import weekday_name

if TYPE_CHECKING:
    from ui.calendar.thumbnails import Thumbnails

DEFAULT_SCROLL_MINUTES = 8 * 60
SNAP_STEP = 15
EDGE = 28
"""A drag this close to the top or bottom of the hours scrolls them."""
AUTOSCROLL_MS = 40


@dataclass
class _Block:
    entry: Entry
    rect: QRect  # in content coordinates (y = 0 at local midnight)


@dataclass
class _More:
    """ "+N" where a cluster of posts at nearly the same time has more than fit side by side."""

    day: date
    entries: list[Entry]  # the whole cluster, for the list it opens
    hidden: int
    rect: QRect  # in content coordinates


THUMB_INSET = 2
"""Between a thumbnail and the block's top, bottom and right edges."""
THUMB_MIN_SIDE = 16
THUMB_TEXT_ROOM = 64
"""What a block keeps for its time, icon and words beside a thumbnail (~7 characters); a
narrower block shows none."""


def thumbnail_side(width: int, height: int) -> int | None:
    """The side of the thumbnail a `width`×`height` block shows; None when it has no room."""
    side = height - 2 * THUMB_INSET
    if side < THUMB_MIN_SIDE or width < side + 2 * THUMB_INSET + THUMB_TEXT_ROOM:
        return None
    return side


MIN_BLOCK_WIDTH = 46
"""Narrower than this, a block shows neither time nor words: the rest of its cluster goes
behind a "+N" that opens the list (13 posts in one hour were 3-pixel slivers)."""


class WeekView(QAbstractScrollArea):
    postClicked = Signal(str)
    postToggled = Signal(str)  # Ctrl+click
    postExtended = Signal(str)  # Shift+click
    postActivated = Signal(str)
    dayClicked = Signal(object)
    dayActivated = Signal(object)
    moveRequested = Signal(str, object)  # post id, DropTarget (with minutes)
    moreClicked = Signal(object, object, object)  # day, the cluster's entries, global QPoint

    HOUR_HEIGHT = 52
    HEADER_HEIGHT = 52
    GUTTER = 58
    # Posts are instants: a block is one text line tall, two where the next post leaves room.
    BLOCK_HEIGHT = CHIP_LINE_HEIGHT + 4
    TALL_BLOCK_HEIGHT = 2 * CHIP_LINE_HEIGHT + 4

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("weekView")
        self.setAccessibleName("Week calendar")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAcceptDrops(True)
        self.verticalScrollBar().setSingleStep(self.HOUR_HEIGHT // 2)
        self._days: list[date] = []
        self._today: date | None = None
        self._entries: list[Entry] = []
        self._blocks: list[_Block] = []
        self._more: list[_More] = []
        self._layout_dirty = True
        self._selected: str | None = None
        self._busy: frozenset[str] = frozenset()
        self._marked: frozenset[str] = frozenset()
        self._dragging: str | None = None
        self._drag: DragState | None = None
        self._drop_slot: DropTarget | None = None
        self._zone_label = ""
        self._now: tuple[date, int] | None = None
        self._thumbnails: Thumbnails | None = None
        self._autoscroll = QTimer(self)
        self._autoscroll.setInterval(AUTOSCROLL_MS)
        self._autoscroll.timeout.connect(self._scroll_while_dragging)
        self._autoscroll_step = 0
        self.interaction = ChipInteraction(self, self.viewport(), self)
        self.interaction.postClicked.connect(self.postClicked)
        self.interaction.postToggled.connect(self.postToggled)
        self.interaction.postExtended.connect(self.postExtended)
        self.interaction.postActivated.connect(self.postActivated)
        self.interaction.dayClicked.connect(self.dayClicked)
        self.interaction.dayActivated.connect(self.dayActivated)
        self.interaction.moveRequested.connect(self.moveRequested)

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

    def set_marked(self, post_ids: frozenset[str]) -> None:
        """The posts of a multi-selection, drawn as selected."""
        if post_ids != self._marked:
            self._marked = post_ids
            self.viewport().update()

    def set_busy(self, post_ids: frozenset[str]) -> None:
        if post_ids != self._busy:
            self._busy = post_ids
            self.viewport().update()

    def set_thumbnails(self, thumbnails: Thumbnails | None) -> None:
        """Where blocks with room for one get their post's image (None: no thumbnails)."""
        if thumbnails is not self._thumbnails:
            self._thumbnails = thumbnails
            self.viewport().update()

    def thumbnails_changed(self) -> None:
        """More images are ready: repaint if a post shown has one."""
        if self._thumbnails is not None and any(e.card.thumb_url for e in self._entries):
            self.viewport().update()

    def thumbnail_rect(self, post_id: str) -> QRect:
        """Where a post's thumbnail is drawn once ready (viewport coordinates; empty: none)."""
        rect = self.block_rect(post_id)
        entry = next((b.entry for b in self._blocks if b.entry.id == post_id), None)
        if entry is None or not entry.card.thumb_url or self._thumbnails is None:
            return QRect()
        side = thumbnail_side(rect.width(), rect.height())
        if side is None:
            return QRect()
        return QRect(rect.right() - THUMB_INSET - side + 1, rect.top() + THUMB_INSET, side, side)

    def set_now(self, day: date, minutes: int) -> None:
        """Where the current-time line is drawn (the local day and minutes since midnight)."""
        if (day, minutes) != self._now:
            self._now = (day, minutes)
            self.viewport().update()

    def now_line_y(self) -> int | None:
        """Viewport y of the current-time line; None when today is not in this week."""
        if self._now is None or self._now[0] not in self._days:
            return None
        return self._viewport_y(self._now[1] * self.HOUR_HEIGHT / 60)

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
        """This week: the current time in view (an hour of what came before above it), as
        calendars open; another week: its first post, or working hours when it is empty."""
        if self._now is not None and self._now[0] in self._days and self._now[1] >= 60:
            self.scroll_to_minutes(self._now[1] - 60)
            return
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
    def geometry_now(self) -> WeekGeometry:
        return WeekGeometry(
            tuple(self._days), self.viewport().width(), self.GUTTER, self.HOUR_HEIGHT
        )

    def _column_bounds(self, index: int) -> tuple[int, int]:
        return self.geometry_now().column(index)

    def _content_y(self, viewport_y: float) -> float:
        return viewport_y - self.HEADER_HEIGHT + self.verticalScrollBar().value()

    def _viewport_y(self, content_y: float) -> int:
        return round(content_y + self.HEADER_HEIGHT - self.verticalScrollBar().value())

    def point_for(self, day: date, minutes: float) -> QPoint:
        """Viewport position of a wall-clock time on a day (middle of the column)."""
        index = self._days.index(day)
        left, right = self._column_bounds(index)
        return QPoint((left + right) // 2, self._viewport_y(minutes * self.HOUR_HEIGHT / 60))

    def slot_at(self, pos: QPoint) -> DropTarget | None:
        """The day and snapped wall-clock time under a viewport position."""
        return self.drop_grid().target_at(pos, QPoint(0, 0))

    def block_rect(self, post_id: str) -> QRect:
        """Where a post's block is, in viewport coordinates (empty when not shown)."""
        self._ensure_layout()
        for block in self._blocks:
            if block.entry.id == post_id:
                return block.rect.translated(0, self._viewport_y(0))
        return QRect()

    def chip_rect(self, post_id: str) -> QRect:
        return self.block_rect(post_id)

    def day_at(self, pos: QPoint) -> date | None:
        slot = self.slot_at(pos)
        return slot.day if slot is not None else None

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
        self._more = []
        for index, day in enumerate(self._days):
            left, right = self._column_bounds(index)
            self._layout_day(self.entries_on(day), left + 2, right - 2, day)

    def _layout_day(
        self, entries: list[Entry], left: int, right: int, day: date | None = None
    ) -> None:
        """Posts less than a line apart share the column side by side; the others take its
        whole width, and two lines of height where the next post leaves room."""
        clusters: list[list[tuple[Entry, int, int]]] = []  # entry, top, column
        column_ends: list[int] = []
        cluster_end = -1
        lowest = self.content_height() - self.BLOCK_HEIGHT
        for entry in entries:
            top = min(round(entry.minutes * self.HOUR_HEIGHT / 60), lowest)
            if top >= cluster_end or not clusters:
                clusters.append([])
                column_ends = []
            for column, end in enumerate(column_ends):
                if end <= top:
                    column_ends[column] = top + self.BLOCK_HEIGHT
                    break
            else:
                column = len(column_ends)
                column_ends.append(top + self.BLOCK_HEIGHT)
            clusters[-1].append((entry, top, column))
            cluster_end = max(cluster_end, top + self.BLOCK_HEIGHT)
        for index, cluster in enumerate(clusters):
            limit = (
                clusters[index + 1][0][1] if index + 1 < len(clusters) else self.content_height()
            )
            count = max(column for _e, _t, column in cluster) + 1
            fit = max(1, (right - left) // MIN_BLOCK_WIDTH)
            if count > fit and day is not None:
                # The first fit-1 columns as blocks, the last place says "+N" (the rest).
                shown = fit - 1
                width = (right - left) / fit
                hidden = [e for e, _t, column in cluster if column >= shown]
                more_top = min(t for _e, t, column in cluster if column >= shown)
                x = round(left + shown * width)
                more = QRect(x, more_top, max(round(width) - 2, 8), self.BLOCK_HEIGHT)
                self._more.append(_More(day, [e for e, _t, _c in cluster], len(hidden), more))
                cluster = [item for item in cluster if item[2] < shown]
            else:
                width = (right - left) / count
            for position, (entry, top, column) in enumerate(cluster):
                below = [t for _e, t, c in cluster[position + 1 :] if c == column]
                room = min([limit, *below]) - top - 2
                height = max(self.BLOCK_HEIGHT, min(self.TALL_BLOCK_HEIGHT, room))
                x = round(left + column * width)
                rect = QRect(x, top, max(round(width) - 2, 8), height)
                self._blocks.append(_Block(entry, rect))

    # -- painting --------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        self._ensure_layout()
        painter = QPainter(self.viewport())
        palette = self.palette()
        base = surface(palette)
        text = palette.color(QPalette.ColorRole.Text)
        muted = mix(base, text, 0.62)
        grid = mix(base, text, 0.10)
        half_grid = mix(base, text, 0.05)
        width = self.viewport().width()
        height = self.viewport().height()
        painter.fillRect(self.viewport().rect(), base)
        painter.setClipRect(QRect(0, self.HEADER_HEIGHT, width, height - self.HEADER_HEIGHT))
        self._paint_columns(painter, base, text, grid)
        self._paint_hours(painter, muted, grid, half_grid, width)
        self._paint_blocks(painter)
        self._paint_now_line(painter)
        self._paint_drop_slot(painter)
        if self._drag is not None:
            paint_ghost(
                painter, self._drag, palette, small_font(self.font()), self.viewport().rect()
            )
        painter.setClipping(False)
        self._paint_header(painter, base, text, muted, grid, width)
        painter.end()

    def _paint_columns(self, painter: QPainter, base: QColor, text: QColor, grid: QColor) -> None:
        top, bottom = self.HEADER_HEIGHT, self.viewport().height()
        for index, day in enumerate(self._days):
            left, right = self._column_bounds(index)
            if day == self._today:
                painter.fillRect(
                    QRect(left, top, right - left, bottom - top), mix(base, today_color(), 0.05)
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
            entry = block.entry
            selected = entry.id == self._selected or entry.id in self._marked
            dragging = entry.id == self._dragging
            busy = entry.id in self._busy
            thumbnail = None if busy or dragging else self._thumbnail(entry.card.thumb_url, rect)
            if thumbnail is not None:
                # The body spans the block; the text keeps to the left of the image.
                painter.save()
                paint_chip_body(painter, rect, entry, self.palette(), selected, False, False)
                painter.restore()
                text_rect = rect.adjusted(0, 0, -(thumbnail.side + 2 * THUMB_INSET), 0)
            else:
                text_rect = rect
            paint_chip(
                painter,
                text_rect,
                entry,
                self.palette(),
                font,
                selected=selected,
                dragging=dragging,
                busy=busy,
            )
            if thumbnail is not None:
                _paint_thumbnail(painter, rect, thumbnail.side, thumbnail.pixmap)
        for more in self._more:
            rect = more.rect.translated(0, offset)
            if rect.bottom() < self.HEADER_HEIGHT or rect.top() > self.viewport().height():
                continue
            paint_pill(painter, QRectF(rect), f"+{more.hidden}", accent_color(), bold(font))

    def _thumbnail(self, url: str | None, rect: QRect) -> _Thumb | None:
        """The block's image when it has room for one and it is ready (asked for otherwise)."""
        if not url or self._thumbnails is None:
            return None
        side = thumbnail_side(rect.width(), rect.height())
        if side is None:
            return None
        pixmap = self._thumbnails.pixmap(url, side)
        return None if pixmap is None else _Thumb(side, pixmap)

    def _paint_now_line(self, painter: QPainter) -> None:
        y = self.now_line_y()
        if y is None or self._now is None:
            return
        left, right = self._column_bounds(self._days.index(self._now[0]))
        color = now_line_color()
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(color, 2))
        painter.drawLine(left, y, right, y)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawEllipse(QPointF(left + 1, y), 4.5, 4.5)
        painter.restore()

    def _paint_drop_slot(self, painter: QPainter) -> None:
        slot = self._drop_slot
        if slot is None or slot.minutes is None or slot.day not in self._days:
            return
        left, right = self._column_bounds(self._days.index(slot.day))
        y = self._viewport_y(slot.minutes * self.HOUR_HEIGHT / 60)
        rect = QRectF(left + 2, y, right - left - 6, self.BLOCK_HEIGHT)
        color = accent_color()
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
            painter.setPen(today_color() if is_today else muted)
            painter.drawText(
                QRect(left, 6, right - left, 14),
                Qt.AlignmentFlag.AlignCenter,
                weekday_name(day).upper(),
            )
            painter.setFont(number_font)
            circle = QRect((left + right) // 2 - 15, 20, 30, 28)
            if is_today:
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(today_color())
                painter.drawRoundedRect(QRectF(circle), 14, 14)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
                painter.setPen(on_accent_color())
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

    # -- interaction (ChipSurface) ---------------------------------------------------------
    def is_busy(self, post_id: str) -> bool:
        return post_id in self._busy

    def take_press(self, pos: QPoint) -> bool:
        more = self._more_at(pos)
        if more is None:
            return False
        rect = more.rect.translated(0, self._viewport_y(0))
        anchor = self.viewport().mapToGlobal(rect.bottomLeft() + QPoint(0, 2))
        self.moreClicked.emit(more.day, more.entries, anchor)
        return True

    def _more_at(self, pos: QPoint) -> _More | None:
        if pos.y() < self.HEADER_HEIGHT:
            return None
        self._ensure_layout()
        content = QPoint(pos.x(), round(self._content_y(pos.y())))
        return next((more for more in self._more if more.rect.contains(content)), None)

    def more_rects(self) -> list[tuple[date, int, QRect]]:
        """Each "+N": its day, how many it hides, where (viewport coordinates)."""
        self._ensure_layout()
        offset = self._viewport_y(0)
        return [(m.day, m.hidden, m.rect.translated(0, offset)) for m in self._more]

    def hover(self, pos: QPoint | None) -> bool:
        return pos is not None and self._more_at(pos) is not None

    def drop_grid(self) -> _WeekDropGrid:
        return _WeekDropGrid(self.geometry_now(), self.HEADER_HEIGHT, self.verticalScrollBar())

    def show_drag(self, drag: DragState | None) -> None:
        self._drag = drag
        self._dragging = drag.post_id if drag is not None and drag.entry is not None else None
        self._drop_slot = drag.target if drag is not None else None
        self._autoscroll_step = self._edge_step(drag)
        if self._autoscroll_step and not self._autoscroll.isActive():
            self._autoscroll.start()
        elif not self._autoscroll_step:
            self._autoscroll.stop()
        self.viewport().update()

    def _edge_step(self, drag: DragState | None) -> int:
        """Pixels to scroll per tick while a drag of ours is held near an edge of the hours."""
        if drag is None or drag.entry is None:
            return 0
        y = drag.pos.y()
        if self.HEADER_HEIGHT <= y < self.HEADER_HEIGHT + EDGE:
            return -self.HOUR_HEIGHT // 4
        if self.viewport().height() - EDGE < y:
            return self.HOUR_HEIGHT // 4
        return 0

    def _scroll_while_dragging(self) -> None:
        bar = self.verticalScrollBar()
        before = bar.value()
        bar.setValue(before + self._autoscroll_step)
        if bar.value() == before:
            self._autoscroll.stop()
            return
        self.interaction.refresh_drag()

    def dragged_post_id(self) -> str | None:
        return self._dragging

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self.interaction.outside_drop(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        self.interaction.outside_drop(event)

    def dragLeaveEvent(self, event: QDragLeaveEvent) -> None:
        self.interaction.drag_left()

    def dropEvent(self, event: QDropEvent) -> None:
        self.interaction.outside_drop(event)

    def drop_slot(self) -> DropTarget | None:
        return self._drop_slot


@dataclass
class _Thumb:
    side: int
    pixmap: QPixmap


def _paint_thumbnail(painter: QPainter, block: QRect, side: int, pixmap: QPixmap) -> None:
    target = QRectF(block.right() - THUMB_INSET - side + 1, block.top() + THUMB_INSET, side, side)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    rounded = QPainterPath()
    rounded.addRoundedRect(target, 3, 3)
    painter.setClipPath(rounded, Qt.ClipOperation.IntersectClip)
    painter.drawPixmap(target.topLeft(), pixmap)
    painter.restore()


class _WeekDropGrid:
    """A week's columns as they were when a drag began. The scroll position is read live: the
    user sees the hours move when they scroll, and aims at what they see."""

    def __init__(self, geometry: WeekGeometry, header: int, scroll: QScrollBar) -> None:
        self._geometry = geometry
        self._header = header
        self._scroll = scroll

    def target_at(self, pos: QPoint, grab: QPoint) -> DropTarget | None:
        if pos.y() < self._header:
            return None
        top = pos.y() - grab.y() - self._header + self._scroll.value()
        slot = self._geometry.slot_at(pos.x(), top, SNAP_STEP)
        return DropTarget(*slot) if slot is not None else None
