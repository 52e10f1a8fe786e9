"""The picker's emoji: named, searchable, recently used first, remembered in a file."""

from __future__ import annotations

from pathlib import Path

from app.content.emoji import RecentEmoji, all_emoji, search


def test_emoji_have_names_and_include_the_old_symbols() -> None:
    texts = {e.text: e.name for e in all_emoji()}
    assert texts["😀"] == "grinning face"
    assert texts["❤\ufe0f"] == "heavy black heart"
    assert "\U0001f3fb" not in texts  # a skin-tone modifier is no emoji of its own


def test_search_by_words_in_any_order_whole_words_first() -> None:
    found = [e.text for e in search("cat")]
    assert found[0] in {"🐈", "🐱"}
    assert "😺" in [e.text for e in search("face cat")]
    assert search("no such emoji at all") == []


def test_recent_first_and_remembered(tmp_path: Path) -> None:
    recent = RecentEmoji(tmp_path / "recent.json")
    recent.used("🐱")
    recent.used("🎉")
    recent.used("🐱")
    assert RecentEmoji(tmp_path / "recent.json").items() == ["🐱", "🎉"]
    assert [e.text for e in search("", recent.items())][:2] == ["🐱", "🎉"]
    assert search("cat", ["🐯"])[0].text != "🐯"  # recent only among the matches
