"""Colours and the small painted pieces every calendar view shares (chips, pills, dots)."""

from __future__ import annotations

from typing import NamedTuple, TypeVar

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPen

from app.domain.enums import PostStatus, known
from ui import theme
from ui.calendar.entries import Entry
from ui.icons import network_pixmap

T = TypeVar("T")


def status_colors() -> dict[PostStatus | None, str]:
    """Chip colours by status, from the current theme (None: a status this client does not know)."""
    return theme.current().status_colors()


def status_color(raw: str | None) -> QColor:
    return QColor(status_colors()[known(PostStatus, raw)])


def accent_color() -> QColor:
    return QColor(theme.current().accent)


def focus_color() -> QColor:
    return QColor(theme.current().focus)


def today_color() -> QColor:
    return QColor(theme.current().today)


def on_accent_color() -> QColor:
    """Text on an accent or status fill."""
    return QColor(theme.current().on_accent)


def now_line_color() -> QColor:
    return QColor(theme.current().now_line)


def platform_status_color(raw: str | None) -> QColor:
    current = theme.current()
    colors = {"published": current.published, "failed": current.failed,
              "publishing": current.publishing}  # fmt: skip
    return QColor(colors.get(raw or "", current.draft))


def ink_on(fill: QColor) -> QColor:
    """Text colour for `fill`: white on dark and mid fills, near-black on light ones (by
    luminance, so light greens and cyans of the dark theme get dark text)."""
    luminance = (
        0.2126 * fill.redF() ** 2.2 + 0.7152 * fill.greenF() ** 2.2 + 0.0722 * fill.blueF() ** 2.2
    )
    return QColor("#111827") if luminance > 0.3 else QColor("#ffffff")


def mix(base: QColor, tint: QColor, amount: float) -> QColor:
    """`tint` laid over `base` at `amount` opacity; stays readable on light and dark palettes."""
    return QColor.fromRgbF(
        base.redF() + (tint.redF() - base.redF()) * amount,
        base.greenF() + (tint.greenF() - base.greenF()) * amount,
        base.blueF() + (tint.blueF() - base.blueF()) * amount,
    )


def surface(palette: QPalette) -> QColor:
    """The colour things are painted on; a style sheet may have made Base transparent."""
    for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Window):
        color = palette.color(role)
        if color.alpha() == 255:
            return color
    return QColor("#ffffff")


def is_dark(palette: QPalette) -> bool:
    return surface(palette).lightnessF() < 0.5


def resized_font(font: QFont, delta_points: float) -> QFont:
    """`font` grown or shrunk by points; style sheets often size fonts in pixels instead."""
    resized = QFont(font)
    if resized.pointSizeF() > 0:
        resized.setPointSizeF(max(resized.pointSizeF() + delta_points, 6.5))
    elif resized.pixelSize() > 0:
        resized.setPixelSize(max(round(resized.pixelSize() + delta_points * 4 / 3), 9))
    return resized


def small_font(font: QFont, delta: float = -0.5) -> QFont:
    return resized_font(font, delta)


def bold(font: QFont, weight: QFont.Weight = QFont.Weight.DemiBold) -> QFont:
    heavier = QFont(font)
    heavier.setWeight(weight)
    return heavier


def paint_label_dots(
    painter: QPainter,
    right: float,
    center_y: float,
    colors: tuple[str, ...],
    *,
    diameter: float = 7.0,
    limit: int = 3,
) -> float:
    """Coloured dots ending at `right`; returns the x where they start."""
    shown = colors[:limit]
    x = right
    for color in reversed(shown):
        x -= diameter
        painter.setPen(QPen(QColor(0, 0, 0, 40), 0.8))
        painter.setBrush(QColor(color))
        painter.drawEllipse(QRectF(x, center_y - diameter / 2, diameter, diameter))
        x -= 3
    return x


CHIP_LINE_HEIGHT = 17
"""Height of one text line in a chip; a chip this tall or more per line shows that many lines."""
BUSY_TEXT = "Saving…"


def split_lines(text: str, metrics: QFontMetrics, first: int, second: int) -> tuple[str, str]:
    """`text` over two lines of `first` and `second` pixels, broken between words; the second
    line is elided. A word too long for the first line starts the second one."""
    words = text.split()
    taken: list[str] = []
    for word in words:
        candidate = " ".join([*taken, word])
        if metrics.horizontalAdvance(candidate) > first:
            break
        taken.append(word)
    if not taken and words and second <= 0:
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, first), ""
    rest = " ".join(words[len(taken) :])
    return " ".join(taken), metrics.elidedText(rest, Qt.TextElideMode.ElideRight, max(second, 0))


