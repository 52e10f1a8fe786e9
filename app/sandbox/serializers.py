"""Row -> JSON shapes of the spec (§2 resources, §6 webhook payloads). No I/O here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.sandbox.clock import db_to_iso
from app.sandbox.db import Row, loads


@dataclass
class PostBundle:
    """A post row with everything its JSON shapes embed."""

    post: Row
    workspace: Row
    author: Row | None
    platforms: list[Row] = field(default_factory=list)
    media: list[Row] = field(default_factory=list)
    labels: list[Row] = field(default_factory=list)


def label(row: Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "color": row["color"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }


def signature(row: Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "content": row["content"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }


def account_summary(row: Row, prefix: str = "") -> dict[str, Any]:
    return {
        "id": row[prefix + "id"],
        "platform": row[prefix + "platform"],
        "display_name": row[prefix + "display_name"],
        "username": row[prefix + "username"],
        "is_active": bool(row[prefix + "is_active"]),
        "status": row[prefix + "status"],
    }


def account_batch(row: Row, prefix: str = "") -> dict[str, Any]:
    """The embedded account of batch responses: extras added, `is_active` left out (§2)."""
    summary = account_summary(row, prefix)
    del summary["is_active"]
    summary.update(
        {
            "has_posting_schedule": bool(row[prefix + "has_posting_schedule"]),
            "timezone": row[prefix + "timezone"],
            "posting_goal": row[prefix + "posting_goal"],
            "max_content_length": row[prefix + "max_content_length"],
            "long_posts": bool(row[prefix + "long_posts"]),
            "verified_badge": row[prefix + "verified_badge"],
        }
    )
    return summary


def media_item(row: Row, media_base_url: str, *, with_size: bool) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": row["id"],
        "path": row["path"],
        "url": f"{media_base_url}/{row['path']}",
        "type": row["type"],
        "mime_type": row["mime_type"],
        "original_filename": row["original_filename"],
    }
    if with_size and row["size"] is not None:
        item["size"] = row["size"]
    meta = loads(row["meta"])
    if meta:
        item["meta"] = meta
    return item


def _platform_rest(row: Row, *, batch: bool) -> dict[str, Any]:
    account: dict[str, Any] | None = None
    if row["acc_id"] is not None:
        account = account_batch(row, "acc_") if batch else account_summary(row, "acc_")
    return {
        "id": row["id"],
        "platform": row["platform"],
        "content_type": row["content_type"],
        "meta": loads(row["meta"]),
        "status": row["status"],
        "enabled": bool(row["enabled"]),
        "platform_url": row["platform_url"],
        "published_at": row["published_at"],
        "error_message": row["error_message"],
        "display_name": row["display_name"],
        "display_username": row["display_username"],
        "display_avatar": row["display_avatar"],
        "social_account": account,
    }


def post_rest(bundle: PostBundle, media_base_url: str, *, batch: bool = False) -> dict[str, Any]:
    """The REST Post. `batch=True` gives the richer shape of `POST /posts/batch` responses."""
    post = bundle.post
    body: dict[str, Any] = {"id": post["id"]}
    if batch:
        author = bundle.author
        body["post_group_id"] = post["post_group_id"]
        body["author"] = None if author is None else {"id": author["id"], "name": author["name"]}
    body.update(
        {
            "content": post["content"],
            "media": [media_item(m, media_base_url, with_size=batch) for m in bundle.media],
            "status": post["status"],
            "schedule_mode": post["schedule_mode"],
            "scheduled_at": post["scheduled_at"],
            "published_at": post["published_at"],
        }
    )
    if batch:
        body.update(
            {
                "approval_requested_by": post["approval_requested_by"],
                "approval_requested_at": post["approval_requested_at"],
                "approved_by": post["approved_by"],
                "approved_at": post["approved_at"],
                "recurrence": loads(post["recurrence"]),
                "origin": post["origin"],
            }
        )
    body.update(
        {
            "platforms": [_platform_rest(p, batch=batch) for p in bundle.platforms],
            "labels": [label(lb) for lb in bundle.labels],
            "created_at": post["created_at"],
            "updated_at": post["updated_at"],
        }
    )
    return body


def _platform_payload(row: Row) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": row["id"],
        "social_account_id": row["social_account_id"],
        "platform": row["platform"],
        "content_type": row["content_type"],
        "enabled": bool(row["enabled"]),
        "status": row["status"],
        "platform_post_id": row["platform_post_id"],
        "platform_url": row["platform_url"],
        "published_at": db_to_iso(row["published_at"]),
    }
    if row["status"] == "failed":
        entry["error_message"] = row["error_message"]
        entry["error_context"] = loads(row["error_context"])
    entry.update(
        {
            "display_name": row["display_name"],
            "display_username": row["display_username"],
            "display_avatar": row["display_avatar"],
            "meta": loads(row["meta"]),
            "social_account": None if row["acc_id"] is None else account_summary(row, "acc_"),
        }
    )
    return entry


def post_payload(bundle: PostBundle, media_base_url: str) -> dict[str, Any]:
    """`data` of every post webhook event except `post.deleted` (§6 "Post payload")."""
    post = bundle.post
    author = bundle.author
    return {
        "id": post["id"],
        "workspace_id": post["workspace_id"],
        "user_id": post["user_id"],
        "status": post["status"],
        "created_via": post["created_via"],
        "content": post["content"] if post["content"] is not None else "",
        "scheduled_at": db_to_iso(post["scheduled_at"]),
        "published_at": db_to_iso(post["published_at"]),
        "created_at": db_to_iso(post["created_at"]),
        "updated_at": db_to_iso(post["updated_at"]),
        "author": None if author is None else {"id": author["id"], "name": author["name"]},
        "workspace": {"id": bundle.workspace["id"], "name": bundle.workspace["name"]},
        "labels": [
            {"id": lb["id"], "name": lb["name"], "color": lb["color"]} for lb in bundle.labels
        ],
        "media": [
            {
                "id": m["id"],
                "path": m["path"],
                "url": f"{media_base_url}/{m['path']}",
                "type": m["type"],
                "mime_type": m["mime_type"],
                "original_filename": m["original_filename"],
                "source": m["source"],
                "source_meta": loads(m["source_meta"]),
                "meta": loads(m["meta"]) or {},
            }
            for m in bundle.media
        ],
        "platforms": [_platform_payload(p) for p in bundle.platforms],
    }


def webhook(row: Row, *, with_secret: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": row["id"],
        "endpoint": row["endpoint"],
        "events": loads(row["events"]),
        "status": row["status"],
        "last_sent_at": db_to_iso(row["last_sent_at"]),
        "paused_at": db_to_iso(row["paused_at"]),
        "consecutive_failures": row["consecutive_failures"],
    }
    if with_secret:
        body["signing_secret"] = row["signing_secret"]
    body["created_at"] = db_to_iso(row["created_at"])
    body["updated_at"] = db_to_iso(row["updated_at"])
    return body


def webhook_log(row: Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "event_type": row["event_type"],
        "payload": loads(row["payload"]),
        "response_status": row["response_status"],
        "response_body": row["response_body"],
        "delivered_at": db_to_iso(row["delivered_at"]),
        "failed_at": db_to_iso(row["failed_at"]),
        "attempts": row["attempts"],
        "created_at": db_to_iso(row["created_at"]),
    }


def repurpose(row: Row, destinations: list[dict[str, Any]], items_count: int) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "source": {"platform": row["source_platform"], "username": row["source_username"]},
        "destinations": destinations,
        "is_active": bool(row["is_active"]),
        "items_count": items_count,
        "created_at": db_to_iso(row["created_at"]),
        "updated_at": db_to_iso(row["updated_at"]),
    }


def repurpose_item(row: Row, posts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "repurpose_id": row["repurpose_id"],
        "source_media_id": row["source_media_id"],
        "source_permalink": row["source_permalink"],
        "source_created_at": db_to_iso(row["source_created_at"]),
        "status": row["status"],
        "reason": row["reason"],
        "error": row["error"],
        "posts": posts,
        "created_at": db_to_iso(row["created_at"]),
        "updated_at": db_to_iso(row["updated_at"]),
    }
