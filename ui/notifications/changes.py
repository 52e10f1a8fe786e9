"""What changed between two looks at the workspace, and what still needs attention (no Qt).

The first look is the baseline: what was already failed or paused when the app started is
history, not news. After that, an item alerts when it enters an attention state (a post turns
failed or partially published, a webhook becomes paused), also when it first appears in one.
An alert stays open until the item leaves that state or the user opens it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.content.long_text import preview

POST_ATTENTION = frozenset({"failed", "partially_published"})
WEBHOOK_ATTENTION = frozenset({"paused"})
SUBJECT_CHARS = 200
"""What an alert keeps of a post's first line or a webhook's endpoint: the server's text is not
bounded, and the alert is laid out in the Needs attention list and sent to the desktop."""


def bounded_subject(text: str) -> str:
    part = preview(text, SUBJECT_CHARS)
    return f"{part.shown.rstrip()}…" if part.truncated else part.shown


@dataclass(frozen=True)
class Alert:
    kind: str  # "post" or "webhook"
    id: str
    status: str
    subject: str  # first line of the post, or the webhook's endpoint

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.id, self.status)

    @property
    def title(self) -> str:
        if self.kind == "webhook":
            return "Webhook paused"
        return "Post failed" if self.status == "failed" else "Post partially published"

    @property
    def text(self) -> str:
        if self.kind == "webhook":
            return (
                f"{self.subject} was paused after 5 failed deliveries; events are skipped "
                "until you enable it."
            )
        subject = self.subject or "(no text)"
        return f"“{subject[:80]}” — open it to see which networks failed and why."


@dataclass(frozen=True)
class Item:
    id: str
    status: str
    subject: str = ""


class ChangeWatcher:
    def __init__(self) -> None:
        self._seen: dict[str, set[tuple[str, str, str]] | None] = {"post": None, "webhook": None}
        self._open: dict[tuple[str, str, str], Alert] = {}

    def observe(self, kind: str, items: Iterable[Item]) -> list[Alert]:
        """Give every item of `kind` ("post" or "webhook") as now known; returns new alerts.
        Items not given are not judged: pass the whole set each time."""
        watched = POST_ATTENTION if kind == "post" else WEBHOOK_ATTENTION
        current = {
            (kind, item.id, item.status): Alert(
                kind, item.id, item.status, bounded_subject(item.subject)
            )
            for item in items
            if item.status in watched
        }
        previous = self._seen[kind]
        self._seen[kind] = set(current)
        for key in [k for k in self._open if k[0] == kind and k not in current]:
            del self._open[key]  # left the attention state: nothing to do any more
        if previous is None:
            return []
        fresh = [alert for key, alert in current.items() if key not in previous]
        for alert in fresh:
            self._open[alert.key] = alert
        return fresh

    def acknowledge(self, kind: str, item_id: str) -> None:
        for key in [k for k in self._open if k[0] == kind and k[1] == item_id]:
            del self._open[key]

    def acknowledge_all(self) -> None:
        self._open.clear()

    def open_alerts(self) -> list[Alert]:
        return list(self._open.values())

    def reset(self) -> None:
        """Another workspace: start again from a baseline."""
        self._seen = {"post": None, "webhook": None}
        self._open.clear()
