"""Issue 19 §3 through the whole app: a server's Retry-After of 99999999 s holds the workspace
at most 15 minutes, the status bar says the server's value, and *Retry now* ends the wait."""

from __future__ import annotations

import asyncio
import time

import pytest
from PySide6.QtWidgets import QApplication

from app.api.retry import MAX_RETRY_AFTER
from tests.tools.odd_hostile import HOSTILE_RETRY_EVERY
from tests.tools.odd_server import OddServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options, started
from ui.application import Application


def test_a_huge_retry_after_is_capped_and_retry_now_ends_it(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(modes={"retryhuge"}, quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            session = app.session
            assert session is not None
            label = app.window.connection_label
            button = app.window.retry_now_button
            gate = session.client.rate_gate
            # the first sync met a 429 "Retry-After: 99999999" (every 5th request)
            await until(lambda: gate.wait_remaining() > 0, what="the workspace held")
            assert gate.wait_remaining() <= MAX_RETRY_AFTER
            assert gate.server_said == "99999999"
            await until(lambda: label.text().startswith("Rate limited"), what="the wait shown")
            await until(button.isVisible, what="Retry now offered")
            held_at = odd.stats()["requests"]
            assert button.accessibleName() == "Retry now"
            with odd.traffic.lock:  # the next requests are answered normally for a while
                odd.traffic.count = HOSTILE_RETRY_EVERY * 10
            odd.traffic.limited_until = time.monotonic()
            button.click()
            await until(lambda: odd.stats()["requests"] > held_at, what="a request after Retry")
            await until(lambda: not button.isVisible(), what="the button gone once through")
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_a_server_clock_ten_minutes_behind_is_said_in_the_status_bar(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(modes={"skew"}, quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            label = app.window.connection_label
            await until(lambda: label.text() == "Online — server clock differs", what="warned")
            assert "10 min behind this computer's" in label.toolTip()
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_a_list_that_never_ends_stops_the_sync_with_words(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(modes={"selflink"}, quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            session = app.session
            assert session is not None
            await until(
                lambda: session.state is not None and session.state.kind is not None,
                what="the sync to fail",
            )
            assert session.state is not None
            assert "repeats page 1" in session.state.message
            assert odd.stats()["requests"] < 40
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())
