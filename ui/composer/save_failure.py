"""Where the user types, the truth about saving (issue 19 §2).

While the drafts file cannot take what the user wrote (damaged, unwritable, the disk full), a
bar above the text says so in words, says the text is kept in this window, and offers *Save to
a file…* (a plain-text copy anywhere) and *Try again*. Meanwhile a save is retried every few
seconds, so a full disk that has room again is noticed by itself: the next save that succeeds
hides the bar. Quitting asks first while the text exists only here (`ui.quit_guard`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QWidget,
)

from app.store.rescue_copy import RescueFailed, write_rescue_copy
from ui.composer.autosave import Autosaver
from ui.quit_guard import quit_guard
from ui.tasks import TaskGroup
from ui.widgets.confirm import ask

RETRY_MS = 5_000
NOT_SAVED = "Not saved. "
ASKS = " Postdesk asks before quitting while it is only here."


def kept_here(message: str) -> str:
    """What the bar adds to the drafts file's own words (which may say it already)."""
    said = "still in the window" in message
    return ("" if said else " What you typed is kept in this window.") + ASKS


class SaveFailureBar(QFrame):
    recovered = Signal(str)  # the problem that is over: saving works again

    def __init__(
        self,
        autosave: Autosaver,
        text_of: Callable[[], str],
        tasks: TaskGroup,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("saveFailure")
        self.setAccessibleName("Your text is not saved")
        self.setStyleSheet(
            "QFrame#saveFailure { background: #fdecea; border: 1px solid #b42318; "
            "border-radius: 4px; } QFrame#saveFailure QLabel { color: #7a1a12; }"
        )
        self._autosave = autosave
        self._text_of = text_of
        self._tasks = tasks
        self.problem = ""
        """Why the text cannot be saved now ("" while saving works)."""
        self.repeats = False
        """The last failure said what the one before it did (a retry): not news."""
        self._no_store = ""
        self.saved_copy: Path | None = None
        self._copied_text: str | None = None
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.save_as_button = QPushButton("Save to a file…")
        self.save_as_button.setAccessibleName("Save a copy of the text to a file")
        self.save_as_button.clicked.connect(self.choose_file)
        self.retry_button = QPushButton("Try again")
        self.retry_button.setAccessibleName("Try to save to the drafts file again")
        self.retry_button.clicked.connect(self.retry)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.save_as_button)
        layout.addWidget(self.retry_button)
        self.retry_timer = QTimer(self)
        self.retry_timer.setInterval(RETRY_MS)
        self.retry_timer.timeout.connect(self.retry)
        self.file_dialog: QFileDialog | None = None
        autosave.failed.connect(self.save_failed)
        autosave.saved.connect(lambda _draft: self.save_worked())
        quit_guard().add_check(self.at_risk)
        self.destroyed.connect(lambda *_: quit_guard().remove_check(self.at_risk))
        self.hide()

    # -- what happened ---
    def save_failed(self, message: str) -> None:
        self.repeats = message == self.problem
        self._show(message)
        self.retry_timer.start()

    def save_worked(self) -> None:
        if not self._no_store:
            self.retry_timer.stop()
            problem, self.problem = self.problem, ""
            self.repeats = False
            self.hide()
            if problem:
                self.recovered.emit(problem)

    def set_no_drafts_file(self, problem: str | None) -> None:
        """The drafts file could not be opened (`problem` says why); None once one is."""
        self._no_store = problem or ""
        if self._no_store:
            if self._has_text():
                self._show(self._no_store)
        else:
            self.save_worked()

    def text_changed(self) -> None:
        """Typing while there is no drafts file: say it at once, where the user types."""
        if self._no_store and self._has_text() and self.isHidden():
            self._show(self._no_store)

    # -- the user's ways out ---
    def retry(self) -> None:
        if self._autosave.store is not None:
            self._tasks.spawn(self._autosave.flush())

    def choose_file(self) -> None:
        dialog = QFileDialog(self, "Save a copy of your text")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilter("Text files (*.txt)")
        dialog.setDefaultSuffix("txt")
        dialog.selectFile("postdesk-unsaved-post.txt")
        dialog.fileSelected.connect(lambda name: self.save_copy(Path(name)))
        self.file_dialog = dialog
        dialog.open()

    def save_copy(self, path: Path) -> bool:
        text = self._text_of()
        try:
            write_rescue_copy(path, text)
        except RescueFailed as failure:
            self.label.setText(NOT_SAVED + self.problem + "\n" + failure.message)
            return False
        self.saved_copy, self._copied_text = path, text
        self.label.setText(
            NOT_SAVED
            + self.problem
            + f"\nA copy of the text is in {path}."
            + kept_here(self.problem)
        )
        return True

    def ask_before_replacing(self, replace: Callable[[], object]) -> QMessageBox | None:
        """With no drafts file that takes the text, the text on screen is its only copy: another
        document would replace it for good, so ask first (the open question is returned; None:
        nothing to ask). A draft deleted or sent on purpose leaves with no drafts file attached
        to the autosave: not asked."""
        risk = self.at_risk()
        if risk is None or (self._autosave.store is None and not self._no_store):
            return None
        return ask(
            self.window(),
            "Your text is not saved",
            f"{risk}. Opening another post replaces it in this window and it would be lost. "
            "Keep it with “Save to a file…” in the red bar first, or discard it.",
            "Discard it and open",
            replace,
        )

    # -- the quit guard's question ---
    def at_risk(self) -> str | None:
        if not self.problem or not self._has_text():
            return None
        if self._copied_text == self._text_of():
            return None  # this very text is in the copy: nothing is lost by quitting
        return f"Your text could not be saved to the drafts file ({self.problem})"

    # -- helpers ---
    def _show(self, message: str) -> None:
        self.problem = message
        copy = f"\nA copy of the text is in {self.saved_copy}." if self.saved_copy else ""
        self.label.setText(NOT_SAVED + message + copy + kept_here(message))
        self.show()

    def _has_text(self) -> bool:
        return bool(self._text_of().strip())
