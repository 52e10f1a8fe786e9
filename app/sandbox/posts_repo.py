"""Posts in SQLite: loading with everything embedded, creation, deletion and the event outbox."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.sandbox.db import Db, Row, dumps, placeholders
from app.sandbox.post_lifecycle import event_for
from app.sandbox.serializers import PostBundle, post_payload

OUTCOME_EVENTS = {
    "published": "post.published",
    "partially_published": "post.partially_published",
    "failed": "post.failed",
}

_PLATFORM_COLUMNS = """
    pp.*, sa.id AS acc_id, sa.platform AS acc_platform, sa.display_name AS acc_display_name,
    sa.username AS acc_username, sa.is_active AS acc_is_active, sa.status AS acc_status,
    sa.timezone AS acc_timezone, sa.has_posting_schedule AS acc_has_posting_schedule,
    sa.posting_goal AS acc_posting_goal, sa.max_content_length AS acc_max_content_length,
    sa.long_posts AS acc_long_posts, sa.verified_badge AS acc_verified_badge
"""


@dataclass
class NewPlatform:
    account: Row
    content_type: str
    meta: dict[str, Any] | None = None
    status: str = "pending"
    enabled: bool = True
    platform_post_id: str | None = None
    platform_url: str | None = None
    published_at: str | None = None
    error_message: str | None = None
    error_context: dict[str, Any] | None = None


@dataclass
class NewMedia:
    type: str | None
    mime_type: str
    original_filename: str
    extension: str
    size: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    blob_id: str | None = None
    source: str | None = None
    source_meta: dict[str, Any] | None = None


@dataclass
class NewPost:
    workspace_id: str
    user_id: str | None
    content: str | None
    status: str
    platforms: list[NewPlatform]
    media: list[NewMedia] = field(default_factory=list)
    label_ids: list[str] = field(default_factory=list)
    scheduled_at: str | None = None
    published_at: str | None = None
    schedule_mode: str | None = None
    post_group_id: str | None = None
    created_via: str | None = "api"
    origin: str | None = None
    created_at: str | None = None
    id: str | None = None


def insert_post(db: Db, new: NewPost) -> str:
    post_id = new.id or db.new_id()
    created_at = new.created_at or db.now()
    db.insert(
        "posts",
        {
            "id": post_id,
            "workspace_id": new.workspace_id,
            "user_id": new.user_id,
            "post_group_id": new.post_group_id,
            "content": new.content,
            "status": new.status,
            "schedule_mode": new.schedule_mode,
            "scheduled_at": new.scheduled_at,
            "published_at": new.published_at,
            "created_via": new.created_via,
            "origin": new.origin,
            "created_at": created_at,
            "updated_at": created_at,
        },
    )
    for position, platform in enumerate(new.platforms):
        account = platform.account
        db.insert(
            "post_platforms",
            {
                "id": db.new_id(),
                "post_id": post_id,
                "social_account_id": account["id"],
                "platform": account["platform"],
                "content_type": platform.content_type,
                "meta": dumps(platform.meta if platform.meta is not None else {}),
                "status": platform.status,
                "enabled": int(platform.enabled),
                "platform_post_id": platform.platform_post_id,
                "platform_url": platform.platform_url,
                "published_at": platform.published_at,
                "error_message": platform.error_message,
                "error_context": None
                if platform.error_context is None
                else dumps(platform.error_context),
                "display_name": account["display_name"],
                "display_username": account["username"],
                "display_avatar": account["avatar_url"],
                "position": position,
            },
        )
    for position, media in enumerate(new.media):
        insert_media(db, new.workspace_id, post_id, media, position, created_at)
    set_labels(db, post_id, new.label_ids)
    return post_id


def insert_media(
    db: Db, workspace_id: str, post_id: str, media: NewMedia, position: int, created_at: str
) -> str:
    media_id = db.new_id()
    db.insert(
        "media",
        {
            "id": media_id,
            "workspace_id": workspace_id,
            "post_id": post_id,
            "blob_id": media.blob_id,
            "path": f"medias/{media_id}.{media.extension}",
            "type": media.type,
            "mime_type": media.mime_type,
            "original_filename": media.original_filename,
            "size": media.size,
            "meta": dumps(media.meta),
            "source": media.source,
            "source_meta": None if media.source_meta is None else dumps(media.source_meta),
            "position": position,
            "created_at": created_at,
        },
    )
    return media_id


def set_labels(db: Db, post_id: str, label_ids: list[str]) -> None:
    db.run("DELETE FROM post_labels WHERE post_id = ?", (post_id,))
    db.many(
        "INSERT OR IGNORE INTO post_labels (post_id, label_id, position) VALUES (?, ?, ?)",
        [(post_id, label_id, i) for i, label_id in enumerate(label_ids)],
    )


def find_post(db: Db, workspace_id: str, post_id: str) -> Row | None:
    return db.one("SELECT * FROM posts WHERE id = ? AND workspace_id = ?", (post_id, workspace_id))


def page_of_ids(db: Db, workspace_id: str, page: int, per_page: int) -> tuple[list[str], int]:
    total = int(db.scalar("SELECT COUNT(*) FROM posts WHERE workspace_id = ?", (workspace_id,)))
    rows = db.all(
        "SELECT id FROM posts WHERE workspace_id = ? "
        "ORDER BY scheduled_at IS NULL, scheduled_at DESC, created_at DESC, rowid DESC "
        "LIMIT ? OFFSET ?",
        (workspace_id, per_page, (page - 1) * per_page),
    )
    return [r["id"] for r in rows], total


def load_bundles(db: Db, post_ids: list[str]) -> list[PostBundle]:
    """Everything the post shapes embed, in the order of `post_ids`, with a fixed query count."""
    if not post_ids:
        return []
    marks = placeholders(len(post_ids))
    posts = {r["id"]: r for r in db.all(f"SELECT * FROM posts WHERE id IN ({marks})", post_ids)}
    workspace_ids = sorted({r["workspace_id"] for r in posts.values()})
    workspaces = {
        r["id"]: r
        for r in db.all(
            f"SELECT * FROM workspaces WHERE id IN ({placeholders(len(workspace_ids))})",
            workspace_ids,
        )
    }
    user_ids = sorted({r["user_id"] for r in posts.values() if r["user_id"]})
    users = {
        r["id"]: r
        for r in db.all(
            f"SELECT * FROM users WHERE id IN ({placeholders(len(user_ids))})", user_ids
        )
    }
    bundles = {
        pid: PostBundle(
            post=row, workspace=workspaces[row["workspace_id"]], author=users.get(row["user_id"])
        )
        for pid, row in posts.items()
    }
    for row in db.all(
        f"SELECT {_PLATFORM_COLUMNS} FROM post_platforms pp "
        f"LEFT JOIN social_accounts sa ON sa.id = pp.social_account_id "
        f"WHERE pp.post_id IN ({marks}) ORDER BY pp.position, pp.rowid",
        post_ids,
    ):
        bundles[row["post_id"]].platforms.append(row)
    for row in db.all(
        f"SELECT * FROM media WHERE post_id IN ({marks}) ORDER BY position, rowid", post_ids
    ):
        bundles[row["post_id"]].media.append(row)
    for row in db.all(
        f"SELECT pl.post_id, l.* FROM post_labels pl JOIN labels l ON l.id = pl.label_id "
        f"WHERE pl.post_id IN ({marks}) ORDER BY pl.position",
        post_ids,
    ):
        bundles[row["post_id"]].labels.append(row)
    return [bundles[pid] for pid in post_ids if pid in bundles]


def load_bundle(db: Db, post_id: str) -> PostBundle:
    return load_bundles(db, [post_id])[0]


def record_event(db: Db, post_id: str, event_type: str) -> None:
    bundle = load_bundle(db, post_id)
    _insert_event(
        db,
        bundle.post["workspace_id"],
        post_id,
        event_type,
        post_payload(bundle, db.media_base_url),
    )


def _insert_event(
    db: Db, workspace_id: str, post_id: str, event_type: str, payload: dict[str, Any]
) -> None:
    db.insert(
        "events",
        {
            "workspace_id": workspace_id,
            "post_id": post_id,
            "event_type": event_type,
            "payload": dumps(payload),
            "created_at": db.now(),
        },
    )


def event_for_status_change(old: str, new: str) -> str | None:
    """The event of a forced status change (scenario arrangers): the §3 table's event, or the
    outcome event when a post is forced straight into an outcome."""
    if old == new:
        return None
    return event_for(old, new) or OUTCOME_EVENTS.get(new)


def delete_post(db: Db, post: Row) -> None:
    db.run("DELETE FROM posts WHERE id = ?", (post["id"],))
    _insert_event(
        db,
        post["workspace_id"],
        post["id"],
        "post.deleted",
        {"id": post["id"], "workspace_id": post["workspace_id"]},
    )


def touch(db: Db, post_id: str) -> None:
    db.run("UPDATE posts SET updated_at = ? WHERE id = ?", (db.now(), post_id))
