"""Sending from the composer: one batch per click, posts in the cache at once, 422 at the field."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from app.compose.document import ComposerDocument, ScheduleMode
from app.sync.outbox import OutboxState
from tests.ui.composer.conftest import Composer, until
from tests.ui.waits import answer, settle_layouts
from ui.composer.send_flow import sent_text as _sent_text


def test_save_draft_creates_one_batch_and_fills_the_cache(composer: Composer) -> None:
    page = composer.page
    stored: list[str] = []  # through the session: off the GUI thread, only these posts
    composer.session.postsStored.connect(lambda posts: stored.extend(p.id for p in posts))
    everything: list[object] = []
    composer.session.dataChanged.connect(everything.append)

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
    assert sorted(stored) == sorted(p.id for p in posts if p)
    assert None not in everything  # nobody was told to re-read everything


def test_the_composer_says_how_many_posts_it_made(composer: Composer) -> None:
    """Found live: "0 posts scheduled" after two were made (the cache writer took the
    created posts before the composer counted them)."""
    page = composer.page

    async def body() -> None:
        composer.choose("x", "linkedin")
        QTest.keyClicks(page.shared.text, "Counted right")
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(lambda: "in the calendar" in page.status_line.text(), what="done")

    composer.run(body())
    assert page.status_line.text().startswith("2 posts saved as draft.")


def test_double_click_sends_one_batch(composer: Composer) -> None:
    page = composer.page

    async def body() -> None:
        composer.choose("x", "linkedin")
        QTest.keyClicks(page.shared.text, "Only once, please")
        QTest.mouseDClick(page.schedule.send, Qt.MouseButton.LeftButton)
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        page.send()  # Ctrl+Return while busy
        assert not page.schedule.send.isEnabled()
        await until(lambda: composer.sandbox.store.post_count() == 2, what="the batch")
        await until(lambda: not page.send_flow.gate.busy_keys(), what="the answer")
        # The batch's outbox entry is sent: nothing is left that could be sent again.
        sending = page.send_flow.sending
        assert sending is not None
        await until(
            lambda: all(e.state is OutboxState.SENT for e in sending.entries()),
            what="the outbox entry sent",
        )

    composer.run(body())
    assert composer.sandbox.store.post_count() == 2
    assert len(page.send_flow.sending.entries()) == 1  # type: ignore[union-attr]


def test_server_422_lands_on_the_board_of_the_third_destination(composer: Composer) -> None:
    page = composer.page
    pinterest = composer.account("pinterest")
    page.data.set_unavailable("boards", pinterest, "This server cannot list them: type the id.")

    async def body() -> None:
        composer.choose("discord", "linkedin", "pinterest")
        assert [d.platform for d in page.state.doc.destinations] == [
            "discord",
            "linkedin",
            "pinterest",
        ]
        discord = page.tabs_by_account[composer.account("discord")].settings.widgets[
            "meta.channel_id"
        ]
        await until(lambda: discord.combo.count() > 1, what="channels")  # type: ignore[attr-defined]
        discord.combo.setCurrentIndex(1)  # type: ignore[attr-defined]
        board = page.tabs_by_account[pinterest].settings.widgets["meta.board_id"]
        QTest.keyClicks(board.text, "no-such-board")  # type: ignore[attr-defined]
        QTest.keyClicks(page.shared.text, "Autumn menu")
        assert page.schedule.send.isEnabled(), page.schedule.blocker.text()
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(
            lambda: page.errors.messages("destinations.2.meta.board_id"), what="the field error"
        )

    composer.run(body())
    board = page.tabs_by_account[pinterest].settings.widgets["meta.board_id"]
    assert board.property("invalid") is True
    shown = page.errors.messages("destinations.2.meta.board_id")
    assert any("board" in m.lower() for m in shown), shown
    assert composer.sandbox.store.post_count() == 0
    assert page.state.doc.content == "Autumn menu"  # nothing lost
    assert "⚠" in page.tabs.tabText(page.tabs.indexOf(page.tabs_by_account[pinterest]))


def test_the_send_button_stays_put_when_the_form_becomes_valid(composer: Composer) -> None:
    """Found live: the reason under the button vanished as an account was ticked, the button
    jumped down and the click aimed at it landed on nothing."""
    page = composer.page
    button = page.schedule.send

    def where() -> int:
        return button.mapTo(page, QPoint(0, 0)).y()

    async def body() -> None:
        settle_layouts()
        assert not button.isEnabled()
        before = where()
        composer.choose("linkedin")
        QTest.keyClicks(page.shared.text, "Stay where you are")
        await until(button.isEnabled, what="a valid form")
        settle_layouts()  # whatever the valid form moved has moved now
        assert where() == before

    composer.run(body())


def test_one_post_is_spoken_of_in_the_singular() -> None:
    doc = ComposerDocument()
    assert _sent_text(doc, 1) == "1 post saved as draft. It is in the calendar."
    assert _sent_text(doc, 2) == "2 posts saved as draft. They are in the calendar."


def test_publish_now_asks_first_naming_the_networks(composer: Composer) -> None:
    page = composer.page

    async def body() -> None:
        composer.choose("x", "linkedin")
        QTest.keyClicks(page.shared.text, "Now!")
        page.schedule.set_mode(ScheduleMode.PUBLISH_NOW)
        assert page.schedule.send.text() == "Publish now…"
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(lambda: page.send_flow.publish_box is not None, what="the question")
        box = page.send_flow.publish_box
        await until(box.isVisible, what="the question shown")
        assert "LinkedIn, X" in box.text()
        cancel = QMessageBox.StandardButton.Cancel
        # Returns once the page's handler of the answer (connected before) has returned.
        assert await answer(box, cancel) == cancel
        assert not box.isVisible()

    composer.run(body())
    assert composer.sandbox.store.post_count() == 0
    assert not page.send_flow.gate.busy_keys()
    assert page.state.doc.content == "Now!"


def test_signature_appended_to_shared_text_or_inserted_in_a_destination(
    composer: Composer,
) -> None:
    page = composer.page
    composer.sandbox.store.create_signature("Sign-off", "— The Northwind team")

    async def body() -> None:
        composer.choose("x")
        QTest.keyClicks(page.shared.text, "Hello")
        page.menus.show_signatures()
        await until(lambda: page.data.signatures, what="signatures loaded")
        page.menus.insert_signature(page.data.signatures[0].content, append=True)  # type: ignore[index]
        assert page.shared.text.toPlainText() == "Hello\n\n— The Northwind team"
        tab = page.tabs_by_account[composer.account("x")]
        tab.override_text.setChecked(True)
        tab.text.moveCursor(QTextCursor.MoveOperation.Start)
        tab.text.setFocus()
        page.menus.remember_editor(tab.text)
        page.menus.insert_signature("X only: ", append=False)

    composer.run(body())
    doc = page.state.doc
    assert doc.destinations[0].content == "X only: Hello\n\n— The Northwind team"
    assert doc.content == "Hello\n\n— The Northwind team"


def test_publish_now_confirmed_creates_posts_that_are_publishing(composer: Composer) -> None:
    """A batch with status publishing (spec §1, batch rule 3): once confirmed, one post per
    network, none of them left a draft."""
    page = composer.page

    async def body() -> None:
        composer.choose("x", "linkedin")
        QTest.keyClicks(page.shared.text, "Doors open now!")
        page.schedule.set_mode(ScheduleMode.PUBLISH_NOW)
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(
            lambda: (
                page.send_flow.publish_box is not None and page.send_flow.publish_box.isVisible()
            )
        )
        page.send_flow.publish_box.button(QMessageBox.StandardButton.Yes).click()
        await until(lambda: composer.sandbox.store.post_count() == 2, what="two posts")

    composer.run(body())
    with composer.sandbox.store.tx() as db:
        rows = db.all("SELECT status FROM posts WHERE content = ?", ("Doors open now!",))
        statuses = {row["status"] for row in rows}
    assert len(rows) == 2
    assert "draft" not in statuses
    assert statuses <= {"publishing", "published", "partially_published", "failed"}


def test_a_fresh_composer_shows_no_red_fields_until_something_is_done(
    composer: Composer,
) -> None:
    page = composer.page

    async def body() -> None:
        page.new_post()
        await until(lambda: len(page.tasks) == 0, what="the switch to a fresh composer")
        assert page.errors.messages("destinations") == []
        assert not page.schedule.send.isEnabled()  # still says what is missing
        QTest.keyClicks(page.shared.text, "Hello")
        await until(lambda: page.errors.messages("destinations") != [], what="the check shown")

    composer.run(body())


def test_a_422_mark_stays_when_another_field_changes_and_goes_when_its_own_does(
    composer: Composer,
) -> None:
    """Issue 15 §4: changing the mode cleared the server's mark on the Pinterest board."""
    test_server_422_lands_on_the_board_of_the_third_destination(composer)
    page = composer.page
    pinterest = composer.account("pinterest")
    served = list(page.errors.messages("destinations.2.meta.board_id"))
    page.schedule.set_mode(ScheduleMode.QUEUE_NEXT)
    page.refresh_now()  # the checks follow edits on a coalescing timer
    assert page.errors.messages("destinations.2.meta.board_id") == served
    QTest.keyClicks(page.shared.text, " and more")
    page.refresh_now()
    assert page.errors.messages("destinations.2.meta.board_id") == served
    board = page.tabs_by_account[pinterest].settings.widgets["meta.board_id"]
    QTest.keyClicks(board.text, "-2")  # type: ignore[attr-defined]
    page.refresh_now()
    assert page.errors.messages("destinations.2.meta.board_id") != served
