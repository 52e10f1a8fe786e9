"""Status bar texts: workspace, connection state and last sync, in words.

"Showing saved data" is said only when something was saved: a workspace that never synced has
nothing to show, and says so.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from app.workspaces.plain_http import UNENCRYPTED_STATUS, sends_key_in_clear
from ui.locale_text import day_and_month, time_text

if TYPE_CHECKING:
    from app.sync.state import SyncState


_PHASE_TEXT = {
    "idle": "Online",
    "syncing": "Syncing…",
    "offline": "Offline",
    "subscription_required": "Subscription required",
    "auth_failed": "API key refused",
    "error": "Sync failed",
}
_KIND_TEXT = {
    "key_refused": "API key refused",
    "subscription_required": "Subscription required",
    "offline": "Offline",
    "server_error": "Server error",
    "redirect": "Wrong address (redirected)",
    "not_the_api": "Not the API",
    "cache": "Local cache problem",
    "unexpected": "Sync failed",
}
_KEEPS_SAVED_DATA = ("offline", "error")
NOT_CONNECTED = "Not connected"
"""Before any workspace is opened (a first run, the welcome dialog)."""
SHOWING_SAVED = " — showing saved data"
NOTHING_SAVED = " — nothing saved yet"
CLOCK_DIFFERS = " — server clock differs"
"""Issue 19 §1: the details (`SyncState.clock_warning`) are in the label's tooltip."""


def workspace_text(name: str, base_url: str = "") -> str:
    """ "Workspace: NAME", and "not encrypted (http)" while the key travels in clear (§4)."""
    text = f"Workspace: {name}"
    return f"{text} — {UNENCRYPTED_STATUS}" if sends_key_in_clear(base_url) else text


def connection_text(state: SyncState | None, wait_left: float | None = None) -> str:
    """`wait_left`: seconds until a rate-limited sync goes on (counts down; default the
    state's own `retry_in`)."""
    if state is None:
        return "Connecting…"
    if state.phase == "rate_limited" or state.kind == "rate_limited":
        left = state.retry_in if wait_left is None else wait_left
        if left:
            return f"Rate limited, retrying in {max(1, round(left))} s"
        return "Rate limited"
    if state.kind is not None:
        text = _KIND_TEXT.get(state.kind, _PHASE_TEXT.get(state.phase, state.phase))
    else:
        text = _PHASE_TEXT.get(state.phase, state.phase)
    if state.phase in _KEEPS_SAVED_DATA:
        text += SHOWING_SAVED if state.ever_synced else NOTHING_SAVED
    elif state.phase == "idle" and state.unreadable:
        text += " — some items could not be read"
    if state.clock_warning:
        text += CLOCK_DIFFERS
    return text


def last_sync_text(when: datetime | None, now: datetime, everything: datetime | None = None) -> str:
    """How fresh the window is: "Today: 20 s ago · everything: 9 min ago". `when` is the last
    refresh of any kind (every one reads the posts around now); `everything`, when every post
    was last read. With only one time known (a cache from before this was recorded), one age."""
    if when is None:
        return "Never synced"
    if everything is None:
        return "Synced " + age_text(when, now)
    return f"Today: {age_text(when, now)} · everything: {age_text(everything, now)}"


def age_text(when: datetime, now: datetime) -> str:
    seconds = max((now - when).total_seconds(), 0)
    if seconds < 10:
        return "just now"
    if seconds < 60:
        return f"{int(seconds // 10) * 10} s ago"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return time_text(when.astimezone())
    local = when.astimezone()
    return f"{day_and_month(local.date())} {time_text(local)}"


SYNC_TOOLTIP = (
    "Today: the posts due in the last 24 hours and the next hour, and the period on screen, "
    "are read again every minute.\nEverything: every post is read again about once an hour "
    "(F5 reads everything now)."
)


def utc_now() -> datetime:
    return datetime.now(UTC)
