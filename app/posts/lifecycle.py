"""The post lifecycle of spec §3 and the actions it allows (no Qt; the calendar asks here).

Only the transitions a user can trigger through `PUT /posts/{id}` are listed; the others
(publishing → published/failed, becoming due) belong to the server. Every action is derived
from that table, so a status the table does not allow to move offers only what is safe for any
post: duplicate (a new post, fresh lifecycle) and delete (allowed from any status).
"""

from __future__ import annotations

import functools
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from app.domain.enums import PostStatus, known

USER_TRANSITIONS: frozenset[tuple[PostStatus, PostStatus]] = frozenset(
    {
        (PostStatus.DRAFT, PostStatus.SCHEDULED),  # "status change to scheduled"
        (PostStatus.SCHEDULED, PostStatus.DRAFT),  # "return to draft"
        (PostStatus.DRAFT, PostStatus.PUBLISHING),  # "publish now"
        # Publishing a scheduled post now makes it due at once (the server's own
        # scheduled → publishing step); DESIGN.md maps "publish now" to the same PUT.
        (PostStatus.SCHEDULED, PostStatus.PUBLISHING),
        (PostStatus.FAILED, PostStatus.DRAFT),  # "move back to draft"
    }
)
"""Status changes a `PUT /posts/{id}` may ask for (spec §3)."""


class PostAction(StrEnum):
    SCHEDULE = "schedule"
    RESCHEDULE = "reschedule"
    PUBLISH_NOW = "publish_now"
    MOVE_TO_DRAFT = "move_to_draft"
    EDIT = "edit"
    DUPLICATE = "duplicate"
    DELETE = "delete"


class HasStatus(Protocol):
    """A `Post` or its calendar card."""

    @property
    def status(self) -> str: ...

    @property
    def scheduled_at(self) -> datetime | None: ...


def can_change(old: str | None, new: PostStatus) -> bool:
    status = known(PostStatus, old)
    return status is not None and (status, new) in USER_TRANSITIONS


def allowed_actions(post: HasStatus) -> frozenset[PostAction]:
    return _actions(post.status, post.scheduled_at is not None)


@functools.lru_cache(maxsize=64)  # a month reload asks for hundreds of posts, of a few kinds
def _actions(raw_status: str, dated: bool) -> frozenset[PostAction]:
    allowed = {PostAction.DUPLICATE, PostAction.DELETE}
    status = known(PostStatus, raw_status)
    if can_change(raw_status, PostStatus.SCHEDULED) and dated:
        allowed.add(PostAction.SCHEDULE)  # an undated draft gets its date by a drop first
    if can_change(raw_status, PostStatus.PUBLISHING):
        allowed.add(PostAction.PUBLISH_NOW)
    if can_change(raw_status, PostStatus.DRAFT):
        allowed.add(PostAction.MOVE_TO_DRAFT)
    # A new time keeps the status: only posts still waiting for their time have one to change.
    if dated and status in (PostStatus.SCHEDULED, PostStatus.DRAFT):
        allowed.add(PostAction.RESCHEDULE)
    if status in (PostStatus.DRAFT, PostStatus.SCHEDULED, PostStatus.FAILED):
        allowed.add(PostAction.EDIT)  # a failed post is edited as a draft, then retried
    return frozenset(allowed)


_TEXT = {
    PostAction.SCHEDULE: "Schedule",
    PostAction.RESCHEDULE: "Reschedule…",
    PostAction.PUBLISH_NOW: "Publish now…",
    PostAction.MOVE_TO_DRAFT: "Move back to draft",
    PostAction.EDIT: "Edit",
    PostAction.DUPLICATE: "Duplicate",
    PostAction.DELETE: "Delete…",
}


def action_text(action: PostAction, status: str | None = None) -> str:
    """Menu and button text; a failed post is edited in order to retry it."""
    if action is PostAction.EDIT and known(PostStatus, status) is PostStatus.FAILED:
        return "Edit and retry"
    return _TEXT[action]


def is_in_future(when: datetime, now: datetime) -> bool:
    """Whether a post may still be scheduled at `when` (the server refuses "now" and earlier)."""
    return when > now
