"""Reading contrast off a grabbed window: a region's background is its most common colour, its
ink the pixel farthest from it in luminance; the WCAG ratio between the two says whether text
in that region can be read."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from PySide6.QtCore import QAbstractListModel, QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QAbstractButton, QAbstractItemView, QLabel, QWidget


def luminance(color: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(color.redF())
        + 0.7152 * channel(color.greenF())
        + 0.0722 * channel(color.blueF())
    )


def ratio(one: QColor, two: QColor) -> float:
    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


class Reading(NamedTuple):
    what: str
    background: QColor
    ink: QColor
    ratio: float


def read_region(image: QImage, rect: QRect, what: str) -> Reading | None:
    """The contrast of `rect` in `image`; None for a region with one colour only (no text)."""
    rect = rect.intersected(image.rect())
    if rect.width() < 2 or rect.height() < 2:
        return None
    counts: Counter[int] = Counter()
    for y in range(rect.top(), rect.bottom() + 1):
        for x in range(rect.left(), rect.right() + 1):
            counts[image.pixel(x, y) & 0xFFFFFF] += 1
    if len(counts) < 2:
        return None
    background = QColor(counts.most_common(1)[0][0])
    base = luminance(background)
    ink_rgb = max(counts, key=lambda rgb: abs(luminance(QColor(rgb)) - base))
    ink = QColor(ink_rgb)
    return Reading(what, background, ink, ratio(background, ink))


def text_widgets(root: QWidget) -> list[QWidget]:
    """Visible, enabled labels and buttons under `root` that show text."""
    found: list[QWidget] = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisibleTo(root) or not widget.isEnabled():
            continue
        if widget.width() < 8 or widget.height() < 8:
            continue
        if (isinstance(widget, QLabel) and widget.text().strip() and widget.pixmap().isNull()) or (
            isinstance(widget, QAbstractButton) and widget.text().strip()
        ):
            found.append(widget)
    return found


def unreadable(window: QWidget, image: QImage, minimum: float = 3.0) -> list[Reading]:
    """Every text widget in `window` whose ink stands less than `minimum` : 1 from its ground."""
    scale = image.width() / max(window.width(), 1)
    poor: list[Reading] = []
    for widget in text_widgets(window):
        top_left = widget.mapTo(window, QPoint(0, 0))
        rect = QRect(
            round(top_left.x() * scale),
            round(top_left.y() * scale),
            round(widget.width() * scale),
            round(widget.height() * scale),
        )
        name = f"{type(widget).__name__} {widget.objectName() or ''} {_text(widget)!r}"
        reading = read_region(image, rect, name)
        if reading is not None and reading.ratio < minimum:
            poor.append(reading)
    return poor


def _text(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, (QLabel, QAbstractButton)) else ""
    return text[:30]


def unreadable_item_colours(window: QWidget, ground: QColor, minimum: float = 3.0) -> list[Reading]:
    """Text colours the item views' models give (ForegroundRole) that stand less than `minimum`
    : 1 from `ground` (the theme's surface)."""
    poor: list[Reading] = []
    for view in window.findChildren(QAbstractItemView):
        model = view.model()
        if model is None or not view.isVisibleTo(window):
            continue
        for row in range(min(model.rowCount(), 60)):
            columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount()
            for column in range(columns):
                colour = model.index(row, column).data(Qt.ItemDataRole.ForegroundRole)
                if isinstance(colour, QColor) and ratio(colour, ground) < minimum:
                    text = model.index(row, column).data(Qt.ItemDataRole.DisplayRole)
                    what = f"{type(view).__name__} {view.objectName()} {row},{column} {text!r}"
                    poor.append(Reading(what, ground, colour, ratio(colour, ground)))
    return poor
