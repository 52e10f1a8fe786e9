"""Sending a composed post: media uploaded first (with progress), then the batch goes through
the outbox (exactly once, queued while offline), and an edit goes through `PUT /posts/{id}`
with a read-back. Created posts are stored in the cache at once so the calendar shows them.

The outbox stores a refusal only as words; to put a 422's messages on the exact fields, the
sender's client is wrapped so the structured errors (and the created posts) of each request
are kept here until the outbox reports the entry's new state.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QObject, Signal

from app.api.client import ApiClient
from app.api.errors import ApiError, NotFound, ValidationFailed
from app.compose.batch import (
    build_batch,
    build_update,
    destination_indexes,
    ignored_fields,
)
from app.compose.checks import map_validation_error
from app.compose.document import ComposerDocument, MediaAttachment
from app.models.posts import Post
from app.models.requests import BatchRequest, PostUpdate
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxEntry, OutboxState, encode_request
from app.sync.outbox_sender import IDLE_POLL, OutboxSender, SenderStatus
from ui.tasks import TaskGroup

if TYPE_CHECKING:
    from ui.session import WorkspaceSession

Progress = Callable[[str], None]
FINAL_STATES = frozenset(
    {OutboxState.SENT, OutboxState.NEEDS_ATTENTION, OutboxState.NEEDS_CONFIRMATION}
)
WAITING_PHASES = frozenset({"offline", "rate_limited", "blocked"})


@dataclass
class SendOutcome:
    """`state`: "sent", "refused" (field errors in `errors`), "queued" (will be sent when the
    connection is back; `message` says why it waits), or "confirm" (time passed)."""

    state: str
    entry_id: int | None = None
    posts: list[Post] = field(default_factory=list)
    errors: dict[str, list[str]] = field(default_factory=dict)
    message: str = ""
    made: int = 0  # posts created ("sent"), also when only their ids are known


@dataclass
class EditOutcome:
    post: Post | None = None
    ignored: list[str] = field(default_factory=list)
    errors: dict[str, list[str]] = field(default_factory=dict)


class _RecordingPosts:
    def __init__(self, posts: Any, owner: SendController) -> None:
        self._posts = posts
        self._owner = owner

    async def create_batch(self, request: BatchRequest) -> list[Post]:
        key = encode_request(request)
        try:
            created: list[Post] = await self._posts.create_batch(request)
        except ValidationFailed as exc:
            self._owner.refusals[key] = exc
            raise
        self._owner.created[key] = created
        return created

    def __getattr__(self, name: str) -> Any:
        return getattr(self._posts, name)


class _RecordingClient:
    """The session's client, except that batch answers are also reported to the composer."""

    def __init__(self, client: ApiClient, owner: SendController) -> None:
        self._client = client
        self.posts = _RecordingPosts(client.posts, owner)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)


