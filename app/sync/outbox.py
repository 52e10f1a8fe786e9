"""The outbox: batches waiting to be created on the server, kept in the workspace's local file.

An entry is one `POST /posts/batch` request and moves through these states:

    queued ──► sending ──► sent (post ids recorded)
       ▲          │  └───► needs attention (the server refused it; its reason)
       │          └──────► outcome unknown ──reconcile against GET /posts──► sent | queued
       └── needs confirmation (its schedule time passed while it waited: ask the user)

`OutboxService` (`app.sync.outbox_service`) drives the sending, one `OutboxSender` pass at a
time. This module only stores entries and the user's decisions (and hides a sent batch's
draft). Every change is committed before it is reported; an entry found in `sending` when a
sender starts is treated as "outcome unknown", because the request may have left before the
app stopped.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from app.models.requests import BatchRequest
from app.store import outbox_sql as sql
from app.store.local_store import LocalStore, parse_utc_text, utc_text

_CONTEXT = {"server_tz": UTC}
_SUMMARY_CHARS = 80


class OutboxState(StrEnum):
    QUEUED = "queued"
    SENDING = "sending"
    OUTCOME_UNKNOWN = "outcome_unknown"
    SENT = "sent"
    NEEDS_ATTENTION = "needs_attention"
    NEEDS_CONFIRMATION = "needs_confirmation"

    @property
    def label(self) -> str:
        """Words for the UI."""
        return _LABELS[self]


_LABELS = {
    OutboxState.QUEUED: "Queued",
    OutboxState.SENDING: "Sending",
    OutboxState.OUTCOME_UNKNOWN: "Checking whether it was created",
    OutboxState.SENT: "Sent",
    OutboxState.NEEDS_ATTENTION: "Needs attention",
    OutboxState.NEEDS_CONFIRMATION: "Schedule time passed: confirm",
}

FINAL_STATES = frozenset(
    {OutboxState.SENT, OutboxState.NEEDS_ATTENTION, OutboxState.NEEDS_CONFIRMATION}
)
"""Nothing more happens to these without the user."""


@dataclass(frozen=True)
class OutboxEntry:
    id: int
    draft_id: str | None
    request: BatchRequest
    summary: str
    scheduled_at: datetime | None
    state: OutboxState
    reason: str | None
    """Why it needs attention (the server's message), or why it waits."""
    post_ids: tuple[str, ...]
    """The posts it created, once `sent`."""
    attempts: int
    sent_at: datetime | None
    """When the last request left (local clock); reconciliation looks for posts since then."""
    check_after: datetime | None
    """An unknown outcome is checked from then on (None: `sent_at` + the sender's settle)."""
    source_key: str | None
    """Where it came from when that must be imported once only (a CSV row), else None."""
    created_at: datetime
    updated_at: datetime
    field_errors: dict[str, list[str]] = field(default_factory=dict)
    """A 422's errors by the server's field path (`destinations.2.meta.board_id`)."""


OutboxListener = Callable[[OutboxEntry], None]


def encode_request(request: BatchRequest) -> str:
    """The request as stored: JSON with times in UTC, so it reads back equal."""
    return request.model_dump_json(exclude_none=True, context=_CONTEXT)


def decode_request(text: str) -> BatchRequest:
    return BatchRequest.model_validate_json(text, context=_CONTEXT)


class Outbox:
    """Entries of one workspace. Writes are async (committed when they return); reads are cheap.

    `listeners` are called (on the caller's thread, after the commit) with every changed entry.
    """

    def __init__(self, store: LocalStore) -> None:
        self.store = store
        self.listeners: list[OutboxListener] = []

    # -- reads ----------------------------------------------------------------------------------

    def entries(self, states: Iterable[OutboxState] | None = None) -> list[OutboxEntry]:
        """Entries in the order they were queued, optionally only those in `states`."""
        if states is None:
            rows = self.store.read(sql.SELECT_ALL)
        else:
            wanted = [str(state) for state in states]
            rows = self.store.read(sql.select_in_states(len(wanted)), wanted)
        return [_entry(row) for row in rows]

    def get(self, entry_id: int) -> OutboxEntry | None:
        rows = self.store.read(sql.SELECT_BY_ID, (entry_id,))
        return _entry(rows[0]) if rows else None

    def find_by_source(self, source_key: str) -> OutboxEntry | None:
        rows = self.store.read(sql.SELECT_BY_SOURCE, (source_key,))
        return _entry(rows[0]) if rows else None

    def claimed_post_ids(self, since: datetime) -> set[str]:
        """Post ids already credited to entries sent at or after `since`: reconciliation never
        credits one post to two entries."""
        rows = self.store.read(
            sql.SELECT_POST_IDS_SENT_SINCE,
            (str(OutboxState.SENT), utc_text(since)),
        )
        return {post_id for (text,) in rows for post_id in json.loads(text)}

    # -- the user's actions -----------------------------------------------------------------------

    async def enqueue(
        self,
        request: BatchRequest,
        *,
        draft_id: str | None = None,
        summary: str | None = None,
        source_key: str | None = None,
    ) -> OutboxEntry:
        """Queue a batch; the sender picks it up (`OutboxService.enqueue` also wakes it).

        With a `source_key` already in the outbox (whatever its state), nothing is queued and
        that entry is returned: importing the same CSV row twice sends it once."""
        text = summary if summary is not None else _summary(request)
        scheduled = utc_text(request.scheduled_at) if request.scheduled_at else None
        encoded = encode_request(request)

        def work(connection: sqlite3.Connection) -> OutboxEntry:
            if source_key is not None:
                known = connection.execute(sql.SELECT_ID_BY_SOURCE, (source_key,)).fetchone()
                if known is not None:
                    return _load(connection, int(known[0]))
            now = utc_text(self.store.now())
            cursor = connection.execute(
                sql.INSERT,
                (draft_id, encoded, text, scheduled, str(OutboxState.QUEUED), source_key, now, now),
            )
            return _load(connection, int(cursor.lastrowid or 0))

        return self._announce(await self.store.transaction(work))

    async def confirm(
        self,
        entry_id: int,
        *,
        scheduled_at: datetime | None = None,
        as_draft: bool = False,
    ) -> OutboxEntry:
        """Answer "needs confirmation" (or re-queue "needs attention"): send it with a new
        `scheduled_at`, or `as_draft` (no time). Without either, it is sent unchanged.
        Raises KeyError; ValueError when the entry is not waiting for the user."""
        entry = self._get_or_raise(entry_id)
        request = entry.request
        if as_draft:
            request = request.model_copy(update={"status": "draft", "scheduled_at": None})
            request = request.model_copy(update={"queue": None})
        elif scheduled_at is not None:
            request = request.model_copy(update={"scheduled_at": scheduled_at})
        return await self._requeue(entry, request)

    async def retry(self, entry_id: int, request: BatchRequest | None = None) -> OutboxEntry:
        """Send a "needs attention" entry again, optionally with a corrected request."""
        entry = self._get_or_raise(entry_id)
        return await self._requeue(entry, request or entry.request)

    async def discard(self, entry_id: int) -> None:
        """Remove an entry the user gave up on. Refused (ValueError) while it is sending or its
        outcome is unknown: it might exist on the server."""
        entry = self._get_or_raise(entry_id)
        if entry.state in (OutboxState.SENDING, OutboxState.OUTCOME_UNKNOWN):
            raise ValueError("This batch may already be on the server; wait for the check.")

        def work(connection: sqlite3.Connection) -> None:
            connection.execute(sql.DELETE_IN_STATE, (entry_id, str(entry.state)))

        await self.store.transaction(work)

    # -- the sender's transitions -----------------------------------------------------------------

    async def transition(
        self,
        entry_id: int,
        new: OutboxState,
        *,
        expect: Iterable[OutboxState],
        reason: str | None = None,
        post_ids: Iterable[str] | None = None,
        sending: bool = False,
        check_after: datetime | None = None,
        field_errors: Mapping[str, list[str]] | None = None,
    ) -> OutboxEntry | None:
        """Move an entry to `new` only if it is in one of `expect` (compare-and-set, so two
        senders on one file cannot both take it). `sending=True` records the send time and
        counts the attempt. `field_errors` replaces the stored ones (cleared when omitted).
        Returns the updated entry, or None when it was not in `expect`."""
        errors_text = json.dumps(dict(field_errors or {}))
        expected = [str(state) for state in expect]
        ids = json.dumps(list(post_ids)) if post_ids is not None else None

        def work(connection: sqlite3.Connection) -> OutboxEntry | None:
            now = utc_text(self.store.now())
            sets = ["state = ?", "reason = ?", "updated_utc = ?", "field_errors = ?"]
            params: list[Any] = [str(new), reason, now, errors_text]
            if ids is not None:
                sets.append("post_ids = ?")
                params.append(ids)
            if sending:
                sets += ["sent_utc = ?", "attempts = attempts + 1", "check_after_utc = NULL"]
                params.append(now)
            if check_after is not None:
                sets.append("check_after_utc = ?")
                params.append(utc_text(check_after))
            cursor = connection.execute(
                sql.update_if_in_states(sets, len(expected)),
                [*params, entry_id, *expected],
            )
            if not cursor.rowcount:
                return None
            if new is OutboxState.SENT:
                _hide_sent_draft(connection, entry_id, now)
            return _load(connection, entry_id)

        changed = await self.store.transaction(work)
        return self._announce(changed) if changed is not None else None

    def _announce(self, entry: OutboxEntry) -> OutboxEntry:
        for listener in list(self.listeners):
            listener(entry)
        return entry

    def _get_or_raise(self, entry_id: int) -> OutboxEntry:
        entry = self.get(entry_id)
        if entry is None:
            raise KeyError(entry_id)
        return entry

    async def _requeue(self, entry: OutboxEntry, request: BatchRequest) -> OutboxEntry:
        if entry.state not in (OutboxState.NEEDS_CONFIRMATION, OutboxState.NEEDS_ATTENTION):
            raise ValueError(f"This batch is {entry.state.label.lower()}; nothing to confirm.")
        encoded = encode_request(request)
        scheduled = utc_text(request.scheduled_at) if request.scheduled_at else None

        def work(connection: sqlite3.Connection) -> OutboxEntry | None:
            cursor = connection.execute(
                sql.REQUEUE,
                (
                    encoded,
                    scheduled,
                    str(OutboxState.QUEUED),
                    utc_text(self.store.now()),
                    entry.id,
                    str(entry.state),
                ),
            )
            return _load(connection, entry.id) if cursor.rowcount else None

        changed = await self.store.transaction(work)
        if changed is None:
            raise ValueError("This batch changed meanwhile; look at it again.")
        return self._announce(changed)


def _hide_sent_draft(connection: sqlite3.Connection, entry_id: int, now: str) -> None:
    """The draft a sent batch came from is hidden in the same commit (`restore_draft` brings
    it back): after a crash between the two, the user would find it and could send it twice.
    A draft that edits a server post is not the batch's, so it stays."""
    connection.execute(sql.HIDE_SENT_DRAFT, (now, entry_id))


def _summary(request: BatchRequest) -> str:
    text = request.content or next((d.content for d in request.destinations if d.content), "")
    words = " ".join((text or "").split())
    if len(words) > _SUMMARY_CHARS:
        words = words[: _SUMMARY_CHARS - 1] + "…"
    count = len(request.destinations)
    return f"{words or '(no text)'} — {count} destination{'s' if count != 1 else ''}"


def _load(connection: sqlite3.Connection, entry_id: int) -> OutboxEntry:
    row = connection.execute(sql.SELECT_BY_ID, (entry_id,)).fetchone()
    return _entry(row)


def _entry(row: Any) -> OutboxEntry:
    return OutboxEntry(
        id=row[0],
        draft_id=row[1],
        request=decode_request(row[2]),
        summary=row[3],
        scheduled_at=parse_utc_text(row[4]) if row[4] else None,
        state=OutboxState(row[5]),
        reason=row[6],
        post_ids=tuple(json.loads(row[7])),
        attempts=row[8],
        sent_at=parse_utc_text(row[9]) if row[9] else None,
        check_after=parse_utc_text(row[10]) if row[10] else None,
        source_key=row[11],
        created_at=parse_utc_text(row[12]),
        updated_at=parse_utc_text(row[13]),
        field_errors=json.loads(row[14]),
    )


__all__ = [
    "FINAL_STATES",
    "Outbox",
    "OutboxEntry",
    "OutboxListener",
    "OutboxState",
    "decode_request",
    "encode_request",
]
