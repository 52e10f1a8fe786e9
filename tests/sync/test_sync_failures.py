"""How a failed refresh is reported and when the next one starts, on an injected clock.

The server is a MockTransport here: the exact statuses and the timing matter, not the data."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from app.api import errors as e
from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.store import CacheError, WorkspaceCache
from app.sync import SyncService, SyncState
from app.sync.service import first_error
from tests.api.helpers import FakeClock, json_response, posts_page

ONE_TRY = RetryPolicy(max_attempts=1, jitter=0.0)


def server(posts: Callable[[], httpx.Response] | None = None) -> Callable[..., httpx.Response]:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/social-accounts"):
            return json_response(200, [])
        if request.url.path.endswith("/labels"):
            return json_response(200, [])
        if posts is not None:
            return posts()
        return json_response(200, posts_page(1, last_page=1, per_page=3))

    return handler


def client_with(handler: Callable[..., httpx.Response], clock: FakeClock) -> ApiClient:
    return ApiClient(
        "https://api.example.test/api",
        "key",
        transport=httpx.MockTransport(handler),
        retry=ONE_TRY,
        clock=clock,
    )


def refused_with(status: int, headers: dict[str, str] | None = None) -> httpx.Response:
    return json_response(status, {"message": "Nope."}, headers)


@pytest.fixture
def cache(tmp_path: Path) -> WorkspaceCache:
    return WorkspaceCache(tmp_path / "c.sqlite3")


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(10):  # a guard against hanging, not a speed requirement
        while not condition():  # noqa: ASYNC110 - the condition is plain state, no event
            await asyncio.sleep(0)


@pytest.mark.asyncio
async def test_the_next_attempt_waits_exactly_retry_after(cache: WorkspaceCache) -> None:
    clock = FakeClock(start=0.0)
    answers = iter([refused_with(429, {"Retry-After": "7"})])

    def posts() -> httpx.Response:
        return next(answers, None) or json_response(200, posts_page(1, last_page=1, per_page=3))

    starts: list[float] = []
    states: list[SyncState] = []

    def on_state(state: SyncState) -> None:
        states.append(state)
        if state.phase == "syncing":
            starts.append(clock.now())

    async with client_with(server(posts), clock) as client:
        service = SyncService(
            client, cache, on_state=on_state, on_changed=lambda _: None, rng=lambda: 0.5
        )
        task = asyncio.ensure_future(service.run_forever(light_every=1e6, full_every=1e6))
        try:
            await until(lambda: len(starts) >= 2 and service.state.phase == "idle")
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    failed = next(state for state in states if state.phase == "rate_limited")
    assert failed.retry_in == 7.0
    assert failed.kind == "rate_limited"
    assert starts[:2] == [0.0, 7.0]
    assert cache.count_posts() == 3
    cache.close()


@pytest.mark.asyncio
async def test_backoff_after_an_outage_is_exact_with_a_fixed_jitter(cache: WorkspaceCache) -> None:
    clock = FakeClock(start=0.0)
    async with client_with(server(lambda: refused_with(500)), clock) as client:
        service = SyncService(
            client, cache, on_state=lambda _: None, on_changed=lambda _: None, rng=lambda: 0.5
        )
        assert await service.full_refresh() is False
        assert service.state.retry_in == 2.0  # retry_base, jitter factor 0.8 + 0.4 * 0.5 = 1
        assert await service.full_refresh() is False
        assert service.state.retry_in == 4.0
    assert service.state.kind == "server_error"
    cache.close()


@pytest.mark.asyncio
async def test_a_backoff_never_ends_before_the_rate_gate_opens(cache: WorkspaceCache) -> None:
    clock = FakeClock(start=0.0)
    gate_closed_by_another_route: list[ApiClient] = []

    def posts() -> httpx.Response:
        # Meanwhile another request of the workspace was refused with Retry-After: 30.
        gate_closed_by_another_route[0].rate_gate.hold(30.0)
        return refused_with(500)

    async with client_with(server(posts), clock) as client:
        gate_closed_by_another_route.append(client)
        service = SyncService(
            client, cache, on_state=lambda _: None, on_changed=lambda _: None, rng=lambda: 0.5
        )
        assert await service.full_refresh() is False
    assert service.state.kind == "server_error"
    assert service.state.retry_in == 30.0  # not the 2 s backoff
    cache.close()


@pytest.mark.asyncio
async def test_failing_callbacks_do_not_end_the_sync_loop(cache: WorkspaceCache) -> None:
    clock = FakeClock(start=0.0)
    calls = {"state": 0, "changed": 0}

    def on_state(_: SyncState) -> None:
        calls["state"] += 1
        raise RuntimeError("a broken status bar")

    def on_changed(_change: object) -> None:
        calls["changed"] += 1
        raise RuntimeError("a broken calendar")

    pages = iter(range(1, 100))

    def posts() -> httpx.Response:
        # Each refresh sees one more post, so every one of them has news to report.
        return json_response(200, posts_page(1, last_page=1, per_page=next(pages)))

    async with client_with(server(posts), clock) as client:
        service = SyncService(client, cache, on_state=on_state, on_changed=on_changed)
        task = asyncio.ensure_future(service.run_forever(light_every=10, full_every=1e6))
        try:
            await until(lambda: calls["changed"] >= 3)
            assert not task.done()
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    assert service.state.phase == "idle"
    assert cache.count_posts() >= 3
    cache.close()


@pytest.mark.parametrize(
    ("status", "kind", "phase"),
    [
        (401, "key_refused", "auth_failed"),
        (403, "key_refused", "auth_failed"),
        (402, "subscription_required", "subscription_required"),
        (502, "server_error", "error"),
        (503, "server_error", "error"),
        (302, "redirect", "error"),
        (404, "not_the_api", "error"),
    ],
)
@pytest.mark.asyncio
async def test_each_failure_has_a_kind_the_window_can_act_on(
    cache: WorkspaceCache, status: int, kind: str, phase: str
) -> None:
    headers = {"Location": "https://api.example.test/api/posts"} if status == 302 else None
    clock = FakeClock()
    async with client_with(server(lambda: refused_with(status, headers)), clock) as client:
        service = SyncService(client, cache, on_state=lambda _: None, on_changed=lambda _: None)
        assert await service.full_refresh() is False
    state = service.state
    assert (state.kind, state.phase) == (kind, phase)
    assert state.failed
    assert state.message
    assert state.hint
    cache.close()


@pytest.mark.asyncio
async def test_never_synced_is_told_apart_from_showing_saved_data(cache: WorkspaceCache) -> None:
    clock = FakeClock()
    outage = {"on": True}

    def posts() -> httpx.Response:
        if outage["on"]:
            raise httpx.ConnectError("refused")
        return json_response(200, posts_page(1, last_page=1, per_page=3))

    async with client_with(server(posts), clock) as client:
        service = SyncService(client, cache, on_state=lambda _: None, on_changed=lambda _: None)
        assert await service.full_refresh() is False
        never = service.state
        outage["on"] = False
        assert await service.full_refresh() is True
        assert service.state.ever_synced
        assert not service.state.failed
        outage["on"] = True
        assert await service.full_refresh() is False
        since = service.state
    assert (never.kind, never.ever_synced) == ("offline", False)
    assert never.hint.endswith("Nothing has been downloaded to this computer yet.")
    assert "copy saved on this computer" not in never.hint
    assert (since.kind, since.ever_synced) == ("offline", True)
    assert since.hint.endswith("The calendar shows the copy saved on this computer.")
    cache.close()


def test_the_api_error_is_chosen_from_a_nested_exception_group() -> None:
    refused = e.TokenExpired()
    group = ExceptionGroup(
        "sync",
        [ValueError("a bug"), ExceptionGroup("pages", [refused, e.ConnectionFailed()])],
    )
    assert first_error(group) is refused


def test_without_an_api_error_the_first_failure_is_chosen() -> None:
    full = CacheError("disk full")
    group = ExceptionGroup("sync", [ExceptionGroup("inner", [full]), ValueError("later")])
    assert first_error(group) is full
    assert first_error(full) is full
