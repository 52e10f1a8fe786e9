"""Month view: a 6×7 grid of days, custom painted, with one chip per post.

Painting a grid ourselves (instead of 42 child widgets or a table with per-cell editors) keeps a
month with thousands of posts cheap: only the chips that fit are laid out, the rest collapse into
"+N more". The layout is computed once per data or size change and reused for painting, hit
testing and drag-and-drop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
from PySide6.QtWidgets import QApplication, QToolTip, QWidget

from app.calendar.grid import DAYS_PER_WEEK, GRID_WEEKS, month_grid_dates
from ui.calendar.drag import (
    DropTarget,
    accept_post_drag,
    drag_pixmap,
    post_id_from_mime,
    post_mime_data,
)
from ui.calendar.entries import Entry
from ui.calendar.style import ACCENT, DROP_TARGET, TODAY, bold, mix, paint_chip, small_font, surface
from ui.calendar.tooltips import entry_tooltip

WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass
class _Cell:
    day: date
    rect: QRect
    chips: list[tuple[QRect, Entry]] = field(default_factory=list)
    hidden: int = 0
    more_rect: QRect | None = None


class MonthView(QWidget):
    postClicked = Signal(str)
    postActivated = Signal(str)
    dayClicked = Signal(object)  # date: a click on a day's empty area
    dayActivated = Signal(object)  # date: a double click on a day's empty area
    moreClicked = Signal(object)  # date whose "+N more" was clicked
    moveRequested = Signal(str, object)  # post id, DropTarget

    HEADER_HEIGHT = 28
    DAY_LABEL_HEIGHT = 26
    CHIP_HEIGHT = 21
    CHIP_GAP = 3
    CELL_PADDING = 4

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("monthView")
        self.setAccessibleName("Month calendar")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setAcceptDrops(True)
        self.setMinimumSize(560, 420)
        today = date.today()
        self._year, self._month = today.year, today.month
        self._today = today
        self._days = month_grid_dates(self._year, self._month)
        self._by_day: dict[date, list[Entry]] = {}
        self._selected: str | None = None
        self._cells: list[_Cell] = []
        self._layout_dirty = True
        self._hover_more: date | None = None
        self._drop_day: date | None = None
        self._press: tuple[QPoint, Entry] | None = None
        self._dragging: str | None = None

    # -- data ------------------------------------------------------------------------------
    def set_month(self, year: int, month: int, today: date) -> None:
        self._year, self._month, self._today = year, month, today
        self._days = month_grid_dates(year, month)
        self._invalidate()

    def set_entries(self, entries: list[Entry]) -> None:
        by_day: dict[date, list[Entry]] = {}
        for entry in sorted(entries, key=lambda item: (item.local is None, item.local)):
            if entry.day is not None:
                by_day.setdefault(entry.day, []).append(entry)
        self._by_day = by_day
        self._invalidate()

    def set_selected(self, post_id: str | None) -> None:
        if post_id != self._selected:
            self._selected = post_id
            self.update()

    def days(self) -> list[date]:
        return list(self._days)

    def entries_on(self, day: date) -> list[Entry]:
        return list(self._by_day.get(day, []))

    # -- layout queries (also what tests look at) ------------------------------------------
    def cell_rect(self, day: date) -> QRect:
        cell = self._cell(day)
        return QRect(cell.rect) if cell is not None else QRect()

    def visible_post_ids(self, day: date) -> list[str]:
        cell = self._cell(day)
        return [entry.id for _rect, entry in cell.chips] if cell is not None else []

    def hidden_count(self, day: date) -> int:
        cell = self._cell(day)
        return cell.hidden if cell is not None else 0

    def chip_rect(self, post_id: str) -> QRect:
        self._ensure_layout()
        for cell in self._cells:
            for rect, entry in cell.chips:
                if entry.id == post_id:
                    return QRect(rect)
        return QRect()

    def more_rect(self, day: date) -> QRect:
        cell = self._cell(day)
        return QRect(cell.more_rect) if cell is not None and cell.more_rect else QRect()

    def drop_day(self) -> date | None:
        """The day a drag is hovering over (highlighted as the drop target)."""
        return self._drop_day

    def day_at(self, pos: QPoint) -> date | None:
        self._ensure_layout()
        for cell in self._cells:
            if cell.rect.contains(pos):
                return cell.day
        return None

    def entry_at(self, pos: QPoint) -> Entry | None:
        self._ensure_layout()
        for cell in self._cells:
            if cell.rect.contains(pos):
                for rect, entry in cell.chips:
                    if rect.contains(pos):
                        return entry
        return None

    def _more_at(self, pos: QPoint) -> date | None:
        self._ensure_layout()
        for cell in self._cells:
            if cell.more_rect is not None and cell.more_rect.contains(pos):
                return cell.day
        return None

    def _cell(self, day: date) -> _Cell | None:
        self._ensure_layout()
        for cell in self._cells:
            if cell.day == day:
                return cell
        return None

    def _invalidate(self) -> None:
        self._layout_dirty = True
        self.update()

    def _ensure_layout(self) -> None:
        if not self._layout_dirty:
            return
        self._layout_dirty = False
        width, height = self.width(), self.height()
        grid_height = max(height - self.HEADER_HEIGHT, GRID_WEEKS)
        self._cells = []
        for index, day in enumerate(self._days):
            row, column = divmod(index, DAYS_PER_WEEK)
            left = round(column * width / DAYS_PER_WEEK)
            right = round((column + 1) * width / DAYS_PER_WEEK)
            top = self.HEADER_HEIGHT + round(row * grid_height / GRID_WEEKS)
            bottom = self.HEADER_HEIGHT + round((row + 1) * grid_height / GRID_WEEKS)
            cell = _Cell(day, QRect(left, top, right - left, bottom - top))
            self._layout_cell(cell, self._by_day.get(day, []))
            self._cells.append(cell)

    def _layout_cell(self, cell: _Cell, entries: list[Entry]) -> None:
        pad = self.CELL_PADDING
        rect = cell.rect
        chip_left = rect.left() + pad
        chip_width = rect.width() - 2 * pad
        first_top = rect.top() + self.DAY_LABEL_HEIGHT
        room = rect.bottom() - pad - first_top + 1
        step = self.CHIP_HEIGHT + self.CHIP_GAP
        fits = max((room + self.CHIP_GAP) // step, 0)
        shown = len(entries) if len(entries) <= fits else max(fits - 1, 0)
        for index, entry in enumerate(entries[:shown]):
            top = first_top + index * step
            cell.chips.append((QRect(chip_left, top, chip_width, self.CHIP_HEIGHT), entry))
        cell.hidden = len(entries) - shown
        if cell.hidden:
            if fits >= 1:
                top = first_top + shown * step
                cell.more_rect = QRect(chip_left, top, chip_width, self.CHIP_HEIGHT)
            else:  # no room for any chip: the count sits next to the day number
                width = min(64, chip_width)
                cell.more_rect = QRect(
                    rect.right() - pad - width, rect.top() + 4, width, self.DAY_LABEL_HEIGHT - 6
                )

    # -- painting --------------------------------------------------------------------------
    def sizeHint(self) -> QSize:
        return QSize(980, 700)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._layout_dirty = True
        super().resizeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        self._ensure_layout()
        painter = QPainter(self)
        palette = self.palette()
        base = surface(palette)
        text = palette.color(QPalette.ColorRole.Text)
        muted = mix(base, text, 0.45)
        grid = mix(base, text, 0.12)
        painter.fillRect(self.rect(), base)
        self._paint_header(painter, muted, grid)
        exposed = event.rect()
        for cell in self._cells:
            if cell.rect.intersects(exposed):
                self._paint_cell(painter, cell, base, text, muted, grid)
        painter.end()

    def _paint_header(self, painter: QPainter, muted: QColor, grid: QColor) -> None:
        font = bold(small_font(self.font()))
        painter.setFont(font)
        painter.setPen(muted)
        width = self.width()
        for column, name in enumerate(WEEKDAY_NAMES):
            left = round(column * width / DAYS_PER_WEEK)
            right = round((column + 1) * width / DAYS_PER_WEEK)
            rect = QRect(left + 10, 0, right - left - 10, self.HEADER_HEIGHT)
            painter.drawText(
                rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, name.upper()
            )
        painter.setPen(QPen(grid, 1))
        painter.drawLine(0, self.HEADER_HEIGHT - 1, width, self.HEADER_HEIGHT - 1)

    def _paint_cell(
        self,
        painter: QPainter,
        cell: _Cell,
        base: QColor,
        text: QColor,
        muted: QColor,
        grid: QColor,
    ) -> None:
        rect = cell.rect
        in_month = cell.day.month == self._month
        is_today = cell.day == self._today
        if not in_month:
            painter.fillRect(rect, mix(base, text, 0.035))
        elif cell.day.weekday() >= 5:
            painter.fillRect(rect, mix(base, text, 0.015))
        if is_today:
            painter.fillRect(rect, mix(base, QColor(TODAY), 0.06))
        painter.setPen(QPen(grid, 1))
        painter.drawLine(rect.topRight(), rect.bottomRight())
        painter.drawLine(rect.bottomLeft(), rect.bottomRight())

        self._paint_day_number(painter, cell, in_month, is_today, text, muted)
        chip_font = small_font(self.font())
        for chip_rect, entry in cell.chips:
            paint_chip(
                painter,
                chip_rect,
                entry,
                self.palette(),
                chip_font,
                selected=entry.id == self._selected,
                dragging=entry.id == self._dragging,
            )
        if cell.more_rect is not None:
            more_font = bold(chip_font)
            more_font.setUnderline(self._hover_more == cell.day)
            painter.setFont(more_font)
            painter.setPen(QColor(ACCENT) if in_month else muted)
            label = f"+{cell.hidden} more" if cell.more_rect.width() > 56 else f"+{cell.hidden}"
            painter.drawText(
                cell.more_rect.adjusted(6, 0, 0, 0),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                label,
            )
        if self._drop_day == cell.day:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setPen(QPen(QColor(DROP_TARGET), 2))
            highlight = QColor(DROP_TARGET)
            highlight.setAlphaF(0.08)
            painter.setBrush(highlight)
            painter.drawRoundedRect(QRectF(rect).adjusted(2, 2, -2, -2), 6, 6)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)

    def _paint_day_number(
        self,
        painter: QPainter,
        cell: _Cell,
        in_month: bool,
        is_today: bool,
        text: QColor,
        muted: QColor,
    ) -> None:
        rect = cell.rect
        label = str(cell.day.day)
        if cell.day.day == 1:
            label = f"{cell.day.day} {cell.day.strftime('%b')}"
        font = bold(self.font()) if is_today or cell.day.day == 1 else self.font()
        painter.setFont(font)
        metrics = QFontMetrics(font)
        box_height = 22
        box = QRect(
            rect.left() + 5,
            rect.top() + 3,
            max(metrics.horizontalAdvance(label) + 12, box_height),
            box_height,
        )
        if is_today:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(TODAY))
            painter.drawRoundedRect(QRectF(box), box_height / 2, box_height / 2)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            painter.setPen(QColor("#ffffff"))
        else:
            painter.setPen(text if in_month else muted)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, label)

    # -- mouse -----------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        pos = event.position().toPoint()
        more_day = self._more_at(pos)
        if more_day is not None:
            self.moreClicked.emit(more_day)
            return
        entry = self.entry_at(pos)
        if entry is not None:
            self._press = (pos, entry)
            self.set_selected(entry.id)
            self.postClicked.emit(entry.id)
            return
        day = self.day_at(pos)
        if day is not None:
            self.dayClicked.emit(day)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            start, entry = self._press
            distance = (pos - start).manhattanLength()
            if entry.draggable and distance >= QApplication.startDragDistance():
                self._press = None
                self._start_drag(entry, pos)
            return
        hover = self._more_at(pos)
        if hover != self._hover_more:
            self._hover_more = hover
            self.update()
        over_target = hover is not None or self.entry_at(pos) is not None
        self.setCursor(
            Qt.CursorShape.PointingHandCursor if over_target else Qt.CursorShape.ArrowCursor
        )

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._press = None
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._more_at(pos) is not None:
            return
        entry = self.entry_at(pos)
        if entry is not None:
            self.postActivated.emit(entry.id)
            return
        day = self.day_at(pos)
        if day is not None:
            self.dayActivated.emit(day)

    def leaveEvent(self, event: QEvent) -> None:
        if self._hover_more is not None:
            self._hover_more = None
            self.update()
        super().leaveEvent(event)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            entry = self.entry_at(event.pos())
            if entry is not None:
                QToolTip.showText(event.globalPos(), entry_tooltip(entry), self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    # -- drag and drop ---------------------------------------------------------------------
    def _start_drag(self, entry: Entry, pos: QPoint) -> None:
        chip = self.chip_rect(entry.id)
        drag = QDrag(self)
        drag.setMimeData(post_mime_data(entry.id))
        drag.setPixmap(drag_pixmap(self, entry, chip.size()))
        drag.setHotSpot(pos - chip.topLeft())
        self._dragging = entry.id
        self.update()
        try:
            drag.exec(Qt.DropAction.MoveAction)
        finally:
            self._dragging = None
            self._drop_day = None
            self.update()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        accept_post_drag(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        day = self.day_at(event.position().toPoint())
        if day is None or post_id_from_mime(event.mimeData()) is None:
            event.ignore()
            return
        if day != self._drop_day:
            self._drop_day = day
            self.update()
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()

    def dragLeaveEvent(self, event: QDragLeaveEvent) -> None:
        self._drop_day = None
        self.update()
        super().dragLeaveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self._drop_day = None
        self.update()
        post_id = post_id_from_mime(event.mimeData())
        day = self.day_at(event.position().toPoint())
        if post_id is None or day is None:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()
        self.moveRequested.emit(post_id, DropTarget(day))
