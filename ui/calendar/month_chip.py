"""A month chip: two lines on every day, so a busy day shows fewer chips but readable ones.

Line 1 holds the network icon and the compact time ("9:30"), then the text begins; the text
goes on over the whole second line (broken between words, elided at the end). At 1360×860 a
chip is ~125 px wide and shows 20 or more characters of the post's first line; with the detail
panel open (~75 px) the icon and the time stay and the text gets what is left. A chip too low
for two lines (a window at its minimum height) falls back to one line: icon, time, text.

Where a chip is wide enough, a media thumbnail spans both lines on the left; only while the
text beside it still holds `LEAST_CHARACTERS` (see `thumbnail_fits`).

`month_chip_layout` is the one place that decides what goes where; painting and the tests both
read it, so what the tests count is what is drawn.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QFont, QPainter, QPainterPath, QPalette, QPixmap

from ui.calendar.entries import Entry
from ui.calendar.style import (
    BUSY_TEXT,
    CHIP_LINE_HEIGHT,
    CHIP_TEXT,
    bold,
    mix,
    paint_chip_body,
    paint_label_dots,
    surface,
)
from ui.icons import network_pixmap

TWO_LINES = 2 * CHIP_LINE_HEIGHT + 2
"""A month chip's height when the cell has room for one (36 px)."""
ONE_LINE = 21
"""The fallback height, for cells lower than a two-line chip."""
LEAST_CHARACTERS = 14
"""What issue 16 asks a chip to show of its post at 1360×860; a thumbnail never takes it away."""

ICON = 12
GAP = 3
LEFT = 6  # after the 3 px status bar
RIGHT = 4
DOTS_FROM = 140  # label dots only on chips at least this wide: they take text room
THUMB_GAP = 4
MID_WORD_LEAST = 3  # characters of a broken word on line 1; fewer read as noise


class ThumbnailSource(Protocol):
    """Media thumbnails by URL (the calendar's `Thumbnails`): never blocks, None until ready."""

    def pixmap(self, url: str | None, side: int) -> QPixmap | None: ...


class MonthChipLayout(NamedTuple):
    """Where a month chip's parts go, relative to the chip's top left."""

    icon: QRectF | None
    time: QRectF | None
    first: str  # the text on line 1 after the time
    first_rect: QRectF
    second: str  # the rest, on line 2 (elided)
    second_rect: QRectF
    thumb: QRectF | None
    dots_right: float | None  # label dots end here (None: no dots)
    mid_word: bool = False  # the lines break inside a word (no space between them)

    def shown_characters(self) -> int:
        """How many characters of the post's text the chip shows (the ellipsis not counted)."""
        second = self.second.removesuffix("…")
        joined = " " if self.first and second and not self.mid_word else ""
        return len(self.first) + len(joined) + len(second)


def thumbnail_side(height: int) -> int:
    return height - 6


SAMPLE = "Our new blend is here: bright, floral, with a finish like peach iced tea."
"""Text of a post as posts read (words, spaces, punctuation), for an average character."""


def thumbnail_fits(width: int, height: int, font: QFont) -> bool:
    """True when a chip this size keeps `LEAST_CHARACTERS` of text beside a thumbnail: its
    second line alone (from the thumbnail's right edge) holds that many average characters
    and the ellipsis. Decided by size, so a column of chips lines up; `month_chip_layout`
    still drops the thumbnail of a post whose words would then show fewer."""
    if height < TWO_LINES:
        return False
    average = CHIP_TEXT.width(SAMPLE, font, font.key()) / len(SAMPLE)
    text_left = LEFT + thumbnail_side(height) + THUMB_GAP
    return width - RIGHT - text_left >= (LEAST_CHARACTERS + 1) * average


def month_chip_layout(
    width: int,
    height: int,
    time_text: str,
    text: str,
    font: QFont,
    *,
    labels: int = 0,
    thumbnail: bool = False,
) -> MonthChipLayout:
    """The parts of a `width`×`height` chip showing `time_text` and `text` in `font` (the time
    in its bold form); `labels` label dots at the end of line 1; a thumbnail on the left when
    asked, `thumbnail_fits` and the text keeps `LEAST_CHARACTERS` (or all of it) beside it."""
    if thumbnail:
        with_thumbnail = _layout(width, height, time_text, text, font, labels, thumbnail=True)
        shown = with_thumbnail.shown_characters()
        if with_thumbnail.thumb is None or shown >= min(LEAST_CHARACTERS, len(text)):
            return with_thumbnail
    return _layout(width, height, time_text, text, font, labels, thumbnail=False)


