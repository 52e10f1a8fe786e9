"""The per-network table: one entry per platform identifier of the spec (§2).

The spec names the identifiers, a few content types (`linkedin_post`, `x_post`, `pinterest_pin`,
`instagram_reel`) and the meta keys (Pinterest `board_id`/`title`/`link`, TikTok
`privacy_level`, Discord `channel_id`, X `thread_replies`, Instagram reel `audio.id`). Everything
else here — the other content types, default text limits, media limits — is ours, chosen from
the networks' public limits; `GET /content-types` is checked against it where offered
(`app.networks.discovery`).
"""

from __future__ import annotations

from app.domain.enums import PLATFORM_NAMES, Platform
from app.networks.rules import (
    ALL_CONTENT_TYPES,
    Choice,
    ContentType,
    FieldKind,
    MediaRules,
    MetaField,
    Network,
)
from app.networks.text_length import Counting

PLATFORMS: tuple[str, ...] = tuple(platform.value for platform in Platform)
"""The spec's identifiers, in its order: `app.domain.enums.Platform` is the one list."""

TIKTOK_PRIVACY_LEVELS: tuple[Choice, ...] = (
    Choice("PUBLIC_TO_EVERYONE", "Everyone"),
    Choice("MUTUAL_FOLLOW_FRIENDS", "Friends"),
    Choice("FOLLOWER_OF_CREATOR", "Followers"),
    Choice("SELF_ONLY", "Only me"),
)

PINTEREST_TITLE_MAX = 100
X_REPLY_MAX = 280
AUDIO_ACCOUNT_PLATFORM = Platform.INSTAGRAM_FACEBOOK.value


def _named(platform: Platform) -> tuple[str, str]:
    """An entry's identifier and display name, both from `app.domain` (named there once)."""
    return platform.value, PLATFORM_NAMES[platform]


def _types(*pairs: tuple[str, str]) -> tuple[ContentType, ...]:
    return tuple(ContentType(value, label) for value, label in pairs)


_VIDEO = MediaRules(video_only=True, min_count=1, max_count=1)
_VERTICAL_VIDEO = MediaRules(
    video_only=True, min_count=1, max_count=1, min_aspect=0.5, max_aspect=0.6, max_duration_s=90
)

_INSTAGRAM_TYPES = _types(
    ("instagram_post", "Feed post"), ("instagram_reel", "Reel"), ("instagram_story", "Story")
)
_INSTAGRAM_MEDIA = {
    "instagram_post": MediaRules(min_count=1, max_count=10, min_aspect=0.8, max_aspect=1.91),
    "instagram_reel": _VERTICAL_VIDEO,
    "instagram_story": MediaRules(
        min_count=1, max_count=1, min_aspect=0.5, max_aspect=0.6, max_duration_s=60
    ),
}


def _audio_field(help_text: str) -> MetaField:
    return MetaField(
        "audio",
        "Audio",
        FieldKind.AUDIO,
        only_for=frozenset({"instagram_reel"}),
        help=help_text,
    )


