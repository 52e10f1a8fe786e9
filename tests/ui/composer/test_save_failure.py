"""What the user wrote is never reported safe when it is not (issue 19 §2): a drafts file that
cannot take the text (the disk full, the file damaged) is said where the user types, the text
stays in the window, a copy can be saved to a file, quitting asks, and the message goes away
by itself once saving works again."""

from __future__ import annotations

import contextlib
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore, local_store_path
from app.workspaces.profiles import Paths
from tests.ui.app.conftest import LoopRunner
from tests.ui.composer.conftest import BERLIN, dispose, make_session, until
from ui.composer.page import ComposerPage
from ui.quit_guard import quit_guard

PADDING = " and a long tail" * 8000


@pytest.fixture(autouse=True)
def fresh_guard() -> Iterator[None]:
    guard = quit_guard()
    guard.confirmed = False
    yield
    guard.confirmed = False
    if guard.question is not None:
        with contextlib.suppress(RuntimeError):  # deleted with the page it belonged to
            guard.question.close()
        guard.question = None


def limit_file(store: LocalStore, *, full: bool) -> None:
    """SQLite's own limit on the file's size: writes past it fail exactly as on a full disk
    ("database or disk is full"). `full=False`: no limit again (the space came back)."""

    def work(connection: object) -> None:
        execute = connection.execute  # type: ignore[attr-defined]
        count = execute("PRAGMA page_count").fetchone()[0]
        execute(f"PRAGMA max_page_count = {count if full else 1073741823}")

    store.submit(work).result()


def offline_page(store: LocalStore) -> ComposerPage:
    page = ComposerPage(local_tz=BERLIN)
    page.attach_store(store)
    page.new_post()
    page.resize(1200, 800)
    return page


def test_a_full_disk_is_said_where_the_user_types_and_goes_away_with_space(
    runner: LoopRunner, tmp_path: Path
) -> None:
    store = LocalStore.open(tmp_path / "drafts.sqlite3")
    page = offline_page(store)
    bar = page.save_failure
    big = "A long post that no longer fits. " * 4000
    posted: list[str] = []
    withdrawn: list[object] = []
    page.messages.posted.connect(lambda message: posted.append(message.text))  # type: ignore[union-attr]
    page.messages.withdrawn.connect(withdrawn.append)  # type: ignore[union-attr]

    async def body() -> None:
        page.show()
        QTest.keyClicks(page.shared.text, "First words")
        await until(lambda: store.list_drafts(), what="saved while there is room")
        assert bar.isHidden()
        limit_file(store, full=True)  # the file may not grow any more: the disk is full
        page.shared.text.insertPlainText(big)
        await until(lambda: bar.isVisible(), what="the failure said")
        assert "disk is full" in bar.label.text()
        assert "in the window" in bar.label.text()
        assert "asks before quitting" in bar.label.text()
        assert big.strip() in page.state.doc.content  # still there, in memory
        assert quit_guard().at_risk()  # quitting would ask
        assert "First words" in store.list_drafts()[0].document
        assert "no longer fits" not in store.list_drafts()[0].document
        bar.retry_timer.setInterval(30)  # the retry every few seconds, sooner
        await until(lambda: bar.repeats, what="a retry that failed again")
        assert len([text for text in posted if "disk is full" in text]) == 1  # said once
        limit_file(store, full=False)  # space is back
        await until(lambda: bar.isHidden(), what="the message goes away by itself")
        assert withdrawn, "the window's message about the full disk is withdrawn"
        assert "disk is full" not in page.status_line.text()
        assert "no longer fits" in store.list_drafts()[0].document
        assert not quit_guard().at_risk()
        await page.shutdown()

    runner.run(body())
    store.close()
    dispose(page)


