"""*File ▸ Import CSV…* and *File ▸ Export calendar to CSV…*: the window's actions on the whole
workspace (they were the Compose page's). Import checks every row, then sends through the
workspace's outbox (the record `postdesk import` shares, so nothing is sent twice); export
writes every cached post in the import's format."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QWidget

from app.csv_io.export import export_calendar
from ui.composer.csv_dialog import ImportDialog
from ui.messages import Level, Message, MessageBridge, MessageScope
from ui.tasks import TaskGroup

if TYPE_CHECKING:
    from ui.session import WorkspaceSession


class CsvActions:
    def __init__(
        self,
        parent: QWidget,
        session: Callable[[], WorkspaceSession | None],
        tasks: TaskGroup,
        messages: MessageBridge | MessageScope,
        local_tz: Callable[[], tzinfo],
    ) -> None:
        self._parent = parent
        self._session = session
        self._tasks = tasks
        self._messages = messages
        self._local_tz = local_tz
        self.file_dialog: QFileDialog | None = None
        self.import_dialog: ImportDialog | None = None

    def choose_import(self) -> None:
        dialog = QFileDialog(self._parent, "Import CSV", "", "CSV files (*.csv)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(lambda name: self.import_csv(Path(name)))
        self.file_dialog = dialog
        dialog.open()

    def import_csv(self, path: Path) -> ImportDialog | None:
        """Check and send the rows of `path`, showing progress and the summary."""
        session = self._session()
        service = session.outbox if session is not None else None
        if service is None:
            self._messages.post(Message("Connect a workspace before importing.", Level.WARNING))
            return None
        dialog = ImportDialog(path, self._parent)
        self.import_dialog = dialog
        dialog.open()
        zone = self._local_tz()
        self._tasks.spawn(dialog.run(service, zone))
        dialog.againAsDrafts.connect(
            lambda: self._tasks.spawn(dialog.run(service, zone, as_drafts=True))
        )
        return dialog

    def choose_export(self) -> None:
        dialog = QFileDialog(self._parent, "Export calendar", "calendar.csv", "CSV files (*.csv)")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.fileSelected.connect(lambda name: self.export_csv(Path(name)))
        self.file_dialog = dialog
        dialog.open()

    def export_csv(self, path: Path) -> int:
        """Every cached post into `path`; the number written (0 when nothing could be)."""
        session = self._session()
        if session is None:
            return 0
        start = datetime(1970, 1, 1, tzinfo=UTC)
        end = datetime(2200, 1, 1, tzinfo=UTC)
        try:
            count = export_calendar(session.cache, path, start, end, self._local_tz())
        except OSError as exc:
            self._messages.post(
                Message(f"Could not write {path}: {exc.strerror or exc}", Level.ERROR)
            )
            return 0
        self._messages.post(Message(f"{count} posts exported to {path}.", Level.INFO))
        return count
