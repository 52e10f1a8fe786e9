"""The network table's words and readers at their edges (issue 18 §2): the sentences a person
reads about a server's content types, about audio search and about the number of files, the
shapes of `GET /content-types` entries that are understood, and the longest text that fits."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.networks import NETWORKS, audio_unavailable_reason, network, validate_destination
from app.networks.discovery import ContentTypeDifferences, compare_content_types
from app.networks.text_length import Counting, fit


def test_differences_are_told_in_plain_sentences() -> None:
    differences = ContentTypeDifferences(
        unknown_here=["x_article"],
        not_offered=["x_post"],
        required_meta={
            "tiktok_video": ([], ["privacy_level", "title"]),
            "pinterest_pin": (["board_id", "title"], []),
        },
    )
    assert differences.describe() == [
        "The server offers x_article, which this app does not know.",
        "The server does not list x_post.",
        "tiktok_video: the server requires no settings, this app privacy_level, title.",
        "pinterest_pin: the server requires board_id, title, this app none.",
    ]
    assert not differences.none
    assert ContentTypeDifferences().none


def _everything_but(*left_out: str) -> list[object]:

    return [
        ct.value for n in NETWORKS.values() for ct in n.content_types if ct.value not in left_out
    ]


@pytest.mark.parametrize("key", ["content_type", "id", "value"])
def test_an_entry_may_name_its_content_type_under_any_of_three_keys(key: str) -> None:
    entries = [*_everything_but("pinterest_pin"), {key: "pinterest_pin", "required_meta": []}]
    differences = compare_content_types(entries)
    assert (differences.unknown_here, differences.not_offered) == ([], [])
    assert differences.required_meta == {"pinterest_pin": ([], ["board_id"])}


def test_entries_that_name_nothing_usable_are_left_out() -> None:
    entries = [
        *_everything_but("pinterest_pin", "discord_message"),
        {"id": 42},  # not a name
        ["pinterest_pin"],  # not an entry at all
        # Required settings that are not a list are not compared; names in it that are not
        # strings are dropped.
        {"id": "pinterest_pin", "required_meta": "board_id"},
        {"id": "discord_message", "required_meta": ["channel_id", 7]},
    ]
    differences = compare_content_types(entries)
    assert differences.unknown_here == []
    assert differences.not_offered == []
    assert differences.required_meta == {}


def test_why_audio_search_is_unavailable_is_said_in_full() -> None:
    assert audio_unavailable_reason("instagram-facebook") is None
    assert audio_unavailable_reason("instagram") == (
        "Instagram audio search needs an Instagram account connected through Facebook "
        "(instagram-facebook); this account uses Instagram login."
    )
    assert audio_unavailable_reason("tiktok") == (
        "Instagram audio search is only available for Instagram accounts."
    )


@dataclass
class _Video:
    mime: str = "video/mp4"
    size: int | None = 1000
    width: int | None = None
    height: int | None = None
    duration_s: float | None = 10.0


def test_the_number_of_files_is_said_in_words_for_one_and_for_many() -> None:
    def said(platform: str, content_type: str, files: int) -> str:
        problems = validate_destination(
            platform, content_type, "hi", {}, [_Video() for _ in range(files)]
        )
        return next(p.message() for p in problems if p.path == "media")

    assert said("tiktok", "tiktok_video", 2) == "TikTok takes at most 1 file; 2 are attached."
    assert network("x").media_rules("x_post").max_count == 4
    assert said("x", "x_post", 5) == "X takes at most 4 files; 5 are attached."


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("abcdef", 3, 3),
        ("abcdef", 6, 6),
        ("abcdef", 0, 0),
        ("ab", 5, 2),
        ("", 4, 0),
        ("abcdefgh", 5, 5),
    ],
)
def test_fit_is_the_longest_prefix_within_the_limit(text: str, limit: int, expected: int) -> None:
    assert fit(text, limit, Counting.CODE_POINTS) == expected


def test_a_setting_the_network_does_not_have_is_none() -> None:
    x = network("x")
    field = x.meta_field("thread_replies")
    assert field is not None
    assert field.max_length == 280
    assert x.meta_field("board_id") is None
