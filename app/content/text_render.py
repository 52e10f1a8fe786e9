"""Post content as plain text.

Post bodies may hold editor HTML written by anyone with access to the workspace. The UI never
hands that HTML to a rich-text widget (which would fetch remote images and honour markup), so
it is flattened here: every paragraph, block and `<br>` becomes a line, entities are decoded, and
everything that is not visible text (scripts, styles, images, embedded objects) is dropped.
Social editors write one `<p>` per line and an empty `<p></p>` (or `<p><br></p>`) for a blank
line, so a paragraph maps to one line, not to a blank-line-separated block.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html.parser import HTMLParser

# Elements whose content is never shown to a reader.
_HIDDEN = frozenset(
    {"script", "style", "head", "title", "template", "noscript", "iframe", "object", "svg", "math"}
)
# Elements that start and end on their own line.
_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "dd", "details", "div", "dl", "dt",
        "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tr", "ul",
    }
)  # fmt: skip
# Blocks that stand for a (possibly empty) line of their own when they hold no text.
_LINE_BLOCKS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote"})
# Void elements: no end tag, so they must never count as opening or closing anything.
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)

_TAG_LIKE = re.compile(r"<\s*/?\s*[a-zA-Z][^>]*>|<!--|&(?:[a-zA-Z]+\d*|#\d+|#[xX][0-9a-fA-F]+);")
_SPACES = re.compile(r"[ \t\r\n\f\v]+")
_BLANK_RUNS = re.compile(r"\n{3,}")


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._lines: list[str] = []
        self._current: list[str] = []
        self._hidden_depth = 0
        self._pre_depth = 0
        self._open_blocks: list[tuple[str, int]] = []  # tag, number of lines when it opened
        self._lists: list[list[int]] = []  # per open list: [is_ordered, next_number]

    def _has_text(self) -> bool:
        return any(part.strip() for part in self._current)

    def _flush(self, *, keep_empty: bool = False) -> None:
        if self._has_text():
            self._lines.append("".join(self._current).rstrip())
        elif keep_empty:
            self._lines.append("")
        self._current = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden_depth += 1
            return
        if self._hidden_depth:
            return
        if tag == "br":
            self._flush(keep_empty=True)
            return
        if tag in _VOID:
            if tag == "hr":
                self._flush()
            return
        if tag in ("ul", "ol"):
            self._flush()
            self._lists.append([1 if tag == "ol" else 0, 1])
        elif tag == "li":
            self._flush()
            indent = "  " * max(len(self._lists) - 1, 0)
            if self._lists and self._lists[-1][0]:
                marker = f"{self._lists[-1][1]}. "
                self._lists[-1][1] += 1
            else:
                marker = "• "
            self._current.append(indent + marker)
        elif tag in _BLOCKS:
            self._flush()
            if tag == "pre":
                self._pre_depth += 1
        elif tag in ("td", "th") and self._has_text():
            self._current.append("\t")
        if tag in _BLOCKS:
            self._open_blocks.append((tag, len(self._lines)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # `<br/>`, `<img/>`, `<script/>`: self-closed, so nothing is opened.
        if tag == "br" and not self._hidden_depth:
            self._flush(keep_empty=True)

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self._hidden_depth = max(self._hidden_depth - 1, 0)
            return
        if self._hidden_depth or tag in _VOID or tag not in _BLOCKS:
            return
        lines_at_open = None
        while self._open_blocks:  # tolerate unclosed inner blocks, like a browser
            open_tag, count = self._open_blocks.pop()
            if open_tag == tag:
                lines_at_open = count
                break
        if tag in ("ul", "ol") and self._lists:
            self._lists.pop()
        if tag == "pre":
            self._pre_depth = max(self._pre_depth - 1, 0)
        empty_block = lines_at_open == len(self._lines) and not self._has_text()
        self._flush(keep_empty=empty_block and tag in _LINE_BLOCKS)

    def handle_data(self, data: str) -> None:
        if self._hidden_depth:
            return
        if self._pre_depth:
            for index, part in enumerate(data.split("\n")):
                if index:
                    self._flush(keep_empty=True)
                self._current.append(part)
            return
        text = _SPACES.sub(" ", data)
        joined = "".join(self._current)
        if not joined.strip() or joined.endswith((" ", "\t")):
            text = text.lstrip(" ")
        if text:
            self._current.append(text)

    def text(self) -> str:
        self._flush()
        return "\n".join(self._lines).strip("\n")


def looks_like_html(text: str) -> bool:
    return _TAG_LIKE.search(text) is not None


def html_to_text(html: str | None) -> str:
    """Readable plain text of a post body that may or may not be HTML.

    Plain text (no tags, no entities) keeps its own line breaks; HTML is flattened the way a
    reader would see it, without loading or running anything.
    """
    if not html:
        return ""
    if not looks_like_html(html):
        text = html.replace("\r\n", "\n").replace("\r", "\n")
        return _BLANK_RUNS.sub("\n\n", text).strip()
    collector = _TextCollector()
    collector.feed(html)
    collector.close()
    return _BLANK_RUNS.sub("\n\n", collector.text()).strip()


@lru_cache(maxsize=8192)
def summary_line(content: str | None, limit: int = 200) -> str:
    """The first non-empty line of the text, for one-line previews (cached: views repaint often)."""
    for raw in html_to_text(content).split("\n"):
        line = raw.strip().removeprefix("•").strip()
        if line:
            return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
    return ""
