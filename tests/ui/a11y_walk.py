"""Walks what assistive technology sees of a widget tree (Qt's QAccessible interfaces, the same
ones Qt's AT-SPI bridge serves) and lists the interactive controls without a name.

    from tests.ui.a11y_walk import unnamed_controls
    assert unnamed_controls(page) == []

A control counts as interactive by its accessible role (buttons, boxes, fields, lists, tables,
tabs, sliders); it is named when its accessible name is not empty (Qt derives one from a
button's text or a label's buddy; anything else needs setAccessibleName). Hidden controls are
skipped: AT does not offer them."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import QWidget

Role = QAccessible.Role
INTERACTIVE = frozenset(
    {
        Role.PushButton,
        Role.CheckBox,
        Role.RadioButton,
        Role.ComboBox,
        Role.EditableText,
        Role.SpinBox,
        Role.Slider,
        Role.Dial,
        Role.List,
        Role.Table,
        Role.Tree,
        Role.PageTab,
        Role.ButtonMenu,
        Role.ButtonDropDown,
        Role.Link,
        Role.ScrollBar,
    }
)
SKIPPED_ROLES = frozenset({Role.ScrollBar})
"""Scroll bars are named by Qt's bridge after their orientation and are not counted."""
LIMIT = 5000


class Unnamed(NamedTuple):
    role: str
    object_name: str
    class_name: str
    path: str


def walk(root: QWidget) -> list[QAccessibleInterface]:
    """Every visible accessible interface under `root` (itself included), depth first."""
    start = QAccessible.queryAccessibleInterface(root)
    if start is None:
        return []
    found: list[QAccessibleInterface] = []
    stack = [start]
    while stack and len(found) < LIMIT:
        interface = stack.pop()
        if not interface.isValid() or interface.state().invisible:
            continue
        found.append(interface)
        stack.extend(
            child
            for index in reversed(range(interface.childCount()))
            if (child := interface.child(index)) is not None
        )
    return found


def _path(interface: QAccessibleInterface) -> str:
    parts: list[str] = []
    current: QAccessibleInterface | None = interface
    while current is not None and len(parts) < 8:
        obj = current.object()
        parts.append(obj.objectName() if obj is not None and obj.objectName() else "?")
        current = current.parent()
    return "/".join(reversed(parts))


def unnamed_controls(root: QWidget) -> list[Unnamed]:
    """The interactive controls under `root` that AT would announce without a name."""
    missing: list[Unnamed] = []
    for interface in walk(root):
        obj = interface.object()
        if not isinstance(obj, QWidget):
            continue  # an item inside a list or table: named by its text, not counted here
        if not _interactive(interface, obj):
            continue
        name = interface.text(QAccessible.Text.Name)
        if any(character.isalnum() for character in name):
            continue  # "‹" or "✕" alone is read out as a symbol's name: not a name
        role = interface.role().name
        missing.append(Unnamed(role, obj.objectName(), type(obj).__name__, _path(interface)))
    return missing


def _interactive(interface: QAccessibleInterface, widget: QWidget) -> bool:
    role = interface.role()
    if role in SKIPPED_ROLES:
        return False
    # Painted views (a calendar grid) are plain clients: they count once they take Tab focus.
    return role in INTERACTIVE or (
        bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)
        and (role in (Role.Client, Role.Grouping, Role.Pane))
    )


def named_controls(root: QWidget) -> list[tuple[str, str]]:
    """(role, name) of every interactive control under `root` (for reports)."""
    return [
        (interface.role().name, interface.text(QAccessible.Text.Name))
        for interface in walk(root)
        if isinstance(widget := interface.object(), QWidget) and _interactive(interface, widget)
    ]
