"""A list of posts grouped under day headers: the model and delegate behind the agenda, the
"Unscheduled" tray and the "+N more" popup."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from ui.calendar.drag import POST_MIME_TYPE, post_mime_data
from ui.calendar.entries import Entry
from ui.calendar.style import (
    accent_color,
    bold,
    mix,
    paint_pill,
    pill_width,
    small_font,
    status_color,
    surface,
    today_color,
)
from ui.icons import network_name, network_pixmap
from ui.locale_text import long_date

Index = QModelIndex | QPersistentModelIndex


class RowKind(IntEnum):
    HEADER = 0
    POST = 1
    EMPTY = 2


@dataclass(frozen=True)
class Row:
    kind: RowKind
    day: date | None = None
    entry: Entry | None = None
    text: str = ""


KIND_ROLE = Qt.ItemDataRole.UserRole + 1
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2
DAY_ROLE = Qt.ItemDataRole.UserRole + 3
POST_ID_ROLE = Qt.ItemDataRole.UserRole + 4
TEXT_ROLE = Qt.ItemDataRole.UserRole + 5
MARKED_ROLE = Qt.ItemDataRole.UserRole + 6
"""Whether the row's post is one of several picked (Ctrl/Shift+click, Ctrl+A)."""


def tray_lines(entry: Entry) -> tuple[str, str]:
    """A tray row: the post's text first (its drafts mostly share one account), then who."""
    return entry.summary or "(no text)", f"{entry.account_text} · {network_name(entry.platform)}"


def day_title(day: date) -> str:
    return long_date(day)


def agenda_rows(entries: Iterable[Entry], days: Sequence[date], today: date) -> list[Row]:
    """Day headers, each followed by its posts in time order (ties by id: the order the arrows
    and Shift+click walk, `ui.calendar.keyboard.ordered`); today is listed even when empty."""
    by_day: dict[date, list[Entry]] = {}
    for entry in entries:
        if entry.day is not None:
            by_day.setdefault(entry.day, []).append(entry)
    rows: list[Row] = []
    for day in days:
        day_entries = sorted(by_day.get(day, []), key=lambda item: (item.local, item.id))
        if not day_entries and day != today:
            continue
        count = len(day_entries)
        rows.append(Row(RowKind.HEADER, day, text=f"{count} post" + ("" if count == 1 else "s")))
        rows.extend(Row(RowKind.POST, day, entry) for entry in day_entries)
        if not day_entries:
            rows.append(Row(RowKind.EMPTY, day, text="Nothing scheduled today"))
    return rows


def post_rows(entries: Iterable[Entry]) -> list[Row]:
    return [Row(RowKind.POST, entry.day, entry) for entry in entries]


