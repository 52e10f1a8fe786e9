"""Spell checking as you type in the composer's text fields.

- `SpellingEngine` (one per process) reads dictionaries and finds suggestions on a worker
  thread: reading en_US takes ~0.4 s and one word's suggestions up to a second.
- `ComposerSpelling` (one per composer page) holds the workspace's settings: on/off, language
  (default from the locale) and the user's dictionary, kept in `<workspace>.spelling.json`.
- `SpellHighlighter` underlines unknown words of the block being edited. Answers are cached per
  word; a keystroke looks up at most `LOOKUP_BUDGET_S` of new words and leaves the rest to the
  next pass of the event loop, so typing never waits on the dictionary. The word being typed is
  not underlined until the cursor leaves it.
- The context menu offers suggestions (filled in when found), "Add to dictionary", and the
  workspace's spelling language.

`attach_spelling(editor)` is all an editor needs; the nearest ancestor with a `spelling`
attribute (the page) supplies the workspace's settings, else a process-wide default does.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QLocale, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QColor,
    QContextMenuEvent,
    QSyntaxHighlighter,
    QTextBlock,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import QApplication, QMenu, QPlainTextEdit, QWidget

from app.content.spelling import (
    SpellChecker,
    available_dictionaries,
    language_for_locale,
    load_dictionary,
    words_to_check,
)
from app.content.spelling_settings import SpellingSettings, spelling_settings_path

LOOKUP_BUDGET_S = 0.004
"""Time a keystroke may spend looking up words not seen before (each takes up to ~0.3 ms)."""


class SpellingEngine(QObject):
    """Dictionaries by language, read once per process on a worker thread."""

    loaded = Signal(str)
    _done = Signal(object)  # a finished job's callback, run on the GUI thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool: ThreadPoolExecutor | None = None
        self._dictionaries: dict[str, Any] = {}
        self._loading: set[str] = set()
        self._files: dict[str, Path] | None = None
        self._done.connect(lambda callback: callback())
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    def languages(self) -> dict[str, Path]:
        if self._files is None:
            self._files = available_dictionaries()
        return self._files

    def dictionary(self, language: str) -> Any | None:
        """The dictionary if it has been read; else starts reading it and answers None."""
        found = self._dictionaries.get(language)
        if found is not None or language in self._loading:
            return found
        path = self.languages().get(language)
        if path is None:
            return None
        self._loading.add(language)

        def read() -> None:
            try:
                dictionary = load_dictionary(path)
            except Exception:  # a broken dictionary file: that language stays unchecked
                dictionary = None
            else:
                # A dictionary is ~210,000 objects that live until the app quits: out of the
                # collector's sight, as the start-up heap is (app/runtime/gc_policy.py). Left
                # tracked, every full collection walked them: 160-480 ms stalls while typing.
                gc.freeze()
            self._done.emit(lambda: self._loaded(language, dictionary))

        self._submit(read)
        return None

    def _loaded(self, language: str, dictionary: Any | None) -> None:
        self._loading.discard(language)
        if dictionary is not None:
            self._dictionaries[language] = dictionary
            self.loaded.emit(language)

    def suggest(
        self, checker: SpellChecker, word: str, answer: Callable[[list[str]], None]
    ) -> None:
        def find() -> None:
            found = checker.suggestions(word)
            self._done.emit(lambda: answer(found))

        self._submit(find)

    def _submit(self, job: Callable[[], None]) -> Future[None]:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="spelling")
        return self._pool.submit(job)

    def shutdown(self) -> None:
        """The application quits: drop queued work (a job running finishes on its own)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        self._loading.clear()  # a read that was dropped is started again when asked


@cache
def engine() -> SpellingEngine:
    return SpellingEngine()


def system_language() -> str:
    return QLocale.system().name()


def language_label(code: str) -> str:
    locale = QLocale(code)
    name = locale.nativeLanguageName() or code
    territory = locale.nativeTerritoryName() if "_" in code else ""
    return (
        f"{name[:1].upper()}{name[1:]} ({territory})" if territory else name[:1].upper() + name[1:]
    )


