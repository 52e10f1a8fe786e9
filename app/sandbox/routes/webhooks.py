"""Webhook routes (§4 "Webhooks", paths from DESIGN.md).

Decisions where the spec is silent: `PUT` accepts any subset of `endpoint`, `events`, `status`;
the test ping answers `200 {success, status, message}` whatever the receiver did; replay answers
`200 {replayed: true}` and leaves a queued log row, which the engine then delivers like any other
(`app.sandbox.deliveries`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app.sandbox import serializers, webhooks_repo
from app.sandbox.clock import iso_now
from app.sandbox.db import Db, Row
from app.sandbox.errors import (
    ARRAY,
    INVALID_CHOICE,
    MAX_CHARS,
    REQUIRED,
    STRING,
    URL,
    FieldErrors,
    not_found,
)
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
from app.sandbox.webhook_ping import send_test_ping
from app.sandbox.webhook_rules import ENDPOINT_MAX, EVENT_NAMES, endpoint_problem

router = APIRouter()

LOGS_PER_PAGE = 15
PRIVATE_ENDPOINT = (
    "The {attr} must be a public address; private, loopback and link-local hosts are not allowed."
)
PAUSED_BY_SERVICE = (
    "The {attr} can only be set to enabled or disabled; paused is set by the service."
)


def _webhook(db: Db, workspace_id: str, webhook_id: str) -> Row:
    row = webhooks_repo.find_webhook(db, workspace_id, webhook_id)
    if row is None:
        raise not_found("webhook")
    return row


def _check_endpoint(errors: FieldErrors, value: Any, allow_private: bool) -> str | None:
    if is_blank(value):
        errors.add("endpoint", REQUIRED)
        return None
    if not isinstance(value, str):
        errors.add("endpoint", STRING)
        return None
    value = value.strip()
    if len(value) > ENDPOINT_MAX:
        errors.add("endpoint", MAX_CHARS, max=ENDPOINT_MAX)
        return None
    issue = endpoint_problem(value, allow_private=allow_private)
    if issue == "url":
        errors.add("endpoint", URL)
    elif issue == "private":
        errors.add("endpoint", PRIVATE_ENDPOINT)
    return None if issue else value


def _check_events(errors: FieldErrors, value: Any) -> list[str] | None:
    if value is None or value == []:
        errors.add("events", REQUIRED)
        return None
    if not isinstance(value, list):
        errors.add("events", ARRAY)
        return None
    for i, name in enumerate(value):
        if name not in EVENT_NAMES:
            errors.add(f"events.{i}", INVALID_CHOICE)
    return list(dict.fromkeys(value))


@router.get("/webhooks")
async def list_webhooks(caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        rows = webhooks_repo.list_webhooks(db, caller.workspace_id)
    return ok([serializers.webhook(r, with_secret=False) for r in rows])


@router.post("/webhooks")
async def create_webhook(request: Request, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    body = await json_object(request)
    errors = FieldErrors()
    endpoint = _check_endpoint(errors, body.get("endpoint"), ctx.settings.allow_private_endpoints)
    events = _check_events(errors, body.get("events"))
    errors.raise_if_any()
    assert endpoint is not None
    assert events is not None
    with ctx.store.tx() as db:
        webhook_id = webhooks_repo.create_webhook(db, caller.workspace_id, endpoint, events)
        return ok(
            serializers.webhook(_webhook(db, caller.workspace_id, webhook_id), with_secret=True),
            status=201,
        )


@router.get("/webhooks/{webhook_id}")
async def get_webhook(webhook_id: str, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        return ok(
            serializers.webhook(_webhook(db, caller.workspace_id, webhook_id), with_secret=True)
        )


@router.put("/webhooks/{webhook_id}")
async def update_webhook(
    webhook_id: str, request: Request, caller: CallerDep, ctx: ContextDep
) -> JSONResponse:
    body = await json_object(request)
    with ctx.store.tx() as db:
        current = _webhook(db, caller.workspace_id, webhook_id)
        errors = FieldErrors()
        changes: dict[str, Any] = {}
        if "endpoint" in body:
            endpoint = _check_endpoint(
                errors, body["endpoint"], ctx.settings.allow_private_endpoints
            )
            if endpoint is not None:
                changes["endpoint"] = endpoint
        if "events" in body:
            events = _check_events(errors, body["events"])
            if events is not None:
                changes["events"] = events
        if "status" in body:
            status = body["status"]
            if status == "paused":
                errors.add("status", PAUSED_BY_SERVICE)
            elif status not in ("enabled", "disabled"):
                errors.add("status", INVALID_CHOICE)
            else:
                changes.update(webhooks_repo.status_change(current, status))
        errors.raise_if_any()
        webhooks_repo.update_webhook(db, webhook_id, changes)
        return ok(
            serializers.webhook(_webhook(db, caller.workspace_id, webhook_id), with_secret=False)
        )


@router.delete("/webhooks/{webhook_id}")
async def delete_webhook(webhook_id: str, caller: CallerDep, ctx: ContextDep) -> Response:
    with ctx.store.tx() as db:
        _webhook(db, caller.workspace_id, webhook_id)
        webhooks_repo.delete_webhook(db, webhook_id)
    return no_content()


@router.post("/webhooks/{webhook_id}/rotate-secret")
async def rotate_secret(webhook_id: str, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        _webhook(db, caller.workspace_id, webhook_id)
        webhooks_repo.rotate_secret(db, webhook_id)
        return ok(
            serializers.webhook(_webhook(db, caller.workspace_id, webhook_id), with_secret=True)
        )


@router.post("/webhooks/{webhook_id}/test")
async def test_webhook(webhook_id: str, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        row = _webhook(db, caller.workspace_id, webhook_id)
        endpoint, secret = row["endpoint"], row["signing_secret"]
    # Sent outside the store lock: the receiver may take up to the full timeout.
    result = await send_test_ping(
        endpoint,
        secret,
        iso_now(ctx.clock),
        allow_private=ctx.settings.allow_private_endpoints,
    )
    return ok(result)


@router.get("/webhooks/{webhook_id}/logs")
async def list_logs(
    webhook_id: str, request: Request, caller: CallerDep, ctx: ContextDep
) -> JSONResponse:
    page = page_number(request)
    with ctx.store.tx() as db:
        _webhook(db, caller.workspace_id, webhook_id)
        rows, total = webhooks_repo.page_of_logs(db, webhook_id, page, LOGS_PER_PAGE)
    items = [serializers.webhook_log(r) for r in rows]
    return ok(paginated(request, items, total, page, LOGS_PER_PAGE, meta_links=False))


@router.post("/webhooks/{webhook_id}/logs/{log_id}/replay")
async def replay_log(
    webhook_id: str, log_id: str, caller: CallerDep, ctx: ContextDep
) -> JSONResponse:
    with ctx.store.tx() as db:
        _webhook(db, caller.workspace_id, webhook_id)
        log = webhooks_repo.find_log(db, webhook_id, log_id)
        if log is None:
            raise not_found("webhook log")
        webhooks_repo.replay(db, log)
    return ok({"replayed": True})
