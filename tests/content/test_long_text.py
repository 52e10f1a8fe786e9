"""Issue 19 §3: a 10 MB text is handed to a view as a bounded start, the rest on request."""

from __future__ import annotations

from app.content.long_text import MORE_CHARS, PREVIEW_CHARS, more, preview


def test_a_ten_megabyte_post_is_previewed_then_grown_on_request() -> None:
    text = "word " * 2_000_000  # 10 million characters
    part = preview(text)
    assert part.truncated
    assert len(part.shown) == PREVIEW_CHARS
    assert "Showing the first 20,000 of 10,000,000 characters" in part.note()
    grown = more(text, part)
    assert grown.end == PREVIEW_CHARS + MORE_CHARS
    assert grown.shown == text[: grown.end]
    while grown.truncated:
        grown = more(text, grown, step=5_000_000)
    assert grown.shown == text
    assert grown.note() == ""


def test_short_and_missing_text_is_whole_and_a_cut_keeps_accents_with_their_letter() -> None:
    assert preview("Hello").shown == "Hello"
    assert not preview(None).truncated
    text = "e\u0301" * 10  # e + combining acute accent
    part = preview(text, limit=5)
    assert part.shown == "e\u0301e\u0301"
