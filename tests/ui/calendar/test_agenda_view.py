"""Agenda: a list by day from the visible start, with a delegate."""

from __future__ import annotations

from datetime import date, time

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import make_post
from ui.calendar.post_list import ENTRY_ROLE, RowKind


def test_rows_are_day_headers_then_posts_in_time_order(make_page: PageFactory) -> None:
    later = make_post(when=local_instant(date(2025, 10, 23), time(16), BERLIN))
    earlier = make_post(when=local_instant(date(2025, 10, 23), time(9), BERLIN))
    next_week = make_post(when=local_instant(date(2025, 11, 3), time(9), BERLIN))
    before = make_post(when=local_instant(date(2025, 10, 20), time(9), BERLIN))
    page = make_page([later, earlier, next_week, before])
    page.set_view("agenda")
    rows = page.agenda_view.post_model.rows()
    summary = [(row.kind, row.day, row.entry.id if row.entry else None) for row in rows]
    assert summary == [
        (RowKind.HEADER, date(2025, 10, 21), None),  # today, even without posts
        (RowKind.EMPTY, date(2025, 10, 21), None),
        (RowKind.HEADER, date(2025, 10, 23), None),
        (RowKind.POST, date(2025, 10, 23), earlier.id),
        (RowKind.POST, date(2025, 10, 23), later.id),
        (RowKind.HEADER, date(2025, 11, 3), None),
        (RowKind.POST, date(2025, 11, 3), next_week.id),
    ]


def test_the_agenda_covers_four_weeks_from_the_anchor(make_page: PageFactory) -> None:
    inside = make_post(when=local_instant(date(2025, 11, 17), time(23, 30), BERLIN))
    outside = make_post(when=local_instant(date(2025, 11, 18), time(0, 30), BERLIN))
    page = make_page([inside, outside])
    page.set_view("agenda")
    assert page.agenda_view.post_model.post_ids() == [inside.id]
    assert page.toolbar.title.text() == "21 October – 17 November 2025"


def test_clicking_a_row_selects_and_headers_cannot_be_selected(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    post = make_post(when=local_instant(date(2025, 10, 23), time(9), BERLIN))
    page = make_page([post])
    page.set_view("agenda")
    view = page.agenda_view
    model = view.post_model
    header = model.index(0)
    assert not model.flags(header) & Qt.ItemFlag.ItemIsSelectable
    row = model.row_of(post.id)
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(model.index(row)).center()
    )
    assert page.selected_post_id() == post.id
    assert model.index(row).data(ENTRY_ROLE).id == post.id
    assert "Scheduled" in model.index(row).data(Qt.ItemDataRole.DisplayRole)


def test_unknown_statuses_are_named_with_their_raw_value(make_page: PageFactory) -> None:
    odd = make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN), status="in_review")
    page = make_page([odd])
    page.set_view("agenda")
    model = page.agenda_view.post_model
    text = model.index(model.row_of(odd.id)).data(Qt.ItemDataRole.DisplayRole)
    assert "unknown (in_review)" in text
    assert not page.agenda_view.grab().isNull()
