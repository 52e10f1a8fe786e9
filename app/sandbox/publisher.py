"""The publisher: due scheduled posts start publishing, publishing posts get their outcome.

Each enabled platform entry is decided by its account alone, so the same account always gives
the same result (the demo shows every outcome): disconnected, expired and inactive accounts are
skipped (§2 "Social account summary"), an account with a `publish_failure` is refused by its
network with that message, every other account publishes.
"""

from __future__ import annotations

from typing import Any

from app.sandbox import posts_repo
from app.sandbox.db import Db, Row, dumps
from app.sandbox.post_lifecycle import event_for, outcome_of

SKIP_REASONS = {
    "disconnected": (
        "account_disconnected",
        "Skipped: the social account is disconnected. Reconnect it, then duplicate the post.",
    ),
    "token_expired": (
        "token_expired",
        "Skipped: the social account's access expired. Reconnect it, then duplicate the post.",
    ),
}
INACTIVE = (
    "account_inactive",
    "Skipped: the social account is turned off for publishing. Turn it on, then duplicate the "
    "post.",
)
REMOVED = ("account_removed", "Skipped: the social account was removed from the workspace.")


def promote_due(db: Db) -> list[str]:
    """`scheduled` posts whose time has come go `publishing` (silent, §3); their ids."""
    now = db.now()
    due = [
        r["id"]
        for r in db.all(
            "SELECT id FROM posts WHERE status = 'scheduled' AND scheduled_at <= ? "
            "ORDER BY scheduled_at, rowid",
            (now,),
        )
    ]
    for post_id in due:
        db.run(
            "UPDATE posts SET status = 'publishing', updated_at = ? WHERE id = ?", (now, post_id)
        )
        db.run(
            "UPDATE post_platforms SET status = 'publishing' WHERE post_id = ? AND enabled = 1",
            (post_id,),
        )
    return due


def resolve_publishing(db: Db) -> list[tuple[str, str]]:
    """Decide every `publishing` post; returns `(post_id, outcome)` pairs."""
    decided = []
    for post in db.all("SELECT * FROM posts WHERE status = 'publishing' ORDER BY rowid"):
        decided.append((post["id"], _resolve(db, post)))
    return decided


def refusal(account: Row | None) -> tuple[str, str] | None:
    """Why publishing to `account` fails: `(code, message)`, or None when it succeeds."""
    if account is None:
        return REMOVED
    if account["status"] in SKIP_REASONS:
        return SKIP_REASONS[account["status"]]
    if not account["is_active"]:
        return INACTIVE
    if account["publish_failure"]:
        return ("network_rejected", str(account["publish_failure"]))
    return None


def _resolve(db: Db, post: Row) -> str:
    now = db.now()
    entries = db.all(
        "SELECT pp.id, pp.status AS entry_status, pp.platform, sa.* FROM post_platforms pp "
        "LEFT JOIN social_accounts sa ON sa.id = pp.social_account_id "
        "WHERE pp.post_id = ? AND pp.enabled = 1 ORDER BY pp.position, pp.rowid",
        (post["id"],),
    )
    published = failed = 0
    for entry in entries:
        entry_id = entry[0]
        if entry["entry_status"] == "published":
            published += 1
            continue
        account = entry if entry["workspace_id"] is not None else None
        reason = refusal(account)
        changes: dict[str, Any]
        if reason is None:
            published += 1
            platform_post_id = str(int(entry_id.replace("-", "")[:15], 16))
            changes = {
                "status": "published",
                "published_at": now,
                "platform_post_id": platform_post_id,
                "platform_url": f"https://{entry['platform']}.example.invalid/"
                f"{entry['username']}/{platform_post_id}",
                "error_message": None,
                "error_context": None,
            }
        else:
            failed += 1
            code, message = reason
            changes = {
                "status": "failed",
                "error_message": message,
                "error_context": dumps({"code": code}),
            }
        db.update("post_platforms", entry_id, changes)
    outcome = outcome_of(published, failed)
    db.update(
        "posts",
        post["id"],
        {
            "status": outcome,
            "published_at": now if outcome == "published" else None,
            "updated_at": now,
        },
    )
    event = event_for("publishing", outcome)
    assert event is not None
    posts_repo.record_event(db, post["id"], event)
    return outcome
