"""Drag-and-drop payload: a post id under our own MIME type (never plain text, so a drop from
another application cannot move a post)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import QWidget

from ui.calendar.entries import Entry
from ui.calendar.style import paint_chip, small_font

if TYPE_CHECKING:
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QDragEnterEvent

POST_MIME_TYPE = "application/x-postdesk-post-id"


class DropTarget(NamedTuple):
    """Where a post was dropped: a day, and for time grids the snapped minutes after midnight."""

    day: date
    minutes: int | None = None


def post_mime_data(post_id: str) -> QMimeData:
    # Imported at the first drag: their classes (and enums) cost ~0.6 ms before the first paint.
    from PySide6.QtCore import QByteArray, QMimeData

    mime = QMimeData()
    mime.setData(POST_MIME_TYPE, QByteArray(post_id.encode("utf-8")))
    return mime


def post_id_from_mime(mime: QMimeData | None) -> str | None:
    if mime is None or not mime.hasFormat(POST_MIME_TYPE):
        return None
    raw = bytes(mime.data(POST_MIME_TYPE).data()).decode("utf-8", errors="replace").strip()
    return raw or None


def drag_pixmap(widget: QWidget, entry: Entry, size: QSize) -> QPixmap:
    """The post's chip as the picture under the pointer while dragging."""
    ratio = widget.devicePixelRatioF()
    pixmap = QPixmap(size * ratio)
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    paint_chip(
        painter,
        QRect(QPoint(0, 0), size),
        entry,
        widget.palette(),
        small_font(widget.font()),
        selected=True,
    )
    painter.end()
    return pixmap


def accept_post_drag(event: QDragEnterEvent) -> None:
    """Only our own post payload may be dropped on a calendar view."""
    if post_id_from_mime(event.mimeData()) is not None:
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()
    else:
        event.ignore()