class SendController(QObject):
    """One per workspace: the outbox and its sender, and the composer's ways of sending."""

    entriesChanged = Signal()
    statusChanged = Signal(str)
    postsCreated = Signal(list)  # [Post]

    def __init__(
        self,
        session: WorkspaceSession,
        store: LocalStore,
        tasks: TaskGroup,
        *,
        settle_seconds: float | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.store = store
        self.tasks = tasks
        self.outbox = Outbox(store)
        self.outbox.listeners.append(self._entry_changed)
        self.refusals: dict[str, ValidationFailed] = {}
        self.created: dict[str, list[Post]] = {}
        self._waiters: dict[int, asyncio.Future[OutboxEntry | None]] = {}
        self._indexes: dict[int, dict[int, int]] = {}
        self.status = SenderStatus("idle")
        extra = {} if settle_seconds is None else {"settle_seconds": settle_seconds}
        self.outbox_sender = OutboxSender(
            self.outbox,
            cast(ApiClient, _RecordingClient(session.client, self)),
            on_status=self._on_status,
            **extra,  # type: ignore[arg-type]
        )
        self._wakeup: asyncio.Future[None] | None = None
        self._woken = False
        self._run = tasks.spawn(self._drive())

    async def _drive(self) -> None:
        """`OutboxSender.run()`, with a wait that leaves no coroutine behind when cancelled."""
        loop = asyncio.get_running_loop()
        while True:
            self._woken = False
            result = await self.outbox_sender.send_pending()
            if self._woken:
                continue
            timeout = IDLE_POLL if result.retry_in is None else max(result.retry_in, 0.05)
            wakeup: asyncio.Future[None] = loop.create_future()
            self._wakeup = wakeup
            timer = loop.call_later(timeout, _resolve, wakeup)
            try:
                await wakeup
            finally:
                timer.cancel()
                self._wakeup = None

    def wake(self) -> None:
        """Send now (after an enqueue, or when the connection is back)."""
        self._woken = True
        if self._wakeup is not None:
            _resolve(self._wakeup)

    def stop(self) -> None:
        self._run.cancel()
        for waiter in self._waiters.values():
            if not waiter.done():
                waiter.cancel()

    async def aclose(self) -> None:
        self.stop()
        await asyncio.gather(self._run, return_exceptions=True)

    # -- outbox events -------------------------------------------------------------------------
    def _on_status(self, status: SenderStatus) -> None:
        self.status = status
        text = "" if status.phase == "idle" else status.message
        if status.phase == "offline":
            text = "Offline: queued posts are sent when the connection is back."
        self.statusChanged.emit(text)
        if status.phase in WAITING_PHASES:
            for waiter in self._waiters.values():
                if not waiter.done():
                    waiter.set_result(None)

    def _entry_changed(self, entry: OutboxEntry) -> None:
        if entry.state is OutboxState.SENT:
            self.tasks.spawn(self._store_sent(entry))
        waiter = self._waiters.get(entry.id)
        if waiter is not None and not waiter.done() and entry.state in FINAL_STATES:
            waiter.set_result(entry)
        self.entriesChanged.emit()

    async def _store_sent(self, entry: OutboxEntry) -> None:
        # A composer waiting for this entry still counts these posts (`_outcome` drops them).
        key = encode_request(entry.request)
        posts = self.created.get(key) if entry.id in self._waiters else self.created.pop(key, None)
        if posts is None:
            posts = []
            for post_id in entry.post_ids:
                with contextlib.suppress(ApiError):
                    posts.append(await self.session.client.posts.get(post_id))
        for post in posts:
            self.session.cache.upsert_post(post)
        if posts:
            self.session.dataChanged.emit(None)
            self.postsCreated.emit(posts)
        if entry.draft_id is not None:
            with contextlib.suppress(Exception):
                current = self.store.get_draft(entry.draft_id)
                if current is not None and current.server_post_id is None:
                    await self.store.delete_draft(entry.draft_id)

    def entries(self) -> list[OutboxEntry]:
        return self.outbox.entries()

    # -- new posts -----------------------------------------------------------------------------
    async def send_new(
        self, doc: ComposerDocument, *, draft_id: str | None, revision: int, progress: Progress
    ) -> SendOutcome:
        """Upload, queue and wait for the first answer (or for the sender to say it waits)."""
        ready = await self.upload_media(doc, progress)
        request = build_batch(ready)
        indexes = destination_indexes(ready)
        progress("Sending…")
        existing = self._open_entry_of(draft_id)
        if existing is not None:
            entry = await self.outbox.retry(existing.id, request)
        else:
            key = f"draft:{draft_id}:{revision}" if draft_id else None
            entry = await self.outbox.enqueue(request, draft_id=draft_id, source_key=key)
        self._indexes[entry.id] = indexes
        if entry.state in FINAL_STATES:
            return self._outcome(entry)
        waiter: asyncio.Future[OutboxEntry | None] = asyncio.get_running_loop().create_future()
        self._waiters[entry.id] = waiter
        self.wake()
        try:
            final = await waiter
        finally:
            self._waiters.pop(entry.id, None)
        if final is None:
            return SendOutcome("queued", entry.id, message=self.status.message)
        return self._outcome(final)

    def _open_entry_of(self, draft_id: str | None) -> OutboxEntry | None:
        if draft_id is None:
            return None
        for entry in self.outbox.entries(
            [OutboxState.NEEDS_ATTENTION, OutboxState.NEEDS_CONFIRMATION]
        ):
            if entry.draft_id == draft_id:
                return entry
        return None

    def _outcome(self, entry: OutboxEntry) -> SendOutcome:
        if entry.state is OutboxState.SENT:
            posts = list(self.created.pop(encode_request(entry.request), []))
            # After a lost answer the batch was found by reading /posts: only its ids are known.
            made = max(len(posts), len(entry.post_ids))
            return SendOutcome("sent", entry.id, posts=posts, made=made)
        if entry.state is OutboxState.NEEDS_CONFIRMATION:
            return SendOutcome("confirm", entry.id, message=entry.reason or "")
        refusal = self.refusals.pop(encode_request(entry.request), None)
        if refusal is not None:
            errors = map_validation_error(refusal)
            indexes = self._indexes.get(entry.id, {})
            errors = {_remap(path, indexes): msgs for path, msgs in errors.items()}
            return SendOutcome("refused", entry.id, errors=errors, message=refusal.message)
        return SendOutcome("refused", entry.id, errors={"": [entry.reason or "Refused."]})

    def refusal_for(self, entry: OutboxEntry) -> dict[str, list[str]]:
        """Field errors of an entry that needs attention (when the refusal was seen here)."""
        refusal = self.refusals.get(encode_request(entry.request))
        if refusal is None:
            return {"": [entry.reason or ""]} if entry.reason else {}
        return map_validation_error(refusal)

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
        return await self.session.client.uploads.upload(Path(path), mime or None)

    # -- editing -------------------------------------------------------------------------------
    async def save_edit(
        self, doc: ComposerDocument, original: Post, progress: Progress
    ) -> EditOutcome:
        ready = await self.upload_media(doc, progress)
        plan = build_update(ready, original)
        progress("Saving…")
        client = self.session.client
        try:
            await client.posts.update(original.id, plan.update)
        except ValidationFailed as exc:
            return EditOutcome(
                errors=map_validation_error(exc, platform_indexes=plan.platform_indexes)
            )
        after = await client.posts.get(original.id)
        self.session.cache.upsert_post(after)
        self.session.dataChanged.emit(None)
        return EditOutcome(after, _ignored(plan.update, after))

    async def delete_post(self, post_id: str) -> None:
        with contextlib.suppress(NotFound):
            await self.session.client.posts.delete(post_id)
        self.session.cache.delete_post(post_id)
        self.session.dataChanged.emit(None)


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _ignored(sent: PostUpdate, after: Post) -> list[str]:
    return ignored_fields(sent, after)


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
