"""Document -> request bodies: `POST /posts/batch` for new posts, `PUT /posts/{id}` for editing,
and the read-back comparison after an edit (DESIGN.md "Editing a post").

Media must be uploaded first (`pending_uploads()`); the bodies reference it by upload token.
`scheduled_at` is written `Y-m-d H:i:s` in the profile's server time zone by the request models'
`to_wire(server_tz)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from app.compose.document import ComposerDocument, MediaAttachment, ScheduleMode
from app.models.posts import Post
from app.models.requests import (
    BatchRequest,
    Destination,
    MediaKeep,
    MediaRef,
    PlatformToggle,
    PostUpdate,
)


class MediaNotUploaded(Exception):
    """Some attachments have no upload token yet; upload them, then build again."""

    def __init__(self, attachments: Sequence[MediaAttachment]) -> None:
        self.attachments = list(attachments)
        names = ", ".join(a.path or a.id for a in self.attachments)
        super().__init__(f"Not uploaded yet: {names}")


def pending_uploads(doc: ComposerDocument) -> list[MediaAttachment]:
    """Attachments (shared and overrides, each once) that still need `POST /uploads`."""
    return [m for m in doc.all_media() if m.needs_upload]


def _refs(items: Sequence[MediaAttachment]) -> list[MediaRef]:
    missing = [m for m in items if m.upload_token is None]
    if missing:
        raise MediaNotUploaded(missing)
    return [MediaRef(upload_token=m.upload_token or "", alt=m.alt) for m in items]


@dataclass(frozen=True)
class _StatusFields:
    status: str | None = None
    queue: Literal["next", "top"] | None = None
    scheduled_at: datetime | None = None


def _status_fields(doc: ComposerDocument) -> _StatusFields:
    schedule = doc.schedule
    match schedule.mode:
        case ScheduleMode.AT:
            return _StatusFields("scheduled", scheduled_at=schedule.at)
        case ScheduleMode.QUEUE_NEXT:
            return _StatusFields("scheduled", queue="next")
        case ScheduleMode.QUEUE_TOP:
            return _StatusFields("scheduled", queue="top")
        case ScheduleMode.PUBLISH_NOW:
            return _StatusFields("publishing")
        case _:
            # Status omitted = draft (the default); a dated draft keeps its time.
            return _StatusFields(scheduled_at=schedule.at)


def build_batch(doc: ComposerDocument) -> BatchRequest:
    """The `POST /posts/batch` body. Destinations carry only what they override (content,
    media) plus their content type and settings; disabled destinations are left out.
    Raises `MediaNotUploaded` when an attachment has no upload token, `ValueError` when no
    destination is enabled."""
    destinations = []
    for dest in doc.destinations:
        if not dest.enabled:
            continue
        destinations.append(
            Destination(
                social_account_id=dest.account_id,
                content_type=dest.content_type,
                content=dest.content if dest.overrides_content else None,
                media=_refs(dest.media) if dest.media is not None else None,
                meta=dict(dest.meta) or None,
            )
        )
    if not destinations:
        raise ValueError("Choose at least one account to post to.")
    status = _status_fields(doc)
    return BatchRequest(
        destinations=destinations,
        content=doc.content if doc.content.strip() else None,
        media=_refs(doc.media) or None,
        status=status.status,
        queue=status.queue,
        scheduled_at=status.scheduled_at,
        labels=list(doc.labels) or None,
    )


def destination_indexes(doc: ComposerDocument) -> dict[int, int]:
    """Batch destination index -> document destination index (disabled ones are skipped), to
    map a 422's `destinations.N` back onto the document."""
    enabled = [i for i, d in enumerate(doc.destinations) if d.enabled]
    return dict(enumerate(enabled))


# A published or publishing post cannot go back to draft; its status is then left alone.
_CAN_RETURN_TO_DRAFT = frozenset({"draft", "scheduled", "failed"})


@dataclass(frozen=True)
class UpdatePlan:
    """A `PUT /posts/{id}` body and how its `platforms.N` map to document destinations."""

    update: PostUpdate
    platform_indexes: dict[int, int] = field(default_factory=dict)


