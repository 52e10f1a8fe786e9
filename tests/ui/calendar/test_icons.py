"""Network icons load from resources/ for every known network, with a fallback."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize

from app.domain.enums import Platform
from ui.icons import icon_path, network_icon, network_icon_name, network_name, network_pixmap

pytestmark = pytest.mark.usefixtures("qapp")  # icons and pixmaps need a QGuiApplication


@pytest.mark.parametrize("platform", list(Platform))
def test_every_network_has_an_icon(platform: Platform) -> None:
    assert icon_path(platform.value).is_file()
    assert not network_icon(platform.value).pixmap(QSize(16, 16)).isNull()
    assert network_name(platform.value) != platform.value or platform is Platform.X


def test_unknown_networks_fall_back() -> None:
    assert network_icon_name("myspace") == "unknown"
    assert network_icon_name(None) == "unknown"
    assert not network_icon("myspace").isNull()
    assert network_name("myspace") == "myspace"
    assert network_pixmap("myspace", 14).width() == 14
