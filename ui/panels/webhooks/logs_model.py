"""The delivery log of one webhook as a Qt model over the rows kept in the workspace's file
(`app.store.delivery_logs`), keyed by delivery id and ordered by `created_at`, then id.

Rows come from the file a chunk at a time as the view scrolls (`canFetchMore`/`fetchMore`); at
a gap (rows the server lists there were never read) the model asks the session's monitor to
read them first (`fill_below`). Rows that arrive while the user looks further down are not
pushed in above them: `newRowsWaiting(n)` says how many wait, and `show_new()` puts them in.
A kept row that changed (a queued delivery decided) is updated in place. So a row is never
shown twice, never out of order, and never lost when deliveries arrive while scrolling.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)

from app.api.errors import ApiError
from app.models.webhooks import DeliveryLog
from app.store.delivery_logs import DeliveryArchive, KeptRow, LogKey
from ui import theme
from ui.panels.webhooks.format import when
from ui.tasks import TaskGroup
from ui.widgets.table_model import HeaderedTableModel

if TYPE_CHECKING:
    from app.sync.webhook_monitor import LogsChanged, WebhookMonitor

Index = QModelIndex | QPersistentModelIndex
LogRole = Qt.ItemDataRole.UserRole + 1

OUTCOME_TEXT = {"delivered": "Delivered", "failed": "Failed", "queued": "Queued"}
OUTCOME_COLOUR = {"delivered": "#166534", "failed": "#b91c1c", "queued": "#6b7280"}
CHUNK = 60
"""Kept rows read from the file per `fetchMore` (a few screens; ~1 ms)."""
PARSED_KEPT = 64
"""Whole logs kept parsed (the selected one, its neighbours) for the detail pane."""


def _position(rows: list[KeptRow], key: LogKey) -> int:
    """Where a row with `key` goes among `rows` (newest first)."""
    low, high = 0, len(rows)
    while low < high:
        middle = (low + high) // 2
        if rows[middle].key > key:
            low = middle + 1
        else:
            high = middle
    return low


def response_text(row: KeptRow) -> str:
    """A queued row was not sent yet: "queued", not a timeout's "no answer"."""
    if row.response_status is not None:
        return str(row.response_status)
    return "queued" if row.outcome == "queued" else "no answer"


def _after_second(row: KeptRow) -> LogKey:
    """A key above every row of `row`'s second."""
    return (row.created_utc, "\U0010ffff")


