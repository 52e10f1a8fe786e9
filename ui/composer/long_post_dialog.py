"""What the composer shows instead of opening a post whose text is too long to edit (issue 19
§3): the reason, and the text's start in a view that loads the rest on request and copies it
whole. The post itself is left as it is."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from app.compose.opening import too_long_message
from ui.widgets.long_text_view import LongTextView


class LongPostDialog(QDialog):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("longPostDialog")
        self.setWindowTitle("This post is too long to edit")
        self.reason = QLabel(too_long_message(len(text)))
        self.reason.setWordWrap(True)
        self.view = LongTextView("Text of the post")
        self.view.set_text(text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Close).setAccessibleName(
            "Close the long post"
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.reason)
        layout.addWidget(self.view, 1)
        layout.addWidget(buttons)
        self.resize(720, 480)
