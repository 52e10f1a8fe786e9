"""What a page offers as commands: one description feeds menus, shortcuts, the command palette
and the README's key table (the shell's action registry reads these; pages never build QActions
for their commands themselves)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple


class ActionSpec(NamedTuple):
    id: str
    """Stable dotted name, e.g. "calendar.view.month"; unique across the app."""
    text: str
    """Menu and palette text, e.g. "Month view"."""
    callback: Callable[[], object]
    shortcut: str = ""
    """QKeySequence text, e.g. "Ctrl+N" or "M"; empty for none."""
    menu: str = ""
    """Menu it appears in: "File", "View", "Go", "Post", "Workspace", "Help"; "": palette only."""
    scope: str = "window"
    """"window" (always active) or a section name (active only while that page is shown)."""
    enabled: Callable[[], bool] | None = None
    """Asked before the action runs and when menus open; None means always enabled."""
    help: str = ""
    """One line for the palette and the shortcut list."""
    focus_within: str = ""
    """Object name of a widget of the scope's page (or the page's own): the shortcut then
    works only while focus is inside it, so keys such as arrows stay with the other controls
    (lists, combo boxes) everywhere else. "": window-wide."""
