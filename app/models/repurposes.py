"""Repurposes and their activity items (spec §2, §4 Repurposes)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field

from app.models.base import Id, ListOrNull, WireModel


class Repurpose(WireModel):
    """Shape not given by the spec: an id plus whatever the server sends."""

    id: Id
    name: str | None = None


class ReplicaPlatform(WireModel):
    platform: str | None = None
    status: str | None = None


class Replica(WireModel):
    id: Id
    platforms: Annotated[list[ReplicaPlatform], ListOrNull] = Field(default_factory=list)


class RepurposeItem(WireModel):
    id: Id
    repurpose_id: str | None = None
    source_media_id: str | None = None
    source_permalink: str | None = None
    source_created_at: datetime | None = None
    status: str | None = None
    reason: str | None = None
    error: str | None = None
    posts: Annotated[list[Replica], ListOrNull] = Field(default_factory=list)
    created_at: datetime | None = None
    updated_at: datetime | None = None
