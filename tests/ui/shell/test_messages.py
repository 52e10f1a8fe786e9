"""Messages: a workspace's messages die with it, topics replace and withdraw, the toast never
moves the page, and the status bar's "synced" time ages on a clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.sync.state import SyncState
from tests.ui.waits import settle_layouts
from ui.messages import Level, Message, MessageBridge
from ui.shell.main_window import CLOCK_TICK_MS, MainWindow
from ui.shell.status import connection_text


def window(qtbot: QtBot, bridge: MessageBridge, **kwargs: object) -> MainWindow:
    main = MainWindow(bridge, **kwargs)  # type: ignore[arg-type]
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    return main


def test_closing_a_scope_withdraws_its_message_and_disarms_its_action(qtbot: QtBot) -> None:
    bridge = MessageBridge()
    main = window(qtbot, bridge)
    scope = bridge.scope()
    undone: list[int] = []
    scope.info("Post rescheduled.", action_label="Undo", action=lambda: undone.append(1))
    assert main.banner.isVisible()
    shown = main.banner.current
    assert shown is not None
    assert shown.action is not None
    scope.close()
    assert not main.banner.isVisible(), "a closed workspace's message goes away"
    shown.action()  # a click that raced the switch
    assert undone == []
    scope.info("late news")
    assert not main.banner.isVisible(), "a closed scope posts nothing"


def test_another_owners_message_stays_when_a_scope_closes(qtbot: QtBot) -> None:
    bridge = MessageBridge()
    main = window(qtbot, bridge)
    scope = bridge.scope()
    bridge.post(Message("The workspace list was damaged.", Level.ERROR))
    scope.close()
    assert main.banner.isVisible()
    assert main.banner.text() == "The workspace list was damaged."


def test_a_topic_is_withdrawn_alone(qtbot: QtBot) -> None:
    bridge = MessageBridge()
    main = window(qtbot, bridge)
    scope = bridge.scope()
    scope.post(Message("Offline.", Level.WARNING, topic="sync"))
    scope.withdraw("other")
    assert main.banner.isVisible()
    scope.withdraw("sync")
    assert not main.banner.isVisible()


def test_two_actions_each_run_once(qtbot: QtBot) -> None:
    bridge = MessageBridge()
    main = window(qtbot, bridge)
    ran: list[str] = []
    bridge.post(
        Message("API key refused.", Level.ERROR, action_label="Retry",
                action=lambda: ran.append("retry"), second_label="Replace key…",
                second_action=lambda: ran.append("replace"))
    )  # fmt: skip
    assert main.banner.second_button.isVisible()
    main.banner.second_button.click()
    assert ran == ["replace"]
    assert not main.banner.isVisible()


def test_the_toast_does_not_move_the_page(qtbot: QtBot) -> None:
    bridge = MessageBridge()
    main = window(qtbot, bridge)
    page = QWidget()
    button = QPushButton("Week", page)
    QVBoxLayout(page).addWidget(button)
    main.set_page("calendar", page)
    qtbot.waitUntil(button.isVisible)
    before = button.mapToGlobal(QPoint(0, 0))
    bridge.post(Message("A long message " * 20, Level.ERROR, hint="And a hint."))
    settle_layouts()
    assert main.banner.isVisible()
    assert button.mapToGlobal(QPoint(0, 0)) == before
    main.banner.dismiss()
    settle_layouts()
    assert button.mapToGlobal(QPoint(0, 0)) == before
    assert main.banner.geometry().bottom() <= main.page_area.rect().bottom()


def test_synced_just_now_ages_with_the_clock(qtbot: QtBot) -> None:
    now = [datetime(2026, 3, 1, 12, 0, tzinfo=UTC)]
    main = window(qtbot, MessageBridge(), clock=lambda: now[0])
    main.show_sync_state(SyncState("idle", "Up to date.", last_sync_at=now[0]))
    assert main.sync_label.text() == "Synced just now"
    assert main.status_clock.isActive()
    assert CLOCK_TICK_MS <= 30_000
    now[0] += timedelta(seconds=90)
    main.status_clock.timeout.emit()
    assert main.sync_label.text() == "Synced 1 min ago"


def test_the_sync_label_tells_what_was_refreshed_and_when(qtbot: QtBot) -> None:
    now = [datetime(2026, 3, 1, 12, 0, tzinfo=UTC)]
    main = window(qtbot, MessageBridge(), clock=lambda: now[0])
    full = now[0] - timedelta(minutes=9)
    main.show_sync_state(
        SyncState("idle", "Up to date.", last_sync_at=now[0], last_full_sync_at=full)
    )
    assert main.sync_label.text() == "Today: just now · everything: 9 min ago"
    assert "every minute" in main.sync_label.toolTip()
    now[0] += timedelta(seconds=25)
    main.status_clock.timeout.emit()
    assert main.sync_label.text() == "Today: 20 s ago · everything: 9 min ago"
    now[0] += timedelta(hours=3)
    main.status_clock.timeout.emit()
    today = main.sync_label.text()
    assert today.startswith("Today: "), today
    assert "min" not in today.split("·")[0], "over an hour: the time it was, not an age"


def test_a_failed_write_never_leaves_online_in_the_status_bar(qtbot: QtBot) -> None:
    main = window(qtbot, MessageBridge())
    now = datetime.now(UTC)
    main.show_sync_state(SyncState("idle", "Up to date.", last_sync_at=now))
    assert main.connection_label.text() == "Online"
    offline = SyncState("offline", "No connection.", last_sync_at=now, kind="offline")
    main.show_sync_state(offline)
    assert main.connection_label.text() == "Offline — showing saved data"


def test_the_status_bar_never_claims_saved_data_that_does_not_exist() -> None:
    never = SyncState("error", "The server answered with an HTML page.")
    assert "saved data" not in connection_text(never)
    assert "nothing saved" in connection_text(never)
    offline = SyncState("offline", "No connection.", last_sync_at=datetime.now(UTC))
    assert connection_text(offline) == "Offline — showing saved data"


def test_the_saved_sync_time_shows_before_any_sync_of_this_run(qtbot: QtBot) -> None:
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    main = window(qtbot, MessageBridge(), clock=lambda: now)
    main.show_sync_state(None)
    main.show_saved_sync(now - timedelta(minutes=5))
    assert main.sync_label.text() == "Synced 5 min ago"
    assert main.connection_label.text() == "Connecting…"
