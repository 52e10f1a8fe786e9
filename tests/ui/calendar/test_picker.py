"""Ctrl+G's date picker shows its last week row whole, with room around the text (issue 16 §2:
"its last row is cut off"; before: rows of font height + 4 px, the last one touching the frame,
measured 7 × 19 px in a 133 px view)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableView
from pytestqt.qtbot import QtBot

from tests.ui.calendar.conftest import PageFactory, focus
from tests.ui.calendar.test_keyboard import keyed


def test_ctrl_g_opens_a_picker_whose_last_row_is_whole(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page = make_page([])
    page.registry = keyed(page)  # type: ignore[attr-defined]
    focus(qtbot, page.month_view)
    qtbot.keyClick(page.month_view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    calendar = page.toolbar.jump_edit.calendarWidget()
    qtbot.waitUntil(calendar.isVisible)
    view = calendar.findChild(QTableView)
    assert view is not None
    rows = view.model().rowCount()
    last = rows - 1
    bottom = view.rowViewportPosition(last) + view.rowHeight(last)
    assert bottom <= view.viewport().height()
    assert all(view.rowHeight(r) >= view.fontMetrics().height() + 8 for r in range(rows))
