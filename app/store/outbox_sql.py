"""The outbox's SQL, beside its table (`local_schema.py`, steps 1 and 2): `app.sync.outbox`
decides what to store and when; the statements that touch the table live here.

Column order is `COLUMNS`; `app.sync.outbox` reads rows by position in it.
"""

from __future__ import annotations

from collections.abc import Sequence

COLUMNS = (
    "id, draft_id, request, summary, scheduled_utc, state, reason, post_ids, attempts, "
    "sent_utc, check_after_utc, source_key, created_utc, updated_utc, field_errors"
)

SELECT_ALL = f"SELECT {COLUMNS} FROM outbox ORDER BY id"
SELECT_BY_ID = f"SELECT {COLUMNS} FROM outbox WHERE id = ?"
SELECT_BY_SOURCE = f"SELECT {COLUMNS} FROM outbox WHERE source_key = ?"
SELECT_ID_BY_SOURCE = "SELECT id FROM outbox WHERE source_key = ?"
SELECT_POST_IDS_SENT_SINCE = "SELECT post_ids FROM outbox WHERE state = ? AND sent_utc >= ?"
INSERT = (
    "INSERT INTO outbox (draft_id, request, summary, scheduled_utc, state, "
    "source_key, created_utc, updated_utc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
DELETE_IN_STATE = "DELETE FROM outbox WHERE id = ? AND state = ?"
REQUEUE = (
    "UPDATE outbox SET request = ?, scheduled_utc = ?, state = ?, reason = NULL, "
    "field_errors = '{}', updated_utc = ? WHERE id = ? AND state = ?"
)
HIDE_SENT_DRAFT = (
    "UPDATE drafts SET deleted_utc = ? WHERE deleted_utc IS NULL AND server_post_id IS NULL "
    "AND id = (SELECT draft_id FROM outbox WHERE id = ?)"
)
"""Hides the draft a batch came from (params: now, entry id); a draft that edits a server post
is not the batch's, so it stays."""


def select_in_states(count: int) -> str:
    """Entries in one of `count` states (params: the states), in the order they were queued."""
    return f"SELECT {COLUMNS} FROM outbox WHERE state IN ({_marks(count)}) ORDER BY id"


def update_if_in_states(assignments: Sequence[str], count: int) -> str:
    """Compare-and-set (params: the assignments' values, the id, then `count` states)."""
    return f"UPDATE outbox SET {', '.join(assignments)} WHERE id = ? AND state IN ({_marks(count)})"


def _marks(count: int) -> str:
    return ", ".join("?" for _ in range(count))
