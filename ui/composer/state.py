"""The composer's one evented state object: the document being edited and who it belongs to.

Widgets change the document only through these methods, so every change reaches autosave,
the checks and the preview through one signal.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.compose.document import (
    ComposerDocument,
    DestinationDraft,
    MediaAttachment,
    Schedule,
    ScheduleMode,
)
from app.compose.preview import split_into_thread
from app.models.accounts import SocialAccountSummary
from app.models.posts import Post


class ComposerState(QObject):
    changed = Signal()
    """Any edit of the document (text, settings, media, time, destinations)."""
    destinationsChanged = Signal()
    """A destination was added or removed, or a content type changed (forms rebuild)."""
    replaced = Signal()
    """A different document is being edited now (new post, another draft opened)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = ComposerDocument()
        self.draft_id: str | None = None
        """The local draft holding this document, once it was first saved."""
        self.revision = 0
        """The draft revision this editor last loaded or saved (compare-and-set base)."""
        self.original: Post | None = None
        """The server's version of the post this document edits, when it is known."""
        self.typing = False
        """True while `changed` reports a keystroke in a text (listeners may coalesce those)."""

    # -- whole document ------------------------------------------------------------------------
    def replace(
        self,
        doc: ComposerDocument,
        *,
        draft_id: str | None = None,
        revision: int = 0,
        original: Post | None = None,
    ) -> None:
        self.doc = doc
        self.original = original
        self.draft_id = draft_id
        self.revision = revision
        self.destinationsChanged.emit()
        self.replaced.emit()

    def _edited(self, structure: bool = False) -> None:
        if structure:
            self.destinationsChanged.emit()
        self.changed.emit()

    def _typed(self) -> None:
        self.typing = True
        try:
            self.changed.emit()
        finally:
            self.typing = False

    # -- text ----------------------------------------------------------------------------------
    def set_title(self, title: str) -> None:
        if title != self.doc.title:
            self.doc.title = title
            self._edited()

    def set_content(self, text: str) -> None:
        if text != self.doc.content:
            self.doc.content = text
            self._typed()

    def set_destination_content(self, index: int, text: str | None) -> None:
        dest = self.doc.destinations[index]
        if dest.content != text:
            overriding = (dest.content is None) != (text is None)
            dest.content = text
            if overriding:
                self._edited()  # own text switched on or off: a click, shown at once
            else:
                self._typed()

    def split_into_thread(self, index: int, account: SocialAccountSummary | None) -> bool:
        """Move the text past the limit into this destination's thread replies (user's ask)."""
        moved = split_into_thread(self.doc, index, account)
        if moved:
            # Structure: the settings form rebuilds its thread-replies editor from the document.
            self._edited(structure=True)
        return moved

    # -- destinations --------------------------------------------------------------------------
    def set_destinations(self, chosen: list[tuple[str, str]]) -> None:
        """Keep exactly `chosen` (account id, platform) in that order; kept destinations keep
        their overrides and settings."""
        by_id = {d.account_id: d for d in self.doc.destinations}
        if [d.account_id for d in self.doc.destinations] == [a for a, _ in chosen]:
            return
        kept: list[DestinationDraft] = []
        for account_id, platform in chosen:
            existing = by_id.get(account_id)
            if existing is None:
                existing = ComposerDocument().add_destination(account_id, platform)
            kept.append(existing)
        self.doc.destinations = kept
        self._edited(structure=True)

    def set_content_type(self, index: int, content_type: str) -> None:
        dest = self.doc.destinations[index]
        if dest.content_type != content_type:
            dest.content_type = content_type
            self._edited(structure=True)

    def set_meta(self, index: int, key: str, value: Any) -> None:
        dest = self.doc.destinations[index]
        meta = dict(dest.meta)
        if value is None or value == "" or value == []:
            if key not in meta:
                return
            meta.pop(key)
        elif meta.get(key) == value:
            return
        else:
            meta[key] = value
        dest.meta = meta
        self._edited()

    # -- media ---------------------------------------------------------------------------------
    def media_list(self, index: int | None) -> list[MediaAttachment]:
        if index is None:
            return list(self.doc.media)
        return list(self.doc.destinations[index].media or [])

    def set_media(self, index: int | None, media: list[MediaAttachment] | None) -> None:
        """Shared media (`index` None) or a destination's override (None = use the shared)."""
        if index is None:
            self.doc.media = list(media or [])
        else:
            self.doc.destinations[index].media = None if media is None else list(media)
        self._edited()

    # -- labels and schedule -------------------------------------------------------------------
    def set_labels(self, label_ids: list[str]) -> None:
        if label_ids != self.doc.labels:
            self.doc.labels = list(label_ids)
            self._edited()

    def set_schedule(self, mode: ScheduleMode, at: datetime | None) -> None:
        if self.doc.schedule.mode is mode and self.doc.schedule.at == at:
            return
        self.doc.schedule = Schedule(mode=mode, at=at)
        self._edited()
