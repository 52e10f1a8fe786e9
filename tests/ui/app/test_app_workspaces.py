"""Workspaces: first run, connecting with a key test, the keyring (or its absence), restarts."""

from __future__ import annotations

import asyncio
from datetime import date

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtWidgets import QApplication, QMessageBox

from app.sandbox.harness import SandboxServer
from app.workspaces.profiles import Profile, ProfileStore
from tests.keyrings import MemoryKeyring
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options
from ui.application import Application
from ui.dialogs.connect_workspace import ConnectWorkspaceDialog


def fill(dialog: ConnectWorkspaceDialog, *, name: str, url: str, key: str) -> None:
    dialog.name_edit.setText(name)
    dialog.url_edit.setText(url)
    dialog.key_edit.setText(key)
    dialog.connect_button.click()


async def connect_dialog_of(app: Application) -> ConnectWorkspaceDialog:
    await until(lambda: app.welcome_dialog is not None and app.welcome_dialog.isVisible())
    assert app.welcome_dialog is not None
    app.welcome_dialog.connect_button.click()
    await until(lambda: app.connect_dialog is not None and app.connect_dialog.isVisible())
    assert app.connect_dialog is not None
    return app.connect_dialog


async def error_shown(dialog: ConnectWorkspaceDialog) -> str:
    await until(lambda: not dialog.error_label.isHidden() and dialog.connect_button.isEnabled())
    return dialog.error_label.text()


def test_first_run_connects_a_workspace_after_testing_the_key(
    qapp: QApplication,
    runner: LoopRunner,
    sandbox: SandboxServer,
    memory_keyring: MemoryKeyring,
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        dialog = await connect_dialog_of(app)

        fill(dialog, name="", url=sandbox.base_url, key=sandbox.keys.admin)
        assert "name" in await error_shown(dialog)

        fill(dialog, name="Acme", url=sandbox.base_url, key=sandbox.keys.member)
        text = await error_shown(dialog)
        assert "Insufficient workspace permissions." in text
        assert "admin" in text.lower()
        assert sandbox.keys.member not in text

        fill(dialog, name="Acme", url=sandbox.base_url, key=sandbox.keys.expired)
        assert "Token expired." in await error_shown(dialog)
        assert ProfileStore().load() == [], "nothing is saved before the key works"

        fill(dialog, name="Acme", url=sandbox.base_url, key=sandbox.keys.admin)
        await until(lambda: app.session is not None and app.session.first_sync_ok is not None)
        assert app.session is not None
        assert app.session.first_sync_ok is True
        [profile] = ProfileStore().load()
        assert profile.name == "Acme"
        assert profile.base_url == sandbox.base_url
        assert ProfileStore().active_id == profile.id
        assert memory_keyring.passwords == {("postdesk", profile.id): sandbox.keys.admin}
        assert "Acme" in app.window.windowTitle()
        app.window.close()
        assert await task == 0

        # The next start opens the saved workspace with the key from the keyring.
        again = Application(qapp, options())
        task = asyncio.ensure_future(again.run())
        await until(lambda: again.session is not None and again.session.first_sync_ok)
        assert again.welcome_dialog is None
        assert again.profile is not None
        assert again.profile.id == profile.id
        again.window.close()
        assert await task == 0

    runner.run(scenario())


def test_without_a_keyring_the_key_can_be_kept_for_this_session_only(
    qapp: QApplication, runner: LoopRunner, sandbox: SandboxServer
) -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())

    async def scenario() -> None:
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        dialog = await connect_dialog_of(app)
        fill(dialog, name="Acme", url=sandbox.base_url, key=sandbox.keys.admin)
        await until(lambda: app.keyring_box is not None and app.keyring_box.isVisible())
        assert app.keyring_box is not None
        assert "keyring" in app.keyring_box.text().lower()
        app.keyring_box.button(QMessageBox.StandardButton.Yes).click()
        await until(lambda: app.session is not None and app.session.first_sync_ok is not None)
        assert app.session is not None
        assert app.session.first_sync_ok is True
        app.window.close()
        assert await task == 0

    try:
        runner.run(scenario())
    finally:
        keyring.set_keyring(previous)
    [profile] = ProfileStore().load()
    assert profile.name == "Acme"
    for path in ProfileStore().path.parent.rglob("*"):
        if path.is_file():
            assert sandbox.keys.admin.encode() not in path.read_bytes(), path


def test_base_url_without_a_key_in_the_environment_is_refused(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui.application import StartupError

    monkeypatch.delenv("POSTDESK_API_KEY", raising=False)
    app = Application(qapp, options("http://127.0.0.1:9/api"))
    with pytest.raises(StartupError, match="POSTDESK_API_KEY"):
        runner.run(app.run())


def test_switching_workspaces_keeps_the_shown_period_and_reads_the_new_cache(
    qapp: QApplication,
    runner: LoopRunner,
    sandbox: SandboxServer,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", sandbox.keys.admin)
    wanted = date(2026, 2, 14)

    async def scenario() -> None:
        app = Application(qapp, options(sandbox.base_url, date=wanted))
        task = asyncio.ensure_future(app.run())
        await until(lambda: app.session is not None and app.session.first_sync_ok is not None)
        assert app.calendar.anchor() == wanted
        first = app.cache
        app.calendar.go_next()  # the user moves on; a switch keeps their place

        saved = Profile.create("Acme", sandbox.base_url, "UTC")
        memory_keyring.set_password("postdesk", saved.id, sandbox.keys.admin)
        await app.open_workspace(saved, None)

        assert app.cache is not None
        assert app.cache is not first
        assert app.calendar.anchor() == date(2026, 3, 1)
        await until(lambda: app.session is not None and app.session.first_sync_ok is not None)
        assert app.session is not None
        assert app.session.first_sync_ok is True
        assert "Acme" in app.window.windowTitle()
        app.window.close()
        assert await task == 0

    runner.run(scenario())
