"""Week view: posts at nearly the same time that do not fit side by side leave a "+N" that opens
their list (issue 16 §1: 13 posts in one evening hour were 3-pixel slivers)."""

from __future__ import annotations

from datetime import date, time

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import make_post
from ui.calendar.week_view import MIN_BLOCK_WIDTH

DAY = date(2025, 10, 22)


def test_thirteen_posts_in_one_hour_show_readable_blocks_and_a_plus_n_that_opens_them(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    posts = [
        make_post(when=local_instant(DAY, time(19, minute), BERLIN), content=f"Evening {n}")
        for n, minute in enumerate(range(0, 52, 4))
    ]
    assert len(posts) == 13
    page = make_page(posts)
    page.resize(1360, 860)
    page.set_view("week")
    page.go_to(DAY)
    view = page.week_view
    view.scroll_to_minutes(19 * 60)
    shown = [p.id for p in posts if not view.block_rect(p.id).isEmpty()]
    assert 0 < len(shown) < 13
    assert all(view.block_rect(i).width() >= MIN_BLOCK_WIDTH - 4 for i in shown)
    ((day, hidden, rect),) = view.more_rects()
    assert day == DAY
    assert hidden == 13 - len(shown)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    popup = page.day_popup
    qtbot.waitUntil(popup.isVisible)
    assert popup.list.post_model.post_ids() == [p.id for p in posts]
    assert popup.title.text().endswith("13 posts")


def test_two_posts_at_the_same_minute_still_share_the_column(make_page: PageFactory) -> None:
    posts = [
        make_post(when=local_instant(DAY, time(10), BERLIN), content=f"Same {n}") for n in (1, 2)
    ]
    page = make_page(posts)
    page.resize(1360, 860)
    page.set_view("week")
    page.go_to(DAY)
    view = page.week_view
    assert not view.more_rects()
    assert all(not view.block_rect(p.id).isEmpty() for p in posts)
