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

from app.sync.outbox import OutboxEntry, OutboxState

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
_ICONS = {
    OutboxState.QUEUED: "⏳",
    OutboxState.SENDING: "↗",
    OutboxState.OUTCOME_UNKNOWN: "?",
    OutboxState.SENT: "✓",
    OutboxState.NEEDS_ATTENTION: "⚠",
    OutboxState.NEEDS_CONFIRMATION: "⏰",
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
        self.list.setWordWrap(True)
        self.list.currentItemChanged.connect(lambda *_: self._sync())
        self.edit_button = QPushButton("Edit and retry")
        self.edit_button.clicked.connect(lambda: self._emit(self.editRequested))
        self.draft_button = QPushButton("Send as draft")
        self.draft_button.setToolTip("Create it as a draft without a time")
        self.draft_button.clicked.connect(lambda: self._emit(self.sendAsDraftRequested))
        self.anyway_button = QPushButton("In 1 hour")  # the long label was cut to ":hedule in 1 ho"
        self.anyway_button.setToolTip("Schedule it for one hour from now (its time has passed)")
        self.anyway_button.clicked.connect(lambda: self._emit(self.sendAnywayRequested))
        self.discard_button = QPushButton("Remove")
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
        self._sync()

    def show_entries(self, entries: list[OutboxEntry]) -> None:
        selected = self.selected()
        self._entries = {e.id: e for e in entries}
        self.list.clear()
        for entry in reversed(entries):  # newest first
            item = QListWidgetItem(entry_text(entry, self.tz))
            item.setData(ENTRY_ROLE, entry.id)
            self.list.addItem(item)
            if selected is not None and entry.id == selected.id:
                self.list.setCurrentItem(item)
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
        self.discard_button.setEnabled(
            state in (OutboxState.NEEDS_ATTENTION, OutboxState.NEEDS_CONFIRMATION, OutboxState.SENT)
        )
