"""Sandbox fixtures shared by the client's integration tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.sandbox.harness import SandboxServer


@pytest.fixture(scope="module")
def shared_demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    """One demo workspace per module, for tests that only read."""
    with SandboxServer(tmp_path_factory.mktemp("demo") / "demo.db", seed="demo") as server:
        yield server


@pytest.fixture
def private_sandbox(tmp_path: Path) -> Iterator[SandboxServer]:
    """An empty-seed sandbox that accepts loopback webhook endpoints (for a local receiver)."""
    with SandboxServer(tmp_path / "private.db", allow_private_endpoints=True) as server:
        yield server
