"""What the background sync tells the UI: a phase, words for the user, and when it retries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from app.api.errors import (
    ApiError,
    AuthError,
    ConnectionFailed,
    PaymentRequired,
    PermissionDenied,
    RateLimited,
    RequestTimedOut,
)

Phase = Literal[
    "idle",
    "syncing",
    "offline",
    "rate_limited",
    "subscription_required",
    "auth_failed",
    "error",
]

SHOWING_SAVED_COPY = "The calendar shows the copy saved on this computer."


@dataclass(frozen=True)
class SyncState:
    phase: Phase
    message: str
    retry_in: float | None = None
    """Seconds until the background sync tries again; None when it waits for the user."""
    last_sync_at: datetime | None = None
    hint: str = ""
    """What the user can do about it, when there is something to do."""


def phase_of(error: ApiError) -> Phase:
    if isinstance(error, ConnectionFailed | RequestTimedOut):
        return "offline"
    if isinstance(error, RateLimited):
        return "rate_limited"
    if isinstance(error, PaymentRequired):
        return "subscription_required"
    if isinstance(error, AuthError | PermissionDenied):
        return "auth_failed"
    return "error"


def needs_the_user(phase: Phase) -> bool:
    """Failures that retrying soon cannot fix: a new key or a subscription is needed."""
    return phase in ("auth_failed", "subscription_required")
