"""X thread replies: add, remove, reorder; each with its own text and media.

Replies live in the destination's `meta.thread_replies` as `{text, media}`; media entries are
local files (`{path, mime, alt}`) until sending uploads them (`{upload_token, alt}`).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ui.composer.spelling import attach_writing_tools


def _replies(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    result = []
    for item in value:
        if isinstance(item, dict):
            media = item.get("media")
            result.append(
                {
                    "text": str(item.get("text") or ""),
                    "media": list(media) if isinstance(media, list) else [],
                }
            )
    return result


class ReplyRow(QFrame):
    def __init__(self, number: int, reply: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel(f"Reply {number}")
        self.text = QPlainTextEdit(reply["text"])
        self.text.setPlaceholderText("Text of this reply")
        self.text.setAccessibleName(f"Text of reply {number}")
        self.text.setTabChangesFocus(True)  # Tab leaves, as in every form field
        self.text.setFixedHeight(60)
        attach_writing_tools(self.text)
        self.up = QToolButton()
        self.up.setText("↑")
        self.up.setToolTip("Move this reply up")
        self.up.setAccessibleName(f"Move reply {number} up")
        self.down = QToolButton()
        self.down.setText("↓")
        self.down.setToolTip("Move this reply down")
        self.down.setAccessibleName(f"Move reply {number} down")
        self.remove = QToolButton()
        self.remove.setText("✕")
        self.remove.setToolTip("Remove this reply")
        self.remove.setAccessibleName(f"Remove reply {number}")
        self.attach = QPushButton("Attach…")
        self.attach.setToolTip("Add a picture or video to this reply")
        self.attach.setAccessibleName(f"Attach a file to reply {number}")
        names = [Path(str(m.get("path") or m.get("url") or "file")).name for m in reply["media"]]
        self.media_label = QLabel(", ".join(names) if names else "No media")
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        for button in (self.up, self.down, self.remove):
            head.addWidget(button)
        foot = QHBoxLayout()
        foot.addWidget(self.media_label, 1)
        foot.addWidget(self.attach)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(head)
        layout.addWidget(self.text)
        layout.addLayout(foot)


class ThreadRepliesEditor(QWidget):
    """Edits a list of replies; `changed(list)` carries the whole new list."""

    changed = Signal(list)

    def __init__(self, value: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._replies = _replies(value)
        self.pick_files: Callable[[], list[str]] = self._ask_files
        self._rows_box = QVBoxLayout()
        self._rows_box.setContentsMargins(0, 0, 0, 0)
        self.add_button = QPushButton("Add reply")
        self.add_button.setAccessibleName("Add a thread reply")
        self.add_button.clicked.connect(self.add_reply)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._rows_box)
        layout.addWidget(self.add_button)
        self.rows: list[ReplyRow] = []
        self._rebuild()

    def replies(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self._replies]

    def _rebuild(self) -> None:
        for row in self.rows:
            # Keep the parent until Qt deletes it, so it is never destroyed off the GUI thread.
            row.hide()
            self._rows_box.removeWidget(row)
            row.deleteLater()
        self.rows = []
        for i, reply in enumerate(self._replies):
            row = ReplyRow(i + 1, reply, self)
            row.up.setEnabled(i > 0)
            row.down.setEnabled(i < len(self._replies) - 1)
            row.text.textChanged.connect(lambda i=i, row=row: self._text(i, row.text.toPlainText()))
            row.up.clicked.connect(lambda _=False, i=i: self.move_reply(i, i - 1))
            row.down.clicked.connect(lambda _=False, i=i: self.move_reply(i, i + 1))
            row.remove.clicked.connect(lambda _=False, i=i: self.remove(i))
            row.attach.clicked.connect(lambda _=False, i=i: self._attach(i))
            self._rows_box.addWidget(row)
            self.rows.append(row)

    def _emit(self) -> None:
        self.changed.emit(self.replies())

    def _text(self, index: int, text: str) -> None:
        self._replies[index]["text"] = text
        self._emit()

    def add_reply(self) -> None:
        self._replies.append({"text": "", "media": []})
        self._rebuild()
        self.rows[-1].text.setFocus()
        self._emit()

    def remove(self, index: int) -> None:
        del self._replies[index]
        self._rebuild()
        self._emit()

    def move_reply(self, index: int, to: int) -> None:
        if 0 <= to < len(self._replies):
            self._replies.insert(to, self._replies.pop(index))
            self._rebuild()
            self._emit()

    def add_media(self, index: int, paths: list[str]) -> None:
        for path in paths:
            mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
            self._replies[index]["media"].append({"path": path, "mime": mime, "alt": ""})
        self._rebuild()
        self._emit()

    def _attach(self, index: int) -> None:
        paths = self.pick_files()
        if paths:
            self.add_media(index, paths)

    def _ask_files(self) -> list[str]:
        paths, _ = QFileDialog.getOpenFileNames(
            self,
            "Attach to reply",
            "",
            "Pictures and videos (*.png *.jpg *.jpeg *.gif *.webp *.mp4 *.mov)",
        )
        return paths
