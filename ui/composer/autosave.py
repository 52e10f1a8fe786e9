"""Every edit reaches the durable drafts file soon after the typing pauses (and at least once a
second while it goes on), with no network. One save at a time; edits made during a save are
saved right after it. Each save works on a snapshot taken when it starts, and only a save of
the document still being edited may update the editor's draft id and revision."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.store.local_store import Draft, LocalStore, LocalStoreError
from ui.composer.state import ComposerState
from ui.tasks import TaskGroup

QUIET_MS = 150
"""Save this long after the last keystroke."""
MAX_WAIT_MS = 1000
"""...but never later than this after the first unsaved one, even while typing goes on."""


def search_text(state: ComposerState) -> str:
    doc = state.doc
    parts = [doc.title, doc.content, *(d.content or "" for d in doc.destinations)]
    return "\n".join(p for p in parts if p.strip())


def draft_title(state: ComposerState) -> str:
    if state.doc.title.strip():
        return state.doc.title.strip()
    first = next((line.strip() for line in state.doc.content.splitlines() if line.strip()), "")
    return first[:60]


def server_version(moment: datetime | None) -> str | None:
    """The form in which drafts remember a server post's `updated_at`."""
    return None if moment is None else moment.isoformat()


@dataclass(frozen=True)
class Snapshot:
    generation: int
    draft_id: str | None
    revision: int
    document: str
    title: str
    text: str
    empty: bool
    post_id: str | None
    version: str | None


class Autosaver(QObject):
    saved = Signal(object)  # Draft
    conflict = Signal(object)  # SaveResult with .conflict set
    failed = Signal(str)

    def __init__(
        self, state: ComposerState, tasks: TaskGroup, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._state = state
        self._tasks = tasks
        self.store: LocalStore | None = None
        self._dirty = False
        self._first_dirty = 0.0
        self._generation = 0
        self._saving: asyncio.Task[None] | None = None
        self._latest: dict[int, tuple[str, int]] = {}
        self.last_saved_monotonic = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._save_soon)
        state.changed.connect(self._on_changed)

    @property
    def dirty(self) -> bool:
        return self._dirty

    def before_replace(self) -> Coroutine[Any, Any, None] | None:
        """Call before the editor switches documents: returns the save of what is unsaved
        (run it), and forgets the old document."""
        old = self._snapshot(self._generation)
        self._generation += 1
        self._timer.stop()
        pending = None
        if self._dirty and self.store is not None:
            pending = self._finish_old(self.store, old, self._saving)
        self._dirty = False
        return pending

    async def _finish_old(
        self, store: LocalStore, snap: Snapshot, in_flight: asyncio.Task[None] | None
    ) -> None:
        if in_flight is not None and not in_flight.done():
            # Its answer carries the revision this save must build on.
            await asyncio.wait([in_flight])
        latest = self._latest.get(snap.generation)
        if latest is not None:
            snap = replace(snap, draft_id=latest[0], revision=latest[1])
        await self._save_snapshot(store, snap)

    def _on_changed(self) -> None:
        now = time.monotonic()
        if not self._dirty:
            self._first_dirty = now
        self._dirty = True
        waited_ms = (now - self._first_dirty) * 1000
        self._timer.start(int(max(0, min(QUIET_MS, MAX_WAIT_MS - waited_ms))))

    def _save_soon(self) -> None:
        if self._saving is None or self._saving.done():
            self._saving = self._tasks.spawn(self._save_loop())

    async def flush(self) -> None:
        """Save now what is unsaved (before sending, switching workspaces or closing)."""
        self._timer.stop()
        if self._saving is not None and not self._saving.done():
            await asyncio.shield(self._saving)
        if self._dirty:
            await self._save_loop()

    async def _save_loop(self) -> None:
        while self._dirty and self.store is not None:
            self._dirty = False
            try:
                await self._save_snapshot(self.store, self._snapshot(self._generation))
            except LocalStoreError as exc:
                self._dirty = True
                self.failed.emit(exc.message)
                return

    def _snapshot(self, generation: int) -> Snapshot:
        state = self._state
        doc = state.doc
        return Snapshot(
            generation=generation,
            draft_id=state.draft_id,
            revision=state.revision,
            document=doc.to_json(),
            title=draft_title(state),
            text=search_text(state),
            empty=doc.is_empty() and not doc.destinations and not doc.labels,
            post_id=doc.editing_post_id,
            version=server_version(doc.based_on_updated_at),
        )

    async def _save_snapshot(self, store: LocalStore, snap: Snapshot) -> None:
        if snap.draft_id is None:
            if snap.empty:
                return
            draft = await store.create_draft(
                snap.document,
                title=snap.title,
                text=snap.text,
                server_post_id=snap.post_id,
                server_version=snap.version,
            )
            self._adopt(draft, snap)
            return
        result = await store.save_draft(
            snap.draft_id,
            snap.document,
            base_revision=snap.revision,
            title=snap.title,
            text=snap.text,
        )
        self._adopt(result.saved, snap)
        if result.conflict is not None and snap.generation == self._generation:
            self.conflict.emit(result)

    def _adopt(self, draft: Draft, snap: Snapshot) -> None:
        self._latest = {snap.generation: (draft.id, draft.revision)}
        if snap.generation == self._generation:
            self._state.draft_id = draft.id
            self._state.revision = draft.revision
        self.last_saved_monotonic = time.monotonic()
        self.saved.emit(draft)
