"""The calendar page inside the real main window, shown at the default size, for tests that
walk or focus the whole window (accessibility, focus rings)."""

from __future__ import annotations

from collections.abc import Sequence

from pytestqt.qtbot import QtBot

from app.models import Post
from tests.ui.calendar.conftest import BERLIN, TODAY
from tests.ui.calendar.factories import accounts, labels
from ui.calendar import CalendarPage, InMemoryCalendarSource
from ui.messages import MessageBridge
from ui.shell.main_window import MainWindow


def calendar_in_shell(qtbot: QtBot, posts: Sequence[Post]) -> tuple[MainWindow, CalendarPage]:
    shell = MainWindow(MessageBridge())
    source = InMemoryCalendarSource(list(posts), accounts=accounts(), labels=labels())
    page = CalendarPage(source, display_tz=BERLIN, today=lambda: TODAY, parent=shell.pages)
    shell.set_page("calendar", page)
    qtbot.addWidget(shell)
    shell.resize(1360, 860)
    shell.show()
    qtbot.waitExposed(shell)
    return shell, page
