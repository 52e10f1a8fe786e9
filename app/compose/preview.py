"""What each network will show: the text cut at its limit (X: numbered thread parts), the media
in order, and the thread replies after it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from app.compose.document import ComposerDocument, MediaAttachment
from app.models.accounts import SocialAccountSummary
from app.networks import find_network

# Room kept for the " 1/12" counter X parts carry.
_COUNTER_ROOM = 6


@dataclass(frozen=True)
class PreviewPart:
    """One post as published: the first post, a thread part, or a reply."""

    text: str
    media: list[MediaAttachment] = field(default_factory=list)
    label: str = ""  # "1/3", "Reply 1", "" for a single post


@dataclass(frozen=True)
class DestinationPreview:
    account_id: str
    platform: str
    network_name: str
    content_type: str
    limit: int
    length: int
    parts: list[PreviewPart]
    # Text past the limit that a network without threads would cut off (shown struck out).
    cut_off: str = ""

    @property
    def over_by(self) -> int:
        return max(0, self.length - self.limit)


def split_thread(text: str, limit: int) -> list[str]:
    """Cut `text` into parts of at most `limit` characters including a ` i/n` counter, at
    paragraph, sentence or word ends where possible; a single part carries no counter."""
    text = text.strip()
    if len(text) <= limit:
        return [text] if text else []
    room = max(1, limit - _COUNTER_ROOM)
    parts: list[str] = []
    rest = text
    while rest:
        if len(rest) <= room:
            parts.append(rest)
            break
        cut = _cut_point(rest, room)
        parts.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    total = len(parts)
    return [f"{part} {i}/{total}" for i, part in enumerate(parts, start=1)]


def _cut_point(text: str, room: int) -> int:
    window = text[: room + 1]
    for pattern in (r"\n\s*\n", r"[.!?…]\s", r"\s"):
        matches = [m.end() for m in re.finditer(pattern, window) if m.end() <= room]
        # Only a break in the second half of the part; otherwise parts get silly short.
        good = [end for end in matches if end > room // 2]
        if good:
            return good[-1]
    return room


def _replies(meta: dict[str, Any]) -> list[PreviewPart]:
    replies = meta.get("thread_replies")
    if not isinstance(replies, list):
        return []
    result = []
    for i, reply in enumerate(replies, start=1):
        if isinstance(reply, dict):
            result.append(PreviewPart(str(reply.get("text") or ""), label=f"Reply {i}"))
    return result


def preview(
    doc: ComposerDocument, index: int, account: SocialAccountSummary | None = None
) -> DestinationPreview:
    """The preview of destination `index` (account: for its `max_content_length`)."""
    dest = doc.destinations[index]
    net = find_network(dest.platform)
    text = doc.content_for(index).strip()
    media = doc.media_for(index)
    account_max = account.max_content_length if account is not None else None
    limit = net.max_length(account_max) if net is not None else max(len(text), 1)
    name = net.name if net is not None else dest.platform
    cut_off = ""
    if net is not None and net.splits_into_thread and len(text) > limit:
        pieces = split_thread(text, limit)
        parts = [
            PreviewPart(piece, media if i == 0 else [], label=f"{i + 1}/{len(pieces)}")
            for i, piece in enumerate(pieces)
        ]
    else:
        cut_off = text[limit:]
        parts = [PreviewPart(text[:limit], media)]
    parts.extend(_replies(dest.meta))
    return DestinationPreview(
        account_id=dest.account_id,
        platform=dest.platform,
        network_name=name,
        content_type=dest.content_type,
        limit=limit,
        length=len(text),
        parts=parts,
        cut_off=cut_off,
    )