def _layout(
    width: int,
    height: int,
    time_text: str,
    text: str,
    font: QFont,
    labels: int,
    *,
    thumbnail: bool,
) -> MonthChipLayout:
    two_lines = height >= TWO_LINES
    line = float(CHIP_LINE_HEIGHT) if two_lines else float(height)
    top = (height - 2 * CHIP_LINE_HEIGHT) / 2 if two_lines else 0.0
    right = float(width - RIGHT)
    thumb: QRectF | None = None
    x = float(LEFT)
    if thumbnail and thumbnail_fits(width, height, font):
        side = thumbnail_side(height)
        thumb = QRectF(LEFT, (height - side) / 2, side, side)
        x += side + THUMB_GAP
    text_left = x
    dots_right: float | None = None
    if labels and width >= DOTS_FROM:
        dots_right = right
        right -= labels * (6.5 + 3) + 1
    icon = QRectF(x, top + (line - ICON) / 2, ICON, ICON)
    x += ICON + GAP
    time: QRectF | None = None
    if time_text:
        time_font = bold(font)
        time_width = CHIP_TEXT.width(time_text, time_font, time_font.key())
        time = QRectF(x, top, time_width + 1, line)
        x += time_width + GAP + 1
    first_rect = QRectF(x, top, max(right - x, 0.0), line)
    if not two_lines:
        first = CHIP_TEXT.elided(text, font, font.key(), int(first_rect.width()))
        return MonthChipLayout(icon, time, first, first_rect, "", QRectF(), thumb, dots_right)
    second_rect = QRectF(text_left, top + line, width - RIGHT - text_left, line)
    first_width, second_width = int(first_rect.width()), int(second_rect.width())
    first, second = CHIP_TEXT.split(text, font, font.key(), first_width, second_width)
    if not first and text and _too_long_for_a_line(text, font, second_width):
        # A first "word" wider than a whole line (a link, text without spaces such as
        # Chinese or Japanese) is elided anyway: it starts on line 1 and runs on, unless
        # line 1 would hold only a sliver of it.
        first, second = _break_anywhere(text, font, first_width, second_width)
        if len(first) < MID_WORD_LEAST:
            first, second = "", CHIP_TEXT.elided(text, font, font.key(), second_width)
        return MonthChipLayout(
            icon, time, first, first_rect, second, second_rect, thumb, dots_right, mid_word=True
        )
    return MonthChipLayout(icon, time, first, first_rect, second, second_rect, thumb, dots_right)


def _too_long_for_a_line(text: str, font: QFont, width: int) -> bool:
    word = text.split(maxsplit=1)[0] if text.split() else text
    return CHIP_TEXT.width(word, font, font.key()) > width


def _break_anywhere(text: str, font: QFont, first: int, second: int) -> tuple[str, str]:
    """`text` over two lines broken between characters: the longest start that fits `first`
    pixels, then the rest elided to `second`."""
    metrics = CHIP_TEXT.metrics(font, font.key())
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits
        middle = (low + high + 1) // 2
        if metrics.horizontalAdvance(text[:middle]) <= first:
            low = middle
        else:
            high = middle - 1
    rest = text[low:].lstrip()
    return text[:low].rstrip(), CHIP_TEXT.elided(rest, font, font.key(), max(second, 0))


def chip_text(entry: Entry) -> str:
    return entry.summary if entry.known_status is not None else f"? {entry.summary}"


def paint_month_chip(
    painter: QPainter,
    rect: QRect,
    entry: Entry,
    palette: QPalette,
    font: QFont,
    *,
    selected: bool = False,
    dragging: bool = False,
    busy: bool = False,
    thumbnail: QPixmap | None = None,
    thumbnail_room: bool = False,
) -> None:
    """`entry` as a month chip in `rect`. `thumbnail_room`: the chip shows its post's thumbnail
    (`thumbnail`, or a placeholder of the same size until it is ready)."""
    painter.save()
    body, text_color = paint_chip_body(painter, rect, entry, palette, selected, dragging, busy)
    painter.setClipRect(body)
    time_text = BUSY_TEXT if busy else entry.time_text
    layout = month_chip_layout(
        rect.width(),
        rect.height(),
        time_text,
        chip_text(entry),
        font,
        labels=min(len(entry.label_colors), 3),
        thumbnail=thumbnail_room,
    )
    origin = QPointF(rect.topLeft())
    if layout.thumb is not None:
        _paint_thumbnail(painter, layout.thumb.translated(origin), thumbnail, palette)
    if layout.icon is not None:
        device = painter.device()
        ratio = device.devicePixelRatioF() if device is not None else 1.0
        icon = layout.icon.translated(origin)
        painter.drawPixmap(icon.topLeft(), network_pixmap(entry.platform, ICON, ratio))
    if layout.dots_right is not None:
        center_y = layout.first_rect.center().y() + origin.y()
        paint_label_dots(
            painter, layout.dots_right + origin.x(), center_y, entry.label_colors, diameter=6.5
        )
    align = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
    painter.setPen(text_color)
    if layout.time is not None:
        time_font = bold(font)
        time_font.setItalic(busy)
        painter.setFont(time_font)
        painter.drawText(layout.time.translated(origin), align, time_text)
    painter.setFont(font)
    if layout.first:
        painter.drawText(layout.first_rect.translated(origin), align, layout.first)
    if layout.second:
        painter.drawText(layout.second_rect.translated(origin), align, layout.second)
    painter.restore()


def _paint_thumbnail(
    painter: QPainter, rect: QRectF, pixmap: QPixmap | None, palette: QPalette
) -> None:
    painter.save()
    path = QPainterPath()
    path.addRoundedRect(rect, 3, 3)
    painter.setClipPath(path, Qt.ClipOperation.IntersectClip)
    if pixmap is None or pixmap.isNull():  # not loaded yet: a quiet square keeps the layout
        text = palette.color(QPalette.ColorRole.Text)
        painter.fillRect(rect, mix(surface(palette), text, 0.10))
    else:  # cover the square: the middle of the picture, scaled
        source = QRectF(pixmap.rect())  # in the pixmap's own pixels
        side = min(source.width(), source.height())
        crop = QRectF((source.width() - side) / 2, (source.height() - side) / 2, side, side)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        painter.drawPixmap(rect, pixmap, crop)
    painter.restore()
