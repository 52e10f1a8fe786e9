"""The demo workspace keeps the user's changes until Workspace ▸ Reset demo data; Help ▸ About
says what this is; the connect dialog speaks the user's words."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from app.workspaces.profiles import Paths
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options, started
from tests.ui.app.test_app_workspaces import connect_dialog_of, error_shown, fill
from tests.ui.waits import answer
from ui.application import Application


def test_reset_demo_data_asks_first_and_starts_the_demo_afresh(
    qapp: QApplication, runner: LoopRunner
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo=True, demo_posts=20))
        task = await started(app)
        assert app.cache is not None
        assert app.cache.count_posts() == 20
        victim = next(iter(app.cache.post_ids()))
        app.calendar.deleteRequested.emit(victim)
        await until(lambda: app.cache is not None and app.cache.count_posts() == 19)
        first_session = app.session

        app.registry.run("workspace.reset_demo")
        box = app.flows.reset_box
        assert box is not None
        await until(box.isVisible)
        cancel = QMessageBox.StandardButton.Cancel
        assert await answer(box, cancel) == cancel
        assert not box.isVisible()
        assert len(app.tasks) == 0, "Cancel started no work"
        assert app.session is first_session, "Cancel keeps everything"

        app.registry.run("workspace.reset_demo")
        box = app.flows.reset_box
        assert box is not None
        await until(box.isVisible)
        box.button(QMessageBox.StandardButton.Reset).click()
        await until(
            lambda: (
                app.session is not None
                and app.session is not first_session
                and app.session.first_sync_ok is not None
            ),
            limit=60,
        )
        assert app.cache is not None
        assert app.cache.count_posts() == 20
        app.window.close()
        assert await asyncio.wait_for(task, 20) == 0

    runner.run(scenario())


def test_about_names_the_version_the_api_address_and_the_data_folder(
    qapp: QApplication, runner: LoopRunner
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo=True, demo_posts=10))
        task = await started(app)
        app.registry.run("help.about")
        dialog = app.help_dialog
        assert dialog is not None
        await until(dialog.isVisible)
        text = " ".join(label.text() for label in dialog.findChildren(QLabel))
        assert app.profile is not None
        assert app.profile.base_url in text
        assert str(Paths().data_dir) in text
        assert "Postdesk" in text
        dialog.reject()
        app.window.close()
        assert await asyncio.wait_for(task, 20) == 0

    runner.run(scenario())


def test_the_connect_dialog_never_says_profile(qapp: QApplication, runner: LoopRunner) -> None:
    async def scenario() -> None:
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        dialog = await connect_dialog_of(app)
        fill(dialog, name="Acme", url="not an address at all", key="k")
        shown = [await error_shown(dialog)]
        fill(dialog, name="Acme", url="http://127.0.0.1:9/api", key="k")  # nobody listens
        await until(lambda: "connect" in dialog.error_label.text().lower())
        shown.append(dialog.error_label.text())
        texts = [label.text() for label in dialog.findChildren(QLabel)] + shown
        texts.append(dialog.windowTitle())
        assert all("profile" not in text.lower() for text in texts), texts
        dialog.reject()
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_a_damaged_workspace_list_is_reported_in_the_window_and_nothing_crashes(
    qapp: QApplication, runner: LoopRunner
) -> None:
    from app.workspaces.profiles import ProfileStore

    path = ProfileStore().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{ this is not json", encoding="utf-8")

    async def scenario() -> None:
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        await until(lambda: app.welcome_dialog is not None and app.welcome_dialog.isVisible())
        assert "damaged" in app.window.banner.text()
        assert app.window.banner.current is not None
        assert app.window.banner.current.level.value == "error"
        app.welcome_dialog.reject()  # type: ignore[union-attr]
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())
