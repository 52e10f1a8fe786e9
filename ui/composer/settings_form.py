"""The settings form of one destination, generated from the network's entry in `app.networks`:
content type, then one widget per setting kind (text, link, choice without a default, board
and channel pickers fed by lookups, X thread replies, Instagram reel audio)."""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.networks import FieldKind, MetaField, audio_unavailable_reason, find_network
from ui.composer.field_errors import ErrorLabel, FieldErrors
from ui.composer.state import ComposerState
from ui.composer.thread_replies import ThreadRepliesEditor
from ui.composer.workspace_data import WorkspaceData

CHOOSE = "Choose…"
AUDIO_PICKER_MISSING = "The audio picker is not part of this build yet."

AudioOpener = Callable[[str, Callable[[dict[str, Any]], None]], None]
"""(account id, callback with the chosen `{"id": ..., "title": ...}`) -> opens the picker."""


def audio_picker_available() -> bool:
    return importlib.util.find_spec("ui.composer.audio_picker") is not None


class LookupField(QWidget):
    """A picker from a lookup (boards, channels) that falls back to free text, saying why."""

    def __init__(
        self,
        kind: str,
        account_id: str,
        value: Any,
        data: WorkspaceData,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.kind = kind
        self.account_id = account_id
        self.data = data
        self.on_change: Callable[[str], None] = lambda _v: None
        self.combo = QComboBox()
        self.text = QLineEdit()
        self.text.setPlaceholderText("Id")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: palette(mid);")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        layout.addWidget(self.text)
        layout.addWidget(self.note)
        self._value = value if isinstance(value, str) else ""
        self.combo.currentIndexChanged.connect(self._combo_changed)
        self.text.textEdited.connect(lambda text: self.on_change(text.strip()))
        data.lookupChanged.connect(self._lookup_changed)
        self._fill()

    def _lookup_changed(self, kind: str, account_id: str) -> None:
        if kind == self.kind and account_id == self.account_id:
            self._fill()

    def _fill(self) -> None:
        lookup = self.data.lookup(self.kind, self.account_id)
        self.combo.blockSignals(True)
        self.combo.clear()
        if lookup.items is not None:
            self.combo.addItem(CHOOSE, "")
            for item in lookup.items:
                self.combo.addItem(item.name, item.id)
            index = self.combo.findData(self._value)
            if index < 0 and self._value:
                self.combo.addItem(f"{self._value} (not in the list)", self._value)
                index = self.combo.count() - 1
            self.combo.setCurrentIndex(max(index, 0))
            self.combo.show()
            self.text.hide()
            self.note.hide()
        elif lookup.loading:
            self.combo.addItem("Loading…", "")
            self.combo.setEnabled(False)
            self.combo.show()
            self.text.hide()
            self.note.hide()
        else:
            self.combo.hide()
            self.text.setText(self._value)
            self.text.show()
            self.text.setToolTip(lookup.reason)
            self.note.setText(lookup.reason)
            self.note.show()
        if lookup.items is not None:
            self.combo.setEnabled(True)
        self.combo.blockSignals(False)

    def _combo_changed(self, index: int) -> None:
        value = self.combo.itemData(index) or ""
        self._value = value
        self.on_change(value)

    def value(self) -> str:
        return (
            self._value
            if self.combo.isVisible() or self.combo.isVisibleTo(self)
            else self.text.text()
        )


class SettingsForm(QWidget):
    """Content type and settings of destination `index`; rebuilt when its content type changes."""

    def __init__(
        self,
        state: ComposerState,
        index: int,
        data: WorkspaceData,
        errors: FieldErrors,
        open_audio: AudioOpener | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.index = index
        self.data = data
        self.errors = errors
        self.open_audio = open_audio
        self.widgets: dict[str, QWidget] = {}
        dest = state.doc.destinations[index]
        self.net = find_network(dest.platform)
        self.prefix = f"destinations.{index}."
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        if self.net is None:
            form.addRow(
                QLabel(f"This app does not know the network “{dest.platform}”; it is sent as is.")
            )
            return
        types = QComboBox()
        for ct in self.net.content_types:
            types.addItem(ct.label, ct.value)
        types.setCurrentIndex(max(0, types.findData(dest.content_type)))
        types.setEnabled(len(self.net.content_types) > 1)
        types.currentIndexChanged.connect(
            lambda i: state.set_content_type(index, types.itemData(i))
        )
        self._add(form, "content_type", "Content type", types)
        for spec in self.net.fields_for(dest.content_type):
            widget = self._widget_for(spec, dest.meta.get(spec.key))
            label = spec.label + (" *" if spec.required(dest.content_type) else "")
            self._add(form, f"meta.{spec.key}", label, widget, spec.help)

    def _add(
        self, form: QFormLayout, path: str, label: str, widget: QWidget, help_text: str = ""
    ) -> None:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(widget)
        error = ErrorLabel()
        layout.addWidget(error)
        if help_text:
            widget.setToolTip(help_text)
        # Screen readers read the row's label for the field and the controls inside it.
        name = label.removesuffix(" *")
        for control in (widget, *widget.findChildren(QWidget)):
            if not control.accessibleName():
                control.setAccessibleName(name)
        form.addRow(label, box)
        self.widgets[path] = widget
        self.errors.register(self.prefix + path, widget, error)

    def _set(self, key: str, value: Any) -> None:
        self.state.set_meta(self.index, key, value)

    def _set_or_clear(self, key: str, value: str) -> None:
        self._set(key, value or None)

    def _widget_for(self, spec: MetaField, value: Any) -> QWidget:
        kind = spec.kind
        if kind in (FieldKind.TEXT, FieldKind.URL):
            edit = QLineEdit(value if isinstance(value, str) else "")
            if kind is FieldKind.URL:
                edit.setPlaceholderText("https://")
            if spec.max_length:
                edit.setPlaceholderText(f"At most {spec.max_length} characters")
            edit.textEdited.connect(lambda text, key=spec.key: self._set(key, text))
            return edit
        if kind is FieldKind.CHOICE:
            combo = QComboBox()
            combo.addItem(CHOOSE, "")
            for choice in spec.choices:
                combo.addItem(choice.label, choice.value)
            combo.setCurrentIndex(max(0, combo.findData(value)) if value else 0)
            combo.currentIndexChanged.connect(
                lambda i, key=spec.key, c=combo: self._set(key, c.itemData(i) or None)
            )
            return combo
        if kind in (FieldKind.BOARD, FieldKind.CHANNEL):
            dest = self.state.doc.destinations[self.index]
            lookup_kind = "boards" if kind is FieldKind.BOARD else "channels"
            field = LookupField(lookup_kind, dest.account_id, value, self.data)
            field.on_change = functools.partial(self._set_or_clear, spec.key)
            return field
        if kind is FieldKind.THREAD_REPLIES:
            replies = ThreadRepliesEditor(value)
            replies.changed.connect(lambda items, key=spec.key: self._set(key, items or None))
            return replies
        if kind is FieldKind.AUDIO:
            return self._audio_widget(spec, value)
        edit = QLineEdit(str(value) if value is not None else "")
        edit.textEdited.connect(lambda text, key=spec.key: self._set(key, text))
        return edit

    def _audio_widget(self, spec: MetaField, value: Any) -> QWidget:
        dest = self.state.doc.destinations[self.index]
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        chosen = QLabel(_audio_text(value))
        # The track's title is the server's text: plain, never rich text.
        chosen.setTextFormat(Qt.TextFormat.PlainText)
        button = QPushButton("Choose audio…")
        clear = QPushButton("No audio")
        clear.setEnabled(bool(value))
        row.addWidget(chosen, 1)
        row.addWidget(button)
        row.addWidget(clear)
        reason = audio_unavailable_reason(dest.platform)
        if reason is not None:
            button.setEnabled(False)
            button.setToolTip(reason)
        elif self.open_audio is None or not audio_picker_available():
            button.setEnabled(False)
            button.setToolTip(AUDIO_PICKER_MISSING)

        def chosen_track(track: dict[str, Any]) -> None:
            chosen.setText(_audio_text(track))
            clear.setEnabled(True)
            self._set(spec.key, track)

        def clear_track() -> None:
            chosen.setText(_audio_text(None))
            clear.setEnabled(False)
            self._set(spec.key, None)

        if self.open_audio is not None:
            opener = self.open_audio
            button.clicked.connect(lambda: opener(dest.account_id, chosen_track))
        clear.clicked.connect(clear_track)
        box.setProperty("audioButton", True)
        self.audio_button = button
        return box


def _audio_text(value: Any) -> str:
    if isinstance(value, dict) and value.get("id"):
        title = value.get("title")
        return f"{title} ({value['id']})" if title else f"Audio {value['id']}"
    return "No audio chosen"
