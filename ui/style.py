"""Loads the application style sheet from resources/."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

RESOURCES = Path(__file__).resolve().parent.parent / "resources"


def apply_style(app: QApplication) -> None:
    sheet = RESOURCES / "style.qss"
    if sheet.exists():
        app.setStyleSheet(sheet.read_text(encoding="utf-8"))
