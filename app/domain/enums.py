"""Known values of the server's string enums.

Wire models keep these fields as plain `str` so that a value the server adds later never crashes
the client; `known()` maps a raw value onto the enum when it is one we know.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

E = TypeVar("E", bound=StrEnum)


def known(enum_type: type[E], raw: str | None) -> E | None:
    try:
        return enum_type(raw) if raw is not None else None
    except ValueError:
        return None


def describe(enum_type: type[StrEnum], raw: str | None) -> str:
    """Human label: the value itself when known, `unknown (raw)` otherwise; plain `unknown`
    when there is no value (null, or "": what an unreadable status is read as)."""
    if not raw:
        return "unknown"
    return raw if known(enum_type, raw) is not None else f"unknown ({raw})"


class PostStatus(StrEnum):
    DRAFT = "draft"
    SCHEDULED = "scheduled"
    PUBLISHING = "publishing"
    PUBLISHED = "published"
    PARTIALLY_PUBLISHED = "partially_published"
    FAILED = "failed"
    PENDING_APPROVAL = "pending_approval"


class PlatformStatus(StrEnum):
    PENDING = "pending"
    PUBLISHING = "publishing"
    PUBLISHED = "published"
    FAILED = "failed"


class Platform(StrEnum):
    LINKEDIN = "linkedin"
    LINKEDIN_PAGE = "linkedin-page"
    X = "x"
    FACEBOOK = "facebook"
    INSTAGRAM = "instagram"
    INSTAGRAM_FACEBOOK = "instagram-facebook"
    TIKTOK = "tiktok"
    YOUTUBE = "youtube"
    THREADS = "threads"
    PINTEREST = "pinterest"
    BLUESKY = "bluesky"
    MASTODON = "mastodon"
    TELEGRAM = "telegram"
    DISCORD = "discord"


PLATFORM_NAMES: dict[Platform, str] = {
    Platform.LINKEDIN: "LinkedIn",
    Platform.LINKEDIN_PAGE: "LinkedIn Page",
    Platform.X: "X",
    Platform.FACEBOOK: "Facebook",
    Platform.INSTAGRAM: "Instagram",
    Platform.INSTAGRAM_FACEBOOK: "Instagram (via Facebook)",
    Platform.TIKTOK: "TikTok",
    Platform.YOUTUBE: "YouTube",
    Platform.THREADS: "Threads",
    Platform.PINTEREST: "Pinterest",
    Platform.BLUESKY: "Bluesky",
    Platform.MASTODON: "Mastodon",
    Platform.TELEGRAM: "Telegram",
    Platform.DISCORD: "Discord",
}
"""The one list of networks' display names: the network table (`app.networks`) and the icons
(`ui.icons`) take theirs from here, so a network the spec adds is named once."""


def platform_name(raw: str | None) -> str:
    """How a network is named to the user; an identifier we do not know is shown as it came."""
    if not raw:
        return "Unknown network"
    platform = known(Platform, raw)
    return PLATFORM_NAMES[platform] if platform is not None else raw


class AccountStatus(StrEnum):
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    TOKEN_EXPIRED = "token_expired"


class MediaType(StrEnum):
    IMAGE = "image"
    VIDEO = "video"
    DOCUMENT = "document"


class WebhookStatus(StrEnum):
    ENABLED = "enabled"
    DISABLED = "disabled"
    PAUSED = "paused"


class WebhookEvent(StrEnum):
    POST_CREATED = "post.created"
    POST_SCHEDULED = "post.scheduled"
    POST_UNSCHEDULED = "post.unscheduled"
    POST_PUBLISHED = "post.published"
    POST_PARTIALLY_PUBLISHED = "post.partially_published"
    POST_FAILED = "post.failed"
    POST_DELETED = "post.deleted"


WEBHOOK_TEST_EVENT = "webhook.test"
"""Sent by a test ping; not subscribable and never logged."""


class AudioType(StrEnum):
    MUSIC = "music"
    ORIGINAL_SOUND = "original_sound"


class RepurposeItemStatus(StrEnum):
    PENDING = "pending"
    PROCESSING = "processing"
    PUBLISHED = "published"
    DRAFTED = "drafted"
    SKIPPED = "skipped"
    FAILED = "failed"


class RepurposeReason(StrEnum):
    PUBLISHED_VIA_SERVICE = "published_via_service"
    MEDIA_URL_MISSING = "media_url_missing"
    DOWNLOAD_FAILED = "download_failed"
    POST_CREATION_FAILED = "post_creation_failed"
    NO_USABLE_DESTINATIONS = "no_usable_destinations"


class QueuePlacement(StrEnum):
    NEXT = "next"
    TOP = "top"
