"""The local drafts beside the editor: search, open, rename (in place), duplicate, delete.

Everything here is read from the durable drafts file, so after a restart the list is the same.
Conflict copies are listed with their original and say so.
"""

from __future__ import annotations

from datetime import tzinfo

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from app.store.local_store import Draft

DRAFT_ROLE = Qt.ItemDataRole.UserRole + 1


class _RenameDelegate(QStyledItemDelegate):
    """The rename field is as tall as a line edit needs (it was squeezed to ~10 px)."""

    def updateEditorGeometry(
        self,
        editor: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        super().updateEditorGeometry(editor, option, index)
        rect = editor.geometry()
        rect.setHeight(max(rect.height(), editor.sizeHint().height()))
        editor.setGeometry(rect)


def draft_label(draft: Draft, tz: tzinfo) -> str:
    title = draft.title or draft.preview[:60] or "(empty draft)"
    when = draft.updated_at.astimezone(tz).strftime("%d %b %H:%M")
    marks = []
    if draft.conflict_of:
        marks.append("other version")
    if draft.server_post_id:
        marks.append("edits a post")
    suffix = f"  [{', '.join(marks)}]" if marks else ""
    return f"{title}{suffix}\n{when}"


class DraftsPanel(QWidget):
    openRequested = Signal(str)
    renameRequested = Signal(str, str)
    duplicateRequested = Signal(str)
    deleteRequested = Signal(str)
    newRequested = Signal()
    searchChanged = Signal(str)

    def __init__(self, tz: tzinfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tz = tz
        title = QLabel("Drafts on this computer")
        title.setObjectName("sectionTitle")
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search drafts")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.searchChanged.emit)
        self.list = QListWidget()
        self.list.setObjectName("draftsList")
        self.list.setAccessibleName("Drafts on this computer")
        self.list.setItemDelegate(_RenameDelegate(self.list))
        self.search.setAccessibleName("Search drafts")
        # Titles are elided in the narrow column rather than scrolled sideways.
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.itemActivated.connect(self._activated)
        self.list.itemChanged.connect(self._renamed)
        self.list.currentItemChanged.connect(lambda *_: self._sync())
        self.new_button = QPushButton("New")
        self.new_button.clicked.connect(self.newRequested.emit)
        self.open_button = QPushButton("Open")
        self.open_button.clicked.connect(lambda: self._with_current(self.openRequested.emit))
        self.rename_button = QPushButton("Rename")
        self.rename_button.clicked.connect(self._start_rename)
        self.duplicate_button = QPushButton("Duplicate")
        self.duplicate_button.clicked.connect(
            lambda: self._with_current(self.duplicateRequested.emit)
        )
        self.delete_button = QPushButton("Delete")
        self.delete_button.clicked.connect(lambda: self._with_current(self.deleteRequested.emit))
        for button, name in (
            (self.new_button, "New draft"),
            (self.open_button, "Open the selected draft"),
            (self.rename_button, "Rename the selected draft"),
            (self.duplicate_button, "Duplicate the selected draft"),
            (self.delete_button, "Delete the selected draft"),
        ):
            button.setAccessibleName(name)
        for button in (
            self.new_button,
            self.open_button,
            self.rename_button,
            self.duplicate_button,
            self.delete_button,
        ):
            # The column may be narrow (1024 px window): it widens rather than cut a label.
            button.setMinimumWidth(button.sizeHint().width())
        row1 = QHBoxLayout()
        row1.setContentsMargins(0, 0, 0, 0)
        for button in (self.new_button, self.open_button, self.rename_button):
            row1.addWidget(button)
        row2 = QHBoxLayout()
        row2.setContentsMargins(0, 0, 0, 0)
        for button in (self.duplicate_button, self.delete_button):
            row2.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(title)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        layout.addLayout(row1)
        layout.addLayout(row2)
        self._filling = False
        self._current_id: str | None = None
        self._sync()

    def show_drafts(self, drafts: list[Draft], current_id: str | None) -> None:
        self._filling = True
        self._current_id = current_id
        selected = self.selected_id()
        self.list.clear()
        for draft in drafts:
            item = QListWidgetItem(draft_label(draft, self.tz))
            item.setData(DRAFT_ROLE, draft.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            item.setToolTip(draft.preview or "(empty)")
            if draft.id == current_id:
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            self.list.addItem(item)
            if draft.id in (selected, current_id) and self.list.currentItem() is None:
                self.list.setCurrentItem(item)
        self._filling = False
        self._sync()

    def ids(self) -> list[str]:
        return [self.list.item(row).data(DRAFT_ROLE) for row in range(self.list.count())]

    def selected_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(DRAFT_ROLE) if item is not None else None

    def select(self, draft_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(DRAFT_ROLE) == draft_id:
                self.list.setCurrentRow(row)

    def _with_current(self, emit: object) -> None:
        draft_id = self.selected_id()
        if draft_id is not None:
            emit(draft_id)  # type: ignore[operator]

    def _activated(self, item: QListWidgetItem) -> None:
        self.openRequested.emit(item.data(DRAFT_ROLE))

    def _start_rename(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self._filling = True
            item.setText(item.text().split("\n")[0].split("  [")[0])
            self._filling = False
            self.list.editItem(item)

    def _renamed(self, item: QListWidgetItem) -> None:
        if not self._filling:
            self.renameRequested.emit(item.data(DRAFT_ROLE), item.text().split("\n")[0].strip())

    def _sync(self) -> None:
        has = self.list.currentItem() is not None
        for button in (
            self.open_button,
            self.rename_button,
            self.duplicate_button,
            self.delete_button,
        ):
            button.setEnabled(has)


def side_column(drafts: DraftsPanel, outbox: QWidget) -> QSplitter:
    """The page's left column: the drafts over the outbox."""
    column = QSplitter(Qt.Orientation.Vertical)
    column.addWidget(drafts)
    column.addWidget(outbox)
    column.setSizes([420, 260])
    column.setMinimumWidth(230)  # two buttons a row, whole labels
    column.setMaximumWidth(320)
    return column
