"""The colour key of the chips: one dot and name per status."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from app.enums import PostStatus
from ui.calendar.entries import status_text
from ui.calendar.style import STATUS_COLORS

LEGEND_STATUSES = (
    PostStatus.DRAFT,
    PostStatus.SCHEDULED,
    PostStatus.PUBLISHING,
    PostStatus.PUBLISHED,
    PostStatus.PARTIALLY_PUBLISHED,
    PostStatus.FAILED,
)


class StatusLegend(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusLegend")
        self.setAccessibleName("Status colours")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 0, 2, 0)
        layout.setSpacing(14)
        self.items: dict[PostStatus, QLabel] = {}
        for status in LEGEND_STATUSES:
            label = QLabel()
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setText(
                f'<span style="color:{STATUS_COLORS[status]}; font-size:14px;">●</span>'
                f"&nbsp;{status_text(status)}"
            )
            label.setObjectName("legendItem")
            layout.addWidget(label)
            self.items[status] = label
        unknown = QLabel("┆ dashed: a status this app does not know")
        unknown.setObjectName("muted")
        layout.addWidget(unknown)
        layout.addStretch(1)

    def names(self) -> list[str]:
        return [status_text(status) for status in self.items]
