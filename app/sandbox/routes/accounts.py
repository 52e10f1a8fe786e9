"""Social accounts: list, toggle, Pinterest boards, Discord channels and Instagram audio.

Decisions where the spec is silent: toggle answers `200` with the account summary after the
flip; boards/channels are plain arrays of `{id, name}` and answer `422 {message}` for accounts of
another platform.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.sandbox import audio_search, serializers
from app.sandbox.accounts_repo import find_account, list_accounts
from app.sandbox.db import Db, Row, loads
from app.sandbox.errors import ApiProblem, not_found, problem
from app.sandbox.http_support import CallerDep, ContextDep, ok
from app.sandbox.networks import instagram_audio_eligibility

router = APIRouter()


def _account(db: Db, workspace_id: str, account_id: str) -> Row:
    account = find_account(db, workspace_id, account_id)
    if account is None:
        raise not_found("social account")
    return account


@router.get("/social-accounts")
async def list_social_accounts(caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        rows = list_accounts(db, caller.workspace_id)
    return ok([serializers.account_summary(r) for r in rows])


@router.put("/social-accounts/{account_id}/toggle")
async def toggle_account(account_id: str, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        account = _account(db, caller.workspace_id, account_id)
        db.update("social_accounts", account_id, {"is_active": int(not account["is_active"])})
        return ok(serializers.account_summary(_account(db, caller.workspace_id, account_id)))


def _lookup_list(
    db: Db, workspace_id: str, account_id: str, platform: str, column: str
) -> list[dict[str, str]]:
    account = _account(db, workspace_id, account_id)
    if account["platform"] != platform:
        noun = "Boards" if column == "boards" else "Channels"
        raise problem(422, f"{noun} are only available for {platform.capitalize()} accounts.")
    return [{"id": e["id"], "name": e["name"]} for e in loads(account[column]) or []]


@router.get("/social-accounts/{account_id}/boards")
async def pinterest_boards(account_id: str, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        return ok(_lookup_list(db, caller.workspace_id, account_id, "pinterest", "boards"))


@router.get("/social-accounts/{account_id}/channels")
async def discord_channels(account_id: str, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        return ok(_lookup_list(db, caller.workspace_id, account_id, "discord", "channels"))


@router.get("/social-accounts/{account_id}/instagram-audio")
async def instagram_audio(
    account_id: str, request: Request, caller: CallerDep, ctx: ContextDep
) -> JSONResponse:
    q = request.query_params.get("q")
    audio_type = request.query_params.get("type") or None
    with ctx.store.tx() as db:
        account = _account(db, caller.workspace_id, account_id)
        if q is not None and len(q) > audio_search.Q_MAX:
            raise problem(
                422, f"The q field must not be greater than {audio_search.Q_MAX} characters."
            )
        if audio_type is not None and audio_type not in audio_search.TYPES:
            raise problem(422, "The selected type is invalid.")
        refusal = instagram_audio_eligibility(account["platform"])
        if refusal is not None:
            raise problem(422, refusal)
        query = q.strip() if q is not None and q.strip() else None
        hit = audio_search.cached(db, account_id, audio_type, query)
        if hit is not None:
            return ok(hit)
        wait = audio_search.lookup_wait(db, caller.workspace_id)
        if wait is not None:
            raise ApiProblem(
                429,
                {"message": f"Too many audio lookups. Try again in {wait} seconds."},
                {"Retry-After": str(wait)},
            )
        audio_search.record_lookup(db, caller.workspace_id)
        if ctx.store.audio_upstream_failing:
            failure = problem(502, "Instagram did not answer the audio search. Try again later.")
        else:
            failure = None
            results = audio_search.search(db, audio_type, query)
            audio_search.remember(db, account_id, audio_type, query, results)
    # Raised outside the transaction so the lookup stays counted against the limit.
    if failure is not None:
        raise failure
    return ok(results)