class DeliveryLogsModel(HeaderedTableModel):
    HEADERS = ("Time", "Event", "Outcome", "Response", "Attempts")
    loadingChanged = Signal(bool)
    loadFailed = Signal(object)  # ApiError
    newRowsWaiting = Signal(int)  # rows kept above the first shown one (0: none wait)
    rowsChangedInPlace = Signal(object)  # list[str]: shown rows updated (outcome, attempts…)

    def __init__(self, tasks: TaskGroup) -> None:
        super().__init__()
        self._tasks = tasks
        self._monitor: WebhookMonitor | None = None
        self._webhook_id: str | None = None
        self._rows: list[KeptRow] = []
        self._ids: set[str] = set()
        self._parsed: OrderedDict[str, DeliveryLog] = OrderedDict()
        self._more = False  # kept rows below the last shown one, before any gap
        self._gap = False  # the last shown row has rows below it that were never read
        self._loading = False
        self._generation = 0
        self.pending = 0
        """Kept rows newer than the first shown one, waiting for `show_new()`."""
        self.stuck = False
        """The rows below a gap could not be placed (see `fill_below`): not asked again until
        the log changes or is reloaded."""
        self.error: ApiError | None = None

    # -- source ---
    @property
    def monitor(self) -> WebhookMonitor | None:
        return self._monitor

    @property
    def webhook_id(self) -> str | None:
        return self._webhook_id

    @property
    def archive(self) -> DeliveryArchive | None:
        return self._monitor.archive if self._monitor is not None else None

    def set_source(self, monitor: WebhookMonitor | None, webhook_id: str | None = None) -> None:
        """Show this webhook's kept rows from the newest (None: empty). A fill of the
        previous source still in flight is dropped when it lands."""
        self._generation += 1
        self.beginResetModel()
        self._monitor = monitor if webhook_id is not None else None
        self._webhook_id = webhook_id if monitor is not None else None
        self._rows = []
        self._ids = set()
        self._parsed.clear()
        self._more = self._gap = False
        self.stuck = False
        self.error = None
        self.endResetModel()
        self._set_loading(False)
        self._set_pending(0)
        self._read_more()

    def reload(self) -> None:
        self.set_source(self._monitor, self._webhook_id)

    @property
    def loading(self) -> bool:
        return self._loading

    @property
    def loaded(self) -> int:
        return len(self._rows)

    @property
    def total(self) -> int | None:
        """The server's count of this webhook's logs when last read (kept rows may be more:
        the server keeps 7 days)."""
        archive, webhook_id = self.archive, self._webhook_id
        if archive is None or webhook_id is None:
            return None
        return archive.total(webhook_id)

    def row_at(self, row: int) -> KeptRow | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def ids(self) -> list[str]:
        return [row.id for row in self._rows]

    def log_at(self, row: int) -> DeliveryLog | None:
        """The whole log of a shown row (parsed from the file, a few kept parsed)."""
        kept = self.row_at(row)
        archive, webhook_id = self.archive, self._webhook_id
        if kept is None or archive is None or webhook_id is None:
            return None
        log = self._parsed.get(kept.id)
        if log is None:
            log = archive.log(webhook_id, kept.id)
            if log is None:
                return None
            self._parsed[kept.id] = log
            while len(self._parsed) > PARSED_KEPT:
                self._parsed.popitem(last=False)
        return log

    def event_types(self) -> list[str]:
        return sorted({row.event_type or "" for row in self._rows} - {""})

    # -- on demand ---
    def canFetchMore(self, parent: Index) -> bool:
        if parent.isValid() or self._loading or self.stuck or self._monitor is None:
            return False
        return self._more or self._gap

    def fetchMore(self, parent: Index) -> None:
        if not self.canFetchMore(parent):
            return
        if self._more:
            self._read_more()
        elif self._gap and self._rows:
            archive, webhook_id = self.archive, self._webhook_id
            assert archive is not None
            assert webhook_id is not None
            gap = archive.gap_for(webhook_id, self._rows[-1].key)
            if gap is None:
                self._settle_end()
                return
            self._set_loading(True)
            self._tasks.spawn(self._fill(gap.id, self._generation))

    async def _fill(self, log_id: str, generation: int) -> None:
        monitor, webhook_id = self._monitor, self._webhook_id
        assert monitor is not None
        assert webhook_id is not None
        try:
            closed = await monitor.fill_below(webhook_id, log_id)
        except ApiError as error:
            if generation == self._generation:
                self.error = error
                self._set_loading(False)
                self.loadFailed.emit(error)
            return
        if generation != self._generation:
            return
        self.error = None
        before = len(self._rows)
        self._set_loading(False)
        self._read_more()
        if len(self._rows) == before and not closed:
            self.stuck = True
            self.loadFailed.emit(None)

    def _read_more(self) -> None:
        """The next chunk of kept rows below the last shown one, up to a gap."""
        archive, webhook_id = self.archive, self._webhook_id
        if archive is None or webhook_id is None:
            self._more = self._gap = False
            return
        below = self._rows[-1].key if self._rows else None
        rows = archive.rows(webhook_id, below=below, limit=CHUNK)
        rows = [row for row in rows if row.id not in self._ids]
        if rows:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
            self._rows.extend(rows)
            self._ids.update(row.id for row in rows)
            self.endInsertRows()
        self._settle_end()

    def _settle_end(self) -> None:
        archive, webhook_id = self.archive, self._webhook_id
        if archive is None or webhook_id is None or not self._rows:
            self._more = self._gap = False
            return
        last = self._rows[-1].key
        self._more = bool(archive.rows(webhook_id, below=last, limit=1))
        self._gap = not self._more and archive.gap_for(webhook_id, last) is not None

    # -- rows that arrive ---
    def apply(self, change: LogsChanged) -> None:
        """Kept rows of this webhook changed: update shown ones in place, place new ones
        between shown rows, and count those above the first shown row (`newRowsWaiting`)."""
        archive, webhook_id = self.archive, self._webhook_id
        if archive is None or change.webhook_id != webhook_id:
            return
        self.stuck = False
        if not self._rows:
            self._read_more()
            return
        moved: list[KeptRow] = []
        shown = [log_id for log_id in change.changed if log_id in self._ids]
        if shown:
            fresh = {row.id: row for row in archive.rows_by_id(webhook_id, shown)}
            for number, row in enumerate(self._rows):
                new = fresh.get(row.id)
                if new is None:
                    continue
                self._parsed.pop(row.id, None)
                if new.key != row.key:
                    moved.append(new)
                    continue
                self._rows[number] = new
                last_column = len(self.HEADERS) - 1
                self.dataChanged.emit(self.index(number, 0), self.index(number, last_column))
            for row in moved:
                self._remove(row.id)
            self.rowsChangedInPlace.emit(shown)
        added = [log_id for log_id in change.added if log_id not in self._ids]
        candidates = moved + archive.rows_by_id(webhook_id, added)
        if self._rows:
            # Newer seconds than the first shown row wait for `show_new()`; rows of its second
            # or down to the last shown row go in their place (a row read late for its second).
            top_second, bottom = self._rows[0].created_utc, self._rows[-1].key
            for row in sorted(candidates, key=lambda kept: kept.key, reverse=True):
                if row.created_utc <= top_second and row.key > bottom:
                    self._insert(row)
        self._settle_end()
        if self._rows:
            self._set_pending(archive.count_newer(webhook_id, _after_second(self._rows[0])))

    def show_new(self) -> None:
        """Put the rows waiting above the first shown one in (the view scrolls to the top)."""
        archive, webhook_id = self.archive, self._webhook_id
        if archive is None or webhook_id is None:
            return
        if not self._rows:
            self._read_more()
            self._set_pending(0)
            return
        newer = archive.newer(webhook_id, _after_second(self._rows[0]))
        if any(row.gap_below for row in newer):
            # More arrived than one top-up reads: rows between them and the ones shown were
            # not read yet. Start again from the newest; the rest comes as the view scrolls.
            self.set_source(self._monitor, webhook_id)
            return
        fresh = [row for row in newer if row.id not in self._ids]
        if fresh:
            self.beginInsertRows(QModelIndex(), 0, len(fresh) - 1)
            self._rows[:0] = fresh
            self._ids.update(row.id for row in fresh)
            self.endInsertRows()
        self._set_pending(0)

    def _insert(self, row: KeptRow) -> None:
        position = _position(self._rows, row.key)
        self.beginInsertRows(QModelIndex(), position, position)
        self._rows.insert(position, row)
        self._ids.add(row.id)
        self.endInsertRows()

    def _remove(self, log_id: str) -> None:
        position = next((i for i, row in enumerate(self._rows) if row.id == log_id), -1)
        if position < 0:
            return
        self.beginRemoveRows(QModelIndex(), position, position)
        del self._rows[position]
        self._ids.discard(log_id)
        self.endRemoveRows()

    def _set_pending(self, count: int) -> None:
        if count != self.pending:
            self.pending = count
            self.newRowsWaiting.emit(count)

    def _set_loading(self, loading: bool) -> None:
        if loading != self._loading:
            self._loading = loading
            self.loadingChanged.emit(loading)

    # -- table ---
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return when(row.created_at)
            if column == 1:
                return row.event_type or "(no event type)"
            if column == 2:
                return OUTCOME_TEXT.get(row.outcome, row.outcome)
            if column == 3:
                return response_text(row)
            return str(row.attempts)
        if role == Qt.ItemDataRole.ForegroundRole and column == 2:
            return theme.readable(OUTCOME_COLOUR.get(row.outcome, "#6b7280"))
        if role == LogRole:
            return self.log_at(index.row())
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
        kept = source.row_at(row)
        if kept is None:
            return False
        if self.event_type and kept.event_type != self.event_type:
            return False
        return not self.outcome or kept.outcome == self.outcome
