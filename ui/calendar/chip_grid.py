"""What month and week views share: press, click, drag, drop, tooltip and hit testing of chips.

A press only remembers what was pressed. A release without a drag is a click (the page opens the
details then, never on press: opening them narrows the grid under the pointer). A drag inside a
view is followed with the mouse itself rather than a `QDrag`, and the drop target is computed on
the grid geometry frozen when the drag began, so whatever changes the layout meanwhile (the
detail panel, a sync's reload, a resize) cannot move the drop. Drops from elsewhere (the
unscheduled tray) arrive as Qt drag-and-drop events (the views forward their handlers to
`outside_drop`) and use the grid as it was when they entered the view.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import NamedTuple, Protocol

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPalette,
)
from PySide6.QtWidgets import QApplication, QWidget

from ui.calendar.drag import DropTarget, post_id_from_mime
from ui.calendar.entries import Entry
from ui.calendar.style import accent_color, paint_chip, paint_pill
from ui.calendar.tooltips import entry_tooltip
from ui.locale_text import time_text, weekday_day_month


class DropGrid(Protocol):
    def target_at(self, pos: QPoint, grab: QPoint) -> DropTarget | None:
        """Where a chip held at `grab` (offset inside the chip) lands with the pointer at `pos`."""
        ...


class ChipSurface(Protocol):
    """What a view offers the interaction (positions in the surface's coordinates)."""

    def entry_at(self, pos: QPoint) -> Entry | None: ...

    def chip_rect(self, post_id: str) -> QRect: ...

    def day_at(self, pos: QPoint) -> date | None: ...

    def drop_grid(self) -> DropGrid: ...

    def is_busy(self, post_id: str) -> bool: ...

    def take_press(self, pos: QPoint) -> bool:
        """Handle a press on a view-specific area (e.g. "+3 more"); True when handled."""
        ...

    def hover(self, pos: QPoint | None) -> bool:
        """Track the pointer for view-specific hover; True when it is over something clickable."""
        ...

    def show_drag(self, drag: DragState | None) -> None:
        """Repaint with the drag's feedback (None: the drag ended)."""
        ...


class DragState(NamedTuple):
    post_id: str
    entry: Entry | None  # None for a drop from another widget
    grab: QPoint  # where the chip is held, relative to its top left
    chip_size: QSize
    pos: QPoint
    target: DropTarget | None

    def ghost_rect(self) -> QRect:
        return QRect(self.pos - self.grab, self.chip_size)


class _Press(NamedTuple):
    pos: QPoint
    entry: Entry
    grab: QPoint
    chip_size: QSize
    grid: DropGrid  # the geometry when the button went down
    modifiers: Qt.KeyboardModifier  # Ctrl toggles the post in the multi-selection, Shift extends


class ChipInteraction(QObject):
    postClicked = Signal(str)
    postToggled = Signal(str)  # Ctrl+click
    postExtended = Signal(str)  # Shift+click
    postActivated = Signal(str)
    dayClicked = Signal(object)
    dayActivated = Signal(object)
    moveRequested = Signal(str, object)  # post id, DropTarget

    def __init__(self, view: ChipSurface, surface: QWidget, focus: QWidget) -> None:
        super().__init__(surface)
        self._view = view
        self._surface = surface
        self._press: _Press | None = None
        self._drag: DragState | None = None
        self._outside: DragState | None = None
        self._outside_grid: DropGrid | None = None  # frozen when that drag entered the view
        surface.setMouseTracking(True)
        surface.setAcceptDrops(True)
        surface.installEventFilter(self)
        if focus is not surface:
            focus.installEventFilter(self)

    # -- state -----------------------------------------------------------------------------
    def drag(self) -> DragState | None:
        """The drag in progress (ours or one from another widget), for painting."""
        return self._drag or self._outside

    def dragged_id(self) -> str | None:
        return self._drag.post_id if self._drag is not None else None

    def cancel(self) -> None:
        was = self._drag is not None or self._outside is not None
        self._press = None
        self._drag = None
        self._outside = None
        if was:
            self._surface.unsetCursor()
            self._view.show_drag(None)

    # -- events ----------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            # Escape cancels a drag here before the page's Escape (close the details) sees it.
            if event.key() == Qt.Key.Key_Escape and self._drag is not None:
                event.accept()
            return False
        if kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() == Qt.Key.Key_Escape and self._drag is not None:
                self.cancel()
                return True
            return False
        if watched is not self._surface:
            return False
        if isinstance(event, QMouseEvent):
            return self._mouse(kind, event)
        if kind == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            self._tooltip(event)
            return True
        if kind in (QEvent.Type.Leave, QEvent.Type.Hide) and self._drag is None:
            self._view.hover(None)
        if kind == QEvent.Type.Hide:
            self.cancel()
        return False

    def _mouse(self, kind: QEvent.Type, event: QMouseEvent) -> bool:
        pos = event.position().toPoint()
        if kind == QEvent.Type.MouseButtonPress:
            if event.button() != Qt.MouseButton.LeftButton:
                return False
            self._pressed(pos, event.modifiers())
            return True
        if kind == QEvent.Type.MouseMove:
            self._moved(pos, bool(event.buttons() & Qt.MouseButton.LeftButton))
            return True
        if kind == QEvent.Type.MouseButtonRelease:
            if event.button() != Qt.MouseButton.LeftButton:
                return False
            self._released(pos)
            return True
        if kind == QEvent.Type.MouseButtonDblClick and event.button() == Qt.MouseButton.LeftButton:
            self._double_clicked(pos)
            return True
        return False

    def _pressed(self, pos: QPoint, modifiers: Qt.KeyboardModifier) -> None:
        self.cancel()
        if self._view.take_press(pos):
            return
        entry = self._view.entry_at(pos)
        if entry is None:
            day = self._view.day_at(pos)
            if day is not None:
                self.dayClicked.emit(day)
            return
        chip = self._view.chip_rect(entry.id)
        grid = self._view.drop_grid()
        self._press = _Press(pos, entry, pos - chip.topLeft(), chip.size(), grid, modifiers)

    def _moved(self, pos: QPoint, held: bool) -> None:
        press = self._press
        if self._drag is not None and press is not None:
            target = press.grid.target_at(pos, press.grab)
            self._drag = self._drag._replace(pos=pos, target=target)
            self._view.show_drag(self._drag)
            return
        if press is not None and held:
            far = (pos - press.pos).manhattanLength() >= QApplication.startDragDistance()
            if far and press.entry.draggable and not self._view.is_busy(press.entry.id):
                self._drag = DragState(
                    press.entry.id,
                    press.entry,
                    press.grab,
                    press.chip_size,
                    pos,
                    press.grid.target_at(pos, press.grab),
                )
                self._surface.setCursor(Qt.CursorShape.ClosedHandCursor)
                self._view.show_drag(self._drag)
            return
        over = self._view.hover(pos) or self._view.entry_at(pos) is not None
        self._surface.setCursor(
            Qt.CursorShape.PointingHandCursor if over else Qt.CursorShape.ArrowCursor
        )

    def refresh_drag(self) -> None:
        """Aim again at the pointer's last position (the view scrolled under it)."""
        if self._drag is not None and self._press is not None:
            target = self._press.grid.target_at(self._drag.pos, self._press.grab)
            self._drag = self._drag._replace(target=target)
            self._view.show_drag(self._drag)

    def _released(self, pos: QPoint) -> None:
        press, drag = self._press, self._drag
        self._press = None
        if drag is not None and press is not None:
            target = press.grid.target_at(pos, press.grab)
            self.cancel()
            if target is not None:
                self.moveRequested.emit(drag.post_id, target)
            return
        if press is not None:
            released_on = self._view.entry_at(pos)
            near = (pos - press.pos).manhattanLength() < QApplication.startDragDistance()
            if near or (released_on is not None and released_on.id == press.entry.id):
                if press.modifiers & Qt.KeyboardModifier.ControlModifier:
                    self.postToggled.emit(press.entry.id)
                elif press.modifiers & Qt.KeyboardModifier.ShiftModifier:
                    self.postExtended.emit(press.entry.id)
                else:
                    self.postClicked.emit(press.entry.id)

    def _double_clicked(self, pos: QPoint) -> None:
        self.cancel()
        entry = self._view.entry_at(pos)
        if entry is not None:
            self.postActivated.emit(entry.id)
            return
        if self._view.take_press(pos):
            return
        day = self._view.day_at(pos)
        if day is not None:
            self.dayActivated.emit(day)

    def _tooltip(self, event: QHelpEvent) -> None:
        from PySide6.QtWidgets import QToolTip  # at the first hover, not before the first paint

        entry = self._view.entry_at(event.pos()) if self._drag is None else None
        if entry is not None:
            QToolTip.showText(event.globalPos(), entry_tooltip(entry), self._surface)
        else:
            QToolTip.hideText()
            event.ignore()

    # -- drops from other widgets (the views forward their drag-and-drop handlers here) -------
    def drag_left(self) -> None:
        self._outside_grid = None
        if self._outside is not None:
            self._outside = None
            self._view.show_drag(None)

    def outside_drop(self, event: QDropEvent) -> None:
        """A drag enter, move or drop of a post dragged from another widget (the tray)."""
        kind = event.type()
        post_id = post_id_from_mime(event.mimeData())
        pos = event.position().toPoint()
        if kind == QEvent.Type.DragEnter or self._outside_grid is None:
            self._outside_grid = self._view.drop_grid()
        target = self._outside_grid.target_at(pos, QPoint(0, 0)) if post_id else None
        if kind == QEvent.Type.Drop:
            self._outside_grid = None
            self._outside = None
            self._view.show_drag(None)
            if post_id is None or target is None:
                event.ignore()
                return
            event.setDropAction(Qt.DropAction.MoveAction)
            event.accept()
            self.moveRequested.emit(post_id, target)
            return
        if post_id is None:
            event.ignore()
            return
        if kind == QEvent.Type.DragEnter and isinstance(event, QDragEnterEvent):
            event.setDropAction(Qt.DropAction.MoveAction)
            event.accept()  # accepted on the whole widget; moves say where it may land
        elif isinstance(event, QDragMoveEvent):
            if target is None:
                event.ignore()
            else:
                event.setDropAction(Qt.DropAction.MoveAction)
                event.accept()
        state = DragState(post_id, None, QPoint(0, 0), QSize(), pos, target)
        if state != self._outside:
            self._outside = state
            self._view.show_drag(state)


class ChipPainter(Protocol):
    def __call__(
        self,
        painter: QPainter,
        rect: QRect,
        entry: Entry,
        palette: QPalette,
        font: QFont,
        *,
        selected: bool = False,
    ) -> None: ...


def paint_ghost(
    painter: QPainter,
    drag: DragState,
    palette: QPalette,
    font: QFont,
    bounds: QRect,
    paint: ChipPainter = paint_chip,
) -> None:
    """The dragged chip under the pointer (drawn by `paint`, as the view draws its chips),
    translucent, kept inside the view."""
    if drag.entry is None or drag.chip_size.isEmpty():
        return
    rect = drag.ghost_rect()
    rect.moveLeft(max(bounds.left(), min(rect.left(), bounds.right() - rect.width())))
    painter.save()
    painter.setOpacity(0.85)
    paint(painter, rect, drag.entry, palette, font, selected=True)
    painter.restore()
    label = drop_label(drag)
    if label:  # where it would land, above the ghost (below it at the top of the view)
        metrics = QFontMetrics(font)
        width, height = metrics.horizontalAdvance(label) + 14, metrics.height() + 4
        top = (
            rect.top() - height - 3
            if rect.top() - height - 3 >= bounds.top()
            else rect.bottom() + 3
        )
        pill = QRectF(rect.left(), top, width, height)
        paint_pill(painter, pill, label, accent_color(), font, filled=True)


def drop_label(drag: DragState) -> str:
    """ "Wed 22 Oct 09:30": the time a drop here would give the post."""
    target, entry = drag.target, drag.entry
    if target is None:
        return ""
    day = weekday_day_month(target.day)
    if target.minutes is not None:
        hours, minutes = divmod(target.minutes, 60)
        return f"{day} {time_text(datetime(2000, 1, 1, hours, minutes))}"
    if entry is not None and entry.local is not None:
        return f"{day} {time_text(entry.local)}"
    return day