class ComposerSpelling(QObject):
    """The spelling settings and checker of one workspace."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None, settings_file: Path | None = None) -> None:
        super().__init__(parent)
        self.settings = SpellingSettings.load(settings_file)
        self._checker: SpellChecker | None = None
        self._checker_language = ""
        engine().loaded.connect(self._dictionary_loaded)

    def use_drafts_file(self, drafts_file: Path | None) -> None:
        """Read the settings of the workspace whose drafts live in `drafts_file`."""
        path = spelling_settings_path(drafts_file) if drafts_file is not None else None
        if path == self.settings.path:
            return
        self.settings = SpellingSettings.load(path)
        self._checker = None
        self.changed.emit()

    @property
    def language(self) -> str:
        languages = engine().languages()
        if self.settings.language in languages:
            return self.settings.language
        return language_for_locale(system_language(), languages)

    def checker(self) -> SpellChecker | None:
        """None while spelling is off or the dictionary is still being read."""
        if not self.settings.enabled:
            return None
        language = self.language
        if self._checker is None or self._checker_language != language:
            dictionary = engine().dictionary(language)
            if dictionary is None:
                return None
            self._checker = SpellChecker(dictionary, self.settings.words)
            self._checker_language = language
        return self._checker

    def _dictionary_loaded(self, language: str) -> None:
        if self.settings.enabled and language == self.language:
            self.changed.emit()

    def add_word(self, word: str) -> None:
        self.settings.add_word(word)
        if self._checker is not None:
            self._checker.add_word(word)
        self.changed.emit()

    def set_enabled(self, on: bool) -> None:
        self.settings.enabled = on
        self.settings.save()
        self.changed.emit()

    def set_language(self, code: str) -> None:
        self.settings.language = code
        self.settings.save()
        self._checker = None
        self.changed.emit()


@cache
def default_spelling() -> ComposerSpelling:
    """For an editor outside a composer page: the locale's language, nothing remembered."""
    return ComposerSpelling()


def spelling_for(widget: QWidget) -> ComposerSpelling:
    parent: QObject | None = widget.parent()
    while parent is not None:
        found = getattr(parent, "spelling", None)
        if isinstance(found, ComposerSpelling):
            return found
        parent = parent.parent()
    return default_spelling()


def misspelling_format() -> QTextCharFormat:
    form = QTextCharFormat()
    form.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SpellCheckUnderline)
    form.setUnderlineColor(QColor("#d93025"))
    return form


class SpellHighlighter(QSyntaxHighlighter):
    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor.document())
        self.editor = editor
        self.spelling: ComposerSpelling | None = None
        self._format = misspelling_format()
        self._pending: set[int] = set()  # block numbers with words not looked up yet
        self._held: QTextBlock | None = None  # a block whose word at the cursor was spared
        self.spent_s = 0.0  # time spent underlining, read by the benchmark
        self._catch_up = QTimer(self)
        self._catch_up.setSingleShot(True)
        self._catch_up.setInterval(0)
        self._catch_up.timeout.connect(self._look_up_pending)
        editor.cursorPositionChanged.connect(self._cursor_moved)

    def bind(self, spelling: ComposerSpelling) -> None:
        if spelling is self.spelling:
            return
        if self.spelling is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.spelling.changed.disconnect(self.refresh)
        self.spelling = spelling
        spelling.changed.connect(self.refresh)
        self.refresh()

    def refresh(self, block: QTextBlock | None = None) -> None:
        """Underline again (settings or dictionary changed) without it counting as an edit:
        Qt reports a re-highlight as a text change, which would save a draft for nothing."""
        blocked = self.editor.blockSignals(True)
        try:
            if block is None:
                self.rehighlight()
            else:
                self.rehighlightBlock(block)
        finally:
            self.editor.blockSignals(blocked)

    def misspelled(self, word: str) -> bool:
        checker = self.spelling.checker() if self.spelling is not None else None
        return checker is not None and not checker.check(word)

    def highlightBlock(self, text: str) -> None:
        started = time.perf_counter()
        try:
            self._underline(text)
        finally:
            self.spent_s += time.perf_counter() - started

    def _underline(self, text: str) -> None:
        # A read-only field shows the shared text, checked where it is edited.
        if not text or self.editor.isReadOnly():
            return
        checker = self.spelling.checker() if self.spelling is not None else None
        if checker is None:
            return
        cursor_at = -1
        cursor = self.editor.textCursor()
        block = self.currentBlock()
        if self.editor.hasFocus() and cursor.block() == block and not cursor.hasSelection():
            cursor_at = cursor.positionInBlock()
        deadline = time.perf_counter() + LOOKUP_BUDGET_S
        offsets = _utf16_offsets(text)
        left_out = False
        for span in words_to_check(text):
            ok = checker.cached(span.word)
            if ok is None:
                if time.perf_counter() > deadline:
                    left_out = True
                    continue
                ok = checker.check(span.word)
            if ok:
                continue
            if span.start + span.length == cursor_at:
                self._held = block  # still being typed: underline once the cursor leaves
                continue
            start = offsets(span.start)
            self.setFormat(start, offsets(span.start + span.length) - start, self._format)
        if left_out:
            self._pending.add(block.blockNumber())
            self._catch_up.start()

    def _look_up_pending(self) -> None:
        pending, self._pending = self._pending, set()
        document = self.document()
        for number in sorted(pending):
            block = document.findBlockByNumber(number)
            if block.isValid():
                self.refresh(block)  # re-queues itself while words remain

    def _cursor_moved(self) -> None:
        held = self._held
        if held is None or not held.isValid():
            return
        cursor = self.editor.textCursor()
        before = cursor.block().text()[cursor.positionInBlock() - 1 : cursor.positionInBlock()]
        if cursor.block() != held or not (before.isalnum() or before in "'’-"):
            self._held = None
            self.refresh(held)


