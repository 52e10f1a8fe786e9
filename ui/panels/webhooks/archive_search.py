"""Search the whole delivery archive of the webhook on screen (issue 17 §2): free text in the
payload and the response body, HTTP status class and a date range, with the log's event and
outcome filters. Results come from the workspace's file (`app.store.delivery_search`), a
batch at a time as the table scrolls; typing waits a moment before searching."""

from __future__ import annotations

from datetime import UTC, datetime, time

from PySide6.QtCore import QDate, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QDateEdit, QHBoxLayout, QLineEdit, QWidget

from app.models.webhooks import DeliveryLog
from app.store.delivery_logs import DeliveryArchive
from app.store.delivery_search import DeliverySearch, LogQuery, SearchHit
from app.store.local_store import utc_text
from ui import theme
from ui.panels.webhooks.format import when
from ui.panels.webhooks.logs_model import OUTCOME_COLOUR, OUTCOME_TEXT, LogRole, response_text
from ui.widgets.calendar_names import name_date_popup
from ui.widgets.table_model import HeaderedTableModel

Index = QModelIndex | QPersistentModelIndex
BATCH = 100
MAX_BULK = 5000
"""Matches a bulk replay takes at most in one go."""
TYPING_PAUSE_MS = 200
STATUS_CHOICES = (
    ("Any status", ""),
    ("2xx", "2xx"),
    ("3xx (a failure)", "3xx"),
    ("4xx", "4xx"),
    ("5xx", "5xx"),
    ("No answer", "none"),
)


class SearchResultsModel(HeaderedTableModel):
    HEADERS = ("Time", "Event", "Outcome", "Response", "Attempts")

    def __init__(self) -> None:
        super().__init__()
        self.search: DeliverySearch | None = None
        self.archive: DeliveryArchive | None = None
        self.query = LogQuery()
        self.hits: list[SearchHit] = []
        self._more = False

    def run(self, search: DeliverySearch, archive: DeliveryArchive, query: LogQuery) -> None:
        self.beginResetModel()
        self.search, self.archive, self.query = search, archive, query
        self.hits = search.search(query, limit=BATCH)
        self._more = len(self.hits) == BATCH
        self.endResetModel()

    def clear(self) -> None:
        self.beginResetModel()
        self.hits, self._more = [], False
        self.endResetModel()

    def all_logs(self, limit: int = MAX_BULK) -> list[DeliveryLog]:
        """Every match (up to `limit`), not only the batches shown: "all failed since…"."""
        if self.search is None or self.archive is None:
            return []
        archive = self.archive
        hits = self.search.search(self.query, limit=limit)
        logs = (archive.log(hit.webhook_id, hit.row.id) for hit in hits)
        return [log for log in logs if log is not None]

    def canFetchMore(self, parent: Index) -> bool:
        return not parent.isValid() and self._more and self.search is not None

    def fetchMore(self, parent: Index) -> None:
        if not self.canFetchMore(parent) or not self.hits or self.search is None:
            return
        last = self.hits[-1]
        more = self.search.search(self.query, below=(last.webhook_id, last.row.key), limit=BATCH)
        self._more = len(more) == BATCH
        if more:
            self.beginInsertRows(QModelIndex(), len(self.hits), len(self.hits) + len(more) - 1)
            self.hits += more
            self.endInsertRows()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.hits)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        hit = self.hits[index.row()]
        row, column = hit.row, index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                when(row.created_at),
                row.event_type or "(no event type)",
                OUTCOME_TEXT.get(row.outcome, row.outcome),
                response_text(row),
                str(row.attempts),
            )[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == 2:
            return theme.readable(OUTCOME_COLOUR.get(row.outcome, "#6b7280"))
        if role == LogRole and self.archive is not None:
            return self.archive.log(hit.webhook_id, row.id)
        return None


def _day_start(date: QDate) -> str:
    """The start of `date` on this computer's clock, as the archive's UTC text."""
    moment = datetime.combine(date.toPython(), time(0))  # type: ignore[arg-type]
    return utc_text(moment.astimezone().astimezone(UTC))


class ArchiveSearchBar(QWidget):
    """The search fields; `changed` (debounced) when the query they make changes."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text_edit = QLineEdit()
        self.text_edit.setPlaceholderText("Search every kept delivery: payload, response…")
        self.text_edit.setAccessibleName("Search the delivery archive")
        self.text_edit.setClearButtonEnabled(True)
        self.status_combo = QComboBox()
        self.status_combo.setAccessibleName("Filter by HTTP status class")
        for text, value in STATUS_CHOICES:
            self.status_combo.addItem(text, value)
        self.dates_check = QCheckBox("From")
        self.dates_check.setAccessibleName("Limit to a date range")
        today = QDate.currentDate()
        self.from_edit = QDateEdit(today.addDays(-7))
        self.from_edit.setAccessibleName("From date")
        self.to_edit = QDateEdit(today)
        self.to_edit.setAccessibleName("To date (included)")
        for edit in (self.from_edit, self.to_edit):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setEnabled(False)
        name_date_popup(self.from_edit, "Choose the first date")
        name_date_popup(self.to_edit, "Choose the last date")
        self.dates_check.toggled.connect(self.from_edit.setEnabled)
        self.dates_check.toggled.connect(self.to_edit.setEnabled)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text_edit, 1)
        layout.addWidget(self.status_combo)
        layout.addWidget(self.dates_check)
        layout.addWidget(self.from_edit)
        layout.addWidget(self.to_edit)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(TYPING_PAUSE_MS)
        self._timer.timeout.connect(self.changed)
        self.text_edit.textChanged.connect(self._timer.start)
        self.text_edit.returnPressed.connect(self.fire)
        for signal in (
            self.status_combo.currentIndexChanged,
            self.dates_check.toggled,
            self.from_edit.dateChanged,
            self.to_edit.dateChanged,
        ):
            signal.connect(self.fire)

    def fire(self, *_: object) -> None:
        self._timer.stop()
        self.changed.emit()

    def active(self) -> bool:
        """Whether the archive is searched (anything but the log's own two filters set)."""
        return bool(
            self.text_edit.text().strip()
            or self.status_combo.currentData()
            or self.dates_check.isChecked()
        )

    def query(self, webhook_id: str | None, event: str, outcome: str) -> LogQuery:
        since = until = ""
        if self.dates_check.isChecked():
            since = _day_start(self.from_edit.date())
            until = _day_start(self.to_edit.date().addDays(1))
        return LogQuery(
            webhook_id=webhook_id,
            event=event,
            outcome=outcome,
            status_class=str(self.status_combo.currentData() or ""),
            since_utc=since,
            until_utc=until,
            text=self.text_edit.text().strip(),
        )
