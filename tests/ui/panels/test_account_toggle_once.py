"""An account's publishing toggle is not idempotent: a double-click sends one request, also when
the server refuses the first at once (measured before: two `PUT .../toggle` 60 ms apart on a
404), and a toggle while one is in flight is not sent."""

from __future__ import annotations

from urllib.parse import urlsplit

from PySide6.QtCore import QElapsedTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession, Posted
from tests.ui.panels.counting_relay import CountingRelay
from tests.ui.panels.test_other_panels import click
from ui.panels.accounts import AccountsPanel
from ui.write_gate import account_key

TOGGLE = b"PUT /api/social-accounts/"


def test_a_double_click_on_a_refused_toggle_sends_one_request(
    qapp: QApplication,
    runner: LoopRunner,
    sandbox: SandboxServer,
    make_session: MakeSession,
    posted: Posted,
) -> None:
    relay = CountingRelay(urlsplit(sandbox.base_url).port or 0, TOGGLE)
    page = AccountsPanel()
    page.resize(1000, 600)
    page.show()

    async def scenario() -> None:
        await relay.up()
        session = make_session(relay.base_url, sandbox.keys.admin)
        page.set_session(session)
        await until(lambda: page.model.rowCount() > 0, what="accounts")
        account = page.model.account_at(0)
        assert account is not None
        # Gone from this workspace on the server meanwhile: the toggle is answered 404 at once.
        with sandbox.store.tx() as db:
            db.update("social_accounts", account.id, {"workspace_id": sandbox.other_workspace_id})
        page.table.selectRow(0)
        since_first = QElapsedTimer()
        since_first.start()
        click(page.toggle_button)
        await until(lambda: relay.count == 1 and not session.writes.busy_keys(), what="the refusal")
        # The second press of the same double-click, after the answer came back.
        assert since_first.elapsed() < QGuiApplication.styleHints().mouseDoubleClickInterval()
        click(page.toggle_button)
        await until(
            lambda: not session.writes.busy_keys() and not page.gate.busy_keys(),
            what="any second request to end",
        )
        await relay.down()

    runner.run(scenario())
    assert relay.count == 1
    [refusal] = posted.texts()  # said once, in words
    assert "deleted" in refusal, refusal


def test_a_toggle_while_one_is_in_flight_is_not_sent(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    make_session: MakeSession,
) -> None:
    """From anywhere (the panel's button, the palette's action): one toggle per account at a
    time, through the workspace's write gate."""
    relay = CountingRelay(urlsplit(demo_sandbox.base_url).port or 0, TOGGLE)
    page = AccountsPanel()
    page.show()

    async def scenario() -> None:
        await relay.up()
        session = make_session(relay.base_url, demo_sandbox.keys.admin)
        page.set_session(session)
        await until(lambda: page.model.rowCount() > 0, what="accounts")
        account = page.model.account_at(0)
        assert account is not None
        before = account.is_active
        page.table.selectRow(0)
        page.toggle_selected()
        assert session.writes.is_busy(account_key(account.id))
        assert not page.toggle_button.isEnabled()  # shown busy
        assert session.toggle_account(account.id) is None  # e.g. Ctrl+K ▸ toggle: dropped
        page.toggle_selected()
        await until(lambda: not session.writes.busy_keys(), what="the answer")
        await until(lambda: page.toggle_button.isEnabled(), what="the button back")
        after = next(a for a in demo_sandbox.store.accounts() if a["id"] == account.id)
        assert bool(after["is_active"]) is not bool(before)
        await relay.down()

    runner.run(scenario())
    assert relay.count == 1
