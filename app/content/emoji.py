"""The emoji the picker offers, named by Python's own Unicode database (no dependency), and the
user's recently used ones (a small JSON file, newest first)."""

from __future__ import annotations

import contextlib
import json
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.workspaces.profiles import write_atomically

RECENT_LIMIT = 24
_VS16 = "\ufe0f"  # asks for the colourful (emoji) presentation

# Blocks made of emoji (every assigned code point there is one).
_EMOJI_BLOCKS = (
    (0x1F300, 0x1F5FF),  # Miscellaneous Symbols and Pictographs
    (0x1F600, 0x1F64F),  # Emoticons
    (0x1F680, 0x1F6FF),  # Transport and Map Symbols
    (0x1F900, 0x1F9FF),  # Supplemental Symbols and Pictographs
    (0x1FA70, 0x1FAFF),  # Symbols and Pictographs Extended-A
)
# Older symbols that are emoji too; they get VS16 so they are drawn in colour.
_SYMBOLS = (
    "☀☁☂☃☄☎☑☔☕☘☝☠☢☣☦☪☮☯☸☹☺♀♂♈♉♊♋♌♍♎♏♐♑♒♓♟♠♣♥♦♨♻♾♿⚒⚓⚔⚕⚖⚗⚙⚛⚜⚠⚡⚧⚪⚫⚰⚱⚽⚾⛄⛅⛈⛎⛏⛑⛓⛔⛩⛪⛰⛱"
    "⛲⛳⛴⛵⛷⛸⛹⛺⛽✂✅✈✉✊✋✌✍✏✒✔✖✝✡✨✳✴❄❇❌❎❓❔❕❗❣❤➕➖➗➡➰➿⤴⤵⬅⬆⬇⬛⬜⭐⭕〰〽㊗㊙"
)
# Skin-tone modifiers and regional letters are parts of sequences, not emoji of their own.
_PARTS = range(0x1F3FB, 0x1F400)


@dataclass(frozen=True)
class Emoji:
    text: str
    name: str  # lower case, e.g. "grinning face"


@cache
def all_emoji() -> tuple[Emoji, ...]:
    found: list[Emoji] = []
    for first, last in _EMOJI_BLOCKS:
        for code in range(first, last + 1):
            if code in _PARTS:
                continue
            name = unicodedata.name(chr(code), "")
            if name:
                found.append(Emoji(chr(code), name.lower()))
    for char in _SYMBOLS:
        name = unicodedata.name(char, "")
        if name:
            found.append(Emoji(char + _VS16, name.lower()))
    return tuple(found)


def emoji_name(text: str) -> str:
    return unicodedata.name(text[0], "emoji").lower() if text else ""


def search(query: str, recent: list[str] | None = None) -> list[Emoji]:
    """Emoji whose name has every word of `query` (in any order), recently used first."""
    words = query.casefold().split()
    matches = [e for e in all_emoji() if all(w in e.name for w in words)]
    if words:
        # Whole-word hits ("cat" -> "cat face" before "catch"), then the rest in code order.
        matches.sort(key=lambda e: not all(w in e.name.split() for w in words))
    order = {text: i for i, text in enumerate(recent or [])}
    recent_hits = sorted((e for e in matches if e.text in order), key=lambda e: order[e.text])
    return [*recent_hits, *(e for e in matches if e.text not in order)]


class RecentEmoji:
    """Recently inserted emoji, newest first; a damaged file starts the list again."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._items = self._read()

    def _read(self) -> list[str]:
        if self.path is None or not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        if not isinstance(data, list):
            return []
        return [str(x) for x in data if isinstance(x, str) and x][:RECENT_LIMIT]

    def items(self) -> list[str]:
        return list(self._items)

    def used(self, text: str) -> None:
        self._items = [text, *(x for x in self._items if x != text)][:RECENT_LIMIT]
        if self.path is not None:
            with contextlib.suppress(OSError):  # a convenience: a failed write loses no text
                write_atomically(self.path, json.dumps(self._items, ensure_ascii=False))
