"""Channel queues: each account has weekly posting slots in its own time zone.

`next` takes the first upcoming slot nobody holds. `top` takes the first upcoming slot and pushes
queued posts that stand in its way one slot later each, stopping at the first gap, so the queue's
order is kept and as few posts as possible move. Posts scheduled at a fixed time keep their slot.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from app.sandbox.clock import as_utc, to_db
from app.sandbox.db import Db, Row, loads

# How far ahead a queue is searched for a free slot before giving up.
_HORIZON_DAYS = 366


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def upcoming_slots(account: Row, after: datetime) -> Iterator[str]:
    """Slot instants strictly after `after`, ascending, as stored (UTC) strings."""
    slots = loads(account["queue_slots"]) or []
    if not slots:
        return
    zone = _zone(account["timezone"])
    local_start = as_utc(after).astimezone(zone)
    after_text = to_db(after)
    for offset in range(_HORIZON_DAYS):
        day = (local_start + timedelta(days=offset)).date()
        times = sorted(s["time"] for s in slots if s["day"] == day.weekday())
        for hhmm in times:
            hour, minute = (int(part) for part in hhmm.split(":"))
            local = datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone)
            text = to_db(local)
            if text > after_text:
                yield text


def _occupied(db: Db, account_id: str, after: str) -> tuple[set[str], dict[str, str]]:
    rows = db.all(
        "SELECT p.id, p.scheduled_at, p.schedule_mode FROM posts p "
        "JOIN post_platforms pp ON pp.post_id = p.id "
        "WHERE pp.social_account_id = ? AND pp.enabled = 1 AND p.status = 'scheduled' "
        "AND p.scheduled_at > ?",
        (account_id, after),
    )
    fixed = {r["scheduled_at"] for r in rows if r["schedule_mode"] != "queue"}
    queued = {r["scheduled_at"]: r["id"] for r in rows if r["schedule_mode"] == "queue"}
    return fixed, queued


def place(db: Db, account: Row, mode: str) -> str | None:
    """The slot for a new post of `account`; None when the account has no slots.

    With `top`, queued posts already in the way are moved here (an edit: no event).
    """
    now = db.clock()
    fixed, queued = _occupied(db, account["id"], to_db(now))
    free = (slot for slot in upcoming_slots(account, now) if slot not in fixed)
    if mode == "next":
        return next((slot for slot in free if slot not in queued), None)
    first = next(free, None)
    if first is None:
        return None
    carried = queued.get(first)
    for slot in free:
        if carried is None:
            break
        displaced = queued.get(slot)
        db.run(
            "UPDATE posts SET scheduled_at = ?, updated_at = ? WHERE id = ?",
            (slot, db.now(), carried),
        )
        carried = displaced
    return first


def has_slots(account: Row) -> bool:
    return bool(loads(account["queue_slots"]))