def build_update(doc: ComposerDocument, original: Post) -> UpdatePlan:
    """The `PUT /posts/{id}` body for a document opened from `original` (see
    `document_from_post`). A post has one text: the shared text, or the first destination's
    override when the shared one is empty. Sends content, status and time, labels, media, and
    every platform entry with its enabled flag, content type and settings."""
    if doc.editing_post_id is None:
        raise ValueError("This document is not editing an existing post.")
    content = doc.content
    if not content.strip():
        content = next((d.content for d in doc.destinations if d.content), content)
    platforms: list[PlatformToggle] = []
    indexes: dict[int, int] = {}
    for i, dest in enumerate(doc.destinations):
        if dest.post_platform_id is None:
            continue
        indexes[len(platforms)] = i
        platforms.append(
            PlatformToggle(
                id=dest.post_platform_id,
                enabled=dest.enabled,
                content_type=dest.content_type,
                meta=dict(dest.meta),
            )
        )
    media: list[MediaKeep | MediaRef] = []
    for item in doc.media:
        if item.server_media_id is not None:
            media.append(MediaKeep(id=item.server_media_id))
        else:
            media.extend(_refs([item]))
    status = _status_fields(doc)
    new_status = status.status
    if new_status is None and original.status in _CAN_RETURN_TO_DRAFT:
        new_status = "draft"
    update = PostUpdate(
        content=content,
        status=new_status,
        scheduled_at=status.scheduled_at,
        labels=list(doc.labels),
        platforms=platforms or None,
        media=media,
    )
    if status.status == "scheduled" and status.queue is not None:
        # PUT has no queue field: keep the post's queue time (or refuse below).
        if original.scheduled_at is None:
            raise ValueError("Queueing an existing post is not possible; choose a time instead.")
        update = update.model_copy(update={"scheduled_at": original.scheduled_at})
    if status.status == "publishing":
        update = update.model_copy(update={"scheduled_at": None})
    return UpdatePlan(update, indexes)


def ignored_fields(sent: PostUpdate, after: Post) -> list[str]:
    """Fields of `sent` that the read-back `after` does not reflect: what a deployment ignored.

    Names are `content`, `scheduled_at`, `status`, `labels`, `media`,
    `platforms.N.enabled|content_type|meta`. A `publishing` status counts as applied when the
    post has moved on to any outcome.
    """
    ignored: list[str] = []
    if sent.content is not None and (after.content or "").strip() != sent.content.strip():
        ignored.append("content")
    if sent.scheduled_at is not None and (
        after.scheduled_at is None or after.scheduled_at != sent.scheduled_at
    ):
        ignored.append("scheduled_at")
    if sent.status is not None and not _status_applied(sent.status, after.status):
        ignored.append("status")
    if sent.labels is not None and {lb.id for lb in after.labels} != set(sent.labels):
        ignored.append("labels")
    if sent.media is not None and len(after.media) != len(sent.media):
        ignored.append("media")
    by_id = {p.id: p for p in after.platforms}
    for i, entry in enumerate(sent.platforms or []):
        got = by_id.get(entry.id)
        if got is None:
            ignored.append(f"platforms.{i}")
            continue
        if got.enabled != entry.enabled:
            ignored.append(f"platforms.{i}.enabled")
        if entry.content_type is not None and got.content_type != entry.content_type:
            ignored.append(f"platforms.{i}.content_type")
        if entry.meta is not None and _meta_differs(entry.meta, got.meta):
            ignored.append(f"platforms.{i}.meta")
    return ignored


def _status_applied(sent: str, got: str) -> bool:
    if sent == got:
        return True
    return sent == "publishing" and got in ("published", "partially_published", "failed")


def _meta_differs(sent: dict[str, Any], got: dict[str, Any]) -> bool:
    # Servers may add keys of their own; only what we sent must be there as sent.
    return any(got.get(key) != value for key, value in sent.items())


_IGNORED_WORDS = {
    "content": "the text",
    "scheduled_at": "the time",
    "status": "the status",
    "labels": "the labels",
    "media": "the media",
}
_PLATFORM_WORDS = {
    "": "the {net} destination",
    "enabled": "switching {net} on or off",
    "content_type": "the {net} content type",
    "meta": "the {net} settings",
}

_UNKNOWN_PLATFORM_WORDS = {
    "": "a destination",
    "enabled": "switching a destination on or off",
    "content_type": "a destination's content type",
    "meta": "a destination's settings",
}


def describe_ignored(names: list[str], platform_names: dict[int, str]) -> str:
    """`ignored_fields` names in words ("the Pinterest settings", not "platforms.0.meta");
    `platform_names`: a platform entry's index -> the network (and account) it is for."""
    words: list[str] = []
    for name in names:
        if name in _IGNORED_WORDS:
            text = _IGNORED_WORDS[name]
        else:
            _, index, rest = ([*name.split(".", 2), "", ""])[:3]
            net = platform_names.get(int(index)) if index.isdigit() else None
            if net is None:
                text = _UNKNOWN_PLATFORM_WORDS.get(rest, "a destination's settings")
            else:
                text = _PLATFORM_WORDS.get(rest, "a setting of {net}").format(net=net)
        if text not in words:
            words.append(text)
    return ", ".join(words)
