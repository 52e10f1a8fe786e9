"""Drag-and-drop payload: a post id under our own MIME type (never plain text, so a drop from
another application cannot move a post)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from PySide6.QtCore import QByteArray, QMimeData

POST_MIME_TYPE = "application/x-postdesk-post-id"


@dataclass(frozen=True)
class DropTarget:
    """Where a post was dropped: a day, and for time grids the snapped minutes after midnight."""

    day: date
    minutes: int | None = None


def post_mime_data(post_id: str) -> QMimeData:
    mime = QMimeData()
    mime.setData(POST_MIME_TYPE, QByteArray(post_id.encode("utf-8")))
    return mime


def post_id_from_mime(mime: QMimeData | None) -> str | None:
    if mime is None or not mime.hasFormat(POST_MIME_TYPE):
        return None
    raw = bytes(mime.data(POST_MIME_TYPE).data()).decode("utf-8", errors="replace").strip()
    return raw or None
