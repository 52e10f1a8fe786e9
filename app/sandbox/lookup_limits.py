"""§8 "Audio search": 60 lookups a minute per user, shared by the audio search, audio track
reads and the Pinterest board and Discord channel lookups. Counted on the sandbox clock in the
store, like the 30-a-minute uncached audio lookups per workspace (`audio_search.py`)."""

from __future__ import annotations

import math
from datetime import timedelta

from app.sandbox.clock import from_db, to_db
from app.sandbox.db import Db
from app.sandbox.errors import ApiProblem

USER_LOOKUPS_PER_MINUTE = 60
WINDOW = timedelta(minutes=1)


def wait_seconds(db: Db, user_id: str) -> int | None:
    """Seconds until this user may look something up again; None when allowed now."""
    now = db.clock()
    rows = db.all(
        "SELECT at FROM lookup_hits WHERE user_id = ? AND at > ? ORDER BY at",
        (user_id, to_db(now - WINDOW)),
    )
    if len(rows) < USER_LOOKUPS_PER_MINUTE:
        return None
    frees_at = from_db(rows[len(rows) - USER_LOOKUPS_PER_MINUTE]["at"]) + WINDOW
    return max(1, math.ceil((frees_at - now).total_seconds()))


def take(db: Db, user_id: str) -> None:
    """Count one lookup, or refuse it with 429 and `Retry-After`."""
    wait = wait_seconds(db, user_id)
    if wait is not None:
        raise ApiProblem(
            429,
            {
                "name": "rate_limit_exceeded",
                "message": f"Too many lookups: at most {USER_LOOKUPS_PER_MINUTE} a minute. "
                f"Try again in {wait} seconds.",
            },
            {"Retry-After": str(wait)},
        )
    db.run("INSERT INTO lookup_hits (user_id, at) VALUES (?, ?)", (user_id, db.now()))
