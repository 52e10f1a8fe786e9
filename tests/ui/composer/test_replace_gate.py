"""*Replace post…* deletes the old post through the workspace session: under the same write gate
as the calendar's actions, and into the cache off the GUI thread, moving only that post."""

from __future__ import annotations

import asyncio

from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from tests.ui.composer.conftest import Composer, until
from tests.ui.composer.test_edit import _create


async def _confirm_replace(composer: Composer, post_id: str) -> None:
    page = composer.page
    page.edit_post(post_id)
    await until(lambda: page.state.doc.editing_post_id == post_id, what="loaded")
    QTest.keyClicks(page.shared.text, "!")
    page.send_flow.confirm_replace(page.state.doc.model_copy(deep=True))
    await until(lambda: page.send_flow.replace_box.isVisible(), what="the question")
    page.send_flow.replace_box.button(QMessageBox.StandardButton.Yes).click()


def test_the_old_post_leaves_the_cache_through_the_session(composer: Composer) -> None:
    post_id = _create(composer, "Replace me")
    composer.run(composer.session.sync.full_refresh())
    forgotten: list[str] = []
    composer.session.postsForgotten.connect(forgotten.extend)
    everything: list[object] = []
    composer.session.dataChanged.connect(everything.append)

    async def body() -> None:
        await _confirm_replace(composer, post_id)
        await until(lambda: forgotten, what="the old post forgotten")

    composer.run(body())
    assert forgotten == [post_id]
    assert composer.sandbox.store.post(post_id) is None
    assert composer.session.cache.post(post_id) is None
    assert None not in everything  # nobody was told to re-read everything


def test_no_delete_is_sent_while_another_write_of_the_old_post_is_in_flight(
    composer: Composer,
) -> None:
    """The calendar is rescheduling the old post (its answer not back yet) when the replace
    reaches its delete: the delete is not sent beside it."""
    post_id = _create(composer, "Busy elsewhere")
    in_flight = asyncio.Event()
    answered = asyncio.Event()

    async def calendar_write() -> None:
        in_flight.set()
        await answered.wait()

    async def body() -> None:
        composer.session.writes.run(post_id, calendar_write())
        await in_flight.wait()
        await _confirm_replace(composer, post_id)
        await until(
            lambda: "old one was not deleted" in composer.page.status_line.text(),
            what="the replace to say so",
        )
        answered.set()
        await until(lambda: not composer.session.writes.busy_keys(), what="the write done")

    composer.run(body())
    assert composer.sandbox.store.post(post_id) is not None  # kept: nothing was sent beside it
    assert composer.sandbox.store.post_count() == 2  # and the new version exists
