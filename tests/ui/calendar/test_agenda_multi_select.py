"""The agenda picks several posts as the grids do (issue 16 §3): Ctrl+click toggles a row,
Shift+click takes the rows between in the list's order, Ctrl+A takes the shown posts, Esc drops
them; the picked rows are painted and named as picked and the bulk bar counts them. Real mouse
clicks on the list's viewport and real key presses through the page's registered shortcuts."""

from __future__ import annotations

from datetime import date, time

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from app.models import Post
from tests.ui.calendar.conftest import BERLIN, PageFactory, focus
from tests.ui.calendar.factories import make_post, uid
from tests.ui.calendar.test_keyboard import keyed
from ui.calendar import CalendarPage
from ui.calendar.post_list import MARKED_ROLE, POST_ID_ROLE
from ui.calendar.post_list_view import PostListView

LEFT = Qt.MouseButton.LeftButton
NONE = Qt.KeyboardModifier.NoModifier
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def at(day: int, hour: int, minute: int = 0) -> Post:
    return make_post(
        when=local_instant(date(2025, 10, day), time(hour, minute), BERLIN),
        content=f"Post on the {day}th at {hour}:{minute:02d}",
    )


POSTS = [at(22, 9), at(22, 15), at(23, 11), at(24, 8), at(27, 10)]
A, B, C, D, E = (post.id for post in POSTS)


@pytest.fixture
def page(make_page: PageFactory, qtbot: QtBot) -> CalendarPage:
    made = make_page(POSTS)
    made.registry = keyed(made)  # type: ignore[attr-defined]
    made.set_view("agenda")
    focus(qtbot, made.agenda_view)
    qtbot.waitUntil(made.agenda_view.hasFocus)
    return made


def row_point(view: PostListView, post_id: str) -> QPoint:
    model = view.post_model
    return view.visualRect(model.index(model.row_of(post_id))).center()


def click(
    qtbot: QtBot, page: CalendarPage, post_id: str, modifier: Qt.KeyboardModifier = NONE
) -> None:
    view = page.agenda_view
    qtbot.mouseClick(view.viewport(), LEFT, modifier, row_point(view, post_id))


def marked_rows(view: PostListView) -> set[str]:
    model = view.post_model
    return {
        model.index(row).data(POST_ID_ROLE)
        for row in range(model.rowCount())
        if model.index(row).data(MARKED_ROLE)
    }


def test_ctrl_click_toggles_rows_and_shift_click_takes_the_rows_between(
    page: CalendarPage, qtbot: QtBot
) -> None:
    view = page.agenda_view
    click(qtbot, page, B)
    assert page.selected_post_id() == B
    assert not page.state.marked

    click(qtbot, page, D, SHIFT)  # B, C, D in the list's order
    assert page.state.marked == {B, C, D}
    assert page.selected_post_id() == D
    assert marked_rows(view) == {B, C, D}
    bar = page.bulk_bar()
    assert bar.isVisible()
    assert bar.count_label.text() == "3 posts selected"

    click(qtbot, page, A, CTRL)
    assert page.state.marked == {A, B, C, D}
    assert page.selected_post_id() == A
    click(qtbot, page, C, CTRL)  # toggled off
    assert page.state.marked == {A, B, D}
    assert marked_rows(view) == {A, B, D}
    assert bar.count_label.text() == "3 posts selected"

    click(qtbot, page, E)  # a plain click: one post again
    assert not page.state.marked
    assert marked_rows(view) == set()
    assert page.selected_post_id() == E
    assert bar.isHidden()


def test_ctrl_click_from_one_selected_row_makes_two_and_opens_nothing(
    page: CalendarPage, qtbot: QtBot
) -> None:
    page.select_post(A)
    assert not page.detail_is_open()
    click(qtbot, page, C, CTRL)
    assert page.state.marked == {A, C}
    assert not page.detail_is_open()  # the list does not narrow under a Ctrl+click
    # The list's own selection is still one row: the post last clicked.
    assert page.agenda_view.selected_post_id() == C
    click(qtbot, page, C, CTRL)
    assert not page.state.marked  # one post left is an ordinary selection
    assert page.selected_post_id() == A


