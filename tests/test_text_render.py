"""Post bodies to plain text: layout kept, markup and active content gone."""

from __future__ import annotations

import html
import os
import re
import tempfile

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.content.text_render import html_to_text, looks_like_html, summary_line

# Hypothesis caches into ./.hypothesis by default; pytest (with our norecursedirs) then warns
# about that folder, and warnings are errors. Keep its files out of the work tree.
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tempfile.gettempdir(), "postdesk-hypothesis")
)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("<p>Hello <b>world</b></p><p>Second line</p>", "Hello world\nSecond line"),
        ("<p>One</p><p></p><p>Three</p>", "One\n\nThree"),
        ("<p>One</p><p><br></p><p>Three</p>", "One\n\nThree"),
        ("A<br>B<br/>C", "A\nB\nC"),
        ("Tom &amp; Jerry &lt;3 &#39;quoted&#39; &eacute;t&eacute;", "Tom & Jerry <3 'quoted' été"),
        ("<h2>Title</h2><p>Body</p>", "Title\nBody"),
        ("<div><p>Nested</p></div><div>Next</div>", "Nested\nNext"),
        ("<p>  lots   of \n  space  </p>", "lots of space"),
        ("<ul><li>one</li><li>two</li></ul>", "• one\n• two"),
        ("<ol><li>first</li><li>second</li></ol>", "1. first\n2. second"),
        ("<p>unclosed <i>italic", "unclosed italic"),
        ("</p>stray closing</div>", "stray closing"),
        ("<pre>keep\n  indent</pre>", "keep\n  indent"),
    ],
)
def test_html_is_flattened_to_readable_lines(source: str, expected: str) -> None:
    assert html_to_text(source) == expected


def test_scripts_styles_and_images_leave_no_trace() -> None:
    source = (
        "<p>Visible</p><script>alert('pwned')</script><style>p { color: red }</style>"
        '<img src="http://tracker.example/pixel.png" alt="pixel">'
        '<iframe src="https://evil.example"></iframe><p>Also visible</p>'
    )
    text = html_to_text(source)
    assert text == "Visible\nAlso visible"
    for fragment in ("alert", "color", "tracker", "pixel", "evil", "<"):
        assert fragment not in text


def test_an_unterminated_script_hides_the_rest() -> None:
    assert html_to_text("<p>Shown</p><script>document.write('x')") == "Shown"


def test_plain_text_keeps_its_own_line_breaks_and_symbols() -> None:
    source = "Line one\nLine two\n\n\n\nAT&T says a < b"
    assert not looks_like_html(source)
    assert html_to_text(source) == "Line one\nLine two\n\nAT&T says a < b"


@pytest.mark.parametrize("empty", [None, "", "<p></p>", "<script>x</script>", "   "])
def test_nothing_to_show_is_an_empty_string(empty: str | None) -> None:
    assert html_to_text(empty) == ""


def test_summary_line_is_the_first_non_empty_line() -> None:
    assert summary_line("<p></p><ul><li>First point</li></ul><p>Second</p>") == "First point"
    assert summary_line("  \n\nHello\nthere") == "Hello"
    assert summary_line(None) == ""


def test_summary_line_is_cut_with_an_ellipsis() -> None:
    line = summary_line("x" * 300, limit=20)
    assert len(line) == 20
    assert line.endswith("…")


def _collapsed(text: str) -> str:
    return re.sub(r"[ \t\r\n\f\v]+", " ", text).strip()


readable = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from(" \n\t"),
    max_size=80,
)


@settings(database=None)
@given(readable)
def test_escaped_text_in_a_paragraph_comes_back_unchanged(text: str) -> None:
    assert html_to_text(f"<p>{html.escape(text)}</p>") == _collapsed(text)


@settings(database=None)
@given(readable)
def test_script_content_never_reaches_the_text(text: str) -> None:
    assume("</script" not in text.lower())
    assert html_to_text(f"<p>ok</p><script>{text}</script>") == "ok"