class PostListModel(QAbstractListModel):
    def __init__(self, parent: QWidget | None = None, *, draggable: bool = False) -> None:
        super().__init__(parent)
        self._rows: list[Row] = []
        self._draggable = draggable
        self._marked: frozenset[str] = frozenset()

    def set_rows(self, rows: list[Row]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def set_marked(self, marked: frozenset[str]) -> None:
        """Paint these posts as picked; only the rows whose mark changed are repainted."""
        changed = marked ^ self._marked
        self._marked = marked
        for number, row in enumerate(self._rows):
            if row.entry is not None and row.entry.id in changed:
                index = self.index(number)
                self.dataChanged.emit(index, index)

    def rows(self) -> list[Row]:
        return list(self._rows)

    def post_ids(self) -> list[str]:
        return [row.entry.id for row in self._rows if row.entry is not None]

    def row_of(self, post_id: str | None) -> int:
        for number, row in enumerate(self._rows):
            if row.entry is not None and row.entry.id == post_id:
                return number
        return -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == KIND_ROLE:
            return row.kind
        if role == ENTRY_ROLE:
            return row.entry
        if role == DAY_ROLE:
            return row.day
        if role == POST_ID_ROLE:
            return row.entry.id if row.entry is not None else None
        if role == TEXT_ROLE:
            return row.text
        if role == MARKED_ROLE:
            return row.entry is not None and row.entry.id in self._marked
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            text = self._describe(row)
            picked = row.entry is not None and row.entry.id in self._marked
            if picked and role == Qt.ItemDataRole.AccessibleTextRole:
                text += " — picked with others"
            return text
        return None

    @staticmethod
    def _describe(row: Row) -> str:
        if row.kind is RowKind.HEADER and row.day is not None:
            return f"{day_title(row.day)} — {row.text}"
        if row.entry is not None:
            entry = row.entry
            when = entry.time_text or "No date"
            return f"{when} {entry.status_text} — {entry.account_text} — {entry.summary}"
        return row.text

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        row = self._rows[index.row()]
        if row.kind is not RowKind.POST:
            return Qt.ItemFlag.ItemIsEnabled
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if self._draggable and row.entry is not None and row.entry.draggable:
            flags |= Qt.ItemFlag.ItemIsDragEnabled
        return flags

    def mimeTypes(self) -> list[str]:
        return [POST_MIME_TYPE]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        for index in indexes:
            entry = self.data(index, ENTRY_ROLE)
            if isinstance(entry, Entry):
                return post_mime_data(entry.id)
        return QMimeData()

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction


class PostRowDelegate(QStyledItemDelegate):
    """Paints day headers and post rows: time, network, account, first line, status, labels."""

    POST_HEIGHT = 54
    HEADER_HEIGHT = 40
    EMPTY_HEIGHT = 34

    def __init__(
        self,
        today: Callable[[], date],
        parent: QWidget | None = None,
        *,
        show_time: bool = True,
        show_status: bool = True,
        compact: bool = False,
    ) -> None:
        super().__init__(parent)
        self._today = today
        self._show_time = show_time
        self._show_status = show_status
        self._compact = compact

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        kind = index.data(KIND_ROLE)
        height = {
            RowKind.HEADER: self.HEADER_HEIGHT,
            RowKind.EMPTY: self.EMPTY_HEIGHT,
        }.get(kind, self.POST_HEIGHT - (6 if self._compact else 0))
        return QSize(200, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        rect: QRect = option.rect
        palette: QPalette = option.palette
        state = option.state
        font = option.font
        kind = index.data(KIND_ROLE)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if kind == RowKind.HEADER:
            self._paint_header(painter, rect, palette, font, index)
        elif kind == RowKind.EMPTY:
            muted = mix(surface(palette), palette.color(QPalette.ColorRole.Text), 0.62)
            italic = small_font(font)
            italic.setItalic(True)
            painter.setFont(italic)
            painter.setPen(muted)
            painter.drawText(
                rect.adjusted(self._text_left(), 0, 0, 0),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                str(index.data(TEXT_ROLE) or ""),
            )
        else:
            entry = index.data(ENTRY_ROLE)
            if isinstance(entry, Entry):
                selected = bool(state & QStyle.StateFlag.State_Selected) or bool(
                    index.data(MARKED_ROLE)
                )
                hovered = bool(state & QStyle.StateFlag.State_MouseOver)
                self._paint_post(painter, rect, palette, font, entry, selected, hovered)
        painter.restore()

    def _text_left(self) -> int:
        return 86 if self._show_time else 14

    def _paint_header(
        self, painter: QPainter, rect: QRect, palette: QPalette, font: Any, index: Index
    ) -> None:
        day = index.data(DAY_ROLE)
        base = surface(palette)
        text = palette.color(QPalette.ColorRole.Text)
        muted = mix(base, text, 0.62)
        painter.fillRect(rect, mix(base, text, 0.03))
        painter.setPen(QPen(mix(base, text, 0.12), 1))
        painter.drawLine(rect.left(), rect.top(), rect.right(), rect.top())
        if not isinstance(day, date):
            return
        is_today = day == self._today()
        title_font = bold(font)
        painter.setFont(title_font)
        painter.setPen(today_color() if is_today else text)
        x = rect.left() + 14
        title = day_title(day)
        metrics = QFontMetrics(title_font)
        painter.drawText(
            QRect(x, rect.top(), rect.width() - 28, rect.height()),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            title,
        )
        x += metrics.horizontalAdvance(title) + 10
        pill_font = bold(small_font(font, -1.0))
        if is_today:
            width = pill_width("Today", pill_font)
            pill = QRectF(x, rect.center().y() - 9, width, 18)
            paint_pill(painter, pill, "Today", today_color(), pill_font, filled=True)
            x += width + 10
        count_text = str(index.data(TEXT_ROLE) or "")
        painter.setFont(small_font(font))
        painter.setPen(muted)
        painter.drawText(
            QRect(x, rect.top(), rect.right() - x - 14, rect.height()),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            count_text,
        )

    def _paint_post(
        self,
        painter: QPainter,
        rect: QRect,
        palette: QPalette,
        font: Any,
        entry: Entry,
        selected: bool,
        hovered: bool,
    ) -> None:
        base = surface(palette)
        text = palette.color(QPalette.ColorRole.Text)
        muted = mix(base, text, 0.62)
        color = status_color(entry.status)
        card = QRectF(rect).adjusted(6, 2, -6, -2)
        if selected:
            painter.setPen(QPen(accent_color(), 1.2))
            painter.setBrush(mix(base, accent_color(), 0.10))
            painter.drawRoundedRect(card, 6, 6)
        elif hovered:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(mix(base, text, 0.04))
            painter.drawRoundedRect(card, 6, 6)
        if entry.known_status is None:
            painter.setPen(QPen(color, 1.2, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(card.adjusted(1, 1, -1, -1), 6, 6)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawRoundedRect(
            QRectF(card.left() + 4, card.top() + 8, 3, card.height() - 16), 1.5, 1.5
        )

        x = card.left() + 14
        if self._show_time:
            painter.setFont(bold(font))
            painter.setPen(text)
            painter.drawText(
                QRectF(x, card.top(), 60, card.height()),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                entry.time_text or "—",
            )
            x += 66
        icon_size = 22
        ratio = painter.device().devicePixelRatioF() if painter.device() else 1.0
        painter.drawPixmap(
            QPointF(x, card.center().y() - icon_size / 2),
            network_pixmap(entry.platform, icon_size, ratio),
        )
        x += icon_size + 10

        # Right side: status pill, then label pills to its left.
        pill_font = bold(small_font(font, -1.0))
        right = card.right() - 10
        if self._show_status:
            status_text = entry.status_text
            width = pill_width(status_text, pill_font)
            paint_pill(
                painter,
                QRectF(right - width, card.center().y() - 10, width, 20),
                status_text,
                color,
                pill_font,
                filled=entry.known_status is None,
            )
            right -= width + 8
        label_font = small_font(font, -1.0)
        for label in entry.labels[:3]:
            natural = pill_width(label.name, label_font)
            width = min(natural, 120)
            if right - width < x + (160 if self._show_time else 120):
                break
            name = (
                label.name
                if natural <= width
                else QFontMetrics(label_font).elidedText(
                    label.name, Qt.TextElideMode.ElideRight, width - 14
                )
            )
            paint_pill(
                painter,
                QRectF(right - width, card.center().y() - 9, width, 18),
                name,
                QColor(label.color or "#8a8fa3"),
                label_font,
            )
            right -= width + 6

        available = int(right - x - 8)
        line_height = card.height() / 2
        if not self._show_time:  # the tray: its drafts share accounts, their texts tell apart
            self._paint_text_first(painter, entry, QRectF(x, card.top(), available, card.height()),
                                   font, text, muted)  # fmt: skip
            return
        title_font = bold(font)
        painter.setFont(title_font)
        painter.setPen(text)
        account = f"{entry.account_text}"
        metrics = QFontMetrics(title_font)
        account = metrics.elidedText(account, Qt.TextElideMode.ElideRight, available)
        top_line = QRectF(x, card.top() + 4, available, line_height - 2)
        painter.drawText(
            top_line, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignLeft, account
        )
        network = f"  ·  {network_name(entry.platform)}"
        used = metrics.horizontalAdvance(account)
        painter.setFont(small_font(font))
        painter.setPen(muted)
        rest = QFontMetrics(small_font(font)).elidedText(
            network, Qt.TextElideMode.ElideRight, max(available - used, 0)
        )
        painter.drawText(
            QRectF(x + used, card.top() + 4, max(available - used, 0), line_height - 2),
            Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignLeft,
            rest,
        )
        painter.setFont(font)
        painter.setPen(mix(base, text, 0.8))
        summary = QFontMetrics(font).elidedText(
            entry.summary, Qt.TextElideMode.ElideRight, available
        )
        painter.drawText(
            QRectF(x, card.top() + line_height + 1, available, line_height - 4),
            Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft,
            summary,
        )

    @staticmethod
    def _paint_text_first(
        painter: QPainter, entry: Entry, area: QRectF, font: QFont, text: QColor, muted: QColor
    ) -> None:
        """The post's text on top (bold), then its account and network, muted."""
        line_height = area.height() / 2
        width = int(area.width())
        title_font = bold(font)
        painter.setFont(title_font)
        painter.setPen(text)
        first, second = tray_lines(entry)
        summary = QFontMetrics(title_font).elidedText(first, Qt.TextElideMode.ElideRight, width)
        painter.drawText(
            QRectF(area.left(), area.top() + 4, width, line_height - 2),
            Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignLeft,
            summary,
        )
        small = small_font(font)
        painter.setFont(small)
        painter.setPen(muted)
        who = QFontMetrics(small).elidedText(second, Qt.TextElideMode.ElideRight, width)
        painter.drawText(
            QRectF(area.left(), area.top() + line_height + 1, width, line_height - 4),
            Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft,
            who,
        )
