"""The delivery log of one webhook: filters, the on-demand table with its "N new deliveries ▲"
bar, and the detail pane."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QModelIndex, Qt, Signal, SignalInstance
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.domain.enums import WebhookEvent
from app.models.webhooks import DeliveryLog
from app.store.delivery_search import DeliverySearch
from app.webhooks.raw_log import compact_body, payload_of
from ui.panels.webhooks.archive_search import ArchiveSearchBar, SearchResultsModel
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
    curlRequested = Signal(object)  # DeliveryLog
    exportRequested = Signal(list)  # list[DeliveryLog], the selected rows
    bulkReplayRequested = Signal(list)  # list[DeliveryLog], the selected rows

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
        self.status_label.setProperty("tone", "muted")  # coloured by the theme (style.qss)
        self.reload_button = QPushButton("Reload")
        self.reload_button.setToolTip("Read the newest deliveries now")
        self.reload_button.setAccessibleName("Reload the delivery log")
        self.event_combo.setAccessibleName("Filter by event")
        self.outcome_combo.setAccessibleName("Filter by outcome")
        self.status_label.setAccessibleName("Delivery log status")
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
        # Several rows may be selected for export; the detail shows the current one.
        self.table.setSelectionMode(QTableView.SelectionMode.ExtendedSelection)
        self.table.setAccessibleName("Delivery log")
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

        # Search over the whole archive (issue 17 §2): while set, its results replace the log.
        self._tasks = tasks
        self.search_bar = ArchiveSearchBar()
        self.search_bar.changed.connect(self.run_search)
        self.results = SearchResultsModel()
        self.results_table = QTableView()
        self.results_table.setAccessibleName("Archive search results")
        self.results_table.setModel(self.results)
        self.results_table.verticalHeader().hide()
        self.results_table.verticalHeader().setDefaultSectionSize(24)
        self.results_table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.results_table.setSelectionMode(QTableView.SelectionMode.ExtendedSelection)
        self.results_table.setAlternatingRowColors(True)
        self.results_table.setWordWrap(False)
        self.results_table.horizontalHeader().setStretchLastSection(True)
        for column, width in enumerate((160, 210, 90, 90)):
            self.results_table.horizontalHeader().resizeSection(column, width)
        self.results_table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.stack = QStackedWidget()

        self.detail = LogDetail()
        self.replay_button = QPushButton("Replay…")
        self.replay_button.setToolTip("Ask the service to send this event again (a new delivery)")
        self.local_button = QPushButton("Replay to local URL…")
        self.local_button.setEnabled(False)  # until a row is selected
        self.local_button.setToolTip("Re-sign the payload and POST it to your own receiver")
        self.copy_button = QPushButton("Copy payload")
        self.copy_button.setToolTip("Copy the compact body exactly as the service signed it")
        self.curl_button = QPushButton("Copy as curl")
        self.curl_button.setToolTip(
            "Copy a curl command posting this body with its signature (the secret is not in it)"
        )
        self.bulk_button = QPushButton("Replay selected…")
        self.bulk_button.setToolTip(
            "Replay every selected delivery (select failed ones with the Outcome filter or a "
            "search, then Ctrl+A): one confirmation, each asked once"
        )
        self.bulk_button.clicked.connect(self._bulk_clicked)
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Save the selected deliveries as JSON lines")
        self.replay_button.clicked.connect(lambda: self._emit(self.replayRequested))
        self.local_button.clicked.connect(lambda: self._emit(self.localReplayRequested))
        self.copy_button.clicked.connect(self.copy_payload)
        self.curl_button.clicked.connect(lambda: self._emit(self.curlRequested))
        self.export_button.clicked.connect(lambda: self.exportRequested.emit(self.selected_logs()))
        # Two short rows: the detail pane is ~400 px wide in a 1024 px window.
        buttons = QVBoxLayout()
        buttons.setSpacing(2)
        for row_buttons in (
            (
                (self.replay_button, "Replay delivery"),
                (self.bulk_button, "Replay the selected deliveries"),
                (self.local_button, "Replay to local URL"),
            ),
            (
                (self.copy_button, "Copy payload"),
                (self.curl_button, "Copy as curl"),
                (self.export_button, "Export selected deliveries"),
            ),
        ):
            line = QHBoxLayout()
            for button, name in row_buttons:
                button.setAccessibleName(name)
                line.addWidget(button)
            line.addStretch(1)
            buttons.addLayout(line)
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
        self.stack.addWidget(self.table)
        self.stack.addWidget(self.results_table)
        table_layout.addWidget(self.stack, 1)
        splitter.addWidget(table_side)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(filters)
        layout.addWidget(self.search_bar)
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
        self.model.modelReset.connect(self._source_changed)
        self.model.loadFailed.connect(self._update_status)
        self._update_status()
        self._selection_changed()

    # -- public ---
    def selected_log(self) -> DeliveryLog | None:
        """The row the detail shows: the current one when selected, else the first selected."""
        selection = self.current_table().selectionModel()
        rows = selection.selectedRows()
        if not rows:
            return None
        current = selection.currentIndex()
        index = rows[0]
        if current.isValid() and selection.isRowSelected(current.row(), current.parent()):
            index = current.siblingAtColumn(0)
        value = index.data(LogRole)
        return value if isinstance(value, DeliveryLog) else None

    def selected_logs(self) -> list[DeliveryLog]:
        """Every selected row, in the table's order."""
        rows = sorted(
            self.current_table().selectionModel().selectedRows(), key=lambda index: index.row()
        )
        values = [index.data(LogRole) for index in rows]
        return [value for value in values if isinstance(value, DeliveryLog)]

    def _bulk_clicked(self) -> None:
        logs = self.selected_logs()
        results = self.results
        if (
            self.searching
            and len(logs) == results.rowCount()
            and results.canFetchMore(QModelIndex())
        ):
            # Every result selected: every match of the search, also those not scrolled to.
            logs = results.all_logs()
        self.bulkReplayRequested.emit(logs)

    def refresh_detail(self) -> None:
        """Show the selected row's log as kept now (after a replay, a top-up)."""
        self._selection_changed()

    def copy_payload(self) -> None:
        log = self.selected_log()
        if log is not None:
            QGuiApplication.clipboard().setText(compact_body(payload_of(log)).decode("utf-8"))

    def select_row(self, row: int) -> None:
        self.current_table().selectRow(row)

    def current_table(self) -> QTableView:
        return self.results_table if self.searching else self.table

    @property
    def searching(self) -> bool:
        return self.stack.currentWidget() is self.results_table

    def run_search(self) -> None:
        """Search the archive with the fields and the log's filters (or back to the log)."""
        monitor, webhook_id = self.model.monitor, self.model.webhook_id
        if not self.search_bar.active() or monitor is None or webhook_id is None:
            self.results.clear()
            self.stack.setCurrentWidget(self.table)
            self._selection_changed()
            self._update_status()
            return
        search = monitor.search
        if search.indexed is None:
            self._tasks.spawn(self._prepare_then_search(search))
            self.status_label.setText("Indexing the archive for search…")
            return
        query = self.search_bar.query(
            webhook_id,
            str(self.event_combo.currentData() or ""),
            str(self.outcome_combo.currentData() or ""),
        )
        self.results.run(search, monitor.archive, query)
        self.stack.setCurrentWidget(self.results_table)
        self._selection_changed()
        self._update_status()

    async def _prepare_then_search(self, search: DeliverySearch) -> None:
        await search.prepare()
        self.run_search()

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
        if self.search_bar.active():
            self.run_search()
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
        for button in (self.replay_button, self.local_button, self.copy_button, self.curl_button):
            button.setEnabled(log is not None)
        self.export_button.setEnabled(log is not None)
        count = len(self.current_table().selectionModel().selectedRows())
        self.bulk_button.setEnabled(count > 1)
        self.bulk_button.setText(
            f"Replay {count:,} deliveries…" if count > 1 else "Replay selected…"
        )

    def _source_changed(self) -> None:
        if self.search_bar.active():
            self.run_search()  # another webhook, or the log read again: search it

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
        if self.searching:
            found = self.results.rowCount()
            more = "+" if self.results.canFetchMore(QModelIndex()) else ""
            where = (
                ""
                if self.model.monitor is None or self.model.monitor.search.indexed
                else (" (without a text index: SQLite here lacks FTS5, so this is slower)")
            )
            self.status_label.setText(f"{found:,}{more} found in the archive{where}")
            return
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
