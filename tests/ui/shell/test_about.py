"""Help > About: the licences of what Postdesk is built on (Qt under the LGPL), and About Qt."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from ui.shell.help import AboutDialog, licences


def test_about_lists_the_licences_and_offers_about_qt(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialog = AboutDialog("http://127.0.0.1:1/api", tmp_path)
    qtbot.addWidget(dialog)
    text = dialog.licences.text()
    assert "LGPL" in text
    names = {name for name, _version, _licence in licences()}
    assert {"PySide6-Essentials", "httpx", "qasync"} <= names
    for name in names:
        assert name in text
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "aboutQt", lambda _parent, title: shown.append(title))
    dialog.about_qt.click()
    assert shown == ["About Qt"]
    assert dialog.about_qt.accessibleName() == "About Qt"
