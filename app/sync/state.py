"""What the background sync tells the UI: a phase, words for the user, and when it retries.

A failed state also says what kind of failure it was (`kind`, for the right button: *Replace
key…* for `key_refused`, a countdown for `rate_limited`...), and every state says whether the
workspace was ever synced, so an empty calendar can say "never synced" instead of "nothing
planned".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from app.api.errors import (
    ApiError,
    AuthError,
    ConnectionFailed,
    NotFound,
    PaymentRequired,
    PermissionDenied,
    ProtocolError,
    RateLimited,
    Redirected,
    RequestTimedOut,
    ServerError,
    UpstreamFailed,
)
from app.models.unreadable import UnreadableItem

Phase = Literal[
    "idle",
    "syncing",
    "offline",
    "rate_limited",
    "subscription_required",
    "auth_failed",
    "error",
]

FailureKind = Literal[
    "key_refused",
    "subscription_required",
    "offline",
    "rate_limited",
    "server_error",
    "redirect",
    "not_the_api",
    "cache",
    "unexpected",
]
"""Why the last refresh failed, as the UI acts on it:
- `key_refused`: offer *Replace key…* (401, or 403 for a key that may not do this);
- `subscription_required`: 402, the billing settings;
- `offline`: no connection or no answer in time; retried with backoff;
- `rate_limited`: 429; `retry_in` is the exact wait;
- `server_error`: 5xx (also 502 from a social network behind the service);
- `redirect`: 3xx, the base URL is probably wrong (the hint says how);
- `not_the_api`: an HTML page, bad JSON or a missing route: probably a wrong address;
- `cache`: the local file could not be written;
- `unexpected`: a bug; the log has the details.
"""

SHOWING_SAVED_COPY = "The calendar shows the copy saved on this computer."
NOTHING_SAVED_YET = "Nothing has been downloaded to this computer yet."


@dataclass(frozen=True)
class SyncState:
    phase: Phase
    message: str
    """The reason, in words (the server's message when it sent one)."""
    retry_in: float | None = None
    """Seconds until the background sync tries again; None when it waits for the user."""
    last_sync_at: datetime | None = None
    hint: str = ""
    """What the user can do about it, when there is something to do."""
    kind: FailureKind | None = None
    """Set when the last refresh failed; None otherwise."""
    unreadable: tuple[UnreadableItem, ...] = ()
    """Items the last successful refresh had to leave out (they did not match the spec)."""
    last_full_sync_at: datetime | None = None
    """When every post was last read (`last_sync_at` may be a light refresh: now and the
    period on screen)."""

    @property
    def ever_synced(self) -> bool:
        """False until a refresh of this workspace has succeeded once (on this computer)."""
        return self.last_sync_at is not None

    @property
    def failed(self) -> bool:
        return self.kind is not None

    def unreadable_summary(self) -> str:
        """E.g. "2 posts could not be read: p7, p9." ("" when every item was read)."""
        groups: dict[str, list[str]] = {}
        for item in self.unreadable:
            noun = _NOUNS.get(item.source.rsplit("/", 1)[-1], "item")
            groups.setdefault(noun, []).append(item.id or f"#{item.index + 1}")
        return " ".join(
            f"{len(names)} {noun}{'s' if len(names) != 1 else ''} could not be read: "
            f"{', '.join(names)}."
            for noun, names in groups.items()
        )


_NOUNS = {"posts": "post", "labels": "label", "social-accounts": "account"}


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


def kind_of(error: BaseException) -> FailureKind:
    """The failure kind of any exception a refresh can end with."""
    from app.store import CacheError  # the store is not needed to read a state

    if isinstance(error, ConnectionFailed | RequestTimedOut):
        return "offline"
    if isinstance(error, RateLimited):
        return "rate_limited"
    if isinstance(error, PaymentRequired):
        return "subscription_required"
    if isinstance(error, AuthError | PermissionDenied):
        return "key_refused"
    if isinstance(error, Redirected):
        return "redirect"
    if isinstance(error, ServerError | UpstreamFailed):
        return "server_error"
    if isinstance(error, ProtocolError | NotFound):
        return "not_the_api"
    if isinstance(error, CacheError):
        return "cache"
    return "unexpected"


def needs_the_user(phase: Phase) -> bool:
    """Failures that retrying soon cannot fix: a new key or a subscription is needed."""
    return phase in ("auth_failed", "subscription_required")