def test_a_held_ctrl_press_dragged_to_another_row_picks_nothing(
    page: CalendarPage, qtbot: QtBot
) -> None:
    view = page.agenda_view
    page.select_post(A)
    qtbot.mousePress(view.viewport(), LEFT, CTRL, row_point(view, B))
    qtbot.mouseMove(view.viewport(), row_point(view, D))
    qtbot.mouseRelease(view.viewport(), LEFT, CTRL, row_point(view, D))
    assert not page.state.marked
    assert page.selected_post_id() == A


def test_ctrl_a_takes_the_shown_posts_and_escape_drops_them(
    page: CalendarPage, qtbot: QtBot
) -> None:
    view = page.agenda_view
    click(qtbot, page, C)
    qtbot.keyClick(view, Qt.Key.Key_A, CTRL)
    assert page.state.marked == {A, B, C, D, E}
    assert marked_rows(view) == {A, B, C, D, E}
    assert page.bulk_bar().count_label.text() == "5 posts selected"

    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not page.state.marked
    assert marked_rows(view) == set()
    assert page.selected_post_id() == C  # Esc drops the several first, keeps the one


def test_picked_rows_are_painted_as_selected_and_named_for_assistive_tech(
    page: CalendarPage, qtbot: QtBot
) -> None:
    view = page.agenda_view
    model = view.post_model

    def fill(post_id: str) -> QColor:
        # Inside the row's card, left of the text and right of the status bar.
        rect = view.visualRect(model.index(model.row_of(post_id)))
        image = view.viewport().grab().toImage()
        return image.pixelColor(rect.left() + 16, rect.top() + 6)

    plain = fill(D)
    click(qtbot, page, A)
    click(qtbot, page, D, CTRL)
    qtbot.mouseMove(view.viewport(), QPoint(2, 2))  # no hover on the rows compared
    assert fill(D) != plain
    assert fill(D) == fill(A)
    name = model.index(model.row_of(D)).data(Qt.ItemDataRole.AccessibleTextRole)
    assert name.endswith("— picked with others")
    other = model.index(model.row_of(B)).data(Qt.ItemDataRole.AccessibleTextRole)
    assert "picked" not in other


def test_the_agenda_lists_posts_in_the_order_shift_click_walks(
    make_page: PageFactory,
) -> None:
    when = local_instant(date(2025, 10, 22), time(9), BERLIN)
    # Same minute; given in the reverse of their ids' order.
    same = [make_post(when=when, post_id=uid(prefix)) for prefix in ("ffff", "8888", "1111")]
    page = make_page(same)
    page.set_view("agenda")
    walk = [entry.id for entry in page.posts_in_order()]
    assert page.agenda_view.post_model.post_ids() == walk


def test_the_tray_list_does_not_pick_several(page: CalendarPage, qtbot: QtBot) -> None:
    draft = make_post(when=None, status="draft")
    other = make_post(when=None, status="draft")
    page.set_source(type(page.source)([*POSTS, draft, other]))  # type: ignore[call-arg]
    tray = page.tray_list
    qtbot.waitUntil(lambda: tray.post_model.row_of(other.id) >= 0)
    qtbot.mouseClick(tray.viewport(), LEFT, NONE, row_point(tray, draft.id))
    qtbot.mouseClick(tray.viewport(), LEFT, CTRL, row_point(tray, other.id))
    assert not page.state.marked


def test_a_quick_ctrl_double_click_toggles_twice_and_opens_nothing(
    page: CalendarPage, qtbot: QtBot
) -> None:
    view = page.agenda_view
    click(qtbot, page, A)
    click(qtbot, page, B, CTRL)
    page.close_detail()
    assert page.state.marked == {A, B}
    qtbot.mouseDClick(view.viewport(), LEFT, CTRL, row_point(view, C))
    assert not page.detail_is_open()  # a double click would open the post
    assert page.state.marked == {A, B}  # toggled on and off again: two Ctrl+clicks
    qtbot.mouseClick(view.viewport(), LEFT, CTRL, row_point(view, D))
    assert D in page.state.marked
