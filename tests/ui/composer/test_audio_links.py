"""The audio picker hands only web addresses to the desktop (issue 19 §4: a server's
`preview_url` of `file:///etc/passwd` reached the desktop opener)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication

from ui.composer.audio.playback import open_in_system_player

SCHEMES = ("https", "http", "file", "smb", "javascript")


class Opened(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def show(self, url: QUrl) -> None:
        self.urls.append(url.toString())


@pytest.fixture
def opened(qapp: QApplication) -> Iterator[Opened]:
    # Handlers stand in for the desktop: what reaches them is what the desktop would open.
    recorder = Opened()
    for scheme in SCHEMES:
        QDesktopServices.setUrlHandler(scheme, recorder, "show")
    yield recorder
    for scheme in SCHEMES:
        QDesktopServices.unsetUrlHandler(scheme)


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "smb://fileserver/share",
        "javascript:alert(1)",
        "https://cdn.example.com/a.mp3\nfile:///etc/passwd",
        "",
    ],
)
def test_a_preview_that_is_not_a_web_address_never_reaches_the_desktop(
    opened: Opened, url: str
) -> None:
    assert open_in_system_player(url) is False
    assert opened.urls == []


def test_a_web_preview_is_opened(opened: Opened) -> None:
    assert open_in_system_player("https://cdn.example.com/preview.mp3") is True
    assert opened.urls == ["https://cdn.example.com/preview.mp3"]
