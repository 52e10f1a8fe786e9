"""The calendar from the keyboard, through the shell's registry as in the app: arrows walk the
posts (month, week, agenda), Enter opens, Escape closes, Alt+arrows move the selected post by a
day or 15 minutes (one reschedule each, through the drag's path and its refusals)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, PageFactory, focus
from tests.ui.calendar.factories import make_post
from ui.calendar import CalendarPage
from ui.calendar.keyboard import nudged_target, ordered, step_across_days
from ui.shell.registry import ActionRegistry

ALT = Qt.KeyboardModifier.AltModifier


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return local_instant(date(2025, 10, day), time(hour, minute), BERLIN)


POSTS = [
    make_post(when=at(22, 9), post_id="wed-9", content="Wednesday nine"),
    make_post(when=at(22, 14), post_id="wed-14", content="Wednesday two"),
    make_post(when=at(24, 10), post_id="fri-10", content="Friday ten"),
    make_post(when=at(24, 16), post_id="fri-16", content="Friday four"),
]


def keyed(page: CalendarPage) -> ActionRegistry:
    """The page's specs bound as the app binds them (the page gives its own keys up)."""
    registry = ActionRegistry(page, lambda: "calendar", lambda _section: page)
    registry.add_all(page.action_specs())
    page.state.selectionChanged.connect(lambda _id: registry.refresh_enabled())  # as PageWiring
    page.commands.hand_keys_to_registry()
    return registry


