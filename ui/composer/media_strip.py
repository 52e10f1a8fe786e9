"""Attached media: thumbnails, alt text, order; files come from a picker or drag and drop.

Each file is looked at locally when attached (type, size, picture dimensions) so the checks
can hold it against every destination's rules before anything is sent. Video duration is not
read (that would need a media backend); the server has the last word there.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QIcon, QImageReader, QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.compose.document import MediaAttachment
from app.compose.media_probe import probe_video
from ui.composer.field_errors import ErrorLabel

THUMB = 72
FILE_FILTER = "Pictures, videos and PDFs (*.png *.jpg *.jpeg *.gif *.webp *.mp4 *.mov *.pdf)"


class MediaRefused(ValueError):
    """A file that is not what its name says; `str()` names the file and the reason."""


_IMAGE_MIME = {
    b"jpeg": "image/jpeg",
    b"jpg": "image/jpeg",
    b"png": "image/png",
    b"gif": "image/gif",
    b"webp": "image/webp",
}
_VIDEO_MIMES = ("video/mp4", "video/quicktime")


def probe_file(path: Path) -> MediaAttachment:
    """What the checks need to know about a local file, after decoding it: a picture must
    decode, a video must have a readable MP4/QuickTime index (issue 15 §3: random bytes named
    `.jpg` were accepted). Raises OSError if unreadable, MediaRefused if not what it claims."""
    size = path.stat().st_size
    mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    width = height = None
    duration = None
    if mime.startswith("image/"):
        width, height, mime = _decode_image(path, mime)
    elif mime in _VIDEO_MIMES:
        facts = probe_video(path)
        if facts is None:
            raise MediaRefused(
                f"{path.name} could not be read as a video (no MP4/QuickTime index found); "
                "export it again as MP4 (H.264) and attach the new file."
            )
        width, height, duration = facts.width, facts.height, facts.duration_s
    return MediaAttachment(
        path=str(path), mime=mime, size=size, width=width, height=height, duration_s=duration
    )


def _decode_image(path: Path, mime: str) -> tuple[int, int, str]:
    reader = QImageReader(str(path))
    reader.setDecideFormatFromContent(True)
    found = bytes(reader.format().data()).lower()
    dimensions = reader.size()
    if not reader.canRead() or not dimensions.isValid():
        raise MediaRefused(
            f"{path.name} is not a picture Postdesk can read (it is named {mime} but its content "
            "is not a JPEG, PNG, GIF or WebP image); open it in an image editor and save it "
            "again."
        )
    # Decoding a small copy reads the whole file, so a cut-off download is caught too.
    reader.setScaledSize(dimensions.scaled(QSize(THUMB, THUMB), Qt.AspectRatioMode.KeepAspectRatio))
    if reader.read().isNull():
        raise MediaRefused(
            f"{path.name} could not be decoded ({reader.errorString()}); the file may be "
            "damaged or cut off. Save or download it again."
        )
    # What the bytes are wins over the name (a PNG named .jpg is sent as a PNG).
    return dimensions.width(), dimensions.height(), _IMAGE_MIME.get(found, mime)


def thumbnail(item: MediaAttachment) -> QIcon:
    if item.path and item.mime.startswith("image/") and Path(item.path).exists():
        reader = QImageReader(item.path)
        reader.setAutoTransform(True)
        full = reader.size()
        if full.isValid():
            reader.setScaledSize(
                full.scaled(QSize(THUMB, THUMB), Qt.AspectRatioMode.KeepAspectRatio)
            )
        image = reader.read()
        if not image.isNull():
            return QIcon(QPixmap.fromImage(image))
    return QIcon()


def describe(item: MediaAttachment) -> str:
    name = Path(item.path or item.url or "file").name
    facts = [item.kind]
    if item.size is not None:
        facts.append(
            f"{item.size / 1048576:.1f} MB" if item.size >= 104858 else f"{item.size // 1024} KB"
        )
    if item.width and item.height:
        facts.append(f"{item.width}×{item.height}")
    return f"{name}\n{', '.join(facts)}"


class MediaStrip(QWidget):
    """Edits one media list; `changed(list[MediaAttachment])` after every change."""

    changed = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self._items: list[MediaAttachment] = []
        self.pick_files: Callable[[], list[str]] = self._ask_files
        self.list = QListWidget()
        self.list.setObjectName("mediaList")
        self.list.setAccessibleName("Attached media")
        self.list.setViewMode(QListWidget.ViewMode.IconMode)
        self.list.setIconSize(QSize(THUMB, THUMB))
        self.list.setFlow(QListWidget.Flow.LeftToRight)
        self.list.setWrapping(False)
        self.list.setFixedHeight(THUMB + 52)
        self.list.setMovement(QListWidget.Movement.Static)
        self.list.currentRowChanged.connect(self._selected)
        self.add_button = QPushButton("Add media…")
        self.add_button.setAccessibleName("Add media")
        self.add_button.clicked.connect(self._add_clicked)
        self.left = QPushButton("◀")
        self.left.setToolTip("Move earlier")
        self.left.setAccessibleName("Move the selected file earlier")
        self.left.clicked.connect(lambda: self._move(-1))
        self.right = QPushButton("▶")
        self.right.setToolTip("Move later")
        self.right.setAccessibleName("Move the selected file later")
        self.right.clicked.connect(lambda: self._move(1))
        self.remove_button = QPushButton("Remove")
        self.remove_button.setAccessibleName("Remove the selected file")
        self.remove_button.clicked.connect(self._remove)
        self.alt = QLineEdit()
        self.alt.setPlaceholderText("Alt text: describe the picture for people who cannot see it")
        self.alt.setAccessibleName("Alt text of the selected picture")
        self.alt.textEdited.connect(self._alt_edited)
        self.hint = QLabel("Drop pictures or videos here")
        self.hint.setStyleSheet("color: palette(mid);")
        # The hint gives way in a narrow window; the buttons beside it keep their whole labels.
        self.hint.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.error = ErrorLabel()
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.hint, 1)
        for button in (self.left, self.right, self.remove_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.list)
        layout.addWidget(self.alt)
        layout.addWidget(self.error)
        # Shown once something is attached: an empty box took a third of a 640 px window.
        self.list.setVisible(False)
        self.alt.setVisible(False)
        self._sync_buttons()

    # -- content -------------------------------------------------------------------------------
    def set_items(self, items: list[MediaAttachment]) -> None:
        if items == self._items and self.list.count() == len(items):
            return  # a refresh after typing: rebuilding the thumbnails cost ~1 ms a strip
        self._items = list(items)
        row = self.list.currentRow()
        self.list.blockSignals(True)
        self.list.clear()
        for item in self._items:
            entry = QListWidgetItem(thumbnail(item), describe(item))
            entry.setToolTip(item.alt or "No alt text yet")
            self.list.addItem(entry)
        self.list.blockSignals(False)
        if self._items:
            self.list.setCurrentRow(min(max(row, 0), len(self._items) - 1))
        self.list.setVisible(bool(self._items))
        self.alt.setVisible(bool(self._items))
        self._selected(self.list.currentRow())

    def items(self) -> list[MediaAttachment]:
        return list(self._items)

    def add_paths(self, paths: list[str]) -> list[str]:
        """Attach files; returns messages for the ones that could not be read."""
        problems = []
        added = list(self._items)
        for text in paths:
            path = Path(text)
            try:
                added.append(probe_file(path))
            except OSError as exc:
                problems.append(f"{path.name}: {exc.strerror or exc}")
            except MediaRefused as exc:
                problems.append(str(exc))
        self.error.show_messages(problems)
        if len(added) != len(self._items):
            self.set_items(added)
            self.changed.emit(self.items())
        return problems

    # -- actions -------------------------------------------------------------------------------
    def _add_clicked(self) -> None:
        paths = self.pick_files()
        if paths:
            self.add_paths(paths)

    def _ask_files(self) -> list[str]:
        paths, _ = QFileDialog.getOpenFileNames(self, "Add media", "", FILE_FILTER)
        return paths

    def _selected(self, row: int) -> None:
        has = 0 <= row < len(self._items)
        self.alt.setEnabled(has)
        self.alt.setText(self._items[row].alt if has else "")
        self._sync_buttons()

    def _sync_buttons(self) -> None:
        row = self.list.currentRow()
        has = 0 <= row < len(self._items)
        self.left.setEnabled(has and row > 0)
        self.right.setEnabled(has and row < len(self._items) - 1)
        self.remove_button.setEnabled(has)
        self.hint.setVisible(not self._items)

    def _alt_edited(self, text: str) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self._items):
            self._items[row] = self._items[row].model_copy(update={"alt": text})
            self.list.item(row).setToolTip(text or "No alt text yet")
            self.changed.emit(self.items())

    def _move(self, step: int) -> None:
        row = self.list.currentRow()
        to = row + step
        if 0 <= row < len(self._items) and 0 <= to < len(self._items):
            self._items.insert(to, self._items.pop(row))
            self.set_items(self._items)
            self.list.setCurrentRow(to)
            self.changed.emit(self.items())

    def _remove(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self._items):
            del self._items[row]
            self.set_items(self._items)
            self.changed.emit(self.items())

    # -- drag and drop -------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if paths:
            self.add_paths(paths)
            event.acceptProposedAction()
