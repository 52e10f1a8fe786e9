"""The network rules at edges the other network tests leave open (issue 18 §2): X's weights at
the ends of its light ranges, links among non-Latin text, settings of the wrong shape (the
sentence and field a person reads, not a crash), text that is absent, and the media `type`
a file is sent as."""

from __future__ import annotations

import pytest

from app.networks import check_meta, media_type_for, network, validate_destination
from app.networks import messages as m
from app.networks.text_length import grapheme_count, mastodon_length, x_weighted_length

# twitter-text v3 weighs these 1 (both ends of each range past U+10FF) and their neighbours 2.
# Each sits between two CJK characters (2 each) so the text leaves the all-light fast path.
_LIGHT_RANGE_ENDS = ["\u2000", "\u200d", "\u2010", "\u201f", "\u2032", "\u2037"]
_HEAVY_NEIGHBOURS = ["\u1fff", "\u200e", "\u2020", "\u2031", "\u2038"]


@pytest.mark.parametrize(
    "char", _LIGHT_RANGE_ENDS, ids=[f"U+{ord(c):04X}" for c in _LIGHT_RANGE_ENDS]
)
def test_x_weighs_the_ends_of_its_light_ranges_as_one(char: str) -> None:
    assert x_weighted_length(f"中{char}中") == 5


@pytest.mark.parametrize(
    "char", _HEAVY_NEIGHBOURS, ids=[f"U+{ord(c):04X}" for c in _HEAVY_NEIGHBOURS]
)
def test_x_weighs_the_code_points_just_outside_its_light_ranges_as_two(char: str) -> None:
    assert x_weighted_length(f"中{char}中") == 6


def test_x_counts_each_link_as_23_between_non_latin_words() -> None:
    # 中 (2) + space + link (23) + space + 日本 (4) + space + link (23) + space + 語 (2)
    text = "中 https://example.com/a/long/path 日本 www.example.org/x 語"
    assert x_weighted_length(text) == 2 + 1 + 23 + 1 + 4 + 1 + 23 + 1 + 2


def test_x_limit_holds_exactly_at_280_with_a_link_in_japanese_text() -> None:
    x = network("x")
    head = "語" * 128  # 256
    fits = f"{head} https://example.com/{'p' * 40}"  # 256 + 1 + 23 = 280
    over = f"{head}語 https://example.com/{'p' * 40}"  # 282
    assert x_weighted_length(fits) == 280
    assert x.max_length() == 280
    fits_paths = {p.path for p in validate_destination("x", "x_post", fits, {}, [])}
    over_paths = {p.path for p in validate_destination("x", "x_post", over, {}, [])}
    assert "content" not in fits_paths
    assert "content" in over_paths


def test_absent_text_counts_nothing_in_every_unit() -> None:
    assert grapheme_count(None) == 0
    assert x_weighted_length(None) == 0
    assert mastodon_length(None) == 0


@pytest.mark.parametrize(
    ("platform", "key", "value"),
    [("pinterest", "board_id", 12345), ("discord", "channel_id", 987654321)],
)
def test_a_board_or_channel_that_is_not_text_is_refused_by_name(
    platform: str, key: str, value: int
) -> None:
    # A CSV import or an old draft can carry a number: refused in the server's words even when
    # the account's boards/channels are not loaded yet (no list to compare with).
    problems = check_meta(platform, {key: value})
    assert [(p.path, p.message()) for p in problems] == [
        (key, f"The {key.replace('_', ' ')} field must be a string.")
    ]


def test_a_thread_reply_that_is_not_an_object_is_a_message_not_a_crash() -> None:
    problems = check_meta("x", {"thread_replies": [{"text": "fine"}, "just text", None]})
    assert [(p.path, p.template) for p in problems] == [
        ("thread_replies.1.text", m.STRING),
        ("thread_replies.2.text", m.STRING),
    ]
    assert problems[0].message() == "The thread replies.1.text field must be a string."


@pytest.mark.parametrize("value", ["123456", 123456, ["123456"]])
def test_an_audio_choice_that_is_not_an_object_is_refused_at_its_id(value: object) -> None:
    problems = check_meta("instagram", {"audio": value})
    assert [(p.path, p.template) for p in problems] == [("audio.id", m.FORMAT)]
    assert check_meta("instagram", {"audio": {"id": "123456"}}) == []


@pytest.mark.parametrize(
    ("mime", "kind"),
    [
        ("image/png", "image"),
        ("image/jpeg", "image"),
        ("video/mp4", "video"),
        ("application/pdf", "document"),
    ],
)
def test_a_file_is_sent_with_the_spec_media_type_of_its_mime(mime: str, kind: str) -> None:
    assert media_type_for(mime) == kind


def test_the_audio_setting_is_labelled_and_says_why_it_may_be_unavailable() -> None:
    # The form shows the label and, beside it, the help: an Instagram-login account is told why
    # it cannot pick audio, a Facebook-connected one what it picks.
    login = network("instagram").meta_field("audio")
    facebook = network("instagram-facebook").meta_field("audio")
    assert login is not None
    assert facebook is not None
    assert (login.label, facebook.label) == ("Audio", "Audio")
    assert "connected through Facebook" in login.help
    assert "Instagram's catalog" in facebook.help
    assert login.applies_to("instagram_reel")
    assert not login.applies_to("instagram_post")
