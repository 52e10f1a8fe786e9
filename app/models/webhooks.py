"""Webhooks, their delivery logs, and what a delivery carries (spec §2, §6).

Webhook-side timestamps are ISO 8601 with an offset.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import Field

from app.models.base import DictOrNull, Id, ListOrNull, WireModel


class Webhook(WireModel):
    id: Id
    endpoint: str
    events: Annotated[list[str], ListOrNull] = Field(default_factory=list)
    status: str
    last_sent_at: datetime | None = None
    paused_at: datetime | None = None
    consecutive_failures: int = 0
    signing_secret: str | None = Field(default=None, repr=False)
    created_at: datetime | None = None
    updated_at: datetime | None = None


class WebhookEnvelope(WireModel):
    id: Id
    type: str
    data: Annotated[dict[str, Any], DictOrNull] = Field(default_factory=dict)
    created_at: datetime | None = None


class DeliveryLog(WireModel):
    id: Id
    event_type: str | None = None
    # Left to right: in "smart" mode a plain dict input matches `dict` exactly and the envelope
    # would never be parsed.
    payload: Annotated[
        WebhookEnvelope | dict[str, Any] | None, Field(union_mode="left_to_right")
    ] = None
    response_status: int | None = None
    response_body: str | None = None
    delivered_at: datetime | None = None
    failed_at: datetime | None = None
    attempts: int = 0
    created_at: datetime | None = None

    @property
    def succeeded(self) -> bool:
        return self.delivered_at is not None


class PayloadAccount(WireModel):
    id: Id
    platform: str | None = None
    display_name: str | None = None
    username: str | None = None
    is_active: bool | None = None
    status: str | None = None


class PayloadMedia(WireModel):
    id: Id
    path: str | None = None
    url: str | None = None
    type: str | None = None
    mime_type: str | None = None
    original_filename: str | None = None
    source: str | None = None
    source_meta: Any = None
    meta: Annotated[dict[str, Any], DictOrNull] = Field(default_factory=dict)


class PayloadPlatform(WireModel):
    id: Id
    social_account_id: str | None = None
    platform: str | None = None
    content_type: str | None = None
    enabled: bool = True
    status: str | None = None
    platform_post_id: str | None = None
    platform_url: str | None = None
    published_at: datetime | None = None
    error_message: str | None = None
    error_context: Any = None
    display_name: str | None = None
    display_username: str | None = None
    display_avatar: str | None = None
    meta: Annotated[dict[str, Any], DictOrNull] = Field(default_factory=dict)
    social_account: PayloadAccount | None = None


class PayloadRef(WireModel):
    id: Id
    name: str | None = None


class PayloadLabel(WireModel):
    id: Id
    name: str | None = None
    color: str | None = None


class PostPayload(WireModel):
    """`data` of every post event except `post.deleted`."""

    id: Id
    workspace_id: str | None = None
    user_id: str | None = None
    status: str | None = None
    created_via: str | None = None
    content: str | None = None
    scheduled_at: datetime | None = None
    published_at: datetime | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    author: PayloadRef | None = None
    workspace: PayloadRef | None = None
    labels: Annotated[list[PayloadLabel], ListOrNull] = Field(default_factory=list)
    media: Annotated[list[PayloadMedia], ListOrNull] = Field(default_factory=list)
    platforms: Annotated[list[PayloadPlatform], ListOrNull] = Field(default_factory=list)


class DeletedPostPayload(WireModel):
    id: Id
    workspace_id: str | None = None


class TestPingResult(WireModel):
    """Answer of `POST /webhooks/{id}/test` (shape chosen by us; the spec does not give it)."""

    __test__ = False  # not a pytest test class despite the name

    success: bool = False
    status: int | None = None
    message: str | None = None
