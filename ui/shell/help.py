"""Help ▸ Keyboard shortcuts and Help ▸ About: what the user can press, and what this is."""

from __future__ import annotations

import re
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
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
        self.table.setAccessibleName("Keyboard shortcuts")
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
        self.text.setAccessibleName("About Postdesk")
        self.licences = QLabel(licences_html())
        self.licences.setTextFormat(Qt.TextFormat.RichText)
        self.licences.setWordWrap(True)
        self.licences.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.licences.setAccessibleName("Licences of the parts Postdesk is built on")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.about_qt = buttons.addButton("About Qt", QDialogButtonBox.ButtonRole.HelpRole)
        self.about_qt.setAccessibleName("About Qt")
        self.about_qt.clicked.connect(lambda: QMessageBox.aboutQt(self, "About Qt"))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(self.licences)
        layout.addWidget(buttons)


def licences() -> list[tuple[str, str, str]]:
    """(name, version, licence) of each package Postdesk runs on, as the packages declare them."""
    found: list[tuple[str, str, str]] = []
    for requirement in metadata.requires("postdesk") or []:
        if "extra ==" in requirement:
            continue
        name = re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0]
        try:
            meta = metadata.metadata(name)
        except metadata.PackageNotFoundError:
            continue
        declared = meta.get_all("License-Expression") or meta.get_all("License") or []
        licence = str(declared[0]) if declared else "see the package"
        found.append((name, meta["Version"], licence.splitlines()[0][:60]))
    return found


def licences_html() -> str:
    try:
        rows = licences()
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        rows = []
    listed = "".join(
        f"<li>{_escape(name)} {_escape(version)}: {_escape(licence)}</li>"
        for name, version, licence in rows
    )
    return (
        "Built with Qt 6 through PySide6, used under the GNU LGPL v3 (Qt's and PySide6's source: "
        "qt.io and pypi.org/project/PySide6; you may replace them with your own build)."
        f"<ul>{listed}</ul>"
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
