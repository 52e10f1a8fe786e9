"""What the background sync tells the UI: a phase, words for the user, and when it retries.

A failed state also says what kind of failure it was (`kind`, for the right button: *Replace
key…* for `key_refused`, a countdown for `rate_limited`...), and every state says whether the
workspace was ever synced, so an empty calendar can say "never synced" instead of "nothing
planned".
"""

from __future__ import annotations

from collections.abc import Iterable
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
from app.domain.naming import UNREADABLE_NAME
from app.models.unreadable import UnreadableItem
from app.store import CacheError

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
    """Items of the last successful refresh that did not match the spec: kept with their
    unreadable parts marked (`kept`), or left out (no usable id)."""
    last_full_sync_at: datetime | None = None
    """When every post was last read (`last_sync_at` may be a light refresh: now and the
    period on screen)."""
    clock_warning: str | None = None
    """Set when the server's clock and this computer's differ by more than a minute, or the
    server's times read hours off (a wrong server time zone): in words (issue 19 §1)."""

    @property
    def ever_synced(self) -> bool:
        """False until a refresh of this workspace has succeeded once (on this computer)."""
        return self.last_sync_at is not None

    @property
    def failed(self) -> bool:
        return self.kind is not None

    def unreadable_summary(self, now: datetime | None = None) -> str:
        """In words a manager can act on, never with ids (those are in the log), e.g.
        "1 post could not be read whole: “New spring menu…” on 12 Nov (its status)." or
        "2 posts in the list could not be read at all." ("" when every item was read)."""
        return unreadable_summary(self.unreadable, now)

    def unreadable_hint(self) -> str:
        """How what could not be read is shown, and what the user can do about it."""
        parts = []
        kept = [item for item in self.unreadable if item.kept]
        if kept:
            parts.append(
                "They are shown; what could not be read shows as “(unreadable)” or “unknown”."
            )
        if any(_names_a_label(item) for item in kept):
            parts.append("A label can be given its name again on the Labels page.")
        if len(kept) < len(self.unreadable):
            parts.append(
                "What could not be read at all is left out; a saved copy of such a post is kept."
            )
        return " ".join(parts)


_NOUNS = {"posts": "post", "labels": "label", "social-accounts": "account"}
_PART_WORDS = {
    "status": "its status",
    "content": "its text",
    "scheduled_at": "its date",
    "published_at": "when it went out",
    "labels": "a label",
    "platforms": "one of its networks",
    "media": "its media",
    "name": "its name",
    "color": "its colour",
}
_GROUPS_NAMED = 4
_NAMES_PER_GROUP = 2
_TITLE_CHARS = 32
_PLACEHOLDERS = {"post": "(no text)", "label": UNREADABLE_NAME}


def unreadable_summary(items: Iterable[UnreadableItem], now: datetime | None = None) -> str:
    """See `SyncState.unreadable_summary`. Items kept in part are named by their first line and
    day, grouped by what could not be read; items left out are counted."""
    now = now or datetime.now().astimezone()
    kinds: dict[str, tuple[list[UnreadableItem], list[UnreadableItem]]] = {
        noun: ([], [])
        for noun in _NOUNS.values()  # posts first, then labels, accounts
    }
    for item in items:
        kept, lost = kinds.setdefault(_noun(item), ([], []))
        (kept if item.kept else lost).append(item)
    sentences = []
    for noun, (kept, lost) in kinds.items():
        if noun == "label" and (nameless := [i for i in kept if "name" in i.fields]):
            kept = [item for item in kept if item not in nameless]
            sentences.append(
                f"{_count(len(nameless), noun)} could not be read whole (its name): shown "
                f"as “{UNREADABLE_NAME}”."
            )
        if kept:
            named = _named(kept, noun, now)
            sentences.append(f"{_count(len(kept), noun)} could not be read whole: {named}.")
        if lost:
            sentences.append(f"{_count(len(lost), noun)} in the list could not be read at all.")
    return " ".join(sentences)


def _noun(item: UnreadableItem) -> str:
    return _NOUNS.get(item.source.rsplit("/", 1)[-1].split("?")[0], "item")


def _names_a_label(item: UnreadableItem) -> bool:
    if _noun(item) == "label":
        return "name" in item.fields
    return any(field.startswith("labels.") and field.endswith(".name") for field in item.fields)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"


def _named(kept: list[UnreadableItem], noun: str, now: datetime) -> str:
    groups: dict[str, list[UnreadableItem]] = {}
    for item in kept:
        groups.setdefault(_parts_text(item), []).append(item)
    chunks = []
    for parts, group in list(groups.items())[:_GROUPS_NAMED]:
        if len(group) == 1:
            chunks.append(f"{_name(group[0], noun, now)} ({parts})")
            continue
        names = ", ".join(_name(item, noun, now) for item in group[:_NAMES_PER_GROUP])
        more = len(group) - _NAMES_PER_GROUP
        names += f" and {more} more" if more > 0 else ""
        chunks.append(f"{parts} on {len(group)} of them ({names})")
    rest = sum(len(group) for group in list(groups.values())[_GROUPS_NAMED:])
    if rest:
        chunks.append(f"{rest} more")
    return "; ".join(chunks)


def _parts_text(item: UnreadableItem) -> str:
    words = dict.fromkeys(
        _PART_WORDS.get(head, "its " + head.replace("_", " "))
        for head in (field.split(".", 1)[0] for field in item.fields)
    )
    return ", ".join(words)


def _name(item: UnreadableItem, noun: str, now: datetime) -> str:
    from app.content.text_render import summary_line  # only when something was unreadable

    title = summary_line(item.text) if item.text else ""
    if len(title) > _TITLE_CHARS:
        title = title[:_TITLE_CHARS].rsplit(" ", 1)[0].rstrip(" ,.;:") + "…"
    named = f"“{title or _PLACEHOLDERS.get(noun, f'#{item.index + 1}')}”"
    if item.when is not None:
        day = item.when.astimezone(now.tzinfo)
        named += f" on {day.day} {day:%b}" + (f" {day.year}" if day.year != now.year else "")
    return named


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
