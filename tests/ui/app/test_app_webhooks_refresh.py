"""F5 in the running app with the Webhooks page open and the tray's notifier following the
workspace: the list is read once (the notifier uses the session's polled list), and the log on
screen is read with it (issue 14 §2, §4). Counted by a relay in front of the sandbox."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options, started, stopped
from tests.ui.app.test_app_notifications import with_tray
from tests.ui.panels.test_webhooks_current import Relay
from ui.application import Application
from ui.panels.webhooks import WebhooksPage


def test_f5_reads_the_webhooks_once_and_the_log_on_screen_with_them(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", demo_sandbox.keys.admin)
    relay = Relay(
        urlsplit(demo_sandbox.base_url).port or 0,
        {"list": "GET /api/webhooks HTTP", "logs": "GET /api/webhooks/"},
    )

    async def scenario() -> None:
        await relay.up()
        app = Application(qapp, options(relay.base_url), notifier=with_tray)
        task = await started(app)
        session = app.session
        notifier = app.notifier
        assert session is not None
        assert notifier is not None
        app.window.show_section("webhooks")
        page = app.window.built_page("webhooks")
        assert isinstance(page, WebhooksPage)
        await until(lambda: page.selected is not None and page.chart.timeline is not None)

        def quiet() -> bool:
            state = session.state
            return (
                state is not None
                and state.phase == "idle"
                and not session.webhooks.busy
                and not len(page.tasks)
                and not len(notifier._tasks)
            )

        await until(lambda: notifier.watcher._seen["webhook"] is not None, what="baseline")
        await until(quiet, what="the first sync and the page's reads")
        lists, logs = relay.counts["list"], relay.counts["logs"]
        synced = session.state.last_sync_at if session.state is not None else None
        app.refresh()  # F5
        await until(lambda: relay.counts["logs"] > logs, what="the log on screen read")
        await until(
            lambda: session.state is not None and session.state.last_sync_at != synced,
            what="the sync F5 asked for",
        )
        await until(quiet, what="the refresh to end")
        assert relay.counts["list"] - lists == 1
        assert relay.counts["logs"] - logs == 1
        assert await stopped(app, task) == 0
        await relay.down()

    runner.run(scenario())