class _TextMemo:
    """Measured and elided chip text, by font and width: painting a month asks for the same
    few hundred strings at the same widths over and over, and measuring them is most of a
    chip's cost."""

    LIMIT = 20_000

    def __init__(self) -> None:
        self._metrics: dict[str, QFontMetrics] = {}
        self._texts: dict[tuple[object, ...], object] = {}

    def _remember(self, key: tuple[object, ...], value: T) -> T:
        if len(self._texts) > self.LIMIT:
            self._texts.clear()
        self._texts[key] = value
        return value

    def metrics(self, font: QFont, key: str) -> QFontMetrics:
        found = self._metrics.get(key)
        if found is None:
            found = self._metrics[key] = QFontMetrics(font)
        return found

    def width(self, text: str, font: QFont, key: str) -> int:
        found = self._texts.get(("w", text, key))
        if isinstance(found, int):
            return found
        return self._remember(("w", text, key), self.metrics(font, key).horizontalAdvance(text))

    def elided(self, text: str, font: QFont, key: str, width: int) -> str:
        found = self._texts.get(("e", text, key, width))
        if isinstance(found, str):
            return found
        elided = self.metrics(font, key).elidedText(text, Qt.TextElideMode.ElideRight, width)
        return self._remember(("e", text, key, width), elided)

    def split(self, text: str, font: QFont, key: str, first: int, second: int) -> tuple[str, str]:
        found = self._texts.get(("s", text, key, first, second))
        if isinstance(found, tuple):
            return found
        lines = split_lines(text, self.metrics(font, key), first, second)
        return self._remember(("s", text, key, first, second), lines)


_TEXT_MEMO = _TextMemo()
CHIP_TEXT = _TEXT_MEMO
"""The measurements shared by every chip painter (the month chip's own module too)."""


