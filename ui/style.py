"""Loads the application style sheet (resources/style.qss)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from ui.resources import resource


def apply_style(app: QApplication) -> None:
    app.setStyleSheet(resource("style.qss").read_text(encoding="utf-8"))
