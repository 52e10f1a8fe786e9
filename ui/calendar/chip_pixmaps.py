"""Month chips painted once into pixmaps and copied on every later paint.

A dense month shows ~80 chips; drawing each one's rounded body, icon and text costs ~0.1 ms,
which made every repaint of the grid (a month switch, a reload after a sync) cost ~10 ms.
A chip's picture depends only on its entry (a new object when the post changed), its size,
its state flags, the font, the palette and whether its thumbnail is there yet, so that is the
key; copying a pixmap is ~10 µs.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QPainter, QPalette, QPixmap

from ui.calendar.entries import Entry
from ui.calendar.month_chip import (
    ThumbnailSource,
    paint_month_chip,
    thumbnail_fits,
    thumbnail_side,
)

ChipKey = tuple[str, int, int, bool, bool, bool, str, int, float, int]

NO_THUMBNAIL, THUMBNAIL_PENDING, THUMBNAIL_SHOWN = 0, 1, 2


class ChipPixmaps:
    LIMIT = 1500
    """~12 KB a chip: enough for a few months of chips, a bounded amount of memory."""

    def __init__(self) -> None:
        self._pixmaps: dict[ChipKey, tuple[Entry, QPixmap]] = {}
        self.thumbnails: ThumbnailSource | None = None
        """Where chips wide enough for a thumbnail get it from (None: no thumbnails)."""

    def __len__(self) -> int:
        return len(self._pixmaps)

    def paint(
        self,
        painter: QPainter,
        rect: QRect,
        entry: Entry,
        palette: QPalette,
        font: QFont,
        font_key: str,
        *,
        selected: bool = False,
        dragging: bool = False,
        busy: bool = False,
    ) -> None:
        device = painter.device()
        ratio = device.devicePixelRatioF() if device is not None else 1.0
        pixmap = self._pixmap(rect, entry, palette, font, font_key, ratio, selected, dragging, busy)
        painter.drawPixmap(rect.topLeft(), pixmap)

    def prepare(
        self,
        rect: QRect,
        entry: Entry,
        palette: QPalette,
        font: QFont,
        font_key: str,
        ratio: float,
        *,
        selected: bool = False,
        busy: bool = False,
    ) -> None:
        """Have the chip's pixmap ready for a later `paint`."""
        self._pixmap(rect, entry, palette, font, font_key, ratio, selected, False, busy)

    def _pixmap(
        self,
        rect: QRect,
        entry: Entry,
        palette: QPalette,
        font: QFont,
        font_key: str,
        ratio: float,
        selected: bool,
        dragging: bool,
        busy: bool,
    ) -> QPixmap:
        thumbnail = self._thumbnail(rect, entry, font)
        state = NO_THUMBNAIL
        if thumbnail is not False:
            state = THUMBNAIL_PENDING if thumbnail is None else THUMBNAIL_SHOWN
        key: ChipKey = (
            entry.id,
            rect.width(),
            rect.height(),
            selected,
            dragging,
            busy,
            font_key,
            palette.cacheKey(),
            ratio,
            state,
        )
        found = self._pixmaps.get(key)
        if found is None or found[0] is not entry:
            pixmap = self._render(
                rect, entry, palette, font, ratio, selected, dragging, busy, thumbnail
            )
            if len(self._pixmaps) >= self.LIMIT:
                self._pixmaps.clear()
            self._pixmaps[key] = (entry, pixmap)
            return pixmap
        return found[1]

    def _thumbnail(self, rect: QRect, entry: Entry, font: QFont) -> QPixmap | bool | None:
        """False: the chip shows no thumbnail; None: it shows one that is not ready yet."""
        url = entry.card.thumb_url
        source = self.thumbnails
        if source is None or not url or not thumbnail_fits(rect.width(), rect.height(), font):
            return False
        return source.pixmap(url, thumbnail_side(rect.height()))

    @staticmethod
    def _render(
        rect: QRect,
        entry: Entry,
        palette: QPalette,
        font: QFont,
        ratio: float,
        selected: bool,
        dragging: bool,
        busy: bool,
        thumbnail: QPixmap | bool | None,
    ) -> QPixmap:
        pixmap = QPixmap(round(rect.width() * ratio), round(rect.height() * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        paint_month_chip(
            painter,
            QRect(0, 0, rect.width(), rect.height()),
            entry,
            palette,
            font,
            selected=selected,
            dragging=dragging,
            busy=busy,
            thumbnail=thumbnail if isinstance(thumbnail, QPixmap) else None,
            thumbnail_room=thumbnail is not False,
        )
        painter.end()
        return pixmap
