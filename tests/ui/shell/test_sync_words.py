"""A sync's state in words: the toast's button follows the failure kind, a workspace that never
synced says so, unreadable items are named, and a rate-limit wait counts down."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.models.unreadable import UnreadableItem
from app.sync.state import NOTHING_SAVED_YET, SHOWING_SAVED_COPY, SyncState
from app.workspaces.profiles import Paths, Profile
from ui.messages import Level, Message, MessageBridge
from ui.shell.main_window import MainWindow
from ui.shell.status import connection_text
from ui.workspace_manager import UNREADABLE_TOPIC, WorkspaceManager


async def _nothing() -> None:
    return None


async def _no_key(_profile: Profile) -> str:
    raise AssertionError("not asked")


def manager(tmp_path: Path) -> tuple[WorkspaceManager, list[Message]]:
    bridge = MessageBridge()
    posted: list[Message] = []
    bridge.posted.connect(posted.append)
    made = WorkspaceManager(Paths(), bridge, first_paint=_nothing, key_lookup=_no_key)
    made.profile = Profile.create("Acme", "https://example.com/api", "UTC")
    made.scope = bridge.scope()
    return made, posted


def test_a_refused_key_offers_replace_key_and_other_failures_retry(tmp_path: Path) -> None:
    made, _ = manager(tmp_path)
    refused = made.sync_message(
        SyncState("auth_failed", "Token expired.", kind="key_refused", hint=SHOWING_SAVED_COPY)
    )
    assert (refused.action_label, refused.second_label) == ("Replace key…", "")
    server = made.sync_message(
        SyncState("error", "Server error.", kind="server_error", hint=SHOWING_SAVED_COPY)
    )
    assert (server.action_label, server.second_label) == ("Retry", "")
    assert server.level is Level.ERROR
    assert NOTHING_SAVED_YET in server.hint, "never synced: nothing was downloaded yet"
    assert SHOWING_SAVED_COPY not in server.hint
    offline = made.sync_message(
        SyncState(
            "offline",
            "No connection.",
            kind="offline",
            hint=SHOWING_SAVED_COPY,
            last_sync_at=datetime.now(UTC),
        )
    )
    assert offline.level is Level.WARNING
    assert SHOWING_SAVED_COPY in offline.hint


def test_unreadable_items_are_named_once(tmp_path: Path) -> None:
    made, posted = manager(tmp_path)
    items = (
        UnreadableItem("p7", 3, "status: null", "GET /posts", ("status",), "Spring menu"),
        UnreadableItem("p9", 5, "status: null", "GET /posts", ("status",), "Autumn menu"),
    )
    state = SyncState("idle", "Up to date.", unreadable=items, last_sync_at=datetime.now(UTC))
    made._on_sync_state(state)
    made._on_sync_state(state)
    shown = [m for m in posted if m.topic == UNREADABLE_TOPIC]
    assert [m.text for m in shown] == [
        "2 posts could not be read whole: its status on 2 of them (“Spring menu”, “Autumn menu”)."
    ]
    assert "“unknown”" in shown[0].hint
    assert "some items could not be read" in connection_text(state)


def test_the_status_bar_names_the_failure_kind() -> None:
    now = datetime.now(UTC)
    redirect = SyncState("error", "Redirected.", kind="redirect", last_sync_at=now)
    assert connection_text(redirect) == "Wrong address (redirected) — showing saved data"
    html = SyncState("error", "An HTML page.", kind="not_the_api")
    assert connection_text(html) == "Not the API — nothing saved yet"


def test_a_rate_limit_wait_counts_down(qtbot: QtBot) -> None:
    main = MainWindow(MessageBridge())
    qtbot.addWidget(main)
    main.show_sync_state(
        SyncState("rate_limited", "Too many requests.", retry_in=30.0, kind="rate_limited")
    )
    assert main.connection_label.text() == "Rate limited, retrying in 30 s"
    assert main.countdown.isActive()
    assert main._retry_deadline is not None
    main._retry_deadline -= 12
    main.countdown.timeout.emit()
    assert main.connection_label.text() == "Rate limited, retrying in 18 s"
    main.show_sync_state(SyncState("idle", "Up to date.", last_sync_at=datetime.now(UTC)))
    assert not main.countdown.isActive()
    assert main.connection_label.text() == "Online"


def test_no_workspace_is_not_connected_and_an_opened_one_is_connecting(qtbot: QtBot) -> None:
    """A first run (the welcome dialog, nothing opened) said "No workspace · Connecting…"."""
    main = MainWindow(MessageBridge())
    qtbot.addWidget(main)
    assert main.connection_label.text() == "Not connected"
    main.set_workspace_name("Acme", "https://example.com/api")
    assert main.connection_label.text() == "Connecting…"
    main.show_sync_state(SyncState("idle", "Up to date.", last_sync_at=datetime.now(UTC)))
    main.set_workspace_name("Acme renamed", "https://example.com/api")
    assert main.connection_label.text() == "Online"
