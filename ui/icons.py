"""Icons from the top-level `resources/icons/` folder, found next to the source tree or inside a
frozen (PyInstaller) bundle. Network icons fall back to a neutral one for platforms we do not
know yet, so a new network from the server never leaves a hole in a list."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QPixmap

from app.domain.enums import Platform, known, platform_name
from ui.resources import resources_dir

UNKNOWN_NETWORK = "unknown"


def icon_path(name: str) -> Path:
    return resources_dir() / "icons" / f"{name}.svg"


def network_name(platform: str | None) -> str:
    """Human name of a network (named in `app.domain.enums`); an unknown identifier is shown
    as it came."""
    return platform_name(platform)


def network_icon_name(platform: str | None) -> str:
    """The icon file's name: the identifier itself for every `Platform` (a test holds that
    each has its file), the neutral one otherwise."""
    network = known(Platform, platform)
    if network is not None and icon_path(network.value).exists():
        return network.value
    return UNKNOWN_NETWORK


@cache
def icon(name: str) -> QIcon:
    path = icon_path(name)
    return QIcon(str(path)) if path.exists() else QIcon()


def network_icon(platform: str | None) -> QIcon:
    return icon(network_icon_name(platform))


@cache
def network_pixmap(platform: str | None, size: int, device_pixel_ratio: float = 1.0) -> QPixmap:
    """A ready-to-paint pixmap (cached: delegates paint the same few icons thousands of times)."""
    pixmap = network_icon(platform).pixmap(QSize(size, size), device_pixel_ratio)
    if pixmap.isNull():
        pixmap = QPixmap(QSize(size, size) * device_pixel_ratio)
        pixmap.setDevicePixelRatio(device_pixel_ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
    return pixmap
