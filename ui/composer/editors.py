"""The shared editor and one tab per destination.

A destination uses the shared text and media unless it overrides them; its tab says what it
overrides and offers "Reset to shared". Counters show each destination's length against its
limit while typing.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.compose.checks import char_count
from app.models.accounts import SocialAccountSummary
from app.networks import find_network
from ui.composer.emoji_picker import emoji_button
from ui.composer.field_errors import ErrorLabel, FieldErrors
from ui.composer.media_strip import MediaStrip
from ui.composer.settings_form import AudioOpener, SettingsForm
from ui.composer.spelling import attach_writing_tools
from ui.composer.state import ComposerState
from ui.composer.workspace_data import WorkspaceData
from ui.icons import network_name


class TextEditor(QPlainTextEdit):
    """Plain text; reports focus so signatures go to the editor last used."""

    focused = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Tab leaves the field like in every other form field (issue 15 §4); a post never
        # needs a tab character.
        self.setTabChangesFocus(True)
        attach_writing_tools(self)  # spell checking and Ctrl+. emoji (ui/composer/spelling.py)

    def focusInEvent(self, event: object) -> None:
        super().focusInEvent(event)  # type: ignore[arg-type]
        self.focused.emit()

    def insert_at_cursor(self, text: str) -> None:
        self.textCursor().insertText(text)

    def append_text(self, text: str) -> None:
        current = self.toPlainText()
        separator = (
            ""
            if not current or current.endswith("\n\n")
            else ("\n" if current.endswith("\n") else "\n\n")
        )
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(separator + text)
        self.setTextCursor(cursor)


def set_text_quietly(editor: QPlainTextEdit, text: str) -> None:
    """Replace the text (a different document was opened) without reporting an edit."""
    if editor.toPlainText() == text:
        return
    editor.blockSignals(True)
    editor.setPlainText(text)
    editor.moveCursor(QTextCursor.MoveOperation.End)
    editor.blockSignals(False)


class DestinationTab(QScrollArea):
    """Overrides, settings and counter of one destination."""

    def __init__(
        self,
        state: ComposerState,
        index: int,
        data: WorkspaceData,
        errors: FieldErrors,
        open_audio: AudioOpener | None,
        on_editor_focus: Callable[[TextEditor], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.index = index
        self.data = data
        self._text_stale = False
        self.setWidgetResizable(True)
        body = QWidget()
        self.setWidget(body)
        dest = state.doc.destinations[index]
        prefix = f"destinations.{index}"
        account = data.accounts_by_id().get(dest.account_id)
        who = account.label if account is not None else dest.account_id
        self.heading = QLabel(f"<b>{network_name(dest.platform)}</b> — {who}")
        self.counter = QLabel()
        self.counter.setObjectName("counter")
        self.counter.setAccessibleName(f"Length for {who}")
        net = find_network(dest.platform)
        self.split = QPushButton("Split into a thread")
        self.split.setAccessibleName(f"Split the text for {who} into a thread")
        self.split.setToolTip("Move the text past the limit into thread replies, in order.")
        self.split.clicked.connect(
            lambda: state.split_into_thread(index, data.accounts_by_id().get(dest.account_id))
        )
        self.account_error = ErrorLabel()
        errors.register(f"{prefix}.social_account_id", None, self.account_error)
        self.general_error = ErrorLabel()
        errors.register(prefix, None, self.general_error)

        self.override_text = QCheckBox("Own text for this destination")
        self.override_text.setAccessibleName(f"Own text for {who}")
        self.reset_text = QPushButton("Reset to shared")
        self.reset_text.setAccessibleName(f"Reset the text for {who} to the shared text")
        self.text = TextEditor()
        self.text.setObjectName("destinationText")
        self.text.setAccessibleName(f"Own text for {who}")
        self.text.setPlaceholderText("Uses the shared text")
        self.text.setMinimumHeight(90)
        self.text_error = ErrorLabel()
        errors.register(f"{prefix}.content", self.text, self.text_error)
        self.text.focused.connect(lambda: on_editor_focus(self.text))

        self.override_media = QCheckBox("Own media for this destination")
        self.override_media.setAccessibleName(f"Own media for {who}")
        self.reset_media = QPushButton("Reset to shared")
        self.reset_media.setAccessibleName(f"Reset the media for {who} to the shared media")
        self.media = MediaStrip()
        errors.register(f"{prefix}.media", self.media.list, self.media.error)

        self.settings = SettingsForm(state, index, data, errors, open_audio)

        head = QHBoxLayout()
        head.addWidget(self.heading, 1)
        head.addWidget(self.counter)
        head.addWidget(self.split)
        text_row = QHBoxLayout()
        text_row.addWidget(self.override_text, 1)
        text_row.addWidget(self.reset_text)
        text_row.addWidget(emoji_button(self.text))
        media_row = QHBoxLayout()
        media_row.addWidget(self.override_media, 1)
        media_row.addWidget(self.reset_media)
        layout = QVBoxLayout(body)
        layout.addLayout(head)
        layout.addWidget(self.account_error)
        layout.addWidget(self.general_error)
        layout.addLayout(text_row)
        layout.addWidget(self.text)
        layout.addWidget(self.text_error)
        layout.addLayout(media_row)
        layout.addWidget(self.media)
        settings_title = QLabel("Settings")
        settings_title.setObjectName("sectionTitle")
        layout.addWidget(settings_title)
        layout.addWidget(self.settings)
        layout.addStretch(1)

        self.override_text.toggled.connect(self._text_toggled)
        self.reset_text.clicked.connect(lambda: self.override_text.setChecked(False))
        self.text.textChanged.connect(self._text_edited)
        self.override_media.toggled.connect(self._media_toggled)
        self.reset_media.clicked.connect(lambda: self.override_media.setChecked(False))
        self.media.changed.connect(self._media_edited)
        # Only now that it has a parent: shown before, it opened as a window of its own.
        self.split.setVisible(net is not None and net.splits_into_thread)
        self.refresh()

    def refresh(self) -> None:
        """Show the document's current values (after a change elsewhere)."""
        dest = self.state.doc.destinations[self.index]
        own_text = dest.content is not None
        self.override_text.blockSignals(True)
        self.override_text.setChecked(own_text)
        self.override_text.blockSignals(False)
        self.reset_text.setEnabled(own_text)
        self.text.setReadOnly(not own_text)
        # A hidden tab's copy of the shared text is laid out when the tab is shown: setting
        # 2,200 characters in every tab cost ~3 ms a destination per refresh.
        self._text_stale = not own_text and not self.isVisible()
        if not self._text_stale and (not self.text.hasFocus() or not own_text):
            set_text_quietly(self.text, self.state.doc.content_for(self.index))
        own_media = dest.media is not None
        self.override_media.blockSignals(True)
        self.override_media.setChecked(own_media)
        self.override_media.blockSignals(False)
        self.reset_media.setEnabled(own_media)
        self.media.setEnabled(own_media)
        self.media.set_items(self.state.doc.media_for(self.index))
        account = self.data.accounts_by_id().get(dest.account_id)
        count = char_count(self.state.doc, self.index, account)
        counted = "" if count is None else f"{count.used} / {count.limit}"
        if counted != self.counter.text():
            self.counter.setText(counted)
        self.split.setEnabled(count is not None and count.over_by > 0)

    def showEvent(self, event: QShowEvent) -> None:
        if self._text_stale:
            self._text_stale = False
            set_text_quietly(self.text, self.state.doc.content_for(self.index))
        super().showEvent(event)

    def shown_text(self) -> str:
        """The text this tab shows (or will show when it is opened)."""
        if self._text_stale:
            return self.state.doc.content_for(self.index)
        return self.text.toPlainText()

    def overrides(self) -> list[str]:
        dest = self.state.doc.destinations[self.index]
        return [
            name
            for name, on in (("text", dest.content is not None), ("media", dest.media is not None))
            if on
        ]

    def _text_toggled(self, on: bool) -> None:
        self.state.set_destination_content(self.index, self.state.doc.content if on else None)
        self.refresh()
        if on:
            self.text.setFocus()

    def _text_edited(self) -> None:
        if self.state.doc.destinations[self.index].content is not None:
            self.state.set_destination_content(self.index, self.text.toPlainText())

    def _media_toggled(self, on: bool) -> None:
        self.state.set_media(self.index, list(self.state.doc.media) if on else None)
        self.refresh()

    def _media_edited(self, items: list[object]) -> None:
        if self.state.doc.destinations[self.index].media is not None:
            self.state.set_media(self.index, list(items))  # type: ignore[arg-type]


