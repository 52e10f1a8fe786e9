"""Repurposes, uploads, content types, workspace, and the public media files.

Shapes chosen where the spec shows none (documented in README.md): `GET /content-types` is a
plain array `{platform, content_type, label, default, required_meta}`; `GET /workspace` is
`{id, name, timezone, owner{id,name}, members_count, created_at, updated_at}`; `GET /repurposes`
items are `{id, name, source{platform,username}, destinations[{social_account_id, platform}],
is_active, items_count, created_at, updated_at}` (ISO 8601 like the activity items);
`POST /uploads` takes a multipart `file` and answers `201 {upload_token, type, mime_type,
original_filename, size, meta, created_at}`.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app.sandbox import repurposes_repo, uploads_repo
from app.sandbox.errors import REQUIRED, not_found, problem, single_field_problem
from app.sandbox.http_support import (
    CallerDep,
    ContextDep,
    context,
    ok,
    page_number,
    paginated,
    short_paginated,
)
from app.sandbox.limited_body import BodyTooLarge, read_limited
from app.sandbox.multipart import file_parts
from app.sandbox.networks import NETWORKS

router = APIRouter()
public_router = APIRouter()

REPURPOSES_PER_PAGE = 15
REPURPOSE_ITEMS_PER_PAGE = 25


@router.get("/repurposes")
async def list_repurposes(request: Request, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    page = page_number(request)
    with ctx.store.tx() as db:
        items, total = repurposes_repo.page_of_repurposes(
            db, caller.workspace_id, page, REPURPOSES_PER_PAGE
        )
    return ok(paginated(request, items, total, page, REPURPOSES_PER_PAGE))


@router.get("/repurposes/{repurpose_id}/items")
async def list_repurpose_items(
    repurpose_id: str, request: Request, caller: CallerDep, ctx: ContextDep
) -> JSONResponse:
    page = page_number(request)
    with ctx.store.tx() as db:
        repurpose = repurposes_repo.find_repurpose(db, repurpose_id)
        if repurpose is None:
            raise not_found("repurpose")
        if repurpose["workspace_id"] != caller.workspace_id:
            # §4 Repurposes: another workspace's id answers 403, not 404.
            raise problem(403, "This action is unauthorized.")
        items, total = repurposes_repo.page_of_items(
            db, repurpose_id, page, REPURPOSE_ITEMS_PER_PAGE
        )
    return ok(short_paginated(request, items, total, page, REPURPOSE_ITEMS_PER_PAGE))


@router.get("/content-types")
async def content_types(caller: CallerDep) -> JSONResponse:
    return ok(
        [
            {
                "platform": net.platform,
                "content_type": ct.value,
                "label": ct.label,
                "default": ct.value == net.default_content_type,
                "required_meta": list(net.required_meta),
            }
            for net in NETWORKS.values()
            for ct in net.content_types
        ]
    )


@router.get("/workspace")
async def workspace(caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        row = db.one(
            "SELECT w.*, u.name AS owner_name, "
            "(SELECT COUNT(*) FROM members m WHERE m.workspace_id = w.id) AS members_count "
            "FROM workspaces w JOIN users u ON u.id = w.owner_user_id WHERE w.id = ?",
            (caller.workspace_id,),
        )
    assert row is not None
    return ok(
        {
            "id": row["id"],
            "name": row["name"],
            "timezone": row["timezone"],
            "owner": {"id": row["owner_user_id"], "name": row["owner_name"]},
            "members_count": row["members_count"],
            "created_at": row["created_at"],
            "updated_at": row["updated_at"],
        }
    )


@router.post("/uploads")
async def upload(request: Request, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    try:  # streamed: a huge body is refused before it is held in memory
        body = await read_limited(request, uploads_repo.MAX_UPLOAD_BYTES + 64 * 1024)
    except BodyTooLarge:
        raise single_field_problem(
            "file",
            "The {attr} field must not be greater than {kb} kilobytes.",
            kb=uploads_repo.MAX_UPLOAD_BYTES // 1024,
        ) from None
    parts = [
        p for p in file_parts(request.headers.get("content-type", ""), body) if p.field == "file"
    ]
    if not parts:
        raise single_field_problem("file", REQUIRED)
    part = parts[0]
    with ctx.store.tx() as db:
        uploads_repo.prune_uploads(db)  # the data folder does not keep uploads for ever
        row = uploads_repo.create_upload(
            db, caller.workspace_id, part.filename, part.content_type, part.data
        )
        return ok(uploads_repo.upload_body(row), status=201)


@public_router.get("/storage/medias/{name}")
async def media_file(name: str, request: Request) -> Response:
    """Public media URLs (no key, like a CDN); only files with stored bytes are served."""
    store = context(request).store
    with store.tx() as db:
        row = db.one(
            "SELECT b.mime_type, b.data FROM media m JOIN blobs b ON b.id = m.blob_id "
            "WHERE m.path = ?",
            (f"medias/{name}",),
        )
    if row is None:
        raise not_found("media file")
    return Response(content=row["data"], media_type=row["mime_type"])
