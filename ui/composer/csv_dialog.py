"""File ▸ Import CSV…: every row is checked first (`row N, column C: reason`, nothing sent while
any row is wrong), then the rows are queued in the workspace's outbox — the one the session
sends and `postdesk import` uses too, so a file imported there is not sent again here — with a
progress bar and a summary. Uses `app.csv_io`; the dialog is opened, never exec'd, and its work
is a task the page owns."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.api.errors import ApiError
from app.csv_io.format import CsvFormatError, read_file
from app.csv_io.importer import ImportReport, import_csv

if TYPE_CHECKING:
    from datetime import tzinfo

    from app.sync.outbox_service import OutboxService


class ImportDialog(QDialog):
    againAsDrafts = Signal()  # the user asks to import the rows that could not come as they are

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Import {path.name}")
        self.path = path
        self.status = QLabel("Checking every row…")
        self.status.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.report.setObjectName("importReport")
        self.report.setAccessibleName("Import report")
        self.status.setAccessibleName("Import status")
        self.progress.setAccessibleName("Import progress")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        # An export's published / failed rows, and rows that cannot be scheduled as they are,
        # come in as drafts only when asked (issue 15 §1).
        self.as_drafts = QPushButton("Import those rows as drafts")
        self.as_drafts.setAccessibleName("Import the skipped and unschedulable rows as drafts")
        self.as_drafts.setVisible(False)
        self.as_drafts.clicked.connect(self._again)
        buttons.addButton(self.as_drafts, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.progress)
        layout.addWidget(self.report, 1)
        layout.addWidget(buttons)
        self.resize(560, 380)
        self.result_report: ImportReport | None = None

    def on_progress(self, done: int, total: int, what: str) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.status.setText(f"{done} of {total} rows done — {what}")

    def show_report(self, report: ImportReport) -> None:
        self.result_report = report
        self.progress.setRange(0, 1)
        self.progress.setValue(1 if report.all_sent else 0)
        self.status.setText(
            "Every row was sent." if report.all_sent else "Some rows need your attention:"
        )
        self.report.setPlainText("\n".join(report.summary_lines()))
        self.as_drafts.setVisible(bool(report.skipped or report.errors))
        self.as_drafts.setEnabled(True)

    def _again(self) -> None:
        self.as_drafts.setEnabled(False)
        self.status.setText("Checking every row…")
        self.againAsDrafts.emit()

    def show_failure(self, text: str) -> None:
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status.setText(text)

    async def run(
        self, service: OutboxService, local_tz: tzinfo, *, as_drafts: bool = False
    ) -> None:
        try:
            text = read_file(self.path)
        except (OSError, CsvFormatError, ValueError) as exc:
            self.show_failure(f"Could not read {self.path.name}: {exc}")
            return
        try:
            report = await import_csv(
                text,
                service,
                base_dir=self.path.resolve().parent,  # as `postdesk import` does: same row keys
                local_tz=local_tz,
                on_progress=self.on_progress,
                others_as_drafts=as_drafts,
            )
        except ApiError as exc:
            self.show_failure(f"{exc.message} {exc.hint}".strip())
            return
        self.show_report(report)
