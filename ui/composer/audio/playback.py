"""Playing a track's preview. PySide6-Essentials has no QtMultimedia, so previews open in the
system's media player; the picker says so."""

from __future__ import annotations

import importlib.util
import time

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from app.api.audio import seconds_until_expiry
from app.content.safe_links import is_openable_url

HAS_BUILT_IN_PLAYER = importlib.util.find_spec("PySide6.QtMultimedia") is not None
# A link about to expire may die while the player buffers it.
FRESH_MARGIN_S = 60.0
# Links that do not say when they expire are trusted this long after the search.
UNKNOWN_LINK_TTL_S = 50 * 60.0

PLAYBACK_NOTE = (
    "Previews open in your system's media player (this build has no built-in audio "
    "playback); stop them there."
)


def link_is_stale(url: str | None, fetched_at: float, now: float | None = None) -> bool:
    """True when the link has expired or is about to, or is of unknown age and old."""
    now = time.time() if now is None else now
    left = seconds_until_expiry(url, now)
    if left is not None:
        return left < FRESH_MARGIN_S
    return now - fetched_at > UNKNOWN_LINK_TTL_S


def open_in_system_player(url: str) -> bool:
    """Hands the preview to the desktop; False when nothing could open it. Only a web address
    leaves the app: the server's `preview_url` could be `file:///etc/passwd`, `smb://…` or
    `javascript:…`, which the desktop's opener would act on (issue 19 §4)."""
    if not is_openable_url(url):
        return False
    return QDesktopServices.openUrl(QUrl(url))
