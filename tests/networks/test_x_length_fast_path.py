"""X's weighted length takes a shortcut for text with no code point outside the light ranges
(one per character, links 23); it must agree with the cluster-by-cluster count everywhere."""

from __future__ import annotations

import importlib

import pytest

text_length = importlib.import_module("app.networks.text_length")


def _slow(text: str) -> int:
    """twitter-text v3 cluster by cluster, as the module counted before the shortcut."""
    import unicodedata

    body = unicodedata.normalize("NFC", text.strip())
    total, position = 0, 0
    for start, end in [*text_length.find_urls(body), (len(body), len(body))]:
        for cluster in text_length.graphemes(body[position:start]):
            if text_length.is_emoji_cluster(cluster):
                total += 2
            else:
                total += sum(text_length._x_code_point_weight(c) for c in cluster)
        if end > start:
            total += text_length.X_URL_LENGTH
        position = end
    return total


@pytest.mark.parametrize(
    "text",
    [
        "",
        "plain words, nothing else",
        "see https://example.com/a, and www.example.org.",
        "example.com and e\u0301 combined",
        "Ελληνικά и кириллица עברית العربية",
        "curly \u2018quotes\u2019 and \u2014 dashes",
        "an ellipsis… and a bullet •",
        "日本語のテキスト",
        "a heart ❤️ and a thumbs up 👍🏽",
        "a keycap 1\ufe0f\u20e3 and a flag 🇩🇪 and a family 👨\u200d👩\u200d👧",
        "© alone, ©\ufe0f as emoji",
        "x" * 400 + " https://example.com/" + "y" * 40,
    ],
)
def test_the_shortcut_agrees_with_the_full_count(text: str) -> None:
    assert text_length.x_weighted_length(text) == _slow(text)


def test_the_same_text_is_counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    text_length._count_remembered.cache_clear()
    seen: list[str] = []
    real = text_length._count

    def watched(text: str | None, unit: object) -> int:
        seen.append(text or "")
        return real(text, unit)  # type: ignore[arg-type]

    monkeypatch.setattr(text_length, "_count", watched)
    body = "a long post " * 200
    for _ in range(12):  # counter, tab, split button and checks, for one keystroke
        assert text_length.count(body, text_length.Counting.X_WEIGHTED) == len(body.strip())
    assert seen == [body]
