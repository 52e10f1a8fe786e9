"""Text counted as each network counts it (issue 15 §2): X's weighted length, graphemes for
Bluesky and Mastodon, and every network's limit exactly at and one past it."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.networks import NETWORKS, validate_destination
from app.networks.text_length import (
    Counting,
    count,
    find_urls,
    fit,
    grapheme_count,
    mastodon_length,
    x_weighted_length,
)

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
FLAG = "\U0001f1e9\U0001f1ea"
E_ACUTE_DECOMPOSED = "e\u0301"
THUMB_SKIN = "\U0001f44d\U0001f3fd"


def test_x_counts_cjk_as_two_and_latin_as_one() -> None:
    assert x_weighted_length("中" * 200) == 400
    assert x_weighted_length("a" * 200) == 200
    assert x_weighted_length("Привет") == 6  # Cyrillic is in the light range
    assert x_weighted_length("–—‘’“”") == 6  # general punctuation range
    assert x_weighted_length("\u2030") == 2  # per mille: outside every light range


def test_x_counts_every_link_as_23_whatever_its_length() -> None:
    assert x_weighted_length("https://example.com/a-rather-long-path") == 23
    assert x_weighted_length("see https://example.com/x.") == 4 + 23 + 1
    assert x_weighted_length("example.com") == 23
    assert x_weighted_length("http://a.io " * 3) == 23 * 3 + 2


def test_x_counts_each_emoji_sequence_as_two() -> None:
    for emoji in (FAMILY, FLAG, THUMB_SKIN, "\U0001f600", "1\ufe0f\u20e3", "\u2764\ufe0f"):
        assert x_weighted_length(emoji) == 2, repr(emoji)


def test_x_normalises_to_nfc_first() -> None:
    assert x_weighted_length(E_ACUTE_DECOMPOSED * 10) == 10
    assert x_weighted_length("\u1100\u1161") == 2  # conjoining jamo compose into one syllable


def test_a_grapheme_is_a_grapheme() -> None:
    assert grapheme_count(FAMILY) == 1
    assert grapheme_count(FLAG + FLAG) == 2
    assert grapheme_count(E_ACUTE_DECOMPOSED * 3) == 3
    assert grapheme_count("\u0915\u094d\u0937") == 1  # Devanagari conjunct
    assert grapheme_count("  ab  ") == 2


def test_mastodon_counts_links_as_23_and_remote_mentions_without_the_domain() -> None:
    assert mastodon_length("https://example.com/" + "a" * 80) == 23
    assert mastodon_length("@bob@mastodon.social hi") == len("@bob hi")
    assert mastodon_length(FAMILY * 3) == 3


def test_urls_exclude_trailing_punctuation_and_mentions_are_not_links() -> None:
    text = "(see https://example.com/a), mail bob@example.com"
    assert [text[a:b] for a, b in find_urls(text)] == ["https://example.com/a"]


def test_other_units() -> None:
    assert count("\U0001f600", Counting.UTF16_UNITS) == 2
    assert count("\U0001f600", Counting.CODE_POINTS) == 1
    assert count("é", Counting.UTF8_BYTES) == 2


def _filler(counting: Counting, n: int) -> str:
    """Text counting exactly `n` in `counting`."""
    return "a" * n


@pytest.mark.parametrize("platform", sorted(NETWORKS))
def test_every_network_accepts_text_exactly_at_its_limit_and_refuses_one_more(
    platform: str,
) -> None:
    net = NETWORKS[platform]
    limit = net.max_content_length
    at_limit = _filler(net.counting, limit)
    assert count(at_limit, net.counting) == limit
    ct = net.default_content_type
    assert not [p for p in validate_destination(platform, ct, at_limit, {}) if p.path == "content"]
    over = [
        p for p in validate_destination(platform, ct, at_limit + "b", {}) if p.path == "content"
    ]
    assert len(over) == 1
    assert f"{net.name} by 1:" in over[0].message()


@pytest.mark.parametrize(
    ("platform", "unit", "weight"),
    [
        ("x", "中", 2),
        ("x", FAMILY, 2),
        ("bluesky", FAMILY, 1),
        ("mastodon", FLAG, 1),
        ("telegram", "\U0001f600", 2),
        ("youtube", "é", 2),
    ],
)
def test_limits_in_each_networks_own_unit(platform: str, unit: str, weight: int) -> None:
    net = NETWORKS[platform]
    n = net.max_content_length // weight
    at_limit = unit * n + "a" * (net.max_content_length - n * weight)
    ct = net.default_content_type
    assert count(at_limit, net.counting) == net.max_content_length
    assert not [p for p in validate_destination(platform, ct, at_limit, {}) if p.path == "content"]
    over = validate_destination(platform, ct, at_limit + unit, {})
    assert [p.path for p in over] == ["content"]
    assert f"by {weight}:" in over[0].message()


@given(st.text(max_size=60))
def test_x_length_never_exceeds_twice_the_code_points_and_is_nfc_invariant(text: str) -> None:
    length = x_weighted_length(text)
    body = unicodedata.normalize("NFC", text.strip())
    assert length <= max(2 * len(body), 23 * len(find_urls(body)) + 2 * len(body))
    assert length == x_weighted_length(unicodedata.normalize("NFD", text))


@given(st.text(max_size=80), st.integers(min_value=0, max_value=60))
def test_fit_gives_the_longest_prefix_within_the_limit(text: str, limit: int) -> None:
    for counting in (Counting.GRAPHEMES, Counting.X_WEIGHTED, Counting.CODE_POINTS):
        cut = fit(text, limit, counting)
        assert count(text[:cut], counting) <= limit or text[:cut].strip() == ""
        assert text.startswith(text[:cut])
