"""*Delivery archive…* (issue 17 §1): what the workspace's file keeps of each webhook's
deliveries (rows, size, the days they span), the retention the user sets, and the archives of
webhooks deleted on the server, kept until the user removes them here."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, SignalInstance
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.store.delivery_logs import MAX_RETENTION_DAYS, MIN_RETENTION_DAYS, ArchivedWebhook


def size_text(count: int) -> str:
    if count >= 1_000_000:
        return f"{count / 1_000_000:.1f} MB"
    if count >= 1_000:
        return f"{count / 1_000:.0f} kB"
    return f"{count} bytes"


class ArchiveDialog(QDialog):
    retentionChosen = Signal(int)
    removeRequested = Signal(str)  # webhook id
    exportRequested = Signal(str)  # webhook id

    HEADERS = ("Webhook", "State", "Deliveries", "Size", "From", "To")

    def __init__(self, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Delivery archive")
        self.items: list[ArchivedWebhook] = []
        intro = QLabel(
            "The service keeps delivery logs for 7 days. Every delivery Postdesk reads is kept "
            "in this workspace's file for as long as you choose, also after a webhook is "
            "deleted on the server (remove its archive here)."
        )
        intro.setWordWrap(True)
        self.total_label = QLabel()
        self.total_label.setAccessibleName("Archive size")
        self.table = QTableWidget(0, len(self.HEADERS))
        self.table.setHorizontalHeaderLabels(self.HEADERS)
        self.table.setAccessibleName("Archived webhooks")
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.retention = QSpinBox()
        self.retention.setRange(MIN_RETENTION_DAYS, MAX_RETENTION_DAYS)
        self.retention.setSuffix(" days")
        self.retention.setAccessibleName("Keep deliveries for")
        self.apply_button = QPushButton("Apply")
        self.apply_button.setAccessibleName("Apply the retention")
        self.apply_button.clicked.connect(lambda: self.retentionChosen.emit(self.retention.value()))
        self.export_button = QPushButton("Export…")
        self.export_button.setAccessibleName("Export the selected archive as JSON lines")
        self.export_button.clicked.connect(lambda: self._emit(self.exportRequested))
        self.remove_button = QPushButton("Remove archive…")
        self.remove_button.setAccessibleName("Remove the archive of a deleted webhook")
        self.remove_button.setToolTip("Only for webhooks deleted on the server")
        self.remove_button.clicked.connect(lambda: self._emit(self.removeRequested))
        self.close_button = QPushButton("Close")
        self.close_button.setAccessibleName("Close")
        self.close_button.clicked.connect(self.accept)
        keep = QHBoxLayout()
        keep.addWidget(QLabel("Keep deliveries for"))
        keep.addWidget(self.retention)
        keep.addWidget(self.apply_button)
        keep.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(keep)
        layout.addWidget(self.total_label)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.resize(760, 420)
        self._selection_changed()

    def show_archive(self, items: list[ArchivedWebhook], retention_days: int) -> None:
        self.items = items
        self.retention.setValue(retention_days)
        self.table.setRowCount(len(items))
        for row, item in enumerate(items):
            values = (
                item.endpoint or item.webhook_id,
                "deleted on the server" if item.gone_utc else "on the server",
                f"{item.rows:,}",
                size_text(item.bytes),
                (item.oldest_utc or "")[:10],
                (item.newest_utc or "")[:10],
            )
            for column, value in enumerate(values):
                self.table.setItem(row, column, QTableWidgetItem(value))
        rows = sum(item.rows for item in items)
        size = sum(item.bytes for item in items)
        self.total_label.setText(f"{rows:,} deliveries kept · {size_text(size)} of logs")
        self._selection_changed()

    def selected_item(self) -> ArchivedWebhook | None:
        rows = self.table.selectionModel().selectedRows()
        return self.items[rows[0].row()] if rows else None

    def _emit(self, signal: SignalInstance) -> None:
        item = self.selected_item()
        if item is not None:
            signal.emit(item.webhook_id)

    def _selection_changed(self) -> None:
        item = self.selected_item()
        self.export_button.setEnabled(item is not None and item.rows > 0)
        self.remove_button.setEnabled(item is not None and item.gone_utc is not None)