def test_a_copy_can_be_saved_to_a_file_and_then_quitting_loses_nothing(
    runner: LoopRunner, tmp_path: Path
) -> None:
    store = LocalStore.open(tmp_path / "drafts.sqlite3")
    page = offline_page(store)
    bar = page.save_failure
    copy = tmp_path / "rescued.txt"

    async def body() -> None:
        page.show()
        limit_file(store, full=True)
        QTest.keyClicks(page.shared.text, "Words the disk refused")
        page.shared.text.insertPlainText(PADDING)  # more than the free pages hold
        await until(lambda: bar.isVisible(), what="the failure said")
        assert bar.save_as_button.isVisible()
        assert bar.save_as_button.accessibleName()
        assert bar.save_copy(copy)
        assert "Words the disk refused" in copy.read_text(encoding="utf-8")
        assert stat.S_IMODE(copy.stat().st_mode) == 0o600
        assert str(copy) in bar.label.text()
        assert not quit_guard().at_risk()  # this very text is in the copy
        QTest.keyClicks(page.shared.text, " and more")
        assert quit_guard().at_risk()  # the copy is older than the text now
        bar.retry_timer.stop()
        limit_file(store, full=False)
        await page.shutdown()

    runner.run(body())
    store.close()
    dispose(page)


def test_quitting_asks_while_the_text_is_only_in_memory(runner: LoopRunner, tmp_path: Path) -> None:
    store = LocalStore.open(tmp_path / "drafts.sqlite3")
    page = offline_page(store)
    bar = page.save_failure
    quits: list[bool] = []

    async def body() -> None:
        page.show()
        limit_file(store, full=True)
        QTest.keyClicks(page.shared.text, "Unsaved words")
        page.shared.text.insertPlainText(PADDING)
        await until(lambda: bar.isVisible(), what="the failure said")
        guard = quit_guard()
        assert guard.ask_or_go(page, lambda: quits.append(True)) is False
        question = guard.question
        assert question is not None
        assert question.isVisible()
        assert "could not be saved" in question.text()
        [quit_button] = [
            b
            for b in question.buttons()
            if question.buttonRole(b) is QMessageBox.ButtonRole.DestructiveRole
        ]
        quit_button.click()
        await until(lambda: quits, what="quit anyway")
        assert guard.ask_or_go(page, lambda: None) is True  # confirmed: no second question
        bar.retry_timer.stop()
        limit_file(store, full=False)
        await page.shutdown()

    runner.run(body())
    store.close()
    dispose(page)


def test_a_damaged_drafts_file_is_said_as_soon_as_the_user_types(
    runner: LoopRunner, tmp_path: Path, sandbox: SandboxServer
) -> None:
    path = local_store_path(Paths(), "composertest")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not a database, it was damaged" * 200)
    session = make_session(sandbox, tmp_path)
    page = ComposerPage(local_tz=BERLIN)
    page.resize(1200, 800)

    async def body() -> None:
        page.set_session(session)
        page.show()
        bar = page.save_failure
        assert page.store is None
        assert bar.isHidden()  # nothing typed, nothing at risk yet
        QTest.keyClicks(page.shared.text, "Typed into a broken file")
        await until(lambda: bar.isVisible(), what="said where the user types")
        assert "damaged" in bar.label.text()
        assert quit_guard().at_risk()
        page.send()  # "Save draft" / Send: never "Not connected to a workspace"
        assert "Not connected" not in page.status_line.text()
        assert "damaged" in page.status_line.text()
        await page.shutdown()
        await session.close()

    runner.run(body())
    dispose(page)


def test_opening_another_post_asks_while_the_text_is_only_in_memory(
    runner: LoopRunner, tmp_path: Path
) -> None:
    """New post (or another draft) would replace the only copy of unsaved text: it asks, and
    Cancel keeps the text in the window (it was silently lost)."""
    store = LocalStore.open(tmp_path / "drafts.sqlite3")
    page = offline_page(store)
    bar = page.save_failure

    async def body() -> None:
        page.show()
        QTest.keyClicks(page.shared.text, "Saved words")
        await until(lambda: store.list_drafts(), what="saved while there is room")
        limit_file(store, full=True)
        page.shared.text.insertPlainText(" and many unsaved ones. " * 4000)
        await until(lambda: bar.isVisible(), what="the failure said")
        page.new_post()
        assert page.question is not None, "asked before replacing the unsaved text"
        page.question.reject()  # Cancel
        await until(lambda: page.question is None or not page.question.isVisible(), what="closed")
        assert "many unsaved ones" in page.state.doc.content, "the text stays in the window"
        page.new_post()
        assert page.question is not None
        discard = page.question.buttons()[0]
        assert discard.text() == "Discard it and open"
        discard.click()
        await until(lambda: page.state.doc.content == "", what="the new post opened")
        limit_file(store, full=False)
        await page.shutdown()

    runner.run(body())
    store.close()
    dispose(page)
