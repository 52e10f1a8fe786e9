"""Fixtures shared by the sync tests: the webhook monitor's (the sandbox read through a
request-counting transport) and the outbox's local file."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from app.api.client import ApiClient
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from tests.sync.test_webhook_monitor import FAST, CountingTransport


@pytest.fixture
def server(tmp_path: Path) -> Iterator[SandboxServer]:
    with SandboxServer(tmp_path / "sandbox.db") as running:
        yield running


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LocalStore]:
    opened = LocalStore.open(tmp_path / "ws.local.sqlite3")
    yield opened
    opened.close()


@pytest.fixture
def transport() -> CountingTransport:
    return CountingTransport()


@pytest_asyncio.fixture
async def client(server: SandboxServer, transport: CountingTransport) -> AsyncIterator[ApiClient]:
    api = ApiClient(server.base_url, server.keys.admin, retry=FAST, transport=transport)
    yield api
    await api.aclose()
