"""Notifications in the running app on a desktop without a tray (stock GNOME; offscreen has none
either): a real session bus with a notification server on it gets one `Notify` per alert, and
clicking it opens the post; with no notification server and no tray, the window's "Needs
attention" list still shows the alert, with its badge count, and opens or dismisses it."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from app.content.text_render import summary_line
from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import api_key, options, started, stopped  # noqa: F401
from tests.ui.fake_notifications import FakeNotificationServer, session_bus  # noqa: F401
from ui.application import Application
from ui.notifications.attention import AttentionList
from ui.notifications.notifier import Notifier
from ui.panels.webhooks import WebhooksPage


def scheduled_post(server: SandboxServer, app: Application) -> dict[str, object]:
    assert app.cache is not None
    return next(
        p
        for p in (server.store.post(i) for i in sorted(app.cache.post_ids()))
        if p and p["status"] == "scheduled"
    )


async def looked(notifier: Notifier) -> None:
    """The notifier's baseline is taken and every look it started has ended."""
    await until(lambda: notifier.watcher._seen["webhook"] is not None, what="the baseline")
    await until(lambda: len(notifier._tasks) == 0, what="the notifier's looks")


async def synced_again(app: Application) -> None:
    assert app.session is not None
    assert app.session.state is not None
    before = app.session.state.last_sync_at
    app.refresh()
    await until(
        lambda: (
            app.session is not None
            and app.session.state is not None
            and app.session.state.phase == "idle"
            and app.session.state.last_sync_at != before
        ),
        what="another sync",
    )


def test_a_failed_post_notifies_the_desktop_once_and_its_click_opens_the_post(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
    session_bus: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", session_bus)

    async def scenario() -> None:
        server = await FakeNotificationServer.start(session_bus)
        try:
            app = Application(qapp, options(demo_sandbox.base_url))  # the app's own notifier
            task = await started(app)
            notifier = app.notifier
            assert notifier is not None
            assert notifier.tray is None, "offscreen: no tray"
            await looked(notifier)
            assert notifier.channel == "desktop"
            assert server.notifications == [], "old failures are history, not news"
            post = scheduled_post(demo_sandbox, app)
            demo_sandbox.store.set_post_status(str(post["id"]), "failed")
            app.window.show_section("accounts")  # notifying needs no page
            app.refresh()
            await until(lambda: server.notifications, what="a desktop notification")
            [shown] = server.notifications
            assert shown.app_name == "Postdesk"
            assert shown.summary == "Post failed"
            first_line = summary_line(str(post["content"]))
            assert first_line
            assert first_line[:80] in shown.body
            assert shown.actions[0] == "default"
            assert shown.app_icon.startswith("file://")
            assert shown.app_icon.endswith(".svg")
            assert server.refused == []
            await synced_again(app)
            await looked(notifier)
            assert len(server.notifications) == 1, "one alert, one notification"
            assert app.window.current_section() == "accounts"

            await server.click(shown.id)
            await until(lambda: app.window.current_section() == "calendar", what="the calendar")
            assert app.calendar.selected_post_id() == post["id"]
            assert app.calendar.detail_is_open()
            assert notifier.attention() == 0, "opened: nothing left to attend to"
            attention = app.notifications.attention
            assert attention is not None
            assert attention.button.count == 0
            assert await stopped(app, task) == 0
        finally:
            await server.stop()

    runner.run(scenario())


def test_without_notification_server_or_tray_the_window_list_shows_and_opens_alerts(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
    session_bus: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", session_bus)  # a bus, but no server on it
    store = demo_sandbox.store

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        notifier = app.notifier
        assert notifier is not None
        await looked(notifier)
        assert notifier.channel == "window"
        attention = app.notifications.attention
        assert isinstance(attention, AttentionList)
        button, panel = attention.button, attention.panel
        assert button.isVisible()
        assert button.count == 0
        assert button.badge_text() == ""
        assert button.accessibleName() == "Needs attention: nothing open"

        post = scheduled_post(demo_sandbox, app)
        store.set_post_status(str(post["id"]), "failed")
        with store.tx() as db:
            webhook = db.one(
                "SELECT id FROM webhooks WHERE workspace_id = ? AND status = 'enabled'",
                (demo_sandbox.workspace_id,),
            )
        store.set_webhook_paused(webhook["id"])
        app.refresh()
        await until(lambda: button.count == 2, what="the badge counting both alerts")
        assert button.badge_text() == "2"
        assert button.accessibleName() == "Needs attention: 2 open"
        assert notifier.channels == ["window", "window"]

        button.click()
        assert panel.isVisible()
        assert "only here" in panel.channel.text()
        assert {(a.kind, a.id) for a in panel.alerts()} == {
            ("post", post["id"]),
            ("webhook", webhook["id"]),
        }
        for control in (panel.list, panel.open_button, panel.dismiss_button):
            assert control.accessibleName()
        webhook_row = next(i for i, a in enumerate(panel.alerts()) if a.kind == "webhook")
        panel.list.setCurrentRow(webhook_row)
        panel.open_button.click()
        assert not panel.isVisible()
        assert app.window.current_section() == "webhooks"
        page = app.window.built_page("webhooks")
        assert isinstance(page, WebhooksPage)
        await until(
            lambda: page.selected is not None and page.selected.id == webhook["id"],
            what="the paused webhook selected",
        )
        assert button.count == 1

        button.click()
        [left] = panel.alerts()
        assert (left.kind, left.id) == ("post", post["id"])
        assert str(post["id"]) not in left.subject  # its first line, not its id
        panel.list.setCurrentRow(0)
        panel.open_button.click()
        assert app.window.current_section() == "calendar"
        assert app.calendar.selected_post_id() == post["id"]
        assert app.calendar.detail_is_open()
        assert button.count == 0
        assert button.badge_text() == ""

        # A new failure, dismissed from the list without opening it.
        other = scheduled_post(demo_sandbox, app)
        store.set_post_status(str(other["id"]), "failed")
        app.refresh()
        await until(lambda: button.count == 1, what="the next alert")
        button.click()
        panel.list.setCurrentRow(0)
        panel.dismiss_button.click()
        assert button.count == 0
        assert panel.alerts() == []
        assert panel.empty.isVisibleTo(panel)
        panel.hide()
        assert app.window.current_section() == "calendar"
        assert await stopped(app, task) == 0

    runner.run(scenario())
