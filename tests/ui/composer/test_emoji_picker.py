"""The emoji picker: Ctrl+. and the button, search by name, insert at the cursor, recent first."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.content.emoji import RecentEmoji
from ui.composer import emoji_picker
from ui.composer.editors import TextEditor
from ui.composer.emoji_picker import EmojiPicker, emoji_button, emoji_font_family


def picker_open() -> EmojiPicker | None:
    found = [w for w in QApplication.topLevelWidgets() if isinstance(w, EmojiPicker)]
    return next((w for w in found if w.isVisible()), None)


def test_ctrl_period_search_and_insert_at_the_cursor(
    qtbot: QtBot, tmp_path: Path, monkeypatch: object
) -> None:
    recent = RecentEmoji(tmp_path / "recent.json")
    emoji_picker.recent_emoji.cache_clear()
    monkeypatch.setattr(emoji_picker, "recent_emoji", lambda: recent)  # type: ignore[attr-defined]
    editor = TextEditor()
    qtbot.addWidget(editor)
    editor.show()
    editor.activateWindow()
    qtbot.waitActive(editor)
    editor.setFocus()
    QTest.keyClicks(editor, "Launch day!")
    QTest.keyClick(editor, Qt.Key.Key_Left)  # the cursor sits before "!"
    QTest.keyClick(editor, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: picker_open() is not None)
    picker = picker_open()
    assert picker is not None
    QTest.keyClicks(picker.search, "party popper")
    assert picker.shown()[0] == "🎉"
    QTest.keyClick(picker.search, Qt.Key.Key_Return)
    assert editor.toPlainText() == "Launch day🎉!"
    assert recent.items() == ["🎉"]
    qtbot.waitUntil(lambda: picker_open() is None)

    # The button opens it too, recently used first.
    button = emoji_button(editor)
    qtbot.addWidget(button)
    button.click()
    qtbot.waitUntil(lambda: picker_open() is not None)
    picker = picker_open()
    assert picker is not None
    assert picker.shown()[0] == "🎉"
    QTest.keyClicks(picker.search, "red apple")
    QTest.keyClick(picker.search, Qt.Key.Key_Return)
    assert editor.toPlainText() == "Launch day🎉🍎!"
    assert recent.items() == ["🍎", "🎉"]


def test_a_colour_emoji_font_is_there() -> None:
    family = emoji_font_family()
    assert family
    assert QFontDatabase.hasFamily(family)
