"""The bar shown while several posts are picked: how many, what can be done to all of them, the
progress of a run and, after it, what was refused, post by post."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMenu,
    QProgressBar,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ui.calendar.commands import keys_text

if TYPE_CHECKING:
    from ui.calendar.bulk import BulkReport


LabelChoice = tuple[str, str, QIcon]  # id, name, icon

_PAST = {
    "Moved": "moved",
    "Deleted": "deleted",
    "Duplicated": "duplicated",
    "Moved back to draft": "moved back to draft",
    "Labelled": "changed",
    "Unlabelled": "changed",
}


def posts_text(count: int) -> str:
    return "1 post" if count == 1 else f"{count} posts"


def short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class BulkBar(QWidget):
    """In the filters' row while two posts or more are picked (the grid does not move under a
    Ctrl+click): the count and the actions, then the run's progress."""

    moveRequested = Signal(int)  # days
    labelRequested = Signal(str, bool)  # label id, add (False: remove)
    toDraftRequested = Signal()
    duplicateRequested = Signal()
    deleteRequested = Signal()
    clearRequested = Signal()
    shownChanged = Signal(bool)

    def __init__(self, labels: Callable[[], list[LabelChoice]], parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("bulkBar")
        self.setAccessibleName("Selected posts")
        self._labels = labels
        self.count_label = QLabel(self)
        self.count_label.setObjectName("bulkCount")
        self.earlier = self._button(
            "◀ Day",
            "Move the selected posts a day earlier" + keys_text("move.day_earlier"),
            lambda: self.moveRequested.emit(-1),
        )
        self.later = self._button(
            "Day ▶",
            "Move the selected posts a day later" + keys_text("move.day_later"),
            lambda: self.moveRequested.emit(1),
        )
        self.labels = QToolButton(self)
        self.labels.setText("Label ▾")
        self.labels.setAccessibleName("Add or remove a label on the selected posts")
        self.labels.setToolTip(self.labels.accessibleName())
        self.labels.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.labels.setFocusPolicy(self.earlier.focusPolicy())
        menu = QMenu(self.labels)
        menu.setAccessibleName("Labels")
        menu.aboutToShow.connect(lambda: self._fill(menu))
        self.labels.setMenu(menu)
        self.label_menu = menu
        self.to_draft = self._button(
            "To draft", "Move the selected posts back to draft", self.toDraftRequested.emit
        )
        self.duplicate = self._button(
            "Duplicate", "Duplicate the selected posts", self.duplicateRequested.emit
        )
        self.delete = self._button(
            "Delete…",
            "Delete the selected posts, after asking" + keys_text("delete"),
            self.deleteRequested.emit,
        )
        self.clear = self._button(
            "✕", "Clear the selection" + keys_text("close_detail"), self.clearRequested.emit
        )
        self.progress = QProgressBar(self)
        self.progress.setAccessibleName("Progress of the action on the selected posts")
        self.progress.setTextVisible(True)
        self.progress.setMinimumWidth(160)
        self.progress.hide()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(6)
        row.addWidget(self.count_label)
        self._actions: list[QWidget] = [
            self.earlier,
            self.later,
            self.labels,
            self.to_draft,
            self.duplicate,
            self.delete,
        ]
        for widget in self._actions:
            row.addWidget(widget)
        row.addWidget(self.progress, 1)
        row.addStretch(0)
        row.addWidget(self.clear)
        self._count = 0

    def _button(self, text: str, name: str, slot: Callable[[], object]) -> QPushButton:
        button = QPushButton(text, self)
        button.setAccessibleName(name)
        button.setToolTip(name)
        button.clicked.connect(slot)
        return button

    def label_choices(self) -> list[LabelChoice]:
        return self._labels()

    def _fill(self, menu: QMenu) -> None:
        menu.clear()
        choices = self._labels()
        if not choices:
            menu.addAction("No labels in this workspace").setEnabled(False)
            return
        for title, add in (("Add", True), ("Remove", False)):
            part = menu.addMenu(f"{title} label")
            part.setAccessibleName(f"{title} label")
            for label_id, name, icon in choices:
                action = part.addAction(icon, name)
                action.triggered.connect(
                    lambda _checked=False, i=label_id, a=add: self.labelRequested.emit(i, a)
                )

    # -- what is shown ---------------------------------------------------------------------
    def show_count(self, count: int) -> None:
        self._count = count
        self.count_label.setText(f"{posts_text(count)} selected")
        shown = count >= 2 or self.progress.isVisible()
        self.setVisible(shown)
        self.shownChanged.emit(shown)

    def start(self, verb: str, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(0)
        self.progress.setFormat(f"{verb} %v of %m…")
        self.progress.show()
        for widget in self._actions:
            widget.setEnabled(False)
        self.show()
        self.shownChanged.emit(True)

    def progressed(self, done: int, total: int) -> None:
        self.progress.setMaximum(total)
        self.progress.setValue(done)

    def finished(self) -> None:
        self.progress.hide()
        for widget in self._actions:
            widget.setEnabled(True)
        self.show_count(self._count)


class BulkReportView(QWidget):
    """Under the filters' row after a run: what was done, and each refused post with why."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bulkReport")
        self.setAccessibleName("Result of the action on the selected posts")
        self.result = QLabel(self)
        self.result.setObjectName("bulkResult")
        self.result.setWordWrap(True)
        self.refusals = QListWidget(self)
        self.refusals.setObjectName("bulkRefusals")
        self.refusals.setAccessibleName("Posts the action could not change")
        self.dismiss = QPushButton("Dismiss", self)
        self.dismiss.setAccessibleName("Hide this report")
        self.dismiss.clicked.connect(self.hide)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.result, 1)
        top.addWidget(self.dismiss)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.refusals)
        self.hide()

    def show_report(self, report: BulkReport) -> None:
        verb = _PAST.get(report.title, report.title.lower())
        text = f"{posts_text(len(report.done))} {verb}."
        self.refusals.clear()
        if report.refused:
            text += f" {posts_text(len(report.refused))} could not be {verb}:"
            for refusal in report.refused:
                self.refusals.addItem(f"“{short(refusal.summary)}”: {refusal.reason}")
        self.refusals.setVisible(bool(report.refused))
        if report.refused:  # as tall as its rows, up to four
            row = max(self.refusals.sizeHintForRow(0), self.fontMetrics().height() + 4)
            shown_rows = min(len(report.refused), 4)
            self.refusals.setFixedHeight(row * shown_rows + 2 * self.refusals.frameWidth() + 2)
        self.result.setText(text)
        self.show()
