"""Month view: a 6×7 grid of days, custom painted, with one chip per post.

Painting a grid ourselves (instead of 42 child widgets or a table with per-cell editors) keeps a
month with thousands of posts cheap: only the chips that fit are laid out, the rest collapse into
"+N more". The layout is computed once per data or size change and reused for painting, hit
testing and drag-and-drop.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import date, datetime

from PySide6.QtCore import QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QDragEnterEvent,
    QDragLeaveEvent,
    QDragMoveEvent,
    QDropEvent,
    QFocusEvent,
    QFontMetrics,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import QWidget

from app.calendar.grid import DAYS_PER_WEEK, MonthGeometry, month_grid_dates, split_evenly
from ui.calendar.chip_grid import ChipInteraction, DragState, paint_ghost
from ui.calendar.chip_pixmaps import ChipPixmaps
from ui.calendar.drag import DropTarget
from ui.calendar.entries import Entry
from ui.calendar.month_chip import ONE_LINE, TWO_LINES, ThumbnailSource, paint_month_chip
from ui.calendar.style import (
    accent_color,
    bold,
    focus_color,
    mix,
    on_accent_color,
    small_font,
    surface,
    today_color,
)
from ui.locale_text import day_and_month, weekday_name

CHIPS_PER_STEP = 12
"""Chips drawn ahead per step of `MonthView.prepare` (~0.15 ms each)."""
STEP_BUDGET_S = 0.004
"""A step of `prepare` also ends once it took this long: a chip whose network icon is drawn for
the first time costs ~1.5 ms, and a slower machine ~3x all of it."""


class _Cell:
    # A plain class, not a dataclass: the module is imported before the first paint, and
    # making a dataclass costs ~0.4 ms there (its methods are compiled from source).
    __slots__ = ("chips", "day", "hidden", "more_rect", "rect")

    def __init__(self, day: date, rect: QRect) -> None:
        self.day = day
        self.rect = rect
        self.chips: list[tuple[QRect, Entry]] = []
        self.hidden = 0
        self.more_rect: QRect | None = None


class MonthView(QWidget):
    postClicked = Signal(str)
    postToggled = Signal(str)  # Ctrl+click
    postExtended = Signal(str)  # Shift+click
    postActivated = Signal(str)
    dayClicked = Signal(object)  # date: a click on a day's empty area
    dayActivated = Signal(object)  # date: a double click on a day's empty area
    moreClicked = Signal(object)  # date whose "+N more" was clicked
    moveRequested = Signal(str, object)  # post id, DropTarget

    HEADER_HEIGHT = 28
    DAY_LABEL_HEIGHT = 26
    CHIP_HEIGHT = ONE_LINE
    TWO_LINE_CHIP_HEIGHT = TWO_LINES
    CHIP_GAP = 3
    CELL_PADDING = 4

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("monthView")
        self.setAccessibleName("Month calendar")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumSize(7 * 44, 6 * 40)
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
        self._dragging: str | None = None
        self._drag: DragState | None = None
        self._busy: frozenset[str] = frozenset()
        self._marked: frozenset[str] = frozenset()
        self._chip_pixmaps = ChipPixmaps()
        self._chip_height = self.TWO_LINE_CHIP_HEIGHT
        self.interaction = ChipInteraction(self, self, self)
        self.interaction.postClicked.connect(self.postClicked)
        self.interaction.postToggled.connect(self.postToggled)
        self.interaction.postExtended.connect(self.postExtended)
        self.interaction.postActivated.connect(self.postActivated)
        self.interaction.dayClicked.connect(self.dayClicked)
        self.interaction.dayActivated.connect(self.dayActivated)
        self.interaction.moveRequested.connect(self.moveRequested)

    # -- data ------------------------------------------------------------------------------
    def set_month(self, year: int, month: int, today: date) -> None:
        if (year, month, today) == (self._year, self._month, self._today):
            return  # a reload of the same month: set_entries repaints what changed
        self._year, self._month, self._today = year, month, today
        self._days = month_grid_dates(year, month)
        self._invalidate()

    def set_entries(self, entries: list[Entry]) -> None:
        """Show `entries`; only the days whose posts changed are laid out and repainted again
        (an entry is a new object when its post changed, see `EntryCache`)."""
        by_day = _group_by_day(entries)
        previous, self._by_day = self._by_day, by_day
        if self._layout_dirty:
            self.update()
            return
        for cell in self._cells:
            if not _same(by_day.get(cell.day, []), previous.get(cell.day, [])):
                cell.chips, cell.hidden, cell.more_rect = [], 0, None
                self._layout_cell(cell, by_day.get(cell.day, []))
                self.update(cell.rect)

    def change_entries(self, removed: list[Entry], added: list[Entry]) -> None:
        """`set_entries` for a few posts: `removed` leave their days, `added` join theirs."""
        gone = {entry.id for entry in removed}
        days = {entry.day for entry in removed} | {entry.day for entry in added}
        by_day = self._by_day
        for day in days:
            if day is None:
                continue
            kept = [entry for entry in by_day.get(day, []) if entry.id not in gone]
            kept.extend(entry for entry in added if entry.day == day)
            kept.sort(key=_shown_order)
            if kept:
                by_day[day] = kept
            else:
                by_day.pop(day, None)
        if self._layout_dirty:
            self.update()
            return
        for cell in self._cells:
            if cell.day in days:
                cell.chips, cell.hidden, cell.more_rect = [], 0, None
                self._layout_cell(cell, by_day.get(cell.day, []))
                self.update(cell.rect)

    def set_selected(self, post_id: str | None) -> None:
        if post_id != self._selected:
            changed = {self._selected, post_id}
            self._selected = post_id
            self._lay_out_again({id_ for id_ in changed if id_ is not None})
            self._update_chips(changed)

    def set_thumbnails(self, source: ThumbnailSource | None) -> None:
        """Media thumbnails for chips wide enough to show one (see `month_chip`); call
        `thumbnails_changed` when the source has more of them ready."""
        if source is not self._chip_pixmaps.thumbnails:
            self._chip_pixmaps.thumbnails = source
            self.update()

    def thumbnails_changed(self) -> None:
        self.update()  # the chips whose thumbnail arrived get a new key in the pixmap cache

    def _lay_out_again(self, post_ids: set[str]) -> None:
        """Lay out again the busy days holding `post_ids`: a hidden post that is selected
        takes the last slot of its day."""
        if self._layout_dirty or not post_ids:
            return
        for cell in self._cells:
            entries = self._by_day.get(cell.day, [])
            if cell.hidden and any(entry.id in post_ids for entry in entries):
                cell.chips, cell.hidden, cell.more_rect = [], 0, None
                self._layout_cell(cell, entries)
                self.update(cell.rect)

    def set_marked(self, post_ids: frozenset[str]) -> None:
        """The posts of a multi-selection, drawn as selected."""
        if post_ids != self._marked:
            changed = post_ids ^ self._marked
            self._marked = post_ids
            self._update_chips(changed)

    def set_busy(self, post_ids: frozenset[str]) -> None:
        if post_ids != self._busy:
            changed = post_ids ^ self._busy
            self._busy = post_ids
            self._update_chips(changed)

    def _update_chips(self, post_ids: set[str | None] | frozenset[str]) -> None:
        """Repaint the chips of `post_ids` alone (a whole month of chips takes ~10 ms)."""
        if self._layout_dirty:
            self.update()
            return
        for cell in self._cells:
            for rect, entry in cell.chips:
                if entry.id in post_ids:
                    self.update(rect.adjusted(-2, -2, 2, 2))

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

    def _geometry(self) -> MonthGeometry:
        return MonthGeometry(tuple(self._days), self.width(), self.height(), self.HEADER_HEIGHT)

    def _ensure_layout(self) -> None:
        if not self._layout_dirty:
            return
        self._layout_dirty = False
        self._cells = self._laid_out(self._days, self._by_day)

    def _laid_out(self, days: list[date], by_day: dict[date, list[Entry]]) -> list[_Cell]:
        geometry = MonthGeometry(tuple(days), self.width(), self.height(), self.HEADER_HEIGHT)
        cells = []
        for index, day in enumerate(days):
            left, top, right, bottom = geometry.cell(index)
            cell = _Cell(day, QRect(left, top, right - left, bottom - top))
            self._layout_cell(cell, by_day.get(day, []))
            cells.append(cell)
        return cells

    def prepare(self, year: int, month: int, entries: list[Entry]) -> Iterator[None]:
        """Paint the chips another month would show into the chip cache, a few per step
        (yields in between: the page runs the steps while it idles), so that switching to that
        month only copies them (see `ChipPixmaps`)."""
        if not self.isVisible():
            return
        chip_font = small_font(self.font())
        font_key = chip_font.key()
        palette = self.palette()
        cells = self._laid_out(month_grid_dates(year, month), _group_by_day(entries))
        chips = [chip for cell in cells for chip in cell.chips]
        started = time.perf_counter()
        for number, (rect, entry) in enumerate(chips, start=1):
            self._chip_pixmaps.prepare(
                rect,
                entry,
                palette,
                chip_font,
                font_key,
                self.devicePixelRatioF(),
                selected=entry.id == self._selected or entry.id in self._marked,
                busy=entry.id in self._busy,
            )
            if number % CHIPS_PER_STEP == 0 or time.perf_counter() - started > STEP_BUDGET_S:
                yield
                started = time.perf_counter()

    def chip_height(self) -> int:
        """The height of every chip in the grid as it is now sized (see `_layout_cell`)."""
        self._ensure_layout()
        return self._chip_height

    def _layout_cell(self, cell: _Cell, entries: list[Entry]) -> None:
        pad = self.CELL_PADDING
        rect = cell.rect
        chip_left = rect.left() + pad
        chip_width = rect.width() - 2 * pad
        first_top = rect.top() + self.DAY_LABEL_HEIGHT
        room = rect.bottom() - pad - first_top + 1
        # One rule for every day: as many chips as fit, then "+N". Every chip has two lines
        # (icon and time, then the text over the rest: 20+ characters in a 1360-pixel
        # window's cell, where a one-line chip showed 9-11), so a busy day shows fewer chips
        # but readable ones. Only cells too low for one two-line chip get one-line chips.
        height = (
            self.TWO_LINE_CHIP_HEIGHT if room >= self.TWO_LINE_CHIP_HEIGHT else self.CHIP_HEIGHT
        )
        self._chip_height = height
        step = height + self.CHIP_GAP
        fits = max((room + self.CHIP_GAP) // step, 0)
        # Every slot holds a chip; the "+N" sits beside the day number when they do not all
        # fit (a slot of its own would cost a chip: at 1024 pixels a day of two posts showed
        # only "+2 more").
        shown = min(len(entries), fits)
        chosen = entries[:shown]
        if shown and self._selected is not None and self._selected not in (e.id for e in chosen):
            # The selected post (the arrows walk hidden ones too) takes the last slot, so the
            # selection is always seen; the count beside the day number stays the same.
            selected = next((e for e in entries[shown:] if e.id == self._selected), None)
            if selected is not None:
                chosen = [*chosen[:-1], selected]
        for index, entry in enumerate(chosen):
            top = first_top + index * step
            cell.chips.append((QRect(chip_left, top, chip_width, height), entry))
        cell.hidden = len(entries) - shown
        if cell.hidden:
            width = min(64, chip_width - 24)  # the day number keeps its place on the left
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
        muted = mix(base, text, 0.62)
        grid = mix(base, text, 0.12)
        painter.fillRect(self.rect(), base)
        self._paint_header(painter, muted, grid)
        exposed = event.rect()
        for cell in self._cells:
            if cell.rect.intersects(exposed):
                self._paint_cell(painter, cell, base, text, muted, grid)
        if self._drag is not None:
            font = small_font(self.font())
            paint_ghost(painter, self._drag, palette, font, self.rect(), paint_month_chip)
        if self.hasFocus():  # the focus ring: where the arrows and Enter go
            painter.setPen(QPen(focus_color(), 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self.rect().adjusted(1, 1, -1, -1))
        painter.end()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.update()

    def _paint_header(self, painter: QPainter, muted: QColor, grid: QColor) -> None:
        font = bold(small_font(self.font()))
        painter.setFont(font)
        painter.setPen(muted)
        width = self.width()
        for column, day in enumerate(self._days[:DAYS_PER_WEEK]):
            name = weekday_name(day)
            left, right = split_evenly(0, width, DAYS_PER_WEEK, column)
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
            painter.fillRect(rect, mix(base, today_color(), 0.06))
        painter.setPen(QPen(grid, 1))
        painter.drawLine(rect.topRight(), rect.bottomRight())
        painter.drawLine(rect.bottomLeft(), rect.bottomRight())

        self._paint_day_number(painter, cell, in_month, is_today, text, muted)
        chip_font = small_font(self.font())
        font_key = chip_font.key()
        palette = self.palette()
        for chip_rect, entry in cell.chips:
            self._chip_pixmaps.paint(
                painter,
                chip_rect,
                entry,
                palette,
                chip_font,
                font_key,
                selected=entry.id == self._selected or entry.id in self._marked,
                dragging=entry.id == self._dragging,
                busy=entry.id in self._busy,
            )
        if cell.more_rect is not None:
            more_font = bold(chip_font)
            more_font.setUnderline(self._hover_more == cell.day)
            painter.setFont(more_font)
            painter.setPen(accent_color() if in_month else muted)
            label = f"+{cell.hidden} more" if cell.more_rect.width() > 56 else f"+{cell.hidden}"
            painter.drawText(
                cell.more_rect.adjusted(0, 0, -2, 0),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                label,
            )
        if self._drop_day == cell.day:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setPen(QPen(accent_color(), 2))
            highlight = accent_color()
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
            label = day_and_month(cell.day)
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
            painter.setBrush(today_color())
            painter.drawRoundedRect(QRectF(box), box_height / 2, box_height / 2)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            painter.setPen(on_accent_color())
        else:
            painter.setPen(text if in_month else muted)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, label)

    # -- interaction (ChipSurface) ---------------------------------------------------------
    def is_busy(self, post_id: str) -> bool:
        return post_id in self._busy

    def take_press(self, pos: QPoint) -> bool:
        more_day = self._more_at(pos)
        if more_day is None:
            return False
        self.moreClicked.emit(more_day)
        return True

    def hover(self, pos: QPoint | None) -> bool:
        over = self._more_at(pos) if pos is not None else None
        if over != self._hover_more:
            self._hover_more = over
            self.update()
        return over is not None

    def drop_grid(self) -> _MonthDropGrid:
        return _MonthDropGrid(self._geometry())

    def show_drag(self, drag: DragState | None) -> None:
        self._drag = drag
        self._dragging = drag.post_id if drag is not None and drag.entry is not None else None
        self._drop_day = drag.target.day if drag is not None and drag.target is not None else None
        self.update()

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


def _shown_order(entry: Entry) -> tuple[bool, datetime | None]:
    return (entry.local is None, entry.local)


def _group_by_day(entries: list[Entry]) -> dict[date, list[Entry]]:
    by_day: dict[date, list[Entry]] = {}
    for entry in sorted(entries, key=_shown_order):
        if entry.day is not None:
            by_day.setdefault(entry.day, []).append(entry)
    return by_day


def _same(one: list[Entry], other: list[Entry]) -> bool:
    return len(one) == len(other) and all(a is b for a, b in zip(one, other, strict=True))


class _MonthDropGrid:
    """A month grid's cells as they were when a drag began: the day under the pointer."""

    def __init__(self, geometry: MonthGeometry) -> None:
        self._geometry = geometry

    def target_at(self, pos: QPoint, grab: QPoint) -> DropTarget | None:
        day = self._geometry.day_at(pos.x(), pos.y())
        return DropTarget(day) if day is not None else None
