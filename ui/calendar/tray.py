"""The "Unscheduled" tray: every post without a place on the calendar. Drafts drag from here onto
a day; a post whose "publish now" failed waits here with its red status bar."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from ui.calendar.entries import Entry
from ui.calendar.post_list import post_rows
from ui.calendar.post_list_view import PostListView


class TrayPanel(QFrame):
    def __init__(self, today: Callable[[], date], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trayPanel")
        self.setMinimumWidth(180)
        self.title = QLabel("Unscheduled")
        self.title.setObjectName("trayTitle")
        self.hint = QLabel("Drag a draft onto a day to give it a date.")
        self.hint.setObjectName("muted")
        self.hint.setWordWrap(True)
        self.list = PostListView(
            today, show_time=False, show_status=False, draggable=True, compact=True
        )
        self.list.setObjectName("trayList")
        self.empty = QLabel("No drafts without a date.")
        self.empty.setObjectName("muted")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 4, 8)
        layout.setSpacing(6)
        layout.addWidget(self.title)
        layout.addWidget(self.hint)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.empty, 1)
        self._shown: list[Entry] | None = None

    def show_entries(self, entries: list[Entry]) -> None:
        if self._shown is not None and _same(entries, self._shown):
            return  # a reload that changed no draft: no model reset, no repaint
        self._shown = list(entries)
        self.list.set_rows(post_rows(entries))
        self.list.setVisible(bool(entries))
        self.empty.setVisible(not entries)
        self.title.setText(f"Unscheduled ({len(entries)})")


def _same(one: list[Entry], other: list[Entry]) -> bool:
    """The same entries (objects: an entry is rebuilt when its post changed), in order."""
    return len(one) == len(other) and all(a is b for a, b in zip(one, other, strict=True))
