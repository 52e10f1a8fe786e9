"""The calendar's commands as ActionSpecs for the shell's registry (one source for menus,
shortcuts, the palette and the key table)."""

from __future__ import annotations

from datetime import date, time

from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, TODAY, PageFactory
from tests.ui.calendar.factories import make_post

WHEN = local_instant(date(2025, 10, 22), time(9, 30), BERLIN)


def test_specs_cover_the_calendar_commands_with_their_keys(make_page: PageFactory) -> None:
    page = make_page([])
    specs = {spec.id: spec for spec in page.action_specs()}
    keys = {spec.id: spec.shortcut for spec in specs.values() if spec.shortcut}
    assert keys == {
        "calendar.view.month": "M",
        "calendar.view.week": "W",
        "calendar.view.agenda": "A",
        "calendar.today": "T",
        "calendar.previous": "Ctrl+Left",
        "calendar.next": "Ctrl+Right",
        "calendar.previous.page": "PgUp",
        "calendar.next.page": "PgDown",
        "calendar.jump": "Ctrl+G",
        "calendar.open": "Return",
        "calendar.delete": "Delete",
        "calendar.select.up": "Up",
        "calendar.select.down": "Down",
        "calendar.select.left": "Left",
        "calendar.select.right": "Right",
        "calendar.select_all": "Ctrl+A",
        "calendar.move.day_earlier": "Alt+Left",
        "calendar.move.day_later": "Alt+Right",
        "calendar.move.earlier": "Alt+Up",
        "calendar.move.later": "Alt+Down",
        "calendar.close_detail": "Escape",
    }
    assert {spec.scope for spec in specs.values()} == {"calendar"}
    assert {
        "calendar.post.schedule",
        "calendar.post.reschedule",
        "calendar.post.publish_now",
        "calendar.post.move_to_draft",
        "calendar.post.edit",
        "calendar.post.duplicate",
    } <= specs.keys()
    assert all(not QKeySequence(key).isEmpty() for key in keys.values())
    assert len({QKeySequence(key) for key in keys.values()}) == len(keys)


def test_specs_act_on_the_page(make_page: PageFactory, qtbot: QtBot) -> None:
    post = make_post(when=WHEN)
    page = make_page([post])
    specs = {spec.id: spec for spec in page.action_specs()}
    specs["calendar.view.week"].callback()
    assert page.current_view() == "week"
    specs["calendar.next"].callback()
    assert page.anchor() == date(2025, 10, 28)
    specs["calendar.today"].callback()
    assert page.anchor() == TODAY
    publish = specs["calendar.post.publish_now"]
    assert publish.enabled is not None
    assert not publish.enabled()  # nothing selected
    page.select_post(post.id)
    assert publish.enabled()
    page.set_busy(post.id, True)
    assert not publish.enabled()  # one write at a time
    page.set_busy(post.id, False)
    with qtbot.waitSignal(page.duplicateRequested):
        specs["calendar.post.duplicate"].callback()


def test_keys_are_defined_once_in_the_specs(make_page: PageFactory) -> None:
    """The page's QActions (shown by its buttons) carry no keys: a key bound twice is an
    ambiguous shortcut that fires neither (issue 18 §4: keys were defined twice)."""
    page = make_page([])
    assert all(action.shortcuts() == [] for action in page.actions())
    assert page.action_month.toolTip() == "Month view (M)"  # the button still says its key


def test_toolbar_labels_survive_the_handover(make_page: PageFactory) -> None:
    page = make_page([])
    page.action_specs()  # changes the QActions, which makes their buttons re-read them
    assert page.toolbar.previous_button.text() == "‹"
    assert page.toolbar.next_button.text() == "›"
    assert page.action_previous.text() == "Previous"
