"""The outbox as the user sees it: each batch with its state (queued, sending, sent, needs
attention with the server's reason, schedule time passed), and what can be done about it."""

from __future__ import annotations

from datetime import tzinfo

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.sync.outbox import FINAL_STATES, OutboxEntry, OutboxState

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
# Glyphs the default fonts have (DejaVu Sans; ⏳ and ⏰ are in none of them: a tofu box).
_ICONS = {
    OutboxState.QUEUED: "◷",
    OutboxState.SENDING: "↗",
    OutboxState.OUTCOME_UNKNOWN: "?",
    OutboxState.SENT: "✓",
    OutboxState.NEEDS_ATTENTION: "⚠",
    OutboxState.NEEDS_CONFIRMATION: "◔",
}


def entry_text(entry: OutboxEntry, tz: tzinfo) -> str:
    lines = [f"{_ICONS.get(entry.state, '')} {entry.state.label}: {entry.summary}"]
    if entry.scheduled_at is not None:
        lines.append(f"for {entry.scheduled_at.astimezone(tz).strftime('%a %d %b %H:%M')}")
    if entry.reason and entry.state is not OutboxState.SENT:
        lines.append(entry.reason)
    return "\n".join(lines)


class OutboxPanel(QWidget):
    editRequested = Signal(int)
    sendAsDraftRequested = Signal(int)
    sendAnywayRequested = Signal(int)
    discardRequested = Signal(int)

    def __init__(self, tz: tzinfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tz = tz
        self.title = QLabel("Outbox")
        self.title.setObjectName("sectionTitle")
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("outboxList")
        self.list.setAccessibleName("Outbox")
        self.list.setWordWrap(True)
        # Rows take the height their wrapped text needs, again after every change of width or
        # content (a long "needs attention" reason was cut, with a gap, and stayed broken).
        self.list.setUniformItemSizes(False)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
        self.list.currentItemChanged.connect(lambda *_: self._sync())
        self.edit_button = QPushButton("Edit and retry")
        self.edit_button.setAccessibleName("Edit and retry the selected entry")
        self.edit_button.clicked.connect(lambda: self._emit(self.editRequested))
        self.draft_button = QPushButton("Send as draft")
        self.draft_button.setToolTip("Create it as a draft without a time")
        self.draft_button.setAccessibleName("Send the selected entry as a draft")
        self.draft_button.clicked.connect(lambda: self._emit(self.sendAsDraftRequested))
        self.anyway_button = QPushButton("In 1 hour")  # the long label was cut to ":hedule in 1 ho"
        self.anyway_button.setToolTip("Schedule it for one hour from now (its time has passed)")
        self.anyway_button.setAccessibleName("Schedule the selected entry in one hour")
        self.anyway_button.clicked.connect(lambda: self._emit(self.sendAnywayRequested))
        self.discard_button = QPushButton("Remove")
        self.discard_button.setAccessibleName("Remove the selected entry from the outbox")
        self.discard_button.clicked.connect(lambda: self._emit(self.discardRequested))
        # Two rows: the column is narrow and four labels in one row were cut to "it and ret".
        buttons = QGridLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        for index, button in enumerate(
            (self.edit_button, self.draft_button, self.anyway_button, self.discard_button)
        ):
            buttons.addWidget(button, index // 2, index % 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.status)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self._entries: dict[int, OutboxEntry] = {}
        self._shown_once = False
        self._sync()

    def show_entries(self, entries: list[OutboxEntry]) -> None:
        selected = self.selected()
        known = set(self._entries)
        self._entries = {e.id: e for e in entries}
        new = [e.id for e in entries if e.id not in known] if known or self._shown_once else []
        self._shown_once = True
        if selected is not None and selected.state is OutboxState.SENT and new:
            selected = None  # a new entry takes the place of an old "Sent" selection
        self.list.clear()
        for entry in reversed(entries):  # newest first
            item = QListWidgetItem(entry_text(entry, self.tz))
            item.setData(ENTRY_ROLE, entry.id)
            self.list.addItem(item)
            if (selected is not None and entry.id == selected.id) or (
                selected is None and new and entry.id == new[-1]
            ):
                self.list.setCurrentItem(item)
        current = self.list.currentItem()
        if new:
            # The newest entry is at the top: show it, never leave it above the visible area.
            self.list.scrollToTop()
        elif current is not None:
            self.list.scrollToItem(current)
        waiting = sum(1 for e in entries if e.state is not OutboxState.SENT)
        self.title.setText(f"Outbox ({waiting} waiting)" if waiting else "Outbox")
        self._sync()

    def show_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def selected(self) -> OutboxEntry | None:
        item = self.list.currentItem()
        return self._entries.get(item.data(ENTRY_ROLE)) if item is not None else None

    def state_of(self, entry_id: int) -> OutboxState | None:
        entry = self._entries.get(entry_id)
        return entry.state if entry is not None else None

    def select(self, entry_id: int) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(ENTRY_ROLE) == entry_id:
                self.list.setCurrentRow(row)

    def _emit(self, signal: object) -> None:
        entry = self.selected()
        if entry is not None:
            signal.emit(entry.id)  # type: ignore[attr-defined]

    def _sync(self) -> None:
        entry = self.selected()
        state = entry.state if entry is not None else None
        attention = state is OutboxState.NEEDS_ATTENTION
        confirm = state is OutboxState.NEEDS_CONFIRMATION
        self.edit_button.setEnabled(bool(entry and entry.draft_id) and (attention or confirm))
        self.draft_button.setEnabled(confirm)
        self.anyway_button.setEnabled(confirm)
        self.discard_button.setEnabled(state in FINAL_STATES)
