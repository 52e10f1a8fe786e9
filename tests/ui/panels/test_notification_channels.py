"""Which channel carries an alert: the session bus's notification server when there is one, the
tray when there is a tray but no server (or the server went away), else only the window's list;
and what the desktop is told (the spec's signature, escaped markup, withdrawn when dismissed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QSystemTrayIcon

from tests.ui.app.conftest import LoopRunner, until
from tests.ui.fake_notifications import FakeNotificationServer, session_bus  # noqa: F401
from ui.notifications.attention import AttentionPanel
from ui.notifications.changes import Alert, Item
from ui.notifications.desktop import session_bus_address
from ui.notifications.notifier import Notifier
from ui.shell.notify import default_notifier


def new_alert(notifier: Notifier, post_id: str = "p1", text: str = "Launch day") -> Alert:
    """An alert as a sync would raise it: the watcher has its baseline, then the post fails."""
    if notifier.watcher._seen["post"] is None:
        notifier.watcher.observe("post", [])
    current = [Item(a.id, a.status, a.subject) for a in notifier.open_alerts()]
    [alert] = notifier.watcher.observe("post", [*current, Item(post_id, "failed", text)])
    notifier._changed()  # what the notifier's look does next: the badge and the list
    return alert


def test_the_session_bus_address_comes_from_the_environment(tmp_path: Path) -> None:
    address = "unix:path=/run/user/1000/bus"
    assert session_bus_address({"DBUS_SESSION_BUS_ADDRESS": address}) == address
    assert session_bus_address({"XDG_RUNTIME_DIR": str(tmp_path)}) is None  # no socket there
    assert session_bus_address({}) is None


def test_no_bus_and_no_tray_leaves_the_window_list(qapp: QApplication, runner: LoopRunner) -> None:
    notifier = Notifier()

    async def scenario() -> None:
        assert await notifier.choose_channel() == "window"
        alert = new_alert(notifier)
        await notifier.announce(alert)
        assert notifier.channels == ["window"]
        assert notifier.open_alerts() == [alert]
        await notifier.close()

    runner.run(scenario())


def test_the_app_finds_the_notification_server_on_the_session_bus(
    qapp: QApplication,
    runner: LoopRunner,
    session_bus: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", session_bus)

    async def scenario() -> None:
        without = default_notifier(QObject())
        assert without is not None
        assert without.tray is None, "offscreen: no tray"
        assert await without.choose_channel() == "window", "a bus, but no server on it"
        await without.close()
        server = await FakeNotificationServer.start(session_bus)
        try:
            notifier = default_notifier(QObject())
            assert notifier is not None
            assert await notifier.choose_channel() == "desktop"
            await notifier.close()
        finally:
            await server.stop()

    runner.run(scenario())


def test_a_bus_without_server_falls_back_to_the_tray(
    qapp: QApplication,
    runner: LoopRunner,
    session_bus: str,  # noqa: F811
) -> None:
    notifier = Notifier(tray=QSystemTrayIcon(), bus_address=session_bus)

    async def scenario() -> None:
        assert await notifier.choose_channel() == "tray"
        alert = new_alert(notifier)
        await notifier.announce(alert)
        assert notifier.channels == ["tray"]
        assert notifier.tray is not None
        assert "1 needs attention" in notifier.tray.toolTip()
        opened: list[tuple[str, str]] = []
        notifier.openRequested.connect(lambda kind, item: opened.append((kind, item)))
        notifier.tray.messageClicked.emit()
        assert opened == [("post", "p1")]
        await notifier.close()

    runner.run(scenario())


def test_desktop_notifications_follow_the_spec_and_the_open_list(
    qapp: QApplication,
    runner: LoopRunner,
    session_bus: str,  # noqa: F811
) -> None:
    notifier = Notifier(tray=QSystemTrayIcon(), bus_address=session_bus)

    async def scenario() -> None:
        server = await FakeNotificationServer.start(
            session_bus, capabilities=("actions", "body", "body-markup")
        )
        try:
            assert await notifier.choose_channel() == "desktop"
            first = new_alert(notifier, "p1", "Tea & <3 at 5")
            await notifier.announce(first)
            second = new_alert(notifier, "p2", "Second")
            await notifier.announce(second)
            assert notifier.channels == ["desktop", "desktop"], "the tray stays quiet"
            assert server.refused == [], "Notify carries the spec's signature (replaces_id: u)"
            one, two = server.notifications
            assert "Tea &amp; &lt;3 at 5" in one.body, "the server reads markup: text escaped"
            assert one.hints["desktop-entry"] == ("s", "postdesk")
            assert notifier.tray is not None
            assert "2 need attention" in notifier.tray.toolTip()

            # Dismissed in the window: withdrawn from the desktop too.
            notifier.dismiss("post", "p2")
            await until(lambda: server.closed == [two.id], what="CloseNotification")
            # A click on the other one opens it (and the server closes it itself); the window
            # gets the click's activation token while it comes forward, and only then.
            opened: list[tuple[str, str]] = []
            tokens: list[str | None] = []

            def open_item(kind: str, item: str) -> None:
                opened.append((kind, item))
                tokens.append(os.environ.get("XDG_ACTIVATION_TOKEN"))

            notifier.openRequested.connect(open_item)
            await server.click(one.id)
            await until(lambda: opened == [("post", "p1")], what="the click")
            assert tokens == ["test-token"]
            assert "XDG_ACTIVATION_TOKEN" not in os.environ
            assert notifier.attention() == 0
            # Another app's notification being clicked is none of ours.
            await server.click(999)
        finally:
            await server.stop()
        # The server left the bus: the next alert falls back to the tray.
        third = new_alert(notifier, "p3", "Third")
        await notifier.announce(third)
        assert notifier.channels[-1] == "tray"
        assert opened == [("post", "p1")]
        await notifier.close()

    runner.run(scenario())


def test_the_panel_lists_newest_first_and_names_its_controls(qapp: QApplication) -> None:
    panel = AttentionPanel()
    older = Alert("post", "p1", "failed", "First post")
    newer = Alert("webhook", "w1", "paused", "https://example.com/hook")
    panel.show_alerts([older, newer])
    assert panel.alerts() == [newer, older]
    assert panel.current_alert() == newer
    dismissed: list[tuple[str, str]] = []
    panel.dismissRequested.connect(lambda kind, item: dismissed.append((kind, item)))
    panel.list.setCurrentRow(1)
    panel.dismiss_button.click()
    assert dismissed == [("post", "p1")]
    for control in (panel, panel.list, panel.open_button, panel.dismiss_button):
        assert control.accessibleName()
    assert panel.dismiss_all_button.accessibleName() == "Dismiss all alerts"
    panel.show_alerts([])
    assert not panel.open_button.isEnabled()
    assert not panel.dismiss_all_button.isEnabled()
