"""The status and label filters take several values at once (issue 16 §1): ticked in the open
list with real clicks or Space, the list staying open; choosing an item the ordinary way picks
that one alone."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from tests.ui.calendar.conftest import PageFactory
from tests.ui.calendar.factories import LABELS
from tests.ui.calendar.test_filters import choose, sample, shown
from ui.calendar.filters import UNKNOWN_STATUS, PostFilter
from ui.calendar.multi_combo import MultiFilterCombo


def tick(qtbot: QtBot, combo: MultiFilterCombo, data: str) -> None:
    """A click on the item in the open list."""
    if not combo.view().isVisible():
        combo.showPopup()
        qtbot.waitUntil(combo.view().isVisible)
    view = combo.view()
    index = combo.model().index(combo.findData(data), 0)
    view.scrollTo(index)
    QTest.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center()
    )


def test_two_statuses_ticked_in_the_open_list_show_posts_of_either(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    posts = sample()
    page = make_page(posts.values())
    combo = page.filter_bar.status_combo
    tick(qtbot, combo, "failed")
    assert combo.view().isVisible()  # stays open for the next tick
    assert shown(page) == {posts["x-second"].id}
    tick(qtbot, combo, UNKNOWN_STATUS)
    assert shown(page) == {posts["x-second"].id, posts["odd"].id}
    assert page.current_filter().statuses == {"failed", UNKNOWN_STATUS}
    assert combo.summary() == "Failed, Unknown status"
    tick(qtbot, combo, "failed")  # ticked off again
    assert shown(page) == {posts["odd"].id}
    assert page.current_filter() == PostFilter(status=UNKNOWN_STATUS)
    # Space ticks the current item from the keyboard.
    view = combo.view()
    view.setCurrentIndex(combo.model().index(combo.findData("failed"), 0))
    QTest.keyClick(view, Qt.Key.Key_Space)
    assert page.current_filter().statuses == {"failed", UNKNOWN_STATUS}
    # "All statuses" clears and closes.
    QTest.mouseClick(
        view.viewport(),
        Qt.MouseButton.LeftButton,
        pos=view.visualRect(combo.model().index(0, 0)).center(),
    )
    qtbot.waitUntil(lambda: not view.isVisible())
    assert page.current_filter() == PostFilter()
    assert len(shown(page)) == 4


def test_two_labels_and_an_ordinary_choice_picks_one(make_page: PageFactory, qtbot: QtBot) -> None:
    posts = sample()
    page = make_page(posts.values())
    combo = page.filter_bar.label_combo
    tick(qtbot, combo, LABELS["hiring"]["id"])
    tick(qtbot, combo, LABELS["launch"]["id"])
    both = shown(page)
    assert posts["x"].id in both
    assert posts["linkedin"].id in both
    combo.hidePopup()
    choose(combo, LABELS["hiring"]["id"])  # the ordinary way: that one alone
    assert shown(page) == {posts["x"].id}
    assert page.current_filter().label_ids == frozenset()