def press(
    qtbot: QtBot,
    widget: QWidget,
    key: Qt.Key,
    modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    qtbot.keyClick(widget, key, modifier)


@pytest.fixture
def page(make_page: PageFactory, qtbot: QtBot) -> CalendarPage:
    made = make_page(POSTS)
    made.registry = keyed(made)  # type: ignore[attr-defined]
    focus(qtbot, made.month_view)
    qtbot.waitUntil(made.month_view.hasFocus)
    return made


def test_arrows_walk_the_month_day_to_day_and_within_a_day(
    page: CalendarPage, qtbot: QtBot
) -> None:
    view = page.month_view
    press(qtbot, view, Qt.Key.Key_Down)
    assert page.selected_post_id() == "wed-9"  # nothing selected: the first post
    press(qtbot, view, Qt.Key.Key_Down)
    assert page.selected_post_id() == "wed-14"  # within the day
    press(qtbot, view, Qt.Key.Key_Right)
    assert page.selected_post_id() == "fri-16"  # the next day with posts, nearest in time
    press(qtbot, view, Qt.Key.Key_Up)
    assert page.selected_post_id() == "fri-10"
    press(qtbot, view, Qt.Key.Key_Left)
    assert page.selected_post_id() == "wed-9"
    assert view.hasFocus()


def test_enter_opens_the_details_and_escape_closes_them(page: CalendarPage, qtbot: QtBot) -> None:
    view = page.month_view
    press(qtbot, view, Qt.Key.Key_Down)
    press(qtbot, view, Qt.Key.Key_Return)
    qtbot.waitUntil(page.detail_is_open)
    assert page.detail.close_button.hasFocus()
    press(qtbot, page.detail.close_button, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not page.detail_is_open())
    assert view.hasFocus()


def test_arrows_in_the_week_go_along_the_column_and_across_days(
    page: CalendarPage, qtbot: QtBot
) -> None:
    page.set_view("week")
    view = page.week_view
    focus(qtbot, view)
    qtbot.waitUntil(view.hasFocus)
    page.select_post("wed-14")
    press(qtbot, view, Qt.Key.Key_Up)
    assert page.selected_post_id() == "wed-9"
    press(qtbot, view, Qt.Key.Key_Up)
    assert page.selected_post_id() == "wed-9"  # the column's top: it stays
    press(qtbot, view, Qt.Key.Key_Right)
    assert page.selected_post_id() == "fri-10"


def test_arrows_in_the_agenda_go_row_to_row(page: CalendarPage, qtbot: QtBot) -> None:
    page.set_view("agenda")
    view = page.agenda_view
    focus(qtbot, view)
    qtbot.waitUntil(view.hasFocus)
    press(qtbot, view, Qt.Key.Key_Down)
    press(qtbot, view, Qt.Key.Key_Down)
    press(qtbot, view, Qt.Key.Key_Down)
    assert page.selected_post_id() == "fri-10"
    press(qtbot, view, Qt.Key.Key_Up)
    assert page.selected_post_id() == "wed-14"


def test_alt_arrows_move_the_selected_post_as_a_drag_would(
    page: CalendarPage, qtbot: QtBot
) -> None:
    view = page.month_view
    page.select_post("wed-9")
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        press(qtbot, view, Qt.Key.Key_Right, ALT)
    assert moved.args == ["wed-9", at(23, 9)]
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        press(qtbot, view, Qt.Key.Key_Left, ALT)
    assert moved.args == ["wed-9", at(21, 9)]
    with qtbot.assertNotEmitted(page.rescheduleRequested):  # 15 minutes: week view only
        press(qtbot, view, Qt.Key.Key_Down, ALT)

    page.set_view("week")
    focus(qtbot, page.week_view)
    qtbot.waitUntil(page.week_view.hasFocus)
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        press(qtbot, page.week_view, Qt.Key.Key_Down, ALT)
    assert moved.args == ["wed-9", at(22, 9, 15)]
    with qtbot.waitSignal(page.rescheduleRequested) as moved:
        press(qtbot, page.week_view, Qt.Key.Key_Up, ALT)
    assert moved.args == ["wed-9", at(22, 8, 45)]


def test_alt_left_into_the_past_is_refused_like_a_drop(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page = make_page(POSTS, today=date(2025, 10, 22))  # the clock at Wednesday 00:00
    keyed(page)
    focus(qtbot, page.month_view)
    qtbot.waitUntil(page.month_view.hasFocus)
    page.select_post("wed-9")
    with qtbot.assertNotEmitted(page.rescheduleRequested):
        press(qtbot, page.month_view, Qt.Key.Key_Left, ALT)


def test_arrows_stay_with_the_filter_boxes(page: CalendarPage, qtbot: QtBot) -> None:
    combo = page.findChild(QWidget, "statusFilter")
    assert combo is not None
    focus(qtbot, combo)
    qtbot.waitUntil(combo.hasFocus)
    press(qtbot, combo, Qt.Key.Key_Down)
    assert page.selected_post_id() is None


def test_nudges_cross_midnight_and_keep_the_time_of_day(make_page: PageFactory) -> None:
    late = make_post(when=at(22, 23, 50), post_id="late")
    page = make_page([late])
    entry = page.entry("late")
    assert entry is not None
    target = nudged_target(entry, minutes=15)
    assert target is not None
    assert (target.day, target.minutes) == (date(2025, 10, 23), 5)
    target = nudged_target(entry, days=-1)
    assert target is not None
    assert (target.day, target.minutes) == (date(2025, 10, 21), None)
    posts = ordered(list(page.loader.visible), page.visible_dates())
    assert step_across_days(posts, "late", 1) == "late"  # no later day: it stays
    assert datetime(2025, 10, 22, 21, 50, tzinfo=UTC) == entry.local


def test_the_focused_month_grid_shows_a_focus_ring(page: CalendarPage, qtbot: QtBot) -> None:
    from PySide6.QtGui import QColor

    from ui.calendar.style import focus_color

    view = page.month_view
    assert view.hasFocus()
    ring = view.grab().toImage().pixelColor(1, view.height() // 2)
    assert ring == focus_color()
    focus(qtbot, page.findChild(QWidget, "statusFilter"))  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: not view.hasFocus())
    assert view.grab().toImage().pixelColor(1, view.height() // 2) != QColor(focus_color())
