"""Problems shown at their field: a red outline on the widget and the message under it.

Paths are the server's (`content`, `destinations.2.meta.board_id`), so a local check and a 422
land in the same place. Messages of a path nobody registered go to a fallback label.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtWidgets import QLabel, QWidget

INVALID_PROPERTY = "invalid"


class ErrorLabel(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fieldError")
        self.setWordWrap(True)
        self.setStyleSheet("color: #b3261e;")
        self.hide()

    def show_messages(self, messages: Sequence[str]) -> None:
        self.setText("\n".join(messages))
        self.setVisible(bool(messages))


def mark_invalid(widget: QWidget, invalid: bool) -> None:
    if bool(widget.property(INVALID_PROPERTY)) == invalid:
        return
    widget.setProperty(INVALID_PROPERTY, invalid)
    widget.setStyleSheet("border: 2px solid #b3261e; border-radius: 3px;" if invalid else "")


class FieldErrors:
    """A registry of path -> (widget, label), filled by the forms as they are built."""

    def __init__(self, fallback: ErrorLabel) -> None:
        self.fallback = fallback
        self._fields: dict[str, tuple[QWidget | None, ErrorLabel]] = {}
        self.shown: dict[str, list[str]] = {}

    def register(self, path: str, widget: QWidget | None, label: ErrorLabel) -> None:
        self._fields[path] = (widget, label)

    def forget(self, prefix: str) -> None:
        for path in [p for p in self._fields if p == prefix or p.startswith(prefix + ".")]:
            del self._fields[path]

    def show(self, mapping: Mapping[str, Sequence[str]]) -> None:
        """Show `mapping` (path -> messages); a path without its own field goes to its closest
        registered parent (`destinations.0.meta.thread_replies.1.text` -> the replies editor)."""
        placed: dict[str, list[str]] = {}
        for path, messages in mapping.items():
            target = self._closest(path)
            placed.setdefault(target, []).extend(messages)
        self.shown = {k: list(v) for k, v in placed.items()}
        for path, (widget, label) in list(self._fields.items()):
            try:
                messages = placed.get(path, [])
                label.show_messages(messages)
                if widget is not None:
                    mark_invalid(widget, bool(messages))
            except RuntimeError:  # the form was rebuilt and this widget is gone
                del self._fields[path]
        self.fallback.show_messages(placed.get("", []))

    def _closest(self, path: str) -> str:
        parts = path.split(".")
        while parts:
            candidate = ".".join(parts)
            if candidate in self._fields:
                return candidate
            parts.pop()
        return ""

    def messages(self, path: str) -> list[str]:
        """What is shown at `path`'s field now (tests and tooltips)."""
        return self.shown.get(self._closest(path), [])

    def widget(self, path: str) -> QWidget | None:
        entry = self._fields.get(path)
        return entry[0] if entry else None
