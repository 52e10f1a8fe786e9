"""Bodies the client sends (batch create, post update, labels, signatures, webhooks).

`to_wire()` drops unset fields and writes `scheduled_at` as `Y-m-d H:i:s` in the server time zone.
"""

from __future__ import annotations

from datetime import UTC, tzinfo
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.models.base import RestDateTime


class RequestModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    def to_wire(self, server_tz: tzinfo = UTC) -> dict[str, Any]:
        return self.model_dump(
            mode="json", exclude_none=True, by_alias=True, context={"server_tz": server_tz}
        )


class MediaRef(RequestModel):
    upload_token: str
    alt: str = ""


class Destination(RequestModel):
    social_account_id: str
    content_type: str
    content: str | None = None
    media: list[MediaRef] | None = None
    meta: dict[str, Any] | None = None


class BatchRequest(RequestModel):
    """`POST /posts/batch`: one independent post per destination, sharing a post_group_id."""

    destinations: list[Destination] = Field(min_length=1)
    content: str | None = None
    media: list[MediaRef] | None = None
    status: str | None = None
    queue: Literal["next", "top"] | None = None
    scheduled_at: RestDateTime | None = None
    # Label ids applied to every post (the sandbox accepts them; DESIGN.md "Duplicate").
    labels: list[str] | None = None


class PlatformToggle(RequestModel):
    """A platform entry of `PUT /posts/{id}`; `content_type` and `meta` only when changed."""

    id: str
    enabled: bool
    content_type: str | None = None
    meta: dict[str, Any] | None = None


class MediaKeep(RequestModel):
    """`PUT /posts/{id}` media entry keeping one of the post's media items."""

    id: str


class PostUpdate(RequestModel):
    """`PUT /posts/{id}`: only the fields set are sent."""

    content: str | None = None
    status: str | None = None
    scheduled_at: RestDateTime | None = None
    labels: list[str] | None = None
    platforms: list[PlatformToggle] | None = None
    # The post's new media list: kept items by id, new ones by upload token.
    media: list[MediaKeep | MediaRef] | None = None


class LabelInput(RequestModel):
    name: str = Field(min_length=1, max_length=255)
    color: str = Field(pattern=r"^#[0-9A-Fa-f]{6}$")


class SignatureInput(RequestModel):
    name: str = Field(min_length=1)
    content: str


class WebhookInput(RequestModel):
    endpoint: str = Field(min_length=1, max_length=255)
    events: list[str] = Field(min_length=1)


class WebhookUpdate(RequestModel):
    endpoint: str | None = Field(default=None, max_length=255)
    events: list[str] | None = None
    status: Literal["enabled", "disabled"] | None = None
