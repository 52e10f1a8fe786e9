"""What counts as news: transitions after the baseline, open until handled (no Qt)."""

from __future__ import annotations

from ui.notifications.changes import ChangeWatcher, Item


def test_baseline_is_history_and_transitions_alert_once() -> None:
    watcher = ChangeWatcher()
    assert watcher.observe("post", [Item("a", "failed"), Item("b", "scheduled")]) == []
    assert watcher.observe("webhook", [Item("w", "paused"), Item("v", "enabled")]) == []
    assert watcher.open_alerts() == []

    alerts = watcher.observe(
        "post",
        [Item("a", "failed"), Item("b", "partially_published", "Hello"), Item("c", "failed")],
    )
    assert {(a.id, a.status) for a in alerts} == {("b", "partially_published"), ("c", "failed")}
    assert (
        watcher.observe(
            "post", [Item("a", "failed"), Item("b", "partially_published"), Item("c", "failed")]
        )
        == []
    )
    assert len(watcher.open_alerts()) == 2

    (paused,) = watcher.observe("webhook", [Item("w", "paused"), Item("v", "paused", "https://x")])
    assert paused.title == "Webhook paused"
    assert "https://x" in paused.text

    watcher.acknowledge("post", "c")
    assert {a.id for a in watcher.open_alerts()} == {"b", "v"}
    # b was moved back to draft: no longer needs attention.
    watcher.observe("post", [Item("a", "failed"), Item("c", "failed")])
    assert {a.id for a in watcher.open_alerts()} == {"v"}
    # b fails again later: news again.
    (again,) = watcher.observe("post", [Item("b", "failed")])
    assert again.title == "Post failed"


def test_reset_starts_a_new_baseline() -> None:
    watcher = ChangeWatcher()
    watcher.observe("post", [])
    watcher.observe("post", [Item("x", "failed")])
    assert watcher.open_alerts()
    watcher.reset()
    assert watcher.open_alerts() == []
    assert watcher.observe("post", [Item("y", "failed")]) == []
