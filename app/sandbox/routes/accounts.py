"""Social accounts: list, toggle, Pinterest boards, Discord channels and Instagram audio.

Decisions where the spec is silent: toggle answers `200` with the account summary after the
flip; boards/channels are plain arrays of `{id, name}` and answer `422 {message}` for accounts of
another platform. Boards, channels and audio share the per-user limit of 60 lookups a minute;
`GET .../instagram-audio/{id}` reads one track again (the spec names the operation, not its
path) and counts as an uncached lookup.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.sandbox import audio_search, lookup_limits, serializers
from app.sandbox.accounts_repo import find_account, list_accounts
from app.sandbox.auth import Caller
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
        lookup_limits.take(db, caller.user_id)  # counted like a throttle: refusals count too
    with ctx.store.tx() as db:
        return ok(_lookup_list(db, caller.workspace_id, account_id, "pinterest", "boards"))


@router.get("/social-accounts/{account_id}/channels")
async def discord_channels(account_id: str, caller: CallerDep, ctx: ContextDep) -> JSONResponse:
    with ctx.store.tx() as db:
        lookup_limits.take(db, caller.user_id)
    with ctx.store.tx() as db:
        return ok(_lookup_list(db, caller.workspace_id, account_id, "discord", "channels"))


def _audio_account(db: Db, caller: Caller, account_id: str) -> Row:
    account = _account(db, caller.workspace_id, account_id)
    refusal = instagram_audio_eligibility(account["platform"])
    if refusal is not None:
        raise problem(422, refusal)
    return account


def _take_uncached_lookup(db: Db, caller: Caller) -> None:
    """Both §8 limits: the user's 60 lookups and the workspace's 30 uncached audio lookups."""
    lookup_limits.take(db, caller.user_id)
    wait = audio_search.lookup_wait(db, caller.workspace_id)
    if wait is not None:
        raise ApiProblem(
            429,
            {"message": f"Too many audio lookups. Try again in {wait} seconds."},
            {"Retry-After": str(wait)},
        )
    audio_search.record_lookup(db, caller.workspace_id)


UPSTREAM_FAILED = "Instagram did not answer the audio search. Try again later."


@router.get("/social-accounts/{account_id}/instagram-audio")
async def instagram_audio(
    account_id: str, request: Request, caller: CallerDep, ctx: ContextDep
) -> JSONResponse:
    raw_q = request.query_params.get("q")
    audio_type = request.query_params.get("type") or None
    # Laravel trims input first: the length limit counts the trimmed text.
    query = raw_q.strip() if raw_q is not None and raw_q.strip() else None
    with ctx.store.tx() as db:
        _account(db, caller.workspace_id, account_id)
        if query is not None and len(query) > audio_search.Q_MAX:
            raise problem(
                422, f"The q field must not be greater than {audio_search.Q_MAX} characters."
            )
        if audio_type is not None and audio_type not in audio_search.TYPES:
            raise problem(422, "The selected type is invalid.")
        _audio_account(db, caller, account_id)
        hit = audio_search.cached(db, account_id, audio_type, query)
        if hit is not None:
            return ok(hit)
        _take_uncached_lookup(db, caller)
        if ctx.store.audio_upstream_failing:
            failure = problem(502, UPSTREAM_FAILED)
        else:
            failure = None
            results = audio_search.search(db, audio_type, query)
            audio_search.remember(db, account_id, audio_type, query, results)
    # Raised outside the transaction so the lookup stays counted against the limit.
    if failure is not None:
        raise failure
    return ok(results)


@router.get("/social-accounts/{account_id}/instagram-audio/{audio_id}")
async def instagram_audio_track(
    account_id: str, audio_id: str, caller: CallerDep, ctx: ContextDep
) -> JSONResponse:
    """Read one track again for fresh `preview_url`/`cover_url` links (never cached)."""
    with ctx.store.tx() as db:
        _audio_account(db, caller, account_id)
        _take_uncached_lookup(db, caller)
        track = None if ctx.store.audio_upstream_failing else audio_search.track(db, audio_id)
    if ctx.store.audio_upstream_failing:
        raise problem(502, UPSTREAM_FAILED)
    if track is None:
        raise not_found("audio")
    return ok(track)
