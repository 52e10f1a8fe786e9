"""Which actions a post's status allows (DESIGN.md "Post actions"; no Qt).

Unknown statuses only get the two actions that are safe for any post: duplicate and delete.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Protocol

from app.domain.enums import PostStatus, known


class PostAction(StrEnum):
    RESCHEDULE = "reschedule"
    PUBLISH_NOW = "publish_now"
    UNSCHEDULE = "unschedule"
    DUPLICATE = "duplicate"
    DELETE = "delete"


class HasStatus(Protocol):
    """A `Post` or its calendar card."""

    @property
    def status(self) -> str: ...

    @property
    def scheduled_at(self) -> datetime | None: ...


def allowed_actions(post: HasStatus) -> frozenset[PostAction]:
    allowed = {PostAction.DUPLICATE, PostAction.DELETE}
    status = known(PostStatus, post.status)
    if status is PostStatus.SCHEDULED:
        allowed |= {PostAction.RESCHEDULE, PostAction.PUBLISH_NOW, PostAction.UNSCHEDULE}
    elif status is PostStatus.DRAFT:
        allowed.add(PostAction.PUBLISH_NOW)
        if post.scheduled_at is not None:
            allowed.add(PostAction.RESCHEDULE)
    return frozenset(allowed)
