"""Webhook deliveries in the store (§3 "Webhook status", §6 "Delivery", "Log retention").

Outbox events become queued log rows for every enabled, subscribed webhook; a queued row is the
job. The engine claims due rows, posts them (`webhook_sender.py`) and records each attempt here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from app.sandbox import webhooks_repo
from app.sandbox.clock import iso_now, shift, to_db
from app.sandbox.db import Db, dumps, loads
from app.sandbox.demo_receivers import Answer
from app.sandbox.webhook_sender import RESPONSE_BODY_MAX

MAX_ATTEMPTS = 3
PAUSE_AFTER_FAILURES = 5
LOG_RETENTION = timedelta(days=7)
PRUNE_EVERY = timedelta(days=1)
_PRUNED_META = "webhook_logs_pruned_at"


@dataclass(frozen=True)
class Job:
    """One claimed attempt: the log row to update and what to post."""

    log_id: str
    webhook_id: str
    event_type: str
    data: Any
    attempt: int


@dataclass(frozen=True)
class Target:
    """The webhook as it is at the moment of sending (a rotated secret applies at once)."""

    endpoint: str
    secret: str


def dispatch_events(db: Db) -> int:
    """Queue one delivery per (new outbox event, enabled webhook subscribed to it); events of
    paused and disabled webhooks are skipped (§3). Returns the number of rows queued."""
    queued = 0
    now = db.now()
    for event in db.all("SELECT * FROM events WHERE dispatched_at IS NULL ORDER BY id"):
        hooks = db.all(
            "SELECT id, events FROM webhooks WHERE workspace_id = ? AND status = 'enabled' "
            "AND created_at <= ? ORDER BY created_at, rowid",
            (event["workspace_id"], event["created_at"]),
        )
        for hook in hooks:
            if event["event_type"] in (loads(hook["events"]) or []):
                webhooks_repo.insert_log(
                    db, hook["id"], event["event_type"], loads(event["payload"]), created_at=now
                )
                queued += 1
        db.run("UPDATE events SET dispatched_at = ? WHERE id = ?", (now, event["id"]))
    return queued


def claim_due(db: Db) -> list[Job]:
    """Take every queued row whose time has come. A claimed row has no `next_attempt_at` until
    its attempt is recorded, so no other tick takes it too.

    Retries of a real event stop when the webhook is no longer enabled (events are skipped while
    paused or disabled); the row is closed as failed without another attempt. Replays always go.
    """
    now = db.now()
    rows = db.all(
        "SELECT l.*, w.status AS webhook_status FROM webhook_logs l "
        "JOIN webhooks w ON w.id = l.webhook_id "
        "WHERE l.state = 'queued' AND l.next_attempt_at IS NOT NULL AND l.next_attempt_at <= ? "
        "ORDER BY l.next_attempt_at, l.rowid",
        (now,),
    )
    jobs = []
    for row in rows:
        if not row["replay"] and row["webhook_status"] != "enabled" and row["attempts"] > 0:
            db.update("webhook_logs", row["id"], {"state": "failed", "next_attempt_at": None})
            continue
        db.update("webhook_logs", row["id"], {"next_attempt_at": None})
        payload = loads(row["payload"]) or {}
        jobs.append(
            Job(
                log_id=row["id"],
                webhook_id=row["webhook_id"],
                event_type=row["event_type"],
                data=payload.get("data"),
                attempt=row["attempts"] + 1,
            )
        )
    return jobs


def release_unfinished(db: Db) -> int:
    """Rows claimed by a process that stopped mid-attempt become due again (never stuck)."""
    return db.run(
        "UPDATE webhook_logs SET next_attempt_at = ? "
        "WHERE state = 'queued' AND next_attempt_at IS NULL",
        (db.now(),),
    )


def target(db: Db, webhook_id: str) -> Target | None:
    row = db.one("SELECT endpoint, signing_secret FROM webhooks WHERE id = ?", (webhook_id,))
    return None if row is None else Target(row["endpoint"], row["signing_secret"])


def envelope_for(db: Db, job: Job) -> dict[str, Any]:
    """Same envelope id on every attempt, a new `created_at` each time (§6)."""
    return {
        "id": job.log_id,
        "type": job.event_type,
        "data": job.data,
        "created_at": iso_now(db.clock),
    }


def record_attempt(
    db: Db,
    job: Job,
    envelope: dict[str, Any],
    answer: Answer,
    retry_delay: timedelta,
) -> None:
    """Store one attempt's result and apply the webhook counters of §3/§6."""
    log = db.one("SELECT * FROM webhook_logs WHERE id = ?", (job.log_id,))
    if log is None:
        return  # the webhook was deleted while the attempt was on its way
    now = db.now()
    body = None if answer.body is None else answer.body[:RESPONSE_BODY_MAX]
    changes: dict[str, Any] = {
        "payload": dumps(envelope),
        "attempts": job.attempt,
        "response_status": answer.status,
        "response_body": body,
    }
    if answer.ok:
        changes.update({"state": "delivered", "delivered_at": now, "next_attempt_at": None})
        db.update("webhook_logs", job.log_id, changes)
        db.update("webhooks", job.webhook_id, {"last_sent_at": now, "consecutive_failures": 0})
        return
    changes["failed_at"] = now
    if job.attempt < MAX_ATTEMPTS:
        changes["next_attempt_at"] = to_db(db.clock() + retry_delay)
        db.update("webhook_logs", job.log_id, changes)
        return
    changes.update({"state": "failed", "next_attempt_at": None})
    db.update("webhook_logs", job.log_id, changes)
    _count_failed_delivery(db, job.webhook_id, now)


def _count_failed_delivery(db: Db, webhook_id: str, now: str) -> None:
    hook = db.one("SELECT status, consecutive_failures FROM webhooks WHERE id = ?", (webhook_id,))
    if hook is None:
        return
    failures = hook["consecutive_failures"] + 1
    changes: dict[str, Any] = {"consecutive_failures": failures}
    # Only the service pauses, and only an enabled webhook (§3 webhook status table).
    if hook["status"] == "enabled" and failures >= PAUSE_AFTER_FAILURES:
        changes.update({"status": "paused", "paused_at": now, "updated_at": now})
    db.update("webhooks", webhook_id, changes)


def prune_logs(db: Db) -> int:
    """Delete logs older than the 7-day retention; returns how many went."""
    cutoff = to_db(db.clock() - LOG_RETENTION)
    return db.run("DELETE FROM webhook_logs WHERE created_at < ?", (cutoff,))


def prune_if_due(db: Db) -> int | None:
    """The daily retention job: prunes when it never ran or ran a day ago or more."""
    last = db.scalar("SELECT value FROM sandbox_meta WHERE key = ?", (_PRUNED_META,))
    if last is not None and shift(str(last), PRUNE_EVERY) > db.now():
        return None
    removed = prune_logs(db)
    db.run(
        "INSERT OR REPLACE INTO sandbox_meta (key, value) VALUES (?, ?)", (_PRUNED_META, db.now())
    )
    return removed
