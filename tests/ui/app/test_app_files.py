"""Files that cannot be used as they are: a workspace list from a newer Postdesk is used but never
changed, and a local cache that fails a read is reported in words instead of escaping."""

from __future__ import annotations

import asyncio
import json

import keyring
from keyring.backends import fail
from PySide6.QtWidgets import QApplication, QMessageBox

from app.sandbox.harness import SandboxServer
from app.store import CacheError
from app.workspaces.profiles import Profile, ProfileStore
from tests.keyrings import MemoryKeyring
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import api_key, options, started, stopped  # noqa: F401
from tests.ui.app.test_app_workspaces import connect_dialog_of, fill
from ui.application import Application


def test_a_newer_workspace_list_is_used_and_a_new_workspace_opens_without_changing_it(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    memory_keyring: MemoryKeyring,
) -> None:
    old = Profile.create("Old", demo_sandbox.base_url, "UTC")
    path = ProfileStore().path
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"version": 2, "active_profile": old.id, "profiles": [old.to_json()]}
    path.write_text(json.dumps(document), encoding="utf-8")
    before = path.read_bytes()
    memory_keyring.set_password("postdesk", old.id, demo_sandbox.keys.admin)

    async def scenario() -> None:
        app = Application(qapp, options())
        task = await started(app)
        assert app.profile is not None
        assert app.profile.id == old.id
        assert "newer Postdesk" in app.window.banner.text()

        app.connect_workspace()
        await until(lambda: app.connect_dialog is not None and app.connect_dialog.isVisible())
        assert app.connect_dialog is not None
        fill(
            app.connect_dialog, name="Other", url=demo_sandbox.base_url, key=demo_sandbox.keys.admin
        )
        await until(lambda: app.profile is not None and app.profile.name == "Other")
        await until(lambda: app.session is not None and app.session.first_sync_ok is True)
        assert "for this run only" in app.window.banner.text()
        assert path.read_bytes() == before, "the newer file is not changed"
        assert set(memory_keyring.passwords) == {("postdesk", old.id)}, "no key left behind"
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_a_cache_read_that_fails_is_reported_and_nothing_escapes(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        cache = app.cache
        assert cache is not None
        loop = asyncio.get_running_loop()
        escaped: list[object] = []
        loop.set_exception_handler(lambda _loop, context: escaped.append(context))

        def damaged(*_args: object, **_kwargs: object) -> object:
            raise CacheError("The local cache is damaged. Restart Postdesk to rebuild it.")

        cache.cards_between = damaged  # type: ignore[method-assign]
        app.manager.dataChanged.emit(None)
        await until(lambda: "damaged" in app.window.banner.text(), what="the message")
        assert "Restart Postdesk" in app.window.banner.text()
        assert "Something went wrong" not in app.window.banner.text()

        app.window.banner.dismiss()
        app.registry.action("calendar.next").trigger()  # the calendar reads the next month
        assert "damaged" in app.window.banner.text(), "a read in a page's slot is reported too"
        assert escaped == []
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_connecting_the_same_name_and_address_again_keeps_one_workspace(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    memory_keyring: MemoryKeyring,
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        dialog = await connect_dialog_of(app)
        fill(dialog, name="Acme", url=demo_sandbox.base_url, key=demo_sandbox.keys.expired)
        await until(lambda: not dialog.error_label.isHidden() and dialog.connect_button.isEnabled())
        fill(dialog, name="Acme", url=demo_sandbox.base_url, key=demo_sandbox.keys.admin)
        await until(lambda: app.session is not None and app.session.first_sync_ok is True)
        [first] = ProfileStore().load()

        app.connect_workspace()  # the same workspace again, its name typed differently
        await until(lambda: app.connect_dialog is not dialog and app.connect_dialog is not None)
        assert app.connect_dialog is not None
        fill(
            app.connect_dialog, name="ACME ", url=demo_sandbox.base_url, key=demo_sandbox.keys.admin
        )
        await until(lambda: app.session is not None and app.session.first_sync_ok is True)
        await until(lambda: app.connect_dialog is not None and not app.connect_dialog.isVisible())
        assert [p.id for p in ProfileStore().load()] == [first.id]
        assert memory_keyring.passwords == {("postdesk", first.id): demo_sandbox.keys.admin}
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_declining_a_session_only_key_leaves_no_workspace_behind(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer
) -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())

    async def scenario() -> None:
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        dialog = await connect_dialog_of(app)
        fill(dialog, name="Acme", url=demo_sandbox.base_url, key=demo_sandbox.keys.admin)
        await until(lambda: app.keyring_box is not None and app.keyring_box.isVisible())
        assert app.keyring_box is not None
        app.keyring_box.button(QMessageBox.StandardButton.Cancel).click()
        await until(lambda: ProfileStore().load() == [], what="the new workspace dropped")
        assert app.session is None
        app.window.close()
        assert await task == 0

    try:
        runner.run(scenario())
    finally:
        keyring.set_keyring(previous)
