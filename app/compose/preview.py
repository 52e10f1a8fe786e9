"""What each destination will send, exactly: its text as the wire carries it, the media in order
and the thread replies after it. Nothing is split or numbered here; text past the network's
limit is shown apart (`over_text`) because the send is blocked until it is shortened or moved
into a thread by the user (`split_into_thread`, issue 15 §2)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from app.compose.document import ComposerDocument, MediaAttachment
from app.models.accounts import SocialAccountSummary
from app.networks import find_network
from app.networks.table import X_REPLY_MAX
from app.networks.text_length import Counting, count, fit


@dataclass(frozen=True)
class PreviewPart:
    """One post as published: the post itself or one of its thread replies."""

    text: str
    media: list[MediaAttachment] = field(default_factory=list)
    label: str = ""  # "Reply 1", "" for the post itself


@dataclass(frozen=True)
class DestinationPreview:
    account_id: str
    platform: str
    network_name: str
    content_type: str
    limit: int
    length: int
    parts: list[PreviewPart]
    # Text past the limit: part of what would be sent, which is why sending is blocked.
    cut_off: str = ""

    @property
    def over_by(self) -> int:
        return max(0, self.length - self.limit)

    @property
    def blocked(self) -> bool:
        """The server would refuse this text; the composer does not send it."""
        return self.over_by > 0

    @property
    def sent_text(self) -> str:
        """The post's text exactly as it goes on the wire (trimmed, like the server keeps it)."""
        return self.parts[0].text + self.cut_off if self.parts else ""


def split_thread(text: str, limit: int, counting: Counting = Counting.CODE_POINTS) -> list[str]:
    """Cut `text` into parts that each count at most `limit`, at paragraph, sentence or word
    ends where possible. No numbering is added: what the parts say is what is posted."""
    rest = text.strip()
    parts: list[str] = []
    while rest:
        if count(rest, counting) <= limit:
            parts.append(rest)
            break
        room = fit(rest, limit, counting)
        cut = _cut_point(rest, max(1, room))
        parts.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    return parts


def _cut_point(text: str, room: int) -> int:
    window = text[: room + 1]
    for pattern in (r"\n\s*\n", r"[.!?…]\s", r"\s"):
        matches = [m.end() for m in re.finditer(pattern, window) if m.end() <= room]
        # Only a break in the second half of the part; otherwise parts get silly short.
        good = [end for end in matches if end > room // 2]
        if good:
            return good[-1]
    return room


def split_into_thread(
    doc: ComposerDocument, index: int, account: SocialAccountSummary | None = None
) -> bool:
    """Move the text of destination `index` past its limit into `meta.thread_replies` (before
    any replies already there), only for a network that takes thread replies. The moved text
    becomes this destination's own text. False when nothing had to move."""
    dest = doc.destinations[index]
    net = find_network(dest.platform)
    if net is None or not net.splits_into_thread:
        return False
    account_max = account.max_content_length if account is not None else None
    limit = net.max_length(account_max)
    text = doc.content_for(index).strip()
    if count(text, net.counting) <= limit:
        return False
    first, *rest = split_thread(text, limit, net.counting)
    replies = []
    for piece in rest:
        replies.extend(split_thread(piece, X_REPLY_MAX, net.counting))
    existing = dest.meta.get("thread_replies")
    dest.content = first
    dest.meta["thread_replies"] = [{"text": r, "media": []} for r in replies] + (
        list(existing) if isinstance(existing, list) else []
    )
    return True


def _replies(meta: dict[str, Any]) -> list[PreviewPart]:
    replies = meta.get("thread_replies")
    if not isinstance(replies, list):
        return []
    result = []
    for i, reply in enumerate(replies, start=1):
        if isinstance(reply, dict):
            result.append(PreviewPart(str(reply.get("text") or "").strip(), label=f"Reply {i}"))
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
    counting = net.counting if net is not None else Counting.CODE_POINTS
    length = count(text, counting)
    limit = net.max_length(account_max) if net is not None else max(length, 1)
    name = net.name if net is not None else dest.platform
    within = fit(text, limit, counting) if length > limit else len(text)
    parts = [PreviewPart(text[:within], media)]
    parts.extend(_replies(dest.meta))
    return DestinationPreview(
        account_id=dest.account_id,
        platform=dest.platform,
        network_name=name,
        content_type=dest.content_type,
        limit=limit,
        length=length,
        parts=parts,
        cut_off=text[within:],
    )
