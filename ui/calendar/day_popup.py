"""The "+N more" popup: every post of one day in a small floating list."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from ui.calendar.entries import Entry
from ui.calendar.post_list import day_title, post_rows
from ui.calendar.post_list_view import PostListView


class DayPopup(QFrame):
    postClicked = Signal(str)
    postActivated = Signal(str)

    def __init__(self, today: Callable[[], date], parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("dayPopup")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel()
        self.title.setObjectName("dayPopupTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.list = PostListView(today, self, compact=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 10, 8, 8)
        layout.setSpacing(6)
        layout.addWidget(self.title)
        layout.addWidget(self.list)
        self.list.postClicked.connect(self._clicked)
        self.list.postActivated.connect(self._activated)
        self.day: date | None = None

    def show_day(self, day: date, entries: list[Entry], at: QPoint, selected: str | None) -> None:
        self.day = day
        count = len(entries)
        self.title.setText(f"{day_title(day)} · {count} post{'s' if count != 1 else ''}")
        self.list.set_rows(post_rows(entries), keep_scroll=False)
        self.list.set_selected(selected)
        height = min(56 + count * 50, 420)
        self.resize(440, height)
        self.move(at)
        self.show()
        self.list.setFocus()

    def post_ids(self) -> list[str]:
        return self.list.post_model.post_ids()

    def _clicked(self, post_id: str) -> None:
        self.postClicked.emit(post_id)

    def _activated(self, post_id: str) -> None:
        self.postActivated.emit(post_id)
        self.close()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close()
            return
        super().keyPressEvent(event)
