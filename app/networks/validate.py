"""Checks of one destination against its network's entry, with no network access.

Every problem is keyed by a path relative to the destination (`content`, `meta.board_id`,
`media.1`); callers prefix it (`destinations.2.`) so it matches the server's 422 keys.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.networks import messages as m
from app.networks.rules import FieldKind, MetaField, Network
from app.networks.table import find_network, network
from app.networks.text_length import Counting, count

_DIGITS = re.compile(r"^[0-9]+$")
_URL = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)


@dataclass(frozen=True)
class Problem:
    """One finding. `template` uses `{attr}` (see `messages`); `values` fill the rest."""

    path: str
    template: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def message(self, full_key: str | None = None) -> str:
        """The text as the server would word it for `full_key` (default: this path)."""
        return m.render(self.template, full_key or self.path, **self.values)

    def prefixed(self, prefix: str) -> Problem:
        return Problem(f"{prefix}{self.path}", self.template, self.values)


class MediaFacts(Protocol):
    """What the local media checks need to know about one file."""

    @property
    def mime(self) -> str: ...
    @property
    def size(self) -> int | None: ...
    @property
    def width(self) -> int | None: ...
    @property
    def height(self) -> int | None: ...
    @property
    def duration_s(self) -> float | None: ...


def has_text(content: str | None) -> bool:
    """Laravel `required`: present and not blank after trimming."""
    return isinstance(content, str) and content.strip() != ""


def text_length(content: str | None, platform: str | None = None) -> int:
    """The length of `content` (trimmed, DESIGN.md) as `platform` counts it against its limit
    (`app.networks.text_length`); code points for an unknown or unnamed network."""
    net = find_network(platform)
    return count(content, net.counting if net is not None else Counting.CODE_POINTS)


def check_meta(
    platform: str,
    meta: Mapping[str, Any],
    *,
    board_ids: Sequence[str] | None = None,
    channel_ids: Sequence[str] | None = None,
) -> list[Problem]:
    """Type checks of the known meta keys, run whatever the status. Paths are relative to
    the meta object (`board_id`, `thread_replies.0.text`); unknown keys are left alone."""
    net = find_network(platform)
    if net is None:
        return []
    problems: list[Problem] = []
    for spec in net.meta_fields:
        if spec.key in meta and meta[spec.key] is not None:
            problems.extend(_check_value(spec, meta[spec.key], board_ids, channel_ids))
    return problems


def _check_value(
    spec: MetaField,
    value: Any,
    board_ids: Sequence[str] | None,
    channel_ids: Sequence[str] | None,
) -> list[Problem]:
    key = spec.key
    kind = spec.kind
    if kind in (FieldKind.TEXT, FieldKind.URL):
        if not isinstance(value, str):
            return [Problem(key, m.STRING)]
        if spec.max_length is not None and len(value) > spec.max_length:
            return [Problem(key, m.MAX_CHARS, {"max": spec.max_length})]
        if kind is FieldKind.URL and not _URL.match(value):
            return [Problem(key, m.URL)]
        return []
    if kind is FieldKind.CHOICE:
        allowed = {c.value for c in spec.choices}
        return [] if value in allowed else [Problem(key, m.INVALID_CHOICE)]
    if kind in (FieldKind.BOARD, FieldKind.CHANNEL):
        allowed_ids = board_ids if kind is FieldKind.BOARD else channel_ids
        if not isinstance(value, str) or not value:
            return [Problem(key, m.STRING)]
        if allowed_ids is not None and value not in allowed_ids:
            return [Problem(key, m.INVALID_CHOICE)]
        return []
    if kind is FieldKind.THREAD_REPLIES:
        if not isinstance(value, list):
            return [Problem(key, m.ARRAY)]
        problems = []
        for i, reply in enumerate(value):
            text = reply.get("text") if isinstance(reply, dict) else None
            if not isinstance(text, str):
                problems.append(Problem(f"{key}.{i}.text", m.STRING))
            elif spec.max_length is not None and len(text.strip()) > spec.max_length:
                problems.append(Problem(f"{key}.{i}.text", m.MAX_CHARS, {"max": spec.max_length}))
        return problems
    if kind is FieldKind.AUDIO:
        audio_id = value.get("id") if isinstance(value, dict) else None
        if not isinstance(audio_id, str) or not _DIGITS.match(audio_id):
            return [Problem(f"{key}.id", m.FORMAT)]
    return []


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip() == "")


def missing_required(
    platform: str, meta: Mapping[str, Any], content_type: str | None = None
) -> list[str]:
    """Meta keys that must be set before scheduling/publishing and are not."""
    net = find_network(platform)
    if net is None:
        return []
    return [f.key for f in net.meta_fields if f.required(content_type) and _blank(meta.get(f.key))]


TEXT_TOO_LONG = (
    "Too long for {network} by {over}: {length} of at most {max} characters as {network} "
    "counts them."
)
MEDIA_TYPE = "This network does not take {kind} files ({mime}) as a {content_type}."
MEDIA_TOO_BIG = "The file is {size_mb:.1f} MB; {network} takes at most {max_mb:.0f} MB."
MEDIA_ASPECT = "The picture is {ratio:.2f}:1 (width:height); {network} needs {low} to {high}."
MEDIA_DURATION = "The video is {seconds:.0f} s long; {network} takes at most {max:.0f} s."
MEDIA_COUNT = "{network} takes at most {max_files}; {count_attached}."
MEDIA_NEEDED = "A {content_type} on {network} needs a {what}."
MEDIA_MIXED = "{network} does not mix pictures and videos in one post."


def _files(n: int) -> str:
    return "1 file" if n == 1 else f"{n} files"


def check_media(
    net: Network,
    content_type: str | None,
    media: Sequence[MediaFacts],
    *,
    kept_count: int = 0,
) -> list[Problem]:
    """Local limits of the content type (ours: the spec gives none) for the media the user
    adds; `kept_count` more are already on the server post and were accepted there: they are
    not judged again, and count towards the number only when files are added (issue 15 §3).
    Paths `media` / `media.N` (N indexes `media`)."""
    ct = content_type or net.default_content_type
    rules = net.media_rules(ct)
    ct_label = net.content_type_label(ct).lower()
    problems: list[Problem] = []
    total = len(media) + kept_count
    if media and total > rules.max_count:
        problems.append(
            Problem(
                "media",
                MEDIA_COUNT,
                {
                    "network": net.name,
                    "max_files": _files(rules.max_count),
                    "count_attached": f"{total} " + ("is" if total == 1 else "are") + " attached",
                },
            )
        )
    kinds = {("video" if item.mime.startswith("video/") else "image") for item in media}
    if not rules.allow_mixed and len(kinds) > 1:
        problems.append(Problem("media", MEDIA_MIXED, {"network": net.name}))
    for i, item in enumerate(media):
        path = f"media.{i}"
        if not rules.accepts_mime(item.mime):
            kind = item.mime.split("/")[0] or "these"
            problems.append(
                Problem(
                    path, MEDIA_TYPE, {"kind": kind, "mime": item.mime, "content_type": ct_label}
                )
            )
            continue
        limit = rules.max_bytes_for(item.mime)
        if item.size is not None and item.size > limit:
            problems.append(
                Problem(
                    path,
                    MEDIA_TOO_BIG,
                    {
                        "size_mb": item.size / 1048576,
                        "max_mb": limit / 1048576,
                        "network": net.name,
                    },
                )
            )
        if item.width and item.height and (rules.min_aspect or rules.max_aspect):
            ratio = item.width / item.height
            low = rules.min_aspect or 0.0
            high = rules.max_aspect or float("inf")
            if not low - 0.01 <= ratio <= high + 0.01:
                problems.append(
                    Problem(
                        path,
                        MEDIA_ASPECT,
                        {
                            "ratio": ratio,
                            "network": net.name,
                            "low": f"{low:.2f}:1",
                            "high": "any" if high == float("inf") else f"{high:.2f}:1",
                        },
                    )
                )
        if (
            item.mime.startswith("video/")
            and item.duration_s is not None
            and rules.max_duration_s is not None
            and item.duration_s > rules.max_duration_s + 0.5
        ):
            problems.append(
                Problem(
                    path,
                    MEDIA_DURATION,
                    {"seconds": item.duration_s, "max": rules.max_duration_s, "network": net.name},
                )
            )
    return problems


def media_needed(net: Network, content_type: str | None, media_count: int) -> Problem | None:
    """A content type that cannot go out without media (Instagram, TikTok, YouTube, pins)."""
    ct = content_type or net.default_content_type
    rules = net.media_rules(ct)
    if media_count >= rules.min_count:
        return None
    what = "video" if rules.video_only else "picture or video"
    return Problem(
        "media",
        MEDIA_NEEDED,
        {"content_type": net.content_type_label(ct).lower(), "network": net.name, "what": what},
    )


def validate_destination(
    platform: str,
    content_type: str | None,
    content: str | None,
    meta: Mapping[str, Any],
    media: Sequence[MediaFacts] = (),
    *,
    account_max_length: int | None = None,
    scheduling: bool = False,
    board_ids: Sequence[str] | None = None,
    channel_ids: Sequence[str] | None = None,
    kept_media: int = 0,
) -> list[Problem]:
    """Everything we can know locally about one destination; paths relative to it.

    `media` are the files the user adds (checked against the local rules); `kept_media` more
    are already on the server and count only towards "needs media" (see `check_media`).

    `scheduling` (schedule, queue or publish now) adds what the server demands only then:
    required settings, text or media, and media the content type cannot do without.
    """
    net = find_network(platform)
    if net is None:
        return []
    problems: list[Problem] = []
    if content_type is not None and not net.accepts(content_type):
        problems.append(Problem("content_type", m.INVALID_CHOICE))
        content_type = None
    limit = net.max_length(account_max_length)
    length = text_length(content, platform)
    # Every network refuses over-long text (X included: a 281 post is answered 422); moving the
    # overflow into a thread is the user's choice (`app.compose.thread_split`).
    if length > limit:
        problems.append(
            Problem(
                "content",
                TEXT_TOO_LONG,
                {"network": net.name, "length": length, "max": limit, "over": length - limit},
            )
        )
    problems.extend(
        p.prefixed("meta.")
        for p in check_meta(platform, meta, board_ids=board_ids, channel_ids=channel_ids)
    )
    problems.extend(check_media(net, content_type, media, kept_count=kept_media))
    if scheduling:
        if not has_text(content) and not media and not kept_media:
            problems.append(Problem("content", m.NEEDS_TEXT_OR_MEDIA))
        for key in missing_required(platform, meta, content_type):
            problems.append(Problem(f"meta.{key}", m.REQUIRED))
        needed = media_needed(net, content_type, len(media) + kept_media)
        if needed is not None:
            problems.append(needed)
    return problems


__all__ = [
    "MediaFacts",
    "Problem",
    "check_media",
    "check_meta",
    "has_text",
    "media_needed",
    "missing_required",
    "network",
    "text_length",
    "validate_destination",
]
