"""*Replay N deliveries…* while it runs (issue 17 §3): progress, pause and cancel, and the
summary at the end. The page asked once before opening it; this dialog only reports and steers
(`app.webhooks.bulk_replay` does the asking, each delivery at most once)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.webhooks.bulk_replay import ReplayProgress

STATE_TEXT = {
    "running": "Replaying…",
    "paused": "Paused — no new replay is asked until you resume.",
    "waiting": "The service limits requests: waiting {wait:.0f} s before the next one.",
    "checking": "Some answers were lost on the way: checking the log for them (never asked twice)…",
    "cancelled": "Cancelled.",
    "finished": "Done.",
}


class BulkReplayDialog(QDialog):
    pauseRequested = Signal()
    resumeRequested = Signal()
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None, total: int, endpoint: str) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(f"Replaying {total:,} deliveries")
        self.setAccessibleName(f"Replaying {total:,} deliveries")
        self.finished_run = False
        intro = QLabel(f"To {endpoint}. Each delivery is asked once; queued is not delivered.")
        intro.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setRange(0, max(total, 1))
        self.bar.setAccessibleName("Replay progress")
        self.state_label = QLabel(STATE_TEXT["running"])
        self.state_label.setWordWrap(True)
        self.state_label.setAccessibleName("Replay state")
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary_label.setAccessibleName("Replay summary")
        self.pause_button = QPushButton("Pause")
        self.pause_button.setAccessibleName("Pause replaying")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setAccessibleName("Cancel replaying")
        self.close_button = QPushButton("Close")
        self.close_button.setAccessibleName("Close")
        self.close_button.hide()
        self.pause_button.clicked.connect(self._pause_clicked)
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.close_button.clicked.connect(self.accept)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.pause_button, self.cancel_button, self.close_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.bar)
        layout.addWidget(self.state_label)
        layout.addWidget(self.summary_label)
        layout.addLayout(buttons)
        self.resize(520, 220)

    def show_progress(self, progress: ReplayProgress) -> None:
        self.bar.setValue(progress.done)
        self.state_label.setText(STATE_TEXT.get(progress.state, "").format(wait=progress.wait_s))
        self.pause_button.setText("Resume" if progress.state == "paused" else "Pause")
        self.pause_button.setAccessibleName(
            "Resume replaying" if progress.state == "paused" else "Pause replaying"
        )
        counts = f"{progress.queued + progress.confirmed:,} queued"
        if progress.refused:
            counts += f" · {progress.refused:,} refused"
        if progress.unknown:
            counts += f" · {progress.unknown:,} answers lost (to check)"
        self.summary_label.setText(counts)
        if progress.state in ("finished", "cancelled"):
            self.finished_run = True
            self.summary_label.setText(progress.summary())
            if progress.refusals:
                self.summary_label.setText(
                    progress.summary() + "\n" + "\n".join(progress.refusals[:5])
                )
            self.pause_button.hide()
            self.cancel_button.hide()
            self.close_button.show()
            self.close_button.setFocus()

    def _pause_clicked(self) -> None:
        if self.pause_button.text() == "Resume":
            self.resumeRequested.emit()
        else:
            self.pauseRequested.emit()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.finished_run:
            self.cancelRequested.emit()  # closing the window while it runs stops it
        super().closeEvent(event)

    def reject(self) -> None:
        if not self.finished_run:
            self.cancelRequested.emit()
        super().reject()
