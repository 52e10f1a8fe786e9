"""Every limit of the network table, exactly at the limit and one past it.

The figures are written out here, not read from the table, so a changed limit fails a test.
Text is plain ASCII letters: every way of counting (code points, X's weights, graphemes, UTF-16,
UTF-8 bytes) gives the same length for it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.networks import (
    ALL_CONTENT_TYPES,
    NETWORKS,
    ContentType,
    FieldKind,
    MediaRules,
    MetaField,
    Network,
    check_media,
    check_meta,
    missing_required,
    network,
    validate_destination,
)
from app.networks import messages as m

MiB = 1024 * 1024


@dataclass
class File:
    mime: str
    size: int | None = None
    width: int | None = None
    height: int | None = None
    duration_s: float | None = None


def paths(
    platform: str,
    content_type: str | None,
    content: str = "hi",
    meta: dict[str, object] | None = None,
    media: list[File] | None = None,
    **options: object,
) -> set[str]:
    found = validate_destination(
        platform,
        content_type,
        content,
        meta or {},
        media or [],
        **options,  # type: ignore[arg-type]
    )
    return {p.path for p in found}


# -- text length -------------------------------------------------------------------------------

TEXT_LIMITS = {
    "linkedin": 3000,
    "linkedin-page": 3000,
    "x": 280,
    "facebook": 63206,
    "instagram": 2200,
    "instagram-facebook": 2200,
    "tiktok": 2200,
    "youtube": 5000,
    "threads": 500,
    "pinterest": 500,
    "bluesky": 300,
    "mastodon": 500,
    "telegram": 4096,
    "discord": 2000,
}


def test_every_network_has_its_text_limit_written_here() -> None:
    assert set(TEXT_LIMITS) == set(NETWORKS)
    assert {p: n.max_length() for p, n in NETWORKS.items()} == TEXT_LIMITS


@pytest.mark.parametrize("platform", sorted(TEXT_LIMITS))
def test_text_exactly_at_the_limit_is_accepted_and_one_more_is_refused(platform: str) -> None:
    limit = TEXT_LIMITS[platform]
    ct = network(platform).default_content_type
    assert "content" not in paths(platform, ct, "a" * limit)
    # Surrounding blanks are trimmed before counting, as the server does.
    assert "content" not in paths(platform, ct, "  " + "a" * limit + "\n")
    assert "content" in paths(platform, ct, "a" * (limit + 1))


@pytest.mark.parametrize("account_max", [1, 500, 100_000])
def test_the_accounts_own_limit_is_the_limit_at_its_exact_value(account_max: int) -> None:
    assert network("linkedin").max_length(account_max) == account_max
    at = paths("linkedin", "linkedin_post", "a" * account_max, account_max_length=account_max)
    over = paths(
        "linkedin", "linkedin_post", "a" * (account_max + 1), account_max_length=account_max
    )
    assert "content" not in at
    assert "content" in over


@pytest.mark.parametrize("account_max", [None, 0, -1])
def test_an_account_limit_of_zero_or_less_means_the_networks_default(
    account_max: int | None,
) -> None:
    """A server that reports 0 (unknown) must not make every text too long."""
    assert network("bluesky").max_length(account_max) == 300
    assert "content" not in paths("bluesky", "bluesky_post", "a" * 300, account_max_length=0)
    assert "content" in paths("bluesky", "bluesky_post", "a" * 301, account_max_length=account_max)


# -- text settings: X thread replies, Pinterest title --------------------------------------------


def test_an_x_reply_of_exactly_280_is_accepted_and_281_refused() -> None:
    def reply_problems(text: str) -> list[tuple[str, str]]:
        found = check_meta("x", {"thread_replies": [{"text": "ok"}, {"text": text}]})
        return [(p.path, p.template) for p in found]

    assert reply_problems("a" * 280) == []
    assert reply_problems("  " + "a" * 280 + "\n") == []  # trimmed, as the post text is
    assert reply_problems("a" * 281) == [("thread_replies.1.text", m.MAX_CHARS)]
    through = paths("x", "x_post", "hi", {"thread_replies": [{"text": "a" * 281}]})
    assert "meta.thread_replies.0.text" in through


def test_a_pinterest_title_of_exactly_100_is_accepted_and_101_refused() -> None:
    assert check_meta("pinterest", {"title": "t" * 100}) == []
    refused = check_meta("pinterest", {"title": "t" * 101})
    assert [(p.path, p.template, dict(p.values)) for p in refused] == [
        ("title", m.MAX_CHARS, {"max": 100})
    ]


# -- required settings ----------------------------------------------------------------------------

REQUIRED = {"pinterest": "board_id", "discord": "channel_id", "tiktok": "privacy_level"}


@pytest.mark.parametrize("platform", sorted(REQUIRED))
@pytest.mark.parametrize("blank", [None, "", " ", "  \t\n"])
def test_a_blank_required_setting_is_missing_when_sending(platform: str, blank: str | None) -> None:
    key = REQUIRED[platform]
    ct = network(platform).default_content_type
    meta = {key: blank}
    assert missing_required(platform, meta, ct) == [key]
    assert missing_required(platform, meta, None) == [key]
    required = [
        p
        for p in validate_destination(platform, ct, "hi", meta, scheduling=True)
        if p.template == m.REQUIRED
    ]
    assert [p.path for p in required] == [f"meta.{key}"]
    # A draft may be saved without it.
    drafts = validate_destination(platform, ct, "hi", meta, scheduling=False)
    assert not [p for p in drafts if p.template == m.REQUIRED]


@pytest.mark.parametrize(
    ("platform", "value"),
    [("pinterest", "b1"), ("discord", "c1"), ("tiktok", "SELF_ONLY"), ("pinterest", " b ")],
)
def test_a_set_required_setting_is_not_missing(platform: str, value: str) -> None:
    key = REQUIRED[platform]
    assert missing_required(platform, {key: value}, network(platform).default_content_type) == []


def test_the_table_requires_exactly_these_settings() -> None:
    required = {
        platform: list(net.required_meta) for platform, net in NETWORKS.items() if net.required_meta
    }
    assert required == {k: [v] for k, v in REQUIRED.items()}


def test_a_setting_required_for_some_content_types_only() -> None:
    field = MetaField("k", "K", FieldKind.TEXT, required_for=frozenset({"a_post"}))
    assert field.required("a_post")
    assert not field.required("a_story")
    # With no content type known (or one we could not accept) it is required to be safe.
    assert field.required(None)
    everywhere = MetaField("k", "K", FieldKind.TEXT, required_for=ALL_CONTENT_TYPES)
    assert everywhere.required("anything")
    assert everywhere.required(None)
    limited = MetaField(
        "k", "K", FieldKind.TEXT, required_for=ALL_CONTENT_TYPES, only_for=frozenset({"a_reel"})
    )
    assert limited.required("a_reel")
    assert not limited.required("a_post")
    assert not MetaField("k", "K", FieldKind.TEXT).required(None)


# -- media ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    max_count: int
    min_count: int = 0
    image_bytes: int | None = 8 * MiB  # None: video only
    video_bytes: int = 512 * MiB
    document_bytes: int | None = None  # None: no documents
    duration: float | None = None
    aspect: tuple[float, float | None] | None = None
    mixed: bool = True


_VERTICAL = Limits(1, 1, image_bytes=None, duration=90, aspect=(0.5, 0.6))
_IG_STORY = Limits(1, 1, duration=60, aspect=(0.5, 0.6))
_IG_POST = Limits(10, 1, aspect=(0.8, 1.91))
_LINKEDIN = Limits(9, document_bytes=100 * MiB)

MEDIA_LIMITS: dict[tuple[str, str], Limits] = {
    ("linkedin", "linkedin_post"): _LINKEDIN,
    ("linkedin-page", "linkedin_page_post"): _LINKEDIN,
    ("x", "x_post"): Limits(4, image_bytes=5 * MiB, duration=140, mixed=False),
    ("facebook", "facebook_post"): Limits(10),
    ("facebook", "facebook_reel"): _VERTICAL,
    ("facebook", "facebook_story"): Limits(1, 1, duration=60),
    ("instagram", "instagram_post"): _IG_POST,
    ("instagram", "instagram_reel"): _VERTICAL,
    ("instagram", "instagram_story"): _IG_STORY,
    ("instagram-facebook", "instagram_post"): _IG_POST,
    ("instagram-facebook", "instagram_reel"): _VERTICAL,
    ("instagram-facebook", "instagram_story"): _IG_STORY,
    ("tiktok", "tiktok_video"): Limits(
        1, 1, image_bytes=None, video_bytes=1024 * MiB, duration=600
    ),
    ("youtube", "youtube_video"): Limits(1, 1, image_bytes=None, video_bytes=2048 * MiB),
    ("youtube", "youtube_short"): Limits(1, 1, image_bytes=None, duration=60, aspect=(0.0, 1.0)),
    ("threads", "threads_post"): Limits(10, duration=300),
    ("pinterest", "pinterest_pin"): Limits(1, 1, image_bytes=20 * MiB, duration=900),
    ("bluesky", "bluesky_post"): Limits(4, image_bytes=1 * MiB, duration=60, mixed=False),
    ("mastodon", "mastodon_post"): Limits(4, image_bytes=16 * MiB, video_bytes=99 * MiB),
    ("telegram", "telegram_message"): Limits(
        10, image_bytes=10 * MiB, video_bytes=50 * MiB, document_bytes=50 * MiB
    ),
    ("discord", "discord_message"): Limits(
        10, image_bytes=25 * MiB, video_bytes=25 * MiB, document_bytes=25 * MiB
    ),
}
CASES = sorted(MEDIA_LIMITS)


def media_paths(platform: str, ct: str, media: list[File], **options: object) -> set[str]:
    return {p for p in paths(platform, ct, "hi", None, media, **options) if p.startswith("media")}


def test_every_content_type_has_its_media_limits_written_here() -> None:
    assert set(MEDIA_LIMITS) == {
        (platform, ct.value) for platform, net in NETWORKS.items() for ct in net.content_types
    }


def _plain(limits: Limits) -> File:
    """A small file every rule of the content type accepts."""
    if limits.image_bytes is None:
        return File("video/mp4", 1000)
    return File("image/jpeg", 1000)


@pytest.mark.parametrize(("platform", "ct"), CASES)
def test_the_most_files_allowed_and_one_more(platform: str, ct: str) -> None:
    limits = MEDIA_LIMITS[(platform, ct)]
    file = _plain(limits)
    assert media_paths(platform, ct, [file] * limits.max_count) == set()
    assert media_paths(platform, ct, [file] * (limits.max_count + 1)) == {"media"}


@pytest.mark.parametrize(("platform", "ct"), CASES)
def test_the_fewest_files_needed_to_send(platform: str, ct: str) -> None:
    limits = MEDIA_LIMITS[(platform, ct)]
    file = _plain(limits)
    enough = media_paths(platform, ct, [file] * limits.min_count, scheduling=True)
    assert enough == set()
    if limits.min_count:
        short = media_paths(platform, ct, [file] * (limits.min_count - 1), scheduling=True)
        assert short == {"media"}
        # A draft may be saved without it.
        assert media_paths(platform, ct, [], scheduling=False) == set()


@pytest.mark.parametrize(("platform", "ct"), CASES)
def test_file_sizes_exactly_at_the_limit_and_one_byte_over(platform: str, ct: str) -> None:
    limits = MEDIA_LIMITS[(platform, ct)]
    sizes = {"video/mp4": limits.video_bytes}
    if limits.image_bytes is not None:
        sizes["image/png"] = limits.image_bytes
    if limits.document_bytes is not None:
        sizes["application/pdf"] = limits.document_bytes
    for mime, limit in sizes.items():
        assert media_paths(platform, ct, [File(mime, limit)]) == set(), mime
        assert media_paths(platform, ct, [File(mime, limit + 1)]) == {"media.0"}, mime


@pytest.mark.parametrize(("platform", "ct"), CASES)
def test_file_kinds_the_content_type_does_not_take(platform: str, ct: str) -> None:
    limits = MEDIA_LIMITS[(platform, ct)]
    if limits.image_bytes is None:
        assert media_paths(platform, ct, [File("image/jpeg", 1000)]) == {"media.0"}
    if limits.document_bytes is None:
        assert media_paths(platform, ct, [File("application/pdf", 1000)]) == {"media.0"}
    assert media_paths(platform, ct, [File("audio/mpeg", 1000)]) == {"media.0"}


@pytest.mark.parametrize(("platform", "ct"), CASES)
def test_video_durations_at_the_limit_within_half_a_second_and_over(platform: str, ct: str) -> None:
    limits = MEDIA_LIMITS[(platform, ct)]

    def video(seconds: float) -> list[File]:
        return [File("video/mp4", 1000, duration_s=seconds)]

    if limits.duration is None:
        assert media_paths(platform, ct, video(36_000)) == set()
        return
    assert media_paths(platform, ct, video(limits.duration)) == set()
    # Containers round their durations: half a second over still passes.
    assert media_paths(platform, ct, video(limits.duration + 0.5)) == set()
    assert media_paths(platform, ct, video(limits.duration + 0.6)) == {"media.0"}
    assert media_paths(platform, ct, video(limits.duration + 1)) == {"media.0"}


def _aspect_file(limits: Limits, width: int, height: int) -> list[File]:
    mime = "video/mp4" if limits.image_bytes is None else "image/jpeg"
    return [File(mime, 1000, width, height)]


@pytest.mark.parametrize(("platform", "ct"), CASES)
def test_aspect_ratios_at_the_limits_within_the_tolerance_and_beyond(
    platform: str, ct: str
) -> None:
    limits = MEDIA_LIMITS[(platform, ct)]
    if limits.aspect is None:
        assert media_paths(platform, ct, _aspect_file(limits, 4000, 100)) == set()
        assert media_paths(platform, ct, _aspect_file(limits, 100, 4000)) == set()
        return
    low, high = limits.aspect
    assert high is not None

    def verdict(ratio: float) -> set[str]:
        return media_paths(platform, ct, _aspect_file(limits, round(ratio * 10_000), 10_000))

    assert verdict(high) == set()
    assert verdict(high + 0.005) == set(), "within the tolerance of 0.01"
    assert verdict(high + 0.015) == {"media.0"}
    if low > 0:
        assert verdict(low) == set()
        assert verdict(low - 0.005) == set(), "within the tolerance of 0.01"
        assert verdict(low - 0.015) == {"media.0"}
    else:
        assert verdict(0.05) == set()


@pytest.mark.parametrize(("platform", "ct"), CASES)
def test_pictures_and_videos_in_one_post(platform: str, ct: str) -> None:
    limits = MEDIA_LIMITS[(platform, ct)]
    if limits.max_count < 2 or limits.image_bytes is None:
        return
    both = [File("image/jpeg", 1000), File("video/mp4", 1000)]
    assert media_paths(platform, ct, both) == (set() if limits.mixed else {"media"})


# -- what the media problems say ------------------------------------------------------------------


def _said(platform: str, ct: str, media: list[File], **options: object) -> dict[str, str]:
    found = validate_destination(platform, ct, "hi", {}, media, **options)  # type: ignore[arg-type]
    return {p.path: p.message() for p in found if p.path.startswith("media")}


def test_media_problems_say_what_is_wrong_in_figures() -> None:
    assert _said("bluesky", "bluesky_post", [File("image/png", 3 * MiB // 2)]) == {
        "media.0": "The file is 1.5 MB; Bluesky takes at most 1 MB."
    }
    assert _said("instagram", "instagram_post", [File("image/jpeg", 1000, 3000, 1000)]) == {
        "media.0": "The picture is 3.00:1 (width:height); Instagram needs 0.80:1 to 1.91:1."
    }
    assert _said("youtube", "youtube_short", [File("video/mp4", 1000, 2000, 1000)]) == {
        "media.0": "The picture is 2.00:1 (width:height); YouTube needs 0.00:1 to 1.00:1."
    }
    assert _said("tiktok", "tiktok_video", [File("video/mp4", 1000, duration_s=700.4)]) == {
        "media.0": "The video is 700 s long; TikTok takes at most 600 s."
    }
    assert _said("youtube", "youtube_video", [File("image/png", 1000)]) == {
        "media.0": "This network does not take image files (image/png) as a video."
    }
    assert _said("x", "x_post", [File("image/png", 1000), File("video/mp4", 1000)]) == {
        "media": "X does not mix pictures and videos in one post."
    }
    assert _said("pinterest", "pinterest_pin", [], scheduling=True) == {
        "media": "A pin on Pinterest needs a picture or video."
    }
    assert _said("tiktok", "tiktok_video", [], scheduling=True) == {
        "media": "A video on TikTok needs a video."
    }
    count = _said("bluesky", "bluesky_post", [File("image/png", 1000)] * 5)["media"]
    assert count.startswith("Bluesky takes at most 4 files; 5 ")


def test_an_aspect_rule_with_only_a_lower_bound_says_any_above_it() -> None:
    net = Network(
        "demo",
        "Demo",
        (ContentType("demo_post", "Post"),),
        100,
        media={"*": MediaRules(min_aspect=1.0)},
    )
    wide = check_media(net, "demo_post", [File("image/png", 1000, 3000, 1000)])
    assert wide == []
    [tall] = check_media(net, "demo_post", [File("image/png", 1000, 1000, 3000)])
    assert tall.message() == ("The picture is 0.33:1 (width:height); Demo needs 1.00:1 to any.")
