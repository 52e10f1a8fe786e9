"""Offline drafts: autosave without network, crash recovery (kill -9 mid-edit), the drafts list,
and two editors of one draft never overwriting each other."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.compose.document import ComposerDocument
from app.store.local_store import LocalStore
from tests.ui.app.conftest import LoopRunner
from tests.ui.composer.conftest import BERLIN, Composer, dispose, until
from ui.composer.page import ComposerPage

ROOT = Path(__file__).resolve().parents[3]


def _offline_page(store: LocalStore) -> ComposerPage:
    page = ComposerPage(local_tz=BERLIN)
    page.attach_store(store)
    page.new_post()
    page.resize(1200, 800)
    return page


def test_kill_mid_edit_then_restart_finds_the_draft(runner: LoopRunner, tmp_path: Path) -> None:
    path = tmp_path / "drafts.sqlite3"
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("crash_child.py")), str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"},
    )
    assert child.stdout is not None
    saves = 0
    last = ""
    try:
        while saves < 3:  # a few saves in, while it is still typing
            line = child.stdout.readline()
            assert line, "the child ended before saving"
            if line.startswith("SAVED"):
                saves += 1
                last = line
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        child.stdout.close()
    _, draft_id, length = last.split()
    store = LocalStore.open(path)
    try:
        draft = store.get_draft(draft_id)
        assert draft is not None
        text = ComposerDocument.from_json(draft.document).content
        assert text.startswith("Crash-proof draft: w0 ")
        assert len(text) >= int(length)
        page = _offline_page(store)  # "restart"

        async def body() -> None:
            page.show()  # the list was filled when the page took the drafts file
            assert page.drafts.ids() == [draft_id]
            page.open_draft(draft_id)
            assert page.shared.text.toPlainText() == text

        runner.run(body())
        runner.run(page.shutdown())
        dispose(page)
    finally:
        store.close()


def test_typing_is_saved_within_two_seconds_without_network(
    runner: LoopRunner, tmp_path: Path
) -> None:
    store = LocalStore.open(tmp_path / "drafts.sqlite3")
    page = _offline_page(store)

    async def body() -> None:
        page.show()
        QTest.keyClicks(page.shared.text, "Draft on a plane")
        await until(lambda: store.list_drafts(), limit=2.0, what="durable within 2 s")
        QTest.keyClicks(page.shared.text, ", second line")
        await until(
            lambda: "second line" in store.list_drafts()[0].document, limit=2.0, what="the edit"
        )
        await page.shutdown()

    runner.run(body())
    [draft] = store.list_drafts()
    assert draft.title == "Draft on a plane, second line"
    store.close()
    dispose(page)


def test_drafts_list_open_rename_duplicate_delete_search(composer: Composer) -> None:
    page = composer.page
    store = composer.store

    async def body() -> None:
        QTest.keyClicks(page.shared.text, "Latte art Tuesday")
        await until(lambda: len(page.drafts.ids()) == 1, what="first draft listed")
        first = page.drafts.ids()[0]
        QTest.mouseClick(page.drafts.new_button, Qt.MouseButton.LeftButton)
        assert page.shared.text.toPlainText() == ""
        assert QApplication.focusWidget() in (page.shared.text, None)
        QTest.keyClicks(page.shared.text, "Cold brew launch")
        await until(lambda: len(page.drafts.ids()) == 2, what="second draft listed")
        # search
        QTest.keyClicks(page.drafts.search, "latte")
        assert page.drafts.ids() == [first]
        page.drafts.search.clear()
        # open
        page.drafts.select(first)
        QTest.mouseClick(page.drafts.open_button, Qt.MouseButton.LeftButton)
        assert page.shared.text.toPlainText() == "Latte art Tuesday"
        # rename
        page.drafts.renameRequested.emit(first, "Tuesday special")
        await until(lambda: store.get_draft(first).title == "Tuesday special", what="rename")  # type: ignore[union-attr]
        QTest.keyClicks(page.shared.text, "!")
        await until(lambda: store.get_draft(first).document.count("Tuesday!") == 1, what="saved")  # type: ignore[union-attr]
        assert store.get_draft(first).title == "Tuesday special"  # type: ignore[union-attr]
        assert all(d.conflict_of is None for d in store.list_drafts())  # a rename is no conflict
        # duplicate
        page.drafts.select(first)
        QTest.mouseClick(page.drafts.duplicate_button, Qt.MouseButton.LeftButton)
        await until(lambda: len(page.drafts.ids()) == 3, what="duplicate")
        # delete (the open one)
        page.drafts.select(first)
        QTest.mouseClick(page.drafts.delete_button, Qt.MouseButton.LeftButton)
        await until(lambda: first not in page.drafts.ids(), what="delete")

    composer.run(body())
    assert store.get_draft(page.drafts.ids()[0]) is not None
    assert len(store.list_drafts()) == 2


def test_one_draft_in_two_windows_keeps_both_versions(runner: LoopRunner, tmp_path: Path) -> None:
    path = tmp_path / "drafts.sqlite3"
    store_a, store_b = LocalStore.open(path), LocalStore.open(path)
    window_a, window_b = _offline_page(store_a), _offline_page(store_b)

    async def body() -> None:
        QTest.keyClicks(window_a.shared.text, "Shared idea")
        await until(lambda: window_a.state.draft_id is not None, what="saved in A")
        await until(lambda: not window_a.autosave.dirty)
        await window_a.autosave.flush()  # returns once A's save in flight, if any, has ended
        assert not window_a.autosave.dirty
        draft_id = window_a.state.draft_id
        assert draft_id is not None
        window_b.drafts_controller.refresh()
        window_b.open_draft(draft_id)
        QTest.keyClicks(window_a.shared.text, " from window A")
        QTest.keyClicks(window_b.shared.text, " from window B")
        # Both saves have ended (B's met A's and kept both versions) when these return.
        await window_a.autosave.flush()
        await window_b.autosave.flush()
        await window_a.shutdown()
        await window_b.shutdown()

    runner.run(body())
    texts = sorted(ComposerDocument.from_json(d.document).content for d in store_a.list_drafts())
    assert texts == ["Shared idea from window A", "Shared idea from window B"]
    assert any(d.conflict_of for d in store_a.list_drafts())
    assert "both versions" in window_b.status_line.text()
    store_a.close()
    store_b.close()
    dispose(window_a)
    dispose(window_b)
