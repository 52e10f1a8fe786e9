"""The per-network table: one entry per platform identifier of the spec (§2).

The spec names the identifiers, a few content types (`linkedin_post`, `x_post`, `pinterest_pin`,
`instagram_reel`) and the meta keys (Pinterest `board_id`/`title`/`link`, TikTok
`privacy_level`, Discord `channel_id`, X `thread_replies`, Instagram reel `audio.id`). Everything
else here — the other content types, default text limits, media limits — is ours, chosen from
the networks' public limits; `GET /content-types` is checked against it where offered
(`app.networks.discovery`).
"""

from __future__ import annotations

from app.networks.rules import (
    ALL_CONTENT_TYPES,
    Choice,
    ContentType,
    FieldKind,
    MediaRules,
    MetaField,
    Network,
)

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

TIKTOK_PRIVACY_LEVELS: tuple[Choice, ...] = (
    Choice("PUBLIC_TO_EVERYONE", "Everyone"),
    Choice("MUTUAL_FOLLOW_FRIENDS", "Friends"),
    Choice("FOLLOWER_OF_CREATOR", "Followers"),
    Choice("SELF_ONLY", "Only me"),
)

PINTEREST_TITLE_MAX = 100
X_REPLY_MAX = 280
AUDIO_ACCOUNT_PLATFORM = "instagram-facebook"


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
            "linkedin",
            "LinkedIn",
            _types(("linkedin_post", "Post")),
            3000,
            media={"*": MediaRules(max_count=9, document_types=frozenset({"application/pdf"}))},
        ),
        Network(
            "linkedin-page",
            "LinkedIn Page",
            _types(("linkedin_page_post", "Page post")),
            3000,
            media={"*": MediaRules(max_count=9, document_types=frozenset({"application/pdf"}))},
        ),
        Network(
            "x",
            "X",
            _types(("x_post", "Post")),
            280,
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
            "facebook",
            "Facebook",
            _types(
                ("facebook_post", "Post"), ("facebook_reel", "Reel"), ("facebook_story", "Story")
            ),
            63206,
            media={
                "facebook_post": MediaRules(max_count=10),
                "facebook_reel": _VERTICAL_VIDEO,
                "facebook_story": MediaRules(min_count=1, max_count=1, max_duration_s=60),
            },
        ),
        Network(
            "instagram",
            "Instagram",
            _INSTAGRAM_TYPES,
            2200,
            meta_fields=(
                _audio_field(
                    "Audio can only be chosen for Instagram accounts connected through Facebook."
                ),
            ),
            media=_INSTAGRAM_MEDIA,
        ),
        Network(
            "instagram-facebook",
            "Instagram (via Facebook)",
            _INSTAGRAM_TYPES,
            2200,
            meta_fields=(_audio_field("Music or an original sound from Instagram's catalog."),),
            media=_INSTAGRAM_MEDIA,
        ),
        Network(
            "tiktok",
            "TikTok",
            _types(("tiktok_video", "Video")),
            2200,
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
            "youtube",
            "YouTube",
            _types(("youtube_video", "Video"), ("youtube_short", "Short")),
            5000,
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
            "threads",
            "Threads",
            _types(("threads_post", "Post")),
            500,
            media={"*": MediaRules(max_count=10, max_duration_s=300)},
        ),
        Network(
            "pinterest",
            "Pinterest",
            _types(("pinterest_pin", "Pin")),
            500,
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
            "bluesky",
            "Bluesky",
            _types(("bluesky_post", "Post")),
            300,
            media={
                "*": MediaRules(
                    max_count=4, max_image_bytes=1024 * 1024, max_duration_s=60, allow_mixed=False
                )
            },
        ),
        Network(
            "mastodon",
            "Mastodon",
            _types(("mastodon_post", "Post")),
            500,
            media={
                "*": MediaRules(
                    max_count=4, max_image_bytes=16 * 1024 * 1024, max_video_bytes=99 * 1024 * 1024
                )
            },
        ),
        Network(
            "telegram",
            "Telegram",
            _types(("telegram_message", "Message")),
            4096,
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
            "discord",
            "Discord",
            _types(("discord_message", "Message")),
            2000,
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
    if platform == "instagram":
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
