"""Issue 15 §1: never a second post. After *Edit and retry* / a saved edit and after *Replace
post…*, the local draft that became a post leaves "Drafts on this computer", and a draft that
edits a post that no longer exists is never sent as a new batch."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.ui.composer.conftest import Composer, until
from tests.ui.composer.test_edit import _create
from tests.ui.composer.test_replace_gate import _confirm_replace


def _local_drafts_of(composer: Composer, post_id: str) -> list[str]:
    store = composer.page.store
    assert store is not None
    return [d.id for d in store.list_drafts() if d.server_post_id == post_id]


def _open_with_a_local_draft(composer: Composer, post_id: str, extra: str) -> str:
    page = composer.page

    async def body() -> str:
        page.edit_post(post_id)
        await until(lambda: page.state.doc.editing_post_id == post_id, what="loaded")
        QTest.keyClicks(page.shared.text, extra)
        await page.autosave.flush()
        await until(lambda: page.state.draft_id is not None, what="a local draft")
        return page.state.draft_id or ""

    return composer.run(body())


def test_a_saved_edit_takes_its_local_draft_off_the_list(composer: Composer) -> None:
    page = composer.page
    post_id = _create(composer, "Failed once")
    composer.sandbox.store.set_post_status(post_id, "failed")
    draft_id = _open_with_a_local_draft(composer, post_id, " (fixed)")
    assert draft_id in _local_drafts_of(composer, post_id) or draft_id

    async def body() -> None:
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(lambda: page.status_line.text() == "Changes saved.", what="saved")

    composer.run(body())
    store = page.store
    assert store is not None
    assert draft_id not in [d.id for d in store.list_drafts()]
    assert page.state.draft_id != draft_id
    assert composer.sandbox.store.post_count() == 1


def test_replace_takes_the_old_posts_draft_off_the_list_and_never_posts_twice(
    composer: Composer,
) -> None:
    page = composer.page
    post_id = _create(composer, "Replace me")
    composer.run(composer.session.sync.full_refresh())
    draft_id = _open_with_a_local_draft(composer, post_id, "?")

    async def body() -> None:
        await _confirm_replace(composer, post_id)
        await until(lambda: "Post replaced" in page.status_line.text(), what="replaced")

    composer.run(body())
    store = page.store
    assert store is not None
    assert draft_id not in [d.id for d in store.list_drafts()]
    assert composer.sandbox.store.post_count() == 1


def test_a_draft_of_a_deleted_post_is_never_sent_as_a_new_post(composer: Composer) -> None:
    page = composer.page
    post_id = _create(composer, "Soon gone")
    _open_with_a_local_draft(composer, post_id, "!")
    composer.run(composer.session.client.posts.delete(post_id))
    page.state.original = None  # as after reopening the draft once the post is gone

    async def body() -> None:
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(lambda: "no longer exists" in page.status_line.text(), what="refused")

    composer.run(body())
    assert composer.sandbox.store.post_count() == 0
