"""Post routes: list, read, update (status transitions of §3) and delete."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app.sandbox import posts_repo
from app.sandbox.db import Db, Row, dumps, loads
from app.sandbox.errors import (
    AFTER_NOW,
    ARRAY,
    BOOLEAN,
    INVALID_CHOICE,
    REQUIRED,
    FieldErrors,
    not_found,
)
from app.sandbox.http_support import (
    CallerDep,
    ContextDep,
    json_object,
    no_content,
    ok,
    page_number,
    paginated,
)
from app.sandbox.networks import check_meta, missing_required_meta, network
from app.sandbox.post_lifecycle import POST_STATUSES, event_for, user_may_change
from app.sandbox.posts_repo import insert_media
from app.sandbox.serializers import post_rest
from app.sandbox.validators import (
    NEEDS_TEXT_OR_MEDIA,
    OBJECT,
    REQUIRED_TO_SCHEDULE,
    account_choices,
    has_text,
    label_ids,
    media_refs,
    optional_string,
    schedule_time,
)

router = APIRouter()

POSTS_PER_PAGE = 15
_FINISHED = ("published", "partially_published", "failed")


def _load(db: Db, workspace_id: str, post_id: str) -> Row:
    post = posts_repo.find_post(db, workspace_id, post_id)
    if post is None:
        raise not_found("post")
    return post


@router.get("/posts")
async def list_posts(request: Request, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    page = page_number(request)
    with ctx.store.tx() as db:
        ids, total = posts_repo.page_of_ids(db, caller.workspace_id, page, POSTS_PER_PAGE)
        items = [post_rest(b, db.media_base_url) for b in posts_repo.load_bundles(db, ids)]
    return ok(paginated(request, items, total, page, POSTS_PER_PAGE))


@router.get("/posts/{post_id}")
async def get_post(post_id: str, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        _load(db, caller.workspace_id, post_id)
        return ok(post_rest(posts_repo.load_bundle(db, post_id), db.media_base_url))


@router.delete("/posts/{post_id}")
async def delete_post(post_id: str, caller: CallerDep, ctx: ContextDep) -> Response:
    with ctx.store.tx() as db:
        posts_repo.delete_post(db, _load(db, caller.workspace_id, post_id))
    return no_content()


def _transition_error(old: str, new: str) -> str:
    if old in _FINISHED and new in ("publishing", "scheduled"):
        return f"A {old.replace('_', ' ')} post cannot be republished; duplicate it instead."
    return f"The post cannot change from {old} to {new}."


@router.put("/posts/{post_id}")
async def update_post(
    post_id: str, request: Request, caller: CallerDep, ctx: ContextDep
) -> JSONResponse:
    body = await json_object(request)
    with ctx.store.tx() as db:
        post = _load(db, caller.workspace_id, post_id)
        old = post["status"]
        errors = FieldErrors()
        new = body.get("status", old)
        if new not in POST_STATUSES:
            errors.add("status", INVALID_CHOICE)
            new = old
        elif not user_may_change(old, new):
            errors.add("status", _transition_error(old, new))
            new = old

        changes: dict[str, Any] = {}
        optional_string(errors, body, "content")
        if "content" in body:
            changes["content"] = body["content"]
        if "scheduled_at" in body:
            when = schedule_time(
                db, errors, body["scheduled_at"], "scheduled_at", future=new == "scheduled"
            )
            if when is None and new == "scheduled" and not errors.has("scheduled_at"):
                errors.add("scheduled_at", REQUIRED_TO_SCHEDULE)
            if not errors.has("scheduled_at"):
                changes["scheduled_at"] = when
                if when != post["scheduled_at"]:
                    # An explicit time takes the post out of its channel queue.
                    changes["schedule_mode"] = None
        labels = label_ids(db, errors, caller.workspace_id, body.get("labels"))
        platforms = db.all(
            "SELECT pp.*, sa.boards, sa.channels FROM post_platforms pp "
            "LEFT JOIN social_accounts sa ON sa.id = pp.social_account_id "
            "WHERE pp.post_id = ? ORDER BY pp.position, pp.rowid",
            (post_id,),
        )
        platform_changes = _platform_changes(errors, body.get("platforms"), platforms)
        media_plan = _media_plan(db, errors, caller.workspace_id, post_id, body.get("media"))

        if new in ("scheduled", "publishing") and not errors:
            _check_ready(db, errors, post, changes, platforms, platform_changes, media_plan, new)
        errors.raise_if_any()

        if new != old:
            changes["status"] = new
            if new == "draft":
                changes["schedule_mode"] = None
        changes["updated_at"] = db.now()
        db.update("posts", post_id, changes)
        for platform_id, values in platform_changes.items():
            db.update("post_platforms", platform_id, values)
        if new == "publishing" and old != new:
            # Publish now: every enabled entry is being published until the publisher decides.
            db.run(
                "UPDATE post_platforms SET status = 'publishing' WHERE post_id = ? AND enabled = 1",
                (post_id,),
            )
        if old == "failed" and new == "draft":
            db.run(
                "UPDATE post_platforms SET status = 'pending' "
                "WHERE post_id = ? AND status = 'failed'",
                (post_id,),
            )
        if labels is not None:
            posts_repo.set_labels(db, post_id, labels)
        if media_plan is not None:
            _apply_media(db, caller.workspace_id, post_id, media_plan)
        event = event_for(old, new)
        if event is not None:
            posts_repo.record_event(db, post_id, event)
        return ok(post_rest(posts_repo.load_bundle(db, post_id), db.media_base_url))


def _platform_changes(
    errors: FieldErrors, value: Any, platforms: list[Row]
) -> dict[str, dict[str, Any]]:
    if value is None:
        return {}
    if not isinstance(value, list):
        errors.add("platforms", ARRAY)
        return {}
    by_id = {p["id"]: p for p in platforms}
    result: dict[str, dict[str, Any]] = {}
    for i, item in enumerate(value):
        key = f"platforms.{i}"
        if not isinstance(item, dict):
            errors.add(key, OBJECT)
            continue
        platform = by_id.get(item.get("id")) if isinstance(item.get("id"), str) else None
        if platform is None:
            errors.add(f"{key}.id", REQUIRED if item.get("id") is None else INVALID_CHOICE)
            continue
        values: dict[str, Any] = {}
        if "enabled" in item:
            if not isinstance(item["enabled"], bool):
                errors.add(f"{key}.enabled", BOOLEAN)
            else:
                values["enabled"] = int(item["enabled"])
        if "content_type" in item:
            content_type = item["content_type"]
            if not isinstance(content_type, str) or not network(platform["platform"]).accepts(
                content_type
            ):
                errors.add(f"{key}.content_type", INVALID_CHOICE)
            else:
                values["content_type"] = content_type
        if "meta" in item:
            meta = item["meta"] if item["meta"] is not None else {}
            if not isinstance(meta, dict):
                errors.add(f"{key}.meta", OBJECT)
            else:
                check_meta(
                    errors,
                    platform["platform"],
                    meta,
                    f"{key}.meta",
                    board_ids=account_choices(platform, "boards") if platform["boards"] else None,
                    channel_ids=account_choices(platform, "channels")
                    if platform["channels"]
                    else None,
                )
                values["meta"] = dumps(meta)
        result[platform["id"]] = values
    return result


def _media_plan(
    db: Db, errors: FieldErrors, workspace_id: str, post_id: str, value: Any
) -> list[str | posts_repo.NewMedia] | None:
    """The new media list: kept ids of this post's media and fresh copies of uploads."""
    if value is None:
        return None
    if not isinstance(value, list):
        errors.add("media", ARRAY)
        return None
    existing = {r["id"] for r in db.all("SELECT id FROM media WHERE post_id = ?", (post_id,))}
    plan: list[str | posts_repo.NewMedia] = []
    for i, item in enumerate(value):
        if isinstance(item, dict) and "id" in item and "upload_token" not in item:
            if item["id"] in existing:
                plan.append(item["id"])
            else:
                errors.add(f"media.{i}.id", INVALID_CHOICE)
            continue
        copies = media_refs(db, errors, workspace_id, [item], "media")
        if copies:
            plan.append(copies[0])
    return plan


