"""Spec §3 "Post status" as data: every allowed transition, who makes it, and what it emits.

The routes and the publisher derive their rules from `TRANSITIONS`; what a user may not do is
the complement of this table, never a separately typed list, so the two cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

POST_STATUSES = ("draft", "scheduled", "publishing", "published", "partially_published", "failed")
OUTCOMES = ("published", "partially_published", "failed")

Actor = Literal["user", "service"]


@dataclass(frozen=True)
class Transition:
    source: str
    target: str
    actor: Actor
    event: str | None
    trigger: str


TRANSITIONS: tuple[Transition, ...] = (
    Transition("draft", "scheduled", "user", "post.scheduled", "status change to scheduled"),
    Transition("scheduled", "draft", "user", "post.unscheduled", "return to draft"),
    Transition("draft", "publishing", "user", None, "publish now"),
    Transition("scheduled", "publishing", "service", None, "becomes due"),
    Transition("publishing", "published", "service", "post.published", "published everywhere"),
    Transition(
        "publishing",
        "partially_published",
        "service",
        "post.partially_published",
        "some platforms published, others failed",
    ),
    Transition("publishing", "failed", "service", "post.failed", "failed on the enabled platforms"),
    Transition("failed", "draft", "user", None, "move back to draft"),
    # Sandbox decision (the spec is silent): "publish now" is also offered on a scheduled post,
    # as the dashboard does; like the due path it is silent.
    Transition("scheduled", "publishing", "user", None, "publish now (scheduled post)"),
)

USER_TRANSITIONS: frozenset[tuple[str, str]] = frozenset(
    (t.source, t.target) for t in TRANSITIONS if t.actor == "user"
)
# Every change of status a user request may not make: the complement of the table's user rows.
FORBIDDEN_FOR_USER: frozenset[tuple[str, str]] = (
    frozenset((a, b) for a in POST_STATUSES for b in POST_STATUSES if a != b) - USER_TRANSITIONS
)

_EVENTS = {(t.source, t.target): t.event for t in TRANSITIONS}


def user_may_change(old: str, new: str) -> bool:
    return old == new or (old, new) not in FORBIDDEN_FOR_USER


def event_for(old: str, new: str) -> str | None:
    """The event a transition emits (§3/§6); None for silent ones and for non-changes."""
    if old == new:
        return None
    return _EVENTS.get((old, new))


def outcome_of(published: int, failed: int) -> str:
    """The post status after publishing: counts are over the enabled platform entries."""
    if published and not failed:
        return "published"
    if published:
        return "partially_published"
    return "failed"
