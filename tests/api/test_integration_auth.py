"""Authentication and connection failures against a real sandbox over loopback."""

from __future__ import annotations

import logging
import socket
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.api import errors as e
from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.sandbox.harness import SandboxServer
from tests.api.helpers import FakeClock, sandbox_client


@pytest.mark.asyncio
async def test_an_admin_key_connects(sandbox: SandboxServer) -> None:
    async with sandbox_client(sandbox) as client:
        await client.check_connection()
        accounts = await client.accounts.list()
    assert {"x", "pinterest", "instagram-facebook"} <= {a.platform for a in accounts}


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("key_name", "expected", "message"),
    [
        ("member", e.InsufficientPermissions, "Insufficient workspace permissions."),
        ("expired", e.TokenExpired, "Token expired."),
        ("unbound", e.NoWorkspaceSelected, "No workspace selected."),
        ("left", e.WorkspaceAccessDenied, "Workspace access denied."),
    ],
)
async def test_each_key_problem_is_its_own_error(
    sandbox: SandboxServer, key_name: str, expected: type[e.ApiError], message: str
) -> None:
    key = getattr(sandbox.keys, key_name)
    async with sandbox_client(sandbox, key) as client:
        with pytest.raises(expected) as caught:
            await client.check_connection()
    assert caught.value.message == message
    assert caught.value.hint != e.ApiError.default_hint
    assert key not in repr(caught.value)


@pytest.mark.asyncio
async def test_an_unknown_key_is_unauthenticated(sandbox: SandboxServer) -> None:
    async with sandbox_client(sandbox, "pd_sandbox_admin_not-a-real-key") as client:
        with pytest.raises(e.Unauthenticated) as caught:
            await client.posts.page()
    assert caught.value.status == 401
    assert caught.value.message == "Unauthenticated."


@pytest.mark.asyncio
async def test_the_address_without_api_is_explained(sandbox: SandboxServer) -> None:
    async with ApiClient(sandbox.origin, sandbox.keys.admin) as client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.check_connection()
    assert "/api" in caught.value.hint


@pytest.mark.asyncio
async def test_a_closed_port_is_a_connection_failure_after_retries() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    clock = FakeClock()
    async with ApiClient(
        f"http://127.0.0.1:{port}/api", "key", clock=clock, retry=RetryPolicy(jitter=0)
    ) as client:
        with pytest.raises(e.ConnectionFailed):
            await client.check_connection()
    assert clock.sleeps == [0.5, 1.0, 2.0]


@pytest.mark.asyncio
async def test_the_global_throttle_is_waited_out(tmp_path: Path) -> None:
    moment = datetime.now(UTC)  # the sandbox's clock stands still: its Retry-After is exact
    with SandboxServer(tmp_path / "limited.db", rate_limit=3, now=lambda: moment) as server:
        waits: list[float] = []
        async with sandbox_client(
            server, on_retry=lambda attempt, delay, error: waits.append(delay)
        ) as client:
            for _ in range(3):
                await client.labels.list()
            with pytest.raises(e.RateLimited) as caught:
                await client.labels.list()
    # The sandbox asks for up to a minute; the fake clock does not move the server's clock, so
    # every retry is refused again until the attempts run out.
    assert caught.value.name == "rate_limit_exceeded"
    assert caught.value.retry_after == 60.0
    assert waits == [60.0, 60.0, 60.0]


@pytest.mark.asyncio
async def test_debug_logging_of_real_traffic_never_shows_the_key(
    sandbox: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        async with sandbox_client(sandbox) as client:
            await client.accounts.list()
        async with sandbox_client(sandbox, sandbox.keys.expired) as client:
            with pytest.raises(e.TokenExpired):
                await client.posts.page()
    assert "headers=" in caplog.text
    assert "[redacted]" in caplog.text
    assert sandbox.keys.admin not in caplog.text
    assert sandbox.keys.expired not in caplog.text
