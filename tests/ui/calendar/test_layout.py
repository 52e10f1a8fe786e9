"""The page from 1024×640 up: nothing elided or cut in the toolbar, chips that use their room,
a colour legend and a line at the current time."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QFont, QFontMetrics, QHelpEvent
from PySide6.QtWidgets import QApplication, QHBoxLayout, QListWidget, QToolTip, QWidget
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from app.models import Post, SocialAccountSummary
from tests.ui.calendar.conftest import BERLIN, TODAY, PageFactory
from tests.ui.calendar.factories import accounts, labels, make_post
from ui.calendar import InMemoryCalendarSource
from ui.calendar.page import CalendarPage
from ui.calendar.style import split_lines

SIDEBAR = 180  # the shell's section list beside the page
LONG = "Our autumn blend is here: pre-order today and the first bags ship on Monday morning"


LONG_NAMED = SocialAccountSummary.model_validate(
    {
        "id": "a1b2c3d4-0009-4000-8000-000000000009",
        "platform": "instagram-facebook",
        "display_name": "Northwind Coffee Roasters & Bakery, Harbour Street",
        "username": "northwind.coffee.roasters.harbour",
        "is_active": True,
        "status": "connected",
    }
)


def bare_page(posts: list[Post]) -> CalendarPage:
    """A page owned by its host (which the test's qtbot closes), not by qtbot itself; one of
    its accounts has a long name (it once widened the filter row past the window)."""
    source = InMemoryCalendarSource(posts, accounts=[*accounts(), LONG_NAMED], labels=labels())
    return CalendarPage(source, display_tz=BERLIN, today=lambda: TODAY)


def hosted(qtbot: QtBot, page: CalendarPage, width: int, height: int) -> QWidget:
    host = QWidget()
    row = QHBoxLayout(host)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(0)
    sidebar = QListWidget()
    sidebar.setFixedWidth(SIDEBAR)
    row.addWidget(sidebar)
    row.addWidget(page, 1)
    qtbot.addWidget(host)
    host.resize(width, height)
    host.show()
    qtbot.waitExposed(host)
    return host


def assert_nothing_cut(page: CalendarPage, host: QWidget) -> None:
    QApplication.processEvents()
    assert page.minimumSizeHint().width() <= host.width() - SIDEBAR
    assert page.width() == host.width() - SIDEBAR
    for button in [*page.toolbar.view_buttons, page.toolbar.today_button, page.tray_button]:
        assert button.width() >= button.sizeHint().width(), button.text()
        assert "…" not in button.text()
    title = page.toolbar.title
    assert title.text() in title.forms()
    assert QFontMetrics(title.font()).horizontalAdvance(title.text()) <= title.width()


@pytest.mark.parametrize("height", [640, 700])
def test_at_1024_nothing_in_the_toolbar_is_cut(qtbot: QtBot, height: int) -> None:
    post = make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN))
    page = bare_page([post])
    host = hosted(qtbot, page, 1024, height)
    for view in ("month", "week", "agenda"):
        page.set_view(view)
        assert_nothing_cut(page, host)
    page.go_to(date(2025, 12, 31))  # a week across the new year has the longest title
    page.set_view("week")
    page.select_post(None)
    assert_nothing_cut(page, host)
    assert page.toolbar.title.text() != page.toolbar.title.forms()[0]  # a shorter form fits
    page.go_to(date(2025, 10, 22))
    page.select_post(post.id)
    page.open_detail()
    QApplication.processEvents()
    assert not page.tray.isVisible()  # makes room for the details at this width
    assert page.week_view.width() > 7 * 40
    assert_nothing_cut(page, host)
    page.close_detail()
    assert page.tray.isVisible()


def test_wide_titles_show_in_full(qtbot: QtBot) -> None:
    page = bare_page([])
    host = hosted(qtbot, page, 1440, 900)
    page.set_view("week")
    assert page.toolbar.title.text() == "20 – 26 October 2025"
    assert_nothing_cut(page, host)


def test_week_chips_take_the_column_and_two_lines_where_there_is_room(
    make_page: PageFactory,
) -> None:
    day = date(2025, 10, 22)
    alone = make_post(when=local_instant(day, time(9), BERLIN), content=LONG)
    close_a = make_post(when=local_instant(day, time(14), BERLIN))
    close_b = make_post(when=local_instant(day, time(14, 15), BERLIN))
    half_hour = make_post(when=local_instant(day, time(16), BERLIN))
    after = make_post(when=local_instant(day, time(16, 30), BERLIN))
    page = make_page([alone, close_a, close_b, half_hour, after])
    page.set_view("week")
    view = page.week_view
    left, right = view.geometry_now().column(2)
    block = view.block_rect(alone.id)
    assert block.width() >= right - left - 6  # the whole column, not half of it
    assert block.height() == view.TALL_BLOCK_HEIGHT  # two lines
    a, b = view.block_rect(close_a.id), view.block_rect(close_b.id)
    assert not a.intersects(b)  # 15 minutes apart: side by side
    assert a.width() < (right - left) / 2 + 2
    first = view.block_rect(half_hour.id)
    assert first.width() >= right - left - 6  # 30 minutes apart: one line each, full width
    assert view.BLOCK_HEIGHT <= first.height() < view.TALL_BLOCK_HEIGHT
    assert first.bottom() < view.block_rect(after.id).top()


def test_two_line_chips_break_between_words() -> None:
    metrics = QFontMetrics(QFont())
    one, two = split_lines(LONG, metrics, 120, 200)
    assert one
    assert LONG.startswith(one)
    assert metrics.horizontalAdvance(one) <= 120
    assert two.startswith(LONG[len(one) :].strip()[:5])
    assert metrics.horizontalAdvance(two) <= 200


def test_a_chip_tooltip_has_the_whole_first_line(make_page: PageFactory, qtbot: QtBot) -> None:
    post = make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN), content=LONG)
    page = make_page([post])
    view = page.month_view
    centre = view.chip_rect(post.id).center()
    event = QHelpEvent(QEvent.Type.ToolTip, centre, view.mapToGlobal(centre))
    QApplication.sendEvent(view, event)
    qtbot.waitUntil(QToolTip.isVisible)
    assert LONG in QToolTip.text()
    QToolTip.hideText()


def test_the_legend_names_every_status_colour(make_page: PageFactory) -> None:
    page = make_page([])
    assert page.legend.isVisible()
    assert page.legend.names() == [
        "Draft",
        "Pending approval",
        "Scheduled",
        "Publishing",
        "Published",
        "Partially published",
        "Failed",
    ]


def test_week_view_draws_a_line_at_the_current_time(make_page: PageFactory) -> None:
    now = datetime.combine(TODAY, time(13, 30), BERLIN)
    source_page = make_page([], show=False)
    page = CalendarPage(source_page.source, display_tz=BERLIN, today=lambda: TODAY, now=lambda: now)
    page.resize(1400, 900)
    page.set_view("week")
    view = page.week_view
    assert view.now_line_y() == view.point_for(TODAY, 13 * 60 + 30).y()
    page.go_next()  # a week without today has no line
    assert view.now_line_y() is None


def test_views_are_built_on_first_use(make_page: PageFactory) -> None:
    page = make_page([])
    assert page.built_views() == [page.month_view]
    assert not page.detail_is_open()
    page.set_view("agenda")
    assert page.built_views() == [page.month_view, page.agenda_view]


def test_clicking_a_month_chip_selects_it(make_page: PageFactory, qtbot: QtBot) -> None:
    post = make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN))
    page = make_page([post])
    qtbot.mouseClick(
        page.month_view, Qt.MouseButton.LeftButton, pos=page.month_view.chip_rect(post.id).center()
    )
    assert page.selected_post_id() == post.id
    assert page.detail_is_open()
    qtbot.mouseClick(page.month_view, Qt.MouseButton.LeftButton, pos=QPoint(20, 200))
    assert page.selected_post_id() is None
