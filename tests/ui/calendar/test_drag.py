"""Drags as a user makes them (QTest press, moves, release) on a calendar read from a real cache
filled by the real sync, with the grid changing under the pointer while the drag is on."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date, time
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from app.store import WorkspaceCache
from tests.ui.calendar.conftest import BERLIN, TODAY, PageFactory
from tests.ui.calendar.synced import Planned, synced_cache
from ui.calendar.page import CalendarPage

THU_1045 = local_instant(date(2025, 10, 23), time(10, 45), BERLIN)
WED = date(2025, 10, 22)
LEFT = Qt.MouseButton.LeftButton
NONE = Qt.KeyboardModifier.NoModifier

PageOn = Callable[[list[Planned]], tuple[CalendarPage, list[str]]]


@pytest.fixture
def page_on(qtbot: QtBot, tmp_path: Path) -> Iterator[PageOn]:
    caches: list[WorkspaceCache] = []

    def make(planned: list[Planned]) -> tuple[CalendarPage, list[str]]:
        cache, ids = synced_cache(tmp_path, planned)
        caches.append(cache)
        page = CalendarPage(cache, display_tz=BERLIN, today=lambda: TODAY)
        qtbot.addWidget(page)
        page.resize(1400, 900)
        page.show()
        qtbot.waitExposed(page)
        return page, ids

    yield make
    for cache in caches:
        cache.close()


def press_and_move(surface: QWidget, start: QPoint, end: QPoint, steps: int = 6) -> None:
    QTest.mousePress(surface, LEFT, NONE, start)
    for step in range(1, steps + 1):
        QTest.mouseMove(surface, start + (end - start) * step / steps)


def release(surface: QWidget, at: QPoint) -> None:
    QTest.mouseMove(surface, at)
    QTest.mouseRelease(surface, LEFT, NONE, at)


def test_pressing_a_chip_opens_nothing_and_a_click_opens_its_details(page_on: PageOn) -> None:
    page, (post_id,) = page_on([Planned(THU_1045)])
    page.set_view("week")
    view = page.week_view
    centre = view.block_rect(post_id).center()
    width = view.viewport().width()
    QTest.mousePress(view.viewport(), LEFT, NONE, centre)
    assert not page.detail_is_open()
    assert view.viewport().width() == width  # nothing moved under the pointer
    QTest.mouseRelease(view.viewport(), LEFT, NONE, centre)
    assert page.selected_post_id() == post_id
    assert page.detail_is_open()


def test_a_week_drag_lands_where_aimed_while_the_grid_narrows(
    page_on: PageOn, qtbot: QtBot
) -> None:
    page, (post_id, other) = page_on([Planned(THU_1045), Planned(THU_1045, status="published")])
    page.select_post(other)  # the detail panel opens mid-drag: the grid narrows
    page.set_view("week")
    view = page.week_view
    view.scroll_to_minutes(9 * 60)
    surface = view.viewport()
    block = view.block_rect(post_id)
    start = block.center()
    grab = start - block.topLeft()
    aim = view.point_for(WED, 14 * 60) + QPoint(0, grab.y())  # the chip's top on Wed 14:00
    width = surface.width()
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        press_and_move(surface, start, aim)
        assert view.dragged_post_id() == post_id
        page.open_detail()
        page.reload()  # a sync landing mid-drag
        qtbot.waitUntil(lambda: surface.width() < width - 200)
        # The grid as it is now puts that point on another day: the drop must not follow it.
        live = view.drop_grid().target_at(aim, grab)
        assert live is None or live.day != WED
        release(surface, aim)
    assert moved.args == [post_id, local_instant(WED, time(14, 0), BERLIN)]
    assert view.dragged_post_id() is None


def test_the_first_month_drag_lands_on_the_aimed_day(page_on: PageOn, qtbot: QtBot) -> None:
    page, (post_id, other) = page_on([Planned(THU_1045), Planned(THU_1045)])
    page.select_post(other)
    view = page.month_view
    chip = view.chip_rect(post_id)
    target_day = date(2025, 10, 31)  # after Berlin left summer time
    aim = view.cell_rect(target_day).center()
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        press_and_move(view, chip.center(), aim)
        assert view.drop_day() == target_day
        width = view.width()
        page.open_detail()
        qtbot.waitUntil(lambda: view.width() < width - 200)
        live = view.drop_grid().target_at(aim, QPoint(0, 0))
        assert live is None or live.day != target_day
        release(view, aim)
    # The wall-clock time is kept: 10:45 CET is 09:45 UTC.
    assert moved.args == [post_id, local_instant(target_day, time(10, 45), BERLIN)]
    assert moved.args[1].hour == 9


def test_escape_cancels_a_drag(page_on: PageOn, qtbot: QtBot) -> None:
    page, (post_id,) = page_on([Planned(THU_1045)])
    view = page.month_view
    view.setFocus()
    aim = view.cell_rect(date(2025, 10, 28)).center()
    with qtbot.assertNotEmitted(page.rescheduleRequested):
        press_and_move(view, view.chip_rect(post_id).center(), aim)
        QTest.keyClick(view, Qt.Key.Key_Escape)
        assert view.dragged_post_id() is None
        release(view, aim)
    assert view.drop_day() is None


def test_busy_and_published_posts_do_not_move(page_on: PageOn, qtbot: QtBot) -> None:
    page, (busy, published) = page_on([Planned(THU_1045), Planned(THU_1045, "published")])
    page.set_busy(busy, True)
    view = page.month_view
    aim = view.cell_rect(date(2025, 10, 28)).center()
    with qtbot.assertNotEmitted(page.rescheduleRequested):
        for post_id in (busy, published):
            press_and_move(view, view.chip_rect(post_id).center(), aim)
            assert view.dragged_post_id() is None
            release(view, aim)


def test_a_scheduled_post_is_not_dropped_into_the_past(page_on: PageOn, qtbot: QtBot) -> None:
    page, (post_id,) = page_on([Planned(THU_1045)])
    view = page.month_view
    aim = view.cell_rect(date(2025, 10, 20)).center()  # the day before "today"
    with qtbot.assertNotEmitted(page.rescheduleRequested):
        press_and_move(view, view.chip_rect(post_id).center(), aim)
        release(view, aim)


def test_a_dated_draft_may_move_to_any_day(page_on: PageOn, qtbot: QtBot) -> None:
    page, (post_id,) = page_on([Planned(THU_1045, status="draft")])
    view = page.month_view
    aim = view.cell_rect(date(2025, 10, 20)).center()
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        press_and_move(view, view.chip_rect(post_id).center(), aim)
        release(view, aim)
    assert moved.args == [post_id, local_instant(date(2025, 10, 20), time(10, 45), BERLIN)]


def test_a_calendar_never_synced_says_so(qtbot: QtBot, tmp_path: Path, page_on: PageOn) -> None:
    fresh = WorkspaceCache(tmp_path / "fresh.sqlite3")
    page = CalendarPage(fresh, display_tz=BERLIN, today=lambda: TODAY)
    qtbot.addWidget(page)
    page.show()
    try:
        assert page.empty_state.isVisible()
        assert page.empty_state.title.text() == "Not synced yet"
    finally:
        fresh.close()
    synced, _ids = page_on([])
    assert synced.empty_state.title.text() == "Nothing planned for October 2025"
    synced.set_never_synced(True)  # what the shell may say for any source
    synced.set_source(synced.source)
    assert synced.empty_state.title.text() == "Nothing planned for October 2025"


def test_pressing_a_tray_draft_opens_nothing_until_release(page_on: PageOn) -> None:
    # A drag from the tray starts with this press: opening the details then would narrow the
    # calendar under the pointer before the drop.
    page, (draft,) = page_on([Planned(None, status="draft")])
    tray = page.tray_list
    row = tray.visualRect(tray.model().index(0, 0)).center()
    QTest.mousePress(tray.viewport(), LEFT, NONE, row)
    assert not page.detail_is_open()
    assert page.selected_post_id() is None
    QTest.mouseRelease(tray.viewport(), LEFT, NONE, row)
    assert page.selected_post_id() == draft
    assert page.detail_is_open()


def test_a_tray_drop_uses_the_grid_it_entered(page_on: PageOn, qtbot: QtBot) -> None:
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QDragEnterEvent, QDropEvent

    from ui.calendar.drag import post_mime_data

    page, (draft, other) = page_on([Planned(None, status="draft"), Planned(THU_1045)])
    view = page.month_view
    page.select_post(other)
    target_day = date(2025, 10, 31)
    aim = view.cell_rect(target_day).center()
    mime = post_mime_data(draft)
    move, no_key = Qt.DropAction.MoveAction, Qt.KeyboardModifier.NoModifier
    view.dragEnterEvent(QDragEnterEvent(aim, move, mime, LEFT, no_key))
    width = view.width()
    page.open_detail()  # the grid narrows while the draft hovers over it
    qtbot.waitUntil(lambda: view.width() < width - 200)
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        view.dropEvent(QDropEvent(QPointF(aim), move, mime, LEFT, no_key))
    assert moved.args == [draft, local_instant(target_day, time(9), BERLIN)]


def test_a_week_drag_near_the_bottom_scrolls_to_later_hours(page_on: PageOn, qtbot: QtBot) -> None:
    page, (post_id,) = page_on([Planned(THU_1045)])
    page.set_view("week")
    view = page.week_view
    view.scroll_to_minutes(7 * 60)
    surface = view.viewport()
    start = view.block_rect(post_id).center()
    _top, bottom_minutes = view.visible_minutes()
    edge = QPoint(start.x(), surface.height() - 5)
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        press_and_move(surface, start, edge)
        before = view.verticalScrollBar().value()
        qtbot.waitUntil(lambda: view.verticalScrollBar().value() > before + 2 * view.HOUR_HEIGHT)
        QTest.mouseMove(surface, edge - QPoint(0, 80))  # away from the edge: scrolling stops
        stopped = view.verticalScrollBar().value()
        qtbot.waitUntil(lambda: not view._autoscroll.isActive())  # no scroll step is left to come
        assert view.verticalScrollBar().value() == stopped
        aimed = view.drop_slot()
        assert aimed is not None
        release(surface, edge - QPoint(0, 80))
    when = moved.args[1].astimezone(BERLIN)
    assert (when.date(), when.hour * 60 + when.minute) == (aimed.day, aimed.minutes)
    assert aimed.minutes is not None
    assert aimed.minutes > bottom_minutes  # a time that was below the fold when the drag began


def test_posts_published_now_show_on_the_day_they_went_out(page_on: PageOn) -> None:
    # "Publish now" leaves no scheduled_at: the cache files such a post under its published_at,
    # and the calendar must show it there (and a failed one in the tray), not lose it.
    page, (published, failed) = page_on(
        [Planned(None, "draft", then="published"), Planned(None, "draft", then="failed")]
    )
    post = page.source.post(published)
    assert post is not None
    assert post.scheduled_at is None
    assert post.published_at is not None
    went_out = post.published_at.astimezone(BERLIN).date()
    page.go_to(went_out)
    assert published in page.month_view.visible_post_ids(went_out)
    assert page.entry(published) is not None
    assert failed in {entry.id for entry in page.loader.drafts}
    page.set_view("week")
    assert [e.id for e in page.week_view.entries_on(went_out)] == [published]


def test_the_drag_ghost_says_when_the_post_would_land(make_page: PageFactory) -> None:
    from PySide6.QtCore import QSize

    from tests.ui.calendar.factories import make_post
    from ui.calendar.chip_grid import DragState, drop_label
    from ui.calendar.drag import DropTarget

    post = make_post(when=local_instant(date(2025, 10, 22), time(9, 30), BERLIN))
    page = make_page([post])
    entry = page.entry(post.id)
    week_slot = DragState(post.id, entry, QPoint(), QSize(80, 20), QPoint(),
                          DropTarget(date(2025, 10, 24), 14 * 60 + 45))  # fmt: skip
    assert drop_label(week_slot) == "Fri 24 Oct 14:45"
    month_day = week_slot._replace(target=DropTarget(date(2025, 10, 27)))
    assert drop_label(month_day) == "Mon 27 Oct 09:30"  # a day keeps the post's time
    assert drop_label(week_slot._replace(target=None)) == ""
