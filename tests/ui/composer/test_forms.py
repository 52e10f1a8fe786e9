"""Every network's settings form, generated from `app.networks`, driven like a user would."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLineEdit

from app.compose.document import ScheduleMode
from tests.ui.composer.conftest import Composer, until
from ui.composer.settings_form import LookupField
from ui.composer.thread_replies import ThreadRepliesEditor


def _form(composer: Composer, platform: str):  # type: ignore[no-untyped-def]
    return composer.page.tabs_by_account[composer.account(platform)].settings


def _index(composer: Composer, platform: str) -> int:
    index = composer.page.state.doc.index_of(composer.account(platform))
    assert index is not None
    return index


def test_pinterest_board_picker_title_and_link(composer: Composer) -> None:
    page = composer.page

    async def body() -> None:
        composer.choose("pinterest")
        board = _form(composer, "pinterest").widgets["meta.board_id"]
        assert isinstance(board, LookupField)
        await until(lambda: board.combo.count() == 5, what="boards from the lookup")
        assert board.combo.itemText(2) == "Brewing Guides"
        board.combo.setCurrentIndex(2)
        title = _form(composer, "pinterest").widgets["meta.title"]
        link = _form(composer, "pinterest").widgets["meta.link"]
        assert isinstance(title, QLineEdit)
        assert isinstance(link, QLineEdit)
        QTest.keyClicks(title, "Pour-over in 4 steps")
        QTest.keyClicks(link, "notalink")

    composer.run(body())
    page.refresh_now()  # the checks follow edits on a coalescing timer
    meta = page.state.doc.destinations[0].meta
    assert meta["board_id"] == "918273645502"
    assert meta["title"] == "Pour-over in 4 steps"
    path = "destinations.0.meta.link"
    assert page.errors.messages(path), "a bad link is shown at the link field"
    assert _form(composer, "pinterest").widgets["meta.link"].property("invalid") is True


def test_pinterest_board_falls_back_to_free_text_when_not_offered(composer: Composer) -> None:
    page = composer.page
    pinterest = composer.account("pinterest")
    page.data.set_unavailable("boards", pinterest, "This server cannot list them: type the id.")
    composer.choose("pinterest")
    board = _form(composer, "pinterest").widgets["meta.board_id"]
    assert isinstance(board, LookupField)
    assert not board.combo.isVisibleTo(board)
    assert board.text.isVisibleTo(board)
    assert "type the id" in board.note.text()
    QTest.keyClicks(board.text, "12345")
    assert page.state.doc.destinations[0].meta["board_id"] == "12345"


def test_tiktok_privacy_has_no_default_and_blocks_scheduling(composer: Composer) -> None:
    page = composer.page
    composer.choose("tiktok")
    privacy = _form(composer, "tiktok").widgets["meta.privacy_level"]
    assert isinstance(privacy, QComboBox)
    assert privacy.currentIndex() == 0
    assert privacy.currentText() == "Choose…"
    assert "privacy_level" not in page.state.doc.destinations[0].meta
    page.schedule.set_mode(ScheduleMode.QUEUE_NEXT)
    page.refresh_now()
    assert not page.schedule.send.isEnabled()
    assert page.errors.messages("destinations.0.meta.privacy_level")
    privacy.setCurrentIndex(privacy.findData("SELF_ONLY"))
    assert page.state.doc.destinations[0].meta["privacy_level"] == "SELF_ONLY"
    assert not page.errors.messages("destinations.0.meta.privacy_level")
    # Still blocked: a TikTok needs a video; the button says so.
    assert "TikTok" in page.schedule.blocker.text()


def test_discord_channel_picker(composer: Composer) -> None:
    page = composer.page

    async def body() -> None:
        composer.choose("discord")
        channel = _form(composer, "discord").widgets["meta.channel_id"]
        assert isinstance(channel, LookupField)
        await until(lambda: channel.combo.count() == 4, what="channels")
        channel.combo.setCurrentIndex(channel.combo.findText("events"))

    composer.run(body())
    assert page.state.doc.destinations[0].meta["channel_id"] == "1123581321345589146"


def test_x_thread_replies_add_remove_reorder_with_media(composer: Composer, tmp_path: Path) -> None:
    page = composer.page
    composer.choose("x")
    replies = _form(composer, "x").widgets["meta.thread_replies"]
    assert isinstance(replies, ThreadRepliesEditor)
    for text in ("first", "second", "third"):
        QTest.mouseClick(replies.add_button, Qt.MouseButton.LeftButton)
        QTest.keyClicks(replies.rows[-1].text, text)
    QTest.mouseClick(replies.rows[2].up, Qt.MouseButton.LeftButton)
    QTest.mouseClick(replies.rows[0].remove, Qt.MouseButton.LeftButton)
    picture = tmp_path / "cup.png"
    QImage(20, 20, QImage.Format.Format_RGB32).save(str(picture))
    replies.pick_files = lambda: [str(picture)]
    QTest.mouseClick(replies.rows[1].attach, Qt.MouseButton.LeftButton)
    stored = page.state.doc.destinations[0].meta["thread_replies"]
    assert [r["text"] for r in stored] == ["third", "second"]
    assert stored[1]["media"][0]["path"] == str(picture)
    assert "cup.png" in replies.rows[1].media_label.text()
    assert "[Reply 2]</span> second" in page.preview.preview_text(0)


def test_content_type_and_reel_audio_button(composer: Composer) -> None:
    page = composer.page
    composer.choose("instagram", "instagram-facebook")
    for platform in ("instagram", "instagram-facebook"):
        types = _form(composer, platform).widgets["content_type"]
        assert isinstance(types, QComboBox)
        types.setCurrentIndex(types.findData("instagram_reel"))
    assert {d.content_type for d in page.state.doc.destinations} == {"instagram_reel"}
    plain = _form(composer, "instagram")
    assert not plain.audio_button.isEnabled()
    assert "connected through Facebook" in plain.audio_button.toolTip()
    assert _form(composer, "instagram-facebook").audio_button.isEnabled()
    # Changing a content type rebuilds the form: a feed post has no audio.
    feed = _form(composer, "instagram-facebook").widgets["content_type"]
    assert isinstance(feed, QComboBox)
    feed.setCurrentIndex(feed.findData("instagram_post"))
    assert "meta.audio" not in _form(composer, "instagram-facebook").widgets


def test_unavailable_accounts_are_listed_but_not_choosable(composer: Composer) -> None:
    page = composer.page
    x = composer.account("x")
    composer.sandbox.store.set_account(x, status="token_expired")

    async def body() -> None:
        await composer.session.sync.full_refresh()
        await until(
            lambda: (
                "login expired"
                in (page.picker.item_for(x).text() if page.picker.item_for(x) else "")
            )
        )

    composer.run(body())
    item = page.picker.item_for(x)
    assert item is not None
    assert not item.flags() & Qt.ItemFlag.ItemIsUserCheckable
    assert "expired" in item.toolTip()
    assert not page.picker.toggle(x)