def paint_chip_body(
    painter: QPainter,
    rect: QRect,
    entry: Entry,
    palette: QPalette,
    selected: bool,
    dragging: bool,
    busy: bool,
) -> tuple[QRectF, QColor]:
    """A chip's rounded body in its status colour (a dashed outline for a status this client
    does not know, a bar on the left unless selected); returns the body and the text colour.
    Leaves antialiasing on and the opacity lowered for a busy or dragged chip: call between
    `painter.save()` and `restore()`."""
    color = status_color(entry.status)
    base = surface(palette)
    text_color = palette.color(QPalette.ColorRole.Text)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    if busy or dragging:
        painter.setOpacity(painter.opacity() * (0.5 if dragging else 0.6))
    body = QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5)
    if selected:
        fill, text_color = color, ink_on(color)
    else:
        fill = mix(base, color, 0.22 if is_dark(palette) else 0.12)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(fill)
    painter.drawRoundedRect(body, 4, 4)
    if entry.known_status is None:  # unknown status: dashed outline so it never passes unseen
        pen = QPen(color, 1.2, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(body.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
    if not selected:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawRoundedRect(QRectF(body.left(), body.top(), 3.0, body.height()), 1.5, 1.5)
    return body, text_color


def paint_chip(
    painter: QPainter,
    rect: QRect,
    entry: Entry,
    palette: QPalette,
    font: QFont,
    *,
    selected: bool = False,
    dragging: bool = False,
    busy: bool = False,
    show_time: bool = True,
) -> None:
    """One post as a chip: status bar, time, network icon, first line of text, label dots.

    A chip tall enough for two lines wraps the text onto the second one. Narrow chips give their
    room to the text first (the time and the rest are in the tooltip), so a month cell at the
    smallest window still reads as words rather than three letters.
    """
    painter.save()
    body, text_color = paint_chip_body(painter, rect, entry, palette, selected, dragging, busy)
    painter.setClipRect(body)
    lines = 2 if body.height() >= 2 * CHIP_LINE_HEIGHT else 1
    line_height = body.height() / lines if lines == 1 else CHIP_LINE_HEIGHT
    top = body.top() + (0 if lines == 1 else (body.height() - 2 * CHIP_LINE_HEIGHT) / 2)
    first_line = QRectF(body.left(), top, body.width(), line_height)
    x = body.left() + 7
    center_y = first_line.center().y()
    right = body.right() - 4
    if entry.label_colors and body.width() >= 140:
        right = paint_label_dots(painter, right, center_y, entry.label_colors, diameter=6.5) - 1
    painter.setPen(text_color)
    time_text = BUSY_TEXT if busy else entry.time_text if show_time else ""
    if lines == 1 and not busy:
        x = _one_line_head(painter, body, x, right, time_text, entry.platform, font, line_height)
    else:
        if time_text and (busy or body.width() >= 96 or lines == 2):
            time_font = bold(font)
            if busy:
                time_font.setItalic(True)
            painter.setFont(time_font)
            width = _TEXT_MEMO.width(time_text, time_font, time_font.key())
            painter.drawText(
                QRectF(x, first_line.top(), width + 1, line_height),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                time_text,
            )
            x += width + 5
        icon_size = min(14, int(line_height) - 3)
        # Two lines: the icon may take the rest of the first line (the text goes on the second).
        room_after = 2 if lines == 2 else 40
        if (
            icon_size >= 8
            and x + icon_size + room_after < right
            and (body.width() >= 110 or lines == 2)
        ):
            dpr = painter.device().devicePixelRatioF() if painter.device() else 1.0
            pixmap = network_pixmap(entry.platform, icon_size, dpr)
            painter.drawPixmap(QPointF(x, center_y - icon_size / 2), pixmap)
            x += icon_size + 5
    painter.setFont(font)
    font_key = font.key()
    text = entry.summary if entry.known_status is not None else f"? {entry.summary}"
    align = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
    text_left = body.left() + 7
    if lines == 2:
        second_width = int(body.right() - 4 - text_left)
        one, two = _TEXT_MEMO.split(text, font, font_key, int(right - x), second_width)
        painter.drawText(QRectF(x, first_line.top(), right - x, line_height), align, one)
        painter.drawText(
            QRectF(text_left, first_line.bottom(), second_width, line_height), align, two
        )
    elif right - x > 8:
        elided = _TEXT_MEMO.elided(text, font, font_key, int(right - x))
        painter.drawText(QRectF(x, first_line.top(), right - x, line_height), align, elided)
    painter.restore()


ONE_LINE_ICON = 12
ONE_LINE_GAP = 3


class OneLineHead(NamedTuple):
    """Where a one-line chip's parts go, as offsets from the chip's left edge."""

    icon_left: float | None  # None: no room for the network icon
    time_left: float | None  # None: no room for the time
    text_left: float


def one_line_head(width: float, time_text: str, font: QFont) -> OneLineHead:
    """A one-line chip (`paint_chip`: week blocks, the tray's drag picture): network icon,
    compact time in the small bold font, then the text. The icon and time go only while the
    text keeps ~8 characters (`font`'s average width). Month chips are `month_chip`'s."""
    x = 7.0
    least_text = 8 * _TEXT_MEMO.width("abcdefghij", font, font.key()) / 10
    right = width - 4
    icon_left: float | None = None
    if x + ONE_LINE_ICON + ONE_LINE_GAP + least_text <= right:
        icon_left = x - 1
        x += ONE_LINE_ICON + ONE_LINE_GAP - 1
    time_left: float | None = None
    if time_text:
        time_font = small_font(bold(font), -0.5)
        time_width = _TEXT_MEMO.width(time_text, time_font, time_font.key())
        if x + time_width + ONE_LINE_GAP + least_text <= right:
            time_left = x
            x += time_width + ONE_LINE_GAP
    return OneLineHead(icon_left, time_left, x)


def _one_line_head(
    painter: QPainter,
    body: QRectF,
    x: float,
    right: float,
    time_text: str,
    platform: str | None,
    font: QFont,
    line_height: float,
) -> float:
    head = one_line_head(right - body.left() + 4, time_text, font)
    center_y = body.top() + line_height / 2
    if head.icon_left is not None:
        dpr = painter.device().devicePixelRatioF() if painter.device() else 1.0
        pixmap = network_pixmap(platform, ONE_LINE_ICON, dpr)
        painter.drawPixmap(
            QPointF(body.left() + head.icon_left, center_y - ONE_LINE_ICON / 2), pixmap
        )
    if head.time_left is not None:
        time_font = small_font(bold(font), -0.5)
        painter.setFont(time_font)
        painter.drawText(
            QRectF(body.left() + head.time_left, body.top(), right - head.time_left, line_height),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            time_text,
        )
    return body.left() + head.text_left


def paint_pill(
    painter: QPainter, rect: QRectF, text: str, color: QColor, font: QFont, *, filled: bool = False
) -> None:
    """A rounded tag (status or label)."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(Qt.PenStyle.NoPen)
    if filled:
        painter.setBrush(color)
        text_color = ink_on(color)
    else:
        tint = QColor(color)
        tint.setAlphaF(0.14)
        painter.setBrush(tint)
        text_color = color.lighter(130) if theme.current().dark else color.darker(135)
    painter.drawRoundedRect(rect, rect.height() / 2, rect.height() / 2)
    painter.setPen(text_color)
    painter.setFont(font)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()


def pill_width(text: str, font: QFont) -> int:
    return QFontMetrics(font).horizontalAdvance(text) + 14


PAGE_STYLE_TEMPLATE = """
QWidget#calendarPage { background: $window; }
#calendarPage QLabel#periodTitle { font-size: 20px; font-weight: 600; padding-left: 4px; }
#calendarPage QLabel#muted { color: $muted; }
#calendarPage QToolButton#todayButton, #calendarPage QToolButton#navButton,
#calendarPage QToolButton#trayToggle, #calendarPage QToolButton#segment {
    border: 1px solid $control_line; border-radius: 6px; padding: 5px 12px; background: $surface;
}
#calendarPage QToolButton#navButton { font-size: 18px; padding: 1px 10px 3px 10px; }
#calendarPage QToolButton#todayButton:hover, #calendarPage QToolButton#navButton:hover,
#calendarPage QToolButton#trayToggle:hover, #calendarPage QToolButton#segment:hover {
    background: $hover;
}
#calendarPage QToolButton#trayToggle:checked { background: $checked; border-color: $checked_line;
    color: $accent_strong; }
