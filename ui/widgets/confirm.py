"""Asking before a destructive write, without a nested event loop (open(), never exec())."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox, QWidget


def ask(
    parent: QWidget, title: str, text: str, yes_text: str, on_yes: Callable[[], object]
) -> QMessageBox:
    """Open a window-modal question; `on_yes` runs only when the user confirms. The box is
    returned so the caller can keep it (and tests can answer it)."""
    box = QMessageBox(
        QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton, parent
    )
    yes = box.addButton(yes_text, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)

    def finished() -> None:
        if box.clickedButton() is yes:
            on_yes()
        box.deleteLater()

    box.finished.connect(finished)
    box.open()
    return box
