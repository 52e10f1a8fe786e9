"""Removing a workspace asks before deleting the user's unsent drafts, and never deletes a drafts
file it cannot read."""

from __future__ import annotations

import asyncio
import sqlite3

from PySide6.QtWidgets import QApplication, QMessageBox

from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore, local_store_path
from app.workspaces.profiles import Paths, ProfileStore
from tests.keyrings import MemoryKeyring
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options
from tests.ui.waits import answer
from ui.application import Application


def saved_workspace(sandbox: SandboxServer, keyring: MemoryKeyring) -> str:
    profile = ProfileStore().upsert_by_address("Acme", sandbox.base_url, "UTC")
    keyring.set_password("postdesk", profile.id, sandbox.keys.admin)
    ProfileStore().active_id = profile.id
    return profile.id


async def remove_box(app: Application) -> QMessageBox:
    app.flows.confirm_remove()
    box = app.flows.remove_box
    assert box is not None
    await until(box.isVisible, what="the removal question")
    return box


def test_removing_asks_about_unsent_drafts_then_deletes_them(
    qapp: QApplication, runner: LoopRunner, sandbox: SandboxServer, memory_keyring: MemoryKeyring
) -> None:
    profile_id = saved_workspace(sandbox, memory_keyring)
    local = local_store_path(Paths(), profile_id)

    async def scenario() -> None:
        store = LocalStore.open(local)
        await store.create_draft("{}", title="Spring menu", text="New spring menu")
        store.close()
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        await until(lambda: app.session is not None and app.session.first_sync_ok is not None)
        box = await remove_box(app)
        assert "1 unsent draft" in box.informativeText()
        cancel = QMessageBox.StandardButton.Cancel
        assert await answer(box, cancel) == cancel
        assert not box.isVisible()
        assert len(app.tasks) == 0, "Cancel started no work"
        assert local.exists(), "Cancel keeps everything"
        assert ProfileStore().load()

        box = await remove_box(app)
        box.button(QMessageBox.StandardButton.Ok).click()
        await until(lambda: not ProfileStore().load(), what="the workspace removed")
        await until(lambda: not local.exists(), what="the drafts file deleted")
        app.window.close()
        await task

    runner.run(scenario())


def test_a_drafts_file_that_cannot_be_read_is_kept(
    qapp: QApplication, runner: LoopRunner, sandbox: SandboxServer, memory_keyring: MemoryKeyring
) -> None:
    profile_id = saved_workspace(sandbox, memory_keyring)
    local = local_store_path(Paths(), profile_id)
    local.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(local) as db:  # written by a newer Postdesk
        db.execute("PRAGMA user_version = 999")
        db.execute("CREATE TABLE future (x)")
    before = local.read_bytes()

    async def scenario() -> None:
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        await until(lambda: app.session is not None and app.session.first_sync_ok is not None)
        box = await remove_box(app)
        assert "kept" in box.informativeText()
        assert str(local) in box.informativeText()
        box.button(QMessageBox.StandardButton.Ok).click()
        await until(lambda: not ProfileStore().load(), what="the workspace removed")
        # The removal has run to its end: it offers the first-run choice as its last step.
        await until(
            lambda: app.welcome_dialog is not None and app.welcome_dialog.isVisible(),
            what="the first-run choice after the removal",
        )
        await until(lambda: len(app.tasks) == 0, what="the removal to finish")
        assert local.read_bytes() == before
        app.window.close()
        await task

    runner.run(scenario())
