"""Sending a composed post: media uploaded first (with progress), then the batch is queued in the
workspace's outbox (the local file, kept across restarts), which the session's outbox service
sends also while no page is shown: at most one request per entry in flight, and after an unknown
outcome the post list is checked before anything is sent again. An edit goes through
`PUT /posts/{id}` with a read-back, under the session's single-write gate, and its answer reaches
the cache through the session.

This controller only enqueues and listens: it owns no loop and no task. A refusal's field
errors are read from the outbox entry, which keeps them (across a restart too).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QObject, Signal

from app.api.errors import ApiError, ValidationFailed
from app.compose.batch import (
    build_batch,
    build_update,
    destination_indexes,
    ignored_fields,
)
from app.compose.checks import GENERAL, map_field_errors, map_validation_error
from app.compose.document import ComposerDocument, MediaAttachment
from app.compose.uploads import upload_failure
from app.models.posts import Post
from app.models.requests import PostUpdate
from app.sync.outbox import OutboxEntry, OutboxState
from app.sync.outbox_sender import SenderStatus
from app.sync.outbox_service import FINAL_STATES, OutboxService
from ui.messages import Level, Message

if TYPE_CHECKING:
    from ui.session import WorkspaceSession

T = TypeVar("T")
Progress = Callable[[str], None]


@dataclass
class SendOutcome:
    """`state`: "sent", "refused" (field errors in `errors`), "queued" (will be sent when the
    connection is back; `message` says why it waits), or "confirm" (time passed)."""

    state: str
    entry_id: int | None = None
    errors: dict[str, list[str]] = field(default_factory=dict)
    message: str = ""
    made: int = 0  # posts created ("sent")


@dataclass
class EditOutcome:
    post: Post | None = None
    ignored: list[str] = field(default_factory=list)
    errors: dict[str, list[str]] = field(default_factory=dict)


class SendController(QObject):
    """The composer's side of the workspace's outbox: enqueue, wait for the answer, listen."""

    entriesChanged = Signal()
    statusChanged = Signal(str)

    def __init__(self, session: WorkspaceSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        assert session.outbox is not None, "the session's outbox runs from its start"
        self.session = session
        self.service: OutboxService = session.outbox
        self.outbox = self.service.outbox
        session.outboxChanged.connect(self._entry_changed)
        session.outboxStatusChanged.connect(self._on_status)

    @property
    def status(self) -> SenderStatus:
        return self.service.status

    def stop(self) -> None:
        """Stop listening (the page leaves the workspace; the sending goes on without it)."""
        with contextlib.suppress(RuntimeError, TypeError):
            self.session.outboxChanged.disconnect(self._entry_changed)
            self.session.outboxStatusChanged.disconnect(self._on_status)

    def wake(self) -> None:
        self.service.wake()

    # -- outbox events -------------------------------------------------------------------------
    def show_status(self) -> None:
        """Say what the outbox waits for now (`statusChanged`)."""
        self._on_status(self.status)

    def _on_status(self, status: SenderStatus) -> None:
        text = "" if status.phase == "idle" else status.message
        if status.phase == "offline":
            text = "Offline: queued posts are sent when the connection is back."
        self.statusChanged.emit(text)

    def _entry_changed(self, _entry: OutboxEntry) -> None:
        self.entriesChanged.emit()

    def entries(self) -> list[OutboxEntry]:
        return self.outbox.entries()

    # -- new posts -----------------------------------------------------------------------------
    async def send_new(
        self, doc: ComposerDocument, *, draft_id: str | None, revision: int, progress: Progress
    ) -> SendOutcome:
        """Upload, queue and wait for the answer (or for the outbox to say it must wait)."""
        ready = await self.upload_media(doc, progress)
        request = build_batch(ready)
        indexes = destination_indexes(ready)
        progress("Sending…")
        since = self.service.rounds_begun
        existing = self._open_entry_of(draft_id)
        if existing is not None:
            entry = await self.service.retry(existing.id, request)
        else:
            key = f"draft:{draft_id}:{revision}" if draft_id else None
            entry = await self.service.enqueue(request, draft_id=draft_id, source_key=key)
        final = (
            entry if entry.state in FINAL_STATES else await self.service.outcome(entry.id, since)
        )
        if final is None:
            return SendOutcome("queued", entry.id, message=self.status.message)
        return _outcome(final, indexes)

    def _open_entry_of(self, draft_id: str | None) -> OutboxEntry | None:
        if draft_id is None:
            return None
        for entry in self.outbox.entries(
            [OutboxState.NEEDS_ATTENTION, OutboxState.NEEDS_CONFIRMATION]
        ):
            if entry.draft_id == draft_id:
                return entry
        return None

    def refusal_for(self, entry: OutboxEntry) -> dict[str, list[str]]:
        """The field errors of an entry that needs attention, on the fields of its draft as it
        is now (the entry keeps the server's errors; its draft says which destination each
        `destinations.N` of the batch was)."""
        if not entry.field_errors and not entry.reason:
            return {}
        indexes: dict[int, int] = {}
        draft = self.service.store.get_draft(entry.draft_id) if entry.draft_id else None
        if draft is not None:
            with contextlib.suppress(ValueError):
                indexes = destination_indexes(ComposerDocument.from_json(draft.document))
        return refusal_errors(entry, indexes)

    # -- media ---------------------------------------------------------------------------------
    async def upload_media(self, doc: ComposerDocument, progress: Progress) -> ComposerDocument:
        """A copy of `doc` whose attachments (and thread reply files) carry upload tokens."""
        ready = doc.model_copy(deep=True)
        pending = [m for m in ready.all_media() if m.needs_upload]
        replies = _reply_files(ready)
        total = len(pending) + len(replies)
        done = 0
        tokens: dict[str, str] = {}
        for item in pending:
            done += 1
            progress(f"Uploading {done} of {total}: {Path(item.path or '').name}")
            tokens[item.id] = await self._upload(item.path, item.mime)
        for reply in replies:
            done += 1
            progress(f"Uploading {done} of {total}: {Path(str(reply['path'])).name}")
            reply["upload_token"] = await self._upload(
                str(reply["path"]), str(reply.get("mime") or "")
            )
        _apply_tokens(ready, tokens)
        return ready

    async def _upload(self, path: str | None, mime: str) -> str:
        if not path:
            raise ApiError("An attachment has no file.", hint="Remove it and attach it again.")
        try:
            return await self.session.client.uploads.upload(Path(path), mime or None)
        except ApiError as exc:
            raise upload_failure(exc) from exc

    # -- editing -------------------------------------------------------------------------------
    async def save_edit(
        self, doc: ComposerDocument, original: Post, progress: Progress, *, back_to_draft: bool
    ) -> EditOutcome | None:
        """Upload, then save under the session's write gate (keyed by the post, as the
        calendar's actions are). `back_to_draft`: a failed post goes back to draft first, so it
        can be scheduled again (spec §3). None when nothing was saved: another write of this
        post was in flight, or the save failed (the workspace's messages say why)."""
        ready = await self.upload_media(doc, progress)
        progress("Saving…")
        task = self.session.gated(original.id, self._apply_edit(ready, original, back_to_draft))
        if task is None:
            self.session.messages.post(
                Message(
                    "This post is being changed already; nothing was saved.",
                    Level.WARNING,
                    hint="Wait until the calendar shows the change, then save again.",
                )
            )
            return None
        return await _answer(task)

    async def _apply_edit(
        self, ready: ComposerDocument, original: Post, back_to_draft: bool
    ) -> EditOutcome:
        client = self.session.client
        if back_to_draft:
            original = await client.posts.update(original.id, PostUpdate(status="draft"))
        plan = build_update(ready, original)
        try:
            await client.posts.update(original.id, plan.update)
        except ValidationFailed as exc:
            return EditOutcome(
                errors=map_validation_error(exc, platform_indexes=plan.platform_indexes)
            )
        after = await client.posts.get(original.id)
        await self.session.store_posts([after])
        return EditOutcome(after, ignored_fields(plan.update, after))


async def _answer(task: asyncio.Task[T]) -> T | None:
    """The task's result without cancelling it when the caller is cancelled; None when it
    failed (the session's task group reported it) or was cancelled."""
    await asyncio.wait([task])
    if task.cancelled() or task.exception() is not None:
        return None
    return task.result()


def _outcome(entry: OutboxEntry, indexes: dict[int, int]) -> SendOutcome:
    if entry.state is OutboxState.SENT:
        # After a lost answer the batch was found by reading /posts: its ids are what is known.
        return SendOutcome("sent", entry.id, made=len(entry.post_ids))
    if entry.state is OutboxState.NEEDS_CONFIRMATION:
        return SendOutcome("confirm", entry.id, message=entry.reason or "")
    return SendOutcome(
        "refused", entry.id, errors=refusal_errors(entry, indexes), message=entry.reason or ""
    )


def refusal_errors(entry: OutboxEntry, indexes: dict[int, int]) -> dict[str, list[str]]:
    """A refused entry's errors on the composer's fields: the stored 422 field errors, each
    batch `destinations.N` mapped back through `indexes`; else its reason, as a whole."""
    if not entry.field_errors:
        return {GENERAL: [entry.reason or "Refused."]}
    errors = map_field_errors(entry.field_errors, entry.reason or "")
    return {_remap(path, indexes): messages for path, messages in errors.items()}


def _remap(path: str, indexes: dict[int, int]) -> str:
    """Batch `destinations.N` counts only enabled destinations; map back to the document's."""
    if not path.startswith("destinations."):
        return path
    head, _, rest = path[len("destinations.") :].partition(".")
    if head.isdigit() and int(head) in indexes:
        return f"destinations.{indexes[int(head)]}" + (f".{rest}" if rest else "")
    return path


def _reply_files(doc: ComposerDocument) -> list[dict[str, Any]]:
    found = []
    for dest in doc.destinations:
        replies = dest.meta.get("thread_replies")
        if not isinstance(replies, list):
            continue
        for reply in replies:
            for item in reply.get("media") or [] if isinstance(reply, dict) else []:
                if isinstance(item, dict) and item.get("path") and not item.get("upload_token"):
                    found.append(item)
    return found


def _apply_tokens(doc: ComposerDocument, tokens: dict[str, str]) -> None:
    def stamp(items: list[MediaAttachment]) -> list[MediaAttachment]:
        return [
            m.model_copy(update={"upload_token": tokens[m.id]}) if m.id in tokens else m
            for m in items
        ]

    doc.media = stamp(doc.media)
    for dest in doc.destinations:
        if dest.media is not None:
            dest.media = stamp(dest.media)
        replies = dest.meta.get("thread_replies")
        if isinstance(replies, list):
            meta = dict(dest.meta)
            meta["thread_replies"] = [
                {
                    **reply,
                    "media": [
                        {"upload_token": m["upload_token"], "alt": m.get("alt", "")}
                        if isinstance(m, dict) and m.get("upload_token")
                        else m
                        for m in reply.get("media") or []
                    ],
                }
                if isinstance(reply, dict)
                else reply
                for reply in replies
            ]
            dest.meta = meta
