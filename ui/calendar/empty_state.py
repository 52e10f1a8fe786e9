"""A card over an empty period: what is (not) there and the one useful next step."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget


def empty_message(period: str, never_synced: bool, filtered: bool) -> tuple[str, str, str]:
    """Title, explanation and button text for an empty `period` (no button: "")."""
    if never_synced:
        return (
            "Not synced yet",
            "Posts appear here after the first sync with the server. The status bar says how "
            "it is going.",
            "",
        )
    if filtered:
        return (
            "No posts match these filters",
            f"Nothing in {period} matches. Clear the filters to see every post.",
            "Clear filters",
        )
    return (
        f"Nothing planned for {period}",
        "Double-click a day to start a post, or drag a draft from the tray.",
        "New post",
    )


class EmptyState(QFrame):
    actionClicked = Signal()

    def __init__(self, host: QWidget) -> None:
        super().__init__(host)
        self.setObjectName("emptyState")
        self.title = QLabel()
        self.title.setObjectName("emptyTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setWordWrap(True)
        self.detail = QLabel()
        self.detail.setObjectName("muted")
        self.detail.setTextFormat(Qt.TextFormat.PlainText)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail.setWordWrap(True)
        self.button = QPushButton()
        self.button.setObjectName("primaryButton")
        self.button.clicked.connect(self.actionClicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(28, 22, 28, 22)
        layout.setSpacing(8)
        layout.addWidget(self.title)
        layout.addWidget(self.detail)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignCenter)
        self.setFixedWidth(360)
        host.installEventFilter(self)
        self.hide()

    def show_message(self, title: str, detail: str, action: str) -> None:
        self.title.setText(title)
        self.detail.setText(detail)
        self.button.setText(action)
        self.button.setVisible(bool(action))
        self.adjustSize()
        self._center()
        self.show()
        self.raise_()

    def _center(self) -> None:
        host = self.parentWidget()
        if host is not None:
            self.move((host.width() - self.width()) // 2, (host.height() - self.height()) // 2)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self._center()
        return False
