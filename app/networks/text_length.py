"""Text length as each network counts it (issue 15 §2). Pure functions, no Qt, no HTTP.

A limit is only meaningful in the unit the network measures: X weighs code points and counts
every link as 23; Bluesky and Mastodon count user-perceived characters (grapheme clusters, so a
ZWJ family or a flag is one); Telegram counts UTF-16 code units; YouTube descriptions count
bytes. Which unit each network uses, and where that comes from, is written in
`app.networks.table` beside the limit.

Text is trimmed first, as the server trims it before its own length rule (DESIGN.md).
"""

from __future__ import annotations

import unicodedata
from enum import StrEnum
from functools import lru_cache

import regex  # type: ignore[import-untyped]  # no stubs; used through two calls

X_URL_LENGTH = 23
"""twitter-text v3 `transformedURLLength`; Mastodon uses the same fixed 23 for every link."""

# twitter-text v3 (config/v3.json): weight 100 (= 1 character) for these code point ranges,
# 200 (= 2) for every other code point; an emoji sequence weighs 200 whatever its length.
_X_LIGHT_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x10FF),
    (0x2000, 0x200D),
    (0x2010, 0x201F),
    (0x2032, 0x2037),
)

# Links as the networks find them: with a scheme, or `www.`, or a bare domain under a common
# top-level domain (X links `example.com` too). Trailing punctuation is not part of a link.
_TLDS = (
    "com|org|net|io|co|dev|app|ai|me|info|biz|edu|gov|uk|de|fr|es|it|nl|eu|us|ca|au|jp|"
    "ch|at|be|se|no|dk|fi|pl|pt|br|in|ly|tv|social|blog|news|xyz|online|site|tech|page"
)
_URL = regex.compile(
    r"(?<![\w@.])(?:https?://[^\s<>\"]+|www\.[^\s<>\"]+|"
    r"(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:" + _TLDS + r")(?![\w-])(?:/[^\s<>\"]*)?)",
    regex.IGNORECASE,
)
_TRAILING = ".,;:!?)]}'\"…"
# Mastodon counts a remote mention `@user@domain` as `@user`.
_REMOTE_MENTION = regex.compile(r"(@\w+)@[\w.-]+\w", regex.UNICODE)
_GRAPHEME = regex.compile(r"\X")
_ALL_LIGHT = regex.compile(
    "[" + "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in _X_LIGHT_RANGES) + "]*"
)
_EMOJI_CLUSTER = regex.compile(
    r"\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Regional_Indicator}{2}|"
    r"[0-9#*]\uFE0F?\u20E3|\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\u200D)"
)


class Counting(StrEnum):
    """The unit a network's text limit is measured in."""

    CODE_POINTS = "code_points"
    UTF16_UNITS = "utf16_units"
    UTF8_BYTES = "utf8_bytes"
    GRAPHEMES = "graphemes"
    MASTODON = "mastodon"  # graphemes, every link 23, remote mentions without their domain
    X_WEIGHTED = "x_weighted"  # twitter-text v3


def _trimmed(text: str | None) -> str:
    return text.strip() if isinstance(text, str) else ""


def find_urls(text: str) -> list[tuple[int, int]]:
    """(start, end) of each link in `text`, trailing punctuation excluded."""
    spans = []
    for match in _URL.finditer(text):
        start, end = match.span()
        while end > start and text[end - 1] in _TRAILING:
            end -= 1
        if end > start:
            spans.append((start, end))
    return spans


def graphemes(text: str) -> list[str]:
    """Extended grapheme clusters (UAX #29): a ZWJ family, a flag, `e` + accent are one each."""
    return [str(g) for g in _GRAPHEME.findall(text)]


def grapheme_count(text: str | None) -> int:
    return len(graphemes(_trimmed(text)))


def is_emoji_cluster(cluster: str) -> bool:
    return _EMOJI_CLUSTER.search(cluster) is not None


def _x_code_point_weight(char: str) -> int:
    code = ord(char)
    return 1 if any(low <= code <= high for low, high in _X_LIGHT_RANGES) else 2


def x_weighted_length(text: str | None) -> int:
    """X's weighted length (twitter-text v3): NFC first; each link 23; each emoji sequence 2;
    other code points 1 in the light ranges (Latin, Greek, Cyrillic, Hebrew, Arabic, ... and
    general punctuation), else 2 (CJK, most other scripts)."""
    body = unicodedata.normalize("NFC", _trimmed(text))
    if _ALL_LIGHT.fullmatch(body):
        # No code point outside the light ranges, hence no emoji sequence either (each needs
        # one above U+10FF): one per character, links 23. Cluster by cluster costs ~100x more.
        spans = find_urls(body)
        return len(body) - sum(end - start for start, end in spans) + X_URL_LENGTH * len(spans)
    total = 0
    position = 0
    for start, end in [*find_urls(body), (len(body), len(body))]:
        for cluster in _GRAPHEME.findall(body, position, start):
            if len(cluster) == 1 and cluster <= "\u10ff":
                total += 1  # the common case, never an emoji (see above)
            elif is_emoji_cluster(cluster):
                total += 2
            else:
                total += sum(_x_code_point_weight(c) for c in cluster)
        if end > start:
            total += X_URL_LENGTH
        position = end
    return total


def mastodon_length(text: str | None) -> int:
    """Mastodon's StatusLengthValidator: graphemes, every link 23, `@user@domain` as `@user`."""
    body = _trimmed(text)
    pieces = []
    position = 0
    for start, end in find_urls(body):
        pieces.append(body[position:start])
        pieces.append("x" * X_URL_LENGTH)
        position = end
    pieces.append(body[position:])
    counted = _REMOTE_MENTION.sub(r"\1", "".join(pieces))
    return len(graphemes(counted))


def count(text: str | None, counting: Counting) -> int:
    """The length of `text` (trimmed) in the unit `counting`."""
    return _count_remembered(text or "", counting)


@lru_cache(maxsize=64)
def _count_remembered(text: str, counting: Counting) -> int:
    # One keystroke asks for the same text's length a dozen times (counter, tab, checks, for
    # every destination): counted once per text and unit (issue 15 §5, a 2,200-character post).
    return _count(text, counting)


def _count(text: str | None, counting: Counting) -> int:
    body = _trimmed(text)
    if counting is Counting.X_WEIGHTED:
        return x_weighted_length(body)
    if counting is Counting.MASTODON:
        return mastodon_length(body)
    if counting is Counting.GRAPHEMES:
        return len(graphemes(body))
    if counting is Counting.UTF16_UNITS:
        return len(body.encode("utf-16-le")) // 2
    if counting is Counting.UTF8_BYTES:
        return len(body.encode("utf-8"))
    return len(body)


def fit(text: str, limit: int, counting: Counting) -> int:
    """The largest prefix length (in Python characters, at a grapheme boundary) of `text` that
    counts at most `limit`; what is past it is the overflow."""
    clusters = graphemes(text)
    low, high = 0, len(clusters)
    # Counts grow with the prefix (a link cut short never counts more than whole), so bisect.
    while low < high:
        middle = (low + high + 1) // 2
        if _count("".join(clusters[:middle]), counting) <= limit:
            low = middle
        else:
            high = middle - 1
    return len("".join(clusters[:low]))


__all__ = [
    "X_URL_LENGTH",
    "Counting",
    "count",
    "find_urls",
    "fit",
    "grapheme_count",
    "graphemes",
    "is_emoji_cluster",
    "mastodon_length",
    "x_weighted_length",
]
