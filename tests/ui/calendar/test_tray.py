"""The "Unscheduled" tray: posts without a place on the calendar, collapsible, drafts draggable
onto it."""

from __future__ import annotations

from datetime import date, time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import make_post
from ui.calendar.drag import post_id_from_mime


def test_the_tray_lists_what_has_no_place_on_the_calendar(make_page: PageFactory) -> None:
    undated = make_post(when=None, status="draft", content="<p>Idea: <b>barista</b> tips</p>")
    dated = make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN), status="draft")
    # A "publish now" that failed: no date, and the cache lists it here too (it must not vanish).
    failed_now = make_post(when=None, status="failed")
    page = make_page([undated, dated, failed_now])
    assert set(page.tray_list.post_model.post_ids()) == {undated.id, failed_now.id}
    assert page.action_tray.text() == "Unscheduled · 2"
    assert page.tray_title.text() == "Unscheduled (2)"
    entry = page.tray_list.post_model.rows()[0].entry
    assert entry is not None
    assert entry.summary == "Idea: barista tips"


def test_the_tray_collapses_and_expands(make_page: PageFactory) -> None:
    page = make_page([make_post(when=None, status="draft")])
    assert page.tray.isVisible()
    page.action_tray.trigger()
    assert not page.tray.isVisible()
    assert not page.action_tray.isChecked()
    page.action_tray.trigger()
    assert page.tray.isVisible()


def test_tray_rows_drag_their_post_id(make_page: PageFactory) -> None:
    draft = make_post(when=None, status="draft")
    page = make_page([draft])
    model = page.tray_list.post_model
    index = model.index(0)
    assert model.flags(index) & Qt.ItemFlag.ItemIsDragEnabled
    assert post_id_from_mime(model.mimeData([index])) == draft.id


def test_selecting_a_tray_draft_opens_its_details(make_page: PageFactory) -> None:
    draft = make_post(when=None, status="draft")
    page = make_page([draft])
    page.tray_list.postClicked.emit(draft.id)
    assert page.selected_post_id() == draft.id
    assert page.detail.isVisible()
    assert page.detail.when_label.text() == "Not scheduled"


def test_the_tray_rows_come_right_after_its_first_paint(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    # The month's first paint does not wait for the tray's list view, model and delegate.
    drafts = [make_post(when=None, status="draft"), make_post(when=None, status="draft")]
    page = make_page(drafts, show=False)
    tray = page.widgets.tray
    assert not tray.list_is_built()
    assert page.tray_title.text() == "Unscheduled (2)"  # the title and count are there at once
    page.show()
    qtbot.waitUntil(tray.list_is_built)  # nobody asked for it: the tray's paint did
    assert set(tray.list.post_model.post_ids()) == {post.id for post in drafts}
    assert tray.list.isVisible()


def test_a_selection_made_before_the_tray_list_exists_is_shown_in_it(
    make_page: PageFactory,
) -> None:
    draft = make_post(when=None, status="draft")
    page = make_page([draft], show=False)
    page.select_post(draft.id)
    assert not page.widgets.tray.list_is_built()
    assert page.tray_list.selected_post_id() == draft.id
    page.tray_list.postClicked.emit(draft.id)  # and the page hears the list built later
    assert page.detail.when_label.text() == "Not scheduled"


def test_the_tray_list_built_later_keeps_its_place_in_the_tab_order(
    make_page: PageFactory,
) -> None:
    page = make_page([make_post(when=None, status="draft")], show=False)
    tray = page.widgets.tray
    chain = focus_chain(page)
    place = len(tab_stops(chain[: chain.index(tray.empty)]))  # where it was made with the panel
    built = page.tray_list
    stops = tab_stops(focus_chain(page))
    assert stops.index(built) == place
    assert [stop for stop in stops if stop is not built] == tab_stops(chain)


def focus_chain(page: QWidget) -> list[QWidget]:
    chain, widget = [], page.nextInFocusChain()
    while widget is not page and widget not in chain:
        chain.append(widget)
        widget = widget.nextInFocusChain()
    return chain


def tab_stops(chain: list[QWidget]) -> list[QWidget]:
    return [widget for widget in chain if widget.focusPolicy() & Qt.FocusPolicy.TabFocus]


def test_tray_rows_read_the_post_text_first(make_page: PageFactory) -> None:
    """Issue 16: every row read "Northwind Co…" (the account first); the text tells drafts apart."""
    from ui.calendar.post_list import tray_lines

    page = make_page([make_post(when=None, status="draft", content="Pumpkin spice is back")])
    entry = page.tray_list.post_model.rows()[0].entry
    assert entry is not None
    first, second = tray_lines(entry)
    assert first == "Pumpkin spice is back"
    assert entry.account_text in second
    image = page.tray_list.grab().toImage()  # it paints (the text-first branch) without error
    assert not image.isNull()
