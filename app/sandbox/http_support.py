"""Request plumbing shared by the route modules: caller resolution, bodies, pagination."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse, Response

from app.sandbox.auth import Caller, authenticate, bearer_token, token_hash
from app.sandbox.clock import Clock
from app.sandbox.errors import problem, rate_limited
from app.sandbox.rate_limit import SlidingWindowLimiter
from app.sandbox.store import SandboxStore


@dataclass
class SandboxSettings:
    allow_private_endpoints: bool = False
    rate_limit: int | None = None
    latency_ms: int = 0
    """Simulated network latency: every HTTP request waits this long (asyncio.sleep) before it
    is handled, as the hosted API does at a distance. 0 (the default) adds nothing."""


@dataclass
class SandboxContext:
    store: SandboxStore
    settings: SandboxSettings
    limiter: SlidingWindowLimiter | None

    @property
    def clock(self) -> Clock:
        return self.store.clock


def context(request: Request) -> SandboxContext:
    ctx: SandboxContext = request.app.state.sandbox
    return ctx


def current_caller(request: Request) -> Caller:
    ctx = context(request)
    header = request.headers.get("authorization")
    if ctx.limiter is not None:
        token = bearer_token(header)
        client = request.client.host if request.client else "unknown"
        wait = ctx.limiter.hit(token_hash(token) if token else f"ip:{client}")
        if wait is not None:
            raise rate_limited(wait)
    with ctx.store.tx() as db:
        return authenticate(db, header)


CallerDep = Annotated[Caller, Depends(current_caller)]
ContextDep = Annotated[SandboxContext, Depends(context)]


def ok(body: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status)


def no_content() -> Response:
    return Response(status_code=204)


async def json_object(request: Request) -> dict[str, Any]:
    """The JSON object body; an empty body counts as `{}` (every field then missing)."""
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise problem(400, "The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise problem(400, "The request body must be a JSON object.")
    cleaned: dict[str, Any] = empty_strings_to_null(body)
    return cleaned


def empty_strings_to_null(value: Any) -> Any:
    """Laravel's ConvertEmptyStringsToNull, through nested objects and arrays: `""` is absent."""
    if value == "":
        return None
    if isinstance(value, dict):
        return {key: empty_strings_to_null(item) for key, item in value.items()}
    if isinstance(value, list):
        return [empty_strings_to_null(item) for item in value]
    return value


def is_blank(value: Any) -> bool:
    """Laravel's `required` fails on null and on strings that are empty after trimming."""
    return value is None or (isinstance(value, str) and not value.strip())


def page_number(request: Request) -> int:
    """Laravel reads a missing, malformed or non-positive `page` as page 1."""
    raw = request.query_params.get("page", "1")
    try:
        page = int(raw)
    except ValueError:
        return 1
    return max(page, 1)


def _page_url(path: str, page: int) -> str:
    return f"{path}?page={page}"


def paginated(
    request: Request,
    items: list[Any],
    total: int,
    page: int,
    per_page: int,
    *,
    meta_links: bool = True,
) -> dict[str, Any]:
    """The Laravel-style envelope of §2 "Pagination envelope"."""
    path = str(request.url.replace(query=""))
    last_page = max(1, math.ceil(total / per_page))
    first_index = (page - 1) * per_page + 1
    meta: dict[str, Any] = {
        "current_page": page,
        "from": first_index if items else None,
        "last_page": last_page,
    }
    if meta_links:
        entries = [
            {
                "url": _page_url(path, page - 1) if page > 1 else None,
                "label": "&laquo; Previous",
                "page": page - 1 if page > 1 else None,
                "active": False,
            }
        ]
        entries += [
            {"url": _page_url(path, n), "label": str(n), "page": n, "active": n == page}
            for n in range(1, last_page + 1)
        ]
        entries.append(
            {
                "url": _page_url(path, page + 1) if page < last_page else None,
                "label": "Next &raquo;",
                "page": page + 1 if page < last_page else None,
                "active": False,
            }
        )
        meta["links"] = entries
    meta.update(
        {
            "path": path,
            "per_page": per_page,
            "to": first_index + len(items) - 1 if items else None,
            "total": total,
        }
    )
    return {
        "data": items,
        "links": {
            "first": _page_url(path, 1),
            "last": _page_url(path, last_page),
            "prev": _page_url(path, page - 1) if page > 1 else None,
            "next": _page_url(path, page + 1) if page < last_page else None,
        },
        "meta": meta,
    }


def short_paginated(
    request: Request, items: list[Any], total: int, page: int, per_page: int
) -> dict[str, Any]:
    """The repurpose items envelope: `meta` carries only what the spec's example shows."""
    full = paginated(request, items, total, page, per_page, meta_links=False)
    return {
        "data": items,
        "links": full["links"],
        "meta": {"current_page": page, "per_page": per_page, "total": total},
    }
