"""Editing an existing post: load, change, `PUT /posts/{id}`, read back; edit and retry a failed
post; replace a post (new batch, then the old one deleted, after confirming)."""

from __future__ import annotations

from datetime import datetime, timedelta

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from app.compose.document import ScheduleMode
from app.models.requests import BatchRequest, Destination
from tests.ui.composer.conftest import BERLIN, Composer, until


def _create(composer: Composer, text: str) -> str:
    async def make() -> str:
        posts = await composer.session.client.posts.create_batch(
            BatchRequest(
                content=text,
                destinations=[
                    Destination(
                        social_account_id=composer.account("linkedin"), content_type="linkedin_post"
                    )
                ],
            )
        )
        return posts[0].id

    return composer.run(make())  # type: ignore[no-any-return]


def test_edit_text_and_time_then_read_back(composer: Composer) -> None:
    page = composer.page
    post_id = _create(composer, "Old text")
    when = (datetime.now(BERLIN) + timedelta(days=3)).replace(
        hour=10, minute=30, second=0, microsecond=0
    )

    async def body() -> None:
        page.edit_post(post_id)
        await until(lambda: page.state.doc.editing_post_id == post_id, what="loaded")
        assert page.shared.text.toPlainText() == "Old text"
        assert page.schedule.send.text() == "Save changes"
        page.shared.text.selectAll()
        QTest.keyClicks(page.shared.text, "New text")
        page.schedule.set_mode(ScheduleMode.AT)
        page.schedule.set_moment(when)
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(lambda: page.status_line.text() == "Changes saved.", what="saved")

    composer.run(body())
    stored = composer.sandbox.store.post(post_id)
    assert stored is not None
    assert stored["content"] == "New text"
    assert stored["status"] == "scheduled"
    cached = composer.session.cache.post(post_id)
    assert cached is not None
    assert cached.scheduled_at == when


def test_edit_and_retry_a_failed_post(composer: Composer) -> None:
    page = composer.page
    post_id = _create(composer, "This failed")
    composer.sandbox.store.set_post_status(post_id, "failed")
    when = datetime.now(BERLIN) + timedelta(days=1)

    async def body() -> None:
        page.edit_post(post_id)
        await until(lambda: page.state.doc.editing_post_id == post_id, what="loaded")
        QTest.keyClicks(page.shared.text, " (fixed)")
        page.schedule.set_mode(ScheduleMode.AT)
        page.schedule.set_moment(when)
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(lambda: page.status_line.text() == "Changes saved.", what="saved")

    composer.run(body())
    stored = composer.sandbox.store.post(post_id)
    assert stored is not None
    assert stored["status"] == "scheduled"
    assert stored["content"] == "This failed (fixed)"


def test_replace_post_creates_the_new_one_then_deletes_the_old(composer: Composer) -> None:
    page = composer.page
    post_id = _create(composer, "Keep me until the copy exists")

    async def body() -> None:
        page.edit_post(post_id)
        await until(lambda: page.state.doc.editing_post_id == post_id, what="loaded")
        QTest.keyClicks(page.shared.text, "!")
        page.send_flow.offer_replace(page.state.doc.model_copy(deep=True), ["labels"])
        page.send_flow.confirm_replace(page.state.doc.model_copy(deep=True))
        await until(page.send_flow.replace_box.isVisible, what="the question")
        page.send_flow.replace_box.button(QMessageBox.StandardButton.Yes).click()
        await until(lambda: composer.sandbox.store.post(post_id) is None, what="old deleted")

    composer.run(body())
    assert composer.sandbox.store.post_count() == 1
    [new_id] = composer.session.cache.post_ids()
    assert new_id != post_id
    new = composer.session.cache.post(new_id)
    assert new is not None
    assert new.content == "Keep me until the copy exists!"
