"""The whole app against the independent odd server (tests/tools/odd_server.py): what a user
sees when the server breaks the spec's promises or misbehaves."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from tests.tools.odd_server import OddServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options, started
from ui.application import Application
from ui.messages import Level


@pytest.fixture
def hostile(monkeypatch: pytest.MonkeyPatch) -> Iterator[OddServer]:
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")
    with OddServer(modes={"hostile"}, quiet=True) as server:
        yield server


def test_items_left_out_of_a_sync_are_named_in_the_window(
    qapp: QApplication, runner: LoopRunner, hostile: OddServer
) -> None:
    """Three posts and a label break the spec (nulls, an impossible date): the rest shows, and
    the window says which were left out instead of staying silent."""

    async def scenario() -> None:
        app = Application(qapp, options(hostile.base_url))
        task = await started(app)
        assert app.session is not None
        assert app.session.first_sync_ok is True
        banner = app.window.banner
        await until(lambda: "could not be read" in banner.text(), what="unreadable items named")
        assert banner.current is not None
        assert banner.current.level is Level.WARNING
        assert "3 posts could not be read" in banner.text()
        assert "1 label could not be read" in banner.text()
        assert app.cache is not None
        assert app.cache.count_posts() == 57
        # A light refresh that finds the same items does not post the message again.
        banner.dismiss()
        app.session.refresh()
        await asyncio.sleep(1.0)
        assert banner.current is None
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())
