"""Post actions: offered per status, emitted as signals, delete only after confirmation."""

from __future__ import annotations

from datetime import date, time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, PageFactory, focus
from tests.ui.calendar.factories import make_post
from ui.calendar.actions import PostAction, allowed_actions
from ui.calendar.page import CalendarPage

WHEN = local_instant(date(2025, 10, 22), time(9, 30), BERLIN)
R, P, U, D, X = (
    PostAction.RESCHEDULE,
    PostAction.PUBLISH_NOW,
    PostAction.UNSCHEDULE,
    PostAction.DUPLICATE,
    PostAction.DELETE,
)


@pytest.mark.parametrize(
    ("status", "dated", "expected"),
    [
        ("scheduled", True, {R, P, U, D, X}),
        ("draft", True, {R, P, D, X}),
        ("draft", False, {P, D, X}),
        ("publishing", True, {D, X}),
        ("published", True, {D, X}),
        ("partially_published", True, {D, X}),
        ("failed", True, {D, X}),
        ("pending_approval", True, {D, X}),
        ("in_review", True, {D, X}),
    ],
)
def test_actions_allowed_by_status(status: str, dated: bool, expected: set[PostAction]) -> None:
    post = make_post(when=WHEN if dated else None, status=status)
    assert allowed_actions(post) == expected


def test_the_page_offers_only_allowed_actions(make_page: PageFactory) -> None:
    scheduled = make_post(when=WHEN)
    published = make_post(when=WHEN, status="published")
    page = make_page([scheduled, published])
    page.select_post(published.id)
    assert not page.action_reschedule.isEnabled()
    assert not page.action_publish.isEnabled()
    assert page.action_duplicate.isEnabled()
    assert page.detail.offered_actions() == {D, X}
    page.select_post(scheduled.id)
    assert page.action_unschedule.isEnabled()
    assert page.detail.offered_actions() == {R, P, U, D, X}
    page.select_post(None)
    assert not any(action.isEnabled() for action in page.post_actions.values())


def selected(make_page: PageFactory, status: str = "scheduled") -> tuple[CalendarPage, str]:
    post = make_post(when=WHEN, status=status)
    page = make_page([post])
    page.select_post(post.id)
    return page, post.id


def test_publish_unschedule_and_duplicate_are_emitted(make_page: PageFactory, qtbot: QtBot) -> None:
    page, post_id = selected(make_page)
    for action, signal in (
        (page.action_publish, page.publishNowRequested),
        (page.action_unschedule, page.unscheduleRequested),
        (page.action_duplicate, page.duplicateRequested),
    ):
        with qtbot.waitSignal(signal) as emitted:
            action.trigger()
        assert emitted.args == [post_id]


def test_a_disallowed_action_does_nothing(make_page: PageFactory, qtbot: QtBot) -> None:
    page, _post_id = selected(make_page, status="published")
    with qtbot.assertNotEmitted(page.publishNowRequested):
        page.action_publish.trigger()
    with qtbot.assertNotEmitted(page.unscheduleRequested):
        page.action_unschedule.trigger()


def test_detail_buttons_trigger_the_actions(make_page: PageFactory, qtbot: QtBot) -> None:
    page, post_id = selected(make_page)
    page.open_detail()
    button = page.detail.action_button(PostAction.DUPLICATE)
    assert button is not None
    with qtbot.waitSignal(page.duplicateRequested) as emitted:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert emitted.args == [post_id]


def test_delete_is_emitted_only_after_confirmation(make_page: PageFactory, qtbot: QtBot) -> None:
    page, post_id = selected(make_page)
    with qtbot.assertNotEmitted(page.deleteRequested):
        page.action_delete.trigger()
        box = page.delete_confirmation()
        assert box is not None
        assert box.isVisible()
        assert box.isModal()
        box.button(QMessageBox.StandardButton.Cancel).click()
    assert page.delete_confirmation() is None

    page.action_delete.trigger()
    box = page.delete_confirmation()
    assert box is not None
    (delete_button,) = [
        b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole
    ]
    with qtbot.waitSignal(page.deleteRequested) as emitted:
        delete_button.click()
    assert emitted.args == [post_id]


def test_delete_key_asks_first(make_page: PageFactory, qtbot: QtBot) -> None:
    page, _post_id = selected(make_page)
    focus(qtbot, page.month_view)
    with qtbot.assertNotEmitted(page.deleteRequested):
        qtbot.keyClick(page.month_view, Qt.Key.Key_Delete)
    box = page.delete_confirmation()
    assert box is not None
    box.reject()


def test_reschedule_dialog_turns_wall_time_into_an_instant(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page, post_id = selected(make_page)
    page.action_reschedule.trigger()
    dialog = page.reschedule_dialog()
    assert dialog is not None
    assert dialog.isVisible()
    dialog.set_wall_time(date(2025, 10, 27), time(14, 45))  # after the DST change
    with qtbot.waitSignal(page.rescheduleRequested) as emitted:
        dialog.accept()
    assert emitted.args == [post_id, local_instant(date(2025, 10, 27), time(14, 45), BERLIN)]
    assert emitted.args[1].utcoffset().total_seconds() == 0


def test_cancelling_the_reschedule_dialog_emits_nothing(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page, _post_id = selected(make_page)
    page.action_reschedule.trigger()
    dialog = page.reschedule_dialog()
    assert dialog is not None
    with qtbot.assertNotEmitted(page.rescheduleRequested):
        dialog.reject()


def test_new_post_action_uses_the_selected_day(make_page: PageFactory, qtbot: QtBot) -> None:
    page, _post_id = selected(make_page)
    with qtbot.waitSignal(page.newPostRequested) as requested:
        page.action_new.trigger()
    assert requested.args == [date(2025, 10, 22)]
