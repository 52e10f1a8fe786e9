"""The application's icon (resources/postdesk.svg): the window's _NET_WM_ICON, the About box's."""

from __future__ import annotations

from PySide6.QtGui import QIcon

from ui.resources import resource


def app_icon() -> QIcon:
    return QIcon(str(resource("postdesk.svg")))
