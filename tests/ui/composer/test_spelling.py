"""Spell checking in the composer's text fields, typed with real key presses (offscreen)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QTextCharFormat
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.store.local_store import LocalStore
from tests.ui.composer.conftest import dispose
from tests.ui.loop_runner import LoopRunner
from ui.composer.editors import TextEditor
from ui.composer.page import ComposerPage
from ui.composer.spelling import ComposerSpelling, SpellHighlighter, engine


@pytest.fixture
def page(qtbot: QtBot, runner: LoopRunner, tmp_path: Path) -> Iterator[ComposerPage]:
    store = LocalStore.open(tmp_path / "ws1.local.sqlite3")
    page = ComposerPage()
    page.resize(1200, 800)

    async def attach() -> None:  # Qt events run inside the loop (the page spawns its saves)
        page.show()
        page.attach_store(store)

    runner.run(attach())
    qtbot.waitUntil(lambda: page.spelling.checker() is not None, timeout=20000)
    yield page
    runner.run(page.shutdown())
    store.close()
    dispose(page)


def underlined(page: ComposerPage) -> list[str]:
    block = page.shared.text.document().firstBlock()
    return [
        block.text()[r.start : r.start + r.length]
        for r in block.layout().formats()
        if r.format.underlineStyle() == QTextCharFormat.UnderlineStyle.SpellCheckUnderline
    ]


def highlighter(page: ComposerPage) -> SpellHighlighter:
    return page.shared.text._spell_highlighter  # type: ignore[attr-defined,no-any-return]


def type_text(qtbot: QtBot, page: ComposerPage, text: str) -> None:
    editor = page.shared.text
    editor.setFocus()
    QTest.keyClicks(editor, text)
    qtbot.waitUntil(lambda: not highlighter(page)._catch_up.isActive())


def test_misspelling_underlined_names_and_links_not(qtbot: QtBot, page: ComposerPage) -> None:
    type_text(
        qtbot,
        page,
        "Our new colection is out tomorow #SprngSale @someonne https://exmaple.com/nu ok ",
    )
    assert underlined(page) == ["colection", "tomorow"]
    assert page.state.doc.content.startswith("Our new colection")


def test_the_word_being_typed_waits_for_the_cursor_to_leave(
    qtbot: QtBot, page: ComposerPage
) -> None:
    type_text(qtbot, page, "Hello wrld")
    assert underlined(page) == []  # still typing it
    QTest.keyClick(page.shared.text, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: underlined(page) == ["wrld"])


def menu_actions(page: ComposerPage, word: str) -> tuple[object, list[QAction]]:
    editor = page.shared.text
    text = editor.toPlainText()
    cursor = editor.textCursor()
    cursor.setPosition(text.index(word) + 1)
    rect = editor.cursorRect(cursor)
    menu = editor._spelling_menu.menu_at(QPoint(rect.center()))  # type: ignore[attr-defined]
    return menu, menu.actions()


def test_suggestion_replaces_the_word(qtbot: QtBot, page: ComposerPage) -> None:
    type_text(qtbot, page, "See you tomorow at noon ")
    menu, _ = menu_actions(page, "tomorow")

    def suggestions() -> list[QAction]:
        return [a for a in menu.actions() if a.property("suggestion")]  # type: ignore[attr-defined]

    qtbot.waitUntil(lambda: bool(suggestions()), timeout=20000)
    best = next(a for a in suggestions() if a.text() == "tomorrow")
    best.trigger()
    assert page.shared.text.toPlainText() == "See you tomorrow at noon "
    assert page.state.doc.content == "See you tomorrow at noon "
    qtbot.waitUntil(lambda: underlined(page) == [])
    menu.close()  # type: ignore[attr-defined]


def test_add_to_dictionary_persists_for_the_workspace(
    qtbot: QtBot, page: ComposerPage, tmp_path: Path
) -> None:
    type_text(qtbot, page, "Made with Frobnicator today ")
    assert underlined(page) == ["Frobnicator"]
    menu, actions = menu_actions(page, "Frobnicator")
    add = next(a for a in actions if a.objectName() == "addToDictionary")
    assert add.text() == "Add “Frobnicator” to dictionary"
    add.trigger()
    qtbot.waitUntil(lambda: underlined(page) == [])
    menu.close()  # type: ignore[attr-defined]
    settings_file = tmp_path / "ws1.spelling.json"
    assert "Frobnicator" in settings_file.read_text(encoding="utf-8")
    again = ComposerSpelling(settings_file=settings_file)
    checker = again.checker()
    assert checker is not None
    assert checker.check("Frobnicator")


def test_spelling_can_be_turned_off_and_it_is_no_edit(qtbot: QtBot, page: ComposerPage) -> None:
    type_text(qtbot, page, "A tset post ")
    assert underlined(page) == ["tset"]
    edits: list[str] = []
    page.shared.text.textChanged.connect(lambda: edits.append("x"))
    page.spelling.set_enabled(False)
    assert underlined(page) == []
    assert edits == []  # re-underlining saves no draft
    page.spelling.set_enabled(True)
    qtbot.waitUntil(lambda: underlined(page) == ["tset"])
    assert QApplication.focusWidget() is page.shared.text


def test_spelling_works_again_after_the_application_said_it_quits(
    qtbot: QtBot, page: ComposerPage
) -> None:
    engine().shutdown()  # as aboutToQuit does (some tests and the shell emit it)
    engine()._dictionaries.clear()  # type: ignore[attr-defined]
    page.spelling.set_language(page.spelling.language)
    qtbot.waitUntil(lambda: page.spelling.checker() is not None, timeout=20000)
    type_text(qtbot, page, "A tset ")
    assert underlined(page) == ["tset"]


def test_a_destination_with_its_own_text_is_checked(qtbot: QtBot, page: ComposerPage) -> None:
    editor = TextEditor()
    editor.setReadOnly(True)
    page.layout().addWidget(editor)
    editor.setPlainText("A tset here")
    block = editor.document().firstBlock()
    assert not block.layout().formats()  # read-only: shows the shared text, checked there
    editor.setReadOnly(False)
    qtbot.waitUntil(lambda: bool(block.layout().formats()))


def test_a_dictionary_read_is_kept_out_of_the_collectors_walks(qtbot: QtBot) -> None:
    """With en_US read (~210,000 objects), a full collection took 160-480 ms, a stall while
    typing whenever one came due; frozen, it walks none of them."""
    import gc

    from ui.composer.spelling import SpellingEngine

    fresh = SpellingEngine()
    before = gc.get_freeze_count()
    assert fresh.dictionary("en_US") is None  # being read on the worker
    qtbot.waitUntil(lambda: fresh.dictionary("en_US") is not None, timeout=20000)
    assert gc.get_freeze_count() - before > 100_000
    fresh.shutdown()