NETWORKS: dict[str, Network] = {
    n.platform: n
    for n in (
        Network(
            *_named(Platform.LINKEDIN),
            _types(("linkedin_post", "Post")),
            3000,
            counting=Counting.CODE_POINTS,
            limit_source="LinkedIn Posts API: commentary up to 3,000 characters",
            media={"*": MediaRules(max_count=9, document_types=frozenset({"application/pdf"}))},
        ),
        Network(
            *_named(Platform.LINKEDIN_PAGE),
            _types(("linkedin_page_post", "Page post")),
            3000,
            counting=Counting.CODE_POINTS,
            limit_source="LinkedIn Posts API: commentary up to 3,000 characters",
            media={"*": MediaRules(max_count=9, document_types=frozenset({"application/pdf"}))},
        ),
        Network(
            *_named(Platform.X),
            _types(("x_post", "Post")),
            280,
            counting=Counting.X_WEIGHTED,
            limit_source=(
                "X developer docs, counting characters (twitter-text v3): weighted length 280, "
                "links 23"
            ),
            meta_fields=(
                MetaField(
                    "thread_replies",
                    "Thread replies",
                    FieldKind.THREAD_REPLIES,
                    max_length=X_REPLY_MAX,
                    help="Posted as replies under the first post, in this order.",
                ),
            ),
            media={
                "*": MediaRules(
                    max_count=4,
                    max_image_bytes=5 * 1024 * 1024,
                    max_duration_s=140,
                    allow_mixed=False,
                )
            },
            splits_into_thread=True,
        ),
        Network(
            *_named(Platform.FACEBOOK),
            _types(
                ("facebook_post", "Post"), ("facebook_reel", "Reel"), ("facebook_story", "Story")
            ),
            63206,
            counting=Counting.CODE_POINTS,
            limit_source="Facebook Graph API: post message up to 63,206 characters",
            media={
                "facebook_post": MediaRules(max_count=10),
                "facebook_reel": _VERTICAL_VIDEO,
                "facebook_story": MediaRules(min_count=1, max_count=1, max_duration_s=60),
            },
        ),
        Network(
            *_named(Platform.INSTAGRAM),
            _INSTAGRAM_TYPES,
            2200,
            counting=Counting.CODE_POINTS,
            limit_source="Instagram Graph API, content publishing: caption up to 2,200 characters",
            meta_fields=(
                _audio_field(
                    "Audio can only be chosen for Instagram accounts connected through Facebook."
                ),
            ),
            media=_INSTAGRAM_MEDIA,
        ),
        Network(
            *_named(Platform.INSTAGRAM_FACEBOOK),
            _INSTAGRAM_TYPES,
            2200,
            counting=Counting.CODE_POINTS,
            limit_source="Instagram Graph API, content publishing: caption up to 2,200 characters",
            meta_fields=(_audio_field("Music or an original sound from Instagram's catalog."),),
            media=_INSTAGRAM_MEDIA,
        ),
        Network(
            *_named(Platform.TIKTOK),
            _types(("tiktok_video", "Video")),
            2200,
            counting=Counting.UTF16_UNITS,
            limit_source="TikTok Content Posting API: title up to 2,200 UTF-16 runes",
            meta_fields=(
                MetaField(
                    "privacy_level",
                    "Privacy level",
                    FieldKind.CHOICE,
                    required_for=ALL_CONTENT_TYPES,
                    choices=TIKTOK_PRIVACY_LEVELS,
                    default=None,
                    help="TikTok requires you to choose; there is no default.",
                ),
            ),
            media={
                "*": MediaRules(
                    video_only=True,
                    min_count=1,
                    max_count=1,
                    max_video_bytes=1024 * 1024 * 1024,
                    max_duration_s=600,
                )
            },
        ),
        Network(
            *_named(Platform.YOUTUBE),
            _types(("youtube_video", "Video"), ("youtube_short", "Short")),
            5000,
            counting=Counting.UTF8_BYTES,
            limit_source="YouTube Data API, videos resource: description up to 5,000 bytes",
            media={
                "youtube_video": MediaRules(
                    video_only=True, min_count=1, max_count=1, max_video_bytes=2 * 1024**3
                ),
                "youtube_short": MediaRules(
                    video_only=True, min_count=1, max_count=1, max_aspect=1.0, max_duration_s=60
                ),
            },
        ),
        Network(
            *_named(Platform.THREADS),
            _types(("threads_post", "Post")),
            500,
            counting=Counting.CODE_POINTS,
            limit_source="Threads API, posts: text up to 500 characters",
            media={"*": MediaRules(max_count=10, max_duration_s=300)},
        ),
        Network(
            *_named(Platform.PINTEREST),
            _types(("pinterest_pin", "Pin")),
            500,
            counting=Counting.CODE_POINTS,
            limit_source="Pinterest API v5, create pin: description up to 500 characters",
            meta_fields=(
                MetaField(
                    "board_id",
                    "Board",
                    FieldKind.BOARD,
                    required_for=ALL_CONTENT_TYPES,
                    help="The board the pin is saved to.",
                ),
                MetaField("title", "Title", FieldKind.TEXT, max_length=PINTEREST_TITLE_MAX),
                MetaField("link", "Link", FieldKind.URL, help="Where the pin leads when clicked."),
            ),
            media={
                "*": MediaRules(
                    min_count=1, max_count=1, max_image_bytes=20 * 1024 * 1024, max_duration_s=900
                )
            },
        ),
        Network(
            *_named(Platform.BLUESKY),
            _types(("bluesky_post", "Post")),
            300,
            counting=Counting.GRAPHEMES,
            limit_source="AT Protocol lexicon app.bsky.feed.post: text maxGraphemes 300",
            media={
                "*": MediaRules(
                    max_count=4, max_image_bytes=1024 * 1024, max_duration_s=60, allow_mixed=False
                )
            },
        ),
        Network(
            *_named(Platform.MASTODON),
            _types(("mastodon_post", "Post")),
            500,
            counting=Counting.MASTODON,
            limit_source=(
                "Mastodon StatusLengthValidator: 500 graphemes, links 23, @user@domain as @user"
            ),
            media={
                "*": MediaRules(
                    max_count=4, max_image_bytes=16 * 1024 * 1024, max_video_bytes=99 * 1024 * 1024
                )
            },
        ),
        Network(
            *_named(Platform.TELEGRAM),
            _types(("telegram_message", "Message")),
            4096,
            counting=Counting.UTF16_UNITS,
            limit_source="Telegram Bot API sendMessage: 4096 characters (UTF-16 units)",
            media={
                "*": MediaRules(
                    max_count=10,
                    max_image_bytes=10 * 1024 * 1024,
                    max_video_bytes=50 * 1024 * 1024,
                    document_types=frozenset({"application/pdf"}),
                    max_document_bytes=50 * 1024 * 1024,
                )
            },
        ),
        Network(
            *_named(Platform.DISCORD),
            _types(("discord_message", "Message")),
            2000,
            counting=Counting.CODE_POINTS,
            limit_source="Discord API, create message: content up to 2,000 characters",
            meta_fields=(
                MetaField(
                    "channel_id",
                    "Channel",
                    FieldKind.CHANNEL,
                    required_for=ALL_CONTENT_TYPES,
                    help="The server channel the message goes to.",
                ),
            ),
            media={
                "*": MediaRules(
                    max_count=10,
                    max_image_bytes=25 * 1024 * 1024,
                    max_video_bytes=25 * 1024 * 1024,
                    document_types=frozenset({"application/pdf"}),
                    max_document_bytes=25 * 1024 * 1024,
                )
            },
        ),
    )
}

assert tuple(NETWORKS) == PLATFORMS


def network(platform: str) -> Network:
    """The entry of a platform identifier; `KeyError` for one the spec does not name."""
    return NETWORKS[platform]


def find_network(platform: str | None) -> Network | None:
    """None for an identifier we do not know (a newer server): callers fall back to no checks."""
    return NETWORKS.get(platform or "")


def audio_unavailable_reason(platform: str) -> str | None:
    """None when the account may search Instagram audio, otherwise why not (spec §4)."""
    if platform == AUDIO_ACCOUNT_PLATFORM:
        return None
    if platform == Platform.INSTAGRAM:
        return (
            "Instagram audio search needs an Instagram account connected through Facebook "
            "(instagram-facebook); this account uses Instagram login."
        )
    return "Instagram audio search is only available for Instagram accounts."


def media_type_for(mime_type: str) -> str:
    """`image`, `video` or `document`, as the spec's media item `type`."""
    if mime_type.startswith("image/"):
        return "image"
    if mime_type.startswith("video/"):
        return "video"
    return "document"
