"""Quitting asks first while something the user wrote is kept only in memory (issue 19 §2:
with the drafts file unwritable, Ctrl+Q quit without a word and the text was gone).

Parts of the window register a check (`add_check`) that returns a sentence saying what would
be lost, or None. Every way out (Ctrl+Q, the window's close button) goes through `ask_or_go`:
with nothing at risk it returns True at once; otherwise it opens one question (*Quit anyway* /
*Cancel*) and returns False, and *Quit anyway* calls `go`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox, QWidget

Check = Callable[[], str | None]


class QuitGuard:
    def __init__(self) -> None:
        self._checks: list[Check] = []
        self.question: QMessageBox | None = None
        self.confirmed = False
        """The user chose to quit anyway: the rest of the way out does not ask again."""

    def add_check(self, check: Check) -> None:
        if check not in self._checks:
            self._checks.append(check)

    def remove_check(self, check: Check) -> None:
        if check in self._checks:
            self._checks.remove(check)

    def at_risk(self) -> list[str]:
        found = []
        for check in tuple(self._checks):
            try:
                said = check()
            except RuntimeError:  # its widget is gone: nothing of it to keep
                self.remove_check(check)
                continue
            if said:
                found.append(said)
        return found

    def ask_or_go(self, parent: QWidget | None, go: Callable[[], None]) -> bool:
        """True: quit now. False: the question is open (or already was); `go` runs on
        *Quit anyway*."""
        if self.confirmed:
            return True
        risks = self.at_risk()
        if not risks:
            return True
        try:
            if self.question is not None and self.question.isVisible():
                self.question.raise_()
                return False
        except RuntimeError:  # deleted with its parent window
            self.question = None
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Quit and lose unsaved text?",
            "\n\n".join(risks)
            + "\n\nIf you quit now, this text is lost. Cancel, then use “Save to a file…” "
            "above the text to keep a copy.",
            QMessageBox.StandardButton.Cancel,
            parent,
        )
        box.setAccessibleName("Quit and lose unsaved text?")
        quit_button = box.addButton("Quit anyway", QMessageBox.ButtonRole.DestructiveRole)
        quit_button.setAccessibleName("Quit anyway and lose the unsaved text")
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)

        def answered() -> None:
            if box.clickedButton() is quit_button:
                self.confirmed = True
                go()

        box.finished.connect(lambda _result: answered())
        self.question = box
        box.open()
        return False


_GUARD = QuitGuard()


def quit_guard() -> QuitGuard:
    """The application's guard (one per process, like the application)."""
    return _GUARD
