"""A list view of posts (agenda, tray, day popup) that reports clicks by post id.

A click is reported on release, like in the calendar grids: the list selects a row on press,
and reporting that would open the detail panel (and narrow the calendar) under a drag from the
tray before it even began.

A list made with `picks_several` (the agenda) reports Ctrl+click as `postToggled` and
Shift+click as `postExtended`, as the grids do; the page keeps the picked posts
(`ui.calendar.multi_select`) and hands them back through `set_marked`. The list's own selection
stays the one selected post.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from PySide6.QtCore import QItemSelection, QModelIndex, Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QAbstractItemView, QFrame, QListView, QWidget

from ui.calendar.post_list import POST_ID_ROLE, PostListModel, PostRowDelegate, Row

_CTRL = Qt.KeyboardModifier.ControlModifier
_SHIFT = Qt.KeyboardModifier.ShiftModifier


class PostListView(QListView):
    postClicked = Signal(str)
    postActivated = Signal(str)
    postToggled = Signal(str)  # Ctrl+click (with `picks_several`)
    postExtended = Signal(str)  # Shift+click (with `picks_several`)

    def __init__(
        self,
        today: Callable[[], date],
        parent: QWidget | None = None,
        *,
        show_time: bool = True,
        show_status: bool = True,
        draggable: bool = False,
        compact: bool = False,
        picks_several: bool = False,
    ) -> None:
        super().__init__(parent)
        self.picks_several = picks_several
        self.post_model = PostListModel(self, draggable=draggable)
        self.setModel(self.post_model)
        self.setItemDelegate(
            PostRowDelegate(
                today, self, show_time=show_time, show_status=show_status, compact=compact
            )
        )
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMouseTracking(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setUniformItemSizes(False)
        if draggable:
            self.setDragEnabled(True)
            self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
            self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self._quiet = False
        self._pressing = False
        self._picking: tuple[str, bool] | None = None  # post id, Shift (else Ctrl) on press
        self.clicked.connect(self._on_clicked)
        self.activated.connect(self._on_activated)
        self.doubleClicked.connect(self._on_activated)
        self.selectionModel().selectionChanged.connect(self._on_selection_changed)

    def set_rows(self, rows: list[Row], *, keep_scroll: bool = True) -> None:
        scroll = self.verticalScrollBar().value()
        selected = self.selected_post_id()
        self._quiet = True
        try:
            self.post_model.set_rows(rows)
            self._select_row(self.post_model.row_of(selected))
        finally:
            self._quiet = False
        if keep_scroll:
            self.verticalScrollBar().setValue(scroll)

    def set_marked(self, marked: frozenset[str]) -> None:
        """The posts picked for an action on several, painted as selected."""
        self.post_model.set_marked(marked)

    def set_selected(self, post_id: str | None) -> None:
        if post_id == self.selected_post_id():
            return
        self._quiet = True
        try:
            self._select_row(self.post_model.row_of(post_id))
        finally:
            self._quiet = False

    def selected_post_id(self) -> str | None:
        for index in self.selectionModel().selectedIndexes():
            value = index.data(POST_ID_ROLE)
            if isinstance(value, str):
                return value
        return None

    def scroll_to_post(self, post_id: str) -> None:
        row = self.post_model.row_of(post_id)
        if row >= 0:
            self.scrollTo(self.post_model.index(row), QAbstractItemView.ScrollHint.PositionAtTop)

    def _select_row(self, row: int) -> None:
        if row < 0:
            self.clearSelection()
            return
        index = self.post_model.index(row)
        self.selectionModel().select(index, self.selectionModel().SelectionFlag.ClearAndSelect)
        self.selectionModel().setCurrentIndex(index, self.selectionModel().SelectionFlag.NoUpdate)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        post_id = self._picked_at(event)
        if post_id is not None:
            # Not the list's own Ctrl/Shift handling: it would change its single selection.
            self._picking = (post_id, not event.modifiers() & _CTRL)
            self.setFocus(Qt.FocusReason.MouseFocusReason)
            event.accept()
            return
        self._pressing = True  # the selection it makes is reported by `clicked`, on release
        try:
            super().mousePressEvent(event)
        finally:
            self._pressing = False

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._picking is None:  # a held Ctrl/Shift+press selects nothing on its way
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._picking is None:
            super().mouseReleaseEvent(event)
            return
        post_id, extend = self._picking
        self._picking = None
        event.accept()
        if self.indexAt(event.position().toPoint()).data(POST_ID_ROLE) == post_id:
            (self.postExtended if extend else self.postToggled).emit(post_id)

    def _picked_at(self, event: QMouseEvent) -> str | None:
        """The post under a Ctrl/Shift+press of the left button, in a list that picks several."""
        if not self.picks_several or event.button() != Qt.MouseButton.LeftButton:
            return None
        if not event.modifiers() & (_CTRL | _SHIFT):
            return None
        post_id = self.indexAt(event.position().toPoint()).data(POST_ID_ROLE)
        return post_id if isinstance(post_id, str) else None

    def _on_clicked(self, index: QModelIndex) -> None:
        post_id = index.data(POST_ID_ROLE)
        if isinstance(post_id, str):
            self.postClicked.emit(post_id)

    def _on_activated(self, index: QModelIndex) -> None:
        post_id = index.data(POST_ID_ROLE)
        if isinstance(post_id, str):
            self.postActivated.emit(post_id)

    def _on_selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        # Keyboard moves select too; a programmatic selection (reload) must stay silent.
        if self._quiet or self._pressing:
            return
        for index in selected.indexes():
            post_id = index.data(POST_ID_ROLE)
            if isinstance(post_id, str):
                self.postClicked.emit(post_id)
                return
