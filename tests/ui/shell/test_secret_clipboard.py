"""A secret copied by Postdesk leaves the clipboard after 30 s, if it is still there (§4)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from tests.ui.loop_runner import LoopRunner, until
from ui.panels.webhooks.dialogs import SecretDialog
from ui.secret_clipboard import CLEAR_AFTER_MS, secret_clipboard

SECRET = "whsec_0123456789abcdef"


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    keeper = secret_clipboard()
    yield loop_runner
    keeper.timer.setInterval(CLEAR_AFTER_MS)
    keeper.clear_now()
    QGuiApplication.clipboard().clear()
    loop_runner.close()


def test_the_copy_button_clears_the_secret_after_the_interval(
    qapp: QApplication, runner: LoopRunner
) -> None:
    keeper = secret_clipboard()
    assert keeper.timer.interval() == 30_000
    dialog = SecretDialog(None, SECRET, rotated=False)
    dialog.copy_button.click()
    clipboard = QGuiApplication.clipboard()
    assert clipboard.text() == SECRET
    assert keeper.armed
    assert keeper.timer.isActive()
    dialog.close()  # the dialog is gone; the clearing is not
    keeper.timer.setInterval(20)  # instead of waiting 30 s
    keeper.timer.start()
    runner.run(until(lambda: not keeper.armed, what="cleared"))
    assert clipboard.text() == ""


def test_something_the_user_copied_since_is_left_alone(
    qapp: QApplication, runner: LoopRunner
) -> None:
    keeper = secret_clipboard()
    keeper.copy(SECRET)
    QGuiApplication.clipboard().setText("the user's own text")
    keeper.timer.setInterval(20)
    keeper.timer.start()
    runner.run(until(lambda: not keeper.armed, what="timer ran"))
    assert QGuiApplication.clipboard().text() == "the user's own text"


def test_ctrl_c_in_the_secret_field_is_cleared_too(qapp: QApplication, runner: LoopRunner) -> None:
    keeper = secret_clipboard()
    dialog = SecretDialog(None, SECRET, rotated=False, reveal=True)
    dialog.show()
    dialog.secret_edit.selectAll()
    dialog.secret_edit.copy()  # what Ctrl+C does
    runner.run(until(lambda: keeper.armed, what="watched"))
    keeper.timer.setInterval(20)
    keeper.timer.start()
    runner.run(until(lambda: not keeper.armed, what="cleared"))
    assert QGuiApplication.clipboard().text() == ""
    dialog.close()
