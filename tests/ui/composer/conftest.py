"""The Compose page against a real sandbox, a real cache and a real drafts file, on a qasync loop
the test body drives (`runner.run(coro)`)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from app.store.local_store import LocalStore
from app.workspaces.profiles import Profile
from tests.ui.loop_runner import LoopRunner, until
from ui.composer.page import ComposerPage
from ui.messages import MessageBridge
from ui.session import WorkspaceSession

BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    yield loop_runner
    loop_runner.close()
    # Collect the loop's Qt objects here, not later on some worker thread.
    gc.collect()


def dispose(widget: QWidget) -> None:
    """Delete now, on this thread (a widget collected later by Python's GC on a worker thread
    would stop its timers from the wrong thread)."""
    widget.close()
    widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@dataclass
class Composer:
    page: ComposerPage
    session: WorkspaceSession
    store: LocalStore
    sandbox: SandboxServer
    runner: LoopRunner

    def run(self, coro: object) -> Any:
        return self.runner.run(coro)  # type: ignore[arg-type]

    def account(self, platform: str) -> str:
        return self.sandbox.store.account_id(platform)

    def choose(self, *platforms: str) -> None:
        for platform in platforms:
            assert self.page.picker.toggle(self.account(platform)), platform

    def wait(self, predicate: Callable[[], object], what: str = "", limit: float = 20.0) -> None:
        self.run(until(predicate, limit, what))


def make_session(
    sandbox: SandboxServer,
    data_dir: Path,
    base_url: str | None = None,
    *,
    local_store: LocalStore | None = None,
) -> WorkspaceSession:
    profile = Profile(id="composertest", name="Test", base_url=base_url or sandbox.base_url)
    cache = WorkspaceCache(data_dir / "cache.sqlite3")
    scope = MessageBridge().scope()
    return WorkspaceSession(profile, sandbox.keys.admin, cache, scope, local_store=local_store)


@pytest.fixture
def composer(
    qtbot: QtBot, runner: LoopRunner, sandbox: SandboxServer, tmp_path: Path
) -> Iterator[Composer]:
    store = LocalStore.open(tmp_path / "drafts.sqlite3")
    session = make_session(sandbox, tmp_path, local_store=store)
    runner.run(session.sync.full_refresh())
    page = ComposerPage(local_tz=BERLIN)
    page.resize(1440, 900)

    async def attach() -> None:
        # Everything that lets Qt run events happens inside the loop (qasync needs it running).
        session.start_outbox()  # the workspace sends its outbox; the sync is left out here
        page.show()
        page.set_session(session)
        # Attached: the page's own start-up reads (the deployment's content types) are done.
        await until(lambda: len(page.tasks) == 0, what="the page's start-up reads")

    runner.run(attach())
    yield Composer(page, session, store, sandbox, runner)
    runner.run(page.shutdown())
    runner.run(session.close())
    store.close()
    dispose(page)
