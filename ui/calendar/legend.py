"""The colour key of the chips: one dot and name per status.

It never sets the page's minimum width: at the smallest window the note on unknown statuses
moves into the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from app.domain.enums import PostStatus
from ui import theme
from ui.calendar.entries import status_text
from ui.calendar.style import status_colors

LEGEND_STATUSES = (
    PostStatus.DRAFT,
    PostStatus.PENDING_APPROVAL,
    PostStatus.SCHEDULED,
    PostStatus.PUBLISHING,
    PostStatus.PUBLISHED,
    PostStatus.PARTIALLY_PUBLISHED,
    PostStatus.FAILED,
)


UNKNOWN_NOTE = "┆ dashed: a status this app does not know"


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
            label.setObjectName("legendItem")
            layout.addWidget(label)
            self.items[status] = label
        self.unknown = QLabel(UNKNOWN_NOTE)
        self.unknown.setObjectName("muted")
        layout.addWidget(self.unknown)
        layout.addStretch(1)
        self.setToolTip(f"Chip colours by post status; {UNKNOWN_NOTE.removeprefix('┆ ')}.")
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._colour_dots()
        theme.on_change(self._colour_dots)

    def _colour_dots(self, _theme: object = None) -> None:
        colours = status_colors()
        for status, label in self.items.items():
            label.setText(
                f'<span style="color:{colours[status]}; font-size:14px;">●</span>'
                f"&nbsp;{status_text(status)}"
            )

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        layout = self.layout()
        spacing = layout.spacing() if layout is not None else 0
        room = self.width() - sum(
            label.sizeHint().width() + spacing for label in self.items.values()
        )
        self.unknown.setVisible(self.unknown.sizeHint().width() <= room - 4)

    def names(self) -> list[str]:
        return [status_text(status) for status in self.items]
