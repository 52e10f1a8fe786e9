"""Labels (plain list, latest first) and signatures (paginated, newest first)."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app.sandbox import labels_repo, serializers
from app.sandbox.errors import FORMAT, MAX_CHARS, REQUIRED, STRING, FieldErrors, not_found
from app.sandbox.http_support import (
    CallerDep,
    ContextDep,
    is_blank,
    json_object,
    no_content,
    ok,
    page_number,
    paginated,
)

router = APIRouter()

SIGNATURES_PER_PAGE = 25
NAME_MAX = 255
_COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")


def _required_string(
    errors: FieldErrors, body: dict[str, Any], key: str, max_len: int | None
) -> str:
    value = body.get(key)
    if is_blank(value):
        errors.add(key, REQUIRED)
        return ""
    if not isinstance(value, str):
        errors.add(key, STRING)
        return ""
    # Laravel trims input first: lengths count, and values keep, the trimmed text.
    value = value.strip()
    if max_len is not None and len(value) > max_len:
        errors.add(key, MAX_CHARS, max=max_len)
    return value


def _label_fields(body: dict[str, Any]) -> tuple[str, str]:
    errors = FieldErrors()
    name = _required_string(errors, body, "name", NAME_MAX)
    color = _required_string(errors, body, "color", None)
    if color and not _COLOR.match(color):
        errors.add("color", FORMAT)
    errors.raise_if_any()
    return name, color


def _signature_fields(body: dict[str, Any]) -> tuple[str, str]:
    errors = FieldErrors()
    name = _required_string(errors, body, "name", NAME_MAX)
    content = _required_string(errors, body, "content", None)
    errors.raise_if_any()
    return name, content


@router.get("/labels")
async def list_labels(caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        rows = labels_repo.list_labels(db, caller.workspace_id)
    return ok([serializers.label(r) for r in rows])


@router.post("/labels")
async def create_label(request: Request, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    name, color = _label_fields(await json_object(request))
    with ctx.store.tx() as db:
        label_id = labels_repo.create_label(db, caller.workspace_id, name, color)
        row = labels_repo.find_label(db, caller.workspace_id, label_id)
    assert row is not None
    return ok(serializers.label(row), status=201)


@router.put("/labels/{label_id}")
async def update_label(
    label_id: str, request: Request, caller: CallerDep, ctx: ContextDep
) -> JSONResponse:
    body = await json_object(request)
    with ctx.store.tx() as db:
        if labels_repo.find_label(db, caller.workspace_id, label_id) is None:
            raise not_found("label")
        name, color = _label_fields(body)
        db.update("labels", label_id, {"name": name, "color": color, "updated_at": db.now()})
        row = labels_repo.find_label(db, caller.workspace_id, label_id)
    assert row is not None
    return ok(serializers.label(row))


@router.delete("/labels/{label_id}")
async def delete_label(label_id: str, caller: CallerDep, ctx: ContextDep) -> Response:
    with ctx.store.tx() as db:
        if labels_repo.find_label(db, caller.workspace_id, label_id) is None:
            raise not_found("label")
        db.run("DELETE FROM labels WHERE id = ?", (label_id,))
    return no_content()


@router.get("/signatures")
async def list_signatures(request: Request, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    page = page_number(request)
    with ctx.store.tx() as db:
        rows, total = labels_repo.page_of_signatures(
            db, caller.workspace_id, page, SIGNATURES_PER_PAGE
        )
    items = [serializers.signature(r) for r in rows]
    return ok(paginated(request, items, total, page, SIGNATURES_PER_PAGE))


@router.post("/signatures")
async def create_signature(request: Request, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    name, content = _signature_fields(await json_object(request))
    with ctx.store.tx() as db:
        signature_id = labels_repo.create_signature(db, caller.workspace_id, name, content)
        row = labels_repo.find_signature(db, caller.workspace_id, signature_id)
    assert row is not None
    return ok(serializers.signature(row), status=201)


@router.put("/signatures/{signature_id}")
async def update_signature(
    signature_id: str, request: Request, caller: CallerDep, ctx: ContextDep
) -> JSONResponse:
    body = await json_object(request)
    with ctx.store.tx() as db:
        if labels_repo.find_signature(db, caller.workspace_id, signature_id) is None:
            raise not_found("signature")
        name, content = _signature_fields(body)
        db.update(
            "signatures", signature_id, {"name": name, "content": content, "updated_at": db.now()}
        )
        row = labels_repo.find_signature(db, caller.workspace_id, signature_id)
    assert row is not None
    return ok(serializers.signature(row))


@router.delete("/signatures/{signature_id}")
async def delete_signature(signature_id: str, caller: CallerDep, ctx: ContextDep) -> Response:
    with ctx.store.tx() as db:
        if labels_repo.find_signature(db, caller.workspace_id, signature_id) is None:
            raise not_found("signature")
        db.run("DELETE FROM signatures WHERE id = ?", (signature_id,))
    return no_content()
