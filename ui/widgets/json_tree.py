"""A collapsible, read-only tree of a JSON value (objects and arrays fold; scalars show their
JSON spelling, so null, "null" and 1 vs "1" stay distinct)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

LONG_TEXT = 500  # characters of a string shown in the tree; the raw tab has all of it
MAX_CHILDREN = 1000  # per object or array; the raw tab has all of it


class JsonTree(QTreeWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(["Key", "Value"])
        self.setColumnCount(2)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)

    def set_value(self, value: Any, *, expand_depth: int = 1) -> None:
        self.clear()
        root = self.invisibleRootItem()
        self._add_children(root, value)
        if expand_depth > 0:
            self.expandToDepth(expand_depth - 1)
        self.resizeColumnToContents(0)

    def _add_children(self, parent: QTreeWidgetItem, value: Any) -> None:
        if isinstance(value, dict):
            entries = list(value.items())
        elif isinstance(value, list):
            entries = [(f"[{i}]", item) for i, item in enumerate(value)]
        else:
            QTreeWidgetItem(parent, ["", _scalar(value)])
            return
        for key, item in entries[:MAX_CHILDREN]:
            node = QTreeWidgetItem(parent, [str(key), _summary(item)])
            if isinstance(item, dict | list) and item:
                self._add_children(node, item)
        if len(entries) > MAX_CHILDREN:
            QTreeWidgetItem(parent, ["…", f"{len(entries) - MAX_CHILDREN} more (see Raw)"])


def _summary(value: Any) -> str:
    if isinstance(value, dict):
        return f"{{{len(value)} keys}}" if value else "{}"
    if isinstance(value, list):
        return f"[{len(value)} items]" if value else "[]"
    return _scalar(value)


def _scalar(value: Any) -> str:
    if isinstance(value, str) and len(value) > LONG_TEXT:
        # Only the start is spelled: a 10 MB string dumped whole cost ~40 ms per opening.
        start = json.dumps(value[:LONG_TEXT], ensure_ascii=False)[:LONG_TEXT]
        return f"{start}… ({len(value):,} characters)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= LONG_TEXT else text[:LONG_TEXT] + f"… ({len(text)} characters)"
