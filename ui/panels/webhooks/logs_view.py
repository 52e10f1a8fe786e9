"""The delivery log of one webhook: filters, the on-demand table with its "N new deliveries ▲"
bar, and the detail pane."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QModelIndex, Qt, Signal, SignalInstance
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.domain.enums import WebhookEvent
from app.models.webhooks import DeliveryLog
from ui.panels.webhooks.log_detail import LogDetail
from ui.panels.webhooks.logs_model import DeliveryLogsModel, LogFilter, LogRole
from ui.tasks import TaskGroup

OUTCOMES = (
    ("Any outcome", ""),
    ("Delivered", "delivered"),
    ("Failed", "failed"),
    ("Queued", "queued"),
)


class DeliveryLogsView(QWidget):
    replayRequested = Signal(object)  # DeliveryLog
    localReplayRequested = Signal(object)  # DeliveryLog

    def __init__(self, tasks: TaskGroup, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = DeliveryLogsModel(tasks)
        self.filter = LogFilter()
        self.filter.setSourceModel(self.model)
        self.event_combo = QComboBox()
        self.event_combo.addItem("Any event", "")
        for event in WebhookEvent:
            self.event_combo.addItem(event.value, event.value)
        self.outcome_combo = QComboBox()
        for text, value in OUTCOMES:
            self.outcome_combo.addItem(text, value)
        self.event_combo.currentIndexChanged.connect(self._filters_changed)
        self.outcome_combo.currentIndexChanged.connect(self._filters_changed)
        self.status_label = QLabel()
        self.status_label.setStyleSheet("color: #4b5563;")
        self.reload_button = QPushButton("Reload")
        self.reload_button.setToolTip("Read the newest deliveries now")
        filters = QHBoxLayout()
        filters.addWidget(QLabel("Delivery log"))
        filters.addWidget(self.event_combo)
        filters.addWidget(self.outcome_combo)
        filters.addWidget(self.status_label, 1)
        filters.addWidget(self.reload_button)

        # New rows are never pushed in above the rows the user is reading: they wait here.
        self.new_bar = QPushButton()
        self.new_bar.setObjectName("newDeliveries")
        self.new_bar.setAccessibleName("Show new deliveries")
        self.new_bar.setStyleSheet(
            "QPushButton { background: #dbeafe; color: #1e3a8a; border: 1px solid #93c5fd; "
            "border-radius: 4px; padding: 3px; font-weight: 600; }"
        )
        self.new_bar.clicked.connect(self.show_new)
        self.new_bar.hide()
        self.model.newRowsWaiting.connect(self._new_rows_waiting)

        self.table = QTableView()
        self.table.setModel(self.filter)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setVerticalScrollMode(QTableView.ScrollMode.ScrollPerPixel)
        header = self.table.horizontalHeader()
        for column, width in enumerate((160, 210, 90, 90)):
            header.resizeSection(column, width)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.verticalScrollBar().valueChanged.connect(self._scrolled)

        self.detail = LogDetail()
        self.replay_button = QPushButton("Replay…")
        self.replay_button.setToolTip("Ask the service to send this event again (a new delivery)")
        self.local_button = QPushButton("Replay to local URL…")
        self.local_button.setToolTip("Re-sign the payload and POST it to your own receiver")
        self.replay_button.clicked.connect(lambda: self._emit(self.replayRequested))
        self.local_button.clicked.connect(lambda: self._emit(self.localReplayRequested))
        buttons = QHBoxLayout()
        buttons.addWidget(self.replay_button)
        buttons.addWidget(self.local_button)
        buttons.addStretch(1)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addLayout(buttons)
        right_layout.addWidget(self.detail, 1)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        table_side = QWidget()
        table_layout = QVBoxLayout(table_side)
        table_layout.setContentsMargins(0, 0, 0, 0)
        table_layout.setSpacing(2)
        table_layout.addWidget(self.new_bar)
        table_layout.addWidget(self.table, 1)
        splitter.addWidget(table_side)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(filters)
        layout.addWidget(splitter, 1)

        for signal in (
            self.model.rowsInserted,
            self.model.rowsRemoved,
            self.model.modelReset,
            self.model.loadingChanged,
            self.model.rowsChangedInPlace,
        ):
            signal.connect(self._update_status)
        self.model.rowsChangedInPlace.connect(self._rows_changed)
        self.model.loadFailed.connect(self._update_status)
        self._update_status()
        self._selection_changed()

    # -- public ---
    def selected_log(self) -> DeliveryLog | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        value = rows[0].data(LogRole)
        return value if isinstance(value, DeliveryLog) else None

    def select_row(self, row: int) -> None:
        self.table.selectRow(row)

    def at_top(self) -> bool:
        return self.table.verticalScrollBar().value() <= 0

    def show_new(self) -> None:
        """The rows that arrived while the user looked further down, at the top, shown."""
        self.model.show_new()
        self.new_bar.hide()
        self.table.scrollToTop()

    # -- internals ---
    def _emit(self, signal: SignalInstance) -> None:
        log = self.selected_log()
        if log is not None:
            signal.emit(log)

    def _filters_changed(self) -> None:
        self.filter.set_filters(
            str(self.event_combo.currentData() or ""), str(self.outcome_combo.currentData() or "")
        )
        self._update_status()
        # A narrow filter may leave the view unfilled: ask for more pages.
        if self.filter.canFetchMore(QModelIndex()):
            self.filter.fetchMore(QModelIndex())

    def _selection_changed(self, *_: QItemSelection) -> None:
        log = self.selected_log()
        self.detail.show_log(log)
        self.replay_button.setEnabled(log is not None)
        self.local_button.setEnabled(log is not None)

    def _rows_changed(self, ids: list[str]) -> None:
        selected = self.selected_log()
        if selected is not None and selected.id in ids:
            self._selection_changed()  # its outcome came: the detail shows it

    def _new_rows_waiting(self, count: int) -> None:
        if count and self.at_top():
            self.show_new()  # nothing is being read further down: show them at once
            return
        self.new_bar.setText(f"{count:,} new deliver{'y' if count == 1 else 'ies'} ▲")
        self.new_bar.setVisible(count > 0)

    def _scrolled(self, value: int) -> None:
        if value <= 0 and self.model.pending:
            self.show_new()

    def _update_status(self, *_: object) -> None:
        model = self.model
        if model.error is not None:
            self.status_label.setText(f"Could not load the log: {model.error.message}")
            return
        if model.stuck:
            self.status_label.setText(
                f"{model.loaded:,} loaded · older deliveries could not be placed yet; "
                "they are read again at the next refresh"
            )
            return
        known = model.total
        if known is not None:
            known = max(known, model.loaded)
        total = "?" if known is None else f"{known:,}"
        shown = self.filter.rowCount()
        text = f"{model.loaded:,} of {total} loaded"
        if shown != model.loaded:
            text = f"{shown:,} shown · " + text
        if model.loading:
            text += " · loading…"
        self.status_label.setText(text)
