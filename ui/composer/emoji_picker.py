"""The emoji picker: a popup with a search field (by name) over a grid, recently used first; the
chosen emoji goes in at the editor's cursor. Opened by the ☺ button beside a text field or by
Ctrl+. in it.

Emoji must not show as empty boxes: where the system has no colour emoji font, the Noto Color
Emoji font shipped in resources/fonts (OFL, licence beside it) is loaded once per process and
registered as the application's emoji font.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics, QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.content.emoji import RecentEmoji, search
from app.workspaces.profiles import Paths
from ui.resources import resources_dir

SHORTCUT = "Ctrl+."
SHOWN_AT_MOST = 400  # a grid of every emoji is slow to build; searching narrows it


@cache
def emoji_font_family() -> str:
    """The colour emoji font Qt will draw emoji with, loading the shipped one if needed."""
    for family in QFontDatabase.families():
        if "emoji" in family.lower() and "color" in family.lower():
            return family
    path = resources_dir() / "fonts" / "NotoColorEmoji.ttf"
    font_id = QFontDatabase.addApplicationFont(str(path)) if path.is_file() else -1
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        return ""
    # Qt >= 6.9 lets the application name its emoji font; older versions fall back by itself.
    setter = getattr(QFontDatabase, "setApplicationEmojiFontFamilies", None)
    if setter is not None:
        setter(families)
    return families[0]


@cache
def drawable(text: str) -> bool:
    """Whether the emoji font has a picture for this emoji (a few pictographs are text only,
    and a grid cell showing nothing helps no one)."""
    family = emoji_font_family()
    if not family:
        return True
    return QFontMetrics(QFont(family)).inFontUcs4(ord(text[0]))


@cache
def recent_emoji() -> RecentEmoji:
    return RecentEmoji(Paths().data_dir / "recent-emoji.json")


class EmojiPicker(QFrame):
    """A popup; `chosen(str)` carries the emoji picked."""

    chosen = Signal(str)

    def __init__(self, recent: RecentEmoji, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.recent = recent
        self.setObjectName("emojiPicker")
        self.setAccessibleName("Emoji picker")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search emoji by name")
        self.search.setAccessibleName("Search emoji")
        self.search.setClearButtonEnabled(True)
        self.grid = QListWidget()
        self.grid.setAccessibleName("Emoji")
        self.grid.setViewMode(QListWidget.ViewMode.IconMode)
        self.grid.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.grid.setMovement(QListWidget.Movement.Static)
        self.grid.setGridSize(QSize(40, 40))
        self.grid.setUniformItemSizes(True)
        font = QFont(self.grid.font())
        family = emoji_font_family()
        if family:
            font.setFamilies([family, *font.families()])
        font.setPointSize(max(font.pointSize(), 10) + 8)
        self._emoji_font = font  # on each item: the app's style sheet sets the view's own font
        self.hint = QLabel()
        self.hint.setObjectName("emojiHint")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.search)
        layout.addWidget(self.grid, 1)
        layout.addWidget(self.hint)
        self.resize(360, 320)
        self.search.textChanged.connect(self.show_matches)
        self.search.returnPressed.connect(self._choose_current)
        self.grid.itemActivated.connect(self._choose)
        self.grid.itemClicked.connect(self._choose)
        self.grid.currentItemChanged.connect(self._hint)
        self.search.installEventFilter(self)
        self.show_matches("")

    def show_matches(self, query: str) -> None:
        found = [e for e in search(query, self.recent.items()) if drawable(e.text)]
        self.grid.clear()
        for emoji in found[:SHOWN_AT_MOST]:
            item = QListWidgetItem(emoji.text)
            item.setToolTip(emoji.name)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, emoji.name)
            item.setData(Qt.ItemDataRole.UserRole, emoji.text)
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            item.setFont(self._emoji_font)
            self.grid.addItem(item)
        if self.grid.count():
            self.grid.setCurrentRow(0)
        else:
            self.hint.setText(f"No emoji is called “{query}”.")

    def shown(self) -> list[str]:
        return [self.grid.item(i).text() for i in range(self.grid.count())]

    def _hint(self, item: QListWidgetItem | None) -> None:
        self.hint.setText(item.toolTip() if item is not None else "")

    def _choose_current(self) -> None:
        item = self.grid.currentItem()
        if item is not None:
            self._choose(item)

    def _choose(self, item: QListWidgetItem) -> None:
        text = str(item.data(Qt.ItemDataRole.UserRole))
        self.recent.used(text)
        self.close()
        self.chosen.emit(text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Arrow keys in the search field move through the grid, so the mouse is never needed.
        if (
            watched is self.search
            and isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_Left, Qt.Key.Key_Right)
            and self.grid.count()
        ):
            per_row = max(1, self.grid.viewport().width() // 40)
            key = event.key()
            step = -1 if key == Qt.Key.Key_Left else 1 if key == Qt.Key.Key_Right else per_row
            if key == Qt.Key.Key_Up:
                step = -per_row
            row = min(max(0, self.grid.currentRow() + step), self.grid.count() - 1)
            self.grid.setCurrentRow(row)
            return True
        return False


def open_picker(editor: QPlainTextEdit, recent: RecentEmoji | None = None) -> EmojiPicker | None:
    """Show the picker under the editor's cursor; the emoji chosen is typed at the cursor."""
    if editor.isReadOnly():
        editor.setToolTip("This text is shared: tick “Own text for this destination” to edit it.")
        return None
    picker = EmojiPicker(recent or recent_emoji(), editor)
    picker.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)

    def insert(text: str) -> None:
        editor.setFocus()
        editor.textCursor().insertText(text)

    picker.chosen.connect(insert)
    spot = editor.viewport().mapToGlobal(editor.cursorRect().bottomLeft())
    # Inside the window where it can be: a popup past the window's edge looks lost.
    frame = editor.window().frameGeometry()
    x = max(frame.left(), min(spot.x(), frame.right() - picker.width()))
    y = spot.y() if spot.y() + picker.height() <= frame.bottom() else spot.y() - picker.height()
    picker.move(x, max(frame.top(), y))
    picker.show()
    picker.search.setFocus()
    return picker


class _ShortcutKey(QObject):
    """Ctrl+. in the editor opens the picker (a key filter: an editor that has the focus is
    where the key goes, whatever shortcuts the window has)."""

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self.editor = editor

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            isinstance(event, QKeyEvent)
            and event.type() in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride)
            and event.key() == Qt.Key.Key_Period
            and event.modifiers() == Qt.KeyboardModifier.ControlModifier
        ):
            event.accept()
            if event.type() == QEvent.Type.KeyPress:
                open_picker(self.editor)
            return True
        return False


def attach_emoji(editor: QPlainTextEdit) -> None:
    """Ctrl+. in `editor` opens the picker."""
    emoji_font_family()
    editor.installEventFilter(_ShortcutKey(editor))


def emoji_button(editor: QPlainTextEdit) -> QToolButton:
    """The ☺ button that opens the picker for `editor`."""
    button = QToolButton()
    button.setObjectName("emojiButton")
    button.setText("☺")
    button.setAccessibleName("Insert emoji")
    button.setToolTip(f"Insert emoji ({SHORTCUT})")
    button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    button.clicked.connect(lambda: open_picker(editor))
    return button
