"""Webhooks and their delivery logs. A queued log row is also the delivery job: its
`next_attempt_at` says when the engine (`deliveries.py`, `engine.py`) tries it next."""

from __future__ import annotations

from typing import Any

from app.sandbox.clock import db_to_iso
from app.sandbox.db import Db, Row, dumps, loads
from app.sandbox.webhook_rules import new_signing_secret
from app.sandbox.webhook_sender import RESPONSE_BODY_MAX


def create_webhook(
    db: Db, workspace_id: str, endpoint: str, events: list[str], status: str = "enabled"
) -> str:
    webhook_id = db.new_id()
    now = db.now()
    db.insert(
        "webhooks",
        {
            "id": webhook_id,
            "workspace_id": workspace_id,
            "endpoint": endpoint,
            "events": dumps(events),
            "status": status,
            "signing_secret": new_signing_secret(),
            "consecutive_failures": 0,
            "created_at": now,
            "updated_at": now,
        },
    )
    return webhook_id


def find_webhook(db: Db, workspace_id: str, webhook_id: str) -> Row | None:
    return db.one(
        "SELECT * FROM webhooks WHERE id = ? AND workspace_id = ?", (webhook_id, workspace_id)
    )


def get_webhook(db: Db, webhook_id: str) -> Row | None:
    return db.one("SELECT * FROM webhooks WHERE id = ?", (webhook_id,))


def list_webhooks(db: Db, workspace_id: str) -> list[Row]:
    return db.all(
        "SELECT * FROM webhooks WHERE workspace_id = ? ORDER BY created_at DESC, rowid DESC",
        (workspace_id,),
    )


def status_change(current: Row, new_status: str) -> dict[str, Any]:
    """Column updates for a user-set status (§3 webhook status table)."""
    old = current["status"]
    if new_status == old:
        # Saving an enabled webhook as enabled keeps its failure counter.
        return {}
    changes: dict[str, Any] = {"status": new_status}
    if new_status == "enabled":
        changes["paused_at"] = None
        if old == "paused":
            changes["consecutive_failures"] = 0
    return changes


def update_webhook(db: Db, webhook_id: str, changes: dict[str, Any]) -> None:
    if "events" in changes:
        changes = {**changes, "events": dumps(changes["events"])}
    db.update("webhooks", webhook_id, {**changes, "updated_at": db.now()})


def rotate_secret(db: Db, webhook_id: str) -> None:
    update_webhook(db, webhook_id, {"signing_secret": new_signing_secret()})


def delete_webhook(db: Db, webhook_id: str) -> None:
    db.run("DELETE FROM webhook_logs WHERE webhook_id = ?", (webhook_id,))
    db.run("DELETE FROM webhooks WHERE id = ?", (webhook_id,))


def envelope(log_id: str, event_type: str, data: Any, created_at: str) -> dict[str, Any]:
    return {
        "id": log_id,
        "type": event_type,
        "data": data,
        "created_at": db_to_iso(created_at),
    }


def insert_log(
    db: Db,
    webhook_id: str,
    event_type: str,
    data: Any,
    *,
    state: str = "queued",
    response_status: int | None = None,
    response_body: str | None = None,
    attempts: int = 0,
    created_at: str | None = None,
    finished_at: str | None = None,
    failed_at: str | None = None,
    replay: bool = False,
) -> str:
    log_id = db.new_id()
    created = created_at or db.now()
    db.insert(
        "webhook_logs",
        {
            "id": log_id,
            "webhook_id": webhook_id,
            "event_type": event_type,
            "payload": dumps(envelope(log_id, event_type, data, created)),
            "state": state,
            "response_status": response_status,
            "response_body": None if response_body is None else response_body[:RESPONSE_BODY_MAX],
            "delivered_at": finished_at if state == "delivered" else None,
            "failed_at": finished_at if state == "failed" else failed_at,
            "attempts": attempts,
            "created_at": created,
            "next_attempt_at": created if state == "queued" else None,
            "replay": int(replay),
        },
    )
    return log_id


def find_log(db: Db, webhook_id: str, log_id: str) -> Row | None:
    return db.one(
        "SELECT * FROM webhook_logs WHERE id = ? AND webhook_id = ?", (log_id, webhook_id)
    )


def page_of_logs(db: Db, webhook_id: str, page: int, per_page: int) -> tuple[list[Row], int]:
    total = int(db.scalar("SELECT COUNT(*) FROM webhook_logs WHERE webhook_id = ?", (webhook_id,)))
    rows = db.all(
        "SELECT * FROM webhook_logs WHERE webhook_id = ? "
        "ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
        (webhook_id, per_page, (page - 1) * per_page),
    )
    return rows, total


def replay(db: Db, log: Row) -> str:
    """A new queued log row (new envelope id) carrying the original `data` (§4 rule 4); it is
    delivered whatever the webhook's status."""
    original = loads(log["payload"]) or {}
    return insert_log(db, log["webhook_id"], log["event_type"], original.get("data"), replay=True)
