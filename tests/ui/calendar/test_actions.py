"""Post actions on the page: offered per status (app.posts.lifecycle), emitted as signals,
Publish now and Delete only after a confirmation, busy posts wait for their answer."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from app.posts.lifecycle import PostAction
from tests.ui.calendar.conftest import BERLIN, TODAY, PageFactory, focus
from tests.ui.calendar.factories import make_post
from tests.ui.calendar.test_keyboard import keyed
from ui.calendar.page import CalendarPage

WHEN = local_instant(date(2025, 10, 22), time(9, 30), BERLIN)
PAST = local_instant(date(2025, 10, 20), time(9, 30), BERLIN)
S, E, R, P, M, D, X = (
    PostAction.SCHEDULE,
    PostAction.EDIT,
    PostAction.RESCHEDULE,
    PostAction.PUBLISH_NOW,
    PostAction.MOVE_TO_DRAFT,
    PostAction.DUPLICATE,
    PostAction.DELETE,
)


def test_the_page_offers_only_allowed_actions(make_page: PageFactory) -> None:
    scheduled = make_post(when=WHEN)
    published = make_post(when=WHEN, status="published")
    failed = make_post(when=WHEN, status="failed")
    page = make_page([scheduled, published, failed])
    page.select_post(published.id)
    page.open_detail()
    assert not page.action_reschedule.isEnabled()
    assert not page.action_publish.isEnabled()
    assert page.action_duplicate.isEnabled()
    assert page.detail.offered_actions() == {D, X}
    page.select_post(scheduled.id)
    assert page.action_move_to_draft.isEnabled()
    assert page.detail.offered_actions() == {E, R, P, M, D, X}
    page.select_post(failed.id)
    assert page.detail.offered_actions() == {E, M, D, X}
    button = page.detail.action_button(E)
    assert button is not None
    assert button.text() == "Edit and retry"
    page.select_post(None)
    assert not any(action.isEnabled() for action in page.post_actions.values())


def selected(
    make_page: PageFactory, status: str = "scheduled", when: datetime | None = WHEN
) -> tuple[CalendarPage, str]:
    post = make_post(when=when, status=status)
    page = make_page([post])
    page.select_post(post.id)
    return page, post.id


def test_move_to_draft_edit_and_duplicate_are_emitted(make_page: PageFactory, qtbot: QtBot) -> None:
    page, post_id = selected(make_page, status="failed")
    for action, signal in (
        (page.action_move_to_draft, page.moveToDraftRequested),
        (page.action_edit, page.editRequested),
        (page.action_duplicate, page.duplicateRequested),
    ):
        with qtbot.waitSignal(signal) as emitted:
            action.trigger()
        assert emitted.args == [post_id]


def test_move_to_draft_falls_back_to_unschedule_while_nobody_listens(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page, post_id = selected(make_page)
    with qtbot.waitSignal(page.unscheduleRequested) as emitted:
        page.action_move_to_draft.trigger()
    assert emitted.args == [post_id]
    page.moveToDraftRequested.connect(lambda _id: None)
    with qtbot.assertNotEmitted(page.unscheduleRequested):
        page.action_move_to_draft.trigger()


def test_a_disallowed_action_does_nothing(make_page: PageFactory, qtbot: QtBot) -> None:
    page, _post_id = selected(make_page, status="published")
    with qtbot.assertNotEmitted(page.publishNowRequested):
        page.action_publish.trigger()
    assert page.publish_confirmation() is None
    with qtbot.assertNotEmitted(page.moveToDraftRequested):
        page.action_move_to_draft.trigger()


def test_detail_buttons_trigger_the_actions(make_page: PageFactory, qtbot: QtBot) -> None:
    page, post_id = selected(make_page)
    page.open_detail()
    button = page.detail.action_button(PostAction.DUPLICATE)
    assert button is not None
    with qtbot.waitSignal(page.duplicateRequested) as emitted:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert emitted.args == [post_id]


def double_click_over(page: CalendarPage, qtbot: QtBot) -> None:
    """Wait until the detail's last action press is a double-click interval old, as the
    buttons measure it: the next press is a click of its own."""
    interval = QGuiApplication.styleHints().mouseDoubleClickInterval()
    since_press = page.detail._since_action_press
    qtbot.waitUntil(lambda: since_press.elapsed() >= interval)


def test_a_double_click_on_a_detail_button_is_one_request(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    """Even when the first answer came before the second click (a fast server)."""
    page, post_id = selected(make_page)
    page.open_detail()
    button = page.detail.action_button(PostAction.DUPLICATE)
    assert button is not None
    requests: list[str] = []
    page.duplicateRequested.connect(requests.append)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    page.set_busy(post_id, True)
    page.set_busy(post_id, False)  # answered, before the double-click's second click
    qtbot.mouseDClick(button, Qt.MouseButton.LeftButton)
    qtbot.mouseRelease(button, Qt.MouseButton.LeftButton)
    assert requests == [post_id]
    double_click_over(page, qtbot)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert requests == [post_id, post_id]


def test_a_double_click_whose_second_press_lands_on_another_button_is_one_request(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    """The answer changes the post's actions and the buttons re-flow: the second press of a
    double-click can fall on the button that took the first one's place."""
    page, post_id = selected(make_page)
    page.open_detail()
    first = page.detail.action_button(PostAction.DUPLICATE)
    other = page.detail.action_button(PostAction.MOVE_TO_DRAFT)
    assert first is not None
    assert other is not None
    assert other.isEnabled()
    duplicates: list[str] = []
    drafts: list[str] = []
    page.duplicateRequested.connect(duplicates.append)
    page.moveToDraftRequested.connect(drafts.append)
    page.unscheduleRequested.connect(drafts.append)
    qtbot.mouseClick(first, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(other, Qt.MouseButton.LeftButton)  # within the double-click interval
    assert (duplicates, drafts) == ([post_id], [])
    double_click_over(page, qtbot)
    qtbot.mouseClick(other, Qt.MouseButton.LeftButton)  # a click of its own
    assert drafts == [post_id]


def test_publish_now_asks_first_naming_the_networks(make_page: PageFactory, qtbot: QtBot) -> None:
    page, post_id = selected(make_page)
    with qtbot.assertNotEmitted(page.publishNowRequested):
        page.action_publish.trigger()
        box = page.publish_confirmation()
        assert box is not None
        assert box.isModal()
        assert "LinkedIn (Maya Chen)" in box.text()
        box.button(QMessageBox.StandardButton.Cancel).click()
    assert page.publish_confirmation() is None
    page.action_publish.trigger()
    box = page.publish_confirmation()
    assert box is not None
    (publish,) = [b for b in box.buttons() if b.text() == "Publish now"]
    with qtbot.waitSignal(page.publishNowRequested) as emitted:
        publish.click()
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
    page.registry = keyed(page)  # type: ignore[attr-defined]
    focus(qtbot, page.month_view)
    with qtbot.assertNotEmitted(page.deleteRequested):
        qtbot.keyClick(page.month_view, Qt.Key.Key_Delete)
    box = page.delete_confirmation()
    assert box is not None
    box.reject()


def test_schedule_a_dated_draft_at_its_time(make_page: PageFactory, qtbot: QtBot) -> None:
    page, post_id = selected(make_page, status="draft")
    assert page.action_schedule.isEnabled()
    with qtbot.waitSignal(page.scheduleRequested) as emitted:
        page.action_schedule.trigger()
    assert emitted.args == [post_id, WHEN]
    assert page.reschedule_dialog() is None


def test_schedule_a_draft_whose_time_passed_asks_for_a_time(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page, post_id = selected(make_page, status="draft", when=PAST)
    with qtbot.assertNotEmitted(page.scheduleRequested):
        page.action_schedule.trigger()
    dialog = page.reschedule_dialog()
    assert dialog is not None
    assert dialog.windowTitle() == "Schedule post"
    assert dialog.chosen_instant() > datetime.combine(TODAY, time(0), BERLIN)
    dialog.set_wall_time(date(2025, 10, 23), time(11, 0))
    with qtbot.waitSignal(page.scheduleRequested) as emitted:
        dialog.accept()
    assert emitted.args == [post_id, local_instant(date(2025, 10, 23), time(11), BERLIN)]


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


def test_a_past_time_in_the_reschedule_dialog_says_why(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page, _post_id = selected(make_page)
    page.action_reschedule.trigger()
    dialog = page.reschedule_dialog()
    assert dialog is not None
    dialog.set_wall_time(date(2025, 10, 20), time(8, 0))  # the day before "today"
    assert "has passed" in dialog.problem_text()
    assert not dialog.ok_button.isEnabled()
    with qtbot.assertNotEmitted(page.rescheduleRequested):
        dialog.accept()  # Enter in the editor: refused, and the dialog stays open
    assert dialog.isVisible()
    dialog.set_wall_time(date(2025, 10, 24), time(8, 0))
    assert dialog.problem_text() == ""
    assert dialog.ok_button.isEnabled()


def test_cancelling_the_reschedule_dialog_emits_nothing(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page, _post_id = selected(make_page)
    page.action_reschedule.trigger()
    dialog = page.reschedule_dialog()
    assert dialog is not None
    with qtbot.assertNotEmitted(page.rescheduleRequested):
        dialog.reject()


def test_a_busy_post_shows_it_and_waits_for_the_answer(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page, post_id = selected(make_page)
    page.open_detail()
    page.set_busy(post_id, True)
    assert page.detail.is_busy()
    assert not any(action.isEnabled() for action in page.post_actions.values())
    with qtbot.assertNotEmitted(page.duplicateRequested):
        page.action_duplicate.trigger()
    assert page.month_view.is_busy(post_id)
    page.set_busy(post_id, False)
    assert not page.detail.is_busy()
    assert page.action_duplicate.isEnabled()
    assert not page.month_view.is_busy(post_id)


def test_new_post_action_uses_the_selected_day(make_page: PageFactory, qtbot: QtBot) -> None:
    page, _post_id = selected(make_page)
    with qtbot.waitSignal(page.newPostRequested) as requested:
        page.action_new.trigger()
    assert requested.args == [date(2025, 10, 22)]


def test_the_clock_of_a_fixed_day_starts_at_its_midnight(make_page: PageFactory) -> None:
    page = make_page([])
    assert page._now() == datetime.combine(TODAY, time(0), BERLIN)
    assert page._now().astimezone(UTC).tzinfo is UTC
