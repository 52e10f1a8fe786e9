"""The detail panel lays out a bounded start of a huge post (issue 19 §3: a 10 MB text from a
server froze the window in a wrapping label)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QLabel

from ui.calendar.detail_panel import DETAIL_CHARS, detail_text


def test_a_short_post_is_shown_whole() -> None:
    assert detail_text("<p>Latte art <b>Thursday</b></p>") == "Latte art Thursday"
    assert detail_text(None) == "(no text)"
    assert detail_text("") == "(no text)"


def test_a_ten_megabyte_post_is_cut_and_says_so(qapp: QApplication) -> None:
    huge = "<p>" + ("word " * 2_000_000) + "</p>"
    shown = detail_text(huge)
    assert len(shown) < DETAIL_CHARS + 200
    assert shown.startswith("word word")
    assert f"of a text of {len(huge):,} characters" in shown
    # What the panel lays out is bounded, so a wrapping label takes it at once.
    label = QLabel()
    label.setWordWrap(True)
    label.setText(shown)
    assert label.text() == shown


def test_a_text_exactly_at_the_bound_is_not_marked_cut() -> None:
    text = "a" * DETAIL_CHARS
    assert detail_text(text) == text
