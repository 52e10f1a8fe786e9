"""A section whose panel is not built yet: says so plainly instead of showing an empty page."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

PLANNED_TEXT = {
    "compose": "The composer (multi-destination posts, per-network settings, Instagram audio) "
    "is being built. Until then, create posts in the web app; they appear in the calendar.",
}


class PlannedPanel(QWidget):
    def __init__(self, section: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        title = QLabel(section.capitalize())
        title.setObjectName("panelTitle")
        text = QLabel(PLANNED_TEXT[section])
        text.setWordWrap(True)
        text.setStyleSheet("color: #4b5563;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 16)
        layout.addWidget(title)
        layout.addWidget(text)
        layout.addStretch(1)
        text.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
