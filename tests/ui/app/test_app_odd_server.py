"""The whole app against the independent odd server (tests/tools/odd_server.py): what a user
sees when the server breaks the spec's promises or misbehaves."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from app.sync.state import SyncState
from tests.tools.odd_server import DROP_EVERY, RATE_EVERY, OddServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options, started
from ui.application import Application
from ui.messages import Level
from ui.panels.webhooks import WebhooksPage


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
        states: list[SyncState] = []
        # Connected after the workspace's own handler: it runs once that handler has returned.
        app.session.syncStateChanged.connect(states.append)
        app.session.refresh()
        await until(
            lambda: any(s.phase == "syncing" for s in states) and states[-1].phase != "syncing",
            what="the refresh to finish",
        )
        assert states[-1].phase == "idle"
        assert "3 posts could not be read" in states[-1].unreadable_summary()
        assert banner.current is None
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_a_duplicate_whose_answer_was_lost_is_reconciled_without_being_asked(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server commits the batch, then drops the connection: the app must not resend, and
    must read the server again by itself so the copy shows, instead of leaving the user with a
    "Refresh to check" banner while the calendar says nothing was made."""
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(modes={"drop"}, quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            assert app.session is not None
            assert app.cache is not None
            await until(
                lambda: app.cache is not None and app.cache.count_posts() == 60, what="sync"
            )
            original = next(
                post
                for post in map(app.cache.post, sorted(app.cache.post_ids()))
                if post is not None and post.status == "scheduled" and post.platforms
            )
            with odd.traffic.lock:  # the next request is the one the server drops
                odd.traffic.count = DROP_EVERY - 1
            app.session.duplicate(original.id)
            await until(
                lambda: app.cache is not None and app.cache.count_posts() == 61, 10, "the copy"
            )
            assert len(odd.api.world.posts) == 61  # made once, never resent
            banner = app.window.banner
            assert "unknown whether it was saved" in banner.text()
            assert "Refresh to check" not in banner.text()
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_an_expired_key_given_for_one_run_says_how_to_replace_it(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --base-url the key comes from POSTDESK_API_KEY and the window has no way to
    replace it: the advice must not point at a control that is not there."""
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(modes={"expired"}, quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            banner = app.window.banner
            await until(lambda: "Token expired." in banner.text(), what="the refusal")
            assert not banner.second_button.isVisible()  # no "Replace key…" for a one-run key
            assert "replace it here" not in banner.text()
            assert "POSTDESK_API_KEY" in banner.text()
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_the_status_bar_leaves_rate_limited_once_a_write_got_through(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 429 on a write says "Rate limited, retrying in 1 s"; once the retry went through the
    status bar must not keep saying so until the next sync."""
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(modes={"rate"}, quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            assert app.session is not None
            assert app.cache is not None
            label = app.window.connection_label
            await until(lambda: label.text() == "Online", what="first sync done")
            post_id = next(
                post.id
                for post in map(app.cache.post, sorted(app.cache.post_ids()))
                if post is not None and post.status == "scheduled"
            )
            # Any Retry-After of the first sync has passed, for the server and for the app.
            session = app.session
            await until(
                lambda: (
                    time.monotonic() >= odd.traffic.limited_until
                    and session.client.rate_gate.wait_remaining() == 0
                ),
                what="the first sync's rate limit to pass",
            )
            with odd.traffic.lock:  # the next request is answered 429
                odd.traffic.count = RATE_EVERY - 1
            app.session.move_to_draft(post_id)
            await until(lambda: label.text().startswith("Rate limited"), what="the 429 shown")
            await until(lambda: app.cache is not None and app.cache.post(post_id) is not None
                        and app.cache.post(post_id).status == "draft", what="the write")  # type: ignore[union-attr]  # fmt: skip
            await until(lambda: label.text() == "Online", 3, "the status back to Online")
            assert odd.stats()["early"] == []
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_a_refused_test_ping_is_explained_once_without_a_form_hint(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The odd server refuses the ping of its flaky webhook with a 422 (the receiver did not
    answer 2xx): the line under the buttons says so; no toast tells the user to correct
    highlighted fields that do not exist."""
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            app.window.show_section("webhooks")
            page = app.window.built_page("webhooks")
            assert isinstance(page, WebhooksPage)
            await until(lambda: page.model.rowCount() == 3, what="the webhooks")
            flaky = next(h for h in odd.api.world.webhooks if "flaky" in h["endpoint"])
            page.select_webhook(flaky["id"])
            page.send_test()
            await until(lambda: "could not be sent" in page.test_label.text(), what="the answer")
            assert "HTTP 500" in page.test_label.text()
            # The write has ended and its failure, if any, has been reported.
            await until(lambda: not page.gate.is_busy(flaky["id"]), what="the ping to end")
            assert "highlighted fields" not in app.window.banner.text()
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())