def _apply_media(
    db: Db, workspace_id: str, post_id: str, plan: list[str | posts_repo.NewMedia]
) -> None:
    kept = [entry for entry in plan if isinstance(entry, str)]
    marks = ",".join("?" * len(kept))
    db.run(f"DELETE FROM media WHERE post_id = ? AND id NOT IN ({marks})", (post_id, *kept))
    now = db.now()
    for position, entry in enumerate(plan):
        if isinstance(entry, str):
            db.run("UPDATE media SET position = ? WHERE id = ?", (position, entry))
        else:
            insert_media(db, workspace_id, post_id, entry, position, now)


def _check_ready(
    db: Db,
    errors: FieldErrors,
    post: Row,
    changes: dict[str, Any],
    platforms: list[Row],
    platform_changes: dict[str, dict[str, Any]],
    media_plan: list[str | posts_repo.NewMedia] | None,
    new_status: str,
) -> None:
    """§4 batch rule 3 applied to an existing post about to be scheduled or published."""
    if media_plan is not None:
        has_media = bool(media_plan)
    else:
        has_media = bool(db.scalar("SELECT COUNT(*) FROM media WHERE post_id = ?", (post["id"],)))
    if not has_text(changes.get("content", post["content"])) and not has_media:
        errors.add("content", NEEDS_TEXT_OR_MEDIA)
    any_enabled = False
    for i, platform in enumerate(platforms):
        planned = platform_changes.get(platform["id"], {})
        if not planned.get("enabled", platform["enabled"]):
            continue
        any_enabled = True
        meta = loads(planned.get("meta", platform["meta"])) or {}
        for key in missing_required_meta(platform["platform"], meta):
            errors.add(f"platforms.{i}.meta.{key}", REQUIRED)
    if not any_enabled:
        errors.add("platforms", "At least one platform must be enabled.")
    if new_status == "scheduled" and post["status"] != "scheduled":
        when = changes.get("scheduled_at", post["scheduled_at"])
        if when is None:
            errors.add("scheduled_at", REQUIRED_TO_SCHEDULE)
        elif when <= db.now():
            errors.add("scheduled_at", AFTER_NOW)
