"""Reusable pytest fixtures; register with `pytest_plugins = ["tests.sandbox_fixtures"]`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.sandbox.harness import SandboxServer


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[SandboxServer]:
    """A running sandbox with the "empty" seed (accounts and keys, no content)."""
    with SandboxServer(tmp_path / "sandbox.db", seed="empty") as server:
        yield server


@pytest.fixture
def demo_sandbox(tmp_path: Path) -> Iterator[SandboxServer]:
    """A running sandbox with the demo workspace (about 150 posts and everything else)."""
    with SandboxServer(tmp_path / "demo.db", seed="demo") as server:
        yield server
