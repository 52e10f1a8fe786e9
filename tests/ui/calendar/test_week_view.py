"""Week view: blocks at local wall-clock time, scrolling to the first post, slot drops."""

from __future__ import annotations

from datetime import date, time

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import make_post, utc
from ui.calendar.drag import post_mime_data
from ui.calendar.week_view import WeekView


def drop_at(view: WeekView, point: QPoint, mime: QMimeData) -> QDropEvent:
    event = QDropEvent(
        QPointF(point),
        Qt.DropAction.MoveAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    view.dropEvent(event)
    return event


def test_blocks_sit_in_their_day_column_at_local_time(make_page: PageFactory) -> None:
    post = make_post(when=utc(2025, 10, 22, 8, 30))  # Wed 10:30 CEST
    page = make_page([post])
    page.set_view("week")
    view = page.week_view
    view.scroll_to_minutes(9 * 60)
    block = view.block_rect(post.id)
    expected = view.point_for(date(2025, 10, 22), 10 * 60 + 30)
    assert block.top() == expected.y()
    assert block.left() <= expected.x() <= block.right()
    assert view.entry_at(block.center()) is not None
    assert view.entries_on(date(2025, 10, 22))[0].id == post.id


def test_the_week_opens_at_its_first_post(make_page: PageFactory) -> None:
    late = make_post(when=local_instant(date(2025, 10, 23), time(19, 0), BERLIN))
    early = make_post(when=local_instant(date(2025, 10, 24), time(6, 15), BERLIN))
    page = make_page([late, early])
    page.set_view("week")
    top, bottom = page.week_view.visible_minutes()
    assert top <= 6 * 60 + 15 < bottom
    assert top > 4 * 60


def test_opening_a_post_outside_the_visible_hours_scrolls_to_it(make_page: PageFactory) -> None:
    """As the command palette opens a post: go to its day, select it, open the detail."""
    early = make_post(when=local_instant(date(2025, 10, 22), time(7, 0), BERLIN))
    late = make_post(when=local_instant(date(2025, 10, 23), time(22, 30), BERLIN))
    page = make_page([early, late])
    page.set_view("week")
    top, bottom = page.week_view.visible_minutes()
    assert not top <= 22 * 60 + 30 < bottom
    page.go_to(date(2025, 10, 23))
    page.select_post(late.id)
    page.open_detail()
    top, bottom = page.week_view.visible_minutes()
    assert top <= 22 * 60 + 30 < bottom
    page.select_post(early.id)  # visible (a click): nothing moves
    page.week_view.scroll_to_minutes(6 * 60)
    scrolled = page.week_view.verticalScrollBar().value()
    page.open_detail()
    assert page.week_view.verticalScrollBar().value() == scrolled


def test_an_empty_week_opens_at_eight(make_page: PageFactory) -> None:
    page = make_page([])
    page.set_view("week")
    top, bottom = page.week_view.visible_minutes()
    assert top <= 8 * 60 < bottom
    assert top > 6 * 60


def test_reload_keeps_the_scroll_position(make_page: PageFactory) -> None:
    page = make_page([make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN))])
    page.set_view("week")
    page.week_view.scroll_to_minutes(15 * 60)
    before = page.week_view.verticalScrollBar().value()
    page.reload()
    assert page.week_view.verticalScrollBar().value() == before


def test_posts_at_the_same_time_share_the_column(make_page: PageFactory) -> None:
    when = local_instant(date(2025, 10, 22), time(12), BERLIN)
    first, second = make_post(when=when), make_post(when=when, account="x")
    page = make_page([first, second])
    page.set_view("week")
    a, b = page.week_view.block_rect(first.id), page.week_view.block_rect(second.id)
    assert not a.isEmpty()
    assert not b.isEmpty()
    assert not a.intersects(b)
    assert a.top() == b.top()


def test_autumn_dst_day_places_both_0230s_at_0230(make_page: PageFactory) -> None:
    first = make_post(when=utc(2025, 10, 26, 0, 30))
    second = make_post(when=utc(2025, 10, 26, 1, 30))
    page = make_page([first, second])
    page.set_view("week")
    assert [e.minutes for e in page.week_view.entries_on(date(2025, 10, 26))] == [150, 150]


def test_a_slot_drop_snaps_to_quarter_hours(make_page: PageFactory, qtbot: QtBot) -> None:
    post = make_post(when=local_instant(date(2025, 10, 21), time(9), BERLIN))
    page = make_page([post])
    page.set_view("week")
    view = page.week_view
    view.scroll_to_minutes(9 * 60)
    day = date(2025, 10, 23)
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        assert drop_at(view, view.point_for(day, 10 * 60 + 7), post_mime_data(post.id)).isAccepted()
    assert moved.args == [post.id, local_instant(day, time(10, 0), BERLIN)]
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        drop_at(view, view.point_for(day, 10 * 60 + 8), post_mime_data(post.id))
    assert moved.args[1].astimezone(BERLIN).time() == time(10, 15)


def test_a_slot_drop_in_the_spring_gap_lands_after_it(make_page: PageFactory, qtbot: QtBot) -> None:
    post = make_post(when=local_instant(date(2025, 3, 27), time(9), BERLIN))
    page = make_page([post], today=date(2025, 3, 27))
    page.set_view("week")
    view = page.week_view
    view.scroll_to_minutes(60)
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        drop_at(view, view.point_for(date(2025, 3, 30), 2 * 60 + 15), post_mime_data(post.id))
    assert moved.args[1] == utc(2025, 3, 30, 1, 15)  # 03:15 CEST


def test_drops_outside_the_grid_are_refused(make_page: PageFactory, qtbot: QtBot) -> None:
    post = make_post(when=local_instant(date(2025, 10, 21), time(9), BERLIN))
    page = make_page([post])
    page.set_view("week")
    with qtbot.assertNotEmitted(page.rescheduleRequested):
        event = drop_at(page.week_view, QPoint(5, 200), post_mime_data(post.id))  # hour gutter
    assert not event.isAccepted()


def test_clicking_a_block_selects_it(make_page: PageFactory, qtbot: QtBot) -> None:
    post = make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN))
    page = make_page([post])
    page.set_view("week")
    page.week_view.scroll_to_minutes(8 * 60)
    qtbot.mouseClick(
        page.week_view.viewport(),
        Qt.MouseButton.LeftButton,
        pos=page.week_view.block_rect(post.id).center(),
    )
    assert page.selected_post_id() == post.id


def test_this_week_opens_scrolled_to_the_current_time(make_page: PageFactory) -> None:
    from datetime import datetime, time

    from tests.ui.calendar.conftest import TODAY
    from ui.calendar import CalendarPage

    now = datetime.combine(TODAY, time(19, 30), BERLIN)
    early = make_post(when=datetime.combine(TODAY, time(7, 0), BERLIN))
    source_page = make_page([early], show=False)
    page = CalendarPage(source_page.source, display_tz=BERLIN, today=lambda: TODAY, now=lambda: now)
    page.resize(1400, 900)
    page.show()
    page.set_view("week")
    top, bottom = page.week_view.visible_minutes()
    assert top <= 19 * 60 + 30 < bottom  # now in view, not the 07:00 post
    assert top > 7 * 60  # not opened at the first post
    page.close()
