"""The per-network table: complete, self-consistent, and the local checks word things like the
server does."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.domain.enums import Platform
from app.networks import (
    NETWORKS,
    PLATFORMS,
    FieldKind,
    audio_unavailable_reason,
    check_meta,
    missing_required,
    network,
    validate_destination,
)
from app.networks.discovery import compare_content_types


@dataclass
class File:
    mime: str
    size: int | None = None
    width: int | None = None
    height: int | None = None
    duration_s: float | None = None


def test_every_platform_identifier_of_the_spec_has_one_entry() -> None:
    assert set(PLATFORMS) == {p.value for p in Platform} == set(NETWORKS)
    for platform, net in NETWORKS.items():
        assert net.platform == platform
        assert net.content_types, platform
        assert net.max_content_length > 0
        assert len({ct.value for ct in net.content_types}) == len(net.content_types)


def test_the_spec_examples_are_content_types_of_their_networks() -> None:
    assert network("linkedin").accepts("linkedin_post")
    assert network("x").accepts("x_post")
    assert network("pinterest").accepts("pinterest_pin")
    assert network("instagram-facebook").accepts("instagram_reel")
    assert not network("x").accepts("pinterest_pin")


def test_tiktok_privacy_has_no_default_and_must_be_chosen() -> None:
    field = network("tiktok").meta_field("privacy_level")
    assert field is not None
    assert field.kind is FieldKind.CHOICE
    assert field.default is None
    assert {c.value for c in field.choices} >= {"PUBLIC_TO_EVERYONE", "SELF_ONLY"}
    assert missing_required("tiktok", {}, "tiktok_video") == ["privacy_level"]
    assert missing_required("tiktok", {"privacy_level": "SELF_ONLY"}, "tiktok_video") == []


@pytest.mark.parametrize(
    ("platform", "kinds"),
    [
        (
            "pinterest",
            {"board_id": FieldKind.BOARD, "title": FieldKind.TEXT, "link": FieldKind.URL},
        ),
        ("discord", {"channel_id": FieldKind.CHANNEL}),
        ("x", {"thread_replies": FieldKind.THREAD_REPLIES}),
        ("tiktok", {"privacy_level": FieldKind.CHOICE}),
        ("linkedin", {}),
    ],
)
def test_settings_forms_are_data(platform: str, kinds: dict[str, FieldKind]) -> None:
    net = network(platform)
    assert {f.key: f.kind for f in net.fields_for(net.default_content_type)} == kinds


def test_audio_is_a_setting_of_reels_only() -> None:
    net = network("instagram-facebook")
    assert [f.key for f in net.fields_for("instagram_reel")] == ["audio"]
    assert net.fields_for("instagram_post") == ()


def test_audio_search_is_explained_for_instagram_login_accounts() -> None:
    assert audio_unavailable_reason("instagram-facebook") is None
    reason = audio_unavailable_reason("instagram")
    assert reason is not None
    assert "Facebook" in reason
    assert audio_unavailable_reason("x") is not None


def test_the_accounts_limit_wins_over_the_networks_default() -> None:
    assert network("x").max_length(None) == 280
    assert network("x").max_length(25000) == 25000
    text = "a" * 600
    assert validate_destination("linkedin", "linkedin_post", text, {}) == []
    over = validate_destination("linkedin", "linkedin_post", text, {}, account_max_length=500)
    assert [(p.path, p.message("content")) for p in over] == [
        (
            "content",
            "Too long for LinkedIn by 100: 600 of at most 500 characters as LinkedIn counts them.",
        )
    ]


def test_x_refuses_long_text_like_every_network_unless_the_account_posts_long_posts() -> None:
    over = validate_destination("x", "x_post", "a" * 281, {})
    assert [p.path for p in over] == ["content"]
    assert "by 1:" in over[0].message()
    assert validate_destination("x", "x_post", "a" * 281, {}, account_max_length=25000) == []


def test_length_is_counted_after_trimming() -> None:
    assert validate_destination("bluesky", "bluesky_post", "  " + "a" * 300 + "\n\n", {}) == []


def test_meta_type_checks_use_the_servers_wording() -> None:
    problems = check_meta(
        "pinterest", {"board_id": "nope", "title": "t" * 101, "link": "ftp://x"}, board_ids=["b1"]
    )
    assert {p.path: p.message(f"destinations.0.meta.{p.path}") for p in problems} == {
        "board_id": "The selected destinations.0.meta.board id is invalid.",
        "title": "The destinations.0.meta.title field must not be greater than 100 characters.",
        "link": "The destinations.0.meta.link field must be a valid URL.",
    }
    assert [p.path for p in check_meta("x", {"thread_replies": [{"text": 3}]})] == [
        "thread_replies.0.text"
    ]
    assert [p.path for p in check_meta("instagram", {"audio": {"id": "12a"}})] == ["audio.id"]
    assert check_meta("instagram", {"audio": {"id": "123"}, "unknown": 1}) == []


def test_required_settings_and_text_only_when_sending() -> None:
    assert validate_destination("pinterest", "pinterest_pin", "", {}) == []
    paths = {
        p.path for p in validate_destination("pinterest", "pinterest_pin", "", {}, scheduling=True)
    }
    assert paths == {"content", "meta.board_id", "media"}


def test_media_limits_are_checked_per_content_type() -> None:
    portrait_video = File("video/mp4", 10_000_000, 1080, 1920, 30.0)
    long_video = File("video/mp4", 10_000_000, 1080, 1920, 200.0)
    square_image = File("image/jpeg", 1_000_000, 1000, 1000)
    huge_image = File("image/png", 2_000_000, 1000, 1000)

    def paths(platform: str, ct: str, media: list[File]) -> set[str]:
        return {p.path for p in validate_destination(platform, ct, "hi", {}, media)}

    assert paths("instagram", "instagram_reel", [portrait_video]) == set()
    assert paths("instagram", "instagram_reel", [square_image]) == {"media.0"}
    assert paths("instagram", "instagram_reel", [long_video]) == {"media.0"}
    assert paths("bluesky", "bluesky_post", [huge_image]) == {"media.0"}
    assert paths("bluesky", "bluesky_post", [square_image] * 5) == {"media"}
    assert paths("x", "x_post", [square_image, portrait_video]) == {"media"}
    needed = validate_destination("tiktok", "tiktok_video", "hi", {}, [], scheduling=True)
    assert "media" in {p.path for p in needed}


def test_an_unknown_network_is_not_checked() -> None:
    assert validate_destination("myspace", "myspace_post", "", {}, scheduling=True) == []


def test_the_content_types_cross_check_reports_differences() -> None:
    ours = [
        {"platform": n.platform, "content_type": ct.value, "required_meta": list(n.required_meta)}
        for n in NETWORKS.values()
        for ct in n.content_types
    ]
    assert compare_content_types(ours).none
    changed = [e for e in ours if e["content_type"] != "x_post"] + ["x_article"]
    changed = [
        {**e, "required_meta": []}
        if isinstance(e, dict) and e["content_type"] == "tiktok_video"
        else e
        for e in changed
    ]
    diff = compare_content_types(changed)
    assert diff.unknown_here == ["x_article"]
    assert diff.not_offered == ["x_post"]
    assert diff.required_meta == {"tiktok_video": ([], ["privacy_level"])}
    assert len(diff.describe()) == 3
