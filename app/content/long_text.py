"""Very long text from the server, shown in parts (issue 19 §3): a 10 MB post or a 5 MB webhook
response body laid out whole froze the window for minutes. A view shows `preview(text)` and
loads the rest on demand (`more`), a slice at a time, never megabytes at once.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

PREVIEW_CHARS = 20_000
"""What a view lays out at first: far more than any network accepts in one post (X: 280,
LinkedIn: 3,000, Facebook: 63,206 is the rare outlier and still lays out in milliseconds)."""
MORE_CHARS = 200_000
"""What one "Show more" adds."""


@dataclass(frozen=True)
class TextPart:
    shown: str
    """The text to lay out: the start of the whole, up to `end`."""
    end: int
    """Characters of the whole shown so far."""
    total: int
    """Characters of the whole text."""

    @property
    def truncated(self) -> bool:
        return self.end < self.total

    def note(self) -> str:
        """Words under the text when it is cut (empty when it is not)."""
        if not self.truncated:
            return ""
        return (
            f"Showing the first {self.end:,} of {self.total:,} characters "
            f"({_size(self.total)}). The rest is loaded on request."
        )


def preview(text: str | None, limit: int = PREVIEW_CHARS) -> TextPart:
    """The start of `text` (all of it when short)."""
    whole = text or ""
    end = _cut(whole, limit)
    return TextPart(whole[:end], end, len(whole))


def more(text: str | None, part: TextPart, step: int = MORE_CHARS) -> TextPart:
    """`part` grown by `step` characters (what a "Show more" button asks for)."""
    whole = text or ""
    end = _cut(whole, part.end + step)
    return TextPart(whole[:end], end, len(whole))


def _cut(text: str, limit: int) -> int:
    """An end at most `limit`, not splitting a character from its accents (combining marks)
    nor a line in the middle of a CRLF."""
    if limit >= len(text):
        return len(text)
    end = max(0, limit)
    while end > 0 and (unicodedata.combining(text[end]) or text[end - 1 : end + 1] == "\r\n"):
        end -= 1
    return end


def _size(chars: int) -> str:
    if chars >= 1_000_000:
        return f"{chars / 1_000_000:.1f} million characters"
    return f"{chars / 1000:.0f} thousand characters"
