"""Panels against a real sandbox: a WorkspaceSession on a qasync loop driven by the test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from app.config import Profile
from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from tests.ui.app.conftest import LoopRunner
from ui.messages import Message, MessageBridge
from ui.session import WorkspaceSession

MakeSession = Callable[..., WorkspaceSession]


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    yield loop_runner
    loop_runner.close()


class Posted(list[Message]):
    def texts(self) -> list[str]:
        return [f"{m.text} {m.hint}".strip() for m in self]


@pytest.fixture
def posted() -> Posted:
    return Posted()


@pytest.fixture
def make_session(tmp_path: Path, runner: LoopRunner, posted: Posted) -> Iterator[MakeSession]:
    sessions: list[WorkspaceSession] = []

    def make(base_url: str, api_key: str, name: str = "ws") -> WorkspaceSession:
        bridge = MessageBridge()
        bridge.posted.connect(posted.append)
        profile = Profile(id=f"test-{name}", name=name, base_url=base_url)
        cache = WorkspaceCache(tmp_path / f"{name}.sqlite3")
        session = WorkspaceSession(profile, api_key, cache, bridge)
        sessions.append(session)
        return session

    yield make
    for session in sessions:
        runner.run(session.close())


@pytest.fixture
def private_sandbox(tmp_path: Path) -> Iterator[SandboxServer]:
    """Empty seed; accepts loopback endpoints so webhooks can reach a receiver in the test."""
    with SandboxServer(tmp_path / "private.db", allow_private_endpoints=True) as server:
        yield server
