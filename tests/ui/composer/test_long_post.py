"""Issue 19 §3 in the composer: a post (or draft) whose text is 10 MB is not laid out in the
editors, which froze the window; the user is told why, sees its start with the rest on request,
and the post and draft are left as they are."""

from __future__ import annotations

import uuid

from app.compose.document import ComposerDocument
from app.compose.opening import EDITABLE_CHARS
from app.models.posts import Post
from tests.ui.composer.conftest import Composer, until
from ui.composer.long_post_dialog import LongPostDialog

TEN_MB = ("A very long post that nobody could ever publish anywhere. " * 180_000)[:10_000_000]


def test_a_10_mb_draft_is_shown_not_opened_for_editing(composer: Composer) -> None:
    page = composer.page

    async def body() -> str:
        doc = ComposerDocument(content=TEN_MB)
        draft = await composer.store.create_draft(doc.to_json(), title="huge")
        page.open_draft(draft.id)
        return draft.id

    draft_id = composer.run(body())
    dialog = page.drafts_controller.long_post_dialog
    assert isinstance(dialog, LongPostDialog)
    assert dialog.isVisible()
    assert "10,000,000 characters" in dialog.reason.text()
    assert len(dialog.view.toPlainText()) <= 20_000 + 20  # the start only (with line breaks)
    assert "Showing the first" in dialog.view.note.text()
    assert dialog.view.text() == TEN_MB  # Copy all gives it whole
    assert page.state.draft_id != draft_id
    assert page.shared.text.toPlainText() == ""
    assert "too long to edit" in page.status_line.text()
    stored = composer.store.get_draft(draft_id)
    assert stored is not None
    assert ComposerDocument.from_json(stored.document).content == TEN_MB  # nothing lost


def test_a_10_mb_post_from_the_calendar_is_shown_not_opened(composer: Composer) -> None:
    page = composer.page
    cache = composer.session.cache
    huge = Post(id=str(uuid.uuid4()), content=TEN_MB, status="draft")
    cache.upsert_post(huge)  # not on the server: the composer reads the cache's copy

    async def body() -> None:
        page.edit_post(huge.id)
        await until(lambda: page.drafts_controller.long_post_dialog is not None, what="dialog")

    composer.run(body())
    assert page.drafts_controller.long_post_dialog.view.text() == TEN_MB
    assert page.state.doc.editing_post_id is None
    assert len(page.shared.text.toPlainText()) < EDITABLE_CHARS
