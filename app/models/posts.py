"""Posts as the REST API returns them (spec §2: Post, Post-platform, Media item, Label)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from app.domain.enums import PostStatus, known
from app.models.accounts import SocialAccountSummary
from app.models.base import DictOrNull, Id, ListOrNull, RestDateTime, WireModel
from app.models.labels import Label


class Author(WireModel):
    id: Id
    name: str | None = None


class MediaItem(WireModel):
    id: Id
    path: str | None = None
    url: str | None = None
    type: str | None = None
    mime_type: str | None = None
    original_filename: str | None = None
    size: int | None = None
    meta: Annotated[dict[str, Any], DictOrNull] = Field(default_factory=dict)


class PostPlatform(WireModel):
    id: Id
    platform: str
    content_type: str | None = None
    meta: Annotated[dict[str, Any], DictOrNull] = Field(default_factory=dict)
    status: str | None = None
    enabled: bool = True
    platform_url: str | None = None
    published_at: RestDateTime | None = None
    error_message: str | None = None
    display_name: str | None = None
    display_username: str | None = None
    display_avatar: str | None = None
    social_account: SocialAccountSummary | None = None


class Post(WireModel):
    id: Id
    content: str | None = None
    media: Annotated[list[MediaItem], ListOrNull] = Field(default_factory=list)
    status: str
    """"" when the server sent it unreadable (`app.api.parsing` mends such a post): shown as
    "unknown", like a value this client does not know."""
    schedule_mode: str | None = None
    scheduled_at: RestDateTime | None = None
    published_at: RestDateTime | None = None
    platforms: Annotated[list[PostPlatform], ListOrNull] = Field(default_factory=list)
    labels: Annotated[list[Label], ListOrNull] = Field(default_factory=list)
    created_at: RestDateTime | None = None
    updated_at: RestDateTime | None = None
    # Present on batch responses only.
    post_group_id: str | None = None
    author: Author | None = None
    approval_requested_by: Any = None
    approval_requested_at: Any = None
    approved_by: Any = None
    approved_at: Any = None
    recurrence: Any = None
    origin: str | None = None

    @property
    def known_status(self) -> PostStatus | None:
        return known(PostStatus, self.status)


class BatchResponse(WireModel):
    posts: Annotated[list[Post], ListOrNull] = Field(default_factory=list)
