"""Delivery logs as a Qt model that fetches pages on demand (canFetchMore/fetchMore): a webhook
with 10,000 logs opens with its first 15 and loads more only as the view scrolls near the end."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor

from app.api.errors import ApiError
from app.models.pagination import Page
from app.models.webhooks import DeliveryLog
from app.webhooks.timeline import outcome
from ui.panels.webhooks.format import when
from ui.tasks import TaskGroup
from ui.widgets.table_model import HeaderedTableModel

Index = QModelIndex | QPersistentModelIndex
FetchPage = Callable[[int], Awaitable[Page[DeliveryLog]]]
LogRole = Qt.ItemDataRole.UserRole + 1

OUTCOME_TEXT = {"delivered": "Delivered", "failed": "Failed", "queued": "Queued"}
OUTCOME_COLOUR = {"delivered": "#166534", "failed": "#b91c1c", "queued": "#6b7280"}


class DeliveryLogsModel(HeaderedTableModel):
    HEADERS = ("Time", "Event", "Outcome", "Response", "Attempts")
    loadingChanged = Signal(bool)
    pageLoaded = Signal(int)  # page number
    loadFailed = Signal(object)  # ApiError

    def __init__(self, tasks: TaskGroup) -> None:
        super().__init__()
        self._tasks = tasks
        self._fetch: FetchPage | None = None
        self._logs: list[DeliveryLog] = []
        self._ids: set[str] = set()
        self._next_page: int | None = None
        self._loading = False
        self._generation = 0
        self.total: int | None = None
        self.error: ApiError | None = None

    # -- source ---
    def set_source(self, fetch: FetchPage | None) -> None:
        """Start over with another webhook's logs (None: empty). Pages of the previous source
        still in flight are dropped when they land."""
        self._generation += 1
        self.beginResetModel()
        self._fetch = fetch
        self._logs = []
        self._ids = set()
        self._next_page = 1 if fetch is not None else None
        self.total = None
        self.error = None
        self.endResetModel()
        self._set_loading(False)
        if fetch is not None:
            self.fetchMore(QModelIndex())

    def reload(self) -> None:
        self.set_source(self._fetch)

    @property
    def loading(self) -> bool:
        return self._loading

    @property
    def loaded(self) -> int:
        return len(self._logs)

    def log_at(self, row: int) -> DeliveryLog | None:
        return self._logs[row] if 0 <= row < len(self._logs) else None

    def event_types(self) -> list[str]:
        return sorted({log.event_type or "" for log in self._logs} - {""})

    # -- on demand ---
    def canFetchMore(self, parent: Index) -> bool:
        return not parent.isValid() and self._next_page is not None and not self._loading

    def fetchMore(self, parent: Index) -> None:
        if not self.canFetchMore(parent) or self._fetch is None or self._next_page is None:
            return
        self._set_loading(True)
        self._tasks.spawn(self._load(self._fetch, self._next_page, self._generation))

    async def _load(self, fetch: FetchPage, number: int, generation: int) -> None:
        try:
            page = await fetch(number)
        except ApiError as error:
            if generation == self._generation:
                self.error = error
                self._set_loading(False)
                self.loadFailed.emit(error)
            return
        if generation != self._generation:
            return
        self._add(page, number)

    def _add(self, page: Page[DeliveryLog], number: int) -> None:
        # Rows that moved down a page because new deliveries arrived meanwhile are skipped.
        fresh = [log for log in page.data if log.id not in self._ids]
        if fresh:
            first = len(self._logs)
            self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
            self._logs.extend(fresh)
            self._ids.update(log.id for log in fresh)
            self.endInsertRows()
        self.total = page.meta.total if page.meta.total is not None else self.total
        self._next_page = number + 1 if page.has_next and page.data else None
        self._set_loading(False)
        self.pageLoaded.emit(number)

    def _set_loading(self, loading: bool) -> None:
        if loading != self._loading:
            self._loading = loading
            self.loadingChanged.emit(loading)

    # -- table ---
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._logs)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        log = self._logs[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return when(log.created_at)
            if column == 1:
                return log.event_type or "(no event type)"
            if column == 2:
                return OUTCOME_TEXT[outcome(log)]
            if column == 3:
                return "no answer" if log.response_status is None else str(log.response_status)
            return str(log.attempts)
        if role == Qt.ItemDataRole.ForegroundRole and column == 2:
            return QColor(OUTCOME_COLOUR[outcome(log)])
        if role == LogRole:
            return log
        return None


class LogFilter(QSortFilterProxyModel):
    """Filters by event type and outcome; fetching more goes through to the source."""

    def __init__(self) -> None:
        super().__init__()
        self.event_type = ""
        self.outcome = ""

    def set_filters(self, event_type: str, outcome_name: str) -> None:
        self.beginFilterChange()
        self.event_type = event_type
        self.outcome = outcome_name
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: Index) -> bool:
        source = self.sourceModel()
        assert isinstance(source, DeliveryLogsModel)
        log = source.log_at(row)
        if log is None:
            return False
        if self.event_type and log.event_type != self.event_type:
            return False
        return not self.outcome or outcome(log) == self.outcome
