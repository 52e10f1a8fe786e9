"""Per-network rules the sandbox enforces: content types, meta required to schedule, meta checks.

The spec gives examples (`x_post`, `pinterest_pin`, `instagram_reel`, `linkedin_post`) but no full
table; this module is the one place that decides it, and `GET /content-types` publishes it so a
client can discover the table instead of hard-coding it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from app.sandbox.errors import ARRAY, FORMAT, INVALID_CHOICE, MAX_CHARS, STRING, URL, FieldErrors

PLATFORMS: tuple[str, ...] = (
    "linkedin",
    "linkedin-page",
    "x",
    "facebook",
    "instagram",
    "instagram-facebook",
    "tiktok",
    "youtube",
    "threads",
    "pinterest",
    "bluesky",
    "mastodon",
    "telegram",
    "discord",
)

TIKTOK_PRIVACY_LEVELS: tuple[str, ...] = (
    "PUBLIC_TO_EVERYONE",
    "MUTUAL_FOLLOW_FRIENDS",
    "FOLLOWER_OF_CREATOR",
    "SELF_ONLY",
)


@dataclass(frozen=True)
class ContentType:
    value: str
    label: str


@dataclass(frozen=True)
class Network:
    platform: str
    content_types: tuple[ContentType, ...]
    # Meta keys that must be present before a post on this network may be scheduled/published.
    required_meta: tuple[str, ...] = field(default=())

    @property
    def default_content_type(self) -> str:
        return self.content_types[0].value

    def accepts(self, content_type: str) -> bool:
        return any(ct.value == content_type for ct in self.content_types)


def _types(*pairs: tuple[str, str]) -> tuple[ContentType, ...]:
    return tuple(ContentType(value, label) for value, label in pairs)


_INSTAGRAM = _types(
    ("instagram_post", "Feed post"), ("instagram_reel", "Reel"), ("instagram_story", "Story")
)

NETWORKS: dict[str, Network] = {
    n.platform: n
    for n in (
        Network("linkedin", _types(("linkedin_post", "Post"))),
        Network("linkedin-page", _types(("linkedin_page_post", "Page post"))),
        Network("x", _types(("x_post", "Post"))),
        Network(
            "facebook",
            _types(
                ("facebook_post", "Post"), ("facebook_reel", "Reel"), ("facebook_story", "Story")
            ),
        ),
        Network("instagram", _INSTAGRAM),
        Network("instagram-facebook", _INSTAGRAM),
        Network("tiktok", _types(("tiktok_video", "Video")), ("privacy_level",)),
        Network("youtube", _types(("youtube_video", "Video"), ("youtube_short", "Short"))),
        Network("threads", _types(("threads_post", "Post"))),
        Network("pinterest", _types(("pinterest_pin", "Pin")), ("board_id",)),
        Network("bluesky", _types(("bluesky_post", "Post"))),
        Network("mastodon", _types(("mastodon_post", "Post"))),
        Network("telegram", _types(("telegram_message", "Message"))),
        Network("discord", _types(("discord_message", "Message")), ("channel_id",)),
    )
}

_DIGITS = re.compile(r"^[0-9]+$")
_URL = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)


def network(platform: str) -> Network:
    return NETWORKS[platform]


def check_meta(
    errors: FieldErrors,
    platform: str,
    meta: dict[str, Any],
    prefix: str,
    *,
    board_ids: list[str] | None = None,
    channel_ids: list[str] | None = None,
) -> None:
    """Type checks on known meta keys; run always, independent of scheduling.

    `prefix` is the error key of the meta object, e.g. `destinations.0.meta`. Unknown keys are
    kept untouched: the full key reference is not in the spec.
    """
    if platform == "pinterest":
        _check_choice(errors, meta, "board_id", f"{prefix}.board_id", board_ids)
        title = meta.get("title")
        if title is not None:
            if not isinstance(title, str):
                errors.add(f"{prefix}.title", STRING)
            elif len(title) > 100:
                errors.add(f"{prefix}.title", MAX_CHARS, max=100)
        link = meta.get("link")
        if link is not None and (not isinstance(link, str) or not _URL.match(link)):
            errors.add(f"{prefix}.link", URL)
    elif platform == "tiktok":
        level = meta.get("privacy_level")
        if level is not None and level not in TIKTOK_PRIVACY_LEVELS:
            errors.add(f"{prefix}.privacy_level", INVALID_CHOICE)
    elif platform == "discord":
        _check_choice(errors, meta, "channel_id", f"{prefix}.channel_id", channel_ids)
    elif platform == "x":
        replies = meta.get("thread_replies")
        if replies is not None:
            if not isinstance(replies, list):
                errors.add(f"{prefix}.thread_replies", ARRAY)
            else:
                for i, reply in enumerate(replies):
                    text = reply.get("text") if isinstance(reply, dict) else None
                    if not isinstance(text, str):
                        errors.add(f"{prefix}.thread_replies.{i}.text", STRING)
    elif platform in ("instagram", "instagram-facebook"):
        audio = meta.get("audio")
        if audio is not None:
            audio_id = audio.get("id") if isinstance(audio, dict) else None
            if not isinstance(audio_id, str) or not _DIGITS.match(audio_id):
                errors.add(f"{prefix}.audio.id", FORMAT)


def _check_choice(
    errors: FieldErrors, meta: dict[str, Any], name: str, key: str, allowed: list[str] | None
) -> None:
    value = meta.get(name)
    if value is None:
        return
    if not isinstance(value, str) or not value:
        errors.add(key, STRING)
    elif allowed is not None and value not in allowed:
        errors.add(key, INVALID_CHOICE)


def missing_required_meta(platform: str, meta: dict[str, Any]) -> list[str]:
    return [key for key in network(platform).required_meta if meta.get(key) in (None, "")]


def media_type_for(mime_type: str) -> str:
    if mime_type.startswith("image/"):
        return "image"
    if mime_type.startswith("video/"):
        return "video"
    return "document"


def instagram_audio_eligibility(platform: str) -> str | None:
    """None when the account may search audio, otherwise the 422 message."""
    if platform == "instagram-facebook":
        return None
    if platform == "instagram":
        return (
            "Instagram audio search needs an Instagram account connected through Facebook "
            "(instagram-facebook); this account uses Instagram login."
        )
    return "Instagram audio search is only available for Instagram accounts."
