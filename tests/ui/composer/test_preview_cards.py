"""The preview: every thread part and reply on its own card, whole; "… more" where the network
folds, unfolding on click."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.compose.document import ComposerDocument, DestinationDraft, MediaAttachment
from app.models.accounts import SocialAccountSummary
from app.store.local_store import LocalStore
from tests.ui.composer.conftest import dispose
from tests.ui.loop_runner import LoopRunner
from ui.composer.page import ComposerPage
from ui.composer.preview_pane import FOLD_AFTER, folded


def _account(platform: str) -> SocialAccountSummary:
    return SocialAccountSummary(
        id=f"00000000-0000-4000-8000-00000000000{len(platform) % 10}",
        platform=platform,
        display_name=platform.title(),
        username=platform,
        is_active=True,
        status="connected",
        timezone="UTC",
    )


@pytest.fixture
def page(qtbot: QtBot, runner: LoopRunner, tmp_path: Path) -> Iterator[ComposerPage]:
    store = LocalStore.open(tmp_path / "ws.local.sqlite3")
    page = ComposerPage()
    page.resize(1440, 900)

    async def attach() -> None:  # Qt events run inside the loop (the page spawns its saves)
        page.show()
        page.attach_store(store)

    runner.run(attach())
    yield page
    runner.run(page.shutdown())
    store.close()
    dispose(page)


def test_instagram_folds_with_more_and_unfolds(qtbot: QtBot, page: ComposerPage) -> None:
    insta = _account("instagram")
    doc = ComposerDocument(content="A caption that goes on " * 12)
    doc.destinations = [
        DestinationDraft(account_id=insta.id, platform="instagram", content_type="instagram_post")
    ]
    page.state.replace(doc, draft_id=None, revision=0)
    html_text = page.preview.preview_text(0)
    assert "more</a>" in html_text
    card = page.preview.cards[0]
    card.parts[0].text.linkActivated.emit("more")
    assert "more</a>" not in page.preview.preview_text(0)
    assert page.preview.cards[0].parts[0].text.text().count("A caption") == 12


def test_fold_at_a_word_end() -> None:
    text = "word " * 60
    shown, more = folded(text, "instagram")
    assert more
    assert len(shown) <= FOLD_AFTER["instagram"]
    assert shown.endswith("word")
    assert folded(text, "x") == (text, False)


def test_every_reply_on_its_own_whole_card(
    qtbot: QtBot, page: ComposerPage, tmp_path: Path
) -> None:
    x = _account("x")
    picture = tmp_path / "cup.png"
    QImage(40, 40, QImage.Format.Format_RGB32).save(str(picture))
    doc = ComposerDocument(content="Main post " * 5)
    doc.media = [MediaAttachment(path=str(picture), mime="image/png")]
    doc.destinations = [
        DestinationDraft(
            account_id=x.id,
            platform="x",
            content_type="x_post",
            meta={"thread_replies": [{"text": "first reply"}, {"text": "second reply " * 20}]},
        )
    ]
    page.state.replace(doc, draft_id=None, revision=0)
    page.preview.redraw()
    card = page.preview.cards[0]
    assert len(card.parts) == 3
    texts = [p.text.text() for p in card.parts]
    assert "[Reply 2]" in texts[2]
    assert texts[2].count("second reply") == 20  # nothing cut
    qtbot.waitUntil(lambda: card.parts[2].isVisible())
    last = card.parts[2].text
    qtbot.waitUntil(lambda: last.height() >= last.heightForWidth(last.width()))
    assert card.parts[0].findChildren(type(last), "previewMedia")


def test_a_folded_away_preview_is_drawn_when_shown(qtbot: QtBot, page: ComposerPage) -> None:
    page.preview_folding.toggle.setChecked(False)
    insta = _account("instagram")
    doc = ComposerDocument(content="Hidden while typing")
    doc.destinations = [
        DestinationDraft(account_id=insta.id, platform="instagram", content_type="instagram_post")
    ]
    page.state.replace(doc, draft_id=None, revision=0)
    qtbot.waitUntil(lambda: page.preview._stale)
    assert not page.preview.cards  # nothing laid out while nobody sees it
    page.preview_folding.toggle.setChecked(True)
    assert "Hidden while typing" in page.preview.cards[0].parts[0].text.text()


def test_long_lines_and_the_overflow_note_wrap_inside_the_column(
    qtbot: QtBot, page: ComposerPage
) -> None:
    """Issue 15 §5 at 1440x900: a long link and the struck-out overflow were cut at the right
    edge of the X card (a label is as wide as its longest word)."""
    x = _account("x")
    link = "https://example.com/spring/collection/2026/launch-event-details?utm_source=postdesk"
    doc = ComposerDocument(content=f"Read {link} " + "overflowing" * 40)
    doc.destinations = [DestinationDraft(account_id=x.id, platform="x", content_type="x_post")]
    page.state.replace(doc, draft_id=None, revision=0)
    page.preview.redraw()
    card = page.preview.cards[0]
    assert not card.cut.isHidden()
    column = page.preview.viewport()
    labels = [card.header, card.cut, *(p.text for p in card.parts)]

    def inside(label: QLabel) -> bool:
        right = label.mapTo(column, label.rect().topRight()).x()
        return label.width() > 0 and right <= column.width()

    qtbot.waitUntil(lambda: all(label.isVisible() for label in labels))
    qtbot.waitUntil(lambda: card.cut.height() >= card.cut.heightForWidth(card.cut.width()))
    qtbot.wait(0)  # the layout's own queued pass
    assert all(inside(label) for label in labels), [label.width() for label in labels]
    # Nothing of the text is lost to the breaks: only zero-width spaces were added.
    assert link in card.parts[0].text.text().replace("\u200b", "").replace("&amp;", "&")


def test_a_pause_redraws_one_destination_per_pass(qtbot: QtBot, page: ComposerPage) -> None:
    """A keystroke typed while the preview redraws waits for one card, not for all of them."""
    doc = ComposerDocument(content="First words")
    doc.destinations = [
        DestinationDraft(account_id=_account(p).id + p, platform=p, content_type=t)
        for p, t in (("x", "x_post"), ("linkedin", "linkedin_post"), ("threads", "threads_post"))
    ]
    page.state.replace(doc, draft_id=None, revision=0)
    page.preview.redraw()
    drawn: list[int] = []
    for i, card in enumerate(page.preview.cards):
        real = card.show_preview
        card.show_preview = lambda item, who, i=i, real=real: (drawn.append(i), real(item, who))  # type: ignore[method-assign]
    page.state.set_content("Second words")
    page.refresh_now()
    assert page.preview._timer.isActive()  # the redraw waits for typing to pause
    page.preview._timer.stop()
    page.preview._timer.timeout.emit()  # the pause
    assert drawn == [0]  # the first card only, in this pass
    qtbot.waitUntil(lambda: drawn == [0, 1, 2])
    assert "Second words" in page.preview.cards[2].html
