"""Panels against a real sandbox: a WorkspaceSession on a qasync loop driven by the test."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from app.workspaces.profiles import Profile
from tests.ui.app.conftest import LoopRunner
from ui.messages import Message, MessageBridge
from ui.session import WorkspaceSession

MakeSession = Callable[..., WorkspaceSession]


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    yield loop_runner
    loop_runner.close()


@pytest.fixture(autouse=True)
def delete_widgets(qapp: QApplication) -> Iterator[None]:
    """Delete the test's windows in this thread: Python's cyclic GC may otherwise destroy them
    later from the sandbox's server thread, which Qt refuses (timers of another thread)."""
    yield
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


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
        session = WorkspaceSession(profile, api_key, cache, bridge.scope())
        sessions.append(session)
        return session

    yield make
    # Panel tasks still in flight end first, so none of them meets a closed client.
    runner.cancel_pending()
    # The test's pages are garbage now: collected here, not by a pass that closing the cache
    # triggers on its writer thread (Qt objects destroyed there crash the process).
    gc.collect()
    for session in sessions:
        runner.run(session.close())


@pytest.fixture
def private_sandbox(tmp_path: Path) -> Iterator[SandboxServer]:
    """Empty seed; accepts loopback endpoints so webhooks can reach a receiver in the test."""
    with SandboxServer(tmp_path / "private.db", allow_private_endpoints=True) as server:
        yield server
