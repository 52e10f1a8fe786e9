"""The composer document: what the user is writing, saved as JSON in the durable drafts store.

A destination's `content` and `media` are overrides: `None` means "use the shared value", and
resetting an override sets it back to `None`. Labels are ids. Signatures are plain text the
editor inserts, so they need no field here. No Qt, no HTTP.
"""

from __future__ import annotations

import uuid
from enum import StrEnum
from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from app.networks import find_network, media_type_for

DOCUMENT_VERSION = 1


def _new_id() -> str:
    return uuid.uuid4().hex


class _Model(BaseModel):
    # Tolerant on read so an older app reading a newer draft keeps what it does not know.
    model_config = ConfigDict(extra="allow", validate_assignment=True)


class MediaAttachment(_Model):
    """One file: a local path until uploaded; `upload_token` once uploaded (valid for one
    send). `server_media_id` marks media already on an existing post (editing)."""

    id: str = Field(default_factory=_new_id)
    path: str | None = None
    alt: str = ""
    mime: str = "application/octet-stream"
    size: int | None = None
    width: int | None = None
    height: int | None = None
    duration_s: float | None = None
    upload_token: str | None = None
    server_media_id: str | None = None
    url: str | None = None

    @property
    def kind(self) -> str:
        """`image`, `video` or `document`."""
        return media_type_for(self.mime)

    @property
    def needs_upload(self) -> bool:
        return self.upload_token is None and self.server_media_id is None


class ScheduleMode(StrEnum):
    DRAFT = "draft"  # with `at` set: a dated draft (scheduled_at stored, not scheduled)
    AT = "at"
    QUEUE_NEXT = "queue_next"
    QUEUE_TOP = "queue_top"
    PUBLISH_NOW = "publish_now"


class Schedule(_Model):
    mode: ScheduleMode = ScheduleMode.DRAFT
    at: AwareDatetime | None = None

    @property
    def sends_out(self) -> bool:
        """Scheduling, queueing or publishing: the server's stricter rules apply (batch rule 3)."""
        return self.mode is not ScheduleMode.DRAFT


class DestinationDraft(_Model):
    """One target account. `content`/`media` None = the shared value; `meta` is per network.
    `post_platform_id` is set when editing an existing post's platform entry."""

    account_id: str
    platform: str
    content_type: str
    content: str | None = None
    media: list[MediaAttachment] | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
    enabled: bool = True
    post_platform_id: str | None = None

    @property
    def overrides_content(self) -> bool:
        """A blank override counts as none: the server trims it to null and keeps the shared
        text (Laravel's TrimStrings + ConvertEmptyStringsToNull, DESIGN.md)."""
        return self.content is not None and self.content.strip() != ""

    @property
    def overrides_media(self) -> bool:
        return self.media is not None

    def reset_content(self) -> None:
        self.content = None

    def reset_media(self) -> None:
        self.media = None


class ComposerDocument(_Model):
    """Everything the composer edits; `to_json()`/`from_json()` for the drafts store."""

    version: int = DOCUMENT_VERSION
    draft_id: str = Field(default_factory=_new_id)
    title: str = ""
    content: str = ""
    media: list[MediaAttachment] = Field(default_factory=list)
    labels: list[str] = Field(default_factory=list)
    destinations: list[DestinationDraft] = Field(default_factory=list)
    schedule: Schedule = Field(default_factory=Schedule)
    editing_post_id: str | None = None
    # The server's `updated_at` of the post when it was opened for editing (conflict checks).
    based_on_updated_at: AwareDatetime | None = None

    # -- effective values ----------------------------------------------------------------

    def content_for(self, index: int) -> str:
        dest = self.destinations[index]
        return dest.content if dest.content is not None and dest.overrides_content else self.content

    def media_for(self, index: int) -> list[MediaAttachment]:
        dest = self.destinations[index]
        return list(dest.media) if dest.media is not None else list(self.media)

    def all_media(self) -> list[MediaAttachment]:
        """Shared media and every override, each attachment once (for uploading)."""
        seen: dict[str, MediaAttachment] = {m.id: m for m in self.media}
        for dest in self.destinations:
            for item in dest.media or []:
                seen.setdefault(item.id, item)
        return list(seen.values())

    # -- editing helpers ----------------------------------------------------------------

    def add_destination(
        self, account_id: str, platform: str, content_type: str | None = None
    ) -> DestinationDraft:
        """Adds a target with the network's default content type and settings defaults."""
        net = find_network(platform)
        if content_type is None:
            content_type = net.default_content_type if net is not None else ""
        meta: dict[str, Any] = {}
        if net is not None:
            for spec in net.fields_for(content_type):
                if spec.default is not None:
                    meta[spec.key] = spec.default
        dest = DestinationDraft(
            account_id=account_id, platform=platform, content_type=content_type, meta=meta
        )
        self.destinations = [*self.destinations, dest]
        return dest

    def remove_destination(self, account_id: str) -> None:
        self.destinations = [d for d in self.destinations if d.account_id != account_id]

    def index_of(self, account_id: str) -> int | None:
        return next(
            (i for i, d in enumerate(self.destinations) if d.account_id == account_id), None
        )

    def is_empty(self) -> bool:
        return (
            not self.content.strip()
            and not self.media
            and all(d.content is None and d.media is None for d in self.destinations)
        )

    # -- persistence ----------------------------------------------------------------------

    def to_json(self) -> str:
        return self.model_dump_json()

    @classmethod
    def from_json(cls, text: str | bytes) -> ComposerDocument:
        return cls.model_validate_json(text)
