"""Notifications in the running app: the notifier follows the workspace's session, and clicking a
notification opens the paused webhook on the Webhooks page, or the failed post in the calendar.
Offscreen there is no system tray, so the app makes no tray; these tests hand it a notifier
with one (tests/ui/app/test_app_desktop_notifications.py covers the session bus)."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QSystemTrayIcon

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import api_key, options, started, stopped  # noqa: F401
from ui.application import Application
from ui.notifications.notifier import Notifier
from ui.panels.webhooks import WebhooksPage
from ui.shell.notify import default_notifier


def with_tray(parent: QObject) -> Notifier:
    return Notifier(parent, tray=QSystemTrayIcon(parent))


def test_no_tray_is_made_offscreen(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    made = default_notifier(QObject())
    assert made is not None
    assert made.tray is None

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        assert app.notifier is not None
        assert app.notifier.tray is None
        # Neither a tray nor (in tests) a session bus: the window's list is there all the same.
        assert app.notifications.attention is not None
        assert app.notifications.attention.button.isVisible()
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_a_paused_webhook_notification_opens_that_webhook(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    store = demo_sandbox.store

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url), notifier=with_tray)
        task = await started(app)
        notifier = app.notifier
        assert notifier is not None
        assert notifier.session is app.session
        await until(lambda: notifier.watcher._seen["webhook"] is not None, what="baseline")
        # Every look started by the first sync (the baseline and the one after it) has ended.
        await until(lambda: len(notifier._tasks) == 0, what="the notifier's looks")
        # The demo has failed posts from before: the baseline is taken after the first sync of
        # this never-synced workspace, so they are history, not news.
        assert notifier.shown == []
        with store.tx() as db:
            rows = db.all(
                "SELECT id FROM webhooks WHERE workspace_id = ? AND status = 'enabled' "
                "ORDER BY id DESC",
                (demo_sandbox.workspace_id,),
            )
        paused = rows[0]["id"]
        store.set_webhook_paused(paused)
        app.refresh()
        await until(lambda: any(a.id == paused for a in notifier.shown), what="notification")
        assert app.window.current_section() == "calendar"
        notifier.tray.messageClicked.emit()
        assert app.window.current_section() == "webhooks"
        page = app.window.built_page("webhooks")
        assert isinstance(page, WebhooksPage)
        await until(
            lambda: page.selected is not None and page.selected.id == paused,
            what="the paused webhook selected",
        )
        assert await stopped(app, task) == 0
        assert notifier.session is None, "the notifier left the closed workspace"

    runner.run(scenario())


def test_a_failed_post_notification_opens_the_post_in_the_calendar(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    store = demo_sandbox.store

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url), notifier=with_tray)
        task = await started(app)
        notifier = app.notifier
        assert notifier is not None
        await until(lambda: notifier.watcher._seen["post"] is not None, what="baseline")
        assert app.cache is not None
        scheduled = next(
            p
            for p in (store.post(i) for i in app.cache.post_ids())
            if p and p["status"] == "scheduled"
        )
        store.set_post_status(scheduled["id"], "failed")
        app.window.show_section("accounts")
        app.refresh()
        await until(
            lambda: any(a.id == scheduled["id"] for a in notifier.shown), what="notification"
        )
        notifier.openRequested.emit("post", scheduled["id"])
        assert app.window.current_section() == "calendar"
        assert app.calendar.selected_post_id() == scheduled["id"]
        assert app.calendar.detail_is_open()
        assert await stopped(app, task) == 0

    runner.run(scenario())
