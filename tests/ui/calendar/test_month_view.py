"""Month view: posts land in the right day cells, overflow, today, drag-and-drop."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import make_post, utc
from ui.calendar.drag import post_mime_data
from ui.calendar.month_view import MonthView
from ui.calendar.style import today_color


def drop_on(view: MonthView, day: date, mime: QMimeData) -> QDropEvent:
    point = QPointF(view.cell_rect(day).center())
    event = QDropEvent(
        point,
        Qt.DropAction.MoveAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    view.dropEvent(event)
    return event


def test_posts_sit_on_their_local_day_in_the_display_zone(make_page: PageFactory) -> None:
    late = make_post(when=utc(2025, 10, 14, 23, 30))  # 15 Oct 01:30 in Berlin
    page = make_page([late])
    assert page.month_view.visible_post_ids(date(2025, 10, 15)) == [late.id]
    assert page.month_view.visible_post_ids(date(2025, 10, 14)) == []
    assert page.month_view.entries_on(date(2025, 10, 15))[0].time_text == "1:30"


def test_the_same_post_moves_a_day_in_another_display_zone(make_page: PageFactory) -> None:
    late = make_post(when=utc(2025, 10, 14, 23, 30))
    page = make_page([late], tz=UTC)
    assert page.month_view.visible_post_ids(date(2025, 10, 14)) == [late.id]
    auckland = make_page(
        [make_post(when=utc(2025, 10, 14, 11, 30))], tz=ZoneInfo("Pacific/Auckland")
    )
    assert len(auckland.month_view.visible_post_ids(date(2025, 10, 15))) == 1  # 00:30 NZDT


def test_dst_days_hold_their_posts(make_page: PageFactory) -> None:
    first = make_post(when=utc(2025, 10, 26, 0, 30))  # 02:30 CEST
    second = make_post(when=utc(2025, 10, 26, 1, 30))  # 02:30 CET, an hour later
    evening = make_post(when=utc(2025, 10, 26, 22, 30))  # 23:30 CET, still the 26th
    page = make_page([second, evening, first])
    day = date(2025, 10, 26)
    # Every day's chips have two lines: the cell shows the first two, "+1" counts the third.
    assert [e.id for e in page.month_view.entries_on(day)] == [first.id, second.id, evening.id]
    assert page.month_view.visible_post_ids(day) == [first.id, second.id]
    assert page.month_view.hidden_count(day) == 1
    assert [e.time_text for e in page.month_view.entries_on(day)] == ["2:30", "2:30", "23:30"]
    assert page.month_view.visible_post_ids(date(2025, 10, 27)) == []


def test_spring_forward_day_in_march(make_page: PageFactory) -> None:
    post = make_post(when=utc(2025, 3, 30, 1, 30))  # 03:30 CEST, right after the gap
    page = make_page([post], today=date(2025, 3, 30))
    assert page.month_view.visible_post_ids(date(2025, 3, 30)) == [post.id]
    assert page.month_view.entries_on(date(2025, 3, 30))[0].time_text == "3:30"


def test_a_full_day_shows_what_fits_and_counts_the_rest(make_page: PageFactory) -> None:
    day = date(2025, 10, 15)
    posts = [make_post(when=local_instant(day, time(8 + n), BERLIN)) for n in range(9)]
    page = make_page(posts)
    view = page.month_view
    shown = view.visible_post_ids(day)
    assert 0 < len(shown) < 9
    assert view.hidden_count(day) == 9 - len(shown)
    assert shown == [post.id for post in posts[: len(shown)]]  # earliest first
    assert not view.more_rect(day).isEmpty()
    assert view.hidden_count(date(2025, 10, 16)) == 0


def test_more_shows_the_whole_day_in_a_popup(make_page: PageFactory, qtbot: QtBot) -> None:
    day = date(2025, 10, 15)
    posts = [make_post(when=local_instant(day, time(8 + n), BERLIN)) for n in range(9)]
    page = make_page(posts)
    qtbot.mouseClick(
        page.month_view, Qt.MouseButton.LeftButton, pos=page.month_view.more_rect(day).center()
    )
    assert page.day_popup.isVisible()
    assert page.day_popup.day == day
    assert page.day_popup.post_ids() == [post.id for post in posts]
    page.day_popup.list.postActivated.emit(posts[-1].id)
    assert page.selected_post_id() == posts[-1].id
    assert page.detail.isVisible()


def test_cells_grow_and_shrink_with_the_window(make_page: PageFactory) -> None:
    day = date(2025, 10, 15)
    posts = [make_post(when=local_instant(day, time(8 + n), BERLIN)) for n in range(6)]
    page = make_page(posts)
    page.resize(1400, 600)
    few = len(page.month_view.visible_post_ids(day))
    page.resize(1400, 1400)
    assert len(page.month_view.visible_post_ids(day)) > few


def test_today_is_highlighted_and_other_months_are_dimmed(make_page: PageFactory) -> None:
    page = make_page([])
    view = page.month_view
    image = view.grab().toImage()
    today_cell = view.cell_rect(date(2025, 10, 21))
    marker = image.pixelColor(today_cell.left() + 9, today_cell.top() + 14)
    assert marker == today_color()
    in_month = image.pixelColor(view.cell_rect(date(2025, 10, 15)).center())
    outside = image.pixelColor(view.cell_rect(date(2025, 11, 5)).center())
    assert outside.lightness() < in_month.lightness()


def test_clicking_a_chip_selects_the_post(make_page: PageFactory, qtbot: QtBot) -> None:
    post = make_post(when=utc(2025, 10, 15, 8, 0))
    page = make_page([post])
    with qtbot.waitSignal(page.postSelected) as selected:
        qtbot.mouseClick(
            page.month_view,
            Qt.MouseButton.LeftButton,
            pos=page.month_view.chip_rect(post.id).center(),
        )
    assert selected.args == [post.id]
    assert page.selected_post_id() == post.id
    assert page.detail.isVisible()
    qtbot.mouseClick(
        page.month_view,
        Qt.MouseButton.LeftButton,
        pos=page.month_view.cell_rect(date(2025, 10, 20)).center(),
    )
    assert page.selected_post_id() is None


def test_double_click_on_an_empty_day_asks_for_a_new_post(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page = make_page([])
    with qtbot.waitSignal(page.newPostRequested) as requested:
        qtbot.mouseDClick(
            page.month_view,
            Qt.MouseButton.LeftButton,
            pos=page.month_view.cell_rect(date(2025, 10, 23)).center(),
        )
    assert requested.args == [date(2025, 10, 23)]


def test_dropping_on_another_day_keeps_the_local_time_across_dst(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    post = make_post(when=utc(2025, 10, 22, 8, 15))  # Wed 10:15 CEST
    page = make_page([post])
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        event = drop_on(page.month_view, date(2025, 10, 28), post_mime_data(post.id))
    assert event.isAccepted()
    post_id, when = moved.args
    assert post_id == post.id
    assert when == utc(2025, 10, 28, 9, 15)  # Tue 10:15 CET: an hour later in UTC
    assert when.astimezone(BERLIN).time() == time(10, 15)


def test_dropping_on_the_same_day_or_a_locked_post_asks_nothing(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    scheduled = make_post(when=utc(2025, 10, 22, 8, 15))
    published = make_post(when=utc(2025, 10, 20, 8, 15), status="published")
    page = make_page([scheduled, published])
    with qtbot.assertNotEmitted(page.rescheduleRequested):
        drop_on(page.month_view, date(2025, 10, 22), post_mime_data(scheduled.id))
        drop_on(page.month_view, date(2025, 10, 24), post_mime_data(published.id))
        foreign = QMimeData()
        foreign.setText(scheduled.id)
        assert not drop_on(page.month_view, date(2025, 10, 24), foreign).isAccepted()


def test_dropping_an_undated_draft_gives_it_a_morning_slot(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    draft = make_post(when=None, status="draft")
    page = make_page([draft])
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        drop_on(page.month_view, date(2025, 10, 30), post_mime_data(draft.id))
    assert moved.args[1] == local_instant(date(2025, 10, 30), time(9), BERLIN)


def test_drag_hover_marks_the_target_day(make_page: PageFactory) -> None:
    from PySide6.QtGui import QDragMoveEvent

    post = make_post(when=utc(2025, 10, 22, 8, 15))
    page = make_page([post])
    view = page.month_view
    mime = post_mime_data(post.id)  # the event only borrows it: keep it alive
    event = QDragMoveEvent(
        view.cell_rect(date(2025, 10, 24)).center(),
        Qt.DropAction.MoveAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    view.dragMoveEvent(event)
    assert event.isAccepted()
    assert view.drop_day() == date(2025, 10, 24)


def test_a_busy_cache_only_loads_the_visible_month(make_page: PageFactory) -> None:
    from ui.calendar.source import InMemoryCalendarSource

    first = datetime(2025, 1, 1, 6, tzinfo=UTC)
    posts = [make_post(when=first + timedelta(hours=3 * n)) for n in range(3000)]
    source = InMemoryCalendarSource(posts)
    page = make_page(source=source)
    start, end = page.visible_range()
    assert source.queries[-1] == (start, end)
    in_range = [p for p in posts if p.scheduled_at and start <= p.scheduled_at < end]
    shown = sum(
        len(page.month_view.visible_post_ids(day)) + page.month_view.hidden_count(day)
        for day in page.month_view.days()
    )
    assert shown == len(in_range) > 0
    assert not page.month_view.grab().isNull()
