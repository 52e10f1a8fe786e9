from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.sandbox.harness import SandboxServer

# `sandbox` and `demo_sandbox` come from tests.sandbox_fixtures, registered by
# tests/conftest.py (pytest honours pytest_plugins only in the top-level conftest).


def client_for(server: SandboxServer, key: str | None = None) -> httpx.Client:
    headers = {"Accept": "application/json"}
    token = server.keys.admin if key is None else key
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.Client(base_url=server.base_url, headers=headers, trust_env=False, timeout=10)


@pytest.fixture
def api(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    """An admin client of the empty-seed sandbox."""
    with client_for(sandbox) as client:
        yield client


@pytest.fixture
def demo_api(demo_sandbox: SandboxServer) -> Iterator[httpx.Client]:
    with client_for(demo_sandbox) as client:
        yield client
