"""`POST /posts/batch` (§4): one independent post per destination, sharing a post_group_id.

Decisions where the spec is silent: success is `201`; `queue` implies scheduling; a
destination's `meta`/`media`/`content`/`content_type` replace the shared value when present;
without any content type the network's default is used; top-level `labels` (ids) are applied to
every post; `status` accepts `draft`, `scheduled` and `publishing` (publish now, batch rule 3);
when queueing, `scheduled_at` is not used (a past value is accepted).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.sandbox import posts_repo, queue
from app.sandbox.accounts_repo import find_account
from app.sandbox.auth import Caller
from app.sandbox.db import Db, Row
from app.sandbox.errors import (
    ARRAY,
    INVALID_CHOICE,
    PROHIBITED,
    REQUIRED,
    STRING,
    FieldErrors,
)
from app.sandbox.http_support import CallerDep, ContextDep, is_blank, json_object, ok
from app.sandbox.networks import check_meta, missing_required_meta, network
from app.sandbox.posts_repo import NewMedia, NewPlatform, NewPost
from app.sandbox.serializers import post_rest
from app.sandbox.validators import (
    NEEDS_TEXT_OR_MEDIA,
    OBJECT,
    REQUIRED_TO_SCHEDULE,
    account_choices,
    has_text,
    label_ids,
    media_refs,
    optional_object,
    optional_string,
    schedule_time,
)

router = APIRouter()

# The spec says only that the value seen is named after the service itself.
ORIGIN = "social-publishing-api"
NO_QUEUE = "The selected channel has no posting schedule to queue into."
QUEUE_WHILE_PUBLISHING = "The {attr} field is prohibited when status is publishing."
BATCH_STATUSES = ("draft", "scheduled", "publishing")


@dataclass
class _Destination:
    account: Row
    content: str | None
    content_type: str
    meta: dict[str, Any]
    media: list[NewMedia]


def _validate(
    db: Db, caller: Caller, body: dict[str, Any]
) -> tuple[list[_Destination], dict[str, Any]]:
    errors = FieldErrors()
    ws = caller.workspace_id
    status = body.get("status")
    if status is not None and status not in BATCH_STATUSES:
        errors.add("status", INVALID_CHOICE)
    publishing = status == "publishing"
    queue_mode = body.get("queue")
    if queue_mode is not None and queue_mode not in ("next", "top"):
        errors.add("queue", INVALID_CHOICE)
        queue_mode = None
    if queue_mode is not None and publishing:
        errors.add("queue", QUEUE_WHILE_PUBLISHING)
        queue_mode = None
    if "queue_slot" in body:
        errors.add("queue_slot", PROHIBITED)
    scheduling = status == "scheduled" or queue_mode is not None
    # When queueing, the time is not used, so a past one does no harm.
    when = schedule_time(
        db,
        errors,
        body.get("scheduled_at"),
        "scheduled_at",
        future=scheduling and queue_mode is None,
    )
    if queue_mode is not None:
        when = None
    if scheduling and queue_mode is None and body.get("scheduled_at") is None:
        errors.add("scheduled_at", REQUIRED_TO_SCHEDULE)
    optional_string(errors, body, "content")
    optional_string(errors, body, "content_type")
    optional_object(errors, body, "meta")
    shared_media = media_refs(db, errors, ws, body.get("media"), "media") or []
    labels = label_ids(db, errors, ws, body.get("labels")) or []

    raw = body.get("destinations")
    destinations: list[_Destination] = []
    if raw is None or raw == []:
        errors.add("destinations", REQUIRED)
    elif not isinstance(raw, list):
        errors.add("destinations", ARRAY)
    else:
        for i, item in enumerate(raw):
            dest = _destination(
                db,
                errors,
                caller,
                body,
                item,
                i,
                shared_media,
                scheduling or publishing,
                queue_mode,
            )
            if dest is not None:
                destinations.append(dest)
    errors.raise_if_any()
    return destinations, {
        "scheduling": scheduling,
        "publishing": publishing,
        "queue": queue_mode,
        "scheduled_at": when,
        "labels": labels,
    }


def _destination(
    db: Db,
    errors: FieldErrors,
    caller: Caller,
    body: dict[str, Any],
    item: Any,
    i: int,
    shared_media: list[NewMedia],
    ready_needed: bool,
    queue_mode: str | None,
) -> _Destination | None:
    prefix = f"destinations.{i}"
    if not isinstance(item, dict):
        errors.add(prefix, OBJECT)
        return None
    if "queue_slot" in item:
        errors.add(f"{prefix}.queue_slot", PROHIBITED)
    optional_string(errors, item, "content", f"{prefix}.")
    optional_string(errors, item, "content_type", f"{prefix}.")
    optional_object(errors, item, "meta", f"{prefix}.")
    own_media = media_refs(db, errors, caller.workspace_id, item.get("media"), f"{prefix}.media")
    account_id = item.get("social_account_id")
    if is_blank(account_id):
        errors.add(f"{prefix}.social_account_id", REQUIRED)
        return None
    if not isinstance(account_id, str):
        errors.add(f"{prefix}.social_account_id", STRING)
        return None
    account = find_account(db, caller.workspace_id, account_id)
    if account is None:
        errors.add(f"{prefix}.social_account_id", INVALID_CHOICE)
        return None
    net = network(account["platform"])
    content_type = item.get("content_type", body.get("content_type")) or net.default_content_type
    if isinstance(content_type, str) and not net.accepts(content_type):
        errors.add(f"{prefix}.content_type", INVALID_CHOICE)
    meta = item["meta"] if "meta" in item else body.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    check_meta(
        errors,
        account["platform"],
        meta,
        f"{prefix}.meta",
        board_ids=account_choices(account, "boards"),
        channel_ids=account_choices(account, "channels"),
    )
    # `""` arrives as null (Laravel), and a null override keeps the shared text.
    content = item.get("content")
    if content is None:
        content = body.get("content")
    media = own_media if "media" in item and own_media is not None else shared_media
    if ready_needed:
        if not has_text(content) and not media:
            errors.add(f"{prefix}.content", NEEDS_TEXT_OR_MEDIA)
        for key in missing_required_meta(account["platform"], meta):
            errors.add(f"{prefix}.meta.{key}", REQUIRED)
        if queue_mode is not None and not queue.has_slots(account):
            errors.add(f"{prefix}.social_account_id", NO_QUEUE)
    return _Destination(
        account=account,
        content=content if isinstance(content, str) else None,
        content_type=content_type if isinstance(content_type, str) else net.default_content_type,
        meta=meta,
        media=media,
    )


@router.post("/posts/batch")
async def create_batch(request: Request, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    body = await json_object(request)
    with ctx.store.tx() as db:
        destinations, shared = _validate(db, caller, body)
        group = db.new_id()
        post_ids = []
        for dest in destinations:
            post_id = posts_repo.insert_post(
                db,
                NewPost(
                    workspace_id=caller.workspace_id,
                    user_id=caller.user_id,
                    content=dest.content,
                    status="draft",
                    platforms=[NewPlatform(dest.account, dest.content_type, dest.meta)],
                    media=dest.media,
                    label_ids=shared["labels"],
                    scheduled_at=shared["scheduled_at"],
                    post_group_id=group,
                    created_via="api",
                    origin=ORIGIN,
                ),
            )
            # Mirrors create-then-schedule (§6): post.created, then post.scheduled.
            posts_repo.record_event(db, post_id, "post.created")
            if shared["scheduling"]:
                changes: dict[str, Any] = {"status": "scheduled"}
                if shared["queue"] is not None:
                    changes["scheduled_at"] = queue.place(db, dest.account, shared["queue"])
                    changes["schedule_mode"] = "queue"
                db.update("posts", post_id, changes)
                posts_repo.record_event(db, post_id, "post.scheduled")
            elif shared["publishing"]:
                # Publish now (§6): post.created, then only the outcome event, later.
                db.update("posts", post_id, {"status": "publishing"})
                db.run(
                    "UPDATE post_platforms SET status = 'publishing' WHERE post_id = ?",
                    (post_id,),
                )
            post_ids.append(post_id)
        bundles = posts_repo.load_bundles(db, post_ids)
        posts = [post_rest(b, db.media_base_url, batch=True) for b in bundles]
    return ok({"posts": posts}, status=201)
