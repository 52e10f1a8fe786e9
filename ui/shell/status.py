"""Status bar texts: workspace, connection state and last sync, in words."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.sync.state import SyncState


_PHASE_TEXT = {
    "idle": "Online",
    "syncing": "Syncing…",
    "offline": "Offline — showing saved data",
    "subscription_required": "Subscription required",
    "auth_failed": "API key refused",
    "error": "Sync failed — showing saved data",
}


def connection_text(state: SyncState | None) -> str:
    if state is None:
        return "Connecting…"
    if state.phase == "rate_limited":
        if state.retry_in:
            return f"Rate limited, retrying in {round(state.retry_in)} s"
        return "Rate limited"
    return _PHASE_TEXT.get(state.phase, state.phase)


def last_sync_text(when: datetime | None, now: datetime | None = None) -> str:
    if when is None:
        return "Never synced"
    now = now or datetime.now(when.tzinfo)
    seconds = max((now - when).total_seconds(), 0)
    if seconds < 60:
        return "Synced just now"
    if seconds < 3600:
        return f"Synced {int(seconds // 60)} min ago"
    return "Synced " + when.astimezone().strftime("%d %b %H:%M")
