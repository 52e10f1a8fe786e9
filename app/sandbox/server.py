"""The FastAPI application of the sandbox: routes under `/api`, spec-shaped error bodies."""

from __future__ import annotations

import asyncio

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from app.sandbox.errors import ApiProblem
from app.sandbox.fault_injection import FailAfterCommit, FailAfterCommitMiddleware
from app.sandbox.http_support import SandboxContext, SandboxSettings
from app.sandbox.rate_limit import SlidingWindowLimiter
from app.sandbox.routes import accounts, batch, library, misc, posts, webhooks
from app.sandbox.store import SandboxStore

API_PREFIX = "/api"


async def _api_problem(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiProblem)
    return JSONResponse(exc.body, status_code=exc.status, headers=exc.headers)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    route = request.url.path.lstrip("/")
    if exc.status_code == 404:
        message = f"The route {route} could not be found."
    elif exc.status_code == 405:
        message = f"The {request.method} method is not supported for route {route}."
    else:
        message = str(exc.detail)
    return JSONResponse({"message": message}, status_code=exc.status_code, headers=exc.headers)


async def _request_invalid(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"message": "The request is invalid."}, status_code=422)


async def _server_error(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"message": "Server Error"}, status_code=500)


class SimulatedLatency:
    """ASGI middleware: each HTTP request sleeps `seconds` first (without blocking the others),
    so a loopback sandbox answers like a server far away."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await asyncio.sleep(self.seconds)
        await self.app(scope, receive, send)


def create_app(
    store: SandboxStore,
    settings: SandboxSettings | None = None,
    faults: FailAfterCommit | None = None,
) -> FastAPI:
    settings = settings or SandboxSettings()
    app = FastAPI(
        title="Social Publishing API sandbox",
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
    )
    limiter = (
        SlidingWindowLimiter(settings.rate_limit, store.clock)
        if settings.rate_limit is not None
        else None
    )
    app.state.sandbox = SandboxContext(store, settings, limiter)
    for module in (posts, batch, library, accounts, webhooks, misc):
        app.include_router(module.router, prefix=API_PREFIX)
    app.include_router(misc.public_router)
    app.add_exception_handler(ApiProblem, _api_problem)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _request_invalid)
    app.add_exception_handler(Exception, _server_error)
    if settings.latency_ms > 0:
        app.add_middleware(SimulatedLatency, seconds=settings.latency_ms / 1000)
    if faults is not None:
        app.add_middleware(FailAfterCommitMiddleware, faults=faults)
    return app
