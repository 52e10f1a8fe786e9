"""The month and week grids for assistive technology: their posts are painted inside one widget,
so a list mirrors them, one item per shown post ("Wednesday 22 October 2025, 09:30, LinkedIn,
Scheduled: Our autumn blend…"), its current item the selected post; choosing an item there
selects the post. The grid's own accessible name also says which post the arrows selected.

The mirror is filled only while an assistive technology listens (`QAccessible.isActive()`) or
when asked (`refresh(force=True)`): a month of 1,500 posts would otherwise cost a list of
1,500 items on every load for nobody."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QDate, QLocale, Qt, QTime
from PySide6.QtGui import QAccessible, QAccessibleEvent
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from ui.calendar.entries import Entry
from ui.icons import network_name


def describe(entry: Entry, locale: QLocale | None = None) -> str:
    """Time, network, status and text of a post, as a screen reader should say it."""
    locale = locale or QLocale()
    text = entry.summary or "(no text)"
    what = f"{network_name(entry.platform)}, {entry.status_text}: {text}"
    if entry.local is None:
        return f"No date, {what}"
    local = entry.local
    day = locale.toString(QDate(local.year, local.month, local.day), QLocale.FormatType.LongFormat)
    time = locale.toString(QTime(local.hour, local.minute), QLocale.FormatType.ShortFormat)
    return f"{day}, {time}, {what}"


class PostMirror(QListWidget):
    """A one-pixel list over the grid (drawn transparent, never focused by Tab) that AT reads."""

    def __init__(self, parent: QWidget, select: Callable[[str | None], None]) -> None:
        super().__init__(parent)
        self.setObjectName("postMirror")
        self.setAccessibleName("Posts shown in the calendar")
        self.setAccessibleDescription("The posts of the month or week grid, in time order")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.setStyleSheet("QListWidget { border: none; background: transparent; }")
        self.setGeometry(0, 0, 1, 1)
        self._select = select
        self._shown: tuple[int, ...] = ()
        self._ids: list[str] = []
        self.currentRowChanged.connect(self._chosen)

    def refresh(self, entries: list[Entry], selected: str | None, *, force: bool = False) -> None:
        if not (force or QAccessible.isActive()):
            return
        shown = tuple(id(entry) for entry in entries)  # a changed post is a new Entry
        if shown != self._shown:
            self._shown = shown
            self.blockSignals(True)
            self.clear()
            self._ids = [entry.id for entry in entries]
            for entry in entries:
                item = QListWidgetItem(describe(entry))
                item.setData(Qt.ItemDataRole.UserRole, entry.id)
                self.addItem(item)
            self.blockSignals(False)
        self.follow(selected)

    def follow(self, selected: str | None) -> None:
        row = self._ids.index(selected) if selected in self._ids else -1
        if row != self.currentRow():
            self.blockSignals(True)
            self.setCurrentRow(row)
            self.blockSignals(False)

    def names(self) -> list[str]:
        return [self.item(row).text() for row in range(self.count())]

    def _chosen(self, row: int) -> None:
        if 0 <= row < len(self._ids):
            self._select(self._ids[row])


def announce(view: QWidget, base_name: str, entry: Entry | None) -> None:
    """Say the selected post through the grid's name (what a screen reader reads on change)."""
    name = base_name if entry is None else f"{base_name}, selected: {describe(entry)}"
    if view.accessibleName() != name:
        view.setAccessibleName(name)
        QAccessible.updateAccessibility(QAccessibleEvent(view, QAccessible.Event.NameChanged))
