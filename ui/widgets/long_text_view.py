"""A read-only text view for what a server sends, however long (issue 19 §3): it lays out the
start (`app.content.long_text.preview`), says what is not shown, and adds the rest a part at a
time on "Show more"; "Copy all" gives the whole text exactly.

Measured with Qt 6 (offscreen, one block): wrapping a line with no break opportunity takes
quadratic time in Qt's default wrap mode (20,000 characters 70 ms, 220,000 characters 5 s,
1,000,000 characters 147 s: the 12-minute freeze of a 5 MB response body); wrapping at words
only is linear but lays out a whole block at once (200,000 characters added: ~100 ms). Lines
longer than `LINE_CHARS` are therefore broken for display (the note says so): the 20,000
characters shown first lay out in ~12 ms, each "Show more" of 200,000 in ~6 ms, since
QPlainTextEdit lays out only the blocks it shows."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QFontDatabase, QGuiApplication, QShowEvent, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from app.content.long_text import TextPart, more, preview

LINE_CHARS = 5_000
"""The longest line laid out as one block; a longer line is shown broken (display only)."""


def broken_lines(piece: str, column: int, width: int | None = None) -> tuple[str, int]:
    """`piece` with a line break inserted wherever a line would pass `width` characters, given
    that the text before it ends `column` characters into a line; and the column it ends at."""
    width = width or LINE_CHARS
    if column + len(piece) <= width and "\n" not in piece:
        return piece, column + len(piece)
    out: list[str] = []
    for number, line in enumerate(piece.split("\n")):
        if number:
            out.append("\n")
            column = 0
        start = 0
        while len(line) - start > width - column:
            cut = start + width - column
            out.append(line[start:cut])
            out.append("\n")
            start, column = cut, 0
        out.append(line[start:])
        column += len(line) - start
    return "".join(out), column


def short_text(text: str | None, limit: int = 300) -> str:
    """A server's text for one line of a list or a notification: its start, with "…" and the
    length when cut (a 10 MB label name is a name nobody reads whole)."""
    part = preview(text, limit)
    if not part.truncated:
        return part.shown
    return f"{part.shown.rstrip()}… ({part.total:,} characters)"


class LongTextView(QWidget):
    """`edit` shows the text (or its start); `note`, `more_button` and `copy_button` appear
    when the text is cut. `toPlainText()` is what is laid out."""

    def __init__(
        self, name: str, parent: QWidget | None = None, *, monospace: bool = False
    ) -> None:
        super().__init__(parent)
        self._name = name
        self._text = ""
        self._later: Callable[[], str] | None = None
        self._part = preview("")
        self._column = 0
        self._broke = False
        self.edit = QPlainTextEdit()
        self.edit.setReadOnly(True)
        self.edit.setAccessibleName(name)
        if monospace:
            self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setProperty("tone", "muted")  # coloured by the theme (style.qss)
        self.more_button = QPushButton("Show more")
        self.more_button.setAccessibleName(f"Show more of the {name.lower()}")
        self.more_button.clicked.connect(self.show_more)
        self.copy_button = QPushButton("Copy all")
        self.copy_button.setAccessibleName(f"Copy all of the {name.lower()}")
        self.copy_button.setToolTip("Copy the whole text exactly, also what is not shown")
        self.copy_button.clicked.connect(self.copy_all)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.note, 1)
        bar.addWidget(self.more_button)
        bar.addWidget(self.copy_button)
        self.bar = QWidget()
        self.bar.setLayout(bar)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.bar)
        self.bar.hide()

    # -- the text ---
    def set_text(self, text: str) -> None:
        self._later = None
        self._text = text
        self._part = preview(text)
        shown, self._column = broken_lines(self._part.shown, 0)
        self._broke = len(shown) != len(self._part.shown)
        self.edit.setPlainText(shown)
        self._update_bar()

    def set_text_later(self, make: Callable[[], str]) -> None:
        """The text is made by `make` when the view is first shown or read: a hidden tab of a
        10 MB payload costs nothing until it is opened."""
        self.set_text("")
        self._later = make

    def _resolve(self) -> None:
        make, self._later = self._later, None
        if make is not None:
            self.set_text(make())

    def showEvent(self, event: QShowEvent) -> None:
        self._resolve()
        super().showEvent(event)

    def text(self) -> str:
        """The whole text (what Copy all gives)."""
        self._resolve()
        return self._text

    def part(self) -> TextPart:
        self._resolve()
        return self._part

    def toPlainText(self) -> str:  # reads like the QPlainTextEdit it stands for
        self._resolve()
        return self.edit.toPlainText()

    def setPlainText(self, text: str) -> None:
        self.set_text(text)

    def setPlaceholderText(self, text: str) -> None:
        self.edit.setPlaceholderText(text)

    def setLineWrapMode(self, mode: QPlainTextEdit.LineWrapMode) -> None:
        self.edit.setLineWrapMode(mode)

    # -- on demand ---
    def show_more(self) -> None:
        """Append the next part (`app.content.long_text.MORE_CHARS`) at the end: one insert of
        short blocks, so only what is on screen is laid out."""
        self._resolve()
        if not self._part.truncated:
            return
        grown = more(self._text, self._part)
        piece, self._column = broken_lines(self._text[self._part.end : grown.end], self._column)
        self._broke = self._broke or len(piece) != grown.end - self._part.end
        self._part = grown
        bar = self.edit.verticalScrollBar()
        keep = bar.value()
        cursor = QTextCursor(self.edit.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(piece)
        bar.setValue(keep)  # the reader stays where they were
        self._update_bar()

    def copy_all(self) -> None:
        QGuiApplication.clipboard().setText(self.text())

    def _update_bar(self) -> None:
        notes = [self._part.note()]
        if self._broke:
            notes.append(
                f"Lines longer than {LINE_CHARS:,} characters are broken for display; "
                "Copy all gives the text as it is."
            )
        text = " ".join(note for note in notes if note)
        self.note.setText(text)
        self.note.setAccessibleName(text)
        self.more_button.setVisible(self._part.truncated)
        self.bar.setVisible(bool(text))