class SharedEditor(QWidget):
    """The text and media every destination uses unless it has its own."""

    def __init__(
        self,
        state: ComposerState,
        errors: FieldErrors,
        on_editor_focus: Callable[[TextEditor], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.text = TextEditor()
        self.text.setObjectName("sharedText")
        self.text.setAccessibleName("Post text")
        self.text.setPlaceholderText("What do you want to share?")
        self.text.setMinimumHeight(120)
        self.text.focused.connect(lambda: on_editor_focus(self.text))
        self.text_error = ErrorLabel()
        errors.register("content", self.text, self.text_error)
        self.counters = QLabel()
        self.counters.setObjectName("counters")
        self.counters.setAccessibleName("Length per destination")
        self.counters.setWordWrap(True)
        self.counters.setTextFormat(Qt.TextFormat.RichText)
        self.media = MediaStrip()
        errors.register("media", self.media.list, self.media.error)
        self.tools = QHBoxLayout()
        self.tools.addWidget(emoji_button(self.text))
        self.tools.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.text_error)
        layout.addWidget(self.counters)
        layout.addLayout(self.tools)
        layout.addWidget(self.media)
        self.text.textChanged.connect(lambda: state.set_content(self.text.toPlainText()))
        self.media.changed.connect(lambda items: state.set_media(None, list(items)))

    def refresh(self, accounts: dict[str, SocialAccountSummary]) -> None:
        set_text_quietly(self.text, self.state.doc.content)
        if self.media.items() != self.state.doc.media:
            self.media.set_items(list(self.state.doc.media))
        parts = []
        for i, dest in enumerate(self.state.doc.destinations):
            count = char_count(self.state.doc, i, accounts.get(dest.account_id))
            if count is None:
                continue
            colour = "#b3261e" if count.over_by else ("#9a6700" if count.remaining < 20 else "#555")
            own = " (own text)" if dest.content is not None else ""
            parts.append(
                f"<span style='color:{colour}'>{network_name(dest.platform)}{own}: "
                f"{count.used}/{count.limit}</span>"
            )
        shown = " · ".join(parts)
        if shown != self.counters.text():
            self.counters.setText(shown)  # rich text: laid out again on every setText
