"""What assistive technology gets from the calendar and the shell: every control named (the
QAccessible walk of tests/ui/a11y_walk.py, the interfaces Qt's AT-SPI bridge serves), the posts
painted in the month and week grids mirrored as a list of named items, the selected post in the
grid's name."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.a11y_walk import named_controls, unnamed_controls
from tests.ui.calendar.conftest import BERLIN, TODAY
from tests.ui.calendar.factories import make_post
from tests.ui.calendar.shell_window import calendar_in_shell
from ui.calendar import CalendarPage, InMemoryCalendarSource
from ui.calendar.accessible import describe
from ui.shell.main_window import MainWindow


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return local_instant(date(2025, 10, day), time(hour, minute), BERLIN)


POSTS = [
    make_post(when=at(22, 9, 30), post_id="a", content="Our autumn blend is here"),
    make_post(when=at(22, 14), post_id="b", status="draft", account="x", content="Two o'clock"),
    make_post(when=None, post_id="c", status="draft", content="Someday"),
]


@pytest.fixture
def window(qtbot: QtBot) -> tuple[MainWindow, CalendarPage]:
    return calendar_in_shell(qtbot, POSTS)


@pytest.mark.parametrize("view", ["month", "week", "agenda"])
def test_the_calendar_and_the_shell_have_no_unnamed_control(
    window: tuple[MainWindow, CalendarPage], view: str
) -> None:
    shell, page = window
    page.set_view(view)
    page.select_post("a")
    page.open_detail()
    assert page.detail_is_open()
    controls = named_controls(shell)
    assert len(controls) > 20, controls  # the walk reaches the page's controls
    assert unnamed_controls(shell) == []


def test_the_walk_finds_an_unnamed_control(window: tuple[MainWindow, CalendarPage]) -> None:
    shell, page = window
    page.toolbar.previous_button.setAccessibleName("")  # back to its bare "‹"
    assert [u.object_name for u in unnamed_controls(shell)] == ["navButton"]


def test_the_grid_posts_are_mirrored_as_named_items(
    window: tuple[MainWindow, CalendarPage], qtbot: QtBot
) -> None:
    _shell, page = window
    page.follow_for_assistive_tech(None, force=True)
    mirror = page.post_mirror()
    assert mirror is not None
    names = mirror.names()
    assert len(names) == 2  # the dated posts of the month; the undated one is in the tray list
    long_date = QLocale().toString(date(2025, 10, 22), QLocale.FormatType.LongFormat)
    assert names[0].startswith(f"{long_date}, ")
    assert "LinkedIn, Scheduled: Our autumn blend is here" in names[0]
    assert "X, Draft: Two o'clock" in names[1]

    mirror.setCurrentRow(1)  # chosen by the screen reader's user
    assert page.selected_post_id() == "b"
    entry = page.entry("b")
    assert entry is not None
    page.follow_for_assistive_tech(entry, force=True)
    assert page.month_view.accessibleName() == f"Month calendar, selected: {describe(entry)}"

    page.set_view("week")
    page.follow_for_assistive_tech(entry, force=True)
    assert page.week_view.accessibleName().startswith("Week calendar, selected: ")
    assert mirror.isVisible()
    assert mirror.focusPolicy() == Qt.FocusPolicy.NoFocus
    page.set_view("agenda")
    page.follow_for_assistive_tech(entry, force=True)
    assert not mirror.isVisible()  # the agenda is a list of its own


def test_describe_says_time_network_status_and_text() -> None:
    post = make_post(when=at(22, 9, 30), content="Hello")
    page_entry = CalendarPage(
        InMemoryCalendarSource([post]), display_tz=BERLIN, today=lambda: TODAY
    )
    entry = page_entry.entry(post.id)
    assert entry is not None
    english = QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom)
    assert (
        describe(entry, english) == "Wednesday, 22 October 2025, 09:30, LinkedIn, Scheduled: Hello"
    )
    page_entry.deleteLater()
    assert isinstance(page_entry, QWidget)