def _utf16_offsets(text: str) -> Callable[[int], int]:
    """Qt positions count UTF-16 units; Python's count code points (they differ after emoji)."""
    if text.isascii() or all(ord(c) < 0x10000 for c in text):
        return lambda i: i
    prefix = [0]
    for char in text:
        prefix.append(prefix[-1] + (2 if ord(char) >= 0x10000 else 1))
    return lambda i: prefix[i]


class SpellingMenu(QObject):
    """Builds the editor's context menu with the spelling entries on top."""

    def __init__(self, editor: QPlainTextEdit, highlighter: SpellHighlighter) -> None:
        super().__init__(editor)
        self.editor = editor
        self.highlighter = highlighter

    def menu_at(self, pos: QPoint) -> QMenu:
        menu = self.editor.createStandardContextMenu(pos)
        menu.setAccessibleName("Text menu")
        spelling = self.highlighter.spelling or spelling_for(self.editor)
        word_cursor = self._word_at(pos)
        word = word_cursor.selectedText() if word_cursor is not None else ""
        first = menu.actions()[0] if menu.actions() else menu.addSeparator()
        checker = spelling.checker()
        if word and checker is not None and self.highlighter.misspelled(word):
            looking = QAction("Looking for suggestions…", menu)
            looking.setEnabled(False)
            menu.insertAction(first, looking)
            add = QAction(f"Add “{word}” to dictionary", menu)
            add.setObjectName("addToDictionary")
            add.triggered.connect(lambda: spelling.add_word(word))
            menu.insertAction(first, add)
            menu.insertSeparator(first)
            assert word_cursor is not None
            start, end = word_cursor.selectionStart(), word_cursor.selectionEnd()

            def answer(found: list[str]) -> None:
                with contextlib.suppress(RuntimeError):  # the menu was closed meanwhile
                    for suggestion in found:
                        action = QAction(suggestion, menu)
                        action.setProperty("suggestion", True)
                        action.triggered.connect(
                            lambda _=False, s=suggestion: self._replace(start, end, word, s)
                        )
                        menu.insertAction(looking, action)
                    looking.setText("No suggestions" if not found else "")
                    looking.setVisible(not found)

            engine().suggest(checker, word, answer)
        menu.addSeparator()
        menu.addMenu(self._settings_menu(menu, spelling))
        return menu

    def _settings_menu(self, parent: QMenu, spelling: ComposerSpelling) -> QMenu:
        sub = QMenu("Spelling", parent)
        sub.setAccessibleName("Spelling")
        toggle = sub.addAction("Check spelling while typing")
        toggle.setCheckable(True)
        toggle.setChecked(spelling.settings.enabled)
        toggle.toggled.connect(spelling.set_enabled)
        sub.addSeparator()
        current = spelling.language
        for code in sorted(engine().languages(), key=language_label):
            action = sub.addAction(language_label(code))
            action.setCheckable(True)
            action.setChecked(code == current)
            action.triggered.connect(lambda _=False, c=code: spelling.set_language(c))
        return sub

    def _word_at(self, pos: QPoint) -> QTextCursor | None:
        cursor = self.editor.cursorForPosition(pos)
        block = cursor.block()
        at = cursor.positionInBlock()
        text = block.text()
        offsets = _utf16_offsets(text)
        for span in words_to_check(text):
            start, end = offsets(span.start), offsets(span.start + span.length)
            if start <= at <= end:
                found = QTextCursor(block)
                found.setPosition(block.position() + start)
                found.setPosition(block.position() + end, QTextCursor.MoveMode.KeepAnchor)
                return found
        return None

    def _replace(self, start: int, end: int, word: str, suggestion: str) -> None:
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        if cursor.selectedText() != word:
            return  # the text changed while the menu was open: replace nothing
        cursor.insertText(suggestion)
        self.editor.setTextCursor(cursor)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ContextMenu and isinstance(event, QContextMenuEvent):
            menu = self.menu_at(event.pos())
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
            menu.popup(event.globalPos())
            return True
        if event.type() in (QEvent.Type.ParentChange, QEvent.Type.Show):
            self.highlighter.bind(spelling_for(self.editor))
        elif event.type() == QEvent.Type.ReadOnlyChange and watched is self.editor:
            self.highlighter.refresh()
        return False


def attach_spelling(editor: QPlainTextEdit) -> SpellHighlighter:
    """Spell checking and its context menu for `editor`."""
    highlighter = SpellHighlighter(editor)
    menu = SpellingMenu(editor, highlighter)
    editor.viewport().installEventFilter(menu)
    editor.installEventFilter(menu)
    editor.setProperty("spellHighlighter", True)
    highlighter.bind(spelling_for(editor))
    editor._spelling_menu = menu  # type: ignore[attr-defined]
    editor._spell_highlighter = highlighter  # type: ignore[attr-defined]
    return highlighter


def attach_writing_tools(editor: QPlainTextEdit) -> None:
    """Spell checking and the emoji picker's Ctrl+. for a post text field."""
    from ui.composer.emoji_picker import attach_emoji

    attach_spelling(editor)
    attach_emoji(editor)
