"""A visible focus ring on every control Tab reaches on the calendar page and in the shell
(issue 16: Tab x4 then Space opened "Delete this post?" with no ring anywhere): real Tab presses,
and each focused control's pixels hold the theme's focus colour."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN
from tests.ui.calendar.factories import make_post
from tests.ui.calendar.shell_window import calendar_in_shell
from ui import theme
from ui.style import apply_style


@pytest.fixture
def styled(qapp: QApplication) -> Iterator[None]:
    sheet, palette, current = qapp.styleSheet(), qapp.palette(), theme.current()
    apply_style(qapp, "light")
    yield
    qapp.setStyleSheet(sheet)
    qapp.setPalette(palette)
    theme._current = current


def ring_pixels(widget: QWidget, wanted: QColor, tolerance: int = 40) -> int:
    """Pixels of `widget` within `tolerance` of the focus colour."""
    image: QImage = widget.grab().toImage()
    count = 0
    for y in range(image.height()):
        for x in range(image.width()):
            pixel = image.pixelColor(x, y)
            distance = (
                abs(pixel.red() - wanted.red())
                + abs(pixel.green() - wanted.green())
                + abs(pixel.blue() - wanted.blue())
            )
            count += distance <= tolerance
    return count


def test_every_control_tab_reaches_shows_the_focus_ring(styled: None, qtbot: QtBot) -> None:
    post = make_post(when=local_instant(date(2025, 10, 22), time(9), BERLIN))
    shell, page = calendar_in_shell(qtbot, [post])
    page.select_post(post.id)
    page.open_detail()
    shell.activateWindow()
    qtbot.waitUntil(shell.isActiveWindow)
    shell.sidebar.setFocus()
    ring = QColor(theme.current().focus)
    seen: list[QWidget] = []
    focused: dict[int, int] = {}
    for _press in range(60):
        widget = QApplication.focusWidget()
        assert widget is not None
        if seen and widget is seen[-1]:  # a date edit's Tab walks its day, month and year
            qtbot.keyClick(widget, Qt.Key.Key_Tab)
            continue
        if widget in seen:
            break
        seen.append(widget)
        focused[id(widget)] = ring_pixels(widget, ring)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    assert len(seen) > 15
    shell.menuBar().setFocus()  # nothing of the page or the sidebar focused
    qtbot.waitUntil(lambda: QApplication.focusWidget() not in seen)
    missing = [
        f"{type(widget).__name__} {widget.objectName()!r}"
        for widget in seen
        if focused[id(widget)] <= ring_pixels(widget, ring)  # the ring adds focus-coloured pixels
    ]
    assert missing == []
