"""Icons from the top-level `resources/icons/` folder, found next to the source tree or inside a
frozen (PyInstaller) bundle. Network icons fall back to a neutral one for platforms we do not
know yet, so a new network from the server never leaves a hole in a list."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QPixmap

from app.domain.enums import Platform
from ui.resources import resources_dir

UNKNOWN_NETWORK = "unknown"

NETWORK_NAMES: dict[str, str] = {
    Platform.LINKEDIN: "LinkedIn",
    Platform.LINKEDIN_PAGE: "LinkedIn Page",
    Platform.X: "X",
    Platform.FACEBOOK: "Facebook",
    Platform.INSTAGRAM: "Instagram",
    Platform.INSTAGRAM_FACEBOOK: "Instagram (via Facebook)",
    Platform.TIKTOK: "TikTok",
    Platform.YOUTUBE: "YouTube",
    Platform.THREADS: "Threads",
    Platform.PINTEREST: "Pinterest",
    Platform.BLUESKY: "Bluesky",
    Platform.MASTODON: "Mastodon",
    Platform.TELEGRAM: "Telegram",
    Platform.DISCORD: "Discord",
}


def icon_path(name: str) -> Path:
    return resources_dir() / "icons" / f"{name}.svg"


def network_name(platform: str | None) -> str:
    """Human name of a network; an unknown identifier is shown as it came."""
    if not platform:
        return "Unknown network"
    return NETWORK_NAMES.get(platform, platform)


def network_icon_name(platform: str | None) -> str:
    if platform and platform in NETWORK_NAMES and icon_path(platform).exists():
        return platform
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
