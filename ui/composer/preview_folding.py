"""The preview column folds away when the composer is narrow (a 1024 px window), so that the
editor keeps room for its whole labels; a "Preview" toggle beside the tabs brings it back.

The user's own choice wins until the width crosses the threshold again: widening the window
shows the preview, narrowing it hides it, a click in between is kept.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QPushButton, QWidget

NARROW_PAGE_WIDTH = 1000
"""Below this page width the preview column is folded (the sidebar takes 180 px of the window)."""


class PreviewFolding(QObject):
    foldedChanged = Signal(bool)

    def __init__(self, preview: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.preview = preview
        self.toggle = QPushButton("Preview")
        self.toggle.setObjectName("previewToggle")
        self.toggle.setCheckable(True)
        self.toggle.setChecked(True)
        self.toggle.setToolTip("Show or hide how the post will look on each network (Ctrl+Alt+P)")
        self.toggle.toggled.connect(self._set_shown)
        self._narrow: bool | None = None

    @property
    def folded(self) -> bool:
        return not self.toggle.isChecked()

    def fit(self, page_width: int) -> None:
        """Called with the page's width on every resize; acts only when the threshold is crossed."""
        narrow = page_width < NARROW_PAGE_WIDTH
        if narrow == self._narrow:
            return
        self._narrow = narrow
        self.toggle.setChecked(not narrow)

    def flip(self) -> None:
        self.toggle.setChecked(not self.toggle.isChecked())

    def _set_shown(self, shown: bool) -> None:
        self.preview.setVisible(shown)
        self.foldedChanged.emit(not shown)
