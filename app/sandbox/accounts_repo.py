"""Social accounts (channels) of a workspace."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.sandbox.db import Db, Row, dumps


@dataclass
class NewAccount:
    platform: str
    display_name: str
    username: str
    status: str = "connected"
    is_active: bool = True
    timezone: str = "UTC"
    posting_goal: int = 5
    max_content_length: int = 5000
    long_posts: bool = False
    verified_badge: str | None = None
    # Weekly slots `{"day": 0-6 (Monday=0), "time": "HH:MM"}` in the account's own time zone.
    queue_slots: list[dict[str, Any]] = field(default_factory=list)
    boards: list[dict[str, str]] = field(default_factory=list)
    channels: list[dict[str, str]] = field(default_factory=list)
    avatar_url: str | None = None
    # Set: the network refuses every post to this account with this message (publisher.py).
    publish_failure: str | None = None
    id: str | None = None


def insert_account(db: Db, workspace_id: str, new: NewAccount) -> str:
    account_id = new.id or db.new_id()
    db.insert(
        "social_accounts",
        {
            "id": account_id,
            "workspace_id": workspace_id,
            "platform": new.platform,
            "display_name": new.display_name,
            "username": new.username,
            "avatar_url": new.avatar_url
            or f"https://cdn.example.invalid/avatars/{new.platform}/{new.username}.png",
            "is_active": int(new.is_active),
            "status": new.status,
            "timezone": new.timezone,
            "has_posting_schedule": int(bool(new.queue_slots)),
            "posting_goal": new.posting_goal,
            "max_content_length": new.max_content_length,
            "long_posts": int(new.long_posts),
            "verified_badge": new.verified_badge,
            "queue_slots": dumps(new.queue_slots),
            "boards": dumps(new.boards),
            "channels": dumps(new.channels),
            "publish_failure": new.publish_failure,
            "created_at": db.now(),
        },
    )
    return account_id


def find_account(db: Db, workspace_id: str, account_id: str) -> Row | None:
    return db.one(
        "SELECT * FROM social_accounts WHERE id = ? AND workspace_id = ?",
        (account_id, workspace_id),
    )


def list_accounts(db: Db, workspace_id: str) -> list[Row]:
    return db.all(
        "SELECT * FROM social_accounts WHERE workspace_id = ? ORDER BY platform, rowid",
        (workspace_id,),
    )


def weekly_slots(times: list[str], days: range = range(7)) -> list[dict[str, Any]]:
    return [{"day": day, "time": t} for day in days for t in times]
