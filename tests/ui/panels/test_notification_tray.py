"""The notifier on a real sandbox: a sync that finds a failed post and a paused webhook shows
two notifications, the badge counts them, and clicking one asks to open it."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QSystemTrayIcon

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession
from ui.notifications.notifier import Notifier


def test_sync_changes_notify_badge_and_open(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, make_session: MakeSession
) -> None:
    session = make_session(demo_sandbox.base_url, demo_sandbox.keys.admin)
    notifier = Notifier(tray=QSystemTrayIcon())
    opened: list[tuple[str, str]] = []
    notifier.openRequested.connect(lambda kind, item: opened.append((kind, item)))
    store = demo_sandbox.store

    async def scenario() -> None:
        assert await session.sync.full_refresh()
        notifier.attach(session)  # baseline: the demo's old failures are not news
        await until(lambda: notifier.watcher._seen["webhook"] is not None, what="baseline")
        assert notifier.shown == []
        scheduled = next(
            p
            for p in (store.post(i) for i in session.cache.post_ids())
            if p and p["status"] == "scheduled"
        )
        store.set_post_status(scheduled["id"], "failed")
        with store.tx() as db:
            enabled = db.one(
                "SELECT id FROM webhooks WHERE workspace_id = ? AND status = 'enabled'",
                (demo_sandbox.workspace_id,),
            )
        store.set_webhook_paused(enabled["id"])
        assert await session.sync.full_refresh()  # emits dataChanged
        await until(lambda: len(notifier.shown) == 2, what="two notifications")
        kinds = {(a.kind, a.id) for a in notifier.shown}
        assert kinds == {("post", scheduled["id"]), ("webhook", enabled["id"])}
        assert notifier.attention() == 2
        assert "2 need attention" in notifier.tray.toolTip()
        notifier.tray.messageClicked.emit()
        assert opened == [(notifier.shown[-1].kind, notifier.shown[-1].id)]
        assert notifier.attention() == 1
        await notifier.close()

    runner.run(scenario())
