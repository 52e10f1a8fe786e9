"""Repurpose rules (a source channel replicated into this workspace) and their activity items."""

from __future__ import annotations

from typing import Any

from app.sandbox import serializers
from app.sandbox.db import Db, Row, dumps, loads, placeholders

ITEM_STATUSES = ("pending", "processing", "published", "drafted", "skipped", "failed")
ITEM_REASONS = (
    "published_via_service",
    "media_url_missing",
    "download_failed",
    "post_creation_failed",
    "no_usable_destinations",
)


def create_repurpose(
    db: Db,
    workspace_id: str,
    name: str,
    source_platform: str,
    source_username: str,
    destination_account_ids: list[str],
    *,
    is_active: bool = True,
    created_at: str | None = None,
) -> str:
    repurpose_id = db.new_id()
    created = created_at or db.now()
    db.insert(
        "repurposes",
        {
            "id": repurpose_id,
            "workspace_id": workspace_id,
            "name": name,
            "source_platform": source_platform,
            "source_username": source_username,
            "destination_account_ids": dumps(destination_account_ids),
            "is_active": int(is_active),
            "created_at": created,
            "updated_at": created,
        },
    )
    return repurpose_id


def add_item(
    db: Db,
    repurpose_id: str,
    *,
    source_media_id: str,
    status: str,
    reason: str | None = None,
    error: str | None = None,
    source_permalink: str | None = None,
    source_created_at: str | None = None,
    post_ids: list[str] | None = None,
    created_at: str | None = None,
) -> str:
    item_id = db.new_id()
    created = created_at or db.now()
    db.insert(
        "repurpose_items",
        {
            "id": item_id,
            "repurpose_id": repurpose_id,
            "source_media_id": source_media_id,
            "source_permalink": source_permalink,
            "source_created_at": source_created_at,
            "status": status,
            "reason": reason,
            "error": error,
            "created_at": created,
            "updated_at": created,
        },
    )
    db.many(
        "INSERT INTO repurpose_item_posts (item_id, post_id, position) VALUES (?, ?, ?)",
        [(item_id, post_id, i) for i, post_id in enumerate(post_ids or [])],
    )
    return item_id


def find_repurpose(db: Db, repurpose_id: str) -> Row | None:
    return db.one("SELECT * FROM repurposes WHERE id = ?", (repurpose_id,))


def page_of_repurposes(
    db: Db, workspace_id: str, page: int, per_page: int
) -> tuple[list[dict[str, Any]], int]:
    total = int(
        db.scalar("SELECT COUNT(*) FROM repurposes WHERE workspace_id = ?", (workspace_id,))
    )
    rows = db.all(
        "SELECT r.*, (SELECT COUNT(*) FROM repurpose_items i WHERE i.repurpose_id = r.id) AS n "
        "FROM repurposes r WHERE r.workspace_id = ? "
        "ORDER BY r.created_at DESC, r.rowid DESC LIMIT ? OFFSET ?",
        (workspace_id, per_page, (page - 1) * per_page),
    )
    result = []
    for row in rows:
        ids = loads(row["destination_account_ids"]) or []
        accounts = {
            a["id"]: a
            for a in db.all(
                f"SELECT id, platform FROM social_accounts WHERE id IN ({placeholders(len(ids))})",
                ids,
            )
        }
        destinations = [
            {"social_account_id": i, "platform": accounts[i]["platform"]}
            for i in ids
            if i in accounts
        ]
        result.append(serializers.repurpose(row, destinations, row["n"]))
    return result, total


def page_of_items(
    db: Db, repurpose_id: str, page: int, per_page: int
) -> tuple[list[dict[str, Any]], int]:
    total = int(
        db.scalar("SELECT COUNT(*) FROM repurpose_items WHERE repurpose_id = ?", (repurpose_id,))
    )
    rows = db.all(
        "SELECT * FROM repurpose_items WHERE repurpose_id = ? "
        "ORDER BY COALESCE(source_created_at, created_at) DESC, rowid DESC LIMIT ? OFFSET ?",
        (repurpose_id, per_page, (page - 1) * per_page),
    )
    item_ids = [r["id"] for r in rows]
    posts: dict[str, list[dict[str, Any]]] = {i: [] for i in item_ids}
    if item_ids:
        links = db.all(
            f"SELECT ip.item_id, ip.post_id FROM repurpose_item_posts ip "
            f"JOIN posts p ON p.id = ip.post_id "
            f"WHERE ip.item_id IN ({placeholders(len(item_ids))}) ORDER BY ip.position",
            item_ids,
        )
        post_ids = sorted({link["post_id"] for link in links})
        platforms: dict[str, list[dict[str, str]]] = {p: [] for p in post_ids}
        for row in db.all(
            f"SELECT post_id, platform, status FROM post_platforms "
            f"WHERE enabled = 1 AND post_id IN ({placeholders(len(post_ids))}) "
            f"ORDER BY position",
            post_ids,
        ):
            platforms[row["post_id"]].append({"platform": row["platform"], "status": row["status"]})
        for link in links:
            posts[link["item_id"]].append(
                {"id": link["post_id"], "platforms": platforms[link["post_id"]]}
            )
    return [serializers.repurpose_item(r, posts[r["id"]]) for r in rows], total
