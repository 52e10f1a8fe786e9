"""Outbox entries as the reconcile step finds them: sent once, their answer lost."""

from __future__ import annotations

from datetime import datetime

from app.models.requests import BatchRequest
from app.sync.outbox import OutboxEntry, OutboxState


def unknown_entry(
    entry_id: int, request: BatchRequest, *, sent: datetime | None, created: datetime | None = None
) -> OutboxEntry:
    """An entry in OUTCOME_UNKNOWN after one attempt sent at `sent` (None: not recorded),
    created at `created` (default: when it was sent)."""
    made = created or sent
    assert made is not None, "an entry needs a creation time"
    return OutboxEntry(
        id=entry_id,
        draft_id=None,
        request=request,
        summary="",
        scheduled_at=None,
        state=OutboxState.OUTCOME_UNKNOWN,
        reason=None,
        post_ids=(),
        attempts=1,
        sent_at=sent,
        check_after=None,
        source_key=None,
        created_at=made,
        updated_at=sent or made,
    )
