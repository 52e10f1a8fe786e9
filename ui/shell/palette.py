"""The command palette (Ctrl+K): type to find any action, section, account or post; Enter runs
or opens it. It is handed its entries when it opens and never talks to the workspace itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

SHOWN_AT_MOST = 60
"""More matches than fit on screen help nobody; typing narrows them."""
TEXT_CHARS = 64
DETAIL_CHARS = 48


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True)
class PaletteEntry:
    kind: str
    """"Action", "Section", "Account" or "Post"."""
    text: str
    detail: str
    """Shortcut, date or network: shown on the right, searched too."""
    run: Callable[[], object]

    def haystack(self) -> str:
        return f"{self.text} {self.detail} {self.kind}".casefold()


def matching(entries: list[PaletteEntry], query: str) -> list[PaletteEntry]:
    """Entries containing every word of `query`; those whose text starts with it first."""
    words = query.casefold().split()
    found = [entry for entry in entries if all(word in entry.haystack() for word in words)]
    if not words:
        return found
    first = words[0]
    return sorted(found, key=lambda entry: not entry.text.casefold().startswith(first))


class CommandPalette(QDialog):
    def __init__(self, entries: list[PaletteEntry], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Command palette")
        self.setObjectName("commandPalette")
        self.setMinimumWidth(560)
        self._entries = entries
        self._shown: list[PaletteEntry] = []
        self.query = QLineEdit()
        self.query.setPlaceholderText("Type an action, a section, an account or a post…")
        self.query.setClearButtonEnabled(True)
        self.query.setAccessibleName("Search commands, sections, accounts and posts")
        self.results = QListWidget()
        self.results.setAccessibleName("Matching commands")
        self.results.setUniformItemSizes(True)
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.empty = QLabel("Nothing matches.")
        self.empty.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.query)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.empty)
        self.query.textChanged.connect(self._filter)
        self.query.returnPressed.connect(self.run_current)
        self.query.installEventFilter(self)
        self.results.itemActivated.connect(lambda _item: self.run_current())
        self._filter("")
        self.resize(600, 420)

    def shown_entries(self) -> list[PaletteEntry]:
        return list(self._shown)

    def _filter(self, text: str) -> None:
        self._shown = matching(self._entries, text)[:SHOWN_AT_MOST]
        self.results.clear()
        for entry in self._shown:
            label = _shorten(f"{entry.kind}: {entry.text}", TEXT_CHARS)
            if entry.detail:
                label = f"{label}    {_shorten(entry.detail, DETAIL_CHARS)}"
            item = QListWidgetItem(label)
            item.setToolTip(f"{entry.text}\n{entry.detail}".strip())
            self.results.addItem(item)
        self.empty.setVisible(not self._shown)
        if self._shown:
            self.results.setCurrentRow(0)

    def run_current(self) -> None:
        row = self.results.currentRow()
        if not 0 <= row < len(self._shown):
            return
        entry = self._shown[row]
        self.accept()
        entry.run()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Up/Down move through the results while the typing stays in the field.
        if watched is self.query and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up) and self._shown:
                step = 1 if key == Qt.Key.Key_Down else -1
                row = (self.results.currentRow() + step) % len(self._shown)
                self.results.setCurrentRow(row)
                return True
        return super().eventFilter(watched, event)
