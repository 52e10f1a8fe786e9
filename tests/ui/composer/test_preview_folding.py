"""The preview column folds away in a narrow composer and comes back when it widens; a click on
the toggle in between is the user's and is kept."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from ui.composer.preview_folding import NARROW_PAGE_WIDTH, PreviewFolding

HOSTS: list[QWidget] = []


def folding(qtbot: QtBot) -> tuple[QWidget, PreviewFolding]:
    host = QWidget()
    qtbot.addWidget(host)
    HOSTS[:] = [host]  # alive until the next test: the preview is its child
    preview = QWidget(host)
    host.show()
    return preview, PreviewFolding(preview, host)


def test_narrow_folds_wide_unfolds(qtbot: QtBot) -> None:
    preview, fold = folding(qtbot)
    fold.fit(NARROW_PAGE_WIDTH - 1)
    assert fold.folded
    assert not preview.isVisible()
    fold.fit(NARROW_PAGE_WIDTH)
    assert not fold.folded
    assert preview.isVisible()


def test_the_users_choice_is_kept_until_the_threshold_is_crossed(qtbot: QtBot) -> None:
    preview, fold = folding(qtbot)
    fold.fit(840)
    fold.toggle.click()  # the user wants the preview even in a narrow window
    assert preview.isVisible()
    fold.fit(830)  # another resize, still narrow
    assert preview.isVisible()
    fold.flip()  # the shortcut
    assert fold.folded


def test_the_toggle_shows_the_state(qtbot: QtBot) -> None:
    _preview, fold = folding(qtbot)
    seen: list[bool] = []
    fold.foldedChanged.connect(seen.append)
    fold.fit(700)
    assert not fold.toggle.isChecked()
    assert seen == [True]
