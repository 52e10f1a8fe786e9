"""Issue 15 §4: *Recent sets ▾* tells two accounts with the same display name apart (network
and handle) and each set is one line that fits the window."""

from __future__ import annotations

from datetime import UTC

from pytestqt.qtbot import QtBot

from app.models.accounts import SocialAccountSummary
from ui.composer.destinations import DestinationPicker


def _account(n: int, platform: str, handle: str) -> SocialAccountSummary:
    return SocialAccountSummary(
        id=f"a{n}", platform=platform, name="Northwind Coffee", username=handle
    )


def test_same_named_accounts_read_apart_and_a_long_set_fits(qtbot: QtBot) -> None:
    picker = DestinationPicker(UTC)
    qtbot.addWidget(picker)
    picker.resize(600, 300)
    accounts = [
        _account(1, "x", "northwindcoffee"),
        _account(2, "pinterest", "northwindcoffee"),
        *(_account(n, "mastodon", f"northwind{n}@mastodon.example") for n in range(3, 12)),
    ]
    picker.set_accounts(accounts, [])
    picker.recent_provider = lambda: [["a1"], ["a2"], [a.id for a in accounts]]
    menu = picker.recent_menu()
    texts = [action.text() for action in menu.actions()]
    assert texts[:2] == ["X @northwindcoffee", "Pinterest @northwindcoffee"]
    assert menu.fontMetrics().horizontalAdvance(texts[2]) <= max(240, picker.window().width() // 2)
    assert menu.actions()[2].toolTip().count("@") >= len(accounts)
