"""The outbox belongs to the workspace, not to the Compose page: what was queued before a restart
is sent with Compose never shown, and `postdesk import` and the window's import share one record
of what was sent."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from app.csv_io import cli
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore, local_store_path
from app.sync.outbox import Outbox, OutboxState
from app.workspaces.profiles import Paths, Profile, ProfileStore
from tests.keyrings import MemoryKeyring
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options, started, stopped
from ui.application import Application
from ui.composer.page import ComposerPage


def _outbox_loops() -> list[asyncio.Task[object]]:
    return [
        task
        for task in asyncio.all_tasks()
        if not task.done() and "OutboxService.run" in repr(task.get_coro())
    ]


def test_a_batch_queued_before_a_restart_is_sent_without_opening_compose(
    qapp: QApplication, runner: LoopRunner, sandbox: SandboxServer, memory_keyring: MemoryKeyring
) -> None:
    """Measured before: 0 posts after 8 s, sent only once Compose was opened."""
    profile = ProfileStore().upsert_by_address("Acme", sandbox.base_url, "UTC")
    memory_keyring.set_password("postdesk", profile.id, sandbox.keys.admin)
    ProfileStore().active_id = profile.id
    # The last run queued it and quit before sending (e.g. offline on the train).
    store = LocalStore.open(local_store_path(Paths(), profile.id))
    queued = BatchRequest(
        content="Queued before the restart",
        destinations=[
            Destination(social_account_id=sandbox.store.account_id("x"), content_type="x_post")
        ],
    )
    try:
        entry = runner.run(Outbox(store).enqueue(queued))
    finally:
        store.close()

    async def scenario() -> None:
        app = Application(qapp, options())
        task = await started(app)
        await until(lambda: sandbox.store.post_count() == 1, what="the queued post sent")
        await until(lambda: app.session is not None and app.session.cache.count_posts() == 1)
        assert app.window.built_page("compose") is None  # never shown, never built
        assert _outbox_loops()  # the workspace's own
        assert await stopped(app, task) == 0
        assert _outbox_loops() == []  # ended with its workspace

    runner.run(scenario())
    store = LocalStore.open(local_store_path(Paths(), profile.id))
    try:
        sent = Outbox(store).get(entry.id)
    finally:
        store.close()
    assert sent is not None
    assert sent.state is OutboxState.SENT
    assert sandbox.store.post_count() == 1


def test_a_file_imported_with_the_command_is_not_sent_again_from_the_window(
    qapp: QApplication,
    runner: LoopRunner,
    sandbox: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Measured before: the command and the window kept separate records, and importing one
    file with each made its posts twice."""
    monkeypatch.setenv("POSTDESK_API_KEY", sandbox.keys.admin)
    plan = tmp_path / "week.csv"
    plan.write_text(
        "content,accounts,scheduled_at,status\n"
        "Monday roast,x:northwindcoffee,,draft\n"
        "Tuesday roast,x:northwindcoffee;linkedin:ava-lindqvist,,draft\n"
        "Wednesday roast,linkedin:ava-lindqvist,,draft\n",
        encoding="utf-8",
    )

    async def scenario() -> None:
        command = ["import", str(plan), "--base-url", sandbox.base_url]
        assert await asyncio.to_thread(cli.main, command) == 0
        assert sandbox.store.post_count() == 4
        app = Application(qapp, options(sandbox.base_url))
        task = await started(app)
        composer = app.pages.composer()  # File ▸ Import CSV… opens Compose with the file chosen
        assert isinstance(composer, ComposerPage)
        dialog = app.csv_actions().import_csv(plan)  # the window's File ▸ Import CSV…
        assert dialog is not None
        await until(lambda: dialog.result_report is not None, what="the summary", limit=40)
        report = dialog.result_report
        assert report is not None
        assert report.all_sent, report.summary_lines()
        assert all(outcome.already_imported for outcome in report.outcomes)
        assert "(3 imported before)" in report.summary_lines()[-1]
        assert await stopped(app, task) == 0

    runner.run(scenario())
    assert sandbox.store.post_count() == 4
    workspace = Profile.for_base_url(sandbox.base_url)
    store = LocalStore.open(local_store_path(Paths(), workspace.id))
    try:
        assert [entry.state for entry in Outbox(store).entries()] == [OutboxState.SENT] * 3
    finally:
        store.close()
