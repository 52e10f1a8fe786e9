"""What the calendar shows, as one small evented object (napari-style): the page, the toolbar and
the views subscribe to its signals instead of each keeping a copy.

Setters emit only on a real change, so a subscriber may set a value it was just told about
without starting a loop.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QObject, Signal

from app.calendar.grid import ViewKind
from ui.calendar.filters import PostFilter


class CalendarState(QObject):
    viewChanged = Signal(object)  # ViewKind
    anchorChanged = Signal(object)  # date
    filterChanged = Signal(object)  # PostFilter
    selectionChanged = Signal(object)  # str | None
    markedChanged = Signal(object)  # frozenset[str]: the posts picked for an action on several
    busyChanged = Signal(str, bool)  # post id, busy
    neverSyncedChanged = Signal(bool)

    def __init__(self, anchor: date, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._view = ViewKind.MONTH
        self._anchor = anchor
        self._filter = PostFilter()
        self._selection: str | None = None
        self._marked: frozenset[str] = frozenset()
        self._busy: set[str] = set()
        self._never_synced = False

    @property
    def view(self) -> ViewKind:
        return self._view

    @view.setter
    def view(self, value: ViewKind) -> None:
        if value is not self._view:
            self._view = value
            self.viewChanged.emit(value)

    @property
    def anchor(self) -> date:
        return self._anchor

    @anchor.setter
    def anchor(self, value: date) -> None:
        if value != self._anchor:
            self._anchor = value
            self.anchorChanged.emit(value)

    @property
    def filter(self) -> PostFilter:
        return self._filter

    @filter.setter
    def filter(self, value: PostFilter) -> None:
        if value != self._filter:
            self._filter = value
            self.filterChanged.emit(value)

    @property
    def selection(self) -> str | None:
        return self._selection

    @selection.setter
    def selection(self, value: str | None) -> None:
        if value != self._selection:
            self._selection = value
            self.selectionChanged.emit(value)

    @property
    def marked(self) -> frozenset[str]:
        """Posts picked with Ctrl/Shift+click or Ctrl+A (`ui.calendar.multi_select`); empty when
        only the one selected post is acted on."""
        return self._marked

    @marked.setter
    def marked(self, value: frozenset[str]) -> None:
        if value != self._marked:
            self._marked = frozenset(value)
            self.markedChanged.emit(self._marked)

    @property
    def never_synced(self) -> bool:
        return self._never_synced

    @never_synced.setter
    def never_synced(self, value: bool) -> None:
        if value != self._never_synced:
            self._never_synced = value
            self.neverSyncedChanged.emit(value)

    def is_busy(self, post_id: str) -> bool:
        return post_id in self._busy

    def busy_ids(self) -> frozenset[str]:
        return frozenset(self._busy)

    def set_busy(self, post_id: str, busy: bool) -> None:
        if busy == (post_id in self._busy):
            return
        if busy:
            self._busy.add(post_id)
        else:
            self._busy.discard(post_id)
        self.busyChanged.emit(post_id, busy)
