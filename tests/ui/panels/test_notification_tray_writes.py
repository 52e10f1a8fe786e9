"""The notifier follows the user's own writes too: a failed post moved back to drafts no longer
needs attention, without waiting for a sync (writes no longer emit `dataChanged`)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QSystemTrayIcon

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession
from ui.notifications.notifier import Notifier


def test_a_failed_post_moved_to_drafts_leaves_the_badge(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, make_session: MakeSession
) -> None:
    session = make_session(demo_sandbox.base_url, demo_sandbox.keys.admin)
    notifier = Notifier(tray=QSystemTrayIcon())
    store = demo_sandbox.store

    async def scenario() -> None:
        assert await session.sync.full_refresh()
        notifier.attach(session)  # baseline: the demo's old failures are not news
        await until(lambda: notifier.watcher._seen["webhook"] is not None, what="baseline")
        scheduled = next(
            p
            for p in (store.post(i) for i in sorted(session.cache.post_ids()))
            if p and p["status"] == "scheduled"
        )
        store.set_post_status(scheduled["id"], "failed")
        assert await session.sync.full_refresh()
        await until(lambda: notifier.attention() == 1, what="the failed post counted")
        refreshes = len(session.sync.state.unreadable), session.cache.last_sync_at()
        session.move_to_draft(scheduled["id"])
        await until(lambda: notifier.attention() == 0, what="the badge after the write")
        assert "attention" not in notifier.tray.toolTip()
        # It was the write's answer, not a sync, that told the notifier.
        assert (len(session.sync.state.unreadable), session.cache.last_sync_at()) == refreshes
        # Its looks also read the webhooks: let them finish rather than cancel a connection.
        await until(lambda: len(notifier._tasks) == 0, what="the notifier's looks")
        await notifier.close()

    runner.run(scenario())
