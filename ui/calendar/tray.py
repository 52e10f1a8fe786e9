"""The "Unscheduled" tray: every post without a place on the calendar. Drafts drag from here onto
a day; a post whose "publish now" failed waits here with its red status bar.

Its list (a list view with its item delegate and model: ~10 ms of imports and set-up, `QStyle`'s
enums among them) is built just after the tray is first painted, or when first asked for: the
first frame shows the month at once, the tray's title and count with it, its rows a moment later.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from ui.calendar.entries import Entry

if TYPE_CHECKING:
    from ui.calendar.post_list_view import PostListView


class TrayPanel(QFrame):
    def __init__(
        self,
        today: Callable[[], date],
        parent: QWidget | None = None,
        *,
        list_built: Callable[[PostListView], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("trayPanel")
        self.setMinimumWidth(180)
        self._today = today
        self._list_built = list_built
        self.title = QLabel("Unscheduled")
        self.title.setObjectName("trayTitle")
        self.hint = QLabel("Drag a draft onto a day to give it a date.")
        self.hint.setObjectName("muted")
        self.hint.setWordWrap(True)
        # The list's place (and stretch) in the layout and in the Tab order, from the start.
        self._room = QWidget()
        room = QVBoxLayout(self._room)
        room.setContentsMargins(0, 0, 0, 0)
        self._list: PostListView | None = None
        self.empty = QLabel("No drafts without a date.")
        self.empty.setObjectName("muted")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 4, 8)
        layout.setSpacing(6)
        layout.addWidget(self.title)
        layout.addWidget(self.hint)
        layout.addWidget(self._room, 1)
        layout.addWidget(self.empty, 1)
        self._shown: list[Entry] | None = None
        self._selected: str | None = None
        self._build_planned = False

    @property
    def list(self) -> PostListView:
        if self._list is None:
            self._build_list()
        assert self._list is not None
        return self._list

    def list_is_built(self) -> bool:
        return self._list is not None

    def _build_list(self) -> None:
        if self._list is not None:
            return
        from ui.calendar.post_list import post_rows
        from ui.calendar.post_list_view import PostListView

        view = PostListView(
            self._today, show_time=False, show_status=False, draggable=True, compact=True
        )
        view.setObjectName("trayList")
        view.setAccessibleName("Unscheduled posts")
        view.set_rows(post_rows(self._shown or []))
        view.set_selected(self._selected)
        room = self._room.layout()
        assert isinstance(room, QVBoxLayout)
        room.addWidget(view)
        view.show()
        # Tab reaches it where it did when it was built with the panel (a widget added later
        # would come last in the window).
        before = _focusable_before(self._room)
        if before is not None:
            QWidget.setTabOrder(before, view)
        self._list = view
        if self._list_built is not None:
            self._list_built(view)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._list is None and not self._build_planned:
            # Right after this paint pass: the rows never hold up the window's first frame.
            self._build_planned = True
            QTimer.singleShot(0, self, self._build_list)

    def show_entries(self, entries: Sequence[Entry]) -> None:
        if self._shown is not None and _same(entries, self._shown):
            return  # a reload that changed no draft: no model reset, no repaint
        self._shown = list(entries)
        if self._list is not None:
            from ui.calendar.post_list import post_rows

            self._list.set_rows(post_rows(entries))
        self._room.setVisible(bool(entries))
        self.empty.setVisible(not entries)
        self.title.setText(f"Unscheduled ({len(entries)})")

    def set_selected(self, post_id: str | None) -> None:
        self._selected = post_id
        if self._list is not None:
            self._list.set_selected(post_id)


def _focusable_before(widget: QWidget) -> QWidget | None:
    """The widget that Tab leaves just before reaching `widget`'s place, if any."""
    window = widget.window()
    previous = widget.previousInFocusChain()
    while previous is not None and previous is not widget and previous is not window:
        if previous.focusPolicy() & Qt.FocusPolicy.TabFocus:
            return previous
        previous = previous.previousInFocusChain()
    return None


def _same(one: Sequence[Entry], other: Sequence[Entry]) -> bool:
    """The same entries (objects: an entry is rebuilt when its post changed), in order."""
    return len(one) == len(other) and all(a is b for a, b in zip(one, other, strict=True))
