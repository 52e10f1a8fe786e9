"""Calendar UI tests: offscreen Qt quirks handled in one place."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, tzinfo
from typing import Protocol
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.models import Post
from tests.ui.calendar.factories import accounts, labels
from ui.calendar import CalendarPage, InMemoryCalendarSource

BERLIN = ZoneInfo("Europe/Berlin")
TODAY = date(2025, 10, 21)  # a Tuesday; Berlin leaves summer time on Sunday 26 October


class PageFactory(Protocol):
    def __call__(
        self,
        posts: Iterable[Post] = (),
        *,
        tz: tzinfo = BERLIN,
        today: date = TODAY,
        show: bool = True,
        source: InMemoryCalendarSource | None = None,
    ) -> CalendarPage: ...


@pytest.fixture
def make_page(qtbot: QtBot) -> PageFactory:
    def factory(
        posts: Iterable[Post] = (),
        *,
        tz: tzinfo = BERLIN,
        today: date = TODAY,
        show: bool = True,
        source: InMemoryCalendarSource | None = None,
    ) -> CalendarPage:
        if source is None:
            source = InMemoryCalendarSource(posts, accounts=accounts(), labels=labels())
        page = CalendarPage(source, display_tz=tz, today=lambda: today)
        qtbot.addWidget(page)
        page.resize(1400, 900)
        if show:
            page.show()
            qtbot.waitExposed(page)
        return page

    return factory


def focus(qtbot: QtBot, widget: QWidget) -> None:
    """Give `widget` keyboard focus in an active window, so shortcuts behave as for a user."""
    widget.window().activateWindow()
    widget.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget)