#calendarPage QToolButton#segment { border-radius: 0px; padding: 5px 16px; }
#calendarPage QToolButton#segment[position="first"] {
    border-top-left-radius: 6px; border-bottom-left-radius: 6px;
}
#calendarPage QToolButton#segment[position="middle"] { border-left: none; }
#calendarPage QToolButton#segment[position="last"] {
    border-left: none; border-top-right-radius: 6px; border-bottom-right-radius: 6px;
}
#calendarPage QToolButton#segment:checked { background: $accent; color: $on_accent;
    border-color: $accent; font-weight: 600; }
#calendarPage QFrame#trayPanel, #calendarPage QFrame#postDetailPanel,
#calendarPage QStackedWidget#calendarViews {
    background: $surface; border: 1px solid $line; border-radius: 8px;
}
#calendarPage QListView#trayList, #calendarPage QListView#agendaView {
    border: none; background: $surface;
}
#calendarPage QWidget#detailBody { background: $surface; }
#calendarPage QScrollArea#detailScroll { border: 2px solid transparent; }
#calendarPage QLabel#trayTitle { font-weight: 600; }
#calendarPage QLabel#sectionTitle { font-weight: 600; color: $muted; padding-top: 6px; }
#calendarPage QLabel#detailWhen { font-size: 15px; font-weight: 600; }
#calendarPage QLabel#detailContent {
    background: $sunken; border: 1px solid $soft_line; border-radius: 6px; padding: 10px;
}
#calendarPage QFrame#platformRow { border: 1px solid $line; border-radius: 6px; }
#calendarPage QLabel#platformName { font-weight: 600; }
#calendarPage QLabel#mediaItem { color: $strong_text; }
#calendarPage QPushButton#linkButton { color: $accent; border: none; padding: 0px;
    background: transparent; text-align: left; }
#calendarPage QPushButton#linkButton:hover { text-decoration: underline; }
#calendarPage QToolButton#actionButton, #calendarPage QToolButton#dangerButton {
    border: 1px solid $control_line; border-radius: 6px; padding: 5px 10px; background: $surface;
}
#calendarPage QToolButton#actionButton:hover { background: $hover; }
#calendarPage QToolButton#dangerButton { color: $danger; border-color: $danger_line; }
#calendarPage QToolButton#dangerButton:hover { background: $danger_hover; }
#calendarPage QToolButton#closeDetail { border: none; padding: 2px 6px; color: $muted; }
#calendarPage QToolButton#closeDetail:hover { background: $hover; border-radius: 4px; }
#calendarPage QFrame#separator { color: $line; }
#calendarPage QFrame#emptyState {
    background: $surface; border: 1px solid $line; border-radius: 10px;
}
#calendarPage QLabel#emptyTitle { font-size: 16px; font-weight: 600; }
#calendarPage QPushButton#primaryButton {
    background: $accent; color: $on_accent; border: none; border-radius: 6px; padding: 6px 16px;
}
#calendarPage QPushButton#primaryButton:hover { background: $accent_strong; }
QFrame#dayPopup { background: $popup; border: 1px solid $control_line; border-radius: 8px; }
QFrame#dayPopup QLabel#dayPopupTitle { font-weight: 600; padding-left: 6px; }
QFrame#dayPopup QListView { border: none; background: $surface; }
#calendarPage QScrollArea#detailScroll:focus,
#calendarPage QAbstractScrollArea#weekView:focus, #calendarPage QListView#trayList:focus,
#calendarPage QListView#agendaView:focus {
    border: 2px solid $focus;
}
#calendarPage QToolButton:focus, #calendarPage QPushButton:focus,
#calendarPage QToolButton#todayButton:focus, #calendarPage QToolButton#navButton:focus,
#calendarPage QToolButton#trayToggle:focus, #calendarPage QToolButton#segment:focus,
#calendarPage QToolButton#actionButton:focus, #calendarPage QToolButton#dangerButton:focus,
#calendarPage QToolButton#closeDetail:focus, #calendarPage QPushButton#linkButton:focus,
#calendarPage QPushButton#primaryButton:focus {
    border: 2px solid $focus;
}
"""


def page_style() -> str:
    """The calendar's style sheet in the current theme's colours."""
    return theme.current().fill(PAGE_STYLE_TEMPLATE)
