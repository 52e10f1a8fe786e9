"""Existing posts -> composer documents: *Edit* (same post) and *Duplicate* (a new one)."""

from __future__ import annotations

from app.compose.document import (
    ComposerDocument,
    DestinationDraft,
    MediaAttachment,
    Schedule,
    ScheduleMode,
)
from app.models.posts import MediaItem, Post
from app.networks import find_network


def _attachment(item: MediaItem) -> MediaAttachment:
    meta = item.meta or {}
    width = meta.get("width")
    height = meta.get("height")
    return MediaAttachment(
        server_media_id=item.id,
        url=item.url,
        alt=str(meta.get("alt_text") or ""),
        mime=item.mime_type or "application/octet-stream",
        size=item.size,
        width=width if isinstance(width, int) else None,
        height=height if isinstance(height, int) else None,
        path=item.original_filename,
    )


def _schedule(post: Post) -> Schedule:
    if post.status == "scheduled" and post.scheduled_at is not None:
        return Schedule(mode=ScheduleMode.AT, at=post.scheduled_at)
    return Schedule(mode=ScheduleMode.DRAFT, at=post.scheduled_at)


def document_from_post(post: Post) -> ComposerDocument:
    """A document editing `post` (saved with `batch.build_update`): one destination per
    platform entry, its shared text and media, labels, schedule and `updated_at`."""
    destinations = []
    for entry in post.platforms:
        account_id = entry.social_account.id if entry.social_account is not None else ""
        net = find_network(entry.platform)
        content_type = entry.content_type or (net.default_content_type if net else "")
        destinations.append(
            DestinationDraft(
                account_id=account_id,
                platform=entry.platform,
                content_type=content_type,
                meta=dict(entry.meta),
                enabled=entry.enabled,
                post_platform_id=entry.id,
            )
        )
    return ComposerDocument(
        content=post.content or "",
        media=[_attachment(m) for m in post.media],
        labels=[label.id for label in post.labels],
        destinations=destinations,
        schedule=_schedule(post),
        editing_post_id=post.id,
        based_on_updated_at=post.updated_at,
    )


def duplicate_document(post: Post) -> ComposerDocument:
    """A new draft with the same text, accounts, content types, settings and labels. Media of
    the old post cannot be reused (the API references media only by upload token)."""
    doc = document_from_post(post)
    return ComposerDocument(
        content=doc.content,
        labels=doc.labels,
        destinations=[
            d.model_copy(update={"post_platform_id": None, "enabled": True})
            for d in doc.destinations
            if d.account_id
        ],
    )


EDITABLE_CHARS = 100_000
"""The longest text the composer opens for editing. No network takes more than 63,206
characters in a post (Facebook), so a longer text can never be sent as it is; laying out
megabytes in an editor (with spell checking and counting on every keystroke) would freeze the
window instead (issue 19 §3: a 10 MB post)."""


def too_long_to_edit(doc: ComposerDocument) -> str | None:
    """The longest text of `doc` when it is past `EDITABLE_CHARS` (the shared text or a
    destination's own), else None."""
    texts = [doc.content, *(d.content or "" for d in doc.destinations)]
    longest = max(texts, key=len)
    return longest if len(longest) > EDITABLE_CHARS else None


def too_long_message(chars: int) -> str:
    return (
        f"This post's text is {chars:,} characters long, more than any network accepts "
        f"(the most, on Facebook, is 63,206), so Postdesk does not open it for editing: nothing "
        "of it is changed or lost. Its start is shown here; copy it whole to shorten it "
        "elsewhere, then paste the shorter text into a new post."
    )
