"""The composer inside the real app: Ctrl+N opens it ready to type, and closing the window right
after typing still saves what was typed."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore, local_store_path
from app.workspaces.profiles import Paths, ProfileStore
from tests.keyrings import MemoryKeyring
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options
from ui.application import Application
from ui.composer.page import ComposerPage


def test_ctrl_n_then_typing_then_closing_keeps_the_draft(
    qapp: QApplication, runner: LoopRunner, sandbox: SandboxServer, memory_keyring: MemoryKeyring
) -> None:
    profile = ProfileStore().upsert_by_address("Acme", sandbox.base_url, "UTC")
    memory_keyring.set_password("postdesk", profile.id, sandbox.keys.admin)
    ProfileStore().active_id = profile.id

    async def scenario() -> None:
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        await until(lambda: app.session is not None and app.session.first_sync_ok is not None)
        app.window.activateWindow()
        QTest.keyClick(app.window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: app.window.current_section() == "compose", what="Compose shown")
        page = app.window.page("compose")
        assert isinstance(page, ComposerPage)
        await until(page.shared.text.hasFocus, what="the cursor in the text")
        QTest.keyClicks(page.shared.text, "Typed just before quitting")
        app.window.close()  # at once: before the autosave's pause has passed
        assert await task == 0

    runner.run(scenario())
    store = LocalStore.open(local_store_path(Paths(), profile.id))
    try:
        texts = [draft.document for draft in store.list_drafts()]
    finally:
        store.close()
    assert any("Typed just before quitting" in text for text in texts), texts
