"""Help ▸ Keyboard shortcuts and Help ▸ About: what the user can press, and what this is."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.action_spec import ActionSpec
from ui.shell.keys import key_rows


def app_version() -> str:
    try:
        return metadata.version("postdesk")
    except metadata.PackageNotFoundError:
        return "development copy"


class ShortcutsDialog(QDialog):
    def __init__(self, specs: Iterable[ActionSpec], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        rows = key_rows(specs)
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Keys", "Does", "Where"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, values in enumerate(rows):
            for column, value in enumerate(values):
                self.table.setItem(row, column, QTableWidgetItem(value))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(560, 520)


class AboutDialog(QDialog):
    def __init__(
        self, base_url: str | None, data_folder: Path, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("About Postdesk")
        self.text = QLabel(
            f"<b>Postdesk</b> {app_version()}<br>"
            "Plan, compose and watch social media posts.<br><br>"
            f"API address: {_escape(base_url or 'no workspace open')}<br>"
            f"Data folder: {_escape(str(data_folder))}"
        )
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
