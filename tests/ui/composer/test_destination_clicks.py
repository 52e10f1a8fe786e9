"""A click on an account's name ticks it, a second click unticks it, and a click on the box
itself counts once (not twice)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from app.models import SocialAccountSummary
from ui.composer.destinations import DestinationPicker


def picker(qtbot: QtBot) -> tuple[DestinationPicker, list[list[tuple[str, str]]]]:
    widget = DestinationPicker(ZoneInfo("UTC"))
    qtbot.addWidget(widget)
    accounts = [
        SocialAccountSummary(id="a1", platform="bluesky", display_name="Coffee", username="c"),
        SocialAccountSummary(id="a2", platform="x", display_name="Roastery", username="r"),
    ]
    widget.set_accounts(accounts, [])
    widget.resize(500, 200)
    widget.show()
    seen: list[list[tuple[str, str]]] = []
    widget.chosenChanged.connect(seen.append)
    return widget, seen


def click(widget: DestinationPicker, point: QPoint) -> None:
    QTest.mouseClick(widget.list.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_a_click_on_the_name_ticks_and_a_second_unticks(qtbot: QtBot) -> None:
    widget, seen = picker(qtbot)
    row = widget.list.visualItemRect(widget.list.item(1))
    on_text = QPoint(row.left() + 150, row.center().y())
    click(widget, on_text)
    assert widget.chosen() == [("a2", "x")]
    click(widget, on_text)
    assert widget.chosen() == []
    assert seen == [[("a2", "x")], []]


def test_a_click_on_the_box_counts_once(qtbot: QtBot) -> None:
    widget, seen = picker(qtbot)
    row = widget.list.visualItemRect(widget.list.item(0))
    on_box = QPoint(row.left() + 10, row.center().y())
    click(widget, on_box)
    assert widget.chosen() == [("a1", "bluesky")]
    assert len(seen) == 1
