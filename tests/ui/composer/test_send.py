"""Sending from the composer: one batch per click, posts in the cache at once, 422 at the field."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.ui.composer.conftest import Composer, until


def test_save_draft_creates_one_batch_and_fills_the_cache(composer: Composer) -> None:
    page = composer.page
    changed: list[bool] = []
    composer.session.dataChanged.connect(lambda: changed.append(True))

    async def body() -> None:
        composer.choose("x", "linkedin")
        QTest.keyClicks(page.shared.text, "Fresh beans on Friday")
        assert page.schedule.send.isEnabled(), page.schedule.blocker.text()
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(lambda: composer.sandbox.store.post_count() == 2, what="two posts")
        await until(lambda: composer.session.cache.count_posts() == 2, what="cached")
        await until(lambda: page.state.doc.content == "", what="a fresh composer")

    composer.run(body())
    posts = [composer.session.cache.post(i) for i in composer.session.cache.post_ids()]
    assert {p.content for p in posts if p} == {"Fresh beans on Friday"}
    assert len({p.post_group_id for p in posts if p}) == 1
    assert changed
