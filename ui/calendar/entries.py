"""What the views draw for one post, computed once per reload (no Qt).

Painting runs often and over many posts; parsing HTML or converting time zones in a paint
method would make a month with thousands of posts crawl, so every view works from `Entry`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from app.models import Post, PostPlatform
from app.models.enums import PostStatus, describe, known
from app.text_render import summary_line
from ui.calendar.actions import PostAction, allowed_actions


@dataclass(frozen=True, eq=False)
class Entry:
    post: Post
    local: datetime | None  # scheduled_at in the display time zone
    summary: str
    actions: frozenset[PostAction]

    @property
    def id(self) -> str:
        return self.post.id

    @property
    def day(self) -> date | None:
        return self.local.date() if self.local is not None else None

    @property
    def minutes(self) -> int:
        """Wall-clock minutes since local midnight (0 when undated)."""
        return self.local.hour * 60 + self.local.minute if self.local is not None else 0

    @property
    def time_text(self) -> str:
        return self.local.strftime("%H:%M") if self.local is not None else ""

    @property
    def status(self) -> str:
        return self.post.status

    @property
    def known_status(self) -> PostStatus | None:
        return known(PostStatus, self.post.status)

    @property
    def status_text(self) -> str:
        return status_text(self.post.status)

    @property
    def platform(self) -> str | None:
        primary = primary_platform(self.post)
        return primary.platform if primary is not None else None

    @property
    def account_text(self) -> str:
        return account_text(self.post)

    @property
    def label_colors(self) -> tuple[str, ...]:
        return tuple(label.color or "#8a8fa3" for label in self.post.labels)

    @property
    def draggable(self) -> bool:
        # An undated draft dragged from the tray onto the calendar gets its first date.
        undated_draft = self.local is None and self.known_status is PostStatus.DRAFT
        return PostAction.RESCHEDULE in self.actions or undated_draft


_STATUS_TEXT = {
    PostStatus.DRAFT: "Draft",
    PostStatus.SCHEDULED: "Scheduled",
    PostStatus.PUBLISHING: "Publishing",
    PostStatus.PUBLISHED: "Published",
    PostStatus.PARTIALLY_PUBLISHED: "Partially published",
    PostStatus.FAILED: "Failed",
    PostStatus.PENDING_APPROVAL: "Pending approval",
}


def status_text(raw: str | None) -> str:
    status = known(PostStatus, raw)
    return _STATUS_TEXT[status] if status is not None else describe(PostStatus, raw)


def primary_platform(post: Post) -> PostPlatform | None:
    """The platform entry that represents the post: the first enabled one."""
    enabled = [platform for platform in post.platforms if platform.enabled]
    candidates = enabled or post.platforms
    return candidates[0] if candidates else None


def account_text(post: Post) -> str:
    primary = primary_platform(post)
    if primary is None:
        return "No account"
    account = primary.social_account
    name = primary.display_name or (account.display_name if account else None)
    handle = primary.display_username or (account.username if account else None)
    text = name or (f"@{handle}" if handle else "") or primary.platform
    extra = len([platform for platform in post.platforms if platform.enabled]) - 1
    return f"{text} +{extra}" if extra > 0 else text


def build_entry(post: Post, tz: tzinfo) -> Entry:
    local = post.scheduled_at.astimezone(tz) if post.scheduled_at is not None else None
    return Entry(
        post=post,
        local=local,
        summary=summary_line(post.content) or "(no text)",
        actions=allowed_actions(post),
    )


def build_entries(posts: Iterable[Post], tz: tzinfo) -> list[Entry]:
    return [build_entry(post, tz) for post in posts]
